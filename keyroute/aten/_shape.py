"""Shape and stride arithmetic shared by every meta function and backend (PyTorch's rules).

>>> broadcast_shapes((2, 1), (3,))
(2, 3)
>>> infer_size([-1, 4], 8)
(2, 4)
>>> compute_view_stride((2, 3), (3, 1), (6,))
(1,)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tensor.meta_array import (  # noqa: F401  (re-exported: geometry helpers)
    contiguous_strides,
    is_channels_last_strides,
    is_contiguous_strides,
)

__all__ = [
    "broadcast_shapes",
    "wrap_dim",
    "wrap_dims",
    "infer_size",
    "compute_view_stride",
    "contiguous_strides",
    "is_contiguous_strides",
    "is_channels_last_strides",
    "elementwise_strides",
    "reduced_shape",
    "numel",
]


def numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The broadcast of shapes, or PyTorch's error naming the mismatching dimension.

    As PyTorch's infer_size folded over the operands: the running shape is tensor a, the next
    operand tensor b, and dimensions are compared from the last one, so the error names the
    last mismatching dimension (an index into the pair's broadcast shape)."""
    if not shapes:
        return ()
    out = tuple(shapes[0])
    for shape in shapes[1:]:
        shape = tuple(shape)
        if shape == out:
            continue
        na, nb = len(out), len(shape)
        ndim = max(na, nb)
        result = [1] * ndim
        for i in range(ndim - 1, -1, -1):
            offset = ndim - 1 - i
            size_a = out[na - 1 - offset] if offset < na else 1
            size_b = shape[nb - 1 - offset] if offset < nb else 1
            if size_a != size_b and size_a != 1 and size_b != 1:
                raise RuntimeError(
                    f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                    f"at non-singleton dimension {i}"
                )
            result[i] = size_b if size_a == 1 else size_a
        out = tuple(result)
    return out


def wrap_dim(dim: int, ndim: int, wrap_scalar: bool = True) -> int:
    """A dimension index in [0, ndim); negative counts from the end (0-d tensors accept 0/-1)."""
    if ndim <= 0:
        if not wrap_scalar:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        ndim = 1
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        )
    return dim + ndim if dim < 0 else dim


def wrap_dims(dims: Sequence[int], ndim: int) -> tuple[int, ...]:
    out = []
    for d in dims:
        w = wrap_dim(d, ndim)
        if w in out:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        out.append(w)
    return tuple(out)


def infer_size(shape: Sequence[int], n: int) -> tuple[int, ...]:
    """Resolve one -1 in a view/reshape shape for a tensor of n elements."""
    newsize = 1
    infer_dim = None
    for i, s in enumerate(shape):
        if s == -1:
            if infer_dim is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer_dim = i
        elif s >= 0:
            newsize *= s
        else:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {list(shape)}")
    if n == newsize and infer_dim is None:
        return tuple(shape)
    # (the message's shape is formatted only on these rarer paths: views run this per call)
    shape_str = "[" + ", ".join(str(s) for s in shape) + "]"
    if n == newsize or (infer_dim is not None and newsize > 0 and n % newsize == 0):
        out = list(shape)
        if infer_dim is not None:
            if newsize == 0:
                raise RuntimeError(
                    f"cannot reshape tensor of 0 elements into shape {shape_str} because the "
                    f"unspecified dimension size -1 can be any value and is ambiguous"
                )
            out[infer_dim] = n // newsize
        return tuple(out)
    if infer_dim is not None and newsize == 0:
        raise RuntimeError(
            f"cannot reshape tensor of 0 elements into shape {shape_str} because the "
            f"unspecified dimension size -1 can be any value and is ambiguous"
        )
    raise RuntimeError(f"shape '{shape_str}' is invalid for input of size {n}")


def compute_view_stride(
    oldshape: Sequence[int], oldstride: Sequence[int], newshape: Sequence[int]
) -> tuple[int, ...] | None:
    """Strides for viewing (oldshape, oldstride) as newshape without a copy, else None
    (at::detail::computeStride)."""
    if not oldshape:
        return tuple(1 for _ in newshape)
    n = numel(oldshape)
    if n == 0 and tuple(oldshape) == tuple(newshape):
        return tuple(oldstride)
    newstride = [0] * len(newshape)
    if n == 0:
        # Any strides work for an empty tensor: use contiguous ones, as PyTorch does.
        return contiguous_strides(tuple(newshape))
    view_d = len(newshape) - 1
    chunk_base_stride = oldstride[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(oldshape) - 1, -1, -1):
        tensor_numel *= oldshape[tensor_d]
        if tensor_d == 0 or (
            oldshape[tensor_d - 1] != 1
            and oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride
        ):
            while view_d >= 0 and (view_numel < tensor_numel or newshape[view_d] == 1):
                newstride[view_d] = view_numel * chunk_base_stride
                view_numel *= newshape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = oldstride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(newstride)


def elementwise_strides(
    shape: tuple[int, ...], inputs: Sequence[tuple[tuple[int, ...], tuple[int, ...]]]
) -> tuple[int, ...]:
    """Output strides of an elementwise op (TensorIterator): follow the memory order of the
    inputs (first input first) so non-contiguous inputs give like-ordered outputs."""
    ndim = len(shape)
    if ndim <= 1:
        return contiguous_strides(shape)
    # Strides of each input, broadcast to the output rank (0 for broadcast dims).
    full = []
    for ishape, istride in inputs:
        offset = ndim - len(ishape)
        st = [0] * ndim
        for i, (s, t) in enumerate(zip(ishape, istride)):
            st[offset + i] = 0 if s == 1 and shape[offset + i] != 1 else t
        full.append(st)
    perm = _inner_to_outer(shape, full)
    strides = [0] * ndim
    acc = 1
    for d in perm:
        strides[d] = acc
        acc *= max(shape[d], 1)
    return tuple(strides)


def _inner_to_outer(shape: Sequence[int], full: Sequence[Sequence[int]]) -> list[int]:
    """The dims from innermost to outermost in the inputs' memory order (their strides `full`,
    0 for broadcast dims), as TensorIterator::reorder_dimensions sorts them."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(dim0: int, dim1: int) -> int:
        for st in full:
            s0, s1 = st[dim0], st[dim1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0

    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    return perm


def logical_to_physical_perm(shape: Sequence[int], stride: Sequence[int]) -> list[int]:
    """A tensor's dims from outermost to innermost in memory (the `physical_layout` PyTorch's
    meta empty_like passes to empty_permuted): identity for a contiguous tensor, the
    channels-last order for a channels-last one, else the elementwise sort of its strides."""
    ndim = len(shape)
    if 0 in shape or _dense_in(shape, stride, range(ndim)):
        return list(range(ndim))
    if ndim in (4, 5):
        cl = [0, *range(2, ndim), 1]
        if _dense_in(shape, stride, cl):
            return cl
    return _inner_to_outer(shape, [list(stride)])[::-1]


def _dense_in(shape: Sequence[int], stride: Sequence[int], order: Sequence[int]) -> bool:
    """Whether the tensor is contiguous in dim order `order` (outermost first), size-1 dims'
    strides ignored as PyTorch's is_contiguous ignores them."""
    expected = 1
    for d in reversed(list(order)):
        if shape[d] != 1:
            if stride[d] != expected:
                return False
            expected *= shape[d]
    return True


def reduced_shape(shape: Sequence[int], dims: Sequence[int], keepdim: bool) -> tuple[int, ...]:
    if keepdim:
        return tuple(1 if i in dims else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in dims)
