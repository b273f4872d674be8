"""examples/new_layer.py, new_key.py and new_backend.py run and print what they claim; a fallback
on a key with a builtin fallback is refused with a message saying how to replace it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import keyroute
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.tls import IncludeDispatchKeyGuard
from keyroute.library import Library

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def _run(name: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(ROOT))
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", name)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_new_layer():
    assert _run("new_layer.py") == [
        "checked: 2.0",
        "caught: aten.sub.Tensor produced NaN",
        "grad: [2.0, 2.0]",
        "outside the guard: [0.0, nan]",
    ]


def test_new_key():
    assert _run("new_key.py") == [
        "checked: 2.0",
        "caught: aten.sub.Tensor produced NaN",
        "grad: [2.0, 2.0]",
        "outside the guard: [0.0, nan]",
        "trace of exp: NanCheck -> AutogradCPU -> CPU",
        "table rows: AutogradNestedTensor, NanCheck, Tracer",
    ]


def test_new_backend():
    assert _run("new_backend.py") == [
        "device: toy:0 | loss: 12.0",
        "grad: [[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]] toy:0",
        "matmul through the fallback: [[3.0, 3.0], [3.0, 3.0]]",
        "round trip: [0.0, 1.0, 2.0]",
        "own kernels run: ['add', 'copy_', 'empty', 'mul']",
    ]


def _layer(keyset, op, *args, **kwargs):
    return "mine"


def test_builtin_fallback_is_refused_with_the_way_out():
    lib = Library("_", "IMPL")
    try:
        with pytest.raises(RuntimeError, match="pass replace_builtin=True to Library.fallback"):
            lib.fallback(_layer, "Tracer", with_keyset=True)
    finally:
        lib._destroy()


def test_replace_builtin_and_restore():
    x = keyroute.ones(1)
    lib = Library("_", "IMPL")
    try:
        lib.fallback(_layer, "Tracer", with_keyset=True, replace_builtin=True)
        with IncludeDispatchKeyGuard(DispatchKey.Tracer):
            assert keyroute.ops.aten.neg.default(x) == "mine"
    finally:
        lib._destroy()
    with IncludeDispatchKeyGuard(DispatchKey.Tracer):  # the builtin refusal is back
        with pytest.raises(NotImplementedError, match="does not implement the Tracer layer"):
            keyroute.ops.aten.neg.default(x)


def test_a_user_fallback_is_not_replaceable():
    """replace_builtin replaces keyroute's own fallbacks only, never another user's."""
    first, second = Library("_", "IMPL"), Library("_", "IMPL")
    try:
        first.fallback(_layer, "Tracer", with_keyset=True, replace_builtin=True)
        with pytest.raises(RuntimeError, match="multiple backend fallbacks"):
            second.fallback(_layer, "Tracer", with_keyset=True, replace_builtin=True)
    finally:
        second._destroy()
        first._destroy()
