"""Compiled programs equal eager ones (tests/compile/programs.py): outputs, inputs mutated in
place, module buffers and gradients, for each backend, on the first call and on a cached call.
Programs a backend still gets wrong are named in known_gaps.txt (their tests must still fail)."""

from __future__ import annotations

import os

import pytest

import keyroute as torch
from keyroute.utils._pytree import tree_flatten

from . import programs

BACKENDS = ["eager", "aot_eager", "inductor"]


def _gaps() -> dict[str, str]:
    out = {}
    path = os.path.join(os.path.dirname(__file__), "known_gaps.txt")
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            out[name] = reason
    return out


GAPS = _gaps()


def _close(a, b):
    fa, _ = tree_flatten(a)
    fb, _ = tree_flatten(b)
    assert len(fa) == len(fb)
    for x, y in zip(fa, fb):
        if isinstance(x, torch.Tensor):
            assert isinstance(y, torch.Tensor)
            assert x.shape == y.shape and x.dtype == y.dtype, (x.shape, y.shape, x.dtype, y.dtype)
            assert torch.allclose(x.detach(), y.detach(), rtol=1e-4, atol=1e-5, equal_nan=True)
        else:
            assert x == y


def _grads(fn, args):
    leaves = [a for a in tree_flatten(args)[0] if isinstance(a, torch.Tensor) and a.requires_grad]
    if isinstance(fn, torch.nn.Module):
        leaves += list(fn.parameters())
    return leaves


def _run(name: str, backend: str) -> None:
    torch._dynamo.reset()
    f_e, args_e = programs.CASES[name](torch)
    f_c, args_c = programs.CASES[name](torch)
    compiled = torch.compile(f_c, backend=backend)
    train = bool(_grads(f_e, args_e)) and (
        not isinstance(f_e, torch.nn.Module) or name.startswith("train")
    )
    for _ in range(2):
        want = f_e(*args_e)
        got = compiled(*args_c)
        _close(got, want)
        _close(args_c, args_e)
        if isinstance(f_e, torch.nn.Module):
            _close(list(f_c.buffers()), list(f_e.buffers()))
        if train:
            outs_e = [o for o in tree_flatten(want)[0] if isinstance(o, torch.Tensor)]
            outs_c = [o for o in tree_flatten(got)[0] if isinstance(o, torch.Tensor)]
            sum(o.sum() for o in outs_e).backward()
            sum(o.sum() for o in outs_c).backward()
            for a, b in zip(_grads(f_c, args_c), _grads(f_e, args_e)):
                assert a.grad is not None
                _close(a.grad, b.grad)
                a.grad = None
                b.grad = None


CASES = [
    pytest.param(
        name,
        backend,
        marks=[pytest.mark.xfail(strict=True, reason=GAPS[f"{name}/{backend}"])]
        if f"{name}/{backend}" in GAPS
        else [],
        id=f"{name}-{backend}",
    )
    for backend in BACKENDS
    for name in programs.CASES
]


@pytest.mark.parametrize("name,backend", CASES)
def test_compiled_equals_eager(name: str, backend: str) -> None:
    _run(name, backend)
