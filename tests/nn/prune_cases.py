"""nn.utils.prune programs, run on torch by tools/record_prune.py (into tests/data/prune.json)
and on keyroute by tests/nn/test_prune.py. No torch or keyroute import here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

PROGRAMS: dict[str, Callable[[Any], Any]] = {}


def program(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    PROGRAMS[fn.__name__] = fn
    return fn


def _linear(M: Any, seed: int, shape: tuple[int, int] = (4, 3)) -> Any:
    rng = np.random.default_rng(seed)
    m = M.nn.Linear(shape[1], shape[0])
    with M.no_grad():
        m.weight.copy_(M.tensor(rng.standard_normal(shape).astype(np.float32).tolist()))
        m.bias.copy_(M.tensor(rng.standard_normal(shape[0]).astype(np.float32).tolist()))
    return m


def _masks(m: Any) -> dict[str, Any]:
    return {k: v.tolist() for k, v in m.named_buffers() if k.endswith("_mask")}


@program
def ln_structured_l2_dim0(M: Any) -> Any:
    m = _linear(M, 0)
    M.nn.utils.prune.ln_structured(m, "weight", amount=0.5, n=2, dim=0)
    return {"masks": _masks(m), "weight": m.weight.tolist()}


@program
def ln_structured_l1_dim1_int(M: Any) -> Any:
    m = _linear(M, 1)
    M.nn.utils.prune.ln_structured(m, "weight", amount=1, n=1, dim=1)
    return _masks(m)


@program
def ln_structured_inf_dim_neg(M: Any) -> Any:
    m = _linear(M, 2, (3, 5))
    M.nn.utils.prune.ln_structured(m, "weight", amount=0.4, n=float("inf"), dim=-1)
    return _masks(m)


@program
def random_structured_seeded(M: Any) -> Any:
    m = _linear(M, 3, (6, 3))
    M.manual_seed(5)
    M.nn.utils.prune.random_structured(m, "weight", amount=0.5, dim=0)
    return _masks(m)


@program
def random_unstructured_seeded(M: Any) -> Any:
    m = _linear(M, 4)
    M.manual_seed(3)
    M.nn.utils.prune.random_unstructured(m, "weight", amount=0.5)
    M.nn.utils.prune.random_unstructured(m, "bias", amount=2)
    return _masks(m)


@program
def repeated_pruning_container(M: Any) -> Any:
    m = _linear(M, 5, (4, 4))
    M.nn.utils.prune.l1_unstructured(m, "weight", amount=0.25)
    M.nn.utils.prune.ln_structured(m, "weight", amount=0.5, n=2, dim=0)
    M.nn.utils.prune.l1_unstructured(m, "weight", amount=2)
    hooks = [h for h in m._forward_pre_hooks.values()]
    names = [type(h).__name__ for h in hooks]
    inner = [type(x).__name__ for x in hooks[0]] if names == ["PruningContainer"] else []
    return {"masks": _masks(m), "hooks": names, "methods": inner}


@program
def global_unstructured_l1(M: Any) -> Any:
    a, b = _linear(M, 6), _linear(M, 7, (2, 4))
    M.nn.utils.prune.global_unstructured(
        [(a, "weight"), (b, "weight"), (b, "bias")],
        pruning_method=M.nn.utils.prune.L1Unstructured,
        amount=0.4,
    )
    return {"a": _masks(a), "b": _masks(b)}


@program
def global_unstructured_scores(M: Any) -> Any:
    a = _linear(M, 8)
    scores = {(a, "weight"): M.arange(12.0).reshape(4, 3)}
    M.nn.utils.prune.global_unstructured(
        [(a, "weight")],
        pruning_method=M.nn.utils.prune.L1Unstructured,
        importance_scores=scores,
        amount=5,
    )
    return _masks(a)


@program
def global_unstructured_structured_method(M: Any) -> Any:
    a = _linear(M, 9)
    M.nn.utils.prune.global_unstructured(
        [(a, "weight")], pruning_method=M.nn.utils.prune.LnStructured, amount=1, n=2, dim=0
    )
    return _masks(a)


@program
def structured_on_vector(M: Any) -> Any:
    a = _linear(M, 10)
    M.nn.utils.prune.ln_structured(a, "bias", amount=1, n=2, dim=0)
    return _masks(a)


@program
def structured_bad_dim(M: Any) -> Any:
    a = _linear(M, 11)
    M.nn.utils.prune.random_structured(a, "weight", amount=1, dim=2)
    return _masks(a)


@program
def container_wrong_name(M: Any) -> Any:
    p = M.nn.utils.prune
    a = p.L1Unstructured(amount=1)
    a._tensor_name = "weight"
    b = p.L1Unstructured(amount=1)
    b._tensor_name = "bias"
    c = p.PruningContainer(a)
    c.add_pruning_method(b)
    return len(c)


def run(name: str, M: Any) -> Any:
    try:
        return {"ok": PROGRAMS[name](M)}
    except Exception as e:  # noqa: BLE001 - errors are results too
        msg = str(e).strip().splitlines()
        return {"error": f"{type(e).__name__}: {msg[0] if msg else ''}"}
