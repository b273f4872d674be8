# Source: PyTorch docs, "Broadcasting semantics" and "In-place semantics" examples
# https://pytorch.org/docs/stable/notes/broadcasting.html
import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
print((x + y).size())
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(1)
y = torch.empty(3, 1, 7)
print((x + y).size())
x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
try:
    (x + y).size()
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x.add_(y)).size())
x = torch.empty(1, 3, 1)
y = torch.empty(3, 1, 7)
try:
    x.add_(y)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.add(torch.ones(4, 1), torch.ones(4)).size())
a = torch.arange(6).reshape(2, 3)
print(a + torch.tensor([10, 20, 30]), a * torch.tensor([[2], [3]]))
