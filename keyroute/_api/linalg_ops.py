"""Python API of torch.linalg (the `keyroute.linalg` module's functions) and the torch.* /
Tensor methods over the same operators (det, slogdet, inverse, cholesky, qr, svd, pinverse,
matrix_exp, matrix_power, cross, ...), with PyTorch's argument names and return types.
"""

from __future__ import annotations

import collections
from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method
from .reductions import _return_type

aten = ops.aten

__all__ = ["LINALG"]

#: keyroute.linalg's namespace: name -> function.
LINALG: dict[str, Any] = {}


def _linalg(fn: Any) -> Any:
    LINALG[fn.__name__] = fn
    return fn


def _write_out(result: Any, out: Any) -> Any:
    """out=: resize each given tensor to its result and copy it (PyTorch's out= contract for
    composite functions)."""
    if out is None:
        return result
    if isinstance(result, tuple):
        for r, o in zip(result, out):
            aten.resize_.default(o, list(r.shape))
            o.copy_(r)
        return type(result)(*out) if hasattr(result, "_fields") else tuple(out)
    aten.resize_.default(out, list(result.shape))
    out.copy_(result)
    return out


_slogdet_t = _return_type("slogdet", ("sign", "logabsdet"))
_linalg_slogdet_t = _return_type("linalg_slogdet", ("sign", "logabsdet"))
_eigh_t = _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
_qr_t = _return_type("linalg_qr", ("Q", "R"))
_qr_legacy_t = _return_type("qr", ("Q", "R"))
_svd_t = _return_type("linalg_svd", ("U", "S", "Vh"))
_svd_legacy_t = _return_type("svd", ("U", "S", "V"))
_lstsq_t = _return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_inv_ex_t = _return_type("linalg_inv_ex", ("inverse", "info"))
_chol_ex_t = _return_type("linalg_cholesky_ex", ("L", "info"))
_solve_ex_t = _return_type("linalg_solve_ex", ("result", "info"))
_ = collections


# ----------------------------------------------------------------------------- torch.linalg


@_linalg
def det(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_det.default(A), out)


@_linalg
def slogdet(A: Tensor, *, out: Any = None) -> Any:
    return _write_out(_linalg_slogdet_t(*aten.linalg_slogdet.default(A)), out)


@_linalg
def inv(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_inv.default(A), out)


@_linalg
def inv_ex(A: Tensor, *, check_errors: bool = False, out: Any = None) -> Any:
    return _write_out(_inv_ex_t(*aten.linalg_inv_ex.default(A, check_errors=check_errors)), out)


@_linalg
def solve(A: Tensor, B: Tensor, *, left: bool = True, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_solve.default(A, B, left=left), out)


@_linalg
def solve_ex(
    A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False, out: Any = None
) -> Any:
    r = aten.linalg_solve_ex.default(A, B, left=left, check_errors=check_errors)
    return _write_out(_solve_ex_t(*r), out)


@_linalg
def cholesky(A: Tensor, *, upper: bool = False, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_cholesky.default(A, upper=upper), out)


@_linalg
def cholesky_ex(
    A: Tensor, *, upper: bool = False, check_errors: bool = False, out: Any = None
) -> Any:
    r = aten.linalg_cholesky_ex.default(A, upper=upper, check_errors=check_errors)
    return _write_out(_chol_ex_t(*r), out)


@_linalg
def qr(A: Tensor, mode: str = "reduced", *, out: Any = None) -> Any:
    return _write_out(_qr_t(*aten.linalg_qr.default(A, mode)), out)


@_linalg
def eigh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> Any:
    return _write_out(_eigh_t(*aten.linalg_eigh.default(A, UPLO)), out)


@_linalg
def eigvalsh(A: Tensor, UPLO: str = "L", *, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_eigvalsh.default(A, UPLO), out)


@_linalg
def svd(
    A: Tensor, full_matrices: bool = True, *, driver: str | None = None, out: Any = None
) -> Any:
    return _write_out(_svd_t(*aten.linalg_svd.default(A, full_matrices, driver=driver)), out)


@_linalg
def svdvals(A: Tensor, *, driver: str | None = None, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_svdvals.default(A, driver=driver), out)


@_linalg
def lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None) -> Any:
    return _lstsq_t(*aten.linalg_lstsq.default(A, B, rcond, driver=driver))


@_linalg
def pinv(
    A: Tensor,
    *,
    atol: Any = None,
    rtol: Any = None,
    hermitian: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    if isinstance(atol, Tensor) or isinstance(rtol, Tensor):
        r = aten.linalg_pinv.atol_rtol_tensor(A, atol=atol, rtol=rtol, hermitian=hermitian)
    else:
        r = aten.linalg_pinv.atol_rtol_float(A, atol=atol, rtol=rtol, hermitian=hermitian)
    return _write_out(r, out)


@_linalg
def matrix_exp(A: Tensor) -> Tensor:
    return aten.linalg_matrix_exp.default(A)


@_linalg
def matrix_power(A: Tensor, n: int, *, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_matrix_power.default(A, n), out)


@_linalg
def matrix_rank(
    A: Tensor,
    *,
    atol: Any = None,
    rtol: Any = None,
    hermitian: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    if isinstance(atol, Tensor) or isinstance(rtol, Tensor):
        r = aten.linalg_matrix_rank.atol_rtol_tensor(A, atol=atol, rtol=rtol, hermitian=hermitian)
    else:
        r = aten.linalg_matrix_rank.atol_rtol_float(A, atol=atol, rtol=rtol, hermitian=hermitian)
    return _write_out(r, out)


@_linalg
def cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.linalg_cross.default(input, other, dim=dim), out)


@_linalg
def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_vecdot.default(x, y, dim=dim), out)


@_linalg
def multi_dot(tensors: Any, *, out: Tensor | None = None) -> Tensor:
    return _write_out(aten.linalg_multi_dot.default(list(tensors)), out)


@_linalg
def vector_norm(
    x: Tensor,
    ord: Any = 2,  # noqa: A002
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    kw = {} if dtype is None else {"dtype": dtype}
    return _write_out(aten.linalg_vector_norm.default(x, ord, dim, keepdim, **kw), out)


@_linalg
def matrix_norm(
    A: Tensor,
    ord: Any = "fro",  # noqa: A002
    dim: Any = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    kw = {} if dtype is None else {"dtype": dtype}
    if isinstance(ord, str):
        r = aten.linalg_matrix_norm.str_ord(A, ord, list(dim), keepdim, **kw)
    else:
        r = aten.linalg_matrix_norm.default(A, ord, list(dim), keepdim, **kw)
    return _write_out(r, out)


@_linalg
def norm(
    A: Tensor,
    ord: Any = None,  # noqa: A002
    dim: Any = None,
    keepdim: bool = False,
    *,
    out: Tensor | None = None,
    dtype: Any = None,
) -> Tensor:
    kw = {} if dtype is None else {"dtype": dtype}
    if isinstance(dim, int):
        dim = [dim]
    if isinstance(ord, str):
        r = aten.linalg_norm.ord_str(A, ord, dim, keepdim, **kw)
    else:
        r = aten.linalg_norm.default(A, ord, dim, keepdim, **kw)
    return _write_out(r, out)


@_linalg
def cond(A: Tensor, p: Any = None, *, out: Tensor | None = None) -> Tensor:
    r = aten.linalg_cond.p_str(A, p) if isinstance(p, str) else aten.linalg_cond.default(A, p)
    return _write_out(r, out)


@_linalg
def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    return aten.linalg_diagonal.default(A, offset=offset, dim1=dim1, dim2=dim2)


@_linalg
def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.linalg_matmul.default(input, other), out)


# ----------------------------------------------------------------------------- torch.* / methods


@function
@method
def det(input: Tensor) -> Tensor:  # noqa: A002, F811
    return aten.det.default(input)


@function
@method
def logdet(input: Tensor) -> Tensor:  # noqa: A002
    return aten.logdet.default(input)


@function
@method
def slogdet(input: Tensor, *, out: Any = None) -> Any:  # noqa: A002, F811
    return _write_out(_slogdet_t(*aten.slogdet.default(input)), out)


@function
@method
def inverse(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.inverse.default(input), out)


@function
@method
def cholesky(input: Tensor, upper: bool = False, *, out: Tensor | None = None) -> Tensor:  # noqa: A002, F811
    return _write_out(aten.cholesky.default(input, upper), out)


@function
@method
def qr(input: Tensor, some: bool = True, *, out: Any = None) -> Any:  # noqa: A002, F811
    return _write_out(_qr_legacy_t(*aten.qr.default(input, some)), out)


@function
@method
def svd(input: Tensor, some: bool = True, compute_uv: bool = True, *, out: Any = None) -> Any:  # noqa: A002, F811
    return _write_out(_svd_legacy_t(*aten.svd.default(input, some, compute_uv)), out)


@function
@method
def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    return aten.pinverse.default(input, rcond)


@function
@method
def matrix_exp(input: Tensor) -> Tensor:  # noqa: A002, F811
    return aten.matrix_exp.default(input)


@function
@method
def matrix_power(input: Tensor, n: int, *, out: Tensor | None = None) -> Tensor:  # noqa: A002, F811
    return _write_out(aten.linalg_matrix_power.default(input, n), out)


@function
@method
def cross(  # noqa: F811
    input: Tensor,  # noqa: A002
    other: Tensor,
    dim: int | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    return _write_out(aten.cross.default(input, other, dim), out)
