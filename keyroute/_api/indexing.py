"""Python API of the indexing operators, and `Tensor.__getitem__` / `__setitem__`.

Indexing follows PyTorch's python_variable_indexing.cpp and ATen's TensorIndexing.h step by
step, so the same aten calls run in the same order:
  x[0] -> select.int; x[1:3] -> slice.Tensor; x[None] -> unsqueeze; x[...] -> alias;
  x[True] -> unsqueeze + index.Tensor; tensors, lists and masks -> index.Tensor;
  x[idx] = v -> copy_/fill_ on the basic-indexed view, or index_put_ for advanced indices.
A Python scalar assigned is first made a 0-d tensor of x's dtype (lift_fresh), as PyTorch does.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._ops import ops
from ..tensor._tensor import Tensor
from ..tensor.dtype import int64
from . import function, method

aten = ops.aten
_select = aten.select.int
_slice = aten.slice.Tensor
_unsqueeze = aten.unsqueeze.default
_alias = aten.alias.default
_index = aten.index.Tensor
_index_put_ = aten.index_put_.default
_view = aten.view.default
_expand = aten.expand.default
_copy_ = aten.copy_.default
_fill_t = aten.fill_.Tensor
_local_scalar = aten._local_scalar_dense.default

INT64_MAX = 9223372036854775807
INT64_MIN = -9223372036854775808
_np_integer = np.integer


# ----------------------------------------------------------------------------- index parsing


def _is_long(obj: Any) -> bool:
    """THPUtils_checkLong: a Python int (not bool) or a NumPy integer."""
    t = type(obj)
    return t is int or (t is not bool and (isinstance(obj, int) or isinstance(obj, _np_integer)))


def _slice_index(v: Any) -> int:
    if isinstance(v, Tensor):
        v = _local_scalar(v)
    v = v.__index__() if not isinstance(v, int) else v
    return max(INT64_MIN, min(INT64_MAX, int(v)))


def _unpack_slice(s: slice) -> tuple[int, int, int]:
    """PySlice_Unpack: defaults for None, step 0 rejected, values clamped to int64."""
    start, stop, step = s.start, s.stop, s.step
    if step is None:
        step = 1
    elif type(step) is not int or not INT64_MIN <= step <= INT64_MAX:
        step = _slice_index(step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if start is None:
        start = INT64_MAX if step < 0 else 0
    elif type(start) is not int or not INT64_MIN <= start <= INT64_MAX:
        start = _slice_index(start)
    if stop is None:
        stop = INT64_MIN if step < 0 else INT64_MAX
    elif type(stop) is not int or not INT64_MIN <= stop <= INT64_MAX:
        stop = _slice_index(stop)
    return start, stop, step


def _invalid_index(obj: Any) -> IndexError:
    return IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {type(obj).__name__})"
    )


def _leaves(seq: Any) -> Any:
    if isinstance(seq, (list, tuple, range)):
        for item in seq:
            yield from _leaves(item)
    else:
        yield seq


def _sequence_to_tensor(seq: Any) -> Tensor:
    """indexing_tensor_from_data: int64 unless the data is bool (or uint8) throughout."""
    from .creation import tensor

    if isinstance(seq, np.ndarray):
        kind = seq.dtype
        dt = seq.dtype.name if kind in (np.bool_, np.uint8) else "int64"
    else:
        dt = None
        for leaf in _leaves(seq):
            if isinstance(leaf, Tensor):
                name = leaf._dtype.name if leaf._dtype.name in ("bool", "uint8") else "int64"
            elif isinstance(leaf, (bool, np.bool_)):
                name = "bool"
            elif isinstance(leaf, (int, float, complex, np.number)):
                name = "int64"
            else:
                raise TypeError(f"new(): invalid data type '{type(leaf).__name__}'")
            dt = name if dt is None or dt == name else "int64"
        dt = dt or "int64"
    from ..tensor import dtype as dtypes

    return tensor(seq, dtype=getattr(dtypes, "bool_" if dt == "bool" else dt))


def _is_sequence(obj: Any) -> bool:
    return isinstance(obj, (list, tuple, np.ndarray, str, range)) or (
        hasattr(obj, "__len__") and hasattr(obj, "__getitem__") and not isinstance(obj, dict)
    )


def _treat_as_tuple(index: Any) -> bool:
    """treatSequenceAsTuple: NumPy's heuristic for a list used as an index."""
    if isinstance(index, tuple):
        return True
    if isinstance(index, (Tensor, np.ndarray)) or not _is_sequence(index):
        return False
    if isinstance(index, str):
        return False
    try:
        n = len(index)
    except TypeError:
        return False
    if n >= 32:
        return False
    for obj in index:
        if isinstance(obj, (Tensor, slice)) or obj is None or obj is Ellipsis:
            return True
        if _is_sequence(obj):
            return True
    return False


def _wrap_tuple(index: Any) -> tuple[Any, ...]:
    if isinstance(index, tuple):
        return index
    if _treat_as_tuple(index):
        warnings.warn(
            "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
            "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this "
            "will be interpreted as tensor index, x[torch.tensor(seq)], which will result "
            "either in an error or a different result",
            UserWarning,
            stacklevel=3,
        )
        return tuple(index)
    return (index,)


def _count_specified(index: tuple[Any, ...]) -> int:
    count = 0
    for obj in index:
        t = type(obj)
        if t is slice or t is int:
            count += 1
        elif isinstance(obj, Tensor):
            count += obj.dim() if obj._dtype.name in ("uint8", "bool") else 1
        elif obj is not None and obj is not Ellipsis and obj is not True and obj is not False:
            count += 1
    return count


# ----------------------------------------------------------------------------- basic steps


def _apply_select(t: Tensor, dim: int, index: int, real_dim: int) -> Tensor:
    shape = t._data.shape
    if index == 0 and dim == 0 and not shape:
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    size = shape[dim] if dim < len(shape) else 0
    if not (size >= -index and size > index):
        raise IndexError(
            f"index {index} is out of bounds for dimension {real_dim} with size {size}"
        )
    return _select(t, dim, index)


def _apply_slice(
    t: Tensor, dim: int, start: int, stop: int, step: int, disable_opt: bool
) -> Tensor:
    if step <= 0:
        raise ValueError("step must be greater than zero")
    shape = t._data.shape
    if not disable_opt and start == 0 and step == 1 and shape and shape[dim] <= stop:
        return t
    if step == 1:
        return _slice(t, dim, start, stop)
    return _slice(t, dim, start, stop, step)


def _bool_index(t: Tensor, value: bool) -> Tensor:
    """boolToIndexingTensor: [0] for True, an empty index for False."""
    e = aten.empty.memory_format([1 if value else 0], dtype=int64, device=t.device)
    return aten.fill_.Scalar(e, 0.0) if value else e


def _apply_slicing(
    self: Tensor, index: tuple[Any, ...], out_indices: list[Any], disable_opt: bool
) -> Tensor:
    """applySlicing: the basic-indexing steps, collecting advanced indices in out_indices."""
    ndim = self.dim()
    specified = _count_specified(index)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result = self
    dim = 0
    for i, obj in enumerate(index):
        t = type(obj)
        if t is slice:
            start, stop, step = _unpack_slice(obj)
            result = _apply_slice(result, dim, start, stop, step, disable_opt)
            dim += 1
        elif t is int or (t is not bool and _is_long(obj)):
            result = _apply_select(result, dim, int(obj), i)
        elif obj is Ellipsis:
            dim += ndim - specified
        elif obj is None:
            result = _unsqueeze(result, dim)
            dim += 1
        elif obj is True or obj is False:
            result = _unsqueeze(result, dim)
            _record(out_indices, _bool_index(result, obj), dim)
            dim += 1
        elif isinstance(obj, Tensor):
            name = obj._dtype.name
            if obj.dim() == 0 and obj._dtype.category <= 1:
                if name not in ("uint8", "bool"):
                    result = _apply_select(result, dim, int(_local_scalar(obj)), i)
                else:
                    result = _unsqueeze(result, dim)
                    _record(out_indices, _bool_index(result, bool(_local_scalar(obj))), dim)
                    dim += 1
            else:
                _record(out_indices, obj, dim)
                dim += 1
        elif _is_sequence(obj):
            _record(out_indices, _sequence_to_tensor(obj), dim)
            dim += 1
        else:
            try:
                value = obj.__index__()
            except (AttributeError, TypeError):
                raise _invalid_index(obj) from None
            result = _apply_select(result, dim, int(value), i)
    return result


def _record(out_indices: list[Any], t: Tensor, dim: int) -> None:
    while len(out_indices) < dim:
        out_indices.append(None)
    out_indices.append(t)


# ----------------------------------------------------------------------------- __getitem__


def __getitem__(self: Tensor, index: Any) -> Tensor:  # noqa: N807
    """PyTorch's indexing: basic indices give views, tensors/lists/masks go to index.Tensor."""
    if type(index) is int:
        return _apply_select(self, 0, index, 0)
    if index is None:
        return _unsqueeze(self, 0)
    if index is Ellipsis:
        return _alias(self)
    if type(index) is slice:
        start, stop, step = _unpack_slice(index)
        return _apply_slice(self, 0, start, stop, step, True)
    if index is True or index is False:
        result = _unsqueeze(self, 0)
        return _index(result, [_bool_index(result, index)])
    if _is_long(index):
        return _apply_select(self, 0, int(index), 0)
    indices: list[Any] = []
    sliced = _apply_slicing(self, _wrap_tuple(index), indices, False)
    if not indices:
        return _alias(sliced) if sliced is self else sliced
    return _index(sliced, indices)


# ----------------------------------------------------------------------------- __setitem__


def _value_to_tensor(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex, np.number, np.bool_)):
        from .creation import tensor

        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        return tensor(value, dtype=self._dtype, device=self.device)
    raise TypeError(
        f"can't assign a {type(value).__name__} to a keyroute.{self._dtype._short}Tensor"
    )


def _prefix1s(shape: tuple[int, ...]) -> tuple[int, ...]:
    """slicePrefix1sSize: strip leading size-1 dimensions."""
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return shape[i:]


def _copy_to(dst: Tensor, src: Tensor) -> None:
    dshape, sshape = dst._data.shape, src._data.shape
    if dshape == sshape:
        _copy_(dst, src)
        return
    if not sshape and src.device.type == "cpu":
        _fill_t(dst, src)
        return
    view = _view(src, list(_prefix1s(sshape)))
    if view._data.shape != dshape:
        view = _expand(view, list(dshape))
    _copy_(dst, view)


def __setitem__(self: Tensor, index: Any, value: Any) -> None:  # noqa: N807
    """PyTorch's indexed assignment (see the module docstring)."""
    if value is None:
        raise TypeError(f"can't assign a NoneType to a keyroute.{self._dtype._short}Tensor")
    v = _value_to_tensor(self, value)
    if index is False:
        return
    if index is Ellipsis:
        _copy_to(self, v)
        return
    if index is None or index is True:
        _copy_to(_unsqueeze(self, 0), v)
        return
    if _is_long(index):
        _copy_to(_apply_select(self, 0, int(index), 0), v)
        return
    if type(index) is slice:
        start, stop, step = _unpack_slice(index)
        _copy_to(_apply_slice(self, 0, start, stop, step, False), v)
        return
    indices: list[Any] = []
    sliced = _apply_slicing(self, _wrap_tuple(index), indices, False)
    if not indices:
        _copy_to(sliced, v)
        return
    vshape = v._data.shape
    stripped = _prefix1s(vshape)
    if stripped != vshape:
        v = _view(v, list(stripped))
    _index_put_(sliced, indices, v)


def __delitem__(self: Tensor, index: Any) -> None:  # noqa: N807
    raise TypeError("Tensor does not support deleting items")


Tensor.__getitem__ = __getitem__  # type: ignore[method-assign]
Tensor.__setitem__ = __setitem__  # type: ignore[method-assign]
Tensor.__delitem__ = __delitem__  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- functions / methods


@function
@method
def index_select(self: Tensor, dim: int, index: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The entries of index along dim (a copy)."""
    if out is not None:
        return aten.index_select.out(self, dim, index, out=out)
    return aten.index_select.default(self, dim, index)


@function
@method
def gather(
    self: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False, out: Tensor | None = None
) -> Tensor:
    """Values of self picked along dim by index (out[i][j] = self[index[i][j]][j] for dim 0)."""
    if out is not None:
        return aten.gather.out(self, dim, index, sparse_grad=sparse_grad, out=out)
    if sparse_grad:
        return aten.gather.default(self, dim, index, sparse_grad=True)
    return aten.gather.default(self, dim, index)


def _scatter_args(src: Any, value: Any) -> tuple[Any, bool]:
    if src is None and value is None:
        raise TypeError("scatter() missing required argument 'src' (or 'value')")
    operand = src if src is not None else value
    return operand, isinstance(operand, Tensor)


@function
@method
def scatter(
    self: Tensor,
    dim: int,
    index: Tensor,
    src: Any = None,
    value: Any = None,
    *,
    reduce: str | None = None,
    out: Tensor | None = None,
) -> Tensor:
    """A copy of self with src (a tensor) or value written at index along dim."""
    operand, is_tensor = _scatter_args(src, value)
    name = (
        ("src" if is_tensor else "value")
        if reduce is None
        else ("reduce" if is_tensor else "value_reduce")
    )
    op = getattr(aten.scatter, name + ("_out" if out is not None else ""))
    kw: dict[str, Any] = {}
    if reduce is not None:
        kw["reduce"] = reduce
    if out is not None:
        kw["out"] = out
    return op(self, dim, index, operand, **kw)


@method
def scatter_(
    self: Tensor,
    dim: int,
    index: Tensor,
    src: Any = None,
    value: Any = None,
    *,
    reduce: str | None = None,
) -> Tensor:
    """Write src (a tensor) or value into self at index along dim."""
    operand, is_tensor = _scatter_args(src, value)
    if reduce is None:
        op = aten.scatter_.src if is_tensor else aten.scatter_.value
        return op(self, dim, index, operand)
    op = aten.scatter_.reduce if is_tensor else aten.scatter_.value_reduce
    return op(self, dim, index, operand, reduce=reduce)


@function
@method
def scatter_add(
    self: Tensor, dim: int, index: Tensor, src: Tensor, *, out: Tensor | None = None
) -> Tensor:
    """A copy of self with src summed into the positions index names along dim."""
    if out is not None:
        return aten.scatter_add.out(self, dim, index, src, out=out)
    return aten.scatter_add.default(self, dim, index, src)


@method
def scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """Sum src into self at the positions index names along dim."""
    return aten.scatter_add_.default(self, dim, index, src)


@function
@method
def scatter_reduce(
    self: Tensor,
    dim: int,
    index: Tensor,
    src: Tensor,
    reduce: str,
    *,
    include_self: bool = True,
    out: Tensor | None = None,
) -> Tensor:
    """A copy of self with src reduced (sum, prod, mean, amax, amin) into index's positions."""
    if out is not None:
        return aten.scatter_reduce.two_out(
            self, dim, index, src, reduce, include_self=include_self, out=out
        )
    return aten.scatter_reduce.two(self, dim, index, src, reduce, include_self=include_self)


@method
def scatter_reduce_(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """Reduce src into self at index's positions along dim."""
    return aten.scatter_reduce_.two(self, dim, index, src, reduce, include_self=include_self)


@function
@method
def masked_select(self: Tensor, mask: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The elements of self where mask is True, as a 1-D tensor (shapes broadcast)."""
    if out is not None:
        return aten.masked_select.out(self, mask, out=out)
    return aten.masked_select.default(self, mask)


@function
@method
def nonzero(self: Tensor, *, out: Tensor | None = None, as_tuple: bool = False) -> Any:
    """Coordinates of the nonzero elements: an (n, ndim) tensor, or a tuple of ndim index
    tensors with as_tuple=True (aten::nonzero_numpy)."""
    if as_tuple:
        return tuple(aten.nonzero_numpy.default(self))
    if out is not None:
        return aten.nonzero.out(self, out=out)
    return aten.nonzero.default(self)


@function
@method
def argwhere(self: Tensor) -> Tensor:
    """The coordinates of the nonzero elements, shape (n, ndim)."""
    return aten.argwhere.default(self)


@function
@method
def nonzero_static(
    input: Tensor, *, size: int, fill_value: int = -1, out: Tensor | None = None
) -> Tensor:
    """The coordinates of the first `size` nonzero elements, shape (size, ndim); the rows past
    the last nonzero element hold fill_value. The shape does not depend on the data."""
    if out is not None:
        return aten.nonzero_static.out(input, size=size, fill_value=fill_value, out=out)
    return aten.nonzero_static.default(input, size=size, fill_value=fill_value)


def _unique_result(
    result: tuple[Tensor, Tensor, Tensor], return_inverse: bool, return_counts: bool
) -> Any:
    """torch.unique's return: the values alone, or with the inverse indices and/or counts."""
    output, inverse, counts = result
    if return_inverse and return_counts:
        return output, inverse, counts
    if return_inverse:
        return output, inverse
    if return_counts:
        return output, counts
    return output


@function
@method
def unique(
    input: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The unique elements (aten::_unique2), or the unique slices along dim (aten::unique_dim);
    with the inverse indices and/or the counts when asked. The CPU kernel always sorts."""
    if dim is not None:
        result = aten.unique_dim.default(input, dim, sorted, return_inverse, return_counts)
    else:
        result = aten._unique2.default(input, sorted, return_inverse, return_counts)
    return _unique_result(result, return_inverse, return_counts)


@function
@method
def unique_consecutive(
    input: Tensor,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The first element of every run of equal consecutive elements (or slices along dim), with
    the inverse indices and/or the run lengths when asked."""
    result = aten.unique_consecutive.default(input, return_inverse, return_counts, dim)
    return _unique_result(result, return_inverse, return_counts)


@function
@method
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value of a 1-d non-negative integer tensor occurs (or the sum of its
    weights): int64 counts; float32 weights give float32 sums, any other weights float64."""
    return aten.bincount.default(input, weights, minlength)


@function
@method
def equal(input: Tensor, other: Tensor) -> bool:
    """True if both tensors have the same shape and equal elements (compared in their common
    dtype; NaN equals nothing)."""
    return aten.equal.default(input, other)


@function
@method
def index_copy(
    self: Tensor, dim: int, index: Tensor, source: Tensor, *, out: Tensor | None = None
) -> Tensor:
    """A copy of self with the slices of source copied to the index positions along dim."""
    if out is not None:
        return aten.index_copy.out(self, dim, index, source, out=out)
    return aten.index_copy.default(self, dim, index, source)


@method
def index_copy_(self: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """Copy the slices of source into self at the index positions along dim."""
    return aten.index_copy_.default(self, dim, index, source)


@function
@method
def index_fill(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """A copy of self with the index positions along dim set to value."""
    if isinstance(value, Tensor):
        return aten.index_fill.int_Tensor(self, dim, index, value)
    return aten.index_fill.int_Scalar(self, dim, index, value)


@method
def index_fill_(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """Set the index positions of self along dim to value."""
    if isinstance(value, Tensor):
        return aten.index_fill_.int_Tensor(self, dim, index, value)
    return aten.index_fill_.int_Scalar(self, dim, index, value)


@function
@method
def index_add(
    self: Tensor,
    dim: int,
    index: Tensor,
    source: Tensor,
    *,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """A copy of self with alpha * source added at the index positions along dim."""
    if out is not None:
        return aten.index_add.out(self, dim, index, source, alpha=alpha, out=out)
    if alpha != 1:
        return aten.index_add.default(self, dim, index, source, alpha=alpha)
    return aten.index_add.default(self, dim, index, source)


@method
def index_add_(self: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """Add alpha * source into self at the index positions along dim."""
    if alpha != 1:
        return aten.index_add_.default(self, dim, index, source, alpha=alpha)
    return aten.index_add_.default(self, dim, index, source)


@function
@method
def index_put(self: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of self with values written at indices (advanced indexing)."""
    return aten.index_put.default(self, list(indices), values, accumulate)


@method
def index_put_(self: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """Write (or with accumulate, add) values into self at indices (advanced indexing)."""
    return aten.index_put_.default(self, list(indices), values, accumulate)


@function
@method
def take(self: Tensor, index: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Elements of self, read as 1-D, at index (shaped like index)."""
    if out is not None:
        return aten.take.out(self, index, out=out)
    return aten.take.default(self, index)


@function
@method
def take_along_dim(
    self: Tensor, indices: Tensor, dim: int | None = None, *, out: Tensor | None = None
) -> Tensor:
    """Values picked along dim by indices broadcast against self (gather)."""
    if out is not None:
        return aten.take_along_dim.out(self, indices, dim, out=out)
    return aten.take_along_dim.default(self, indices, dim)


@function
@method
def put(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of self with source written at flat positions index."""
    return aten.put.default(self, index, source, accumulate)


@method
def put_(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """Write (or with accumulate, add) source into self at flat positions index."""
    return aten.put_.default(self, index, source, accumulate)
