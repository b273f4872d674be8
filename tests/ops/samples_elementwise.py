"""Samples of the elementwise operators (see tests/ops/harness.py).

Every operator gets: each dtype, broadcasting, non-contiguous, zero-size and zero-dim inputs,
special values (nan, inf, -0.0), Python scalars, and its in-place and out= forms with their
errors (result dtype not castable to self/out, broadcast shape not self's shape, out resized).
Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from tests.ops.harness import ALL_DTYPES, INT_DTYPES, Sample, array, noncontig, rand, tensor

SAMPLES: list[Sample] = []
Make = Callable[[Any, np.random.Generator], tuple[tuple[Any, ...], dict[str, Any]]]

SPECIAL = [
    float("nan"),
    float("inf"),
    float("-inf"),
    0.0,
    -0.0,
    1e-7,
    -1e-7,
    0.25,
    -0.25,
    0.5,
    -0.5,
    1.0,
    -1.0,
    1.5,
    -2.5,
    2.5,
    3.5,
    -3.5,
    7.0,
    20.0,
    -20.0,
    60.0,
    -60.0,
    100.0,
    -100.0,
]
INT_EXTREMES = {
    "uint8": [0, 1, 2, 127, 128, 200, 255],
    "int8": [-128, -127, -1, 0, 1, 64, 127],
    "int16": [-32768, -1, 0, 1, 200, 32767],
    "int32": [-(2**31), -1, 0, 1, 65536, 2**31 - 1],
    "int64": [-(2**63), -1, 0, 1, 2**40, 2**63 - 1],
}


DIVISION_OPS = ("div", "remainder", "fmod", "floor_divide")


def _add(sid: str, op: str, make: Make, **kw: Any) -> None:
    if op.split(".")[0].rstrip("_") in DIVISION_OPS and re.search(r"-zero(-|$)|-extreme-", sid):
        # integer division by zero raises in the kernel: no meta error to compare
        kw.setdefault("tags", ("no_meta",))
    SAMPLES.append(Sample(sid, op, make, **kw))


def special(
    M: Any, dtype: str = "float32", values: list[float] | None = None, roll: int = 0
) -> Any:
    vals = np.roll(np.array(SPECIAL if values is None else values, dtype=np.float64), roll)
    if dtype == "bfloat16":
        return tensor(M, vals.astype(np.float32), "bfloat16")
    return tensor(M, vals.astype(dtype))


def extremes(M: Any, dtype: str, flip: bool = False) -> Any:
    vals = INT_EXTREMES[dtype][::-1] if flip else INT_EXTREMES[dtype]
    return tensor(M, np.array(vals, dtype=dtype))


def empty_out(M: Any, dtype: str = "float32", shape: tuple[int, ...] = (0,)) -> Any:
    return M.empty(shape, dtype=getattr(M, dtype))


def zerodim(M: Any, r: np.random.Generator, dt: str, low: float = -3, high: float = 3) -> Any:
    """A 0-dim tensor (harness.tensor turns 0-d arrays into shape (1,))."""
    v = array(r, (), "float32" if dt == "bfloat16" else dt, low, high)
    return M.tensor(v.item(), dtype=getattr(M, dt))


def _ctor(spec: Any) -> Callable[[Any, np.random.Generator], Any]:
    """A tensor maker from a spec: (shape, dtype[, lo, hi]) / ("nc", shape, dtype) / callable /
    a Python scalar (returned as is)."""
    if callable(spec):
        return spec
    if isinstance(spec, tuple) and spec and spec[0] == "nc":
        _, shape, dt, *rng_ = spec
        return lambda M, r: noncontig(M, r, shape, dt, *rng_)
    if isinstance(spec, tuple) and spec and isinstance(spec[0], tuple):
        shape, dt, *rng_ = spec
        if shape == ():
            return lambda M, r: zerodim(M, r, dt, *rng_)
        return lambda M, r: rand(M, r, shape, dt, *rng_)
    return lambda M, r: spec


def _nonzero(
    M: Any,
    r: np.random.Generator,
    shape: tuple[int, ...],
    dt: str,
    low: float = -3,
    high: float = 3,
) -> Any:
    """Random values without zeros (divisors of integer division)."""
    a = array(r, shape, "float32" if dt == "bfloat16" else dt, low, high)
    a[a == 0] = 1
    return tensor(M, a, dt)


def mk_nonzero(*specs: Any, **kwspecs: Any) -> Make:
    """mk, with the second argument free of zeros when it is a random tensor spec."""
    specs_ = list(specs)
    if len(specs_) > 1:
        spec = specs_[1]
        if isinstance(spec, tuple) and spec and isinstance(spec[0], tuple):
            shape, dt, *rng_ = spec
            if shape == ():
                specs_[1] = lambda M, r: M.tensor(
                    _nonzero(M, r, (1,), dt, *rng_).tolist()[0], dtype=getattr(M, dt)
                )
            else:
                specs_[1] = lambda M, r: _nonzero(M, r, shape, dt, *rng_)
    return mk(*specs_, **kwspecs)


def mk(*specs: Any, **kwspecs: Any) -> Make:
    makers = [_ctor(s) for s in specs]
    kwmakers = {k: _ctor(v) for k, v in kwspecs.items()}

    def make(M: Any, r: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return tuple(m(M, r) for m in makers), {k: m(M, r) for k, m in kwmakers.items()}

    return make


# ============================================================================ unary operators

# name -> (low, high) of the random inputs; complex: also run complex64
UNARY_FLOAT = {
    "exp": (-4, 4),
    "exp2": (-4, 4),
    "expm1": (-4, 4),
    "log": (0.05, 5),
    "log1p": (-0.9, 5),
    "log2": (0.05, 5),
    "log10": (0.05, 5),
    "sqrt": (0, 5),
    "rsqrt": (0.05, 5),
    "reciprocal": (0.2, 3),
    "sin": (-4, 4),
    "cos": (-4, 4),
    "tan": (-1.4, 1.4),
    "tanh": (-3, 3),
    "sigmoid": (-6, 6),
    "erf": (-3, 3),
    "erfc": (-3, 3),
    "asin": (-1, 1),
    "acos": (-1, 1),
    "atan": (-4, 4),
    "sinh": (-3, 3),
    "cosh": (-3, 3),
    "asinh": (-4, 4),
    "acosh": (1, 5),
    "atanh": (-0.95, 0.95),
}
UNARY_COMPLEX = {"exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal", "rsqrt"}
# Same-dtype unary ops (ints/bool kept, or PyTorch's error for them).
UNARY_SAME = {
    "abs": (-3, 3),
    "neg": (-3, 3),
    "sign": (-3, 3),
    "sgn": (-3, 3),
    "floor": (-3, 3),
    "ceil": (-3, 3),
    "round": (-3, 3),
    "trunc": (-3, 3),
    "frac": (-3, 3),
    "relu": (-3, 3),
    "bitwise_not": (-3, 3),
    "logical_not": (-3, 3),
    "isnan": (-3, 3),
    "isinf": (-3, 3),
    "isfinite": (-3, 3),
    "signbit": (-3, 3),
    "isposinf": (-3, 3),
    "isneginf": (-3, 3),
}
UNARY_SAME_COMPLEX = {"abs", "neg", "sgn", "sign", "isnan", "isinf", "isfinite", "logical_not"}
# Activation-like unary ops computing in floating point only.
UNARY_ACT = {
    "silu": (-6, 6),
    "mish": (-6, 6),
    "hardsigmoid": (-5, 5),
    "hardswish": (-5, 5),
    "gelu": (-4, 4),
    "softplus": (-5, 25),
    "elu": (-3, 3),
    "celu": (-3, 3),
    "leaky_relu": (-3, 3),
    "hardtanh": (-3, 3),
    "logit": (0.02, 0.98),
}
NO_INPLACE = {"isnan", "isinf", "isfinite", "signbit", "isposinf", "isneginf", "softplus"}
NO_OUT = {"isfinite"}
# ops whose in-place form PyTorch names differently/lacks in our table
UNARY_ALL = {**UNARY_FLOAT, **UNARY_SAME, **UNARY_ACT}


#: Unary ops sampled in full; the others get the essential cases.
UNARY_FULL = {
    "exp",
    "log",
    "sqrt",
    "rsqrt",
    "reciprocal",
    "sigmoid",
    "tanh",
    "erf",
    "abs",
    "neg",
    "sign",
    "sgn",
    "round",
    "relu",
    "gelu",
    "silu",
    "bitwise_not",
    "floor",
}


def _unary(name: str, lo: float, hi: float, cplx: bool) -> None:
    op = name
    full = name in UNARY_FULL
    for dt in ALL_DTYPES:
        _add(f"{name}-{dt}", op, mk(((3, 4), dt, lo, hi)))
    if cplx:
        _add(f"{name}-complex64", op, mk(((5,), "complex64", lo, hi)))
    _add(f"{name}-noncontig", op, mk(("nc", (3, 4), "float32", lo, hi)))
    _add(f"{name}-empty", op, mk(((0, 3), "float32")))
    _add(f"{name}-zerodim", op, mk(((), "float32", lo, hi)))
    _add(f"{name}-special32", op, mk(lambda M, r: special(M, "float32")))
    _add(f"{name}-special16", op, mk(lambda M, r: special(M, "float16")))
    _add(f"{name}-specialbf16", op, mk(lambda M, r: special(M, "bfloat16")))
    if full:
        _add(f"{name}-noncontig3d", op, mk(("nc", (2, 3, 2), "float64", lo, hi)))
        _add(f"{name}-empty1d", op, mk(((0,), "int64")))
        _add(f"{name}-zerodim-int", op, mk(((), "int64", lo, hi)))
        _add(f"{name}-special64", op, mk(lambda M, r: special(M, "float64")))
    if name in UNARY_SAME:
        for idt in INT_DTYPES if full else ("uint8", "int8"):
            _add(f"{name}-extreme-{idt}", op, mk(lambda M, r, d=idt: extremes(M, d)))
    if name not in NO_INPLACE:
        _add(f"{name}_-f32", f"{name}_", mk(((3, 4), "float32", lo, hi)))
        _add(f"{name}_-int", f"{name}_", mk(((5,), "int64", lo, hi)))
        _add(f"{name}_-bool", f"{name}_", mk(((5,), "bool")))
        if full:
            _add(f"{name}_-noncontig", f"{name}_", mk(("nc", (3, 4), "float32", lo, hi)))
            _add(f"{name}_-f16", f"{name}_", mk(((5,), "float16", lo, hi)))
    if name not in NO_OUT:
        _add(
            f"{name}-out",
            f"{name}.out",
            mk(((3, 4), "float32", lo, hi), out=lambda M, r: empty_out(M, "float32", (3, 4))),
        )
        _add(
            f"{name}-out-resize",
            f"{name}.out",
            mk(((2, 3), "float64", lo, hi), out=lambda M, r: empty_out(M, "float64")),
        )
        _add(
            f"{name}-out-int",
            f"{name}.out",
            mk(((4,), "float32", lo, hi), out=lambda M, r: empty_out(M, "int64", (4,))),
        )
        _add(
            f"{name}-out-intin",
            f"{name}.out",
            mk(((4,), "int32", lo, hi), out=lambda M, r: empty_out(M, "float64", (4,))),
        )
        if full:
            _add(
                f"{name}-out-nonempty",
                f"{name}.out",
                mk(((4,), "float32", lo, hi), out=lambda M, r: M.zeros(3)),
            )
            _add(
                f"{name}-out-bool",
                f"{name}.out",
                mk(((4,), "float32", lo, hi), out=lambda M, r: empty_out(M, "bool", (4,))),
            )
            _add(
                f"{name}-out-noncontig",
                f"{name}.out",
                mk(((4, 3), "float32", lo, hi), out=lambda M, r: M.zeros(3, 4).t()),
            )


for _n, (_lo, _hi) in UNARY_ALL.items():
    _unary(_n, _lo, _hi, _n in UNARY_COMPLEX or _n in UNARY_SAME_COMPLEX)

# -- unary ops with parameters
_P = (-3, 3)
for _sid, _op, _args, _kw in (
    ("gelu-tanh", "gelu", (), {"approximate": "tanh"}),
    ("gelu-tanh-f64", "gelu", (), {"approximate": "tanh"}),
    ("gelu-bad", "gelu", (), {"approximate": "fast"}),
    ("gelu_-tanh", "gelu_", (), {"approximate": "tanh"}),
    ("gelu-out-tanh", "gelu.out", (), {"approximate": "tanh"}),
    ("leaky_relu-slope", "leaky_relu", (0.2,), {}),
    ("leaky_relu-slope-int", "leaky_relu", (2,), {}),
    ("leaky_relu_-slope", "leaky_relu_", (0.3,), {}),
    ("hardtanh-range", "hardtanh", (-0.5, 2.0), {}),
    ("hardtanh-int-range", "hardtanh", (0, 2), {}),
    ("hardtanh_-range", "hardtanh_", (-2, 0.5), {}),
    ("hardtanh-inverted", "hardtanh", (2.0, -1.0), {}),
    ("softplus-beta", "softplus", (2, 3), {}),
    ("softplus-beta-float", "softplus", (0.5, 1.5), {}),
    ("elu-params", "elu", (0.5, 2.0, 1.5), {}),
    ("elu_-params", "elu_", (1.2, 1.0, 0.5), {}),
    ("celu-alpha", "celu", (2.0,), {}),
    ("celu-alpha0", "celu", (0.0,), {}),
    ("celu_-alpha", "celu_", (0.5,), {}),
    ("logit-eps", "logit", (0.1,), {}),
    ("logit-eps-neg", "logit", (-0.1,), {}),
    ("logit_-eps", "logit_", (0.05,), {}),
    ("threshold-basic", "threshold", (0.5, -7.0), {}),
    ("threshold-int", "threshold", (1, 20), {}),
    ("threshold_-basic", "threshold_", (0.0, 3.0), {}),
    ("round-decimals2", "round.decimals", (), {"decimals": 2}),
    ("round-decimals-neg", "round.decimals", (), {"decimals": -1}),
    ("round-decimals0", "round.decimals", (), {"decimals": 0}),
    ("round_-decimals", "round_.decimals", (), {"decimals": 1}),
    ("nan_to_num-default", "nan_to_num", (), {}),
    ("nan_to_num-values", "nan_to_num", (1.5, 100.0, -100.0), {}),
    ("nan_to_num-posonly", "nan_to_num", (None, 7.0), {}),
    ("nan_to_num_-values", "nan_to_num_", (0.5, 2.0, -2.0), {}),
):
    _lo, _hi = (-0.5, 1.5) if _op.startswith("logit") else (-30, 30) if "round" in _op else _P
    _dt = "float64" if _sid.endswith("f64") else "float32"
    if _op.startswith("nan_to_num"):
        _make = (lambda a, k: lambda M, r: ((special(M), *a), dict(k)))(_args, _kw)
    elif _sid.endswith("-int") or _sid.endswith("int-range"):
        _make = mk(((3, 4), "int64", -3, 3), *_args, **_kw)
    else:
        _make = mk(((3, 4), _dt, _lo, _hi), *_args, **_kw)
    if _op.endswith(".out"):
        _k = dict(_kw)
        _make = (
            lambda k: (
                lambda M, r: (
                    (rand(M, r, (3, 4), "float32"),),
                    {**k, "out": empty_out(M, "float32", (3, 4))},
                )
            )
        )(_k)
    _add(_sid, _op, _make)

for _dt in ("float64", "float16", "bfloat16", "int64", "int8", "uint8", "bool"):
    _add(f"round-decimals-{_dt}", "round.decimals", mk(((6,), _dt, -30, 30), decimals=1))
    _add(
        f"nan_to_num-{_dt}",
        "nan_to_num",
        mk(
            lambda M, r, d=_dt: (
                special(M, d) if d in ("float64", "float16", "bfloat16") else rand(M, r, (5,), d)
            )
        ),
    )
    _add(f"threshold-{_dt}", "threshold", mk(((6,), _dt), 0, 2))
    _add(f"hardtanh-01-{_dt}", "hardtanh", mk(((6,), _dt), 0, 1))
_add(
    "round-halfway",
    "round",
    mk(lambda M, r: special(M, "float32", [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 1e20])),
)
_add(
    "round-decimals-halfway",
    "round.decimals",
    mk(lambda M, r: special(M, "float64", [0.125, 0.375, -0.125, 1.005, 2.675, 1e300]), decimals=2),
)
_add("round-decimals-big", "round.decimals", mk(((5,), "float32"), decimals=40))
_add("round-decimals-int-nonzero", "round.decimals", mk(((5,), "int64"), decimals=2))
_add(
    "nan_to_num-out",
    "nan_to_num.out",
    lambda M, r: ((special(M),), {"nan": 3.0, "out": empty_out(M, "float32", (len(SPECIAL),))}),
)
_add("logit-special", "logit", mk(lambda M, r: special(M, "float32", [0, 1, 0.5, -1, 2, 1e-8])))
_add("logit-special-eps", "logit", mk(lambda M, r: special(M, "float32", [0, 1, 0.5, -1, 2]), 0.25))
_add("softplus-large", "softplus", mk(lambda M, r: special(M, "float32")))
_add("softplus-beta-special", "softplus", mk(lambda M, r: special(M, "float64"), 2, 5))

# ============================================================================ binary operators

NUMBERS_AS_TENSORS = {"add", "sub", "mul", "div", "floor_divide"}
PYSCALARS = [
    (2, "float32"),
    (2, "int64"),
    (-3, "uint8"),
    (1000, "int8"),
    (2.5, "float32"),
    (2.5, "int64"),
    (0.1, "float16"),
    (0.1, "bfloat16"),
    (True, "bool"),
    (True, "float32"),
    (2, "bool"),
    (2.5, "bool"),
    (-1, "int16"),
]
PYSCALARS_LITE = [
    (2, "float32"),
    (2, "int64"),
    (1000, "int8"),
    (2.5, "int64"),
    (0.1, "float16"),
    (True, "bool"),
    (2.5, "bool"),
]
BIN_TYPES_LITE = [
    ("bool", "bool"),
    ("uint8", "uint8"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("float16", "float16"),
    ("bfloat16", "bfloat16"),
    ("float32", "float32"),
    ("float64", "float64"),
    ("uint8", "int8"),
    ("int32", "float16"),
    ("float16", "bfloat16"),
    ("int64", "float32"),
]
BIN_TYPES = [
    ("bool", "bool"),
    ("uint8", "uint8"),
    ("int8", "int8"),
    ("int16", "int16"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("float16", "float16"),
    ("bfloat16", "bfloat16"),
    ("float32", "float32"),
    ("float64", "float64"),
    ("uint8", "int8"),
    ("int32", "float16"),
    ("float16", "bfloat16"),
    ("bool", "int16"),
    ("int64", "float32"),
    ("float32", "float64"),
    ("bfloat16", "int64"),
    ("uint8", "bool"),
]


def _binary(
    name: str,
    *,
    lo: float = -3,
    hi: float = 3,
    scalar_op: str | None = None,
    alpha: bool = False,
    inplace: bool = True,
    out: str | None = "out",
    scalar_out: str | None = None,
    inplace_scalar: str | None = None,
    cplx: bool = False,
    tensor_op: str | None = None,
    ip_op: str | None = None,
    full: bool = False,
    nz: bool = False,
) -> None:
    """Samples of a binary op with a Tensor overload `tensor_op` and Scalar overload."""
    mk_ = mk_nonzero if nz else mk
    top = tensor_op or f"{name}.Tensor"
    ip = ip_op or (f"{name}_.Tensor" if "." in top else f"{name}_")
    for a, b in BIN_TYPES if full else BIN_TYPES_LITE:
        _add(f"{name}-{a}-{b}", top, mk_(((3, 4), a, lo, hi), ((3, 4), b, lo, hi)))
    if cplx:
        _add(
            f"{name}-complex64", top, mk_(((4,), "complex64", lo, hi), ((4,), "complex64", lo, hi))
        )
        _add(
            f"{name}-complex-float",
            top,
            mk_(((4,), "complex64", lo, hi), ((4,), "float64", lo, hi)),
        )
    _add(f"{name}-broadcast", top, mk_(((3, 1), "float32", lo, hi), ((1, 4), "float32", lo, hi)))
    if full:
        _add(
            f"{name}-broadcast3d", top, mk_(((2, 1, 4), "int32", lo, hi), ((3, 1), "int64", lo, hi))
        )
    _add(
        f"{name}-broadcast-rank",
        top,
        mk_(((4,), "float64", lo, hi), ((2, 3, 4), "float32", lo, hi)),
    )
    if full:
        _add(
            f"{name}-noncontig",
            top,
            mk_(("nc", (3, 4), "float32", lo, hi), ("nc", (3, 4), "float32", lo, hi)),
        )
    _add(
        f"{name}-noncontig-mixed",
        top,
        mk_(("nc", (3, 4), "float32", lo, hi), ((3, 4), "float32", lo, hi)),
    )
    if full:
        _add(
            f"{name}-noncontig-second",
            top,
            mk_(((3, 4), "float32", lo, hi), ("nc", (3, 4), "float32", lo, hi)),
        )
    _add(
        f"{name}-noncontig3d",
        top,
        mk_(("nc", (2, 3, 2), "int32", lo, hi), ((2, 3, 2), "int32", lo, hi)),
    )
    _add(f"{name}-empty", top, mk_(((0, 3), "float32"), ((1, 3), "float32")))
    if full:
        _add(f"{name}-empty-broadcast", top, mk_(((0, 1), "int64"), ((4,), "int64")))
    if full:
        _add(f"{name}-zerodim", top, mk_(((), "float32", lo, hi), ((), "float64", lo, hi)))
    _add(f"{name}-dim-zerodim", top, mk_(((4,), "float32", lo, hi), ((), "float64", lo, hi)))
    _add(f"{name}-zerodim-dim", top, mk_(((), "float64", lo, hi), ((4,), "float16", lo, hi)))
    _add(f"{name}-int-zerodimfloat", top, mk_(((4,), "int32", lo, hi), ((), "float64", lo, hi)))
    if full:
        _add(f"{name}-uint8-zerodimint", top, mk_(((4,), "uint8", lo, hi), ((), "int64", lo, hi)))
    if full:
        _add(f"{name}-bool-zerodimint", top, mk_(((4,), "bool"), ((), "int32", lo, hi)))
    _add(
        f"{name}-special",
        top,
        mk_(lambda M, r: special(M, "float32"), lambda M, r: special(M, "float32", SPECIAL[::-1])),
    )
    if full:
        _add(
            f"{name}-special-f64",
            top,
            mk_(lambda M, r: special(M, "float64"), lambda M, r: special(M, "float64", roll=3)),
        )
    if full:
        _add(
            f"{name}-special-f16",
            top,
            mk_(lambda M, r: special(M, "float16"), lambda M, r: special(M, "float16", roll=5)),
        )
    _add(f"{name}-mismatch", top, mk_(((3,), "float32"), ((4,), "float32")))
    for idt in INT_DTYPES if full else ("int8", "int64"):
        _add(
            f"{name}-extreme-{idt}",
            top,
            mk_(lambda M, r, d=idt: extremes(M, d), lambda M, r, d=idt: extremes(M, d, True)),
        )
    # Python scalars: PyTorch's op call accepts numbers for Tensor arguments of a few ops only
    # (add, sub, mul, div, floor_divide); the others take them through their Scalar overload.
    numbers_ok = name in NUMBERS_AS_TENSORS
    sop = top if numbers_ok else scalar_op
    if sop:
        for sv, dt in PYSCALARS if full else PYSCALARS_LITE:
            _add(f"{name}-pyscalar-{dt}-{sv}", sop, mk_(((5,), dt, lo, hi), sv))
        _add(f"{name}-pyscalar-complex", sop, mk_(((4,), "float32", lo, hi), 1.5 + 2j))
        _add(f"{name}-pyscalar-nan", sop, mk_(((4,), "float32", lo, hi), float("nan")))
        if full:
            _add(f"{name}-pyscalar-inf", sop, mk_(((4,), "float64", lo, hi), float("inf")))
        if full:
            _add(f"{name}-pyscalar-zero-int", sop, mk_(((4,), "int64", lo, hi), 0))
        if full:
            _add(f"{name}-pyscalar-zero-float", sop, mk_(((4,), "float32", lo, hi), 0.0))
        if full:
            _add(f"{name}-pyscalar-huge", sop, mk_(((4,), "int64", lo, hi), 2**62))
        _add(f"{name}-pyscalar-zerodim", sop, mk_(((), "int32", lo, hi), 3.5))
    if numbers_ok:
        _add(f"{name}-pyscalar-first", top, mk_(2, ((4,), "float32", lo, hi)))
        if scalar_op:
            for sv, dt in ((2, "float32"), (2.5, "int64"), (True, "bool"), (0.5, "float16")):
                _add(f"{name}-Scalar-{dt}-{sv}", scalar_op, mk_(((5,), dt, lo, hi), sv))
    if scalar_op:
        _add(f"{name}-Scalar-zerodim", scalar_op, mk_(((), "int32", lo, hi), 2.0))
    if alpha:
        for av, dt in (
            (2, "float32"),
            (0.5, "float32"),
            (-1, "int64"),
            (1.5, "int64"),
            (True, "bool"),
            (False, "bool"),
            (True, "float32"),
            (3, "bool"),
            (0.25, "float16"),
            (0.25, "bfloat16"),
            (1.0, "float32"),
        ):
            _add(
                f"{name}-alpha-{dt}-{av}",
                top,
                mk_(((5,), dt, lo, hi), ((5,), dt, lo, hi), alpha=av),
            )
        if numbers_ok:
            _add(f"{name}-alpha-scalar", top, mk_(((5,), "float32", lo, hi), 3, alpha=2))
        if scalar_op:
            _add(f"{name}-Scalar-alpha", scalar_op, mk_(((5,), "float32", lo, hi), 3, 2))
    if inplace:
        _add(f"{name}_-same", ip, mk_(((3, 4), "float32", lo, hi), ((3, 4), "float32", lo, hi)))
        if full:
            _add(
                f"{name}_-broadcast",
                ip,
                mk_(((3, 4), "float64", lo, hi), ((4,), "float32", lo, hi)),
            )
        _add(
            f"{name}_-bad-shape", ip, mk_(((1, 4), "float32", lo, hi), ((3, 4), "float32", lo, hi))
        )
        _add(f"{name}_-int-float", ip, mk_(((4,), "int64", lo, hi), ((4,), "float32", lo, hi)))
        if full:
            _add(f"{name}_-float-int", ip, mk_(((4,), "float32", lo, hi), ((4,), "int64", lo, hi)))
        if full:
            _add(f"{name}_-int-int", ip, mk_(((4,), "int32", lo, hi), ((4,), "int64", lo, hi)))
        if full:
            _add(f"{name}_-bool-int", ip, mk_(((4,), "bool"), ((4,), "int64", lo, hi)))
        if full:
            _add(f"{name}_-f16-f32", ip, mk_(((4,), "float16", lo, hi), ((4,), "float32", lo, hi)))
        _add(
            f"{name}_-noncontig",
            ip,
            mk_(("nc", (3, 4), "float32", lo, hi), ((3, 4), "float32", lo, hi)),
        )
        if numbers_ok:
            _add(f"{name}_-pyscalar", ip, mk_(((4,), "float32", lo, hi), 3))
            _add(f"{name}_-pyscalar-float-int", ip, mk_(((4,), "int64", lo, hi), 2.5))
            _add(f"{name}_-pyscalar-int", ip, mk_(((4,), "int16", lo, hi), 3))
        _add(f"{name}_-zerodim", ip, mk_(((), "float32", lo, hi), ((4,), "float32", lo, hi)))
        if alpha:
            _add(
                f"{name}_-alpha",
                ip,
                mk_(((4,), "float32", lo, hi), ((4,), "float32", lo, hi), alpha=2),
            )
    if inplace_scalar:
        _add(f"{name}_-Scalar", inplace_scalar, mk_(((4,), "float32", lo, hi), 2))
        _add(f"{name}_-Scalar-int-float", inplace_scalar, mk_(((4,), "int32", lo, hi), 1.5))
    if out:
        _add(
            f"{name}-out",
            f"{name}.{out}",
            mk_(
                ((3, 4), "float32", lo, hi),
                ((3, 4), "float32", lo, hi),
                out=lambda M, r: empty_out(M, "float32", (3, 4)),
            ),
        )
        _add(
            f"{name}-out-resize",
            f"{name}.{out}",
            mk_(
                ((2, 1), "float64", lo, hi),
                ((3,), "float64", lo, hi),
                out=lambda M, r: empty_out(M, "float64"),
            ),
        )
        _add(
            f"{name}-out-int",
            f"{name}.{out}",
            mk_(
                ((4,), "float32", lo, hi),
                ((4,), "float32", lo, hi),
                out=lambda M, r: empty_out(M, "int32", (4,)),
            ),
        )
        _add(
            f"{name}-out-bool",
            f"{name}.{out}",
            mk_(
                ((4,), "int32", lo, hi),
                ((4,), "int32", lo, hi),
                out=lambda M, r: empty_out(M, "bool", (4,)),
            ),
        )
        if full:
            _add(
                f"{name}-out-wider",
                f"{name}.{out}",
                mk_(
                    ((4,), "int32", lo, hi),
                    ((4,), "int32", lo, hi),
                    out=lambda M, r: empty_out(M, "float64", (4,)),
                ),
            )
        if full:
            _add(
                f"{name}-out-noncontig",
                f"{name}.{out}",
                mk_(
                    ((4, 3), "float32", lo, hi),
                    ((4, 3), "float32", lo, hi),
                    out=lambda M, r: M.zeros(3, 4).t(),
                ),
            )
        if alpha:
            _add(
                f"{name}-out-alpha",
                f"{name}.{out}",
                mk_(
                    ((4,), "float32", lo, hi),
                    ((4,), "float32", lo, hi),
                    alpha=3,
                    out=lambda M, r: empty_out(M, "float32", (4,)),
                ),
            )
    if scalar_out:
        _add(
            f"{name}-Scalar-out",
            f"{name}.{scalar_out}",
            mk_(((4,), "float32", lo, hi), 2, out=lambda M, r: empty_out(M, "float32", (4,))),
        )
        _add(
            f"{name}-Scalar-out-int",
            f"{name}.{scalar_out}",
            mk_(((4,), "int64", lo, hi), 2, out=lambda M, r: empty_out(M, "int64", (4,))),
        )


_binary(
    "add",
    full=True,
    scalar_op="add.Scalar",
    alpha=True,
    inplace_scalar="add_.Scalar",
    scalar_out="Scalar_out",
    cplx=True,
)
_binary(
    "sub",
    full=True,
    scalar_op="sub.Scalar",
    alpha=True,
    inplace_scalar="sub_.Scalar",
    scalar_out="Scalar_out",
    cplx=True,
)
_binary(
    "mul",
    full=True,
    scalar_op="mul.Scalar",
    inplace_scalar="mul_.Scalar",
    scalar_out="Scalar_out",
    cplx=True,
)
_binary(
    "div",
    full=True,
    scalar_op="div.Scalar",
    inplace_scalar="div_.Scalar",
    scalar_out="Scalar_out",
    cplx=True,
)
_binary(
    "remainder",
    full=True,
    nz=True,
    scalar_op="remainder.Scalar",
    out="Tensor_out",
    inplace_scalar="remainder_.Scalar",
    scalar_out="Scalar_out",
)
_binary(
    "fmod",
    nz=True,
    scalar_op="fmod.Scalar",
    out="Tensor_out",
    inplace_scalar="fmod_.Scalar",
    scalar_out="Scalar_out",
)
_binary(
    "floor_divide",
    nz=True,
    tensor_op="floor_divide",
    ip_op="floor_divide_.Tensor",
    scalar_op="floor_divide.Scalar",
    inplace_scalar="floor_divide_.Scalar",
    scalar_out="Scalar_out",
)
for _cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
    _binary(
        _cmp,
        scalar_op=f"{_cmp}.Scalar",
        out="Tensor_out",
        inplace_scalar=f"{_cmp}_.Scalar",
        scalar_out="Scalar_out",
        cplx=_cmp in ("eq", "ne"),
    )
for _bw in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    _binary(
        _bw,
        scalar_op=f"{_bw}.Scalar",
        out="Tensor_out",
        inplace_scalar=f"{_bw}_.Scalar",
        scalar_out="Scalar_out",
        lo=-20,
        hi=20,
    )
for _sh in ("bitwise_left_shift", "bitwise_right_shift"):
    _binary(
        _sh,
        scalar_op=f"{_sh}.Tensor_Scalar",
        out="Tensor_out",
        inplace_scalar=f"{_sh}_.Tensor_Scalar",
        scalar_out="Tensor_Scalar_out",
        lo=0,
        hi=9,
    )
for _sh in ("__lshift__", "__rshift__"):
    _binary(
        _sh,
        scalar_op=f"{_sh}.Scalar",
        out="Tensor_out",
        inplace=False,
        scalar_out="Scalar_out",
        lo=0,
        hi=9,
    )
    _add(
        f"{_sh}-inplace-Tensor",
        f"__i{_sh[2:]}.Tensor",
        mk(((4,), "int32", 0, 5), ((4,), "int32", 0, 5)),
    )
    _add(f"{_sh}-inplace-Scalar", f"__i{_sh[2:]}.Scalar", mk(((4,), "int64", 0, 5), 2))
for _n, _kw in (
    ("maximum", {}),
    ("minimum", {}),
    ("fmax", {}),
    ("fmin", {}),
    ("atan2", {}),
    ("hypot", {}),
    ("logical_and", {}),
    ("logical_or", {}),
    ("logical_xor", {}),
):
    _binary(
        _n,
        tensor_op=_n,
        inplace=_n not in ("maximum", "minimum", "fmax", "fmin"),
        cplx=_n.startswith("logical"),
    )
_binary(
    "copysign",
    scalar_op="copysign.Scalar",
    inplace_scalar="copysign_.Scalar",
    scalar_out="Scalar_out",
)
_binary(
    "xlogy",
    scalar_op="xlogy.Scalar_Other",
    out="OutTensor",
    inplace_scalar="xlogy_.Scalar_Other",
    scalar_out="OutScalar_Other",
    lo=-1,
    hi=4,
)
_binary(
    "pow",
    tensor_op="pow.Tensor_Tensor",
    scalar_op="pow.Tensor_Scalar",
    out="Tensor_Tensor_out",
    inplace_scalar="pow_.Scalar",
    scalar_out="Tensor_Scalar_out",
    lo=0,
    hi=4,
    cplx=True,
)
_binary(
    "rsub",
    tensor_op="rsub.Tensor",
    scalar_op="rsub.Scalar",
    alpha=True,
    inplace=False,
    out="Tensor_out",
    scalar_out="Scalar_out",
)

# -- the Scalar-first overloads
for _n, _op, _out in (
    ("remainder", "remainder.Scalar_Tensor", "remainder.Scalar_Tensor_out"),
    ("bitwise_and", "bitwise_and.Scalar_Tensor", "bitwise_and.Scalar_Tensor_out"),
    ("bitwise_or", "bitwise_or.Scalar_Tensor", "bitwise_or.Scalar_Tensor_out"),
    ("bitwise_xor", "bitwise_xor.Scalar_Tensor", "bitwise_xor.Scalar_Tensor_out"),
    (
        "bitwise_left_shift",
        "bitwise_left_shift.Scalar_Tensor",
        "bitwise_left_shift.Scalar_Tensor_out",
    ),
    (
        "bitwise_right_shift",
        "bitwise_right_shift.Scalar_Tensor",
        "bitwise_right_shift.Scalar_Tensor_out",
    ),
    ("pow", "pow.Scalar", "pow.Scalar_out"),
    ("xlogy", "xlogy.Scalar_Self", "xlogy.OutScalar_Self"),
):
    for sv, dt in (
        (3, "int64"),
        (2.5, "float32"),
        (True, "bool"),
        (2, "uint8"),
        (-3, "int8"),
        (0.5, "float16"),
        (2, "float64"),
        (0, "int32"),
        (3 + 1j, "float32"),
    ):
        _add(
            f"{_n}-ScalarTensor-{dt}-{sv}",
            _op,
            (mk_nonzero if _n == "remainder" else mk)(sv, ((5,), dt, 0, 5)),
        )
    _add(f"{_n}-ScalarTensor-noncontig", _op, mk(2, ("nc", (3, 4), "int64", 1, 5)))
    _add(f"{_n}-ScalarTensor-empty", _op, mk(2, ((0, 2), "int64")))
    _add(
        f"{_n}-ScalarTensor-out",
        _out,
        mk_nonzero(3, ((4,), "int64", 0, 5), out=lambda M, r: empty_out(M, "int64", (4,))),
    )
    _add(
        f"{_n}-ScalarTensor-out-float",
        _out,
        mk(2.5, ((4,), "float32", 0, 5), out=lambda M, r: empty_out(M, "float32", (4,))),
    )

# -- division: by zero, rounding modes
for _dt in ("int64", "int32", "uint8", "int8", "bool", "float32", "float16", "bfloat16", "float64"):
    for _mode in ("trunc", "floor", None):
        _add(
            f"div-mode-{_mode}-{_dt}",
            "div.Tensor_mode",
            mk(((3, 4), _dt, -9, 9), ((3, 4), _dt, 1, 4), rounding_mode=_mode),
        )
        if _dt in ("int64", "uint8", "float32", "float16"):
            _add(
                f"div-Scalar-mode-{_mode}-{_dt}",
                "div.Scalar_mode",
                mk(((3, 4), _dt, -9, 9), -3, rounding_mode=_mode),
            )
_add(
    "div-mode-bad",
    "div.Tensor_mode",
    mk(((3,), "float32"), ((3,), "float32"), rounding_mode="round"),
)
_add(
    "div-mode-neg",
    "div.Tensor_mode",
    mk(((3, 4), "int64", -9, 9), ((3, 4), "int64", -4, -1), rounding_mode="trunc"),
)
_add(
    "div-mode-floor-neg",
    "div.Tensor_mode",
    mk(((3, 4), "int64", -9, 9), ((3, 4), "int64", -4, -1), rounding_mode="floor"),
)
_add(
    "div-mode-float-scalar",
    "div.Tensor_mode",
    mk(((3, 4), "int64", -9, 9), 2.5, rounding_mode="floor"),
)
_add(
    "div-mode-special",
    "div.Tensor_mode",
    mk(lambda M, r: special(M), lambda M, r: special(M, roll=2), rounding_mode="floor"),
)
_add(
    "div-mode-special-trunc",
    "div.Tensor_mode",
    mk(lambda M, r: special(M), lambda M, r: special(M, roll=7), rounding_mode="trunc"),
)
_add(
    "div-mode-out",
    "div.out_mode",
    mk(
        ((4,), "int64", -9, 9),
        ((4,), "int64", 1, 3),
        rounding_mode="floor",
        out=lambda M, r: empty_out(M, "int64", (4,)),
    ),
)
_add(
    "div-Scalar-mode-out",
    "div.Scalar_mode_out",
    mk(
        ((4,), "float32", -9, 9),
        2,
        rounding_mode="trunc",
        out=lambda M, r: empty_out(M, "float32", (4,)),
    ),
)
_add(
    "div_-mode",
    "div_.Tensor_mode",
    mk(((4,), "int64", -9, 9), ((4,), "int64", 1, 3), rounding_mode="trunc"),
)
_add(
    "div_-mode-int-none",
    "div_.Tensor_mode",
    mk(((4,), "int64", -9, 9), ((4,), "int64", 1, 3), rounding_mode=None),
)
_add("div_-Scalar-mode", "div_.Scalar_mode", mk(((4,), "float32", -9, 9), 2, rounding_mode="floor"))
for _op, _kw in (
    ("div.Tensor", {}),
    ("div.Tensor_mode", {"rounding_mode": "floor"}),
    ("div.Tensor_mode", {"rounding_mode": "trunc"}),
    ("remainder.Tensor", {}),
    ("fmod.Tensor", {}),
    ("floor_divide", {}),
):
    _tag = _op.split(".")[0] + ("-" + _kw["rounding_mode"] if _kw else "")
    for _dt in ("int64", "int32", "uint8", "bool"):
        _add(
            f"{_tag}-zero-{_dt}",
            _op,
            mk(((4,), _dt, 1, 5), lambda M, r, d=_dt: M.zeros(4, dtype=getattr(M, d)), **_kw),
        )
    _add(
        f"{_tag}-zero-float",
        _op,
        mk(
            lambda M, r: special(M, "float32", [1, -1, 0, float("nan")]),
            lambda M, r: special(M, "float32", [0, 0, 0, 0]),
            **_kw,
        ),
    )
    _add(
        f"{_tag}-zero-negzero",
        _op,
        mk(
            lambda M, r: special(M, "float64", [1, -1, 0, 2]),
            lambda M, r: special(M, "float64", [-0.0] * 4),
            **_kw,
        ),
    )
    if _tag.split("-")[0] in ("div", "floor_divide"):
        _add(f"{_tag}-zero-pyscalar", _op, mk(((4,), "int64", 1, 5), 0, **_kw))
    _add(
        f"{_tag}-zero-int-by-zerodim",
        _op,
        mk(((4,), "int64", 1, 5), lambda M, r: M.tensor(0), **_kw),
    )

# -- pow specifics
for _sid, _op, _mk in (
    ("pow-int-negexp", "pow.Tensor_Tensor", mk(((4,), "int64", 1, 4), ((4,), "int64", -2, -1))),
    ("pow-int-negexp-scalar", "pow.Tensor_Scalar", mk(((4,), "int64", 1, 4), -2)),
    ("pow-int-negexp-float-scalar", "pow.Tensor_Scalar", mk(((4,), "int64", 1, 4), -2.0)),
    ("pow-scalar-int-negexp", "pow.Scalar", mk(2, ((4,), "int64", -3, -1))),
    ("pow-int-zeroexp", "pow.Tensor_Scalar", mk(((4,), "int64", -4, 4), 0)),
    (
        "pow-int-overflow",
        "pow.Tensor_Scalar",
        mk(lambda M, r: M.tensor([3, 5, 7], dtype=M.int32), 40),
    ),
    ("pow-uint8-overflow", "pow.Tensor_Tensor", mk(((4,), "uint8", 2, 9), ((4,), "uint8", 3, 9))),
    ("pow-float-half", "pow.Tensor_Scalar", mk(((4,), "float32", 0, 4), 0.5)),
    ("pow-float-negbase-half", "pow.Tensor_Scalar", mk(((4,), "float32", -4, 4), 0.5)),
    ("pow-float-two", "pow.Tensor_Scalar", mk(lambda M, r: special(M), 2)),
    ("pow-float-three", "pow.Tensor_Scalar", mk(lambda M, r: special(M), 3)),
    ("pow-float-neg-one", "pow.Tensor_Scalar", mk(lambda M, r: special(M), -1)),
    ("pow-float-neg-two", "pow.Tensor_Scalar", mk(lambda M, r: special(M), -2)),
    ("pow-float-neg-half", "pow.Tensor_Scalar", mk(lambda M, r: special(M), -0.5)),
    ("pow-float-one", "pow.Tensor_Scalar", mk(lambda M, r: special(M), 1)),
    ("pow-float-zero", "pow.Tensor_Scalar", mk(lambda M, r: special(M), 0)),
    ("pow-float-frac", "pow.Tensor_Scalar", mk(lambda M, r: special(M), 1.7)),
    ("pow-f16-frac", "pow.Tensor_Scalar", mk(((6,), "float16", 0, 3), 1.3)),
    ("pow-bf16-two", "pow.Tensor_Scalar", mk(((6,), "bfloat16", -3, 3), 2)),
    ("pow-bool-scalar", "pow.Tensor_Scalar", mk(((6,), "bool"), 2)),
    ("pow-int-float-scalar", "pow.Tensor_Scalar", mk(((6,), "int64", 0, 4), 0.5)),
    ("pow-int-complex-scalar", "pow.Tensor_Scalar", mk(((3,), "int64", 0, 4), 1j)),
    ("pow-scalar-special", "pow.Scalar", mk(2.0, lambda M, r: special(M))),
    ("pow-scalar-neg-base", "pow.Scalar", mk(-2.0, ((5,), "float32", -3, 3))),
    ("pow-scalar-one", "pow.Scalar", mk(1, ((5,), "float32", -3, 3))),
    ("pow-scalar-bool-int", "pow.Scalar", mk(True, ((5,), "int64", 0, 3))),
    ("pow-zerodim-base", "pow.Tensor_Tensor", mk(((), "float64", 1, 3), ((4,), "float32", 0, 3))),
    ("pow_-Tensor-int-float", "pow_.Tensor", mk(((4,), "int64", 0, 3), ((4,), "float32", 0, 2))),
    ("pow_-Scalar-int", "pow_.Scalar", mk(((4,), "int64", 0, 3), 3)),
    ("pow_-Scalar-int-neg", "pow_.Scalar", mk(((4,), "int64", 1, 3), -1)),
    ("pow_-Scalar-float", "pow_.Scalar", mk(((4,), "float32", 0, 3), 2.5)),
    (
        "pow-Scalar-out2",
        "pow.Scalar_out",
        mk(2, ((4,), "float32", 0, 3), out=lambda M, r: empty_out(M, "float32", (4,))),
    ),
):
    _add(_sid, _op, _mk)

# -- float_power (CompositeImplicitAutograd: to float64, then pow)
for _sid, _op, _mk in (
    (
        "float_power-TT",
        "float_power.Tensor_Tensor",
        mk(((4,), "float32", 0, 3), ((4,), "int64", 0, 3)),
    ),
    ("float_power-TS", "float_power.Tensor_Scalar", mk(((4,), "int32", 0, 3), 2)),
    ("float_power-TS-complex", "float_power.Tensor_Scalar", mk(((4,), "float32", 0, 3), 1j)),
    ("float_power-ST", "float_power.Scalar", mk(2, ((4,), "float16", 0, 3))),
    ("float_power_-f64", "float_power_.Scalar", mk(((4,), "float64", 0, 3), 2)),
    ("float_power_-f32", "float_power_.Scalar", mk(((4,), "float32", 0, 3), 2)),
    (
        "float_power_-Tensor",
        "float_power_.Tensor",
        mk(((4,), "float64", 0, 3), ((4,), "float32", 0, 3)),
    ),
    (
        "float_power-out",
        "float_power.Tensor_Scalar_out",
        mk(((4,), "float32", 0, 3), 2, out=lambda M, r: empty_out(M, "float64", (4,))),
    ),
    (
        "float_power-out-f32",
        "float_power.Tensor_Scalar_out",
        mk(((4,), "float32", 0, 3), 2, out=lambda M, r: empty_out(M, "float32", (4,))),
    ),
    (
        "float_power-TT-out",
        "float_power.Tensor_Tensor_out",
        mk(
            ((4,), "float32", 0, 3),
            ((4,), "float32", 0, 3),
            out=lambda M, r: empty_out(M, "float64", (4,)),
        ),
    ),
    (
        "float_power-ST-out",
        "float_power.Scalar_out",
        mk(2, ((4,), "float32", 0, 3), out=lambda M, r: empty_out(M, "float64", (4,))),
    ),
    ("square-f32", "square", mk(((3, 4), "float32"))),
    ("square-int", "square", mk(((3, 4), "int8", -20, 20))),
    ("square-bool", "square", mk(((3, 4), "bool"))),
    ("square_-f32", "square_", mk(((3, 4), "float32"))),
    ("square-out", "square.out", mk(((4,), "int64"), out=lambda M, r: empty_out(M, "int64"))),
):
    _add(_sid, _op, _mk)

# -- lerp, addcmul, addcdiv
for _dt in ("float32", "float64", "float16", "bfloat16", "int64", "complex64"):
    _add(f"lerp-Scalar-{_dt}", "lerp.Scalar", mk(((3, 4), _dt), ((3, 4), _dt), 0.3))
    _add(f"lerp-Tensor-{_dt}", "lerp.Tensor", mk(((3, 4), _dt), ((3, 4), _dt), ((3, 4), _dt, 0, 1)))
    _add(f"addcmul-{_dt}", "addcmul", mk(((3, 4), _dt), ((3, 4), _dt), ((3, 4), _dt), value=0.5))
    _add(
        f"addcdiv-{_dt}", "addcdiv", mk(((3, 4), _dt), ((3, 4), _dt), ((3, 4), _dt, 1, 3), value=2)
    )
for _sid, _op, _mk in (
    ("lerp-Scalar-big-weight", "lerp.Scalar", mk(((5,), "float32"), ((5,), "float32"), 0.9)),
    ("lerp-Scalar-int-weight", "lerp.Scalar", mk(((5,), "float32"), ((5,), "float32"), 2)),
    ("lerp-Scalar-broadcast", "lerp.Scalar", mk(((3, 1), "float32"), ((4,), "float32"), 0.5)),
    ("lerp-Scalar-mixed", "lerp.Scalar", mk(((3,), "float32"), ((3,), "float64"), 0.5)),
    (
        "lerp-Tensor-broadcast",
        "lerp.Tensor",
        mk(((3, 1), "float32"), ((4,), "float32"), ((3, 4), "float32", -1, 2)),
    ),
    (
        "lerp-Tensor-zerodim-weight",
        "lerp.Tensor",
        mk(((3,), "float32"), ((3,), "float32"), ((), "float32", 0, 1)),
    ),
    (
        "lerp-Tensor-weight-dtype",
        "lerp.Tensor",
        mk(((3,), "float32"), ((3,), "float32"), ((3,), "float64", 0, 1)),
    ),
    (
        "lerp-special",
        "lerp.Scalar",
        mk(lambda M, r: special(M), lambda M, r: special(M, roll=1), 0.25),
    ),
    ("lerp-noncontig", "lerp.Scalar", mk(("nc", (3, 4), "float32"), ((3, 4), "float32"), 0.7)),
    ("lerp_-Scalar", "lerp_.Scalar", mk(((4,), "float32"), ((4,), "float32"), 0.5)),
    (
        "lerp_-Tensor",
        "lerp_.Tensor",
        mk(((4,), "float32"), ((4,), "float32"), ((4,), "float32", 0, 1)),
    ),
    ("lerp_-bad-shape", "lerp_.Scalar", mk(((1,), "float32"), ((4,), "float32"), 0.5)),
    (
        "lerp-Scalar-out",
        "lerp.Scalar_out",
        mk(((4,), "float32"), ((4,), "float32"), 0.5, out=lambda M, r: empty_out(M)),
    ),
    (
        "lerp-Tensor-out",
        "lerp.Tensor_out",
        mk(((4,), "float32"), ((4,), "float32"), ((4,), "float32"), out=lambda M, r: empty_out(M)),
    ),
    (
        "addcmul-broadcast",
        "addcmul",
        mk(((3, 1), "float32"), ((4,), "float32"), ((3, 4), "float32")),
    ),
    ("addcmul-mixed", "addcmul", mk(((3,), "float32"), ((3,), "int64"), ((3,), "float64"))),
    (
        "addcmul-int-value",
        "addcmul",
        mk(((3,), "int64"), ((3,), "int64"), ((3,), "int64"), value=3),
    ),
    (
        "addcmul-int-floatvalue",
        "addcmul",
        mk(((3,), "int64"), ((3,), "int64"), ((3,), "int64"), value=0.5),
    ),
    ("addcmul-bool", "addcmul", mk(((3,), "bool"), ((3,), "bool"), ((3,), "bool"))),
    (
        "addcmul-noncontig",
        "addcmul",
        mk(("nc", (3, 4), "float32"), ((3, 4), "float32"), ((3, 4), "float32")),
    ),
    ("addcmul_", "addcmul_", mk(((3,), "float32"), ((3,), "float32"), ((3,), "float32"), value=-1)),
    (
        "addcmul_-bad-shape",
        "addcmul_",
        mk(((3,), "float32"), ((2, 3), "float32"), ((3,), "float32")),
    ),
    (
        "addcmul-out",
        "addcmul.out",
        mk(((3,), "float32"), ((3,), "float32"), ((3,), "float32"), out=lambda M, r: empty_out(M)),
    ),
    ("addcdiv-int", "addcdiv", mk(((3,), "int64"), ((3,), "int64"), ((3,), "int64", 1, 3))),
    ("addcdiv-mixed", "addcdiv", mk(((3,), "float32"), ((3,), "int64"), ((3,), "int64", 1, 3))),
    ("addcdiv-zero", "addcdiv", mk(((3,), "float32"), ((3,), "float32"), lambda M, r: M.zeros(3))),
    (
        "addcdiv-broadcast",
        "addcdiv",
        mk(((3, 1), "float64"), ((4,), "float64"), ((3, 4), "float64", 1, 2)),
    ),
    (
        "addcdiv_",
        "addcdiv_",
        mk(((3,), "float32"), ((3,), "float32"), ((3,), "float32", 1, 2), value=0.5),
    ),
    (
        "addcdiv-out",
        "addcdiv.out",
        mk(
            ((3,), "float32"),
            ((3,), "float32"),
            ((3,), "float32", 1, 2),
            out=lambda M, r: empty_out(M),
        ),
    ),
):
    _add(_sid, _op, _mk)

# ============================================================================ clamp family


def _clamp_samples() -> None:
    for dt in ALL_DTYPES:
        _add(f"clamp-{dt}", "clamp", mk(((3, 4), dt, -5, 5), -1, 2))
        _add(
            f"clamp-Tensor-{dt}",
            "clamp.Tensor",
            mk(((3, 4), dt, -5, 5), ((3, 4), dt, -3, 0), ((4,), dt, 0, 3)),
        )
    for sid, op, m in (
        ("clamp-min-only", "clamp", mk(((5,), "float32"), 0.5)),
        ("clamp-max-only", "clamp", mk(((5,), "float32"), None, 0.5)),
        ("clamp-none", "clamp", mk(((5,), "float32"), None, None)),
        ("clamp-inverted", "clamp", mk(((5,), "float32"), 2, -2)),
        ("clamp-float-bounds-int", "clamp", mk(((5,), "int64", -5, 5), -1.5, 2.5)),
        ("clamp-int-bounds-uint8", "clamp", mk(((5,), "uint8", 0, 9), 2, 300)),
        ("clamp-bool-bounds", "clamp", mk(((5,), "bool"), False, True)),
        ("clamp-nan-input", "clamp", mk(lambda M, r: special(M), -3, 3)),
        ("clamp-nan-bound", "clamp", mk(((5,), "float32"), float("nan"), 3)),
        ("clamp-nan-max", "clamp", mk(((5,), "float32"), -1, float("nan"))),
        ("clamp-inf-bounds", "clamp", mk(lambda M, r: special(M), float("-inf"), float("inf"))),
        ("clamp-noncontig", "clamp", mk(("nc", (3, 4), "float32"), -1, 1)),
        ("clamp-zerodim", "clamp", mk(((), "float64"), -1, 1)),
        ("clamp-empty", "clamp", mk(((0, 2), "float32"), -1, 1)),
        ("clamp-f16", "clamp", mk(((5,), "float16"), -0.3, 0.7)),
        ("clamp-Tensor-min-only", "clamp.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
        ("clamp-Tensor-max-only", "clamp.Tensor", mk(((5,), "float32"), None, ((5,), "float32"))),
        ("clamp-Tensor-none", "clamp.Tensor", mk(((5,), "float32"), None, None)),
        (
            "clamp-Tensor-nan",
            "clamp.Tensor",
            mk(
                lambda M, r: special(M),
                lambda M, r: special(M, roll=1),
                lambda M, r: special(M, roll=2),
            ),
        ),
        (
            "clamp-Tensor-broadcast-out",
            "clamp.Tensor",
            mk(((4,), "float32"), ((3, 1), "float32"), None),
        ),
        (
            "clamp-Tensor-mixed",
            "clamp.Tensor",
            mk(((5,), "int64", -5, 5), ((5,), "float32"), ((), "float64")),
        ),
        (
            "clamp-Tensor-zerodim-bounds",
            "clamp.Tensor",
            mk(((5,), "int32", -5, 5), ((), "int64", -2, 0), ((), "int64", 1, 3)),
        ),
        ("clamp_-scalar", "clamp_", mk(((5,), "float32"), -1, 1)),
        ("clamp_-int-float", "clamp_", mk(((5,), "int64", -5, 5), -1.5, 1.5)),
        ("clamp_-Tensor", "clamp_.Tensor", mk(((5,), "float32"), ((5,), "float32"), None)),
        ("clamp_-Tensor-bad-shape", "clamp_.Tensor", mk(((5,), "float32"), ((2, 5), "float32"))),
        ("clamp-out", "clamp.out", mk(((5,), "float32"), -1, 1, out=lambda M, r: empty_out(M))),
        (
            "clamp-Tensor-out",
            "clamp.Tensor_out",
            mk(((5,), "float32"), ((5,), "float32"), None, out=lambda M, r: empty_out(M)),
        ),
        (
            "clamp-out-int",
            "clamp.out",
            mk(((5,), "float32"), -1, 1, out=lambda M, r: empty_out(M, "int64")),
        ),
        ("clamp_min", "clamp_min", mk(((3, 4), "float32"), 0.2)),
        ("clamp_min-int", "clamp_min", mk(((3, 4), "int32", -5, 5), 1)),
        ("clamp_min-int-float", "clamp_min", mk(((3, 4), "int32", -5, 5), 1.5)),
        ("clamp_min-nan", "clamp_min", mk(lambda M, r: special(M), 0.0)),
        ("clamp_min-nanbound", "clamp_min", mk(((4,), "float32"), float("nan"))),
        ("clamp_min-bool", "clamp_min", mk(((4,), "bool"), True)),
        ("clamp_min-Tensor", "clamp_min.Tensor", mk(((3, 4), "float32"), ((4,), "float32"))),
        ("clamp_min-Tensor-mixed", "clamp_min.Tensor", mk(((3, 4), "int32"), ((4,), "float64"))),
        ("clamp_min_", "clamp_min_", mk(((4,), "float32"), 0.0)),
        ("clamp_min_-Tensor", "clamp_min_.Tensor", mk(((4,), "float32"), ((4,), "float32"))),
        (
            "clamp_min-out",
            "clamp_min.out",
            mk(((4,), "float32"), 0.0, out=lambda M, r: empty_out(M)),
        ),
        (
            "clamp_min-Tensor-out",
            "clamp_min.Tensor_out",
            mk(((4,), "float32"), ((4,), "float32"), out=lambda M, r: empty_out(M)),
        ),
        ("clamp_max", "clamp_max", mk(((3, 4), "float32"), 0.2)),
        ("clamp_max-int", "clamp_max", mk(((3, 4), "int8", -5, 5), 1)),
        ("clamp_max-nan", "clamp_max", mk(lambda M, r: special(M), 0.0)),
        ("clamp_max-f16", "clamp_max", mk(((4,), "float16"), 0.1)),
        ("clamp_max-Tensor", "clamp_max.Tensor", mk(((3, 4), "float32"), ((3, 1), "float32"))),
        ("clamp_max_", "clamp_max_", mk(((4,), "float32"), 0.0)),
        ("clamp_max_-Tensor", "clamp_max_.Tensor", mk(((4,), "int64"), ((4,), "int64"))),
        (
            "clamp_max-out",
            "clamp_max.out",
            mk(((4,), "float32"), 0.0, out=lambda M, r: empty_out(M)),
        ),
        (
            "clamp_max-Tensor-out",
            "clamp_max.Tensor_out",
            mk(((4,), "float32"), ((4,), "float32"), out=lambda M, r: empty_out(M)),
        ),
    ):
        _add(sid, op, m)


_clamp_samples()

# ============================================================================ where, masked_fill


def _mask(M: Any, r: np.random.Generator, shape: tuple[int, ...] = (3, 4)) -> Any:
    return tensor(M, array(r, shape, "bool"))


for _dt in ALL_DTYPES:
    _add(f"where-{_dt}", "where.self", mk(_mask, ((3, 4), _dt), ((3, 4), _dt)))
    _add(f"masked_fill-{_dt}", "masked_fill.Scalar", mk(((3, 4), _dt), _mask, 1))
for _sid, _op, _mk in (
    (
        "where-broadcast",
        "where.self",
        mk(lambda M, r: _mask(M, r, (3, 1)), ((4,), "float32"), ((1, 4), "float32")),
    ),
    ("where-mixed", "where.self", mk(_mask, ((3, 4), "int64"), ((3, 4), "float16"))),
    ("where-zerodim", "where.self", mk(_mask, ((), "float64"), ((3, 4), "float32"))),
    ("where-zerodim-int", "where.self", mk(_mask, ((), "int64"), ((3, 4), "int8"))),
    (
        "where-noncontig",
        "where.self",
        mk(_mask, ("nc", (3, 4), "float32"), ("nc", (3, 4), "float32")),
    ),
    (
        "where-cond-noncontig",
        "where.self",
        mk(lambda M, r: _mask(M, r, (4, 3)).t(), ((3, 4), "float32"), ((3, 4), "float32")),
    ),
    (
        "where-uint8-cond",
        "where.self",
        mk(((3, 4), "uint8", 0, 1), ((3, 4), "float32"), ((3, 4), "float32")),
    ),
    (
        "where-float-cond",
        "where.self",
        mk(((3, 4), "float32"), ((3, 4), "float32"), ((3, 4), "float32")),
    ),
    ("where-mismatch", "where.self", mk(_mask, ((3, 5), "float32"), ((3, 4), "float32"))),
    (
        "where-empty",
        "where.self",
        mk(lambda M, r: _mask(M, r, (0, 4)), ((4,), "float32"), ((4,), "float32")),
    ),
    ("where-ScalarOther", "where.ScalarOther", mk(_mask, ((3, 4), "float32"), 2.5)),
    ("where-ScalarOther-int-float", "where.ScalarOther", mk(_mask, ((3, 4), "int64"), 2.5)),
    ("where-ScalarOther-int", "where.ScalarOther", mk(_mask, ((3, 4), "int8"), 300)),
    ("where-ScalarOther-bool", "where.ScalarOther", mk(_mask, ((3, 4), "bool"), 2)),
    ("where-ScalarSelf", "where.ScalarSelf", mk(_mask, 1.5, ((3, 4), "float64"))),
    ("where-ScalarSelf-int", "where.ScalarSelf", mk(_mask, 3, ((3, 4), "uint8"))),
    ("where-Scalar", "where.Scalar", mk(_mask, 1.5, 2)),
    ("where-Scalar-int", "where.Scalar", mk(_mask, 1, 2)),
    ("where-Scalar-bool", "where.Scalar", mk(_mask, True, False)),
    ("where-Scalar-complex", "where.Scalar", mk(_mask, 1j, 2)),
    (
        "where-out",
        "where.self_out",
        mk(_mask, ((3, 4), "float32"), ((3, 4), "float32"), out=lambda M, r: empty_out(M)),
    ),
    (
        "where-out-wrongdtype",
        "where.self_out",
        mk(
            _mask,
            ((3, 4), "float32"),
            ((3, 4), "float32"),
            out=lambda M, r: empty_out(M, "float64"),
        ),
    ),
    ("masked_fill-float-value", "masked_fill.Scalar", mk(((3, 4), "int64"), _mask, 2.7)),
    ("masked_fill-bool-value", "masked_fill.Scalar", mk(((3, 4), "float32"), _mask, True)),
    ("masked_fill-nan", "masked_fill.Scalar", mk(((3, 4), "float32"), _mask, float("nan"))),
    ("masked_fill-inf-int", "masked_fill.Scalar", mk(((3, 4), "int32"), _mask, float("inf"))),
    ("masked_fill-overflow", "masked_fill.Scalar", mk(((3, 4), "int8"), _mask, 300)),
    ("masked_fill-complex-value", "masked_fill.Scalar", mk(((3, 4), "float32"), _mask, 1j)),
    (
        "masked_fill-broadcast",
        "masked_fill.Scalar",
        mk(((3, 4), "float32"), lambda M, r: _mask(M, r, (4,)), -1.0),
    ),
    (
        "masked_fill-bad-broadcast",
        "masked_fill.Scalar",
        mk(((4,), "float32"), lambda M, r: _mask(M, r, (3, 4)), 0.0),
    ),
    (
        "masked_fill-int-mask",
        "masked_fill.Scalar",
        mk(((4,), "float32"), ((4,), "uint8", 0, 1), 0.0),
    ),
    ("masked_fill-noncontig", "masked_fill.Scalar", mk(("nc", (3, 4), "float32"), _mask, 5.0)),
    (
        "masked_fill-empty",
        "masked_fill.Scalar",
        mk(((0, 4), "float32"), lambda M, r: _mask(M, r, (0, 4)), 5.0),
    ),
    ("masked_fill-Tensor", "masked_fill.Tensor", mk(((3, 4), "float32"), _mask, ((), "float64"))),
    ("masked_fill-Tensor-int", "masked_fill.Tensor", mk(((3, 4), "int64"), _mask, ((), "float32"))),
    (
        "masked_fill-Tensor-1d",
        "masked_fill.Tensor",
        mk(((3, 4), "float32"), _mask, ((1,), "float32")),
    ),
    (
        "masked_fill-Tensor-2d",
        "masked_fill.Tensor",
        mk(((3, 4), "float32"), _mask, ((2,), "float32")),
    ),
    ("masked_fill_", "masked_fill_.Scalar", mk(((3, 4), "float32"), _mask, 0.5)),
    (
        "masked_fill_-broadcast-mask",
        "masked_fill_.Scalar",
        mk(((3, 4), "float32"), lambda M, r: _mask(M, r, (4,)), 0.5),
    ),
    (
        "masked_fill_-bad",
        "masked_fill_.Scalar",
        mk(((4,), "float32"), lambda M, r: _mask(M, r, (3, 4)), 0.5),
    ),
    ("masked_fill_-Tensor", "masked_fill_.Tensor", mk(((3, 4), "int32"), _mask, ((), "int64"))),
    (
        "masked_fill-out",
        "masked_fill.Scalar_out",
        mk(((3, 4), "float32"), _mask, 1.0, out=lambda M, r: empty_out(M)),
    ),
    (
        "masked_fill-Tensor-out",
        "masked_fill.Tensor_out",
        mk(((3, 4), "float32"), _mask, ((), "float32"), out=lambda M, r: empty_out(M)),
    ),
):
    _add(_sid, _op, _mk)

# ============================================================================ composite aliases

for _sid, _op, _mk in (
    ("absolute", "absolute", mk(((5,), "float32"))),
    ("absolute_", "absolute_", mk(((5,), "int64"))),
    ("absolute-out", "absolute.out", mk(((5,), "float32"), out=lambda M, r: empty_out(M))),
    ("negative", "negative", mk(((5,), "int32"))),
    ("negative-bool", "negative", mk(((5,), "bool"))),
    ("negative_", "negative_", mk(((5,), "float32"))),
    ("negative-out", "negative.out", mk(((5,), "float32"), out=lambda M, r: empty_out(M))),
    ("fix", "fix", mk(((5,), "float32"))),
    ("fix_", "fix_", mk(((5,), "float64"))),
    ("fix-out", "fix.out", mk(((5,), "float32"), out=lambda M, r: empty_out(M))),
    ("arcsin", "arcsin", mk(((5,), "float32", -1, 1))),
    ("arccos", "arccos", mk(((5,), "float32", -1, 1))),
    ("arctan", "arctan", mk(((5,), "int32"))),
    ("arcsinh", "arcsinh", mk(((5,), "float32"))),
    ("arccosh", "arccosh", mk(((5,), "float32", 1, 4))),
    ("arctanh", "arctanh", mk(((5,), "float32", -1, 1))),
    ("arcsin-out", "arcsin.out", mk(((5,), "float32", -1, 1), out=lambda M, r: empty_out(M))),
    ("arcsin_", "arcsin_", mk(((5,), "float32", -1, 1))),
    ("arctan2", "arctan2", mk(((5,), "float32"), ((5,), "float32"))),
    ("arctan2_", "arctan2_", mk(((5,), "float32"), ((5,), "int64"))),
    (
        "arctan2-out",
        "arctan2.out",
        mk(((5,), "float32"), ((5,), "float32"), out=lambda M, r: empty_out(M)),
    ),
    ("clip", "clip", mk(((5,), "float32"), -1, 1)),
    ("clip-Tensor", "clip.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
    ("clip_", "clip_", mk(((5,), "float32"), None, 0.5)),
    ("clip-out", "clip.out", mk(((5,), "float32"), -1, 1, out=lambda M, r: empty_out(M))),
    ("subtract", "subtract.Tensor", mk(((5,), "float32"), ((5,), "float32"), alpha=2)),
    ("subtract-Scalar", "subtract.Scalar", mk(((5,), "float32"), 2)),
    ("subtract_", "subtract_.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
    (
        "subtract-out",
        "subtract.out",
        mk(((5,), "float32"), ((5,), "float32"), out=lambda M, r: empty_out(M)),
    ),
    ("multiply", "multiply.Tensor", mk(((5,), "float32"), ((5,), "int64"))),
    ("multiply-Scalar", "multiply.Scalar", mk(((5,), "int64"), 2.5)),
    ("multiply_", "multiply_.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
    ("divide", "divide.Tensor", mk(((5,), "int64"), ((5,), "int64", 1, 3))),
    (
        "divide-mode",
        "divide.Tensor_mode",
        mk(((5,), "int64"), ((5,), "int64", 1, 3), rounding_mode="floor"),
    ),
    ("divide-Scalar", "divide.Scalar", mk(((5,), "int64"), 2)),
    ("divide-Scalar-mode", "divide.Scalar_mode", mk(((5,), "float32"), 2, rounding_mode="trunc")),
    ("divide_", "divide_.Tensor", mk(((5,), "float32"), ((5,), "float32", 1, 2))),
    (
        "divide-out",
        "divide.out",
        mk(((5,), "float32"), ((5,), "float32", 1, 2), out=lambda M, r: empty_out(M)),
    ),
    ("true_divide", "true_divide.Tensor", mk(((5,), "int64"), ((5,), "int64", 1, 3))),
    ("true_divide-Scalar", "true_divide.Scalar", mk(((5,), "int64"), 2)),
    ("true_divide_", "true_divide_.Tensor", mk(((5,), "float32"), ((5,), "float32", 1, 2))),
    ("greater", "greater.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
    ("greater-Scalar", "greater.Scalar", mk(((5,), "float32"), 0)),
    ("greater_equal", "greater_equal.Tensor", mk(((5,), "int64"), ((5,), "int64"))),
    ("less", "less.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
    ("less_equal-Scalar", "less_equal.Scalar", mk(((5,), "float32"), 0.5)),
    ("not_equal", "not_equal.Tensor", mk(((5,), "int64"), ((5,), "int64"))),
    ("greater_", "greater_.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
    (
        "greater-out",
        "greater.Tensor_out",
        mk(((5,), "float32"), ((5,), "float32"), out=lambda M, r: empty_out(M, "bool")),
    ),
    ("__and__-Tensor", "__and__.Tensor", mk(((5,), "int64", -9, 9), ((5,), "int64", -9, 9))),
    ("__and__-Scalar", "__and__.Scalar", mk(((5,), "int64", -9, 9), 6)),
    ("__or__-Tensor", "__or__.Tensor", mk(((5,), "bool"), ((5,), "bool"))),
    ("__or__-Scalar", "__or__.Scalar", mk(((5,), "uint8", 0, 9), 6)),
    ("__xor__-Tensor", "__xor__.Tensor", mk(((5,), "int8", -9, 9), ((5,), "int8", -9, 9))),
    ("__xor__-Scalar", "__xor__.Scalar", mk(((5,), "bool"), True)),
    ("__iand__-Tensor", "__iand__.Tensor", mk(((5,), "int64", -9, 9), ((5,), "int64", -9, 9))),
    ("__iand__-Scalar", "__iand__.Scalar", mk(((5,), "int64", -9, 9), 3)),
    ("__ior__-Tensor", "__ior__.Tensor", mk(((5,), "int32", -9, 9), ((5,), "int32", -9, 9))),
    ("__ior__-Scalar", "__ior__.Scalar", mk(((5,), "bool"), False)),
    ("__ixor__-Tensor", "__ixor__.Tensor", mk(((5,), "int16", -9, 9), ((5,), "int16", -9, 9))),
    ("__ixor__-Scalar", "__ixor__.Scalar", mk(((5,), "int64", -9, 9), 5)),
    ("__and__-float", "__and__.Tensor", mk(((5,), "float32"), ((5,), "float32"))),
    ("sgn_", "sgn_", mk(((5,), "float32"))),
    ("isfinite-int", "isfinite", mk(((5,), "int32"))),
    ("isfinite-complex-special", "isfinite", mk(lambda M, r: special(M).to(M.complex64))),
):
    _add(_sid, _op, _mk)
