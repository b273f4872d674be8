"""Samples of torch.special's operators (aten/special.py; see tests/ops/harness.py): each
function over float32/float64 and integer inputs, special values (0, -0, poles, +-inf, NaN,
the ends of the domain), the in-place and out= forms, the binary xlog1py/zeta with their Scalar
overloads, mvlgamma, and the special_* aliases. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import Sample, rand, tensor

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float64", lo: float = -3, hi: float = 3) -> Any:
    return lambda M, r: rand(M, r, shape, dt, lo, hi)


def FIXED(values: Any, dt: str = "float64") -> Any:
    return lambda M, r: tensor(M, np.asarray(values, dtype=np.float64).astype(dt))


def mk(*specs: Any, **kwspecs: Any) -> Any:
    def make(M: Any, r: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            return s(M, r) if callable(s) else s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


INF = float("inf")
NAN = float("nan")
# (op, domain low, high, special values)
UNARY = {
    "erfinv": (-0.99, 0.99, [0.0, -0.0, 1.0, -1.0, 1.5, NAN]),
    "lgamma": (-4, 6, [0.0, -0.0, -1.0, -2.0, 1.0, 2.0, INF, -INF, NAN, 1e-8, 200.0]),
    "digamma": (-4, 6, [0.0, -0.0, -1.0, -2.5, 1.0, INF, NAN, 1e-8, 100.0]),
    "i0": (-8, 8, [0.0, 30.0, -30.0, INF, NAN]),
    "special_i0e": (-8, 8, [0.0, 50.0, -50.0, INF, NAN]),
    "special_i1": (-8, 8, [0.0, -0.0, 30.0, -30.0, NAN]),
    "special_i1e": (-8, 8, [0.0, 50.0, -50.0, INF, NAN]),
    "special_ndtri": (0.01, 0.99, [0.0, 1.0, 0.5, -0.5, 1e-10, NAN]),
    "special_log_ndtr": (-10, 5, [0.0, -40.0, 40.0, -INF, INF, NAN]),
    "special_erfcx": (-5, 30, [0.0, -30.0, 1e5, INF, -INF, NAN]),
    "special_entr": (0, 3, [0.0, -1.0, 1.0, INF, NAN]),
    "sinc": (-4, 4, [0.0, 1.0, -2.0, 0.5, INF, NAN]),
}
for _op, (_lo, _hi, _special) in UNARY.items():
    for _dt in ("float32", "float64"):
        _add(f"{_op}-{_dt}", _op, mk(T((3, 4), _dt, _lo, _hi)))
    _add(f"{_op}-special", _op, mk(FIXED(_special)))
    _add(f"{_op}-int", _op, mk(T((5,), "int64", max(_lo, -3), min(_hi, 3))))
    _add(f"{_op}-out", f"{_op}.out", mk(T((4,), "float64", _lo, _hi), out=T((4,))))
for _op in ("erfinv", "lgamma", "digamma", "i0", "sinc"):
    _add(f"{_op}_-inplace", f"{_op}_", mk(T((4,), "float64", 0.1, 0.9)))
    _add(f"{_op}_-int", f"{_op}_", mk(T((4,), "int64", 0, 3)))
_add("erfinv-bool", "erfinv", mk(FIXED([True, False], "bool")))
_add("lgamma-float16", "lgamma", mk(T((4,), "float16", 0.5, 3)), atol=1e-2)

for _n in (0, 1, 2, 3, 4):
    _add(f"polygamma-{_n}", "polygamma", mk(_n, T((3, 4), "float64", 0.1, 5)))
_add("polygamma-float32", "polygamma", mk(2, T((4,), "float32", 0.5, 3)))
_add("polygamma-negative-x", "polygamma", mk(1, FIXED([-0.5, -1.5, -1.0, 0.0])))
_add("polygamma-negative-n", "polygamma", mk(-1, T((3,))))
_add("polygamma-int", "polygamma", mk(1, T((3,), "int64", 1, 4)))
_add("polygamma-out", "polygamma.out", mk(1, T((3,), "float64", 1, 4), out=T((3,))))

for _op in ("special_xlog1py", "special_zeta"):
    _lo = 1.5 if _op == "special_zeta" else -2
    _add(f"{_op}", _op, mk(T((3, 4), "float64", _lo, 4), T((4,), "float64", 0.5, 3)))
    _add(f"{_op}-float32", _op, mk(T((4,), "float32", _lo, 4), T((4,), "float32", 0.5, 3)))
    _add(f"{_op}-int", _op, mk(T((4,), "int64", 2, 4), T((4,), "int64", 1, 3)))
    _add(f"{_op}-mixed", _op, mk(T((4,), "float32", 2, 4), T((4,), "float64", 1, 3)))
    _add(f"{_op}.self_scalar", f"{_op}.self_scalar", mk(2.5, T((3,), "float64", 0.5, 3)))
    _add(f"{_op}.other_scalar", f"{_op}.other_scalar", mk(T((3,), "float64", 2, 4), 1.5))
    _add(
        f"{_op}-out",
        f"{_op}.out",
        mk(T((3,), "float64", 2, 4), T((3,), "float64", 1, 2), out=T((3,))),
    )
_add(
    "special_xlog1py-special",
    "special_xlog1py",
    mk(FIXED([0.0, 0.0, 1.0, 2.0, NAN]), FIXED([NAN, -1.0, -1.0, INF, 1.0])),
)
_add(
    "special_zeta-special",
    "special_zeta",
    mk(FIXED([1.0, 0.5, 2.0, 3.0, 2.0]), FIXED([1.0, 1.0, -1.0, -1.5, 0.0])),
)

_add("mvlgamma", "mvlgamma", mk(T((3, 4), "float64", 2, 5), 3))
_add("mvlgamma-1", "mvlgamma", mk(T((4,), "float32", 0.5, 5), 1))
_add("mvlgamma-p", "mvlgamma", mk(T((4,), "float64", 2, 5), 0))
_add("mvlgamma_", "mvlgamma_", mk(T((4,), "float64", 2, 5), 2))

for _alias in ("special_erf", "special_erfc", "special_erfinv", "special_expm1", "special_exp2",
               "special_log1p", "special_gammaln", "special_digamma", "special_psi",
               "special_i0", "special_sinc", "special_expit", "special_ndtr"):  # fmt: skip
    _add(_alias, _alias, mk(T((4,), "float64", 0.1, 0.9)))
_add("special_ndtr-int", "special_ndtr", mk(T((4,), "int64", -2, 2)))
_add("special_polygamma", "special_polygamma", mk(1, T((4,), "float64", 0.5, 3)))
_add("special_multigammaln", "special_multigammaln", mk(T((4,), "float64", 2, 5), 2))
_add("special_logit", "special_logit", mk(T((4,), "float64", 0.1, 0.9), 0.2))
_add("special_xlogy", "special_xlogy", mk(T((4,)), T((4,), "float64", 0.1, 2)))
_add("special_round", "special_round", mk(T((4,)), decimals=1))
_add("special_logsumexp", "special_logsumexp", mk(T((3, 4)), [1]))
_add("special_softmax", "special_softmax", mk(T((3, 4)), 1))
_add("special_log_softmax", "special_log_softmax", mk(T((3, 4)), 0, dtype=None))
