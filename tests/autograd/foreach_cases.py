"""Autograd cases of the `_foreach_*` and `_fused_*` operators (layers/foreach_autograd.py), run
on torch (tools/record_foreach_autograd.py records them into tests/data/foreach_autograd.json.gz)
or keyroute (tests/autograd/test_foreach_autograd.py compares).

A case is an operator and an argument spec, one letter per argument:

    L  a list of 3 float64 leaves that require grad (shapes (3,), (2, 2), (4,))
    P  as L, positive values;  H  as L, values on a half-integer grid (ties with 0.5)
    l  as L, not requiring grad;  W  as l, values in (0, 1) (lerp weights)
    T  one float64 0-dim positive tensor leaf that requires grad;  t  as T, not requiring grad
    s  the scalar 0.5;  S  the scalar list [0.5, -1.5, 2.0];  V  a 1-d tensor [0.5, -1.5, 2.0]

An in-place operator writes clones of its first list (so the leaves stay leaves). Per output
(the result list, or the written list) the record has the node's Python type name and name();
then the gradients of every leaf for random output gradients, or the backward's error. No torch
or keyroute import here.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import numpy as np

SHAPES = ((3,), (2, 2), (4,))

#: name -> (operator "name.overload", argument spec, keyword arguments)
CASES: dict[str, tuple[str, str, dict[str, Any]]] = {}


def _add(name: str, op: str, spec: str, **kwargs: Any) -> None:
    CASES[name] = (op, spec, kwargs)


for _f in ("add", "sub", "mul", "div"):
    _lst = "LP" if _f == "div" else "LL"
    for _ip in ("", "_"):
        _add(f"{_f}{_ip}.List", f"_foreach_{_f}{_ip}.List", _lst)
        _add(f"{_f}{_ip}.Scalar", f"_foreach_{_f}{_ip}.Scalar", "Ls")
        _add(f"{_f}{_ip}.ScalarList", f"_foreach_{_f}{_ip}.ScalarList", "LS")
        _add(f"{_f}{_ip}.List-l", f"_foreach_{_f}{_ip}.List", "l" + _lst[1])
        if _f != "sub":
            _add(f"{_f}{_ip}.Tensor", f"_foreach_{_f}{_ip}.Tensor", "Lt")
            _add(f"{_f}{_ip}.Tensor-grad", f"_foreach_{_f}{_ip}.Tensor", "LT")
for _f in ("add", "sub"):
    _add(f"{_f}.List-alpha", f"_foreach_{_f}.List", "LL", alpha=2.5)
    _add(f"{_f}_.List-alpha", f"_foreach_{_f}_.List", "LL", alpha=2.5)
for _f in ("maximum", "minimum"):
    for _ip in ("", "_"):
        _add(f"{_f}{_ip}.List", f"_foreach_{_f}{_ip}.List", "HH")
        _add(f"{_f}{_ip}.Scalar", f"_foreach_{_f}{_ip}.Scalar", "Hs")
        _add(f"{_f}{_ip}.ScalarList", f"_foreach_{_f}{_ip}.ScalarList", "HS")
for _f in ("abs", "exp", "log", "neg", "reciprocal", "sigmoid", "sign", "sqrt", "tanh"):
    _spec = "P" if _f in ("log", "sqrt", "reciprocal") else "L"
    _add(_f, f"_foreach_{_f}.default", _spec)
    _add(f"{_f}_", f"_foreach_{_f}_.default", _spec)
for _f in ("addcmul", "addcdiv"):
    _third = "P" if _f == "addcdiv" else "L"
    for _ip in ("", "_"):
        _add(f"{_f}{_ip}.Scalar", f"_foreach_{_f}{_ip}.Scalar", "LL" + _third, value=0.5)
        _add(f"{_f}{_ip}.ScalarList", f"_foreach_{_f}{_ip}.ScalarList", "LL" + _third + "S")
        _add(f"{_f}{_ip}.Tensor", f"_foreach_{_f}{_ip}.Tensor", "LL" + _third + "V")
for _ip in ("", "_"):
    _add(f"lerp{_ip}.List", f"_foreach_lerp{_ip}.List", "LLW")
    _add(f"lerp{_ip}.Scalar", f"_foreach_lerp{_ip}.Scalar", "LLs")
    _add(f"lerp{_ip}.ScalarList", f"_foreach_lerp{_ip}.ScalarList", "LLS")
_add("zero_", "_foreach_zero_.default", "L")
_add("copy_", "_foreach_copy_.default", "LL")
_add("copy_-src", "_foreach_copy_.default", "lL")
_add("clamp_max_.Scalar", "_foreach_clamp_max_.Scalar", "Hs")
_add("clamp_min_.Scalar", "_foreach_clamp_min_.Scalar", "Hs")
_add("norm.Scalar", "_foreach_norm.Scalar", "L")
_add("norm.Scalar-1", "_foreach_norm.Scalar", "Ls")
_add("mul_.Scalar-mixed", "_foreach_mul_.Scalar", "Ll")  # the second list is replaced below


def rng_for(name: str) -> np.random.Generator:
    return np.random.default_rng(
        int.from_bytes(hashlib.sha256(("foreach/" + name).encode()).digest()[:8], "little")
    )


def make(M: Any, name: str) -> tuple[Any, list[Any], dict[str, Any], list[Any], bool]:
    """(op, args, kwargs, leaves, in place) of case `name` on module M."""
    opname, spec, kwargs = CASES[name]
    rng = rng_for(name)
    base, _, overload = opname.partition(".")
    op = getattr(getattr(M.ops.aten, base), overload)
    leaves: list[Any] = []

    def tensor(a: np.ndarray, grad: bool) -> Any:
        t = M.from_numpy(np.array(a, dtype=np.float64, order="C"))  # 0-d stays 0-d
        if grad:
            t.requires_grad_(True)
            leaves.append(t)
        return t

    def tlist(kind: str) -> list[Any]:
        out = []
        for shape in SHAPES:
            if kind == "P":
                a = rng.uniform(0.5, 2.0, shape)
            elif kind == "H":
                a = rng.integers(-2, 3, shape) / 2.0
            elif kind == "W":
                a = rng.uniform(0.1, 0.9, shape)
            else:
                a = rng.uniform(-2.0, 2.0, shape)
            out.append(tensor(a, kind in "LPH"))
        return out

    args: list[Any] = []
    for c in spec:
        if c in "LPHlW":
            args.append(tlist(c))
        elif c in "Tt":
            args.append(tensor(rng.uniform(0.5, 2.0, ()), c == "T"))
        elif c == "s":
            args.append(0.5)
        elif c == "S":
            args.append([0.5, -1.5, 2.0])
        elif c == "V":
            args.append(M.tensor([0.5, -1.5, 2.0], dtype=M.float64))
    if name == "mul_.Scalar-mixed":  # one written tensor does not require grad
        args = [[args[0][0], args[1][1], args[0][2]], 2.0]
    inplace = base.endswith("_")
    if inplace:
        args[0] = [t.clone() if t.requires_grad else t.clone() for t in args[0]]
    return op, args, dict(kwargs), leaves, inplace


def _first_line(e: BaseException) -> str:
    msg = str(e).strip().splitlines()
    return f"{type(e).__name__}: {msg[0] if msg else ''}"[:200]


def encode(a: np.ndarray) -> dict[str, Any]:
    a = np.ascontiguousarray(a, dtype=np.float64)
    return {"shape": list(a.shape), "data": base64.b64encode(a.tobytes()).decode()}


def decode(d: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(d["data"]), dtype=np.float64).reshape(d["shape"])


def run(M: Any, name: str) -> dict[str, Any]:
    """The record of case `name` on module M (see the module docstring)."""
    op, args, kwargs, leaves, inplace = make(M, name)
    try:
        out = op(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - errors are results too
        return {"error": _first_line(e)}
    outs = args[0] if inplace else list(out)
    nodes = [
        None if o.grad_fn is None else [type(o.grad_fn).__name__, o.grad_fn.name()] for o in outs
    ]
    rec: dict[str, Any] = {"nodes": nodes, "requires_grad": [bool(o.requires_grad) for o in outs]}
    diff = [o for o in outs if o.requires_grad]
    if not diff:
        return rec
    g_rng = rng_for(name + "/grad")
    gouts = [M.from_numpy(g_rng.standard_normal(tuple(o.shape))) for o in diff]
    try:
        grads = M.autograd.grad(diff, leaves, gouts, allow_unused=True)
    except Exception as e:  # noqa: BLE001
        rec["backward"] = _first_line(e)
        return rec
    rec["grads"] = [None if g is None else encode(g.detach().numpy()) for g in grads]
    return rec
