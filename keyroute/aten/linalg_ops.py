"""torch.linalg's operators: the factorizations (schema + meta; NumPy kernels in
kernels/cpu/linalg_ops.py, derivatives in autograd/derivatives/linalg_ops.py) and PyTorch's
CompositeImplicitAutograd decompositions over them (linalg_det -> _linalg_det, linalg_inv ->
linalg_inv_ex, linalg_solve -> _linalg_solve_ex, linalg_svd -> _linalg_svd, ...), so modes and
graphs see the calls PyTorch's do.

LAPACK's outputs are column-major matrices: the meta functions give PyTorch's strides for them
(batch dims row-major, each matrix column-major).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tensor._tensor import Tensor
from ..tensor.dtype import float32, int32, int64
from ._define import aten, composite, composite_explicit, meta
from ._meta_util import check, is_meta_data, new_meta, shape_of

__all__ = [
    "LinAlgError",
    "fortran_strides",
    "square_check",
    "float_check",
    "linalg_dtype_name",
]


def fortran_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Strides of a batch of column-major matrices (LAPACK's layout, as PyTorch returns it)."""
    shape = tuple(shape)
    if len(shape) < 2:
        return _contig(shape)
    m, n = shape[-2], shape[-1]
    inner = (1, max(m, 1))
    acc = max(m, 1) * max(n, 1)
    batch: list[int] = []
    for s in reversed(shape[:-2]):
        batch.append(acc)
        acc *= max(s, 1)
    return (*reversed(batch), *inner)


def _contig(shape: Sequence[int]) -> tuple[int, ...]:
    out: list[int] = []
    acc = 1
    for s in reversed(tuple(shape)):
        out.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(out))


def linalg_dtype_name(t: Tensor) -> str:
    return t._dtype._short


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a factorization failed on its input (singular, not
    positive-definite); PyTorch's class is torch._C._LinAlgError."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"


def float_check(fn: str, t: Tensor, arg: str = "input", kernel: str = "lu_cpu") -> None:
    check(
        t._dtype.category >= 2,
        f"{fn}: Expected a floating point or complex tensor as {arg}. Got {t._dtype._short}",
    )
    if t._dtype.itemsize == 2:
        # LAPACK has no half types: PyTorch's dispatch macro refuses them.
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{t._dtype._short}'")


def square_check(fn: str, t: Tensor, arg: str = "A") -> None:
    shape = shape_of(t)
    check(
        len(shape) >= 2,
        f"{fn}: The input tensor {arg} must have at least 2 dimensions.",
    )
    check(
        shape[-1] == shape[-2],
        f"{fn}: {arg} must be batches of square matrices, but they are {shape[-2]} by "
        f"{shape[-1]} matrices",
    )


def _matrix_check(fn: str, t: Tensor, arg: str = "A") -> None:
    check(len(shape_of(t)) >= 2, f"{fn}: The input tensor {arg} must have at least 2 dimensions.")


# ----------------------------------------------------------------------------- determinants


@meta("_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)")
def _linalg_det(A):
    square_check("linalg.det", A)
    float_check("linalg.det", A)
    s = shape_of(A)
    return (
        new_meta(s[:-2], A._dtype),
        new_meta(s, A._dtype, fortran_strides(s)),
        new_meta(s[:-1], int32),
    )


@meta("_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)")
def _linalg_slogdet(A):
    square_check("linalg.slogdet", A)
    float_check("linalg.slogdet", A)
    s = shape_of(A)
    return (
        new_meta(s[:-2], A._dtype),
        new_meta(s[:-2], A._dtype.to_real()),
        new_meta(s, A._dtype, fortran_strides(s)),
        new_meta(s[:-1], int32),
    )


@composite("linalg_det(Tensor A) -> Tensor")
def linalg_det(A):
    return aten("_linalg_det")(A)[0]


@composite("det(Tensor self) -> Tensor")
def det(self):
    return aten("linalg_det")(self)


@composite("linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)")
def linalg_slogdet(A):
    r = aten("_linalg_slogdet")(A)
    return r[0], r[1]


@composite("slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)")
def slogdet(self):
    return aten("linalg_slogdet")(self)


@composite("logdet(Tensor self) -> Tensor")
def logdet(self):
    square_check("linalg.logdet", self)
    float_check("linalg.logdet", self)
    sign, logabsdet = aten("linalg_slogdet")(self)
    # A negative determinant has no real logarithm: NaN, as PyTorch's where(sign == -1, nan).
    nan = aten("full_like")(logabsdet, float("nan"))
    return aten("where.self")(aten("eq.Scalar")(sign, -1), nan, logabsdet)


# ----------------------------------------------------------------------------- inverse / solve


@meta("linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)")
def linalg_inv_ex(A, *, check_errors=False):
    square_check("linalg.inv", A)
    if A._dtype.category >= 2 and A._dtype.itemsize == 2:
        # checkFloatingOrComplex(allow_low_precision_dtypes=false). A meta or fake tensor runs
        # PyTorch's Python meta (torch/_meta_registrations.py), which words it its own way.
        if is_meta_data(A):
            raise RuntimeError(
                f"linalg.inv_ex: Low precision dtypes not supported. Got torch.{A._dtype.name}"
            )
        raise RuntimeError(f"linalg.inv: Low precision dtypes not supported. Got {A._dtype._short}")
    float_check("linalg.inv", A)
    s = shape_of(A)
    return new_meta(s, A._dtype, fortran_strides(s)), new_meta(s[:-2], int32)


@composite("linalg_inv(Tensor A) -> Tensor")
def linalg_inv(A):
    # PyTorch's: linalg_inv_ex without checks, then _linalg_check_errors on its info (a
    # dispatch mode and autocast's fp32 list see both calls).
    result, info = aten("linalg_inv_ex")(A)
    aten("_linalg_check_errors")(info, "linalg.inv", is_matrix=A.dim() == 2)
    return result


@composite("inverse(Tensor self) -> Tensor")
def inverse(self):
    return aten("linalg_inv")(self)


def solve_is_vector(A_shape: Sequence[int], B_shape: Sequence[int]) -> bool:
    """linalg.solve's rule: B is a batch of vectors when it is 1-D or has one dim less than A
    with A's batch shape."""
    return len(B_shape) == 1 or (
        len(B_shape) == len(A_shape) - 1 and tuple(B_shape) == tuple(A_shape[:-1])
    )


def solve_shapes(A: Tensor, B: Tensor, left: bool) -> tuple[tuple[int, ...], bool]:
    sa, sb = shape_of(A), shape_of(B)
    square_check("linalg.solve", A)
    float_check("linalg.solve", A)
    check(
        A._dtype is B._dtype,
        f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
        f"{A._dtype._short} and B of type {B._dtype._short} instead",
    )
    vec = solve_is_vector(sa, sb)
    n = sa[-1]
    if vec:
        check(
            sb[-1] == n,
            f"linalg.solve: Incompatible shapes of A and B for the equation AX = B "
            f"({sa[-2]}x{sa[-1]} and {sb[-1]}x1)",
        )
        from ._shape import broadcast_shapes

        batch = broadcast_shapes(sa[:-2], sb[:-1])
        return (*batch, n), True
    check(
        len(sb) >= 2,
        "linalg.solve: The input tensor B must have at least 2 dimensions.",
    )
    k = sb[-1] if left else sb[-2]
    m = sb[-2] if left else sb[-1]
    check(
        m == n,
        f"linalg.solve: Incompatible shapes of A and B for the equation "
        f"{'AX = B' if left else 'XA = B'} ({sa[-2]}x{sa[-1]} and {sb[-2]}x{sb[-1]})",
    )
    from ._shape import broadcast_shapes

    batch = broadcast_shapes(sa[:-2], sb[:-2])
    return ((*batch, n, k) if left else (*batch, k, n)), False


@meta(
    "_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
    "(Tensor result, Tensor LU, Tensor pivots, Tensor info)"
)
def _linalg_solve_ex(A, B, *, left=True, check_errors=False):
    out, vec = solve_shapes(A, B, left)
    sa = shape_of(A)
    batch = sa[:-2]
    lu_shape = sa
    if vec:
        # A batch of vectors is solved as one n x batch matrix: the result is column-major
        # over (batch..., n) as a whole.
        rs = tuple(reversed(_contig(tuple(reversed(out))))) if len(out) > 1 else (1,)
    else:
        rs = fortran_strides(out) if left else _contig(out)
    return (
        new_meta(out, A._dtype, rs),
        new_meta(lu_shape, A._dtype, fortran_strides(lu_shape)),
        new_meta(lu_shape[:-1], int32),
        new_meta(batch, int32),
    )


@composite(
    "linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
    "(Tensor result, Tensor info)"
)
def linalg_solve_ex(A, B, *, left=True, check_errors=False):
    r = aten("_linalg_solve_ex")(A, B, left=left, check_errors=check_errors)
    return r[0], r[3]


@composite("linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor")
def linalg_solve(A, B, *, left=True):
    # PyTorch's: linalg_solve_ex without checks, then _linalg_check_errors on its info (under
    # the name "torch.linalg.solve"), a call a dispatch mode sees.
    result, info = aten("linalg_solve_ex")(A, B, left=left)
    aten("_linalg_check_errors")(info, "torch.linalg.solve", is_matrix=A.dim() == 2)
    return result


# ----------------------------------------------------------------------------- cholesky / qr


@meta(
    "linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> "
    "(Tensor L, Tensor info)"
)
def linalg_cholesky_ex(self, *, upper=False, check_errors=False):
    square_check("linalg.cholesky", self)
    float_check("linalg.cholesky", self)
    s = shape_of(self)
    return new_meta(s, self._dtype, fortran_strides(s)), new_meta(s[:-2], int32)


@composite("linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor")
def linalg_cholesky(self, *, upper=False):
    # As linalg_solve: linalg_cholesky_ex without checks, then _linalg_check_errors.
    L, info = aten("linalg_cholesky_ex")(self, upper=upper)
    aten("_linalg_check_errors")(info, "linalg.cholesky", is_matrix=self.dim() == 2)
    return L


_CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
    "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
    "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for "
    "all valid (symmetric positive definite) inputs."
)
#: The TORCH_WARN_ONCE warnings given in this process (tests reset it).
WARNED: set[str] = set()


@meta("cholesky(Tensor self, bool upper=False) -> Tensor")
def cholesky(self, upper=False):
    if "cholesky" not in WARNED:  # TORCH_WARN_ONCE, before the checks
        WARNED.add("cholesky")
        import warnings

        warnings.warn(_CHOLESKY_DEPRECATED, UserWarning, stacklevel=2)
    square_check("cholesky", self)
    float_check("cholesky", self)
    s = shape_of(self)
    return new_meta(s, self._dtype, fortran_strides(s))


@meta('linalg_qr(Tensor A, str mode="reduced") -> (Tensor Q, Tensor R)')
def linalg_qr(A, mode="reduced"):
    _matrix_check("linalg.qr", A)
    float_check("linalg.qr", A)
    check(
        mode in ("reduced", "complete", "r"),
        f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
        "'r', or 'complete'",
    )
    s = shape_of(A)
    m, n = s[-2], s[-1]
    k = min(m, n)
    batch = s[:-2]
    if mode == "r":
        q = (0,)
    elif mode == "complete":
        q = (*batch, m, m)
    else:
        q = (*batch, m, k)
    r = (*batch, m if mode == "complete" else k, n)
    return (
        new_meta(q, A._dtype, fortran_strides(q)),
        new_meta(r, A._dtype, fortran_strides(r)),
    )


@composite("qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)")
def qr(self, some=True):
    return aten("linalg_qr")(self, "reduced" if some else "complete")


# ----------------------------------------------------------------------------- eigh / svd


@meta(
    '_linalg_eigh(Tensor A, str UPLO="L", bool compute_v=True) -> '
    "(Tensor eigenvalues, Tensor eigenvectors)"
)
def _linalg_eigh(A, UPLO="L", compute_v=True):
    square_check("linalg.eigh", A)
    float_check("linalg.eigh", A)
    check(
        UPLO in ("L", "U", "l", "u"),
        f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}",
    )
    s = shape_of(A)
    vs = s if compute_v else (0,)
    return (
        new_meta(s[:-1], A._dtype.to_real()),
        new_meta(vs, A._dtype, fortran_strides(vs)),
    )


@composite('linalg_eigh(Tensor self, str UPLO="L") -> (Tensor eigenvalues, Tensor eigenvectors)')
def linalg_eigh(self, UPLO="L"):
    return aten("_linalg_eigh")(self, UPLO)


@composite('linalg_eigvalsh(Tensor self, str UPLO="L") -> Tensor')
def linalg_eigvalsh(self, UPLO="L"):
    from ..dispatcher.keyset import REQUIRES_GRAD_BIT

    # PyTorch computes the eigenvectors too when the input requires grad (the backward
    # needs them).
    needs_v = bool(self._key_set & REQUIRES_GRAD_BIT)
    return aten("_linalg_eigh")(self, UPLO, needs_v)[0]


@meta(
    "_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None)"
    " -> (Tensor U, Tensor S, Tensor Vh)"
)
def _linalg_svd(A, full_matrices=False, compute_uv=True, *, driver=None):
    _matrix_check("linalg.svd", A)
    float_check("linalg.svd", A)
    check(
        driver is None,
        "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
        "cuSOLVER backend.",
    )
    s = shape_of(A)
    m, n = s[-2], s[-1]
    k = min(m, n)
    batch = s[:-2]
    if compute_uv:
        u = (*batch, m, m if full_matrices else k)
        vh = (*batch, n if full_matrices else k, n)
    else:
        u = vh = (0,)
    return (
        new_meta(u, A._dtype, fortran_strides(u)),
        new_meta((*batch, k), A._dtype.to_real()),
        new_meta(vh, A._dtype, fortran_strides(vh)),
    )


@composite(
    "linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> "
    "(Tensor U, Tensor S, Tensor Vh)"
)
def linalg_svd(A, full_matrices=True, *, driver=None):
    return aten("_linalg_svd")(A, full_matrices, True, driver=driver)


@composite("linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor")
def linalg_svdvals(A, *, driver=None):
    from ..dispatcher.keyset import REQUIRES_GRAD_BIT

    # As PyTorch: U and V are computed only when the backward will need them.
    needs_uv = bool(A._key_set & REQUIRES_GRAD_BIT)
    return aten("_linalg_svd")(A, False, needs_uv, driver=driver)[1]


@composite(
    "svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)"
)
def svd(self, some=True, compute_uv=True):
    U, S, Vh = aten("_linalg_svd")(self, not some, compute_uv)
    if compute_uv:
        return U, S, aten("mH")(Vh)
    # The legacy svd returns zero-filled U and V of the full shapes without compute_uv.
    s = shape_of(self)
    m, n = s[-2], s[-1]
    zeros = aten("zeros")
    return (
        zeros([*s[:-2], m, m], dtype=self._dtype),
        S,
        aten("mH")(zeros([*s[:-2], n, n], dtype=self._dtype)),
    )


# ----------------------------------------------------------------------------- lstsq


@meta(
    "linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> "
    "(Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)"
)
def linalg_lstsq(self, b, rcond=None, *, driver=None):
    from ._shape import broadcast_shapes

    sa, sb = shape_of(self), shape_of(b)
    float_check("torch.linalg.lstsq", self)
    check(
        len(sa) >= 2,
        "torch.linalg.lstsq: input must have at least 2 dimensions.",
    )
    check(
        self._dtype is b._dtype,
        f"torch.linalg.lstsq: Expected input and b to have the same dtype, but got input "
        f"with dtype {self._dtype._short} and b with dtype {b._dtype._short}",
    )
    drivers = ("gels", "gelsy", "gelsd", "gelss")
    check(
        driver is None or driver in drivers,
        "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)",
    )
    driver = driver or "gelsy"
    vec = len(sb) == len(sa) - 1
    m, n = sa[-2], sa[-1]
    bm = sb[-1] if vec else sb[-2]
    check(
        bm == m,
        "torch.linalg.lstsq: input.size(-2) should match other.size(-2)",
    )
    nrhs = 1 if vec else sb[-1]
    batch = broadcast_shapes(sa[:-2], sb[:-1] if vec else sb[:-2])
    rows = max(m, n)
    sol_shape = (*batch, n) if vec else (*batch, n, nrhs)
    # The solution is a view of the first n rows of LAPACK's max(m, n) x nrhs buffer.
    if vec:
        sol_stride = (*_contig(batch + (rows,))[:-1], 1) if batch else (1,)
    else:
        full = fortran_strides((*batch, rows, nrhs))
        sol_stride = full
    res = (0,)
    if m > n and driver != "gelsy":
        res = (*batch, nrhs) if not vec else batch
    rank = batch if driver != "gels" else (0,)
    sv = (*batch, min(m, n)) if driver in ("gelsd", "gelss") else (0,)
    return (
        new_meta(sol_shape, self._dtype, sol_stride),
        new_meta(res, self._dtype.to_real()),
        new_meta(rank, int64),
        new_meta(sv, self._dtype.to_real()),
    )


# ----------------------------------------------------------------------------- matrix_exp / cross


@meta("linalg_matrix_exp(Tensor self) -> Tensor")
def linalg_matrix_exp(self):
    square_check("linalg.matrix_exp", self)
    float_check("linalg.matrix_exp", self)
    s = shape_of(self)
    return new_meta(s, self._dtype)


@composite("matrix_exp(Tensor self) -> Tensor")
def matrix_exp(self):
    return aten("linalg_matrix_exp")(self)


@meta("linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor")
def linalg_cross(self, other, *, dim=-1):
    from ._promotion import result_type
    from ._shape import broadcast_shapes, wrap_dim

    sa, sb = shape_of(self), shape_of(other)
    check(
        len(sa) == len(sb),
        "linalg.cross: inputs must have the same number of dimensions.",
    )
    # A meta or fake tensor runs PyTorch's Python meta, which checks no dtypes and gives
    # self's dtype; the CPU kernel's TensorIterator wants one dtype.
    on_meta = is_meta_data(self)
    check(
        on_meta or self._dtype is other._dtype,
        f"expected scalar type {self._dtype._short} but found {other._dtype._short}",
    )
    d = wrap_dim(dim, len(sa))
    check(
        sa[d] == 3 and sb[d] == 3,
        f"linalg.cross: inputs dimension {dim} must have length 3. Got {sa[d]} and {sb[d]}",
    )
    return new_meta(broadcast_shapes(sa, sb), self._dtype if on_meta else result_type(self, other))


@composite("cross(Tensor self, Tensor other, int? dim=None) -> Tensor")
def cross(self, other, dim=None):
    if dim is None:
        from ._shape import broadcast_shapes

        # The deprecated default: the first dimension of size 3.
        s = broadcast_shapes(shape_of(self), shape_of(other))
        dim = next((i for i, v in enumerate(s) if v == 3), None)
        check(dim is not None, "no dimension of size 3 in input")
    return aten("linalg_cross")(self, other, dim=dim)


# float32 is used by matrix_rank's default tolerance (the dtype's epsilon).
_EPS = {"float32": 1.1920928955078125e-07, "float64": 2.220446049250313e-16}
_ = float32


def _check_errors_message(api_name: str, code: int) -> str:
    """BatchLinearAlgebra.cpp's words for a positive LAPACK info, by the API's name."""
    if "inv" in api_name:
        return (
            f"The diagonal element {code} is zero, the inversion could not be completed "
            "because the input matrix is singular."
        )
    if "solve" in api_name:
        return "The solver failed because the input matrix is singular."
    if "cholesky" in api_name:
        return (
            "The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {code} is not positive-definite)."
        )
    if "svd" in api_name:
        return (
            "The algorithm failed to converge because the input matrix is ill-conditioned or "
            f"has too many repeated singular values (error code: {code})."
        )
    if "eig" in api_name or "syevd" in api_name:
        return (
            "The algorithm failed to converge because the input matrix is ill-conditioned or "
            f"has too many repeated eigenvalues (error code: {code})."
        )
    if "lstsq" in api_name:
        return (
            "The least squares solution could not be computed because the input matrix does "
            f"not have full rank (error code: {code})."
        )
    raise RuntimeError(f"{api_name}: Unknown error code: {code}.")


@composite_explicit("_linalg_check_errors(Tensor info, str api_name, *, bool is_matrix) -> ()")
def _linalg_check_errors(info, api_name, *, is_matrix):
    """Raise PyTorch's LinAlgError for the first nonzero LAPACK info (a batch says which
    element); a meta or fake info has no values to check."""
    data = getattr(info, "_data", None)
    if info.device.type == "meta" or data is None or not hasattr(data, "reshape"):
        return None
    import numpy as np

    flat = np.asarray(data).reshape(-1)
    bad = np.flatnonzero(flat)
    if not bad.size:
        return None
    b = int(bad[0])
    code = int(flat[b])
    where = "" if is_matrix else f"(Batch element {b}): "
    if code < 0:  # TORCH_INTERNAL_ASSERT(false, ...): a bug in the caller, not in the input
        raise RuntimeError(
            f'false INTERNAL ASSERT FAILED at "{__file__}":1, please report a bug to PyTorch. '
            f"{api_name}: {where}Argument {-code} has illegal value. Most certainly there is a "
            "bug in the implementation calling the backend library."
        )
    raise LinAlgError(f"{api_name}: {where}{_check_errors_message(api_name, code)}")
