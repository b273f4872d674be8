"""Samples of the linalg operators (see tests/ops/harness.py).

mm, bmm, addmm, addmv, baddbmm, dot, vdot, mv, outer, ger over every supported dtype (and the
unsupported ones' errors), non-contiguous and zero-size inputs, beta/alpha, in-place and out=
forms; the composites (matmul in each of its rank cases, linear, einsum, tensordot) with the
shapes that take each of PyTorch's paths. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tests.ops.harness import Sample, noncontig, rand, tensor

SAMPLES: list[Sample] = []
Make = Callable[[Any, np.random.Generator], tuple[tuple[Any, ...], dict[str, Any]]]

NUM_DTYPES = (
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
)


def _add(sid: str, op: str, make: Make, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32", lo: float = -3, hi: float = 3) -> Any:
    return lambda M, r: rand(M, r, shape, dt, lo, hi)


def NC(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: noncontig(M, r, shape, dt)


def Z(dt: str = "float32", value: float = 1.5) -> Any:
    """A 0-dim tensor."""
    return lambda M, r: M.tensor(value, dtype=getattr(M, dt))


def NAN(shape: tuple[int, ...]) -> Any:
    return lambda M, r: M.full(shape, float("nan"))


def EMPTY(shape: tuple[int, ...] = (0,), dt: str = "float32") -> Any:
    return lambda M, r: M.empty(shape, dtype=getattr(M, dt))


def mk(*specs: Any, **kwspecs: Any) -> Make:
    def make(M: Any, r: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            if callable(s):
                return s(M, r)
            if isinstance(s, list):
                return [build(x) for x in s]
            return s

        args = tuple(build(s) for s in specs)
        kwargs = {k: build(v) for k, v in kwspecs.items()}
        return args, kwargs

    return make


# ----------------------------------------------------------------------------- mm / bmm

for _dt in (*NUM_DTYPES, "complex64"):
    _add(f"mm-{_dt}", "mm", mk(T((2, 3), _dt), T((3, 4), _dt)))
    _add(f"bmm-{_dt}", "bmm", mk(T((2, 2, 3), _dt), T((2, 3, 4), _dt)))
_add("mm-bool", "mm", mk(T((2, 3), "bool"), T((3, 4), "bool")))
_add("mm-nc", "mm", mk(NC((3, 2)), NC((2, 4))))
_add("mm-nc-f64", "mm", mk(NC((3, 5), "float64"), T((5, 2), "float64")))
_add("mm-nc-int", "mm", mk(NC((3, 5), "int64"), NC((5, 2), "int64")))
_add("mm-zero-k", "mm", mk(T((2, 0)), T((0, 4))))
_add("mm-zero-n", "mm", mk(T((0, 3)), T((3, 4))))
_add("mm-vec-shapes", "mm", mk(T((1, 5)), T((5, 1))))
_add("mm-err-shape", "mm", mk(T((2, 3)), T((4, 5))))
_add("mm-err-1d", "mm", mk(T((3,)), T((3, 4))))
_add("mm-err-1d-b", "mm", mk(T((2, 3)), T((3,))))
_add("mm-err-3d", "mm", mk(T((2, 2, 3)), T((3, 4))))
_add("mm-err-dtype", "mm", mk(T((2, 3)), T((3, 4), "float64")))
_add("mm-err-dtype-half", "mm", mk(T((2, 3), "float16"), T((3, 4))))
_add("mm-err-dtype-int", "mm", mk(T((2, 3), "int64"), T((3, 4), "int32")))
_add("mm-out", "mm.out", mk(T((2, 3)), T((3, 4)), out=EMPTY()))
_add("mm-out-resize", "mm.out", mk(T((2, 3)), T((3, 4)), out=EMPTY((2, 2))))
_add("mm-out-exact", "mm.out", mk(T((2, 3)), T((3, 4)), out=EMPTY((2, 4))))
_add("mm-out-dtype", "mm.out", mk(T((2, 3)), T((3, 4)), out=EMPTY((2, 4), "int64")))

_add("bmm-bool", "bmm", mk(T((1, 2, 3), "bool"), T((1, 3, 4), "bool")))
_add("bmm-nc", "bmm", mk(NC((2, 3, 2)), T((2, 2, 4))))
_add("bmm-nc-perm", "bmm", mk(lambda M, r: rand(M, r, (3, 2, 2)).permute(1, 0, 2), NC((2, 2, 3))))
_add("bmm-zero-batch", "bmm", mk(T((0, 2, 3)), T((0, 3, 4))))
_add("bmm-zero-k", "bmm", mk(T((2, 2, 0)), T((2, 0, 4))))
_add("bmm-err-2d", "bmm", mk(T((2, 3)), T((3, 4))))
_add("bmm-err-2d-b", "bmm", mk(T((2, 2, 3)), T((3, 4))))
_add("bmm-err-batch", "bmm", mk(T((2, 2, 3)), T((3, 3, 4))))
_add("bmm-err-k", "bmm", mk(T((2, 2, 3)), T((2, 4, 4))))
_add("bmm-err-dtype", "bmm", mk(T((2, 2, 3)), T((2, 3, 4), "float64")))
_add("bmm-err-dtype-b", "bmm", mk(T((2, 2, 3), "float64"), T((2, 3, 4))))
_add("bmm-out", "bmm.out", mk(T((2, 2, 3)), T((2, 3, 4)), out=EMPTY()))

# ----------------------------------------------------------------------------- addmm

for _dt in NUM_DTYPES:
    _add(f"addmm-{_dt}", "addmm", mk(T((4,), _dt), T((2, 3), _dt), T((3, 4), _dt)))
_add("addmm-bool", "addmm", mk(T((4,), "bool"), T((2, 3), "bool"), T((3, 4), "bool")))
_add("addmm-self2d", "addmm", mk(T((2, 4)), T((2, 3)), T((3, 4))))
_add("addmm-self-row", "addmm", mk(T((1, 4)), T((2, 3)), T((3, 4))))
_add("addmm-self-col", "addmm", mk(T((2, 1)), T((2, 3)), T((3, 4))))
_add("addmm-self0d", "addmm", mk(Z(), T((2, 3)), T((3, 4))))
_add("addmm-beta-alpha", "addmm", mk(T((2, 4)), T((2, 3)), T((3, 4)), beta=0.5, alpha=-2.0))
_add("addmm-alpha-int", "addmm", mk(T((4,)), T((2, 3)), T((3, 4)), alpha=3))
_add("addmm-beta0-nan", "addmm", mk(NAN((2, 4)), T((2, 3)), T((3, 4)), beta=0))
_add("addmm-beta0-f16", "addmm", mk(NAN((2, 4)), T((2, 3)), T((3, 4)), beta=0, alpha=2))
_add(
    "addmm-int-ab",
    "addmm",
    mk(T((4,), "int64"), T((2, 3), "int64"), T((3, 4), "int64"), beta=2, alpha=3),
)
_add(
    "addmm-int-float-alpha",
    "addmm",
    mk(T((4,), "int64"), T((2, 3), "int64"), T((3, 4), "int64"), alpha=1.5),
)
_add(
    "addmm-f16-ab",
    "addmm",
    mk(T((2, 4), "float16"), T((2, 3), "float16"), T((3, 4), "float16"), beta=0.5, alpha=2.0),
)
_add("addmm-nc", "addmm", mk(NC((2, 4)), NC((2, 3)), NC((3, 4))))
_add("addmm-zero-k", "addmm", mk(T((2, 4)), T((2, 0)), T((0, 4))))
_add("addmm-err-self", "addmm", mk(T((3,)), T((2, 3)), T((3, 4))))
_add("addmm-err-self3d", "addmm", mk(T((3, 2, 4)), T((2, 3)), T((3, 4))))
_add("addmm-err-dtype-self", "addmm", mk(T((4,), "float64"), T((2, 3)), T((3, 4))))
_add("addmm-err-dtype-mat1", "addmm", mk(T((4,)), T((2, 3), "float64"), T((3, 4))))
_add("addmm-err-dtype-mat2", "addmm", mk(T((4,)), T((2, 3)), T((3, 4), "float64")))
_add("addmm-err-shape", "addmm", mk(T((4,)), T((2, 3)), T((5, 4))))
_add("addmm-err-1d", "addmm", mk(T((4,)), T((3,)), T((3, 4))))
_add("addmm-err-1d-b", "addmm", mk(T((4,)), T((2, 3)), T((3,))))
_add("addmm_-basic", "addmm_", mk(T((2, 4)), T((2, 3)), T((3, 4)), beta=0.5))
_add("addmm_-err-bcast", "addmm_", mk(T((4,)), T((2, 3)), T((3, 4))))
_add("addmm-out", "addmm.out", mk(T((4,)), T((2, 3)), T((3, 4)), alpha=2, out=EMPTY()))

# ----------------------------------------------------------------------------- addmv / mv

for _dt in NUM_DTYPES:
    _add(f"addmv-{_dt}", "addmv", mk(T((2,), _dt), T((2, 3), _dt), T((3,), _dt)))
    _add(f"mv-{_dt}", "mv", mk(T((2, 3), _dt), T((3,), _dt)))
_add("addmv-bool", "addmv", mk(T((2,), "bool"), T((2, 3), "bool"), T((3,), "bool")))
_add("mv-bool", "mv", mk(T((2, 3), "bool"), T((3,), "bool")))
_add("addmv-self1", "addmv", mk(T((1,)), T((2, 3)), T((3,))))
_add("addmv-self0d", "addmv", mk(Z(), T((2, 3)), T((3,))))
_add("addmv-beta-alpha", "addmv", mk(T((2,)), T((2, 3)), T((3,)), beta=-1.0, alpha=0.25))
_add("addmv-beta0-nan", "addmv", mk(NAN((2,)), T((2, 3)), T((3,)), beta=0))
_add("addmv-nc", "addmv", mk(NC((2,)), NC((2, 3)), NC((3,))))
_add("addmv-err-size", "addmv", mk(T((3,)), T((2, 3)), T((3,))))
_add("addmv-err-vec", "addmv", mk(T((2,)), T((2, 3)), T((4,))))
_add("addmv-err-rank", "addmv", mk(T((2,)), T((2, 3, 1)), T((3,))))
_add("addmv-err-rank-vec", "addmv", mk(T((2,)), T((2, 3)), T((3, 1))))
_add("addmv-err-dtype", "addmv", mk(T((2,)), T((2, 3)), T((3,), "float64")))
_add("addmv_-basic", "addmv_", mk(T((2,)), T((2, 3)), T((3,)), alpha=2))
_add("addmv_-err-bcast", "addmv_", mk(T((1,)), T((2, 3)), T((3,))))
_add("addmv-out", "addmv.out", mk(T((2,)), T((2, 3)), T((3,)), out=EMPTY()))
_add("mv-nc", "mv", mk(NC((4, 3)), NC((3,))))
_add("mv-zero", "mv", mk(T((0, 3)), T((3,))))
_add("mv-zero-k", "mv", mk(T((2, 0)), T((0,))))
_add("mv-err-size", "mv", mk(T((2, 3)), T((4,))))
_add("mv-err-1d", "mv", mk(T((3,)), T((3,))))
_add("mv-err-2d", "mv", mk(T((2, 3)), T((3, 1))))
_add("mv-err-dtype", "mv", mk(T((2, 3)), T((3,), "float64")))
_add("mv-out", "mv.out", mk(T((2, 3)), T((3,)), out=EMPTY()))

# ----------------------------------------------------------------------------- baddbmm

for _dt in ("int32", "int64", "float16", "bfloat16", "float32", "float64"):
    _add(f"baddbmm-{_dt}", "baddbmm", mk(T((2, 2, 4), _dt), T((2, 2, 3), _dt), T((2, 3, 4), _dt)))
_add("baddbmm-bcast", "baddbmm", mk(T((4,)), T((2, 2, 3)), T((2, 3, 4))))
_add("baddbmm-bcast2", "baddbmm", mk(T((1, 2, 1)), T((2, 2, 3)), T((2, 3, 4))))
_add(
    "baddbmm-beta-alpha",
    "baddbmm",
    mk(T((2, 2, 4)), T((2, 2, 3)), T((2, 3, 4)), beta=2.0, alpha=0.5),
)
_add("baddbmm-beta0-nan", "baddbmm", mk(NAN((2, 2, 4)), T((2, 2, 3)), T((2, 3, 4)), beta=0))
_add("baddbmm-nc", "baddbmm", mk(NC((2, 2, 4)), NC((2, 2, 3)), NC((2, 3, 4))))
_add(
    "baddbmm-bool", "baddbmm", mk(T((1, 2, 4), "bool"), T((1, 2, 3), "bool"), T((1, 3, 4), "bool"))
)
_add("baddbmm-err-self", "baddbmm", mk(T((3,)), T((2, 2, 3)), T((2, 3, 4))))
_add("baddbmm-err-batch", "baddbmm", mk(T((2, 2, 4)), T((2, 2, 3)), T((3, 3, 4))))
_add("baddbmm-err-k", "baddbmm", mk(T((2, 2, 4)), T((2, 2, 3)), T((2, 4, 4))))
_add("baddbmm-err-dtype", "baddbmm", mk(T((2, 2, 4), "float64"), T((2, 2, 3)), T((2, 3, 4))))
_add("baddbmm-err-dtype-b2", "baddbmm", mk(T((2, 2, 4)), T((2, 2, 3)), T((2, 3, 4), "float64")))
_add("baddbmm_-basic", "baddbmm_", mk(T((2, 2, 4)), T((2, 2, 3)), T((2, 3, 4)), alpha=-1))
_add("baddbmm_-err-bcast", "baddbmm_", mk(T((4,)), T((2, 2, 3)), T((2, 3, 4))))
_add("baddbmm-out", "baddbmm.out", mk(T((4,)), T((2, 2, 3)), T((2, 3, 4)), out=EMPTY()))

# ----------------------------------------------------------------------------- dot / vdot

for _dt in NUM_DTYPES:
    _add(f"dot-{_dt}", "dot", mk(T((5,), _dt), T((5,), _dt)))
    _add(f"vdot-{_dt}", "vdot", mk(T((5,), _dt), T((5,), _dt)))
_add("dot-bool", "dot", mk(T((3,), "bool"), T((3,), "bool")))
_add("vdot-bool", "vdot", mk(T((3,), "bool"), T((3,), "bool")))
_add("dot-complex64", "dot", mk(T((4,), "complex64"), T((4,), "complex64")))
_add("vdot-complex64", "vdot", mk(T((4,), "complex64"), T((4,), "complex64")))
_add("dot-nc", "dot", mk(NC((5,)), NC((5,))))
_add("dot-empty", "dot", mk(T((0,)), T((0,))))
_add("dot-int8-wrap", "dot", mk(T((6,), "int8", 60, 120), T((6,), "int8", 60, 120)))
_add("dot-err-size", "dot", mk(T((3,)), T((4,))))
_add("dot-err-2d", "dot", mk(T((3, 1)), T((3,))))
_add("dot-err-2d-b", "dot", mk(T((3,)), T((3, 1))))
_add("dot-err-dtype", "dot", mk(T((3,)), T((3,), "float64")))
_add("vdot-err-size", "vdot", mk(T((3,)), T((4,))))
_add("vdot-err-dtype", "vdot", mk(T((3,)), T((3,), "float64")))
_add("dot-out", "dot.out", mk(T((3,)), T((3,)), out=EMPTY()))
_add("vdot-out", "vdot.out", mk(T((3,)), T((3,)), out=EMPTY()))

# ----------------------------------------------------------------------------- outer / ger

_add("outer-f32", "outer", mk(T((3,)), T((4,))))
_add("outer-int", "outer", mk(T((3,), "int64"), T((4,), "int64")))
_add("outer-promote", "outer", mk(T((3,), "int32"), T((4,))))
_add("outer-f64-f32", "outer", mk(T((3,), "float64"), T((4,))))
_add("outer-bool", "outer", mk(T((3,), "bool"), T((4,), "bool")))
_add("outer-nc", "outer", mk(NC((3,)), NC((4,))))
_add("outer-empty", "outer", mk(T((0,)), T((4,))))
_add("outer-err-2d", "outer", mk(T((3, 1)), T((3,))))
_add("outer-err-2d-b", "outer", mk(T((3,)), T((3, 1))))
_add("ger-f32", "ger", mk(T((3,)), T((4,))))
_add("ger-err", "ger", mk(T((3,)), T((3, 2))))

# ----------------------------------------------------------------------------- matmul

_MATMUL = {
    "1d1d": ((3,), (3,)),
    "2d1d": ((2, 3), (3,)),
    "1d2d": ((3,), (3, 4)),
    "2d2d": ((2, 3), (3, 4)),
    "3d2d": ((5, 2, 3), (3, 4)),
    "3d1d": ((5, 2, 3), (3,)),
    "4d2d": ((2, 3, 2, 3), (3, 4)),
    "1d3d": ((3,), (5, 3, 4)),
    "2d3d": ((2, 3), (5, 3, 4)),
    "3d3d": ((5, 2, 3), (5, 3, 4)),
    "4d4d": ((2, 2, 2, 3), (2, 2, 3, 4)),
    "bcast": ((2, 1, 2, 3), (3, 3, 4)),
    "4d3d": ((2, 3, 2, 3), (3, 3, 4)),
    "1d4d": ((3,), (2, 2, 3, 2)),
    "4d1d": ((2, 2, 2, 3), (3,)),
    "3d3d-b1": ((1, 2, 3), (4, 3, 2)),
    "zero-batch": ((0, 2, 3), (3, 4)),
    "zero-batch3d": ((0, 2, 3), (0, 3, 4)),
}
for _case, (_sa, _sb) in _MATMUL.items():
    _add(f"matmul-{_case}", "matmul", mk(T(_sa), T(_sb)))
_add("matmul-3d2d-nc", "matmul", mk(lambda M, r: rand(M, r, (5, 3, 2)).transpose(1, 2), T((3, 4))))
_add("matmul-3d2d-nc2", "matmul", mk(lambda M, r: rand(M, r, (2, 5, 3)).transpose(0, 1), T((3, 4))))
_add("matmul-2d2d-nc", "matmul", mk(NC((2, 3)), NC((3, 4))))
_add("matmul-int", "matmul", mk(T((2, 2, 3), "int64"), T((3, 4), "int64")))
_add("matmul-int3d", "matmul", mk(T((2, 2, 3), "int32"), T((2, 3, 4), "int32")))
_add("matmul-f16", "matmul", mk(T((2, 2, 3), "float16"), T((2, 3, 4), "float16")))
_add("matmul-bf16", "matmul", mk(T((2, 3), "bfloat16"), T((2, 3, 4), "bfloat16")))
_add("matmul-f64-1d", "matmul", mk(T((4,), "float64"), T((4,), "float64")))
_add("matmul-err-0d", "matmul", mk(Z(), T((3,))))
_add("matmul-err-0d-b", "matmul", mk(T((3,)), Z()))
_add("matmul-err-2d", "matmul", mk(T((2, 3)), T((4, 5))))
_add("matmul-err-1d", "matmul", mk(T((3,)), T((4,))))
_add("matmul-err-3d", "matmul", mk(T((5, 2, 3)), T((5, 4, 4))))
_add("matmul-err-bcast", "matmul", mk(T((5, 2, 3)), T((4, 3, 4))))
_add("matmul-err-dtype", "matmul", mk(T((2, 3)), T((3, 4), "float64")))
_add("matmul-err-dtype3d", "matmul", mk(T((5, 2, 3)), T((3, 4), "float64")))
_add("matmul-out-2d", "matmul.out", mk(T((2, 3)), T((3, 4)), out=EMPTY()))
_add("matmul-out-1d", "matmul.out", mk(T((3,)), T((3,)), out=EMPTY()))
_add("matmul-out-2d1d", "matmul.out", mk(T((2, 3)), T((3,)), out=EMPTY()))
_add("matmul-out-3d2d", "matmul.out", mk(T((5, 2, 3)), T((3, 4)), out=EMPTY()))
_add("matmul-out-3d3d", "matmul.out", mk(T((5, 2, 3)), T((5, 3, 4)), out=EMPTY()))
_add("matmul-out-bcast", "matmul.out", mk(T((2, 1, 2, 3)), T((3, 3, 4)), out=EMPTY()))
_add("matmul-out-3d1d", "matmul.out", mk(T((5, 2, 3)), T((3,)), out=EMPTY()))

# ----------------------------------------------------------------------------- linear

_add("linear-2d", "linear", mk(T((2, 3)), T((4, 3))))
_add("linear-2d-bias", "linear", mk(T((2, 3)), T((4, 3)), T((4,))))
_add("linear-3d", "linear", mk(T((5, 2, 3)), T((4, 3))))
_add("linear-3d-bias", "linear", mk(T((5, 2, 3)), T((4, 3)), T((4,))))
_add(
    "linear-3d-nc-bias",
    "linear",
    mk(lambda M, r: rand(M, r, (5, 3, 2)).transpose(1, 2), T((4, 3)), T((4,))),
)
_add("linear-4d-bias", "linear", mk(T((2, 2, 2, 3)), T((4, 3)), T((4,))))
_add("linear-1d", "linear", mk(T((3,)), T((4, 3))))
_add("linear-1d-bias", "linear", mk(T((3,)), T((4, 3)), T((4,))))
_add("linear-1d-weight", "linear", mk(T((2, 3)), T((3,))))
_add("linear-1d-weight-bias", "linear", mk(T((2, 3)), T((3,)), Z()))
_add("linear-3d-bias2d", "linear", mk(T((5, 2, 3)), T((4, 3)), T((2, 4))))
_add("linear-3d-bias-row", "linear", mk(T((5, 2, 3)), T((4, 3)), T((1, 4))))
_add("linear-2d-bias2d", "linear", mk(T((2, 3)), T((4, 3)), T((2, 4))))
_add("linear-zero", "linear", mk(T((0, 2, 3)), T((4, 3)), T((4,))))
_add("linear-f64", "linear", mk(T((2, 3), "float64"), T((4, 3), "float64"), T((4,), "float64")))
_add(
    "linear-bf16",
    "linear",
    mk(T((2, 2, 3), "bfloat16"), T((4, 3), "bfloat16"), T((4,), "bfloat16")),
)
_add("linear-int", "linear", mk(T((2, 3), "int64"), T((4, 3), "int64"), T((4,), "int64")))
_add("linear-w-nc", "linear", mk(T((2, 3)), NC((4, 3)), T((4,))))
_add("linear-err-0d", "linear", mk(Z(), T((4, 3))))
_add("linear-err-shape", "linear", mk(T((2, 3)), T((4, 5))))
_add("linear-err-shape3d", "linear", mk(T((5, 2, 3)), T((4, 5)), T((4,))))
_add("linear-err-bias", "linear", mk(T((2, 3)), T((4, 3)), T((3,))))
_add("linear-err-dtype", "linear", mk(T((2, 3)), T((4, 3), "float64")))
_add("linear-out", "linear.out", mk(T((2, 3)), T((4, 3)), T((4,)), out=EMPTY()))
_add("linear-out-nobias", "linear.out", mk(T((5, 2, 3)), T((4, 3)), out=EMPTY()))

# ----------------------------------------------------------------------------- einsum

_EINSUM = {
    "mm": ("ij,jk->ik", [(2, 3), (3, 4)]),
    "bmm": ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    "trace": ("ii", [(3, 3)]),
    "diag": ("ii->i", [(3, 3)]),
    "bdiag": ("bii->bi", [(2, 3, 3)]),
    "transpose": ("ij->ji", [(2, 3)]),
    "dot": ("i,i->", [(3,), (3,)]),
    "outer": ("i,j->ij", [(3,), (4,)]),
    "attn": ("bhqd,bhkd->bhqk", [(1, 2, 3, 4), (1, 2, 2, 4)]),
    "sum-all": ("ij->", [(2, 3)]),
    "sum-rows": ("ij->j", [(2, 3)]),
    "ellipsis": ("...ij,...jk", [(2, 2, 3), (2, 3, 4)]),
    "ellipsis-out": ("...ij,jk->...ik", [(2, 2, 3), (3, 4)]),
    "ellipsis-bcast": ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 2)]),
    "three": ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    "implicit": ("ij,jk", [(2, 3), (3, 4)]),
    "implicit-upper": ("Ab,bC", [(2, 3), (3, 2)]),
    "bcast1": ("ij,ij->ij", [(2, 1), (1, 3)]),
    "contract-bcast": ("ij,jk->ik", [(2, 1), (3, 4)]),
    "sum-other": ("ij,kl->ik", [(2, 3), (4, 2)]),
    "spaces": ("i j , j k -> i k", [(2, 3), (3, 4)]),
    "hadamard": ("ij,ij->ij", [(2, 3), (2, 3)]),
    "batch-outer": ("bi,bj->bij", [(2, 3), (2, 4)]),
}
for _case, (_eq, _shapes) in _EINSUM.items():
    _add(f"einsum-{_case}", "einsum", mk(_eq, [T(s) for s in _shapes]))
_add("einsum-int", "einsum", mk("ij,jk->ik", [T((2, 3), "int64"), T((3, 4), "int64")]))
_add("einsum-f64", "einsum", mk("bij,bjk->bik", [T((2, 2, 3), "float64"), T((2, 3, 4), "float64")]))
_add("einsum-nc", "einsum", mk("ij,jk->ik", [NC((2, 3)), NC((3, 4))]))
_add(
    "einsum-path",
    "einsum",
    mk("ij,jk,kl->il", [T((2, 3)), T((3, 4)), T((4, 2))], path=[1, 2, 0, 1]),
)
_add("einsum-err-size", "einsum", mk("ij,jk->ik", [T((2, 3)), T((4, 5))]))
_add("einsum-err-fewer", "einsum", mk("ij,jk", [T((2, 3))]))
_add("einsum-err-more", "einsum", mk("ij", [T((2, 3)), T((3, 4))]))
_add("einsum-err-subscripts", "einsum", mk("ijk", [T((2, 3))]))
_add("einsum-err-ellipsis-dims", "einsum", mk("...ijk", [T((2, 3))]))
_add("einsum-err-out-twice", "einsum", mk("ij->ii", [T((2, 3))]))
_add("einsum-err-out-unknown", "einsum", mk("ij->k", [T((2, 3))]))
_add("einsum-err-char", "einsum", mk("i1", [T((2, 3))]))
_add("einsum-err-diag", "einsum", mk("ii", [T((2, 3))]))
_add("einsum-err-dtype", "einsum", mk("ij,jk", [T((2, 3)), T((3, 4), "float64")]))
_add("einsum-err-empty", "einsum", mk("", []))
_add("einsum-err-path", "einsum", mk("ij,jk", [T((2, 3)), T((3, 4))], path=[0]))

# ----------------------------------------------------------------------------- tensordot

_add("tensordot-2", "tensordot", mk(T((2, 3, 4)), T((3, 4, 2)), [1, 2], [0, 1]))
_add("tensordot-neg", "tensordot", mk(T((2, 3, 4)), T((3, 4, 2)), [-2, -1], [0, 1]))
_add("tensordot-perm", "tensordot", mk(T((2, 3, 4)), T((4, 3, 2)), [1, 2], [1, 0]))
_add("tensordot-0", "tensordot", mk(T((2, 3)), T((4,)), [], []))
_add("tensordot-1", "tensordot", mk(T((2, 3)), T((3, 4)), [1], [0]))
_add("tensordot-bcast", "tensordot", mk(T((2, 1)), T((3, 4)), [1], [0]))
_add("tensordot-int", "tensordot", mk(T((2, 3), "int64"), T((3, 2), "int64"), [1], [0]))
_add("tensordot-err-dtype", "tensordot", mk(T((2, 3)), T((3, 4), "float64"), [1], [0]))
_add("tensordot-err-size", "tensordot", mk(T((2, 3)), T((4, 4)), [1], [0]))
_add("tensordot-err-len", "tensordot", mk(T((2, 3)), T((3, 4)), [1], [0, 1]))

del tensor
