"""A NumPy stand-in for the two CuPy kernel classes the fused-group emitter uses
(keyroute/_inductor/cupy_codegen.py Note [one source, two runners]).

It runs the generated source itself: each `float v0 = expr;` / `v0 = expr;` / `return expr;`
line becomes the same Python statement (the expressions are in the C++ subset that is also
Python), `(float)(1.5)` is a call of numpy.float32, and the fixed helper preamble (HELPERS) is
replaced by NumPy definitions of the same helpers. Parameter dtypes are checked strictly, as a
typed CuPy kernel would refuse mismatched arrays. A reduction folds along axis 1 in order
(CUDA folds in a tree: results agree to rounding)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from keyroute._inductor.cupy_codegen import HELPERS

_DTYPES = {"float32": np.float32, "float64": np.float64, "bool": np.bool_}


def _namespace() -> dict[str, Any]:
    return {
        "float": np.float32,
        "double": np.float64,
        "bool": np.bool_,
        "INFINITY": np.inf,
        "NAN": np.nan,
        "sqrt": np.sqrt,
        "fabs": np.abs,
        "pow": np.power,
        "_maximum": lambda a, b: np.where((a > b) | (a != a), a, b),
        "_minimum": lambda a, b: np.where((a < b) | (a != a), a, b),
        "_clamp_min": lambda x, lo: np.where(x < lo, lo, x),
        "_clamp_max": lambda x, hi: np.where(x > hi, hi, x),
        "_relu": lambda x: np.where(x < 0, x.dtype.type(0), x),
        "_where": lambda c, a, b: np.where(c, a, b),
        "_rsqrt": lambda x: x.dtype.type(1) / np.sqrt(x),
    }


_DECL = re.compile(r"^(float|double|bool) (\w+ = .*);$")
_ASSIGN = re.compile(r"^(\w+ = .*);$")
_RETURN = re.compile(r"^return (.*);$")
_FUNC = re.compile(r"^__device__ (float|double|bool) (\w+)\((.*)\) \{$")


def _statement(line: str) -> str:
    line = line.strip()
    for pattern in (_DECL, _ASSIGN):
        m = pattern.match(line)
        if m:
            return m.group(m.lastindex)
    m = _RETURN.match(line)
    if m:
        return f"return {m.group(1)}"
    raise ValueError(f"stand-in: not a statement of the emitter's subset: {line!r}")


def _params(text: str) -> list[tuple[str, str]]:
    out = []
    for p in filter(None, (x.strip() for x in text.split(","))):
        t, name = p.split()
        out.append((t, name))
    return out


def _load_preamble(preamble: str, ns: dict[str, Any]) -> None:
    assert preamble.startswith(HELPERS), "the preamble must start with the fixed helpers"
    lines = preamble[len(HELPERS) :].splitlines()
    py: list[str] = []
    for line in lines:
        m = _FUNC.match(line)
        if m:
            names = [n for _t, n in _params(m.group(3))]
            py.append(f"def {m.group(2)}({', '.join(names)}):")
        elif line.strip() == "}":
            continue
        elif line.strip():
            py.append("    " + _statement(line))
    exec("\n".join(py), ns)  # noqa: S102 - the emitter's own source, the point of the stand-in


def _bind(params: str, args: tuple[Any, ...], ns: dict[str, Any]) -> None:
    ps = _params(params)
    assert len(ps) == len(args), (params, len(args))
    for (t, name), a in zip(ps, args):
        a = np.asarray(a)
        if a.dtype != _DTYPES[t]:
            raise TypeError(f"stand-in: parameter {name} is {t}, got an array of {a.dtype}")
        ns[name] = a


class ElementwiseKernel:
    def __init__(self, in_params: str, out_params: str, operation: str, name: str, **kw: Any):
        self.in_params, self.out_params, self.operation = in_params, out_params, operation
        self.preamble = kw.get("preamble", "")
        self.name = name

    def __call__(self, *args: Any, size: int | None = None) -> Any:
        ns = _namespace()
        _load_preamble(self.preamble, ns)
        _bind(self.in_params, args, ns)
        shape = np.broadcast_shapes(*(np.shape(a) for a in args)) if args else (size,)
        exec("\n".join(_statement(x) for x in self.operation.splitlines()), ns)  # noqa: S102
        outs = []
        for t, name in _params(self.out_params):
            v = np.asarray(ns[name])
            assert v.dtype == _DTYPES[t], (name, v.dtype, t)  # the math stayed in the dtype
            outs.append(np.array(np.broadcast_to(v, shape)))
        return outs[0] if len(outs) == 1 else tuple(outs)


class ReductionKernel:
    def __init__(
        self,
        in_params: str,
        out_params: str,
        map_expr: str,
        reduce_expr: str,
        post_map_expr: str,
        identity: str,
        name: str,
        **kw: Any,
    ):
        self.in_params, self.out_params = in_params, out_params
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity, self.name = identity, name
        self.preamble = kw.get("preamble", "")

    def __call__(self, *args: Any, axis: int) -> Any:
        assert axis == 1
        ns = _namespace()
        _load_preamble(self.preamble, ns)
        _bind(self.in_params, args, ns)
        shape = np.broadcast_shapes(*(np.shape(a) for a in args))
        mapped = np.broadcast_to(eval(self.map_expr, ns), shape)  # noqa: S307
        ((t, out),) = _params(self.out_params)
        acc = np.full(shape[0], eval(self.identity, ns), dtype=_DTYPES[t])  # noqa: S307
        for j in range(shape[1]):
            acc = eval(self.reduce_expr, dict(ns, a=acc, b=mapped[:, j]))  # noqa: S307
        target, _, expr = self.post_map_expr.partition(" = ")
        assert target == out
        v = np.asarray(eval(expr, dict(ns, a=acc)))  # noqa: S307
        assert v.dtype == _DTYPES[t], (out, v.dtype, t)
        return v


broadcast_to = np.broadcast_to
