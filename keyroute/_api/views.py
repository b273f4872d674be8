"""Python API of the view operators: `keyroute.permute(...)`, `Tensor.t()`, `Tensor.T`, ...

Argument parsing follows PyTorch's Python signatures (dims as varargs or one sequence; an int
or a sequence for split and squeeze); each call is one aten operator call, positional so that
the dispatcher's fast path applies.
"""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import _keywords, function, method

aten = ops.aten
_permute = aten.permute.default
_transpose = aten.transpose.int
_t = aten.t.default
_select = aten.select.int
_unsqueeze = aten.unsqueeze.default
_squeeze = aten.squeeze.default
_squeeze_dim = aten.squeeze.dim
_squeeze_dims = aten.squeeze.dims
_split = aten.split.Tensor
_split_with_sizes = aten.split_with_sizes.default
_unbind = aten.unbind.int


def _int_list(args: tuple[Any, ...]) -> list[int]:
    """Varargs ints or a single sequence of ints, as PyTorch's `int[]` varargs parsing."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return [int(d) for d in args[0]]
    return [int(d) for d in args]


# -- reorderings


@function
@method
def permute(self: Tensor, *dims_: Any, dims: Any = None) -> Tensor:
    """A view with the dimensions reordered (positional or dims=)."""
    return _permute(self, _int_list(dims_ if dims is None else (dims,)))


@function
@method
def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """A view with dims dim0 and dim1 swapped."""
    return _transpose(self, dim0, dim1)


@function
@method
def as_strided_(self: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
    """Give self the geometry (size, stride, storage_offset) in place, within its storage."""
    return aten.as_strided_.default(self, list(size), list(stride), storage_offset)


@method
def transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap dims dim0 and dim1 of self in place (a metadata change)."""
    return aten.transpose_.default(self, dim0, dim1)


@function
@method
def t(self: Tensor) -> Tensor:
    """The transpose of a tensor of <= 2 dims (a view)."""
    return _t(self)


@method
def t_(self: Tensor) -> Tensor:
    """Transpose a tensor of <= 2 dims in place (a metadata change)."""
    return aten.t_.default(self)


@function
@method
def swapaxes(self: Tensor, axis0: int, axis1: int) -> Tensor:
    """Alias of transpose (aten::swapaxes)."""
    return aten.swapaxes.default(self, axis0, axis1)


@function
@method
def swapdims(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Alias of transpose (aten::swapdims)."""
    return aten.swapdims.default(self, dim0, dim1)


@method
def swapaxes_(self: Tensor, axis0: int, axis1: int) -> Tensor:
    """Alias of transpose_ (aten::swapaxes_)."""
    return aten.swapaxes_.default(self, axis0, axis1)


@method
def swapdims_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Alias of transpose_ (aten::swapdims_)."""
    return aten.swapdims_.default(self, dim0, dim1)


def _movedim(self: Tensor, source: Any, destination: Any) -> Tensor:
    if isinstance(source, int) and isinstance(destination, int):
        return aten.movedim.int(self, source, destination)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    return aten.movedim.intlist(self, src, dst)


@function
@method
def movedim(self: Tensor, source: Any, destination: Any) -> Tensor:
    """A view with the source dims moved to the destination positions."""
    return _movedim(self, source, destination)


@function
@method
def moveaxis(self: Tensor, source: Any, destination: Any) -> Tensor:
    """Alias of movedim (aten::moveaxis)."""
    if isinstance(source, int) and isinstance(destination, int):
        return aten.moveaxis.int(self, source, destination)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    return aten.moveaxis.intlist(self, src, dst)


@function
@method
def adjoint(self: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims (a view)."""
    return aten.adjoint.default(self)


Tensor.T = property(lambda self: aten.numpy_T.default(self), doc="aten::numpy_T")  # type: ignore[attr-defined]
Tensor.mT = property(lambda self: aten.mT.default(self), doc="aten::mT")  # type: ignore[attr-defined]
Tensor.mH = property(lambda self: aten.mH.default(self), doc="aten::mH")  # type: ignore[attr-defined]
Tensor.H = property(lambda self: aten.matrix_H.default(self), doc="aten::matrix_H")  # type: ignore[attr-defined]


# -- squeeze / unsqueeze / flatten


def _squeeze_call(self: Tensor, dim: Any, inplace: bool) -> Tensor:
    ops_ = aten.squeeze_ if inplace else aten.squeeze
    if dim is None:
        return ops_.default(self)
    if isinstance(dim, (list, tuple)):
        return ops_.dims(self, [int(d) for d in dim])
    return ops_.dim(self, dim)


@function
@method
def squeeze(self: Tensor, dim: Any = None) -> Tensor:
    """A view without size-1 dims (all, one dim, or a tuple of dims)."""
    if dim is None:
        return _squeeze(self)
    if isinstance(dim, (list, tuple)):
        return _squeeze_dims(self, [int(d) for d in dim])
    return _squeeze_dim(self, dim)


@method
def squeeze_(self: Tensor, dim: Any = None) -> Tensor:
    """Remove size-1 dims of self in place (a metadata change)."""
    return _squeeze_call(self, dim, True)


@function
@method
def unsqueeze(self: Tensor, dim: int) -> Tensor:
    """A view with a size-1 dim inserted at dim."""
    return _unsqueeze(self, dim)


@method
def unsqueeze_(self: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dim into self in place (a metadata change)."""
    return aten.unsqueeze_.default(self, dim)


@function
@method
def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Dims start_dim..end_dim merged into one (a view when the strides allow)."""
    return aten.flatten.using_ints(self, start_dim, end_dim)


@function
@method
def unflatten(self: Tensor, dim: int, sizes: Any) -> Tensor:
    """Dim dim split into sizes (a view)."""
    return aten.unflatten.int(self, dim, [int(s) for s in sizes])


@function
@method
def ravel(self: Tensor) -> Tensor:
    """The tensor as 1-D (contiguous() then view(-1))."""
    return aten.ravel.default(self)


# -- select / slice / split


@function
@method
def select(self: Tensor, dim: int, index: int) -> Tensor:
    """The slice at `index` along dim, dim removed (a view)."""
    return _select(self, dim, index)


@function
@method
def narrow(self: Tensor, dim: int, start: Any, length: int) -> Tensor:
    """The length elements from start along dim (a view)."""
    if isinstance(start, Tensor):
        return aten.narrow.Tensor(self, dim, start, length)
    return aten.narrow.default(self, dim, start, length)


@function
@method
def split(self: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Chunks of `split_size` (an int) or of the given sizes (a sequence) along dim."""
    if isinstance(split_size_or_sections, (list, tuple)):
        return tuple(_split_with_sizes(self, [int(s) for s in split_size_or_sections], dim))
    return tuple(_split(self, split_size_or_sections, dim))


# Tensor.split is PyTorch's Python method `split(self, split_size, dim=0)`: same code, its name
Tensor.split = _keywords.renamed(split, {"split_size_or_sections": "split_size"})  # type: ignore[method-assign]


@function
@method
def split_with_sizes(self: Tensor, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Views of the given sizes along dim."""
    return tuple(_split_with_sizes(self, [int(s) for s in split_sizes], dim))


@function
@method
def chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """chunks views of (nearly) equal size along dim."""
    return tuple(aten.chunk.default(self, chunks, dim))


@function
@method
def unbind(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """Every slice along dim, dim removed (views)."""
    return tuple(_unbind(self, dim))


def _sections_arg(
    name: str, indices_or_sections: Any, sections: Any, indices: Any, by_tensor: Any = None
) -> Any:
    """The one split spec of PyTorch's overloads: positional, or by its overload's name."""
    given = [v for v in (indices_or_sections, sections, indices, by_tensor) if v is not None]
    if len(given) != 1:
        raise TypeError(
            f"{name}() received an invalid combination of arguments: pass exactly one of "
            "indices_or_sections, sections, indices"
            + (", tensor_indices_or_sections" if name == "tensor_split" else "")
        )
    return given[0]


@function
@method
def tensor_split(
    self: Tensor,
    indices_or_sections: Any = None,
    dim: int = 0,
    *,
    sections: Any = None,
    indices: Any = None,
    tensor_indices_or_sections: Any = None,
) -> tuple[Tensor, ...]:
    """Views split at the given indices or into the given number of sections.

    PyTorch's three overloads name the split `sections`, `indices` or
    `tensor_indices_or_sections`; each is accepted as a keyword."""
    spec = _sections_arg(
        "tensor_split", indices_or_sections, sections, indices, tensor_indices_or_sections
    )
    if isinstance(spec, Tensor):
        return tuple(aten.tensor_split.tensor_indices_or_sections(self, spec, dim))
    if isinstance(spec, (list, tuple)):
        return tuple(aten.tensor_split.indices(self, [int(i) for i in spec], dim))
    return tuple(aten.tensor_split.sections(self, spec, dim))


def _xsplit(name: str) -> Any:
    packet = getattr(aten, name)

    def fn(
        self: Tensor, indices_or_sections: Any = None, *, sections: Any = None, indices: Any = None
    ) -> tuple[Tensor, ...]:
        spec = _sections_arg(name, indices_or_sections, sections, indices)
        if isinstance(spec, (list, tuple)):
            return tuple(packet.array(self, [int(i) for i in spec]))
        return tuple(packet.int(self, int(spec)))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"aten::{name}: split along a fixed dimension."
    return fn


hsplit = function(method(_xsplit("hsplit")))
vsplit = function(method(_xsplit("vsplit")))
dsplit = function(method(_xsplit("dsplit")))


# -- diagonal / unfold


@function
@method
def diagonal(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of dims dim1 and dim2, shifted by offset (a view)."""
    return aten.diagonal.default(self, offset, dim1, dim2)


@method
def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """A view of every size-long window along dimension, step apart."""
    return aten.unfold.default(self, dimension, size, step)
