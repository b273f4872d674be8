"""Assembly operators (cat, stack, tril/triu, flip, roll, repeat, repeat_interleave, meshgrid,
broadcasting): schemas, meta functions and decompositions.

`cat` keeps PyTorch's legacy rule: 1-D tensors of size 0 are skipped for the shape checks (they
still take part in dtype promotion). Composite ops decompose into PyTorch's aten calls (hstack
into atleast_1d's views + cat, tile into repeat, meshgrid into view + expand, ...).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from ..tensor.dtype import can_cast
from . import _shape
from ._define import aten, aten_lib, composite, composite_explicit, meta
from ._meta_util import check, new_meta, shape_of
from ._promotion import result_type
from ._variants import inplace_variant, out_variant
from .indexing import infer_size, is_dense

__all__ = [
    "is_dense",
    "cat_layout",
    "channels_last_like",
    "flip_strides",
    "repeat_target",
    "roll_check",
    "tri_check",
]

wrap_dim = _shape.wrap_dim


def _shape_str(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


# ----------------------------------------------------------------------------- cat


def channels_last_like(shape: Sequence[int], stride: Sequence[int]) -> str | None:
    """suggest_memory_format: "channels_last" / "channels_last_3d" when the strides are like
    it (PyTorch's is_channels_last_strides_*d_s*), else None (contiguous)."""
    nd = len(shape)
    if nd == 4:
        order, name = (1, 3, 2, 0), "channels_last"
    elif nd == 5:
        order, name = (1, 4, 3, 2, 0), "channels_last_3d"
    else:
        return None
    if stride[1] == 0:
        return None
    lo = 0
    for d in order:
        if shape[d] == 0 or stride[d] < lo:
            return None
        if d == 0 and lo == stride[1]:
            return None
        lo = stride[d]
        if shape[d] > 1:
            lo *= shape[d]
    return name


def _memory_format_strides(shape: tuple[int, ...], fmt: str | None) -> tuple[int, ...]:
    if fmt is None:
        return _shape.contiguous_strides(shape)
    order = (1, 3, 2, 0) if fmt == "channels_last" else (1, 4, 3, 2, 0)
    stride = [0] * len(shape)
    acc = 1
    for d in order:
        stride[d] = acc
        acc *= max(shape[d], 1)
    return tuple(stride)


def _skip(t: Any) -> bool:
    s = shape_of(t)
    return len(s) == 1 and s[0] == 0


def cat_layout(tensors: Sequence[Any], dim: int) -> tuple[Any, ...]:
    """cat's meta: (wrapped dim, output shape, output strides, output dtype, valid tensors)."""
    check(len(tensors) > 0, "torch.cat(): expected a non-empty list of Tensors", ValueError)
    for i, t in enumerate(tensors):
        check(
            len(shape_of(t)) > 0,
            f"zero-dimensional tensor (at position {i}) cannot be concatenated",
        )
    d = dim
    for t in tensors:
        if not _skip(t):
            d = wrap_dim(dim, len(shape_of(t)))
            break
    fmt: str | None = "?"
    for t in tensors:
        f = channels_last_like(shape_of(t), t.stride())
        if f is None or (fmt != "?" and fmt != f):
            fmt = None
            break
        fmt = f
    fmt = None if fmt == "?" else fmt
    dt = result_type(list(tensors))
    valid = [t for t in tensors if not _skip(t)]
    if not valid:
        return d, (0,), (1,), dt, valid
    first = shape_of(valid[0])
    check(d <= len(first), f"torch.cat(): dimension {d}out of range")
    total = 0
    for i, t in enumerate(tensors):
        if _skip(t):
            continue
        s = shape_of(t)
        check(
            len(s) == len(first),
            f"Tensors must have same number of dimensions: got {len(first)} and {len(s)}",
        )
        for k in range(len(first)):
            if k != d:
                check(
                    first[k] == s[k],
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{first[k]} but got size {s[k]} for tensor number {i} in the list.",
                )
        total += s[d]
    shape = (*first[:d], total, *first[d + 1 :])
    return d, shape, _memory_format_strides(shape, fmt), dt, valid


@meta("cat(Tensor[] tensors, int dim=0) -> Tensor")
def cat(tensors, dim=0):
    _d, shape, stride, dt, _v = cat_layout(tensors, dim)
    return new_meta(shape, dt, stride)


@meta("cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)")
def cat_out(tensors, dim=0, *, out):
    _d, shape, _stride, dt, _v = cat_layout(tensors, dim)
    check(
        can_cast(dt, out._dtype),
        f"torch.cat(): input types can't be cast to the desired output type {out._dtype._short}",
        TypeError,
    )
    if tuple(shape_of(out)) != tuple(shape):
        from ._variants import resize_output

        resize_output(out, shape)
    return out


_cat = aten("cat")


def _cat_default_backend(tensors, dim=0):
    # PyTorch's cat has a CompositeExplicitAutogradNonFunctional kernel: it also serves calls
    # with no tensor (an empty list dispatches to the Undefined slot) and raises there.
    _d, shape, _stride, dt, _v = cat_layout(tensors, dim)
    out = aten("empty.memory_format")(list(shape), dtype=dt, device=tensors[0].device)
    return aten("cat.out")(tensors, dim, out=out)


aten_lib.impl(_cat, _cat_default_backend, "CompositeExplicitAutogradNonFunctional")
_unsqueeze = aten("unsqueeze")
_view = aten("view")
_reshape = aten("reshape")
_expand = aten("expand")


def _stack_dim(tensors: Sequence[Any], dim: int) -> int:
    """stack's checks; the wrapped dimension."""
    check(len(tensors) > 0, "stack expects a non-empty TensorList")
    first = shape_of(tensors[0])
    d = wrap_dim(dim, len(first) + 1)
    for i, t in enumerate(tensors[1:], 1):
        check(
            shape_of(t) == first,
            f"stack expects each tensor to be equal size, but got {_shape_str(first)} at entry 0 "
            f"and {_shape_str(shape_of(t))} at entry {i}",
        )
    return d


def _stack_inputs(tensors: Sequence[Any], dim: int) -> tuple[list[Any], int]:
    d = _stack_dim(tensors, dim)
    return [_unsqueeze(t, d) for t in tensors], d


@composite_explicit("stack(Tensor[] tensors, int dim=0) -> Tensor")
def stack(tensors, dim=0):
    d = _stack_dim(tensors, dim)
    first = list(shape_of(tensors[0]))
    if d < len(first):
        # as PyTorch: cat the inputs along d, then split d with a view (always possible on
        # cat's fresh result); unsqueezed inputs only for a new last dimension
        return _view(_cat(list(tensors), d), [*first[:d], len(tensors), *first[d:]])
    return _cat([_unsqueeze(t, d) for t in tensors], d)


@composite_explicit("stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)")
def stack_out(tensors, dim=0, *, out):
    parts, d = _stack_inputs(tensors, dim)
    return aten("cat.out")(parts, d, out=out)


# -- atleast_nd and the *stack composites


@composite("atleast_1d(Tensor self) -> Tensor")
def atleast_1d(self):
    return _reshape(self, [1]) if len(shape_of(self)) == 0 else self


@composite("atleast_2d(Tensor self) -> Tensor")
def atleast_2d(self):
    n = len(shape_of(self))
    if n == 0:
        return _reshape(self, [1, 1])
    if n == 1:
        return _unsqueeze(self, 0)
    return self


@composite("atleast_3d(Tensor self) -> Tensor")
def atleast_3d(self):
    n = len(shape_of(self))
    if n == 0:
        return _reshape(self, [1, 1, 1])
    if n == 1:
        return _unsqueeze(_unsqueeze(self, 0), -1)
    if n == 2:
        return _unsqueeze(self, -1)
    return self


@composite("atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]")
def atleast_1d_seq(tensors):
    return [atleast_1d(t) for t in tensors]


@composite("atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]")
def atleast_2d_seq(tensors):
    return [atleast_2d(t) for t in tensors]


@composite("atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]")
def atleast_3d_seq(tensors):
    return [atleast_3d(t) for t in tensors]


def _hstack_parts(tensors):
    check(len(tensors) > 0, "hstack expects a non-empty TensorList")
    rep = [atleast_1d(t) for t in tensors]
    return rep, (0 if len(shape_of(rep[0])) == 1 else 1)


def _vstack_parts(tensors):
    check(len(tensors) > 0, "vstack expects a non-empty TensorList")
    return [atleast_2d(t) for t in tensors], 0


def _dstack_parts(tensors):
    check(len(tensors) > 0, "dstack expects a non-empty TensorList")
    return [atleast_3d(t) for t in tensors], 2


def _column_stack_parts(tensors):
    check(len(tensors) > 0, "column_stack expects a non-empty TensorList")
    rep = [
        _reshape(t, [_shape.numel(shape_of(t)), 1]) if len(shape_of(t)) <= 1 else t for t in tensors
    ]
    return rep, 1


def _cat_call(parts, d, out=None):
    if out is not None:
        return aten("cat.out")(parts, d, out=out) if d else aten("cat.out")(parts, out=out)
    return _cat(parts, d) if d else _cat(parts)


for _name, _parts in (
    ("hstack", _hstack_parts),
    ("vstack", _vstack_parts),
    ("dstack", _dstack_parts),
    ("column_stack", _column_stack_parts),
):

    def _functional(tensors, _p=_parts):
        return _cat_call(*_p(tensors))

    def _out(tensors, *, out, _p=_parts):
        return _cat_call(*_p(tensors), out=out)

    composite(f"{_name}(Tensor[] tensors) -> Tensor")(_functional)
    composite(f"{_name}.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)")(_out)


@composite("concat(Tensor[] tensors, int dim=0) -> Tensor")
def concat(tensors, dim=0):
    return _cat(tensors, dim)


@composite("concat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)")
def concat_out(tensors, dim=0, *, out):
    return aten("cat.out")(tensors, dim, out=out)


@composite("concatenate(Tensor[] tensors, int dim=0) -> Tensor")
def concatenate(tensors, dim=0):
    return _cat(tensors, dim)


@composite("concatenate.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)")
def concatenate_out(tensors, dim=0, *, out):
    return aten("cat.out")(tensors, dim, out=out)


# ----------------------------------------------------------------------------- tril / triu


def tri_check(self, name: str) -> None:
    check(
        len(shape_of(self)) >= 2,
        f"{name}: input tensor must have at least 2 dimensions",
    )


@meta("tril(Tensor self, SymInt diagonal=0) -> Tensor")
def tril(self, diagonal=0):
    tri_check(self, "tril")
    return new_meta(shape_of(self), self._dtype)


@meta("triu(Tensor self, SymInt diagonal=0) -> Tensor")
def triu(self, diagonal=0):
    tri_check(self, "triu")
    return new_meta(shape_of(self), self._dtype)


inplace_variant("tril_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", "tril")
inplace_variant("triu_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", "triu")
out_variant("tril.out(Tensor self, SymInt diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", "tril")
out_variant("triu.out(Tensor self, SymInt diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", "triu")


# ----------------------------------------------------------------------------- flip / roll / rot90


def flip_strides(shape: tuple[int, ...], stride: tuple[int, ...]) -> tuple[int, ...]:
    """empty_like(self, preserve_format): self's strides when dense, else TensorIterator's."""
    if is_dense(shape, stride):
        return tuple(stride)
    return _shape.elementwise_strides(shape, [(shape, stride)])


@meta("flip(Tensor self, int[] dims) -> Tensor")
def flip(self, dims):
    shape = shape_of(self)
    _shape.wrap_dims([int(d) for d in dims], len(shape))
    return new_meta(shape, self._dtype, flip_strides(shape, self.stride()))


out_variant("flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)", "flip")
_flip = aten("flip")


@composite("fliplr(Tensor self) -> Tensor")
def fliplr(self):
    check(len(shape_of(self)) >= 2, "Input must be >= 2-d.")
    return _flip(self, [1])


@composite("flipud(Tensor self) -> Tensor")
def flipud(self):
    check(len(shape_of(self)) >= 1, "Input must be >= 1-d.")
    return _flip(self, [0])


def roll_check(shape: tuple[int, ...], shifts: Sequence[int], dims: Sequence[int]) -> list[int]:
    """Wrapped roll dims ([] = roll the flattened tensor), with PyTorch's errors."""
    check(len(shifts) > 0, "`shifts` required")
    if len(dims) == 0 and len(shifts) == 1:
        return []
    check(
        len(shifts) == len(dims),
        f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}",
    )
    return [wrap_dim(int(d), len(shape)) for d in dims]


@meta("roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor")
def roll(self, shifts, dims=()):
    shape = shape_of(self)
    roll_check(shape, list(shifts), list(dims))
    if _shape.numel(shape) == 0:
        return new_meta(shape, self._dtype, flip_strides(shape, self.stride()))
    return new_meta(shape, self._dtype)


out_variant(
    "roll.out(Tensor self, SymInt[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!)",
    "roll",
)


@composite_explicit("rot90(Tensor self, int k=1, int[] dims=[0, 1]) -> Tensor")
def rot90(self, k=1, dims=(0, 1)):
    dims = list(dims)
    ndim = len(shape_of(self))
    check(len(dims) == 2, f"expected total rotation dims == 2, but got dims = {len(dims)}")
    check(ndim >= 2, f"expected total dims >= 2, but got total dims = {ndim}")
    d0, d1 = wrap_dim(dims[0], ndim), wrap_dim(dims[1], ndim)
    check(
        d0 != d1,
        f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}",
    )
    k = k % 4
    transpose_ = aten("transpose_")
    if k == 1:
        return transpose_(_flip(self, [dims[1]]), dims[0], dims[1])
    if k == 2:
        return _flip(self, dims)
    if k == 3:
        return transpose_(_flip(self, [dims[0]]), dims[0], dims[1])
    return aten("clone")(self, memory_format=_contiguous_format())


def _contiguous_format() -> Any:
    from ..tensor.layout import contiguous_format

    return contiguous_format


out_variant(
    "rot90.out(Tensor self, int k=1, int[] dims=[0, 1], *, Tensor(a!) out) -> Tensor(a!)",
    "rot90",
)


# ----------------------------------------------------------------------------- repeat / tile


def repeat_target(shape: tuple[int, ...], repeats: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """(padded input shape, output shape) of repeat, with PyTorch's errors."""
    check(
        len(repeats) >= len(shape),
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
        "tensor",
    )
    padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    target = tuple(p * int(r) for p, r in zip(padded, repeats))
    for s in target:
        check(s >= 0, f"Trying to create tensor with negative dimension {s}: {_shape_str(target)}")
    return padded, target


@meta("repeat(Tensor self, SymInt[] repeats) -> Tensor")
def repeat(self, repeats):
    _padded, target = repeat_target(shape_of(self), list(repeats))
    return new_meta(target, self._dtype)


out_variant("repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!)", "repeat")
_repeat = aten("repeat")


@composite("tile(Tensor self, SymInt[] dims) -> Tensor")
def tile(self, dims):
    dims = [int(d) for d in dims]
    diff = len(shape_of(self)) - len(dims)
    if diff > 0:
        dims = [1] * diff + dims
    return _repeat(self, dims)


# ----------------------------------------------------------------------------- repeat_interleave


def repeat_interleave_check(repeats) -> None:
    check(len(shape_of(repeats)) == 1, "repeat_interleave only accept 1D vector as repeat")
    check(
        repeats._dtype.name in ("int64", "int32"),
        "repeats has to be Long or Int tensor",
    )


@meta("repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor")
def repeat_interleave_Tensor(repeats, *, output_size=None):
    repeat_interleave_check(repeats)
    if shape_of(repeats)[0] == 0:
        return new_meta((0,), repeats._dtype)
    if output_size is None:
        raise NotImplementedError(
            "aten::repeat_interleave.Tensor without output_size has a data-dependent output "
            "shape; it cannot run on meta tensors"
        )
    return new_meta((int(output_size),), repeats._dtype)


out_variant(
    "repeat_interleave.Tensor_out(Tensor repeats, *, SymInt? output_size=None, Tensor(a!) out) "
    "-> Tensor(a!)",
    "repeat_interleave.Tensor",
)


@composite(
    "repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, SymInt? "
    "output_size=None) -> Tensor"
)
def repeat_interleave_self_Tensor(self, repeats, dim=None, *, output_size=None):
    x = self
    if dim is None:
        x = aten("flatten.using_ints")(x)
        dim = 0
    rshape = shape_of(repeats)
    xshape = shape_of(x)
    size = xshape[wrap_dim(dim, len(xshape))]
    if len(rshape) == 0 or (len(rshape) == 1 and rshape[0] == 1):
        repeats = _expand(_reshape(repeats, [1]), [size])
    elif len(rshape) == 1:
        check(
            rshape[0] == size,
            f"repeats must have the same size as input along dim, but got repeats.size(0) = "
            f"{rshape[0]} and input.size({dim}) = {size}",
        )
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    ri = aten("repeat_interleave.Tensor")
    idx = ri(repeats) if output_size is None else ri(repeats, output_size=output_size)
    return aten("index_select")(x, dim, idx)


@composite(
    "repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? "
    "output_size=None) -> Tensor"
)
def repeat_interleave_self_int(self, repeats, dim=None, *, output_size=None):
    x = self if dim is not None else aten("flatten.using_ints")(self)
    d = wrap_dim(0 if dim is None else dim, len(shape_of(self)))
    repeats = int(repeats)
    check(repeats >= 0, "Repeats must be non-negative")
    x = _unsqueeze(x, d + 1)
    target = list(shape_of(x))
    target[d + 1] = repeats
    x = _expand(x, target)
    if output_size is not None:
        calculated = repeats * target[d]
        check(
            int(output_size) == calculated,
            f"repeat_interleave: Invalid output_size, expected {calculated} but got {output_size}",
        )
    x = aten("clone")(x, memory_format=_contiguous_format())
    return aten("flatten.using_ints")(x, d, d + 1)


# ----------------------------------------------------------------------------- meshgrid / broadcast


def _meshgrid(tensors, indexing):
    n = len(tensors)
    check(n > 0, "meshgrid expects a non-empty TensorList")
    for i in range(n - 1):
        check(
            tensors[i]._dtype is tensors[i + 1]._dtype,
            "meshgrid expects all tensors to have the same dtype",
        )
        check(
            tensors[i].device == tensors[i + 1].device,
            "meshgrid expects all tensors to have the same device",
        )
    refs = list(tensors)
    swap = False
    if indexing == "xy":
        swap = n >= 2
        if swap:
            refs[0], refs[1] = refs[1], refs[0]
    else:
        check(
            indexing == "ij",
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}',
        )
    shape = []
    for t in refs:
        check(
            len(shape_of(t)) <= 1,
            "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: " + repr(t),
        )
        shape.append(_shape.numel(shape_of(t)))
    grids = []
    view_shape = [1] * n
    for i, t in enumerate(refs):
        view_shape[i] = -1
        grids.append(_expand(_view(t, list(view_shape)), list(shape)))
        view_shape[i] = 1
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return grids


@composite("meshgrid(Tensor[] tensors) -> Tensor[]")
def meshgrid(tensors):
    warnings.warn(
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
        "argument.",
        UserWarning,
        stacklevel=3,
    )
    return _meshgrid(tensors, "ij")


@composite("meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]")
def meshgrid_indexing(tensors, *, indexing):
    return _meshgrid(tensors, indexing)


@composite("broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)")
def broadcast_to(self, size):
    return _expand(self, [int(s) for s in size])


@composite("broadcast_tensors(Tensor[] tensors) -> Tensor[]")
def broadcast_tensors(tensors):
    shape: tuple[int, ...] = ()
    for i, t in enumerate(tensors):
        shape = tuple(shape_of(t)) if i == 0 else infer_size(shape, shape_of(t))
    return [t if shape_of(t) == shape else _expand(t, list(shape)) for t in tensors]
