"""Indexing operators: schemas, meta functions and decompositions.

Advanced indexing (`index.Tensor`, `_index_put_impl_`) follows PyTorch's AdvancedIndex: byte and
bool masks become their nonzero coordinates, the index tensors broadcast together, and when the
indexed dimensions are not adjacent they move to the front; the output strides are the ones
TensorIterator picks for the restrided input and the index tensors (`advanced_index`). Gather,
scatter and the index_* family check their arguments as PyTorch's structured meta functions do
(the checks are shared with the CPU kernels, which add the data-dependent bounds checks).

Ops whose output shape depends on data (masked_select, nonzero, boolean-mask indexing) have meta
functions that raise: their output shape cannot be known without the data.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from ..tensor.dtype import int64
from . import _shape
from ._define import aten, composite, composite_explicit, meta
from ._meta_util import _is_non_overlapping_and_dense, check, is_meta_data, new_meta, shape_of
from ._variants import inplace_variant, out_variant
from .core import expand_geometry

__all__ = [
    "infer_size",
    "is_dense",
    "IndexEntry",
    "advanced_index",
    "check_index_dtypes",
    "gather_check",
    "scatter_check",
    "reduce_enum",
    "index_select_check",
    "index_copy_check",
    "index_fill_check",
    "index_add_check",
    "put_check",
    "take_check",
    "nonzero_strides",
    "shape_str",
]

wrap_dim = _shape.wrap_dim


def shape_str(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _data_of(t: Any) -> Any:
    """A tensor's NumPy data, or None for a meta tensor."""
    d = t._data
    return d if d.__class__.__module__ == "numpy" else None


def infer_size(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """at::infer_size: the broadcast of two shapes; the error names the output dimension."""
    ndim = max(len(a), len(b))
    out = [0] * ndim
    for i in range(ndim - 1, -1, -1):
        offset = ndim - 1 - i
        da, db = len(a) - 1 - offset, len(b) - 1 - offset
        sa = a[da] if da >= 0 else 1
        sb = b[db] if db >= 0 else 1
        check(
            sa == sb or sa == 1 or sb == 1,
            f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
            f"non-singleton dimension {i}",
        )
        out[i] = sb if sa == 1 else sa
    return tuple(out)


def is_dense(shape: Sequence[int], stride: Sequence[int]) -> bool:
    """TensorImpl::is_non_overlapping_and_dense: contiguous (zero-size included), channels-last
    contiguous, or a permutation of a contiguous layout."""
    return (
        _shape.numel(shape) == 0
        or _shape.is_contiguous_strides(shape, stride)
        or _shape.is_channels_last_strides(shape, stride)
        or _is_non_overlapping_and_dense(shape, stride)
    )


# ----------------------------------------------------------------------------- advanced indexing


class IndexEntry:
    """One index tensor of an advanced index after mask expansion: shape, strides (elements),
    dtype name, and its values (a NumPy array; None on meta)."""

    __slots__ = ("shape", "stride", "dtype", "values")

    def __init__(
        self, shape: tuple[int, ...], stride: tuple[int, ...], dtype: str, values: Any
    ) -> None:
        self.shape = shape
        self.stride = stride
        self.dtype = dtype
        self.values = values


_INDEX_DTYPES = ("int64", "int32", "uint8", "bool")


def check_index_dtypes(indices: Sequence[Any]) -> None:
    for t in indices:
        if t is not None and t._dtype.name not in _INDEX_DTYPES:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def expand_masks(self_shape: tuple[int, ...], indices: Sequence[Any]) -> list[IndexEntry | None]:
    """expandTensors: byte/bool masks become one int64 index per mask dimension."""
    import numpy as np

    out: list[IndexEntry | None] = []
    for t in indices:
        if t is None:
            out.append(None)
            continue
        name = t._dtype.name
        if name in ("uint8", "bool"):
            if name == "uint8":
                warnings.warn(
                    "indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                    "torch.bool instead.",
                    UserWarning,
                    stacklevel=4,
                )
            mshape = shape_of(t)
            for j, size in enumerate(mshape):
                k = len(out) + j
                if k >= len(self_shape) or size != self_shape[k]:
                    if k >= len(self_shape):
                        raise IndexError(
                            f"too many indices for tensor of dimension {len(self_shape)}"
                        )
                    raise IndexError(
                        f"The shape of the mask {shape_str(mshape)} at index {j} does not match "
                        f"the shape of the indexed tensor {shape_str(self_shape)} at index {k}"
                    )
            data = _data_of(t)
            if data is None:
                raise NotImplementedError(
                    "aten::index.Tensor with a boolean mask has a data-dependent output shape; "
                    "it cannot run on meta tensors"
                )
            coords = np.nonzero(data)
            n = len(coords[0]) if coords else int(bool(data))
            k = len(mshape)
            for c in coords:
                out.append(IndexEntry((n,), (k,), "int64", c))
        else:
            out.append(IndexEntry(shape_of(t), t.stride(), name, _data_of(t)))
    return out


def advanced_index(
    self_shape: tuple[int, ...], self_stride: tuple[int, ...], entries: list[IndexEntry | None]
) -> tuple[Any, ...]:
    """make_info + AdvancedIndex + TensorIterator's output layout.

    Returns (out_shape, out_stride, broadcast_shape, order) where `order` lists, in the
    (possibly transposed-to-front) dimension order, each indexed dimension of self and its
    entry: [(dim, entry), ...]."""
    ndim = len(self_shape)
    check(
        len(entries) <= ndim,
        f"too many indices for tensor of dimension {ndim} (got {len(entries)})",
        IndexError,
    )
    defined = [e for e in entries if e is not None]
    try:
        bshape = _shape.broadcast_shapes(*(e.shape for e in defined))
    except RuntimeError:
        raise IndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes "
            + ", ".join(shape_str(e.shape) for e in defined)
        ) from None
    full: list[IndexEntry | None] = list(entries) + [None] * (ndim - len(entries))
    # expand_outplace: tensors already of the broadcast shape keep their strides.
    strides: list[tuple[int, ...] | None] = []
    for e in full:
        if e is None:
            strides.append(None)
        elif e.shape == bshape:
            strides.append(tuple(e.stride))
        else:
            strides.append(expand_geometry(e.shape, e.stride, bshape)[1])
    # int32 indices are converted to int64 (.to keeps dense layouts, else contiguous).
    for i, e in enumerate(full):
        if e is not None and e.dtype == "int32":
            if not is_dense(bshape, strides[i]):
                strides[i] = _shape.contiguous_strides(bshape)
    positions = [i for i, e in enumerate(full) if e is not None]
    adjacent = positions == list(range(positions[0], positions[-1] + 1)) if positions else True
    if adjacent:
        dims = list(range(ndim))
    else:
        dims = positions + [i for i in range(ndim) if full[i] is None]
    shape = [self_shape[d] for d in dims]
    stride = [self_stride[d] for d in dims]
    order = [(d, full[d]) for d in dims if full[d] is not None]
    first = dims.index(positions[0]) if positions else 0
    n_idx = len(positions)
    before, after = shape[:first], shape[first + n_idx :]
    indexed_sizes = [self_shape[d] for d in positions]
    if 0 in indexed_sizes and 0 not in bshape:
        raise IndexError("index is out of bounds for dimension with size 0")
    out_shape = (*before, *bshape, *after)
    src_stride = (*stride[:first], *([0] * len(bshape)), *stride[first + n_idx :])
    operands = [(out_shape, src_stride)]
    nb, na = len(before), len(after)
    view_shape = (*([1] * nb), *bshape, *([1] * na))
    for d, _e in order:
        st = strides[d]
        vst = _shape.compute_view_stride(bshape, st, view_shape) if bshape else None
        if vst is None:
            vst = _shape.contiguous_strides(view_shape)
        operands.append((view_shape, vst))
    out_stride = _shape.elementwise_strides(out_shape, operands)
    return out_shape, out_stride, bshape, order


@meta("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor")
def index_Tensor(self, indices):
    check(len(indices) > 0, "at least one index must be provided")
    check_index_dtypes(indices)
    entries = expand_masks(shape_of(self), indices)
    out_shape, out_stride, _b, _o = advanced_index(shape_of(self), self.stride(), entries)
    return new_meta(out_shape, self._dtype, out_stride)


out_variant(
    "index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)",
    "index.Tensor",
)


def masked_fill_mask(self_shape: tuple[int, ...], indices: Sequence[Any], value: Any) -> Any:
    """canDispatchToMaskedFill: (True, mask, n_leading_dims) when index_put_ is a masked fill
    (one bool/byte mask, the other indices None, a one-element CPU value), else None."""
    if value._data.size != 1 or value.device.type != "cpu":
        return None
    num_ind = 0
    mask = None
    for t in indices:
        if t is None:
            num_ind += 1
            continue
        if t._dtype.name not in ("uint8", "bool") or mask is not None:
            return None
        mask = t
        mshape = shape_of(t)
        for j, size in enumerate(mshape):
            k = num_ind + j
            if k >= len(self_shape) or size != self_shape[k]:
                raise IndexError(
                    f"The shape of the mask {shape_str(mshape)} at index {j} does not match the "
                    f"shape of the indexed tensor {shape_str(self_shape)} at index {k}"
                )
        num_ind += len(mshape)
    if mask is None:
        return None
    return mask, num_ind


def index_put_checks(self, indices, values) -> None:
    """The checks of _index_put_impl_ that need no data (meta and CPU)."""
    ndim = len(shape_of(self))
    check(
        len(indices) <= ndim,
        f"too many indices for tensor of dimension {ndim} (got {len(indices)})",
        IndexError,
    )


def index_put_value_check(src_shape: tuple[int, ...], self_dtype: Any, values: Any) -> None:
    vshape = shape_of(values)
    try:
        ok = _shape.broadcast_shapes(vshape, src_shape) == tuple(src_shape)
    except RuntimeError:
        ok = False
    check(
        ok,
        f"shape mismatch: value tensor of shape {shape_str(vshape)} cannot be broadcast to "
        f"indexing result of shape {shape_str(src_shape)}",
    )
    check(
        values._dtype is self_dtype,
        f"Index put requires the source and destination dtypes match, got "
        f"{self_dtype._short} for the destination and {values._dtype._short} for the source.",
    )


@meta(
    "_index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False, "
    "bool unsafe=False) -> Tensor(a!)"
)
def _index_put_impl_(self, indices, values, accumulate=False, unsafe=False):
    index_put_checks(self, indices, values)
    if not accumulate and masked_fill_mask(shape_of(self), indices, values) is not None:
        return self
    check_index_dtypes(indices)
    if any(
        t is not None and t._dtype.name in ("uint8", "bool") and _data_of(t) is None
        for t in indices
    ):
        return self  # a mask's nonzero count is data: PyTorch's meta returns self unchecked too
    entries = expand_masks(shape_of(self), indices)
    out_shape, _st, _b, _o = advanced_index(shape_of(self), self.stride(), entries)
    index_put_value_check(out_shape, self._dtype, values)
    return self


_index_put_impl = aten("_index_put_impl_")
_clone = aten("clone")


@composite_explicit(
    "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> "
    "Tensor(a!)"
)
def index_put_(self, indices, values, accumulate=False):
    return _index_put_impl(self, indices, values, accumulate, False)


@composite_explicit(
    "index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor"
)
def index_put(self, indices, values, accumulate=False):
    out = _clone(self)
    return _index_put_impl(out, indices, values, accumulate, False)


out_variant(
    "index_put.out(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    "index_put",
)


# ----------------------------------------------------------------------------- index_select


def index_select_check(self_shape: tuple[int, ...], dim: int, index: Any) -> tuple[int, ...]:
    """Output shape of index_select, with PyTorch's checks (bounds are the kernel's)."""
    d = wrap_dim(dim, len(self_shape))
    ishape = shape_of(index)
    check(len(ishape) <= 1, "index_select(): Index is supposed to be a vector", IndexError)
    n = _shape.numel(ishape)
    check(
        not (len(self_shape) == 0 and n != 1),
        f"index_select(): Index to scalar can have only 1 value, got {n} value(s)",
    )
    check(
        index._dtype.name in ("int64", "int32"),
        "index_select(): Expected dtype int32 or int64 for index",
    )
    if not self_shape:
        return ()
    return (*self_shape[:d], n, *self_shape[d + 1 :])


@meta("index_select(Tensor self, int dim, Tensor index) -> Tensor")
def index_select(self, dim, index):
    return new_meta(index_select_check(shape_of(self), dim, index), self._dtype)


out_variant(
    "index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)",
    "index_select",
)


# ----------------------------------------------------------------------------- gather / scatter


def _ne_size(shape: tuple[int, ...], d: int) -> int:
    return 1 if not shape else shape[d]


def gather_check(self, dim: int, index) -> int:
    sshape, ishape = shape_of(self), shape_of(index)
    d = wrap_dim(dim, len(sshape))
    if _shape.numel(ishape) == 0:
        return d
    check(
        index._dtype.name in ("int64", "int32"),
        "gather(): Expected dtype int32/int64 for index",
    )
    nd = max(len(sshape), 1)
    check(
        nd == max(len(ishape), 1),
        "Index tensor must have the same number of dimensions as input tensor",
    )
    for i in range(nd):
        if i != d:
            check(
                _ne_size(ishape, i) <= _ne_size(sshape, i),
                f"Size does not match at dimension {i} expected index {shape_str(ishape)} to be "
                f"no larger than self {shape_str(sshape)} apart from dimension {d}",
            )
    return d


@meta("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor")
def gather(self, dim, index, *, sparse_grad=False):
    gather_check(self, dim, index)
    return new_meta(shape_of(index), self._dtype)


out_variant(
    "gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) "
    "-> Tensor(a!)",
    "gather",
)


def reduce_enum(reduce: str, new_options: bool = False) -> str:
    if new_options:
        check(
            reduce in ("sum", "prod", "mean", "amax", "amin"),
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}",
        )
        return reduce
    check(reduce in ("add", "multiply"), "reduce argument must be either add or multiply.")
    return "sum" if reduce == "add" else "prod"


def scatter_check(
    self, dim: int, index, src=None, reduce: str | None = None, new_options: bool = False
) -> int:
    """scatter_meta_impl: dtype and shape checks; returns the wrapped dim."""
    sshape, ishape = shape_of(self), shape_of(index)
    d = wrap_dim(dim, len(sshape))
    empty = _shape.numel(ishape) == 0
    if not empty:
        check(
            index._dtype.name in ("int64", "int32"),
            "scatter(): Expected dtype int32/int64 for index",
        )
    if src is not None:
        check(
            self._dtype is src._dtype,
            "scatter(): Expected self.dtype to be equal to src.dtype",
        )
    if not empty:
        nd = max(len(sshape), 1)
        check(
            nd == max(len(ishape), 1),
            "Index tensor must have the same number of dimensions as self tensor",
        )
        wrong = any(_ne_size(ishape, i) > _ne_size(sshape, i) for i in range(nd) if i != d)
        if not wrong and src is not None:
            srcshape = shape_of(src)
            wrong = any(_ne_size(ishape, i) > _ne_size(srcshape, i) for i in range(nd))
        if src is not None:
            check(
                not wrong,
                f"Expected index {shape_str(ishape)} to be no larger than self "
                f"{shape_str(sshape)} apart from dimension {d} and to be no larger size than src "
                f"{shape_str(shape_of(src))}",
            )
        else:
            check(
                not wrong,
                f"Expected index {shape_str(ishape)} to be no larger than self "
                f"{shape_str(sshape)} apart from dimension {d}",
            )
    if reduce is not None:
        reduce_enum(reduce, new_options)
    return d


def _scatter_meta(self, dim, index, src=None, reduce=None, new_options=False):
    scatter_check(self, dim, index, src if hasattr(src, "_data") else None, reduce, new_options)
    return new_meta(shape_of(self), self._dtype)


@meta("scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor")
def scatter_src(self, dim, index, src):
    return _scatter_meta(self, dim, index, src)


@meta("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor")
def scatter_value(self, dim, index, value):
    return _scatter_meta(self, dim, index)


@meta("scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor")
def scatter_reduce_(self, dim, index, src, *, reduce):
    return _scatter_meta(self, dim, index, src, reduce)


@meta(
    "scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> "
    "Tensor"
)
def scatter_value_reduce(self, dim, index, value, *, reduce):
    return _scatter_meta(self, dim, index, None, reduce)


@meta("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor")
def scatter_add(self, dim, index, src):
    return _scatter_meta(self, dim, index, src, "add")


@meta(
    "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool "
    "include_self=True) -> Tensor"
)
def scatter_reduce_two(self, dim, index, src, reduce, *, include_self=True):
    return _scatter_meta(self, dim, index, src, reduce, True)


_SCATTER_FORMS = (
    ("src", "Tensor src", "", "scatter.src"),
    ("value", "Scalar value", "", "scatter.value"),
    ("reduce", "Tensor src", ", *, str reduce", "scatter.reduce"),
    ("value_reduce", "Scalar value", ", *, str reduce", "scatter.value_reduce"),
)
for _ov, _arg, _kw, _fn in _SCATTER_FORMS:
    inplace_variant(
        f"scatter_.{_ov}(Tensor(a!) self, int dim, Tensor index, {_arg}{_kw}) -> Tensor(a!)", _fn
    )
    _sep = ", " if _kw else ", *, "
    out_variant(
        f"scatter.{_ov}_out(Tensor self, int dim, Tensor index, {_arg}{_kw}{_sep}Tensor(a!) out)"
        f" -> Tensor(a!)",
        _fn,
    )
inplace_variant(
    "scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
    "scatter_add",
)
out_variant(
    "scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "scatter_add",
)
inplace_variant(
    "scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, "
    "bool include_self=True) -> Tensor(a!)",
    "scatter_reduce.two",
)
out_variant(
    "scatter_reduce.two_out(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
    "bool include_self=True, Tensor(a!) out) -> Tensor(a!)",
    "scatter_reduce.two",
)


# ------------------------------------------------------------------------- masked_select / nonzero


@meta("masked_select(Tensor self, Tensor mask) -> Tensor")
def masked_select(self, mask):
    check(mask._dtype.name == "bool", "masked_select: expected BoolTensor for mask")
    infer_size(shape_of(mask), shape_of(self))
    raise NotImplementedError(
        "aten::masked_select has a data-dependent output shape; it cannot run on meta tensors"
    )


out_variant(
    "masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)",
    "masked_select",
)


def nonzero_strides(n: int, ndim: int) -> tuple[int, int]:
    """nonzero's (n, ndim) result is the transpose of a contiguous (ndim, n) buffer."""
    return (1, n)


@meta("nonzero(Tensor self) -> Tensor")
def nonzero(self):
    raise NotImplementedError(
        "aten::nonzero has a data-dependent output shape; it cannot run on meta tensors"
    )


out_variant("nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "nonzero")

_nonzero = aten("nonzero")
_unbind = aten("unbind.int")
_unsqueeze = aten("unsqueeze")


@composite("nonzero_numpy(Tensor self) -> Tensor[]")
def nonzero_numpy(self):
    if len(shape_of(self)) == 0:
        return _unbind(_nonzero(_unsqueeze(self, 0)), 1)
    return _unbind(_nonzero(self), 1)


@composite("argwhere(Tensor self) -> Tensor")
def argwhere(self):
    return _nonzero(self)


# ------------------------------------------------------------------------- index_copy / fill / add


def _sliced(shape: tuple[int, ...], d: int) -> list[int]:
    return [s for i, s in enumerate(shape) if i != d] if shape else []


def index_copy_check(self, dim: int, index, source) -> int:
    sshape, ishape, srcshape = shape_of(self), shape_of(index), shape_of(source)
    d = wrap_dim(dim, len(sshape))
    check(
        len(ishape) < 2,
        f"index_copy_(): Index should have dimension 1 or 0 (got {len(ishape)})",
        IndexError,
    )
    n = _shape.numel(ishape)
    if len(srcshape) == 0 and n != 1:
        raise IndexError(
            f"index_copy_(): When source is scalar, index should have one element (got {n})"
        )
    if len(srcshape) != len(sshape) and len(srcshape) != 0 and len(sshape) != 0:
        raise IndexError(
            f"index_copy_(): When source and destination are not scalars, their dimensionality "
            f"must match. Source dimensionality ({len(srcshape)}), destination dimensionality "
            f"({len(sshape)})"
        )
    check(
        index._dtype.name == "int64",
        f"index_copy_(): Expected a long tensor for index, but got {index._dtype._short}",
    )
    check(
        self._dtype is source._dtype or is_meta_data(self),  # PyTorch's meta: no dtype check
        f"index_copy_(): self and source expected to have the same dtype, but got (self) "
        f"{self._dtype._short} and (source) {source._dtype._short}",
    )
    a, b = _sliced(sshape, d), _sliced(srcshape, d)
    check(
        a == b,
        f"index_copy_(): Source/destination tensor must have same slice shapes. Destination "
        f"slice shape: {' '.join(map(str, a))} at dimension {d} and source slice shape: "
        f"{' '.join(map(str, b))} at dimension 0.",
    )
    if len(srcshape) != 0:
        check(
            n == srcshape[d],
            f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) "
            f"({srcshape[d]})",
            IndexError,
        )
    return d


@meta("index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor")
def index_copy(self, dim, index, source):
    index_copy_check(self, dim, index, source)
    return new_meta(shape_of(self), self._dtype)


inplace_variant(
    "index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)",
    "index_copy",
)
out_variant(
    "index_copy.out(Tensor self, int dim, Tensor index, Tensor source, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "index_copy",
)


def index_fill_check(self, dim: int, index, value=None) -> int:
    if value is not None and hasattr(value, "_data"):
        vd = len(shape_of(value))
        check(
            vd == 0,
            f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {vd} "
            f"dimension(s).",
        )
    check(
        index._dtype.name == "int64", "index_fill_(): Expected dtype int64 for index.", IndexError
    )
    sshape = shape_of(self)
    d = wrap_dim(dim, max(len(sshape), 1))
    check(len(shape_of(index)) <= 1, "Index has to be a vector/scalar", IndexError)
    return d


@meta("index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)")
def index_fill__int_Scalar(self, dim, index, value):
    index_fill_check(self, dim, index)
    return self


@meta("index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)")
def index_fill__int_Tensor(self, dim, index, value):
    index_fill_check(self, dim, index, value)
    return self


_index_fill_s = aten("index_fill_.int_Scalar")
_index_fill_t = aten("index_fill_.int_Tensor")


@composite_explicit(
    "index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor"
)
def index_fill_int_Scalar(self, dim, index, value):
    return _index_fill_s(_clone(self), dim, index, value)


@composite_explicit(
    "index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor"
)
def index_fill_int_Tensor(self, dim, index, value):
    return _index_fill_t(_clone(self), dim, index, value)


out_variant(
    "index_fill.int_Scalar_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) "
    "out) -> Tensor(a!)",
    "index_fill.int_Scalar",
)
out_variant(
    "index_fill.int_Tensor_out(Tensor self, int dim, Tensor index, Tensor value, *, Tensor(a!) "
    "out) -> Tensor(a!)",
    "index_fill.int_Tensor",
)


def index_add_check(self, dim: int, index, source) -> int:
    sshape, ishape, srcshape = shape_of(self), shape_of(index), shape_of(source)
    d = wrap_dim(dim, len(sshape))
    n = _shape.numel(ishape)
    check(len(ishape) <= 1, "index_add_(): Index is supposed to be a vector", IndexError)
    check(
        index._dtype.name in ("int64", "int32"),
        "index_add_(): Expected dtype int32/int64 for index",
    )
    check(
        self._dtype is source._dtype,
        f"index_add_(): self ({self._dtype._short}) and source ({source._dtype._short}) must "
        f"have the same scalar type",
    )
    check(
        d == 0 or d < len(srcshape),
        f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim "
        f"{len(srcshape)}",
    )
    src_n = 1 if not srcshape else srcshape[d]
    check(
        n == src_n,
        f"index_add_(): Number of indices ({n}) should be equal to source.size(dim): ({src_n}), "
        f"for dim: {d}",
    )
    if len(sshape) > 1 or len(srcshape) > 1:
        ok = len(sshape) == len(srcshape) and all(
            sshape[i] == srcshape[i] for i in range(len(sshape)) if i != d
        )
        check(
            ok,
            f"source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {shape_str(sshape)} source.shape = "
            f"{shape_str(srcshape)}",
        )
    return d


@meta("index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor")
def index_add(self, dim, index, source, *, alpha=1):
    index_add_check(self, dim, index, source)
    return new_meta(shape_of(self), self._dtype)


inplace_variant(
    "index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> "
    "Tensor(a!)",
    "index_add",
)
out_variant(
    "index_add.out(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1, "
    "Tensor(a!) out) -> Tensor(a!)",
    "index_add",
)


# ----------------------------------------------------------------------------- take / put


def take_check(self, index) -> None:
    check(
        index._dtype.name == "int64",
        f"take(): Expected a long tensor for index, but got {index._dtype._short}",
    )
    check(
        not (_shape.numel(shape_of(self)) == 0 and _shape.numel(shape_of(index)) != 0),
        "take(): tried to take from an empty tensor",
        IndexError,
    )


@meta("take(Tensor self, Tensor index) -> Tensor")
def take(self, index):
    take_check(self, index)
    return new_meta(shape_of(index), self._dtype)


out_variant("take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", "take")


def put_check(self, index, source) -> None:
    check(
        index._dtype.name == "int64",
        f"put_(): Expected a long tensor for index, but got {index._dtype._short}",
        IndexError,
    )
    check(
        self._dtype is source._dtype,
        f"put_(): self and source expected to have the same dtype, but got self.dtype = "
        f"{self._dtype._short} and source.dtype = {source._dtype._short}",
    )
    ni, ns = _shape.numel(shape_of(index)), _shape.numel(shape_of(source))
    check(
        ns == ni,
        f"put_(): Expected source and index to have the same number of elements, but got "
        f"source.numel() = {ns}, index.numel() = {ni}",
        IndexError,
    )
    check(
        not (_shape.numel(shape_of(self)) == 0 and ni != 0),
        "put_(): Tried to put elements into an empty tensor",
        IndexError,
    )


@meta("put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)")
def put_(self, index, source, accumulate=False):
    put_check(self, index, source)
    return self


_put_ = aten("put_")


@composite_explicit(
    "put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor"
)
def put(self, index, source, accumulate=False):
    return _put_(_clone(self), index, source, accumulate)


out_variant(
    "put.out(Tensor self, Tensor index, Tensor source, bool accumulate=False, *, Tensor(a!) out)"
    " -> Tensor(a!)",
    "put",
)


# ----------------------------------------------------------------------------- take_along_dim


_gather = aten("gather")
_expand = aten("expand")
_view = aten("view")


def _take_along_dim_args(self, indices, dim):
    """_take_along_dim_helper: (self broadcast, dim, indices broadcast and wrapped)."""
    check(
        indices._dtype is int64,
        f"torch.take_along_dim(): dtype of indices should be Long but got {indices._dtype._short}",
    )
    sshape, ishape = shape_of(self), shape_of(indices)
    check(
        len(sshape) == len(ishape),
        f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
        f"but got {len(sshape)} dimensions for input, and {len(ishape)} dimensions for indices",
    )
    d = wrap_dim(dim, len(sshape))
    s = list(sshape)
    if s:
        s[d] = ishape[d]
    idx_b = _expand(indices, list(infer_size(s, ishape)))
    i2 = list(ishape)
    if i2:
        i2[d] = sshape[d]
    self_b = _expand(self, list(infer_size(i2, sshape)))
    idx_b = _remainder(idx_b, sshape[d] if sshape else 1)
    return self_b, d, idx_b


def _remainder(t, n):
    return aten("remainder.Scalar")(t, n)


@composite("take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor")
def take_along_dim(self, indices, dim=None):
    if dim is None:
        return _gather(_view(self, [-1]), 0, _view(indices, [-1]))
    return _gather(*_take_along_dim_args(self, indices, dim))


@composite(
    "take_along_dim.out(Tensor self, Tensor indices, int? dim=None, *, Tensor(a!) out) -> "
    "Tensor(a!)"
)
def take_along_dim_out(self, indices, dim=None, *, out):
    gather_out = aten("gather.out")
    if dim is None:
        return gather_out(_view(self, [-1]), 0, _view(indices, [-1]), out=out)
    return gather_out(*_take_along_dim_args(self, indices, dim), out=out)
