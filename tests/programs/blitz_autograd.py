# Source: pytorch/tutorials beginner_source/blitz/autograd_tutorial.py
# https://pytorch.org/tutorials/beginner/blitz/autograd_tutorial.html
# Changed: the resnet18 part (torchvision, downloads) is left out; the worked examples kept.
import torch
from torch import nn, optim

a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3 * a**3 - b**2
external_grad = torch.tensor([1.0, 1.0])
Q.backward(gradient=external_grad)
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 10))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(8, 10)
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
print([p.requires_grad for p in model.parameters()])
print(sum(p.numel() for p in optimizer.param_groups[0]["params"]))
