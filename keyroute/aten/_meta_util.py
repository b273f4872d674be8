"""Building blocks of meta functions: new meta tensors, meta views, and the common rules
(elementwise broadcasting + promotion + TensorIterator strides; reductions).

A meta function receives the operator's arguments (tensors of any device) and returns meta
tensors describing the outputs; it raises PyTorch's error for bad input. It reads metadata
only, so it costs the same for a 4 GiB tensor as for a scalar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tensor._tensor import META_KEYS, Tensor, make_tensor
from ..tensor.dtype import dtype
from ..tensor.meta_array import MetaArray
from . import _shape
from ._promotion import result_type

__all__ = [
    "new_meta",
    "meta_view",
    "meta_like",
    "elementwise",
    "shape_of",
    "check",
    "tensor_subclass_like",
]


def check(cond: bool, msg: str, exc: type[Exception] = RuntimeError) -> None:
    if not cond:
        raise exc(msg)


def is_meta_data(t: Any) -> bool:
    """Whether t holds no values (a meta or fake tensor): PyTorch runs its Python meta
    functions there, whose checks are sometimes fewer than its CPU kernel's."""
    return isinstance(t._data, MetaArray)


def shape_of(t: Any) -> tuple[int, ...]:
    return t._data.shape if hasattr(t, "_data") else ()


def new_meta(shape: Sequence[int], dt: dtype, stride: Sequence[int] | None = None) -> Tensor:
    """A fresh meta tensor (its own storage)."""
    shape = tuple(int(s) for s in shape)
    for s in shape:
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: {list(shape)}"
            )
    return make_tensor(MetaArray(shape, stride, dt.np), dt, META_KEYS)


def meta_like(t: Tensor, dt: dtype | None = None) -> Tensor:
    """A fresh meta tensor with t's shape and strides (dense ones if t is not dense)."""
    shape = shape_of(t)
    stride = t.stride()
    if not _is_non_overlapping_and_dense(shape, stride):
        stride = _shape.elementwise_strides(shape, [(shape, stride)])
    return new_meta(shape, dt if dt is not None else t._dtype, stride)


def _is_non_overlapping_and_dense(shape: Sequence[int], stride: Sequence[int]) -> bool:
    if any(s == 0 for s in shape):
        return True  # PyTorch: an empty tensor is dense
    if len(shape) == 1:
        return shape[0] < 2 or stride[0] == 1
    dims = sorted(range(len(shape)), key=lambda d: (stride[d] if shape[d] != 1 else 0, d))
    expected = 1
    for d in dims:
        if shape[d] == 1:
            continue
        if stride[d] != expected:
            return False
        expected *= shape[d]
    return True


def meta_view(
    base: Tensor, shape: Sequence[int], stride: Sequence[int], offset: int | None = None
) -> Tensor:
    """A meta tensor viewing base's storage with a new layout."""
    data = base._data
    if offset is None:
        offset = base.storage_offset()
    storage = None
    if isinstance(data, MetaArray):
        nbytes = data.storage_nbytes
        storage = data.storage
    else:
        from ..tensor._tensor import _root_array

        nbytes = _root_array(data).nbytes
    m = MetaArray(tuple(shape), tuple(stride), base._dtype.np, offset, nbytes, storage)
    ks = base._key_set if isinstance(data, MetaArray) else META_KEYS
    return make_tensor(m, base._dtype, ks, type(base) if isinstance(data, MetaArray) else Tensor)


def elementwise(
    *tensors: Any, dt: dtype | None = None, shape: tuple[int, ...] | None = None
) -> Tensor:
    """Output of an elementwise op over tensors/scalars: broadcast shape, TensorIterator
    strides, dtype `dt` (default: the promoted type)."""
    ts = [t for t in tensors if isinstance(t, Tensor)]
    if shape is None:
        shape = _shape.broadcast_shapes(*(shape_of(t) for t in ts))
    if dt is None:
        dt = result_type(*tensors)
    stride = _shape.elementwise_strides(shape, [(shape_of(t), t.stride()) for t in ts])
    return new_meta(shape, dt, stride)


def type_string(t: Tensor) -> str:
    """The tensor type as PyTorch's messages print it (Tensor::toString): the legacy type name
    (`torch.FloatTensor`) on CPU, `MetaFloatType` on meta."""
    if t.is_meta:
        return f"Meta{t._dtype._short}Type"
    return t.type()


_SUBCLASS_LIKE: list[int] = []


def tensor_subclass_like(t: Any) -> bool:
    """at::isTensorSubclassLike: a dispatch mode is active (Python not excluded), or t carries
    the Python, Functionalize, functorch (FuncTorchBatched/GradWrapper, Batched), Sparse or
    SparseCsr key, or is a meta tensor."""
    from ..dispatcher.keys import BackendComponent, DispatchKey
    from ..dispatcher.keyset import functionality_bit, key_bits
    from ..dispatcher.tls import is_excluded, state

    # (the mode stack read from the thread state, as layers/python.py's mode_stack does)
    if state.thread_state.modes and not is_excluded(DispatchKey.Python):
        return True
    if not _SUBCLASS_LIKE:
        keys = ("Python", "Functionalize", "FuncTorchBatched", "FuncTorchGradWrapper", "Batched")
        bits = 0
        for k in keys:
            bits |= key_bits(DispatchKey[k])
        bits |= functionality_bit(DispatchKey.Sparse) | functionality_bit(DispatchKey.SparseCsr)
        _SUBCLASS_LIKE.append(bits | 1 << (BackendComponent.MetaBit - 1))
    return bool(t._key_set & _SUBCLASS_LIKE[0])
