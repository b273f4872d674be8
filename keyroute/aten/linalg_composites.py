"""torch.linalg's decompositions (PyTorch's CompositeImplicitAutograd kernels): matrix and
general norms, pinv (and its explicit-autograd tensor-tolerance overload), matrix_rank,
vecdot, multi_dot, matrix_power, cond, diagonal and matmul."""

from __future__ import annotations

import math
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import to_dtype
from ._define import aten, composite, composite_explicit
from ._meta_util import check, shape_of
from .linalg_ops import float_check, square_check

__all__: list[str] = []


def _A(name: str) -> Any:
    return aten(name)


def _dtype_kw(dtype: Any) -> dict[str, Any]:
    return {} if dtype is None else {"dtype": dtype}


# ----------------------------------------------------------------------------- norms


def _matrix_norm_check(A: Tensor, dim: Any, fn: str = "linalg.matrix_norm") -> tuple[int, int]:
    from ._shape import wrap_dim

    nd = len(shape_of(A))
    check(nd >= 2, f"{fn}: The input tensor A must have at least 2 dimensions.")
    check(
        len(dim) == 2,
        f"{fn}: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}",
    )
    d0, d1 = wrap_dim(dim[0], nd), wrap_dim(dim[1], nd)
    check(d0 != d1, f"{fn}: dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


def _svdvals_at(A: Tensor, d0: int, d1: int) -> Tensor:
    return _A("linalg_svdvals")(_A("movedim.intlist")(A, [d0, d1], [-2, -1]))


@composite(
    "linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor"
)
def linalg_matrix_norm(self, ord, dim=(-2, -1), keepdim=False, *, dtype=None):
    d0, d1 = _matrix_norm_check(self, dim)
    ab = abs(ord)
    check(
        ab in (2, 1, math.inf),
        f"linalg.matrix_norm: Order {ord} not supported.",
    )
    float_check("linalg.matrix_norm", self, "input")
    x = self if dtype is None else _A("_to_copy")(self, dtype=to_dtype(dtype))
    if ab == 2:
        s = _svdvals_at(x, d0, d1)
        r = _A("amax")(s, [-1]) if ord > 0 else _A("amin")(s, [-1])
        if keepdim:
            r = _A("unsqueeze")(_A("unsqueeze")(r, min(d0, d1)), max(d0, d1))
        return r
    if ab == math.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    v = _A("linalg_vector_norm")(x, 1, [d0], keepdim)
    return _A("amax")(v, [d1], keepdim) if ord > 0 else _A("amin")(v, [d1], keepdim)


@composite(
    'linalg_matrix_norm.str_ord(Tensor self, str ord="fro", int[] dim=[-2, -1], bool '
    "keepdim=False, *, ScalarType? dtype=None) -> Tensor"
)
def linalg_matrix_norm_str_ord(self, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    d0, d1 = _matrix_norm_check(self, dim)
    check(
        ord in ("fro", "nuc"),
        f"linalg.matrix_norm: Order {ord} not supported.",
    )
    if ord == "fro":
        return _A("linalg_vector_norm")(self, 2, [d0, d1], keepdim, **_dtype_kw(dtype))
    float_check("linalg.matrix_norm", self, "input")
    x = self if dtype is None else _A("_to_copy")(self, dtype=to_dtype(dtype))
    r = _A("sum.dim_IntList")(_svdvals_at(x, d0, d1), [-1])
    if keepdim:
        r = _A("unsqueeze")(_A("unsqueeze")(r, min(d0, d1)), max(d0, d1))
    return r


def _norm(self: Tensor, ord: Any, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
    nd = len(shape_of(self))
    if dim is not None:
        dim = [dim] if isinstance(dim, int) else list(dim)
        check(
            len(dim) in (1, 2),
            f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {dim}",
        )
    elif ord is not None:
        check(
            nd in (1, 2),
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
            f"Got {nd}D.",
        )
    if ord is not None and (len(dim) == 2 if dim is not None else nd == 2):
        mdim = dim if dim is not None else [0, 1]
        if isinstance(ord, str):
            return _A("linalg_matrix_norm.str_ord")(self, ord, mdim, keepdim, **_dtype_kw(dtype))
        return _A("linalg_matrix_norm")(self, ord, mdim, keepdim, **_dtype_kw(dtype))
    return _A("linalg_vector_norm")(
        self, 2 if ord is None else ord, dim, keepdim, **_dtype_kw(dtype)
    )


@composite(
    "linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor"
)
def linalg_norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
    return _norm(self, ord, dim, keepdim, dtype)


@composite(
    "linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor"
)
def linalg_norm_ord_str(self, ord, dim=None, keepdim=False, *, dtype=None):
    return _norm(self, ord, dim, keepdim, dtype)


# ----------------------------------------------------------------------------- pinv / rank


def _tolerances(
    S: Tensor, atol: Any, rtol: Any, m: int, n: int, dt: Any
) -> tuple[Tensor | float, Any]:
    eps = {4: 1.1920928955078125e-07, 8: 2.220446049250313e-16}[dt.to_real().itemsize]
    if rtol is None:
        rtol = 0.0 if (atol is not None and not _is_zero(atol)) else eps * max(m, n)
    return (0.0 if atol is None else atol), rtol


def _is_zero(v: Any) -> bool:
    if isinstance(v, Tensor):
        return False
    return v == 0


def _threshold(S: Tensor, atol: Any, rtol: Any) -> Tensor:
    smax = _A("amax")(S, [-1], True)
    if isinstance(rtol, Tensor):
        rt = _A("mul.Tensor")(_A("unsqueeze")(rtol, -1) if rtol.dim() else rtol, smax)
    else:
        rt = _A("mul.Scalar")(smax, rtol)
    if isinstance(atol, Tensor):
        at = _A("unsqueeze")(atol, -1) if atol.dim() else atol
        return _A("maximum")(at, rt)
    return _A("clamp_min")(rt, atol)


@composite_explicit(
    "linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool "
    "hermitian=False) -> Tensor"
)
def linalg_pinv_atol_rtol_tensor(self, *, atol=None, rtol=None, hermitian=False):
    s = shape_of(self)
    check(
        self._dtype.category >= 2 and self._dtype.itemsize >= 4 and len(s) >= 2,
        f"linalg.pinv({self._dtype._short}{{{list(s)}}}): expected a tensor with 2 or more "
        "dimensions of float, double, cfloat or cdouble types",
    )
    m, n = s[-2], s[-1]
    atol, rtol = _tolerances(self, atol, rtol, m, n, self._dtype)
    if 0 in s:
        return _A("zeros")([*s[:-2], n, m], dtype=self._dtype)
    if hermitian:
        L, V = _A("_linalg_eigh")(self)
        absL = _A("abs")(L)
        thr = _threshold(absL, atol, rtol)
        inv = _A("where.self")(_A("gt.Tensor")(absL, thr), _A("reciprocal")(L), 0.0)
        return _A("matmul")(_A("mul.Tensor")(V, _A("unsqueeze")(inv, -2)), _A("mH")(V))
    U, S, Vh = _A("_linalg_svd")(self)
    thr = _threshold(S, atol, rtol)
    inv = _A("where.ScalarOther")(_A("gt.Tensor")(S, thr), _A("reciprocal")(S), 0.0)
    return _A("matmul")(_A("mul.Tensor")(_A("mH")(Vh), _A("unsqueeze")(inv, -2)), _A("mH")(U))


def _opt_tensor(v: Any, like: Tensor) -> Any:
    if v is None:
        return None
    return _A("scalar_tensor")(v, dtype=like._dtype.to_real())


@composite(
    "linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool "
    "hermitian=False) -> Tensor"
)
def linalg_pinv_atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False):
    return _A("linalg_pinv.atol_rtol_tensor")(
        self, atol=_opt_tensor(atol, self), rtol=_opt_tensor(rtol, self), hermitian=hermitian
    )


@composite("linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor")
def linalg_pinv(self, rcond, hermitian=False):
    return _A("linalg_pinv.atol_rtol_tensor")(
        self, atol=_opt_tensor(0.0, self), rtol=_opt_tensor(rcond, self), hermitian=hermitian
    )


@composite("linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> Tensor")
def linalg_pinv_rcond_tensor(self, rcond, hermitian=False):
    return _A("linalg_pinv.atol_rtol_tensor")(
        self, atol=_opt_tensor(0.0, self), rtol=rcond, hermitian=hermitian
    )


@composite("pinverse(Tensor self, float rcond=1.0000000000000001e-15) -> Tensor")
def pinverse(self, rcond=1e-15):
    return _A("linalg_pinv")(self, rcond, False)


def _rank(self: Tensor, atol: Any, rtol: Any, hermitian: bool) -> Tensor:
    float_check("torch.linalg.matrix_rank", self, kernel="linalg_matrix_rank")
    check(
        len(shape_of(self)) >= 2,
        "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.",
    )
    s = shape_of(self)
    m, n = s[-2], s[-1]
    atol, rtol = _tolerances(self, atol, rtol, m, n, self._dtype)
    if hermitian:
        S = _A("abs")(_A("linalg_eigvalsh")(self))
    else:
        S = _A("linalg_svdvals")(self)
    if 0 in s:
        return _A("zeros")(list(s[:-2]), dtype=to_dtype("int64"))
    thr = _threshold(S, atol, rtol)
    return _A("sum.dim_IntList")(_A("gt.Tensor")(S, thr), [-1])


@composite(
    "linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, Tensor? rtol=None,"
    " bool hermitian=False) -> Tensor"
)
def linalg_matrix_rank_atol_rtol_tensor(input, *, atol=None, rtol=None, hermitian=False):
    return _rank(input, atol, rtol, hermitian)


@composite(
    "linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, "
    "bool hermitian=False) -> Tensor"
)
def linalg_matrix_rank_atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False):
    return _rank(self, atol, rtol, hermitian)


@composite("linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor")
def linalg_matrix_rank(self, tol, hermitian=False):
    return _rank(self, tol, 0.0, hermitian)


@composite(
    "linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> Tensor"
)
def linalg_matrix_rank_tol_tensor(input, tol, hermitian=False):
    return _rank(input, tol, 0.0, hermitian)


# ----------------------------------------------------------------------------- products


@composite("linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor")
def linalg_vecdot(x, y, *, dim=-1):
    check(
        x._dtype is y._dtype,
        f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
        f"{x._dtype._short} and y of type {y._dtype._short} instead",
    )
    xc = _A("conj")(x) if x._dtype.is_complex else x
    return _A("sum.dim_IntList")(_A("mul.Tensor")(xc, y), [dim])


def _contiguous_format() -> Any:
    from ..tensor.layout import contiguous_format

    return contiguous_format


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The matrix-chain order minimizing multiplications (the classic O(n^3) program)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf  # type: ignore[assignment]
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k
    return split


@composite("linalg_multi_dot(Tensor[] tensors) -> Tensor")
def linalg_multi_dot(tensors):
    n = len(tensors)
    check(n >= 2, f"multi_dot(): expected at least 2 tensors but got {n}")
    ts = list(tensors)
    first_1d = ts[0].dim() == 1
    last_1d = ts[-1].dim() == 1
    check(
        ts[0].dim() in (1, 2),
        f"multi_dot(): the first tensor must be 1D or 2D but got {ts[0].dim()}D",
    )
    check(
        ts[-1].dim() in (1, 2),
        f"multi_dot(): the last tensor must be 1D or 2D but got {ts[-1].dim()}D",
    )
    for i in range(1, n - 1):
        check(
            ts[i].dim() == 2,
            f"multi_dot(): tensor {i} must be 2D but got {ts[i].dim()}D",
        )
    out_shape = []
    if first_1d:
        ts[0] = _A("unsqueeze")(ts[0], 0)
    else:
        out_shape.append(ts[0].shape[0])
    if last_1d:
        ts[-1] = _A("unsqueeze")(ts[-1], -1)
    else:
        out_shape.append(ts[-1].shape[-1])
    for i in range(1, n):
        check(
            ts[i - 1].shape[1] == ts[i].shape[0],
            f"multi_dot(): tensors {i - 1} and {i} with shapes {list(ts[i - 1].shape)} and "
            f"{list(ts[i].shape)} cannot be multiplied",
        )
    mm = _A("mm")
    if n == 2:
        r = mm(ts[0], ts[1])
    elif n == 3:
        a, b = ts[0].shape
        c, d = ts[2].shape
        cost_1 = (a * c) * (b + d)
        cost_2 = (b * d) * (a + c)
        r = mm(mm(ts[0], ts[1]), ts[2]) if cost_1 < cost_2 else mm(ts[0], mm(ts[1], ts[2]))
    else:
        dims = [ts[0].shape[0]] + [t.shape[1] for t in ts]
        split = _chain_order(dims)

        def go(i: int, j: int) -> Tensor:
            if i == j:
                return ts[i]
            k = split[i][j]
            return mm(go(i, k), go(k + 1, j))

        r = go(0, n - 1)
    return _A("view")(r, out_shape)


@composite("linalg_matrix_power(Tensor self, int n) -> Tensor")
def linalg_matrix_power(self, n):
    square_check("linalg.matrix_power", self)
    if n == 0:
        # As PyTorch: a contiguous clone of self overwritten with the identity.
        eye = _A("eye")(self.shape[-1], dtype=self._dtype, device=self.device)
        out = _A("clone")(self, memory_format=_contiguous_format())
        return _A("copy_")(out, _A("expand")(eye, list(self.shape)))
    a = self
    inverted = n < 0
    if inverted:
        a = _A("linalg_inv")(self)
        n = -n
    if n == 1:
        return a if inverted else _A("clone")(a)
    mm = _A("matmul")
    if n == 2:
        return mm(a, a)
    if n == 3:
        return mm(mm(a, a), a)
    result = None
    z = a
    while n > 0:
        if n & 1:
            result = z if result is None else mm(result, z)
        n >>= 1
        if n:
            z = mm(z, z)
    return result


@composite("linalg_diagonal(Tensor(a) A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor(a)")
def linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return _A("diagonal")(A, offset, dim1, dim2)


@composite("linalg_matmul(Tensor self, Tensor other) -> Tensor")
def linalg_matmul(self, other):
    return _A("matmul")(self, other)


@composite("linalg_cond(Tensor self, Scalar? p=None) -> Tensor")
def linalg_cond(self, p=None):
    if p is None or abs(p) == 2:
        s = _A("linalg_svdvals")(self)
        hi, lo = _A("amax")(s, [-1]), _A("amin")(s, [-1])
        return _A("div.Tensor")(hi, lo) if p is None or p > 0 else _A("div.Tensor")(lo, hi)
    square_check("linalg.cond", self)
    return _A("mul.Tensor")(
        _A("linalg_matrix_norm")(self, p), _A("linalg_matrix_norm")(_A("linalg_inv")(self), p)
    )


@composite("linalg_cond.p_str(Tensor self, str p) -> Tensor")
def linalg_cond_p_str(self, p):
    square_check("linalg.cond", self)
    return _A("mul.Tensor")(
        _A("linalg_matrix_norm.str_ord")(self, p),
        _A("linalg_matrix_norm.str_ord")(_A("linalg_inv")(self), p),
    )
