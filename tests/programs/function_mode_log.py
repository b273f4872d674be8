# Source: the TorchFunctionMode example in PyTorch's "Extending PyTorch" notes
# https://pytorch.org/docs/stable/notes/extending.html#extending-all-torch-api-with-modes
# Changed: resolve_name on each call; a tiny model as the workload.
import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode, resolve_name


class FunctionLog(TorchFunctionMode):
    def __torch_function__(self, func, types, args, kwargs=None):
        print(f"Function Log: {resolve_name(func)}")
        return func(*args, **(kwargs or {}))


with FunctionLog():
    a = torch.rand(3) if False else torch.ones(3)
    b = torch.add(a, 1)
    c = F.relu(b - 3)
    d = c.sum()
print(d)
