"""CPU (NumPy) kernels of torch.linalg's factorizations (schemas in aten/linalg_ops.py).

NumPy's LAPACK does the work where it returns what PyTorch returns (inv, solve, cholesky, qr,
eigh, svd, lstsq); the LU factor PyTorch's determinant and solve also return is computed here
(partial pivoting, LAPACK's getrf convention: 1-based int32 pivots, the unit-lower L and U packed
in one column-major matrix). Results are laid out as PyTorch's (column-major matrices).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.linalg_ops import (
    LinAlgError,
    _linalg_det,
    _linalg_eigh,
    _linalg_slogdet,
    _linalg_solve_ex,
    _linalg_svd,
    cholesky,
    linalg_cholesky_ex,
    linalg_cross,
    linalg_inv_ex,
    linalg_lstsq,
    linalg_matrix_exp,
    linalg_qr,
    solve_is_vector,
)
from ...tensor._tensor import Tensor
from ...tensor.dtype import int32, int64
from ._kernel import fix_empty, kernel, wrap

__all__ = ["lu_factor", "as_fortran"]


def _contig(a: object) -> np.ndarray:
    """A C-contiguous copy or the array itself (0-d stays 0-d, unlike np.ascontiguousarray)."""
    a = np.asarray(a)
    return a if a.flags.c_contiguous else a.copy(order="C")


def as_fortran(a: np.ndarray) -> np.ndarray:
    """A copy of a batch of matrices laid out column-major per matrix (PyTorch's LAPACK
    outputs), batch dims row-major."""
    if a.ndim < 2:
        return _contig(a)
    return _contig(np.swapaxes(a, -1, -2)).swapaxes(-1, -2)


def _as_fortran_meta(a: np.ndarray, m: Tensor) -> np.ndarray:
    """a with exactly the strides of the meta result m (itemsize-scaled)."""
    st = tuple(s * a.itemsize for s in m.stride())
    if a.strides == st or a.size == 0:
        out = np.empty_like(a) if a.size == 0 else a
        if a.size == 0:
            return np.lib.stride_tricks.as_strided(np.empty(1, a.dtype)[:0], a.shape, st)
        return out
    buf = np.empty(max(1, sum((d - 1) * s for d, s in zip(a.shape, m.stride())) + 1), a.dtype)
    out = np.lib.stride_tricks.as_strided(buf, a.shape, st)
    out[...] = a
    return out


def _out(a: np.ndarray, m: Tensor) -> Tensor:
    return wrap(_as_fortran_meta(np.asarray(a, dtype=m._dtype.np), m), m._dtype)


def lu_factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Batched LU with partial pivoting: (LU packed, 1-based pivots int32, info int32).

    info[b] = j (1-based) when U[j-1, j-1] is exactly zero, as getrf reports it."""
    lu = np.array(a, dtype=a.dtype, copy=True)
    n = lu.shape[-1]
    if n == 0 or lu.size == 0:
        batch = lu.shape[:-2]
        return lu, np.zeros((*batch, n), np.int32), np.zeros(batch, np.int32)
    batch = lu.shape[:-2]
    flat = lu.reshape(-1, n, n)
    piv = np.zeros((flat.shape[0], n), dtype=np.int32)
    info = np.zeros(flat.shape[0], dtype=np.int32)
    rows = np.arange(flat.shape[0])
    for k in range(n):
        col = np.abs(flat[:, k:, k])
        p = k + np.argmax(col, axis=1)
        piv[:, k] = p + 1
        swap = p != k
        if swap.any():
            r = rows[swap]
            tmp = flat[r, k, :].copy()
            flat[r, k, :] = flat[r, p[swap], :]
            flat[r, p[swap], :] = tmp
        d = flat[:, k, k]
        zero = d == 0
        info[(info == 0) & zero] = k + 1
        safe = np.where(zero, 1, d)
        if k + 1 < n:
            mult = flat[:, k + 1 :, k] / safe[:, None]
            mult[zero] = flat[zero, k + 1 :, k]  # getrf leaves a zero pivot's column as is
            flat[:, k + 1 :, k] = mult
            nz = ~zero
            flat[nz, k + 1 :, k + 1 :] -= mult[nz, :, None] * flat[nz, k, None, k + 1 :]
    return flat.reshape(lu.shape), piv.reshape((*batch, n)), info.reshape(batch)


def _det_lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's determinant factors whichever of A and A^T is already column-major: for a
    row-major A that is A^T (det(A) = det(A^T)), so LU and pivots are A^T's."""
    t = a.ndim >= 2 and a.flags.c_contiguous and a.shape[-1] > 1
    lu, piv, _ = lu_factor(np.swapaxes(a, -1, -2) if t else a)
    return lu, piv


def _perm_sign(piv: np.ndarray) -> np.ndarray:
    n = piv.shape[-1]
    swaps = (piv != np.arange(1, n + 1, dtype=np.int32)).sum(axis=-1)
    return np.where(swaps % 2 == 0, 1.0, -1.0)


@kernel("_linalg_det")
def _linalg_det_k(A: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    r, lu_m, piv_m = _linalg_det(A)
    a = A._data
    lu, piv = _det_lu(a)
    diag = np.diagonal(lu, axis1=-2, axis2=-1)
    d = np.prod(diag, axis=-1) * _perm_sign(piv).astype(a.dtype)
    return _out(d, r), _out(lu, lu_m), _out(piv, piv_m)


@kernel("_linalg_slogdet")
def _linalg_slogdet_k(A: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    sm, lm, lu_m, piv_m = _linalg_slogdet(A)
    a = A._data
    lu, piv = _det_lu(a)
    diag = np.diagonal(lu, axis1=-2, axis2=-1)
    absd = np.abs(diag)
    if np.iscomplexobj(diag):
        unit = np.where(absd == 0, 0, diag / np.where(absd == 0, 1, absd))
        sign = np.prod(unit, axis=-1) * _perm_sign(piv)
    else:
        sign = np.prod(np.sign(diag), axis=-1) * _perm_sign(piv)
    with np.errstate(divide="ignore"):
        logabs = np.sum(np.log(absd), axis=-1)
    return _out(sign, sm), _out(logabs, lm), _out(lu, lu_m), _out(piv, piv_m)


def _singular_error(fn: str, info: np.ndarray, batched: bool) -> None:
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size:
        b = int(bad[0])
        where = f"(Batch element {b}): " if batched else ""
        raise LinAlgError(
            f"{fn}: {where}The diagonal element {int(info.reshape(-1)[b])} is zero, the "
            f"inversion could not be completed because the input matrix is singular."
        )


def _solve_error(fn: str, info: np.ndarray, batched: bool) -> None:
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size:
        b = int(bad[0])
        where = f"(Batch element {b}): " if batched else ""
        raise LinAlgError(f"{fn}: {where}The solver failed because the input matrix is singular.")


@kernel("linalg_inv_ex")
def linalg_inv_ex_k(A: Tensor, *, check_errors: bool = False) -> tuple[Tensor, Tensor]:
    im, info_m = linalg_inv_ex(A, check_errors=check_errors)
    a = A._data
    _, _, info = lu_factor(a)
    if check_errors:
        _singular_error("linalg.inv_ex", info, a.ndim > 2)
    ok = info == 0
    if ok.all():
        inv = np.linalg.inv(a) if a.size else a.copy()
    else:
        inv = np.full(a.shape, np.nan, dtype=a.dtype)
        if ok.any():
            inv[ok] = np.linalg.inv(a[ok])
    return _out(inv, im), _out(info, info_m)


@kernel("_linalg_solve_ex")
def _linalg_solve_ex_k(
    A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    rm, lu_m, piv_m, info_m = _linalg_solve_ex(A, B, left=left, check_errors=check_errors)
    a, b = A._data, B._data
    lu, piv, info = lu_factor(a)  # of A itself: LU, pivots and info keep A's batch shape
    if check_errors:
        _solve_error("torch.linalg.solve_ex", info, a.ndim > 2)
    vec = solve_is_vector(a.shape, b.shape)
    if vec:
        bb = b[..., None]
    else:
        bb = b
    if not left:
        # X A = B  <=>  A^T X^T = B^T
        a_, bb = np.swapaxes(a, -1, -2), np.swapaxes(bb, -1, -2)
    else:
        a_ = a
    shape = np.broadcast_shapes(a_.shape[:-2], bb.shape[:-2])
    a_b = np.broadcast_to(a_, (*shape, *a_.shape[-2:]))
    b_b = np.broadcast_to(bb, (*shape, *bb.shape[-2:]))
    if (info == 0).all():
        x = np.linalg.solve(a_b, b_b) if a_b.size and b_b.size else np.zeros(b_b.shape, a.dtype)
    else:
        with np.errstate(all="ignore"):
            x = np.linalg.pinv(a_b) @ b_b * np.nan
    if not left:
        x = np.swapaxes(x, -1, -2)
    if vec:
        x = x[..., 0]
    return _out(x, rm), _out(lu, lu_m), _out(piv, piv_m), _out(info, info_m)


def _cholesky_partial(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Right-looking Cholesky that stops at the first non-positive pivot, as LAPACK's potrf
    leaves a failed factorization (the trailing block updated, info = the failing order)."""
    flat = np.array(a.reshape(-1, *a.shape[-2:]), copy=True)
    info = np.zeros(flat.shape[0], dtype=np.int32)
    n = a.shape[-1]
    for b in range(flat.shape[0]):
        m = flat[b]
        for k in range(n):
            d = m[k, k].real if np.iscomplexobj(m) else m[k, k]
            if not d > 0:
                info[b] = k + 1
                break
            m[k, k] = np.sqrt(d)
            m[k + 1 :, k] /= m[k, k]
            m[k + 1 :, k + 1 :] -= np.outer(m[k + 1 :, k], m[k + 1 :, k].conj())
    return np.tril(flat).reshape(a.shape), info.reshape(a.shape[:-2])


def _cholesky(a: np.ndarray, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    a = np.tril(a) + np.swapaxes(np.tril(a, -1), -1, -2).conj()  # potrf reads the lower half
    try:
        L = np.linalg.cholesky(a) if a.size else a.copy()
        info = np.zeros(a.shape[:-2], dtype=np.int32)
    except np.linalg.LinAlgError:
        L, info = _cholesky_partial(a)
    if upper:
        L = np.swapaxes(L, -1, -2).conj()
    return L, info


def _cholesky_error(info: np.ndarray, batched: bool) -> None:
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size:
        b = int(bad[0])
        where = f"(Batch element {b}): " if batched else ""
        raise LinAlgError(
            f"linalg.cholesky_ex: {where}The factorization could not be completed because the "
            f"input is not positive-definite (the leading minor of order "
            f"{int(info.reshape(-1)[b])} is not positive-definite)."
        )


@kernel("linalg_cholesky_ex")
def linalg_cholesky_ex_k(
    self: Tensor, *, upper: bool = False, check_errors: bool = False
) -> tuple[Tensor, Tensor]:
    lm, info_m = linalg_cholesky_ex(self, upper=upper, check_errors=check_errors)
    L, info = _cholesky(self._data, upper)
    if check_errors:
        _cholesky_error(info, self._data.ndim > 2)
    return _out(L, lm), _out(info, info_m)


@kernel("cholesky")
def cholesky_k(self: Tensor, upper: bool = False) -> Tensor:
    m = cholesky(self, upper)
    L, info = _cholesky(self._data, upper)
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size:
        b = int(bad[0])
        where = f"(Batch element {b}): " if self._data.ndim > 2 else ""
        raise LinAlgError(
            f"cholesky: {where}The factorization could not be completed because the input is "
            f"not positive-definite (the leading minor of order {int(info.reshape(-1)[b])} is "
            f"not positive-definite)."
        )
    return _out(L, m)


@kernel("linalg_qr")
def linalg_qr_k(A: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
    qm, rm = linalg_qr(A, mode)
    a = A._data
    if a.size == 0:
        return _out(np.zeros(qm.shape, a.dtype), qm), _out(np.zeros(rm.shape, a.dtype), rm)
    if mode == "r":
        r = np.linalg.qr(a, mode="r")
        return _out(np.zeros((0,), a.dtype), qm), _out(r, rm)
    q, r = np.linalg.qr(a, mode=mode)
    return _out(q, qm), _out(r, rm)


@kernel("_linalg_eigh")
def _linalg_eigh_k(A: Tensor, UPLO: str = "L", compute_v: bool = True) -> tuple[Tensor, Tensor]:
    wm, vm = _linalg_eigh(A, UPLO, compute_v)
    a = A._data
    if a.size == 0:
        return _out(np.zeros(wm.shape, wm._dtype.np), wm), _out(np.zeros(vm.shape, a.dtype), vm)
    if compute_v:
        w, v = np.linalg.eigh(a, UPLO=UPLO.upper())
        return _out(w, wm), _out(v, vm)
    w = np.linalg.eigvalsh(a, UPLO=UPLO.upper())
    return _out(w, wm), _out(np.zeros((0,), a.dtype), vm)


@kernel("_linalg_svd")
def _linalg_svd_k(
    A: Tensor, full_matrices: bool = False, compute_uv: bool = True, *, driver: Any = None
) -> tuple[Tensor, Tensor, Tensor]:
    um, sm, vm = _linalg_svd(A, full_matrices, compute_uv, driver=driver)
    a = A._data
    if a.size == 0:
        eye_u = np.zeros(um.shape, a.dtype)
        eye_v = np.zeros(vm.shape, a.dtype)
        if compute_uv and full_matrices:
            eye_u[...] = np.eye(um.shape[-1], dtype=a.dtype)
            eye_v[...] = np.eye(vm.shape[-1], dtype=a.dtype)
        return _out(eye_u, um), _out(np.zeros(sm.shape, sm._dtype.np), sm), _out(eye_v, vm)
    if compute_uv:
        u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
        return _out(u, um), _out(s, sm), _out(vh, vm)
    s = np.linalg.svd(a, compute_uv=False)
    z = np.zeros((0,), a.dtype)
    return _out(z, um), _out(s, sm), _out(z, vm)


@kernel("linalg_lstsq")
def linalg_lstsq_k(
    self: Tensor, b: Tensor, rcond: Any = None, *, driver: Any = None
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    xm, resm, rankm, svm = linalg_lstsq(self, b, rcond, driver=driver)
    driver = driver or "gelsy"
    a, bb = self._data, b._data
    vec = bb.ndim == a.ndim - 1
    if vec:
        bb = bb[..., None]
    m, n = a.shape[-2], a.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], bb.shape[:-2])
    ab = np.broadcast_to(a, (*batch, m, n)).reshape(-1, m, n)
    bf = np.broadcast_to(bb, (*batch, m, bb.shape[-1])).reshape(-1, m, bb.shape[-1])
    eps = np.finfo(a.dtype).eps
    rc = rcond if rcond is not None else eps * max(m, n)
    xs, ranks, svs = [], [], []
    for i in range(ab.shape[0]):
        x, _, rank, sv = np.linalg.lstsq(ab[i], bf[i], rcond=rc)
        xs.append(x)
        ranks.append(rank)
        svs.append(sv)
    x = np.stack(xs).reshape((*batch, n, bf.shape[-1])) if xs else np.zeros(xm.shape, a.dtype)
    res = np.zeros(resm.shape, resm._dtype.np)
    if resm.shape != (0,) and m > n:
        r = np.broadcast_to(a, (*batch, m, n)) @ x - np.broadcast_to(bb, (*batch, m, bf.shape[-1]))
        res = (np.abs(r) ** 2).sum(axis=-2)
        if vec:
            res = res[..., 0]
    if vec:
        x = x[..., 0]
    # The solution is the top n rows of a column-major max(m, n)-row buffer, as LAPACK's.
    rows = max(m, n)
    if vec:
        buf = np.zeros((*batch, rows), a.dtype)
        buf[..., :n] = x
        sol = buf[..., :n]
    else:
        buf = as_fortran(np.zeros((*batch, rows, x.shape[-1]), a.dtype))
        buf[..., :n, :] = x
        sol = buf[..., :n, :]
    rank = np.asarray(ranks, dtype=np.int64).reshape(batch) if rankm.shape != (0,) else None
    sv = (
        np.stack(svs).reshape((*batch, min(m, n)))
        if svm.shape != (0,)
        else np.zeros((0,), svm._dtype.np)
    )
    return (
        wrap(sol, xm._dtype),
        wrap(fix_empty(_contig(res)), resm._dtype),
        wrap(fix_empty(rank if rank is not None else np.zeros((0,), np.int64)), int64),
        wrap(fix_empty(_contig(sv)), svm._dtype),
    )


# Padé approximant of degree 13 with scaling and squaring (Higham 2005): the coefficients of
# the numerator polynomial; the denominator uses the same with alternating signs.
_PADE13 = (
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
)
_THETA13 = 5.371920351148152


def _expm(a: np.ndarray) -> np.ndarray:
    comp = np.complex128 if np.iscomplexobj(a) else np.float64
    x = a.astype(comp)
    n = x.shape[-1]
    if x.size == 0:
        return a.copy()
    norm = np.abs(x).sum(axis=-2).max(axis=-1)  # 1-norm per matrix
    s = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / _THETA13))).astype(int)
    x = x / (2.0**s)[..., None, None]
    eye = np.broadcast_to(np.eye(n, dtype=comp), x.shape)
    b = _PADE13
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (
        x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * eye
    )
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    flat = r.reshape(-1, n, n)
    for i, si in enumerate(np.ravel(s)):
        for _ in range(int(si)):
            flat[i] = flat[i] @ flat[i]
    return flat.reshape(a.shape).astype(a.dtype)


@kernel("linalg_matrix_exp")
def linalg_matrix_exp_k(self: Tensor) -> Tensor:
    m = linalg_matrix_exp(self)
    return wrap(_contig(_expm(self._data)), m._dtype)


@kernel("linalg_cross")
def linalg_cross_k(self: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    m = linalg_cross(self, other, dim=dim)
    dt = m._dtype.np
    a, b = self._data.astype(dt, copy=False), other._data.astype(dt, copy=False)
    r = np.cross(a, b, axisa=dim, axisb=dim, axisc=dim)
    return wrap(_contig(r.astype(dt, copy=False)), m._dtype)


_ = int32
