"""View operators: schemas, meta functions (the view geometry) and decompositions.

A view shares its input's storage: its meta function returns `meta_view(self, shape, stride,
offset)` with PyTorch's geometry, and the CPU kernel (kernels/cpu/views.py) builds a NumPy view
with the same strides and offset. Each geometry rule lives in one function here (`*_geometry`),
used by both. ADInplaceOrView gives the outputs `_base` and the shared version counter from the
alias annotations (`Tensor(a)`, `Tensor(a -> *)[]`).

Ops that PyTorch implements as CompositeImplicitAutograd (flatten, narrow, chunk, movedim, the
T/mT/mH properties, tensor_split, ...) decompose into the same aten calls as PyTorch's.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from . import _shape
from ._define import aten, composite, meta
from ._meta_util import check, meta_view, shape_of, tensor_subclass_like

__all__ = [
    "Geometry",
    "permute_geometry",
    "transpose_geometry",
    "squeeze_geometry",
    "squeeze_dims",
    "unsqueeze_geometry",
    "select_check",
    "slice_bounds",
    "slice_geometry",
    "split_sizes",
    "split_with_sizes_check",
    "diagonal_geometry",
    "unfold_geometry",
    "wrap_dim_list",
]

INT64_MAX = 9223372036854775807
#: (shape, strides, storage offset) of a view, strides and offset in elements.
Geometry = tuple[tuple[int, ...], tuple[int, ...], int]
wrap_dim = _shape.wrap_dim


def _dims_str(dims: Sequence[int]) -> str:
    return "[" + ", ".join(str(d) for d in dims) + "]"


# ----------------------------------------------------------------------------- geometry


def permute_dims(ndim: int, dims: Sequence[int]) -> tuple[int, ...]:
    """Wrapped permutation, with PyTorch's errors (length, range, duplicates)."""
    check(
        len(dims) == ndim,
        f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
        f"length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not equal "
        f"to len(dims) = {len(dims)}",
    )
    out = tuple(wrap_dim(int(d), ndim) for d in dims)
    check(len(set(out)) == len(out), "permute(): duplicate dims are not allowed.")
    return out


def permute_geometry(
    shape: Sequence[int], stride: Sequence[int], dims: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    perm = permute_dims(len(shape), dims)
    return tuple(shape[d] for d in perm), tuple(stride[d] for d in perm)


def transpose_geometry(
    shape: Sequence[int], stride: Sequence[int], dim0: int, dim1: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    ndim = len(shape)
    d0, d1 = wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)
    if ndim == 0 or d0 == d1:
        return tuple(shape), tuple(stride)
    sh, st = list(shape), list(stride)
    sh[d0], sh[d1] = sh[d1], sh[d0]
    st[d0], st[d1] = st[d1], st[d0]
    return tuple(sh), tuple(st)


def t_check(ndim: int, name: str = "t") -> None:
    check(ndim <= 2, f"{name}() expects a tensor with <= 2 dimensions, but self is {ndim}D")


def wrap_dim_list(dims: Sequence[int], ndim: int) -> tuple[int, ...]:
    """Wrapped dims of a dim list (0-d tensors accept 0/-1), duplicates rejected."""
    return _shape.wrap_dims([int(d) for d in dims], ndim)


def squeeze_dims(shape: Sequence[int], dims: Sequence[int] | None) -> tuple[int, ...]:
    """The dims squeeze removes: the given (wrapped) dims of size 1, or every size-1 dim."""
    if dims is None:
        return tuple(i for i, s in enumerate(shape) if s == 1)
    wrapped = wrap_dim_list(dims, len(shape))
    return tuple(d for d in wrapped if len(shape) and shape[d] == 1)


def squeeze_geometry(
    shape: Sequence[int], stride: Sequence[int], dims: Sequence[int] | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    drop = squeeze_dims(shape, dims)
    keep = [i for i in range(len(shape)) if i not in drop]
    return tuple(shape[i] for i in keep), tuple(stride[i] for i in keep)


def unsqueeze_geometry(
    shape: Sequence[int], stride: Sequence[int], dim: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    ndim = len(shape)
    d = wrap_dim(dim, ndim + 1)
    new_stride = 1 if d >= ndim else shape[d] * stride[d]
    return (
        (*shape[:d], 1, *shape[d:]),
        (*stride[:d], new_stride, *stride[d:]),
    )


def select_check(shape: Sequence[int], dim: int, index: int) -> tuple[int, int]:
    """(wrapped dim, wrapped index) of select(), with PyTorch's IndexErrors."""
    ndim = len(shape)
    check(ndim > 0, "select() cannot be applied to a 0-dim tensor.", IndexError)
    d = wrap_dim(dim, ndim)
    size = shape[d]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {_dims_str(shape)} at "
            f"dimension {d}"
        )
    return d, index + size if index < 0 else index


def slice_bounds(size: int, start: int | None, end: int | None, step: int) -> tuple[int, int]:
    """Clamped [start, end) of slice() on a dimension of `size` (PyTorch's normalisation)."""
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    start = 0 if start is None else int(start)
    end = size if end is None else int(end)
    if start < 0:
        start = max(start + size, 0)
    elif start > size:
        start = size
    if end < 0:
        end += size
    if end < start:
        end = start
    elif end > size:
        end = size
    return start, end


def slice_geometry(
    shape: Sequence[int], stride: Sequence[int], dim: int, start: Any, end: Any, step: int
) -> Geometry:
    """(shape, stride, offset delta) of slice()."""
    ndim = len(shape)
    check(ndim > 0, "slice() cannot be applied to a 0-dim tensor.", IndexError)
    d = wrap_dim(dim, ndim)
    lo, hi = slice_bounds(shape[d], start, end, step)
    sh, st = list(shape), list(stride)
    sh[d] = (hi - lo + step - 1) // step
    st[d] = stride[d] * step
    return tuple(sh), tuple(st), lo * stride[d]


def split_sizes(size: int, split_size: int) -> list[int]:
    """Chunk lengths of split.Tensor (the last one may be smaller)."""
    check(
        split_size >= 0,
        f"split expects split_size be non-negative, but got split_size={split_size}",
    )
    check(
        split_size != 0 or size == 0,
        f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}",
    )
    if split_size == 0:
        return [0]
    n = max((size + split_size - 1) // split_size, 1)
    last = split_size - (split_size * n - size)
    return [split_size] * (n - 1) + [last]


def split_with_sizes_check(size: int, dim: int, sizes: Sequence[int]) -> None:
    for s in sizes:
        check(
            s >= 0,
            f"split_with_sizes expects split_sizes have only non-negative entries, but got "
            f"split_sizes={_dims_str(sizes)}",
        )
    check(
        sum(sizes) == size,
        f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at "
        f"dimension {dim}), but got split_sizes={_dims_str(sizes)}",
    )


def diagonal_geometry(
    shape: Sequence[int], stride: Sequence[int], offset: int, dim1: int, dim2: int
) -> Geometry:
    ndim = len(shape)
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    check(d1 != d2, f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if offset >= 0:
        n = max(min(shape[d1], shape[d2] - offset), 0)
    else:
        n = max(min(shape[d1] + offset, shape[d2]), 0)
    delta = 0
    if n > 0:
        delta = offset * stride[d2] if offset >= 0 else -offset * stride[d1]
    keep = [i for i in range(ndim) if i not in (d1, d2)]
    return (
        (*(shape[i] for i in keep), n),
        (*(stride[i] for i in keep), stride[d1] + stride[d2]),
        delta,
    )


def unfold_geometry(
    shape: Sequence[int], stride: Sequence[int], dimension: int, size: int, step: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    ndim = len(shape)
    d = wrap_dim(dimension, ndim)
    dim_size = shape[d] if ndim else 1
    dim_stride = stride[d] if ndim else 1
    check(
        size <= dim_size,
        f"maximum size for tensor at dimension {d} is {dim_size} but size is {size}",
    )
    check(step > 0, f"step is {step} but must be > 0")
    if ndim == 0:
        return (size,), (1,)
    sh, st = list(shape), list(stride)
    sh[d] = (dim_size - size) // step + 1
    st[d] = dim_stride * step
    return (*sh, size), (*st, dim_stride)


# ----------------------------------------------------------------------------- views (CEA)


@meta("permute(Tensor(a) self, int[] dims) -> Tensor(a)")
def permute(self, dims):
    shape, stride = permute_geometry(shape_of(self), self.stride(), dims)
    return meta_view(self, shape, stride)


@meta("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)")
def transpose_int(self, dim0, dim1):
    shape, stride = transpose_geometry(shape_of(self), self.stride(), dim0, dim1)
    return meta_view(self, shape, stride)


@meta("t(Tensor(a) self) -> Tensor(a)")
def t(self):
    shape = shape_of(self)
    t_check(len(shape))
    shape, stride = transpose_geometry(shape, self.stride(), 0, 1 if len(shape) == 2 else 0)
    return meta_view(self, shape, stride)


@meta("squeeze(Tensor(a) self) -> Tensor(a)")
def squeeze(self):
    shape, stride = squeeze_geometry(shape_of(self), self.stride(), None)
    return meta_view(self, shape, stride)


@meta("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)")
def squeeze_dim(self, dim):
    shape, stride = squeeze_geometry(shape_of(self), self.stride(), [dim])
    return meta_view(self, shape, stride)


@meta("squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)")
def squeeze_dims_(self, dim):
    shape, stride = squeeze_geometry(shape_of(self), self.stride(), dim)
    return meta_view(self, shape, stride)


@meta("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)")
def unsqueeze(self, dim):
    shape, stride = unsqueeze_geometry(shape_of(self), self.stride(), dim)
    return meta_view(self, shape, stride)


@meta("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)")
def select_int(self, dim, index):
    shape = shape_of(self)
    d, i = select_check(shape, dim, int(index))
    stride = self.stride()
    return meta_view(
        self,
        shape[:d] + shape[d + 1 :],
        stride[:d] + stride[d + 1 :],
        self.storage_offset() + i * stride[d],
    )


@meta(
    "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
    "SymInt step=1) -> Tensor(a)"
)
def slice_Tensor(self, dim=0, start=None, end=None, step=1):
    shape, stride, delta = slice_geometry(shape_of(self), self.stride(), dim, start, end, step)
    return meta_view(self, shape, stride, self.storage_offset() + delta)


def _split_views(self, dim, lengths):
    shape, stride = shape_of(self), self.stride()
    d = wrap_dim(dim, len(shape))
    out = []
    start = 0
    base = self.storage_offset()
    for n in lengths:
        sh = shape[:d] + (n,) + shape[d + 1 :]
        out.append(meta_view(self, sh, stride, base + start * stride[d]))
        start += n
    return out


@meta("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]")
def split_Tensor(self, split_size, dim=0):
    shape = shape_of(self)
    check(len(shape) > 0, "split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, len(shape))
    return _split_views(self, d, split_sizes(shape[d], int(split_size)))


@meta("split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]")
def split_with_sizes(self, split_sizes, dim=0):
    shape = shape_of(self)
    check(len(shape) > 0, "split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, len(shape))
    sizes = [int(s) for s in split_sizes]
    split_with_sizes_check(shape[d], d, sizes)
    return _split_views(self, d, sizes)


@meta("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]")
def unbind_int(self, dim=0):
    shape, stride = shape_of(self), self.stride()
    d = wrap_dim(dim, len(shape), wrap_scalar=False)
    sh, st = shape[:d] + shape[d + 1 :], stride[:d] + stride[d + 1 :]
    base = self.storage_offset()
    return [meta_view(self, sh, st, base + i * stride[d]) for i in range(shape[d])]


@meta("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)")
def diagonal(self, offset=0, dim1=0, dim2=1):
    shape, stride, delta = diagonal_geometry(shape_of(self), self.stride(), offset, dim1, dim2)
    return meta_view(self, shape, stride, self.storage_offset() + delta)


@meta("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)")
def unfold(self, dimension, size, step):
    shape, stride = unfold_geometry(shape_of(self), self.stride(), dimension, size, step)
    return meta_view(self, shape, stride)


_permute = aten("permute")
_transpose = aten("transpose.int")
_slice = aten("slice.Tensor")
_split = aten("split.Tensor")
_split_with_sizes = aten("split_with_sizes")
_unsqueeze = aten("unsqueeze")
_view = aten("view")
_expand = aten("expand")
_local_scalar = aten("_local_scalar_dense")
_unsafe_view = aten("_unsafe_view")
_clone = aten("clone")


# ----------------------------------------------------------------------------- reshape


@meta("_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)")
def _reshape_alias(self, size, stride):
    # reshape computed the strides already (computeStride): this writes them as given, with no
    # view checks (PyTorch's alias_with_sizes_and_strides)
    shape, strides = _as_size(size), _as_size(stride)
    check(
        len(shape) == len(strides),
        f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
        f"({len(strides)})",
    )
    return meta_view(self, shape, strides)


def _as_size(size: Any) -> tuple[int, ...]:
    return (int(size),) if isinstance(size, int) else tuple(int(s) for s in size)


@composite("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)")
def reshape(self, shape):
    # at::native::reshape_symint: a contiguous tensor is viewed with the shape as proposed (view
    # infers the -1); a non-contiguous one whose strides allow a view gets _reshape_alias with
    # the strides computed here (view for tensor-subclass-like inputs, so that modes, subclasses,
    # meta, functionalized and functorch tensors see view); otherwise a contiguous copy, viewed.
    sizes = list(_shape.infer_size(_as_size(shape), self.numel()))
    if self.is_contiguous():
        return _view(self, sizes)
    stride = _shape.compute_view_stride(shape_of(self), self.stride(), sizes)
    if stride is None:
        return _unsafe_view(_clone(self, memory_format=0), sizes)
    if tensor_subclass_like(self):
        return _view(self, sizes)
    return _reshape_alias_op(self, sizes, list(stride))


_reshape_alias_op = aten("_reshape_alias")
_reshape = aten("reshape")


# ----------------------------------------------------------------------------- CIA views


@composite("flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)")
def flatten_using_ints(self, start_dim=0, end_dim=-1):
    shape = shape_of(self)
    ndim = len(shape)
    start = wrap_dim(start_dim, ndim)
    end = wrap_dim(end_dim, ndim)
    check(start <= end, "flatten() has invalid args: start_dim cannot come after end_dim")
    if ndim == 0:
        return _reshape(self, [1])
    if start == end:
        return self
    n = 1
    for s in shape[start : end + 1]:
        n *= s
    # PyTorch's flatten calls reshape's implementation, not the operator: its events are
    # reshape's calls (view, or clone + _unsafe_view) directly under aten::flatten
    return reshape(self, [*shape[:start], n, *shape[end + 1 :]])


@composite("unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)")
def unflatten_int(self, dim, sizes):
    sizes = [int(s) for s in sizes]
    check(len(sizes) > 0, "unflatten: sizes must be non-empty")
    shape = shape_of(self)
    try:
        d = wrap_dim(dim, len(shape), wrap_scalar=False)
        inferred = _shape.infer_size(sizes, shape[d])
    except (RuntimeError, IndexError) as e:
        if "is invalid for input of size" in str(e):
            raise RuntimeError(
                f"unflatten: Provided sizes {_dims_str(sizes)} don't multiply up to the size of "
                f"dim {dim} ({shape[d]}) in the input tensor"
            ) from None
        raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
    return _view(self, [*shape[:d], *inferred, *shape[d + 1 :]])


def _narrow_start(self, dim, start, length):
    shape = shape_of(self)
    check(len(shape) > 0, "narrow() cannot be applied to a 0-dim tensor.")
    check(length >= 0, "narrow(): length must be non-negative.")
    d = wrap_dim(dim, len(shape))
    size = shape[d]
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    if start < 0:
        start += size
    check(
        start <= size - length,
        f"start ({start}) + length ({length}) exceeds dimension size ({size}).",
    )
    return start


@composite("narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)")
def narrow(self, dim, start, length):
    start = _narrow_start(self, dim, int(start), int(length))
    return _slice(self, dim, start, start + int(length))


@composite("narrow.Tensor(Tensor(a) self, int dim, Tensor start, SymInt length) -> Tensor(a)")
def narrow_Tensor(self, dim, start, length):
    check(
        len(shape_of(start)) == 0 and start._dtype.category == 1,
        "start must be an 0-dim integral Tensor.",
    )
    s = _local_scalar(start)
    return narrow(self, dim, s, length)


@composite("split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]")
def split_sizes_(self, split_size, dim=0):
    return _split_with_sizes(self, list(split_size), dim)


@composite("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]")
def chunk(self, chunks, dim=0):
    shape = shape_of(self)
    check(len(shape) > 0, "chunk expects at least a 1-dimensional tensor")
    check(chunks > 0, f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = wrap_dim(dim, len(shape))
    size = shape[d]
    split_size = (size + chunks - 1) // chunks
    if split_size == 0 and size == 0:
        sizes = [split_size] * chunks
        sizes[chunks - 1] = split_size - (split_size * chunks - size)
        return _split_with_sizes(self, sizes, dim)
    return _split(self, split_size, dim)


def _movedim_perm(ndim: int, source: Sequence[int], destination: Sequence[int]) -> list[int]:
    check(
        len(source) == len(destination),
        f"movedim: Invalid source or destination dims: source ({_dims_str(source)} dims) should "
        f"contain the same number of dims as destination ({_dims_str(destination)} dims)",
    )
    src = [wrap_dim(d, ndim) for d in source]
    dst = [wrap_dim(d, ndim) for d in destination]
    check(len(set(src)) == len(src), f"movedim: repeated dim in `source` ({_dims_str(source)})")
    check(
        len(set(dst)) == len(dst),
        f"movedim: repeated dim in `destination` ({_dims_str(destination)})",
    )
    if ndim == 0:
        return []
    perm = [-1] * ndim
    for s, d in zip(src, dst):
        perm[d] = s
    rest_src = iter(i for i in range(ndim) if i not in src)
    for i in range(ndim):
        if perm[i] == -1:
            perm[i] = next(rest_src)
    return perm


@composite("movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)")
def movedim_intlist(self, source, destination):
    ndim = len(shape_of(self))
    perm = _movedim_perm(ndim, list(source), list(destination))
    if ndim == 0:
        return aten("alias")(self)
    return _permute(self, perm)


@composite("movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)")
def movedim_int(self, source, destination):
    return movedim_intlist(self, [source], [destination])


@composite("moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)")
def moveaxis_intlist(self, source, destination):
    return movedim_intlist(self, source, destination)


@composite("moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)")
def moveaxis_int(self, source, destination):
    return movedim_intlist(self, [source], [destination])


@composite("swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)")
def swapaxes(self, axis0, axis1):
    return _transpose(self, axis0, axis1)


@composite("swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)")
def swapdims(self, dim0, dim1):
    return _transpose(self, dim0, dim1)


@composite("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)")
def expand_as(self, other):
    return _expand(self, list(shape_of(other)))


@composite("view_as(Tensor(a) self, Tensor other) -> Tensor(a)")
def view_as(self, other):
    return _view(self, list(shape_of(other)))


@composite("numpy_T(Tensor(a) self) -> Tensor(a)")
def numpy_T(self):
    ndim = len(shape_of(self))
    if ndim != 2 and ndim != 0:
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.",
            UserWarning,
            stacklevel=3,
        )
    return _permute(self, list(range(ndim - 1, -1, -1)))


def _matrix_check(self, name: str) -> None:
    ndim = len(shape_of(self))
    check(
        ndim >= 2 or ndim == 0,
        f"tensor.{name} is only supported on matrices or batches of matrices. Got {ndim}-D tensor.",
    )


def _conj(t):
    # PyTorch sets the conjugate bit (aten::_conj, a view); keyroute has no conjugate views yet.
    if t._dtype.is_complex:
        try:
            op = aten("_conj")
        except KeyError:
            raise NotImplementedError(
                "mH / H / adjoint of a complex tensor need conjugate views (aten::_conj), which "
                "keyroute does not have yet"
            ) from None
        return op(t)
    return t


@composite("mT(Tensor(a) self) -> Tensor(a)")
def mT(self):
    _matrix_check(self, "mT")
    if len(shape_of(self)) == 0:
        return self
    return _transpose(self, -2, -1)


@composite("mH(Tensor(a) self) -> Tensor(a)")
def mH(self):
    _matrix_check(self, "mH")
    if len(shape_of(self)) == 0:
        return self
    return _conj(_transpose(self, -2, -1))


@composite("adjoint(Tensor(a) self) -> Tensor(a)")
def adjoint(self):
    _matrix_check(self, "adjoint()")
    if len(shape_of(self)) == 0:
        return self
    return _conj(_transpose(self, -2, -1))


@composite("matrix_H(Tensor(a) self) -> Tensor(a)")
def matrix_H(self):
    ndim = len(shape_of(self))
    check(
        ndim == 2 or ndim == 0,
        f"tensor.H is only supported on matrices (2-D tensors). Got {ndim}-D tensor."
        + (" For batches of matrices, consider using tensor.mH" if ndim > 2 else ""),
    )
    if ndim == 0:
        return self
    return _conj(_transpose(self, -2, -1))


# -- tensor_split / hsplit / vsplit / dsplit


def _tensor_split_check(self, name: str = "tensor_split") -> None:
    ndim = len(shape_of(self))
    check(
        ndim > 0,
        f"tensor_split expected at least a 1-dimensional tensor, but got a tensor with {ndim} dims",
    )


@composite("tensor_split.sections(Tensor(a -> *) self, SymInt sections, int dim=0) -> Tensor(a)[]")
def tensor_split_sections(self, sections, dim=0):
    _tensor_split_check(self)
    sections = int(sections)
    check(sections > 0, f"number of sections must be larger than 0, got {sections}")
    shape = shape_of(self)
    d = wrap_dim(dim, len(shape))
    size = shape[d]
    base, extra = divmod(size, sections)
    out = []
    start = 0
    for i in range(sections):
        n = base + (1 if i < extra else 0)
        out.append(_slice(self, d, start, start + n))
        start += n
    return out


@composite("tensor_split.indices(Tensor(a -> *) self, SymInt[] indices, int dim=0) -> Tensor(a)[]")
def tensor_split_indices(self, indices, dim=0):
    _tensor_split_check(self)
    shape = shape_of(self)
    d = wrap_dim(dim, len(shape))
    out = []
    start = 0
    for idx in indices:
        idx = int(idx)
        out.append(_slice(self, d, start, idx))
        start = idx
    out.append(_slice(self, d, start, shape[d]))
    return out


@composite(
    "tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, Tensor "
    "tensor_indices_or_sections, int dim=0) -> Tensor(a)[]"
)
def tensor_split_tensor(self, tensor_indices_or_sections, dim=0):
    _tensor_split_check(self)
    t = tensor_indices_or_sections
    check(
        t.device.type == "cpu",
        f"tensor_split expected tensor_indices_or_sections to be on cpu, but it's on {t.device}",
    )
    check(
        t._dtype.name == "int64",
        f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
        f"{t._dtype._short}",
    )
    ndim = len(shape_of(t))
    check(
        ndim <= 1,
        f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
        f"one-dimensional tensor, but got a tensor with {ndim} dims",
    )
    if ndim == 0:
        return tensor_split_sections(self, _local_scalar(t), dim)
    return tensor_split_indices(self, [int(v) for v in t.tolist()], dim)


def _xsplit(self, name: str, dim: int, min_dim: int, sections: Any):
    ndim = len(shape_of(self))
    check(
        ndim >= min_dim,
        f"torch.{name} requires a tensor with at least {min_dim} dimension, but got a tensor "
        f"with {ndim} dimensions!",
    )
    if isinstance(sections, int):
        size = shape_of(self)[dim]
        check(
            sections != 0 and size % sections == 0,
            f"torch.{name} attempted to split along dimension {dim}, but the size of the "
            f"dimension {size} is not divisible by the split_size {sections}!",
        )
        return tensor_split_sections(self, sections, dim)
    return tensor_split_indices(self, list(sections), dim)


@composite("hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]")
def hsplit_int(self, sections):
    ndim = len(shape_of(self))
    return _xsplit(self, "hsplit", 1 if ndim != 1 else 0, 1, int(sections))


@composite("hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]")
def hsplit_array(self, indices):
    ndim = len(shape_of(self))
    return _xsplit(self, "hsplit", 1 if ndim != 1 else 0, 1, list(indices))


@composite("vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]")
def vsplit_int(self, sections):
    return _xsplit(self, "vsplit", 0, 2, int(sections))


@composite("vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]")
def vsplit_array(self, indices):
    return _xsplit(self, "vsplit", 0, 2, list(indices))


@composite("dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]")
def dsplit_int(self, sections):
    return _xsplit(self, "dsplit", 2, 3, int(sections))


@composite("dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]")
def dsplit_array(self, indices):
    return _xsplit(self, "dsplit", 2, 3, list(indices))


@composite("ravel(Tensor(a) self) -> Tensor(a)")
def ravel(self):
    return _view(aten("contiguous")(self), [-1])
