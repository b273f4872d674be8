"""Parameter: a Tensor that a Module registers as one of its parameters."""

from __future__ import annotations

from typing import Any

from ..tensor._tensor import Tensor, make_tensor

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "is_lazy"]


def _detached(data: Tensor) -> Tensor:
    """data.detach() as PyTorch's Tensor._make_subclass calls it: an aten::detach a profile
    shows, with the Python keys excluded so that dispatch modes do not see it."""
    from .._ops import ops
    from ..dispatcher.tls import ExcludeDispatchKeyGuard
    from ..layers.python import PYTHON_KEYS

    with ExcludeDispatchKeyGuard(PYTHON_KEYS):
        return ops.aten.detach.default(data)


class _ParameterMeta(type):
    """isinstance(t, Parameter) also holds for a tensor subclass instance (a FakeTensor) made
    a parameter: it stays its own type, marked `_is_param` (as PyTorch's metaclass does)."""

    def __instancecheck__(cls, instance: Any) -> bool:
        if (
            cls is Parameter
            and isinstance(instance, Tensor)
            and getattr(instance, "_is_param", False)
        ):
            return True
        return super().__instancecheck__(instance)


class Parameter(Tensor, metaclass=_ParameterMeta):
    """A tensor that is a module parameter (requires grad by default); shares `data`'s storage.

    >>> import keyroute
    >>> p = Parameter(keyroute.zeros(2))
    >>> p.requires_grad, isinstance(p, keyroute.Tensor)
    (True, True)
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            from .._api.creation import empty

            data = empty(0)
        if type(data) is not Tensor and not isinstance(data, Parameter) and type(data) is not cls:
            # A tensor subclass (FakeTensor, a wrapper subclass) keeps its type.
            t = data.detach().requires_grad_(requires_grad)
            if type(t) is not type(data):
                raise RuntimeError(
                    f"Creating a Parameter from an instance of type {type(data).__name__} "
                    "requires that detach() returns an instance of the same type, but return "
                    f"type {type(t).__name__} was found instead. To use the type as a "
                    "Parameter, please correct the detach() semantics defined by its "
                    "__torch_dispatch__() implementation."
                )
            t._is_param = True
            return t
        p = make_tensor(_detached(data)._data, data._dtype, data._key_set, cls)
        p._version_counter = data._version_counter
        if requires_grad:
            p.requires_grad_(True)
        else:
            p._key_set &= ~(1 << 64)
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass

    def __repr__(self, **kwargs: Any) -> str:
        return "Parameter containing:\n" + Tensor.__repr__(self)

    def __reduce_ex__(self, proto: int) -> Any:
        # The detached tensor pickles itself (every dtype, strides, storage offset).
        return (Parameter, (self.detach(), self.requires_grad))

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        out = Parameter(self.detach().clone(), self.requires_grad)
        memo[id(self)] = out
        return out


class Buffer(Tensor):
    """Marks a tensor to be registered as a module buffer when assigned as an attribute."""

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Buffer:
        if data is None:
            from .._api.creation import empty

            data = empty(0)
        b = make_tensor(_detached(data)._data, data._dtype, data._key_set, cls)
        b._version_counter = data._version_counter
        b.persistent = persistent
        return b

    def __init__(self, data: Tensor | None = None, *, persistent: bool = True) -> None:
        pass


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (a lazy module's, until its first call)."""

    cls_to_become = Parameter

    def __new__(
        cls, requires_grad: bool = True, device: Any = None, dtype: Any = None
    ) -> UninitializedParameter:
        from .._api.creation import empty

        return Parameter.__new__(cls, empty(0, dtype=dtype), requires_grad)

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:
        pass

    def __repr__(self, **kwargs: Any) -> str:
        return "<UninitializedParameter>"


class UninitializedBuffer(Tensor):
    """A buffer whose shape is not known yet (a lazy module's, until its first call)."""

    def __new__(
        cls, requires_grad: bool = False, device: Any = None, dtype: Any = None
    ) -> UninitializedBuffer:
        from .._api.creation import empty

        data = empty(0, dtype=dtype)
        return make_tensor(_detached(data)._data, data._dtype, data._key_set, cls)

    def __init__(self, requires_grad: bool = False, device: Any = None, dtype: Any = None) -> None:
        pass

    def __repr__(self, **kwargs: Any) -> str:
        return "<UninitializedBuffer>"


def is_lazy(param: Any) -> bool:
    """Whether param is a lazy module's placeholder."""
    return isinstance(param, (UninitializedParameter, UninitializedBuffer))
