# Source: PyTorch docs, "Extending torch with a Tensor wrapper type" (MetadataTensor) and
# "Subclassing torch.Tensor" (LoggingTensor-style subclass keeping its type)
# https://pytorch.org/docs/stable/notes/extending.html#subclassing-torch-tensor
import torch


class MetadataTensor:
    def __init__(self, data, metadata=None, **kwargs):
        self._t = torch.as_tensor(data, **kwargs)
        self._metadata = metadata

    def __repr__(self):
        return "Metadata:\n{}\n\ndata:\n{}".format(self._metadata, self._t)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        metadatas = tuple(a._metadata for a in args if hasattr(a, "_metadata"))
        args = [getattr(a, "_t", a) for a in args]
        assert len(metadatas) > 0
        ret = func(*args, **kwargs)
        return MetadataTensor(ret, metadata=metadatas[0])


metadata = {"owner": "Ministry of Silly Walks"}
m = MetadataTensor([[1, 2], [3, 4]], metadata=metadata)
t = torch.tensor([[1, 2], [1, 2]])
print(torch.add(t, m))
print(torch.mul(t, m))


class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is not torch.Tensor.__repr__:
            print("called", func.__name__)
        return super().__torch_function__(func, types, args, kwargs)


x = torch.tensor([1.0, 2.0]).as_subclass(LoggingTensor)
y = x + 1
print(type(y).__name__, y.tolist())
z = torch.mul(y, 2)
print(type(z).__name__, z.sum().item())
