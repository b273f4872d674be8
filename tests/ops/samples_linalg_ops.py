"""Samples of torch.linalg's operators (aten/linalg_ops.py, aten/linalg_composites.py; see
tests/ops/harness.py): the factorizations with their LAPACK layouts (column-major outputs,
LU and pivots), batches, vectors, left/right solves, error cases (non-square, integer and half
inputs, singular and non-positive-definite matrices, bad modes), and the decompositions (norms,
pinv, matrix_rank, vecdot, multi_dot, matrix_power, cond). Outputs whose signs are LAPACK's
free choice (eigenvectors, singular vectors) compare shapes only here; tests/ops/
test_linalg_gauge.py compares them up to those signs. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import Sample, noncontig, rand, tensor

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float64", lo: float = -2, hi: float = 2) -> Any:
    return lambda M, r: rand(M, r, shape, dt, lo, hi)


def NC(shape: tuple[int, ...], dt: str = "float64") -> Any:
    return lambda M, r: noncontig(M, r, shape, dt)


def WELL(shape: tuple[int, ...], dt: str = "float64") -> Any:
    """A well-conditioned square (batch) matrix."""

    def make(M: Any, r: np.random.Generator) -> Any:
        a = r.uniform(-1, 1, shape) + 3 * np.eye(shape[-1])
        return tensor(M, a.astype(np.float32 if dt == "float32" else np.float64))

    return make


def SPD(shape: tuple[int, ...], dt: str = "float64") -> Any:
    def make(M: Any, r: np.random.Generator) -> Any:
        a = r.uniform(-1, 1, shape)
        s = a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])
        return tensor(M, s.astype(np.float32 if dt == "float32" else np.float64))

    return make


def FIXED(values: Any, dt: str = "float64") -> Any:
    return lambda M, r: tensor(M, np.asarray(values, dtype=dt))


def mk(*specs: Any, **kwspecs: Any) -> Any:
    def make(M: Any, r: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            if callable(s):
                return s(M, r)
            if isinstance(s, list):
                return [build(x) for x in s]
            return s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


SINGULAR = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]
NOT_PD = [[1.0, 2.0], [2.0, 1.0]]

# ----------------------------------------------------------------------------- determinants
for _dt in ("float32", "float64"):
    _add(f"_linalg_det-{_dt}", "_linalg_det", mk(WELL((3, 3), _dt)))
    _add(f"linalg_det-{_dt}", "linalg_det", mk(WELL((2, 4, 4), _dt)))
_add("_linalg_det-noncontig", "_linalg_det", mk(NC((3, 3))))
_add("_linalg_det-batch", "_linalg_det", mk(T((2, 2, 3, 3))))
_add("_linalg_det-1x1", "_linalg_det", mk(T((1, 1))))
_add("_linalg_det-empty", "_linalg_det", mk(T((0, 0))))
_add("_linalg_det-singular", "_linalg_det", mk(FIXED(SINGULAR)))
_add("linalg_det-nonsquare", "linalg_det", mk(T((2, 3))))
_add("linalg_det-1d", "linalg_det", mk(T((3,))))
_add("linalg_det-long", "linalg_det", mk(T((3, 3), "int64")))
_add("linalg_det-half", "linalg_det", mk(T((3, 3), "float16")))
_add("det", "det", mk(WELL((3, 3))))
_add("_linalg_slogdet", "_linalg_slogdet", mk(T((2, 3, 3))))
_add("linalg_slogdet", "linalg_slogdet", mk(T((4, 4))))
_add("linalg_slogdet-singular", "linalg_slogdet", mk(FIXED(SINGULAR)))
_add("slogdet", "slogdet", mk(T((3, 3), "float32")))
_add("logdet", "logdet", mk(SPD((2, 3, 3))))
_add("logdet-negative", "logdet", mk(FIXED([[0.0, 1.0], [1.0, 0.0]])))

# ----------------------------------------------------------------------------- inverse / solve
for _dt in ("float32", "float64"):
    _add(f"linalg_inv_ex-{_dt}", "linalg_inv_ex", mk(WELL((2, 3, 3), _dt)))
_add("linalg_inv_ex-singular", "linalg_inv_ex", mk(FIXED(SINGULAR)), compare="shape")
_add("linalg_inv-singular", "linalg_inv", mk(FIXED(SINGULAR)), tags=("no_meta",))
_add("linalg_inv-batch-singular", "linalg_inv", mk(FIXED([np.eye(3), SINGULAR])), tags=("no_meta",))
_add("linalg_inv", "linalg_inv", mk(WELL((4, 4))))
_add("inverse", "inverse", mk(NC((3, 3))))
_add("linalg_inv-nonsquare", "linalg_inv", mk(T((3, 2))))
_add("_linalg_solve_ex", "_linalg_solve_ex", mk(WELL((2, 3, 3)), T((2, 3, 4))))
_add("_linalg_solve_ex-vector", "_linalg_solve_ex", mk(WELL((3, 3)), T((3,))))
_add("_linalg_solve_ex-batch-vector", "_linalg_solve_ex", mk(WELL((2, 3, 3)), T((2, 3))))
_add("_linalg_solve_ex-right", "_linalg_solve_ex", mk(WELL((2, 3, 3)), T((2, 4, 3)), left=False))
_add("_linalg_solve_ex-broadcast", "_linalg_solve_ex", mk(WELL((3, 3)), T((2, 3, 2))))
_add("linalg_solve", "linalg_solve", mk(WELL((3, 3), "float32"), T((3, 2), "float32")))
_add("linalg_solve-singular", "linalg_solve", mk(FIXED(SINGULAR), T((3, 1))), tags=("no_meta",))
_add("linalg_solve-shape", "linalg_solve", mk(WELL((3, 3)), T((4, 2))))
_add("linalg_solve-vector-shape", "linalg_solve", mk(WELL((3, 3)), T((4,))))
_add("linalg_solve-dtype", "linalg_solve", mk(WELL((3, 3)), T((3, 2), "float32")))
_add("linalg_solve_ex", "linalg_solve_ex", mk(WELL((3, 3)), T((3, 2))))

# ----------------------------------------------------------------------------- cholesky / qr
for _dt in ("float32", "float64"):
    _add(f"linalg_cholesky_ex-{_dt}", "linalg_cholesky_ex", mk(SPD((2, 3, 3), _dt)))
_add("linalg_cholesky_ex-upper", "linalg_cholesky_ex", mk(SPD((3, 3)), upper=True))
_add("linalg_cholesky_ex-notpd", "linalg_cholesky_ex", mk(FIXED(NOT_PD)))
_add("linalg_cholesky-notpd", "linalg_cholesky", mk(FIXED(NOT_PD)), tags=("no_meta",))
_add(
    "linalg_cholesky-batch-notpd",
    "linalg_cholesky",
    mk(FIXED([np.eye(2), NOT_PD])),
    tags=("no_meta",),
)
_add("linalg_cholesky", "linalg_cholesky", mk(SPD((4, 4))))
_add("cholesky", "cholesky", mk(SPD((3, 3))))
_add("cholesky-upper", "cholesky", mk(SPD((3, 3)), True))
for _shape in ((4, 3), (3, 4), (2, 5, 2)):
    _s = "x".join(map(str, _shape))
    _add(f"linalg_qr-{_s}", "linalg_qr", mk(T(_shape)))
    _add(f"linalg_qr-complete-{_s}", "linalg_qr", mk(T(_shape), "complete"))
    _add(f"linalg_qr-r-{_s}", "linalg_qr", mk(T(_shape), "r"))
_add("linalg_qr-float32", "linalg_qr", mk(T((3, 3), "float32")))
_add("linalg_qr-mode", "linalg_qr", mk(T((3, 3)), "x"))
_add("qr", "qr", mk(T((4, 2))))
_add("qr-some-false", "qr", mk(T((4, 2)), False))

# ----------------------------------------------------------------------------- eigh / svd
_add("_linalg_eigh", "_linalg_eigh", mk(SPD((2, 3, 3))), compare="shape")
_add("_linalg_eigh-U", "_linalg_eigh", mk(SPD((3, 3)), "U"), compare="shape")
_add("_linalg_eigh-novec", "_linalg_eigh", mk(SPD((3, 3)), "L", False))
_add("_linalg_eigh-uplo", "_linalg_eigh", mk(SPD((3, 3)), "x"))
_add("linalg_eigvalsh", "linalg_eigvalsh", mk(SPD((2, 4, 4))))
_add("linalg_eigvalsh-U", "linalg_eigvalsh", mk(T((3, 3)), "U"))
_add("linalg_eigvalsh-float32", "linalg_eigvalsh", mk(SPD((3, 3), "float32")))
for _shape in ((4, 3), (3, 4), (2, 3, 3)):
    _s = "x".join(map(str, _shape))
    _add(f"_linalg_svd-{_s}", "_linalg_svd", mk(T(_shape)), compare="shape")
    _add(f"_linalg_svd-full-{_s}", "_linalg_svd", mk(T(_shape), True), compare="shape")
    _add(f"linalg_svdvals-{_s}", "linalg_svdvals", mk(T(_shape)))
_add("_linalg_svd-novec", "_linalg_svd", mk(T((4, 3)), False, False))
_add("_linalg_svd-driver", "_linalg_svd", mk(T((4, 3)), driver="gesvd"))
_add("linalg_svd", "linalg_svd", mk(T((3, 5))), compare="shape")
_add("svd", "svd", mk(T((3, 5))), compare="shape")
_add("svd-no-uv", "svd", mk(T((3, 5)), True, False))
_add("linalg_svdvals-float32", "linalg_svdvals", mk(T((5, 3), "float32")))

# ----------------------------------------------------------------------------- lstsq
for _drv in (None, "gels", "gelsy", "gelsd", "gelss"):
    _kw = {} if _drv is None else {"driver": _drv}
    _n = _drv or "default"
    _add(f"linalg_lstsq-{_n}", "linalg_lstsq", mk(T((5, 3)), T((5, 2)), **_kw))
_add("linalg_lstsq-wide", "linalg_lstsq", mk(T((2, 3, 5)), T((2, 3, 2))))
_add("linalg_lstsq-vector", "linalg_lstsq", mk(T((2, 5, 3)), T((2, 5))))
_add("linalg_lstsq-gelsd-batch", "linalg_lstsq", mk(T((2, 5, 3)), T((2, 5, 2)), driver="gelsd"))
_add("linalg_lstsq-shape", "linalg_lstsq", mk(T((3, 3)), T((4, 2))))
_add("linalg_lstsq-driver", "linalg_lstsq", mk(T((3, 3)), T((3, 2)), driver="x"))

# ----------------------------------------------------------------------------- exp / cross
_add("linalg_matrix_exp", "linalg_matrix_exp", mk(T((2, 3, 3))))
_add("linalg_matrix_exp-large", "linalg_matrix_exp", mk(T((3, 3), lo=-6, hi=6)), rtol=1e-10)
_add("linalg_matrix_exp-float32", "linalg_matrix_exp", mk(T((3, 3), "float32", -1, 1)))
_add("matrix_exp", "matrix_exp", mk(T((4, 4), lo=-1, hi=1)))
_add("linalg_matrix_exp-nonsquare", "linalg_matrix_exp", mk(T((2, 3))))
_add("linalg_cross", "linalg_cross", mk(T((4, 3)), T((4, 3))))
_add("linalg_cross-dim", "linalg_cross", mk(T((3, 2)), T((3, 2)), dim=0))
# Two dtypes: the CPU kernel refuses them; PyTorch's meta linalg_cross checks no dtype.
_add(
    "linalg_cross-broadcast",
    "linalg_cross",
    mk(T((2, 3)), T((1, 3), "float32")),
    tags=("no_meta",),
)
_add("linalg_cross-int", "linalg_cross", mk(T((2, 3), "int64"), T((2, 3), "int64")))
_add("linalg_cross-len", "linalg_cross", mk(T((2, 4)), T((2, 4))))
_add("linalg_cross-ndim", "linalg_cross", mk(T((2, 3)), T((3,))))
_add("cross", "cross", mk(T((3, 2)), T((3, 2))))
_add("cross-dim", "cross", mk(T((2, 3)), T((2, 3)), 1))

# ----------------------------------------------------------------------------- norms
for _o in (2, -2, 1, -1, float("inf"), float("-inf")):
    _add(f"linalg_matrix_norm-{_o}", "linalg_matrix_norm", mk(T((2, 3, 4)), _o))
_add("linalg_matrix_norm-dim", "linalg_matrix_norm", mk(T((3, 4, 2)), 1, [0, 2]))
_add(
    "linalg_matrix_norm-keepdim", "linalg_matrix_norm", mk(T((3, 4, 2)), float("inf"), [2, 0], True)
)
_add("linalg_matrix_norm-order", "linalg_matrix_norm", mk(T((3, 3)), 3))
_add("linalg_matrix_norm-1d", "linalg_matrix_norm", mk(T((3,)), 1))
_add("linalg_matrix_norm.str_ord-fro", "linalg_matrix_norm.str_ord", mk(T((2, 3, 4))))
_add("linalg_matrix_norm.str_ord-nuc", "linalg_matrix_norm.str_ord", mk(T((2, 3, 4)), "nuc"))
_add("linalg_matrix_norm.str_ord-bad", "linalg_matrix_norm.str_ord", mk(T((3, 3)), "abc"))
_add("linalg_norm", "linalg_norm", mk(T((2, 3, 4))))
_add("linalg_norm-ord", "linalg_norm", mk(T((3, 4)), 1))
_add("linalg_norm-vec", "linalg_norm", mk(T((3, 4)), 3, [1]))
_add("linalg_norm-3d-ord", "linalg_norm", mk(T((2, 3, 4)), 2))
_add("linalg_norm.ord_str", "linalg_norm.ord_str", mk(T((3, 4)), "fro"))
_add("linalg_norm.ord_str-nuc-dim", "linalg_norm.ord_str", mk(T((2, 3, 4)), "nuc", [1, 2]))

# ----------------------------------------------------------------------------- pinv / rank
_add("linalg_pinv.atol_rtol_float", "linalg_pinv.atol_rtol_float", mk(T((2, 4, 3))))
_add("linalg_pinv.atol_rtol_float-wide", "linalg_pinv.atol_rtol_float", mk(T((3, 5))))
_add(
    "linalg_pinv.atol_rtol_float-herm",
    "linalg_pinv.atol_rtol_float",
    mk(SPD((3, 3)), hermitian=True),
)
_add(
    "linalg_pinv.atol_rtol_float-rtol", "linalg_pinv.atol_rtol_float", mk(FIXED(SINGULAR), rtol=0.1)
)
_add("linalg_pinv", "linalg_pinv", mk(T((4, 3)), 1e-10))
_add("linalg_pinv-int", "linalg_pinv", mk(T((4, 3), "int64"), 1e-10))
_add("pinverse", "pinverse", mk(T((3, 2), "float32")))
_add(
    "linalg_matrix_rank.atol_rtol_float", "linalg_matrix_rank.atol_rtol_float", mk(FIXED(SINGULAR))
)
_add(
    "linalg_matrix_rank.atol_rtol_float-batch",
    "linalg_matrix_rank.atol_rtol_float",
    mk(T((2, 4, 3))),
)
_add(
    "linalg_matrix_rank.atol_rtol_float-atol",
    "linalg_matrix_rank.atol_rtol_float",
    mk(T((4, 4)), atol=1.0),
)
_add(
    "linalg_matrix_rank.atol_rtol_float-herm",
    "linalg_matrix_rank.atol_rtol_float",
    mk(SPD((3, 3)), hermitian=True),
)
_add("linalg_matrix_rank", "linalg_matrix_rank", mk(FIXED(SINGULAR), 0.5))

# ----------------------------------------------------------------------------- products
_add("linalg_vecdot", "linalg_vecdot", mk(T((3, 4)), T((4,))))
_add("linalg_vecdot-dim", "linalg_vecdot", mk(T((3, 4)), T((3, 4)), dim=0))
_add("linalg_vecdot-dtype", "linalg_vecdot", mk(T((3,)), T((3,), "float32")))
_add("linalg_multi_dot-2", "linalg_multi_dot", mk([T((2, 3)), T((3, 4))]))
_add("linalg_multi_dot-3", "linalg_multi_dot", mk([T((2, 30)), T((30, 4)), T((4, 10))]))
_add("linalg_multi_dot-4", "linalg_multi_dot", mk([T((3,)), T((3, 5)), T((5, 2)), T((2,))]))
_add(
    "linalg_multi_dot-5",
    "linalg_multi_dot",
    mk([T((10, 3)), T((3, 5)), T((5, 20)), T((20, 2)), T((2, 4))]),
)
_add("linalg_multi_dot-one", "linalg_multi_dot", mk([T((2, 3))]))
_add("linalg_multi_dot-shape", "linalg_multi_dot", mk([T((2, 3)), T((4, 4))]))
_add("linalg_multi_dot-3d", "linalg_multi_dot", mk([T((2, 3)), T((2, 3, 3)), T((3, 2))]))
for _n in (0, 1, 2, 3, 5, -1, -3):
    _add(f"linalg_matrix_power-{_n}", "linalg_matrix_power", mk(WELL((2, 3, 3)), _n))
_add("linalg_matrix_power-int", "linalg_matrix_power", mk(T((3, 3), "int64"), 3))
_add("linalg_matrix_power-nonsquare", "linalg_matrix_power", mk(T((2, 3)), 2))
_add("linalg_cond", "linalg_cond", mk(WELL((2, 3, 3))))
_add("linalg_cond-1", "linalg_cond", mk(WELL((3, 3)), 1))
_add("linalg_cond-m2", "linalg_cond", mk(T((4, 3)), -2))
_add("linalg_cond.p_str", "linalg_cond.p_str", mk(WELL((3, 3)), "fro"))
_add("linalg_diagonal", "linalg_diagonal", mk(T((2, 3, 4)), offset=1))
_add("linalg_matmul", "linalg_matmul", mk(T((2, 3)), T((3,))))
