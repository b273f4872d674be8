"""Python API of the assembly operators: cat/stack and friends, tril/triu, flip, roll, rot90,
repeat/tile, repeat_interleave, meshgrid, broadcast_to/broadcast_tensors, atleast_nd."""

from __future__ import annotations

import warnings
from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method

aten = ops.aten


def _int_list(args: tuple[Any, ...]) -> list[int]:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return [int(d) for d in args[0]]
    return [int(d) for d in args]


def _tensors(args: tuple[Any, ...]) -> list[Tensor]:
    """A tensor list given as one sequence or as varargs (atleast_*d, meshgrid, ...)."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


# -- cat / stack


@function
def cat(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Concatenate tensors along an existing dimension."""
    if out is not None:
        return aten.cat.out(list(tensors), dim, out=out)
    return aten.cat.default(list(tensors), dim) if dim else aten.cat.default(list(tensors))


@function
def concat(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Alias of cat."""
    if out is not None:
        return aten.concat.out(list(tensors), dim, out=out)
    return aten.concat.default(list(tensors), dim)


@function
def concatenate(
    tensors: Any, dim: int = 0, *, axis: int | None = None, out: Tensor | None = None
) -> Tensor:
    """Alias of cat; PyTorch's parser takes NumPy's `axis` for `dim` too."""
    axis = dim if axis is None else axis
    if out is not None:
        return aten.concatenate.out(list(tensors), axis, out=out)
    return aten.concatenate.default(list(tensors), axis)


@function
def stack(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Stack equal-shaped tensors along a new dimension."""
    if out is not None:
        return aten.stack.out(list(tensors), dim, out=out)
    return aten.stack.default(list(tensors), dim) if dim else aten.stack.default(list(tensors))


def _stack_fn(name: str) -> Any:
    packet = getattr(aten, name)

    def fn(tensors: Any, *, out: Tensor | None = None) -> Tensor:
        if out is not None:
            return packet.out(list(tensors), out=out)
        return packet.default(list(tensors))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"aten::{name}."
    return function(fn)


hstack = _stack_fn("hstack")
vstack = _stack_fn("vstack")
dstack = _stack_fn("dstack")
column_stack = _stack_fn("column_stack")
row_stack = vstack


def _atleast(name: str) -> Any:
    packet = getattr(aten, name)

    def fn(*tensors: Any) -> Any:
        if len(tensors) == 1 and isinstance(tensors[0], Tensor):
            return packet.default(tensors[0])
        return tuple(packet.Sequence(_tensors(tensors)))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"aten::{name}."
    return function(fn)


atleast_1d = _atleast("atleast_1d")
atleast_2d = _atleast("atleast_2d")
atleast_3d = _atleast("atleast_3d")


# -- tril / triu


@function
@method
def tril(self: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor:
    """The lower triangle of the last two dims (elements above diagonal zeroed)."""
    if out is not None:
        return aten.tril.out(self, diagonal, out=out)
    return aten.tril.default(self, diagonal)


@function
@method
def triu(self: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor:
    """The upper triangle of the last two dims (elements below diagonal zeroed)."""
    if out is not None:
        return aten.triu.out(self, diagonal, out=out)
    return aten.triu.default(self, diagonal)


@method
def tril_(self: Tensor, diagonal: int = 0) -> Tensor:
    """Zero the elements of self above the diagonal, in place."""
    return aten.tril_.default(self, diagonal)


@method
def triu_(self: Tensor, diagonal: int = 0) -> Tensor:
    """Zero the elements of self below the diagonal, in place."""
    return aten.triu_.default(self, diagonal)


# -- flip / roll / rot90


@function
@method
def flip(self: Tensor, *dims_: Any, dims: Any = None) -> Tensor:
    """A copy with the order of elements reversed along dims (positional or dims=)."""
    return aten.flip.default(self, _int_list(dims_ if dims is None else (dims,)))


@function
@method
def fliplr(self: Tensor) -> Tensor:
    """flip along dim 1."""
    return aten.fliplr.default(self)


@function
@method
def flipud(self: Tensor) -> Tensor:
    """flip along dim 0."""
    return aten.flipud.default(self)


@function
@method
def roll(self: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    """Elements shifted along dims (or the flattened tensor), wrapping around."""
    sh = [int(shifts)] if not isinstance(shifts, (list, tuple)) else [int(s) for s in shifts]
    if dims is None:
        return aten.roll.default(self, sh)
    dm = [int(dims)] if not isinstance(dims, (list, tuple)) else [int(d) for d in dims]
    return aten.roll.default(self, sh, dm)


@function
@method
def rot90(self: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    """Rotated by 90 degrees k times in the plane of dims."""
    return aten.rot90.default(self, k, list(dims))


# -- repeat / tile / repeat_interleave


@method
def repeat(self: Tensor, *repeats_: Any, repeats: Any = None) -> Tensor:
    """The tensor tiled repeats times along each dim (leading dims added)."""
    return aten.repeat.default(self, _int_list(repeats_ if repeats is None else (repeats,)))


@function
@method
def tile(self: Tensor, *dims_: Any, dims: Any = None) -> Tensor:
    """repeat, with reps padded with leading 1s to self's dims."""
    return aten.tile.default(self, _int_list(dims_ if dims is None else (dims,)))


@function
@method
def repeat_interleave(
    self: Tensor, repeats: Any = None, dim: int | None = None, *, output_size: int | None = None
) -> Tensor:
    """torch.repeat_interleave(repeats) (self is the repeats tensor), or (input, repeats, dim)."""
    kw = {} if output_size is None else {"output_size": output_size}
    if repeats is None:
        return aten.repeat_interleave.Tensor(self, **kw)
    if isinstance(repeats, Tensor):
        return aten.repeat_interleave.self_Tensor(self, repeats, dim, **kw)
    return aten.repeat_interleave.self_int(self, repeats, dim, **kw)


# -- meshgrid / broadcasting


@function
def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids of 1-D tensors (indexing 'ij' or 'xy'); views (expand)."""
    ts = _tensors(tensors)
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    return tuple(aten.meshgrid.indexing(ts, indexing=indexing))


@function
@method
def broadcast_to(self: Tensor, size: Any) -> Tensor:
    """A view of self expanded to size."""
    return aten.broadcast_to.default(self, [int(s) for s in size])


@function
def broadcast_tensors(*tensors: Any) -> tuple[Tensor, ...]:
    """Views of the tensors expanded to their common broadcast shape."""
    return tuple(aten.broadcast_tensors.default(_tensors(tensors)))


@function
def broadcast_shapes(*shapes: Any) -> Any:
    """The shape tensors of these shapes broadcast to (torch.broadcast_shapes), no tensors made."""
    from ..tensor._tensor import Size

    norm = [(s,) if isinstance(s, int) else s for s in shapes]
    result = [1] * max((len(s) for s in norm), default=0)
    for idx, shape in enumerate(norm):
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError(
                f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got "
                f"{shape}"
            )
        for i in range(-1, -1 - len(shape), -1):
            size = shape[i]
            if size < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
            if size == 1 or size == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {i}! Mismatching "
                    f"argument at index {idx} had {shape}; but expected shape should be "
                    f"broadcastable to {result}"
                )
            result[i] = size
    return Size(result)
