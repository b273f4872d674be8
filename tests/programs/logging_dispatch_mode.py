# Source: the TorchDispatchMode logging example of PyTorch's docs and dev-discuss post
# https://dev-discuss.pytorch.org/t/what-and-why-is-torch-dispatch/557 and
# https://pytorch.org/docs/stable/notes/extending.html#extending-all-torch-api-with-modes
# Changed: a small MLP step as the workload.
import torch
import torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode


class LoggingMode(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        print(f"{func.__module__}.{func.__name__}")
        return func(*args, **(kwargs or {}))


x = torch.ones(2, 3, requires_grad=True)
w = torch.full((3, 4), 0.5, requires_grad=True)
with LoggingMode():
    y = (x @ w).relu().sum()
    y.backward()
print(y.item(), x.grad.tolist())
