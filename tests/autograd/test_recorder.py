"""The generated autograd recorders (keyroute/layers/recorder.py) against their plain reference
(keyroute/layers/recorder_reference.py): the same graph, saved values, outputs and gradients."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import keyroute
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.keyset import BACKEND_MASK
from keyroute.dispatcher.tls import state
from keyroute.layers.autograd import AutogradKernel
from keyroute.layers.recorder_reference import record_reference


def _leaf(*shape: int, seed: int = 0) -> Any:
    rng = np.random.default_rng(seed + len(shape))
    return keyroute.from_numpy(rng.standard_normal(shape).astype(np.float32)).requires_grad_()


def _cases() -> list[tuple[str, Any]]:
    A = keyroute._ops.ops.aten  # noqa: N806
    return [
        ("add", lambda: (A.add.Tensor, (_leaf(3), _leaf(3, seed=1)), {})),
        ("add-alpha-kw", lambda: (A.add.Tensor, (_leaf(2, 3), _leaf(3)), {"alpha": 2})),
        ("mul-scalar", lambda: (A.mul.Tensor, (_leaf(4), 1.5), {})),
        ("mm", lambda: (A.mm.default, (_leaf(2, 4), _leaf(4, 3)), {})),
        (
            "addmm-kw",
            lambda: (A.addmm.default, (_leaf(3), _leaf(2, 4), _leaf(4, 3)), {"beta": 0.5}),
        ),
        ("cat-list", lambda: (A.cat.default, ([_leaf(2), _leaf(3)],), {"dim": 0})),
        ("max-dim", lambda: (A.max.dim, (_leaf(3, 4), 1), {})),
        ("mixed-grad", lambda: (A.mul.Tensor, (_leaf(3), keyroute.ones(3)), {})),
        ("to-dtype", lambda: (A._to_copy.default, (_leaf(3),), {"dtype": keyroute.float64})),
        ("mul_-nonleaf", lambda: (A.mul_.Tensor, (_leaf(3) * 1, 2.0), {})),
    ]


def _describe(out: Any) -> list[Any]:
    facts = []
    for t in out if isinstance(out, (tuple, list)) else (out,):
        fn = t.grad_fn
        facts.append(
            (
                t.detach().numpy().tolist(),
                t.requires_grad,
                None if fn is None else fn.name(),
                None
                if fn is None
                else [(None if n is None else n.name(), nr) for n, nr in fn.next_functions],
                None if fn is None else sorted(fn.saved),
                None
                if fn is None
                else [None if m is None else tuple(m[0]) for m in fn.input_metadata],
            )
        )
    return facts


def _grads(args: tuple[Any, ...], out: Any) -> list[Any]:
    first = out[0] if isinstance(out, (tuple, list)) else out
    if not first.requires_grad:
        return []
    leaves = [a for a in args if hasattr(a, "requires_grad") and a.requires_grad and a.is_leaf]
    for a in args:
        if isinstance(a, list):
            leaves.extend(a)
    if not leaves:
        return [first.grad_fn(keyroute.ones_like(first))[0].numpy().tolist()]
    gs = keyroute.autograd.grad(first.sum(), leaves, allow_unused=True)
    return [None if g is None else g.numpy().tolist() for g in gs]


@pytest.mark.parametrize("name,make", _cases(), ids=[c[0] for c in _cases()])
def test_generated_recorder_matches_reference(name: str, make: Any) -> None:
    op, args, kwargs = make()
    out = op(*args, **kwargs)  # through the dispatcher: the generated recorder
    op2, args2, kwargs2 = make()
    kernel = op2.kernel_for_key(DispatchKey.AutogradCPU)
    assert isinstance(kernel, AutogradKernel)
    include, mask = state.thread_state.include_and_mask
    ks = (op2._extract(args2, kwargs2) | include) & mask
    _table, masks = op2._table_and_masks()
    ks &= masks[(ks & BACKEND_MASK).bit_length()]  # fallthrough keys out, as the dispatcher does
    ref = record_reference(kernel, ks, args2, kwargs2)
    assert _describe(out) == _describe(ref)
    assert _grads(args, out) == _grads(args2, ref)


def test_recorder_source_is_readable() -> None:
    a, b = _leaf(3), _leaf(3, seed=1)
    c = a + b
    op = keyroute._ops.ops.aten.add.Tensor
    # (other cached entries may be functools.partial objects, e.g. a functorch layer's)
    recorders = [
        fn for fn in op._cache.values() if getattr(fn, "__name__", "") == "AddBackward0_record"
    ]
    assert recorders, "a + b with requires_grad inputs runs the AddBackward0 recorder"
    src = inspect.getsource(recorders[0])
    assert "node.next_edges" in src and "BELOW_AD_EXCLUDE" in src
    assert c.grad_fn.name() == "AddBackward0"
