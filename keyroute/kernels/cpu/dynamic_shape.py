"""CPU (NumPy) kernels of the data-dependent operators: nonzero_static, the unique family,
bincount, equal.

unique follows PyTorch's CPU algorithm (aten/src/ATen/native/Unique.cpp), which always sorts
(the `sorted` flag is ignored): a sort of the flattened values, a new group wherever a value
differs from the one before it (so every NaN is its own group and -0.0 joins 0.0), inverse
indices from the group numbers and counts from the group starts. unique_dim sorts the slices
along `dim` lexicographically and always returns inverse indices and counts, as PyTorch's kernel
does whatever the flags say.

The sort here is stable. PyTorch's is std::sort, stable only up to 16 elements: beyond that the
order among ties differs, which shows only in the NaNs' inverse indices and in which of -0.0 and
0.0 stands for the zero group (known gap unique-tie-order, tests/aten/known_gaps.txt).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ...aten import _shape
from ...aten._meta_util import check
from ...aten._promotion import result_type
from ...aten.elementwise import not_implemented
from ...tensor._tensor import Tensor
from ...tensor.dtype import bfloat16, float32, float64, int64
from ._kernel import fix_empty, kernel, wrap

_INT64_MAX = 9223372036854775807
_BINCOUNT_INPUTS = frozenset({"uint8", "int8", "int16", "int32", "int64"})


def _long(a: np.ndarray) -> Tensor:
    # (np.ascontiguousarray would make a 0-d array 1-d)
    return wrap(fix_empty(np.array(a, dtype=np.int64, order="C", copy=False)), int64)


def _empty_long(shape: tuple[int, ...] = (0,)) -> Tensor:
    return wrap(fix_empty(np.empty(shape, np.int64)), int64)


def _sort_keys(a: np.ndarray, dt: Any) -> np.ndarray:
    """Values NumPy sorts and compares as PyTorch does (bfloat16 widened to float32: exact and
    order-preserving)."""
    return a.astype(np.float32) if dt is bfloat16 else a


# ----------------------------------------------------------------------------- nonzero_static


@kernel("nonzero_static")
def nonzero_static(self: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    check(size >= 0, "nonzero_static: 'size' must be an non-negative integer")
    a = self._data
    out = np.full((size, a.ndim), fill_value, np.int64)
    if a.ndim and size:
        coords = np.nonzero(a)
        n = min(len(coords[0]), size)
        if n:
            out[:n] = np.stack([c[:n] for c in coords], axis=1)
    return wrap(fix_empty(out), int64)


# ----------------------------------------------------------------------------- unique


def _unique_flat(
    self: Tensor, return_inverse: bool, return_counts: bool, consecutive: bool = False
) -> tuple[Tensor, Tensor, Tensor]:
    """unique_cpu_sorted_template / unique_consecutive_cpu_template (and the bool template,
    which gives the same answer)."""
    dt = self._dtype
    if dt.is_complex:
        raise not_implemented("unique", dt)
    a = self._data
    flat = np.ascontiguousarray(a).reshape(-1)
    n = flat.size
    if n == 0:
        out = wrap(fix_empty(np.empty(0, dt.np)), dt)
        inverse = _empty_long(a.shape) if return_inverse else _empty_long()
        return out, inverse, _empty_long()
    keys = _sort_keys(flat, dt)
    order = None if consecutive else np.argsort(keys, kind="stable")
    ks = keys if order is None else keys[order]
    new = np.empty(n, np.bool_)
    new[0] = True
    np.not_equal(ks[1:], ks[:-1], out=new[1:])  # NaN != NaN: every NaN starts a group
    values = flat if order is None else flat[order]
    out = wrap(np.ascontiguousarray(values[new]), dt)
    inverse = _empty_long()
    if return_inverse:
        inv = np.cumsum(new, dtype=np.int64) - 1  # each sorted position's group
        if order is not None:
            inv[order] = inv.copy()  # back to input positions
        inverse = _long(inv.reshape(a.shape))
    counts = _empty_long()
    if return_counts:
        starts = np.flatnonzero(new)
        counts = _long(np.diff(np.append(starts, n)))
    return out, inverse, counts


@kernel("_unique2")
def _unique2(
    self: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False
) -> tuple[Tensor, Tensor, Tensor]:
    return _unique_flat(self, return_inverse, return_counts)


@kernel("_unique")
def _unique(
    self: Tensor, sorted: bool = True, return_inverse: bool = False
) -> tuple[Tensor, Tensor]:
    out, inverse, _ = _unique_flat(self, return_inverse, False)
    return out, inverse


def _unique_dim(self: Tensor, dim: int, consecutive: bool) -> tuple[Tensor, Tensor, Tensor]:
    """_unique_dim_cpu_template: inverse indices and counts are always computed."""
    dt = self._dtype
    if dt.is_complex:
        raise not_implemented("unique_dim", dt)
    a = self._data
    if a.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _shape.wrap_dim(dim, a.ndim)
    sizes = a.shape
    zeros = sum(1 for s in sizes if s == 0)
    if sizes[d] == 0:
        check(
            zeros == 1,
            "Number of zero sized dimensions is more than one, so unique cannot be applied ",
        )
        return wrap(fix_empty(np.empty(sizes, dt.np)), dt), _empty_long(), _empty_long()
    check(
        zeros == 0,
        "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied",
    )
    moved = np.moveaxis(a, d, 0)
    rows = np.ascontiguousarray(moved).reshape(sizes[d], -1)
    m = rows.shape[0]
    keys = _sort_keys(rows, dt)
    if consecutive:
        order = np.arange(m)
    else:
        # Lexicographic order of the slices (np.lexsort's last key is the primary one).
        order = np.lexsort(keys.T[::-1])
    ks = keys[order]
    new = np.empty(m, np.bool_)
    new[0] = True
    np.any(ks[1:] != ks[:-1], axis=1, out=new[1:])
    group = np.cumsum(new, dtype=np.int64) - 1
    inv = np.empty(m, np.int64)
    inv[order] = group
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, m))
    # The unique slices stacked along a new first dim, then moved back to `dim` (a view, as
    # PyTorch's moveaxis leaves it).
    kept = np.ascontiguousarray(rows[order][new]).reshape((len(starts), *moved.shape[1:]))
    out = wrap(np.moveaxis(kept, 0, d), dt)
    return out, _long(inv), _long(counts)


@kernel("unique_dim")
def unique_dim(
    self: Tensor,
    dim: int,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
) -> tuple[Tensor, Tensor, Tensor]:
    return _unique_dim(self, dim, False)


@kernel("unique_dim_consecutive")
def unique_dim_consecutive(
    self: Tensor, dim: int, return_inverse: bool = False, return_counts: bool = False
) -> tuple[Tensor, Tensor, Tensor]:
    return _unique_dim(self, dim, True)


@kernel("unique_consecutive")
def unique_consecutive(
    self: Tensor, return_inverse: bool = False, return_counts: bool = False, dim: Any = None
) -> tuple[Tensor, Tensor, Tensor]:
    # PyTorch takes the flat path for dim=None and for dim=0 of a 1-d tensor only (dim=-1 of a
    # 1-d tensor goes the unique_dim way, which always fills inverse and counts).
    if dim is None or (dim == 0 and self._data.ndim == 1):
        return _unique_flat(self, return_inverse, return_counts, consecutive=True)
    return _unique_dim(self, dim, True)


# ----------------------------------------------------------------------------- bincount


@kernel("bincount")
def bincount(self: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    dt = self._dtype
    if dt.name not in _BINCOUNT_INPUTS:
        raise not_implemented("bincount_cpu", dt)
    check(minlength >= 0, "minlength should be >= 0")
    a = self._data
    if a.ndim == 1 and a.size == 0:
        return wrap(fix_empty(np.zeros(minlength, np.int64)), int64)  # int64 even with weights
    check(a.ndim == 1 and a.min() >= 0, "bincount only supports 1-d non-negative integral inputs.")
    top = int(a.max())
    check(
        top < _INT64_MAX,
        f"maximum value of input overflowed, it should be < {_INT64_MAX} but got {top}",
    )
    if weights is not None:
        w = weights._data
        check(
            w.ndim == 1 and w.shape[0] == a.shape[0],
            "weights should be 1-d and have the same length as input",
        )
    nbins = max(top + 1, minlength)
    idx = a.astype(np.intp, copy=False)
    if weights is None:
        return wrap(np.bincount(idx, minlength=nbins).astype(np.int64, copy=False), int64)
    if weights._dtype is float32:
        # float weights accumulate in float, one by one in input order (as PyTorch's loop)
        out = np.zeros(nbins, np.float32)
        np.add.at(out, idx, w)
        return wrap(out, float32)
    if weights._dtype.is_complex:
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, 2)
        w = w.real
    # every other weight dtype is converted to double first; np.bincount sums in double
    return wrap(np.bincount(idx, weights=w.astype(np.float64), minlength=nbins), float64)


# ----------------------------------------------------------------------------- equal


@kernel("equal")
def equal(self: Tensor, other: Tensor) -> bool:
    a, b = self._data, other._data
    if a.shape != b.shape:
        return False
    dt = result_type(self, other)  # TensorIterator's common dtype
    if a.dtype != dt.np:
        a = a.astype(dt.np)
    if b.dtype != dt.np:
        b = b.astype(dt.np)
    return bool(np.array_equal(a, b))  # NaN never equals anything, itself included
