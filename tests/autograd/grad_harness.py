"""Running a gradient case on a module (torch or keyroute): outputs, gradients, node name."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import numpy as np

from tests.autograd.grad_cases import CASES


def rng_for(name: str) -> np.random.Generator:
    return np.random.default_rng(
        int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")
    )


def resolve(M: Any, op_name: str) -> Any:
    name, _, overload = op_name.partition(".")
    packet = getattr(M.ops.aten, name)
    return getattr(packet, overload or "default")


def _flat_inputs(M: Any, args: tuple[Any, ...]) -> list[Any]:
    out = []
    for a in args:
        items = a if isinstance(a, (list, tuple)) else [a]
        for x in items:
            if isinstance(x, M.Tensor) and x.requires_grad:
                out.append(x)
    return out


def float_outputs(M: Any, out: Any) -> list[Any]:
    items = out if isinstance(out, (list, tuple)) else [out]
    return [o for o in items if isinstance(o, M.Tensor) and o.requires_grad]


def run_case(M: Any, name: str) -> dict[str, Any]:
    op_name, args, kwargs = CASES[name](M, rng_for(name))
    op = resolve(M, op_name)
    out = op(*args, **kwargs)
    outs = float_outputs(M, out)
    inputs = _flat_inputs(M, args)
    rng = rng_for(name + "/grad")
    gouts = [M.from_numpy(_grad_output(rng, o)) for o in outs]
    grads = M.autograd.grad(outs, inputs, gouts, allow_unused=True)
    return {
        "node": outs[0].grad_fn.name() if outs and outs[0].grad_fn is not None else None,
        "grads": [None if g is None else encode(g.detach().numpy(force=True)) for g in grads],
    }


def _grad_output(rng: np.random.Generator, out: Any) -> np.ndarray:
    g = rng.standard_normal(tuple(out.shape))
    if out.is_complex():  # a complex output takes a complex gradient (real and imaginary parts)
        g = g + 1j * rng.standard_normal(tuple(out.shape))
    return g


def encode(a: np.ndarray) -> dict[str, Any]:
    if np.iscomplexobj(a):  # complex gradients as (..., 2) real arrays, as view_as_real
        a = np.stack([a.real, a.imag], axis=-1)
    a = np.ascontiguousarray(a, dtype=np.float64)
    return {"shape": list(a.shape), "data": base64.b64encode(a.tobytes()).decode()}


def decode(d: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(d["data"]), dtype=np.float64).reshape(d["shape"])
