"""Gradient cases of torch.linalg's factorizations, the special functions and the assorted
operators (aten/linalg_ops.py, aten/special.py, aten/misc_ops.py); registered into
tests/autograd/grad_cases.py's CASES. No torch or keyroute import here."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.autograd.grad_cases import _simple, case, ints, mask, t


def _leaf(M: Any, a: np.ndarray) -> Any:
    return M.from_numpy(np.ascontiguousarray(a, dtype=np.float64)).requires_grad_(True)


def spd(M: Any, rng: np.random.Generator, *shape: int) -> Any:
    a = rng.uniform(-1, 1, shape)
    n = shape[-1]
    return _leaf(M, a @ np.swapaxes(a, -1, -2) + n * np.eye(n))


def sym(M: Any, rng: np.random.Generator, *shape: int) -> Any:
    a = rng.uniform(-1, 1, shape)
    # Well-separated eigenvalues keep the eigenvector derivative well conditioned.
    return _leaf(M, a + np.swapaxes(a, -1, -2) + np.diag(np.arange(shape[-1]) * 3.0))


def well(M: Any, rng: np.random.Generator, *shape: int) -> Any:
    a = rng.uniform(-1, 1, shape)
    return _leaf(M, a + 3 * np.eye(shape[-1]))


# linalg
case("_linalg_det")(lambda M, rng: ((well(M, rng, 2, 3, 3),), {}))
case("_linalg_slogdet")(lambda M, rng: ((well(M, rng, 3, 3),), {}))
case("linalg_inv_ex")(lambda M, rng: ((well(M, rng, 2, 3, 3),), {}))
case("_linalg_solve_ex")(lambda M, rng: ((well(M, rng, 2, 3, 3), t(M, rng, 2, 3, 2)), {}))
case("_linalg_solve_ex_vector", "_linalg_solve_ex")(
    lambda M, rng: ((well(M, rng, 3, 3), t(M, rng, 3)), {})
)
case("_linalg_solve_ex_right", "_linalg_solve_ex")(
    lambda M, rng: ((well(M, rng, 3, 3), t(M, rng, 2, 3)), {"left": False})
)
case("linalg_cholesky_ex")(lambda M, rng: ((spd(M, rng, 2, 3, 3),), {}))
case("linalg_cholesky_ex_upper", "linalg_cholesky_ex")(
    lambda M, rng: ((spd(M, rng, 3, 3),), {"upper": True})
)
case("cholesky")(lambda M, rng: ((spd(M, rng, 3, 3),), {}))
case("linalg_qr")(lambda M, rng: ((t(M, rng, 2, 4, 3),), {}))
case("_linalg_eigh")(lambda M, rng: ((sym(M, rng, 3, 3),), {}))
case("linalg_eigvalsh")(lambda M, rng: ((sym(M, rng, 2, 3, 3),), {}))
case("_linalg_svd")(lambda M, rng: ((t(M, rng, 4, 3),), {}))
case("_linalg_svd_wide", "_linalg_svd")(lambda M, rng: ((t(M, rng, 2, 3, 4),), {}))
case("linalg_svdvals")(lambda M, rng: ((t(M, rng, 2, 4, 3),), {}))
case("linalg_lstsq")(lambda M, rng: ((t(M, rng, 5, 3), t(M, rng, 5, 2)), {}))
case("linalg_matrix_exp")(lambda M, rng: ((t(M, rng, 3, 3, low=-1, high=1),), {}))
case("linalg_cross")(lambda M, rng: ((t(M, rng, 2, 3), t(M, rng, 2, 3)), {}))
case("linalg_pinv.atol_rtol_tensor")(lambda M, rng: ((t(M, rng, 4, 3),), {}))
case("linalg_pinv_wide", "linalg_pinv.atol_rtol_tensor")(lambda M, rng: ((t(M, rng, 2, 5),), {}))

# special
case("erfinv")(lambda M, rng: ((t(M, rng, 3, 4, low=-0.9, high=0.9),), {}))
_simple("lgamma", (3, 4), positive=True)
_simple("digamma", (3, 4), positive=True)
case("polygamma")(lambda M, rng: ((2, t(M, rng, 3, 4, positive=True)), {}))
_simple("i0", (3, 4))
_simple("special_i0e", (3, 4))
_simple("special_i1", (3, 4))
_simple("special_i1e", (3, 4))
case("special_ndtri")(lambda M, rng: ((t(M, rng, 3, 4, low=0.05, high=0.95),), {}))
_simple("special_log_ndtr", (3, 4))
_simple("special_erfcx", (3, 4))
_simple("special_entr", (3, 4), positive=True)
_simple("sinc", (3, 4))
case("special_xlog1py")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4, positive=True)), {}))
case("special_xlog1py.self_scalar")(lambda M, rng: ((1.5, t(M, rng, 3, positive=True)), {}))
case("special_xlog1py.other_scalar")(lambda M, rng: ((t(M, rng, 3), 2.0), {}))
case("special_zeta")(
    lambda M, rng: ((t(M, rng, 3, grad=False, low=2, high=3), t(M, rng, 3, positive=True)), {})
)
case("special_zeta.self_scalar")(lambda M, rng: ((2.5, t(M, rng, 3, positive=True)), {}))
case("mvlgamma")(lambda M, rng: ((t(M, rng, 3, 2, low=2, high=4), 3), {}))

# misc
case("diag_embed")(lambda M, rng: ((t(M, rng, 2, 3), 1, 0, 2), {}))
case("kthvalue")(lambda M, rng: ((t(M, rng, 3, 5), 2, 1), {}))
case("cummax")(lambda M, rng: ((t(M, rng, 3, 5), 1), {}))
case("cummin")(lambda M, rng: ((t(M, rng, 3, 5), 0), {}))
case("dist")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 4)), {}))
case("dist_p3", "dist")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), 3), {}))
case("_cdist_forward")(lambda M, rng: ((t(M, rng, 2, 3, 4), t(M, rng, 2, 5, 4), 2.0, None), {}))
case("_cdist_forward_p1", "_cdist_forward")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 5, 4), 1.0, None), {})
)
case("_cdist_forward_p3", "_cdist_forward")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 5, 4), 3.0, None), {})
)
case("_euclidean_dist")(lambda M, rng: ((t(M, rng, 4, 3), t(M, rng, 5, 3)), {}))
case("masked_scatter")(lambda M, rng: ((t(M, rng, 3, 4), mask(M, rng, 3, 4), t(M, rng, 12)), {}))
case("masked_scatter_backward")(lambda M, rng: ((t(M, rng, 3, 4), mask(M, rng, 3, 4), [3, 5]), {}))
_ = ints
case("masked_scatter_")(
    lambda M, rng: ((t(M, rng, 3, 4) * 1, mask(M, rng, 3, 4), t(M, rng, 12)), {})
)
