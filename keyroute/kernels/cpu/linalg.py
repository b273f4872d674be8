"""CPU (NumPy) kernels of the linalg operators.

Each kernel tries its fast path first (dtypes equal, ranks and sizes as expected): one
`np.matmul` into a fresh C-contiguous array, PyTorch's output layout. Anything else goes through
the operator's meta function, which raises PyTorch's error, then a general path: float16 and
bfloat16 compute in float32 and round once (as PyTorch's CPU gemm accumulates in its opmath
type); integer types use NumPy's integer matmul, which wraps exactly as the C++ loops do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.linalg import (
    addmm_meta,
    addmv_meta,
    baddbmm_meta,
    bmm_meta,
    dot_meta,
    mm_meta,
    mv_meta,
)
from ...aten.mathbits import MATH_BITS
from ...dispatcher.tls import leaf_kernel
from ...tensor._tensor import CPU_KEYS, Tensor, _new
from ...tensor.dtype import complex64, complex128, float32, float64
from ._kernel import fix_empty, kernel, wrap
from .gemm_order import sequential_gemm

__all__ = ["matmul_array", "compute_dtype", "fix_empty", "reads_math_bits"]

_matmul = np.matmul
# The fast paths call a.dot(b) (ndarray.dot, np.dot without its __array_function__ shim): on
# two 2-d arrays it goes straight to BLAS gemm (copying a non-BLAS-strided operand first) and
# returns a fresh C-contiguous array: the same product as np.matmul, without the
# generalized-ufunc machinery that costs np.matmul ~2 µs per call on small matrices.
_BLAS = frozenset((float32, float64, complex64, complex128))
_F32 = np.dtype(np.float32)


def compute_dtype(dt: Any) -> np.dtype:
    """The NumPy dtype a product of dt values accumulates in (half types: float32)."""
    if dt.category == 2 and dt.itemsize == 2:
        return _F32
    return dt.np


_fresh = fix_empty


def _as(a: np.ndarray, np_dtype: np.dtype) -> np.ndarray:
    return a if a.dtype == np_dtype else a.astype(np_dtype)


def matmul_array(a: np.ndarray, b: np.ndarray, dt: Any) -> np.ndarray:
    """a @ b for tensors of dtype dt, rounded to dt (NumPy broadcasting rules apply)."""
    comp = compute_dtype(dt)
    r = _fresh(_matmul(_as(a, comp), _as(b, comp)))
    return r if r.dtype == dt.np else r.astype(dt.np)


def _scalar(v: Any, dt: Any) -> Any:
    """alpha/beta as PyTorch converts a Scalar to the operation's C++ type."""
    if dt.category <= 1 and not isinstance(v, bool):
        return int(v.real if isinstance(v, complex) else v)
    if dt.category == 2 and isinstance(v, complex):
        return v.real
    return v


def _fused(r: np.ndarray, c: np.ndarray, beta: Any, alpha: Any, dt: Any) -> np.ndarray:
    """alpha * r + beta * c written into r (r in compute dtype), rounded to dt.
    beta == 0 ignores c entirely (NaN in c does not propagate), as BLAS does."""
    if alpha != 1:
        np.multiply(r, _scalar(alpha, dt), out=r, casting="unsafe")
    if beta != 0:
        cc = _as(c, r.dtype)
        if beta == 1:
            np.add(r, cc, out=r)
        else:
            np.add(r, np.multiply(cc, _scalar(beta, dt)), out=r, casting="unsafe")
    return r if r.dtype == dt.np else r.astype(dt.np)


# ----------------------------------------------------------------------------- mm / bmm


def reads_math_bits(fn: Any) -> Any:
    """Mark a kernel that reads conj/neg-bit inputs itself (their values through
    kernels/cpu/mathbits.py's `logical`), so that mathbits does not wrap it: one frame and one
    loop over the arguments less on every call of the small-matmul fast paths."""
    fn.reads_math_bits = True
    return fn


def _with_plain_inputs(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """fn on bit-free tensors of its inputs' values (an input carries a conj/neg bit)."""
    from .mathbits import plain_inputs

    return fn(*plain_inputs(args), **kwargs)


@kernel("mm")
@leaf_kernel
@reads_math_bits
def mm(self: Tensor, mat2: Tensor) -> Tensor:
    a, b = self._data, mat2._data
    dt = self._dtype
    sa, sb = a.shape, b.shape  # (ndarray.shape builds a tuple per read: read each once)
    if (
        dt is mat2._dtype
        and len(sa) == 2
        and len(sb) == 2
        and sa[1] == sb[0]
        and dt in _BLAS
        and not (self._key_set | mat2._key_set) & MATH_BITS
    ):
        if dt is float32 and (sa[0] == 1 or sb[1] == 1):  # thin: MKL's own order
            r = sequential_gemm(a, b)
            if r is not None:
                return wrap(r, dt)
        r = a.dot(b)
        if sa[0] and sb[1]:  # a fresh product: wrap() inline (this is every small mm's path)
            t = _new(Tensor)
            t._data = r
            t._dtype = dt
            t._key_set = CPU_KEYS
            t._autograd_meta = t._base = t._version_counter = None
            return t
        return wrap(_fresh(r), dt)
    if isinstance(mat2, Tensor) and (self._key_set | mat2._key_set) & MATH_BITS:
        return _with_plain_inputs(mm, self, mat2)
    mm_meta(self, mat2)
    return wrap(matmul_array(a, b, dt), dt)


@kernel("bmm")
@leaf_kernel
@reads_math_bits
def bmm(self: Tensor, mat2: Tensor) -> Tensor:
    a, b = self._data, mat2._data
    dt = self._dtype
    if (
        dt is mat2._dtype
        and a.ndim == 3
        and b.ndim == 3
        and a.shape[0] == b.shape[0]
        and a.shape[2] == b.shape[1]
        and dt in _BLAS
        and not (self._key_set | mat2._key_set) & MATH_BITS
    ):
        r = _matmul(a, b)
        return wrap(r if r.size else _fresh(r), dt)
    if isinstance(mat2, Tensor) and (self._key_set | mat2._key_set) & MATH_BITS:
        return _with_plain_inputs(bmm, self, mat2)
    bmm_meta(self, mat2)
    return wrap(matmul_array(a, b, dt), dt)


# ----------------------------------------------------------------------------- addmm & co


def _broadcasts_to(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    if len(shape) > len(target):
        return False
    for s, t in zip(reversed(shape), reversed(target)):
        if s != t and s != 1:
            return False
    return True


@kernel("addmm")
@leaf_kernel
@reads_math_bits
def addmm(self: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    if (self._key_set | mat1._key_set | mat2._key_set) & MATH_BITS:
        return _with_plain_inputs(addmm, self, mat1, mat2, beta=beta, alpha=alpha)
    a, b, c = mat1._data, mat2._data, self._data
    dt = mat1._dtype
    sa, sb, sc = a.shape, b.shape, c.shape  # (each ndarray.shape read builds a tuple)
    if not (
        dt is mat2._dtype
        and dt is self._dtype
        and len(sa) == 2
        and len(sb) == 2
        and sa[1] == sb[0]
        and dt.category != 0
        and (sc == sb[1:] or _broadcasts_to(sc, (sa[0], sb[1])))
    ):
        addmm_meta(self, mat1, mat2)
    if dt in _BLAS and beta == 1 and alpha == 1:  # linear's bias add: one matmul, one add
        if dt is float32 and (sa[0] == 1 or sb[1] == 1):  # thin: MKL's own order
            r = sequential_gemm(a, b, c)
            if r is not None:
                return wrap(r, dt)
        r = a.dot(b)
        if sa[0] and sb[1]:
            np.add(r, c, out=r)
            return wrap(r, dt)
    comp = compute_dtype(dt)
    r = _fresh(_matmul(_as(a, comp), _as(b, comp)))
    return wrap(_fused(r, c, beta, alpha, dt), dt)


@kernel("addmv")
def addmv(self: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    a, v, c = mat._data, vec._data, self._data
    dt = vec._dtype
    if not (
        dt is mat._dtype
        and dt is self._dtype
        and a.ndim == 2
        and v.ndim == 1
        and c.ndim <= 1
        and a.shape[1] == v.shape[0]
        and c.size in (a.shape[0], 1)
        and dt.category != 0
    ):
        addmv_meta(self, mat, vec)
    comp = compute_dtype(dt)
    r = _fresh(_matmul(_as(a, comp), _as(v, comp)))
    return wrap(_fused(r, c, beta, alpha, dt), dt)


@kernel("baddbmm")
def baddbmm(
    self: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1
) -> Tensor:
    a, b, c = batch1._data, batch2._data, self._data
    dt = batch2._dtype
    if not (
        dt is batch1._dtype
        and dt is self._dtype
        and a.ndim == 3
        and b.ndim == 3
        and a.shape[0] == b.shape[0]
        and a.shape[2] == b.shape[1]
        and dt.category != 0
        and _broadcasts_to(c.shape, (a.shape[0], a.shape[1], b.shape[2]))
    ):
        baddbmm_meta(self, batch1, batch2)
    comp = compute_dtype(dt)
    r = _fresh(_matmul(_as(a, comp), _as(b, comp)))
    return wrap(_fused(r, c, beta, alpha, dt), dt)


# ----------------------------------------------------------------------------- vectors


@kernel("mv")
def mv(self: Tensor, vec: Tensor) -> Tensor:
    a, v = self._data, vec._data
    dt = vec._dtype
    if not (
        dt is self._dtype
        and a.ndim == 2
        and v.ndim == 1
        and a.shape[1] == v.shape[0]
        and dt.category != 0
    ):
        mv_meta(self, vec)
    return wrap(matmul_array(a, v, dt), dt)


def _dot(self: Tensor, other: Tensor, fn: Any) -> Tensor:
    a, b = self._data, other._data
    dt = self._dtype
    if not (
        dt is other._dtype and a.ndim == 1 and b.ndim == 1 and a.size == b.size and dt.category
    ):
        dot_meta(self, other)
    comp = compute_dtype(dt)
    return wrap(np.asarray(fn(_as(a, comp), _as(b, comp))).astype(dt.np, copy=False), dt)


@kernel("dot")
def dot(self: Tensor, tensor: Tensor) -> Tensor:
    return _dot(self, tensor, np.dot)


@kernel("vdot")
def vdot(self: Tensor, other: Tensor) -> Tensor:
    if self._dtype.category == 0:
        from ...aten.linalg import vdot_meta

        vdot_meta(self, other)
    return _dot(self, other, np.vdot)
