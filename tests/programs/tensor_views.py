# Source: PyTorch docs, "Tensor Views" examples
# https://pytorch.org/docs/stable/tensor_view.html
import torch

t = torch.arange(12.0).reshape(3, 4)
b = t.view(2, 6)
print(t.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
b[0][0] = 3.14
print(t[0][0])
base = torch.tensor([[0, 1], [2, 3]])
print(base.is_contiguous())
t = base.transpose(0, 1)
print(t.is_contiguous())
c = t.contiguous()
print(c.is_contiguous(), c)
x = torch.arange(10)
print(x[2:5], x.narrow(0, 1, 3), x.unfold(0, 3, 2))
y = torch.arange(6).view(2, 3)
print(y.t().stride(), y.unsqueeze(1).shape, y.expand(4, 2, 3).stride(), y.flatten())
z = torch.arange(8).view(2, 2, 2)
print(z.permute(2, 0, 1), z.movedim(0, -1).shape, z.diagonal(0, 1, 2))
print(torch.chunk(torch.arange(7), 3), torch.split(torch.arange(7), [2, 5]))
print(y.unbind(1), y.select(0, 1), y.view_as(torch.empty(3, 2)))
