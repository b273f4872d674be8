"""Thread-local dispatch state (per thread, restored on exceptions), the dispatch trace, and the
table dumps by operator name."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

import keyroute
from keyroute import _C
from keyroute.dispatcher import dump, dump_table
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.tls import (
    AutoDispatchBelowADInplaceOrView,
    AutoDispatchBelowAutograd,
    ExcludeDispatchKeyGuard,
    IncludeDispatchKeyGuard,
    local_exclude,
    local_include,
)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

# PyTorch 2.13's defaults (torch._C._dispatch_tls_local_include_set() / _exclude_set() in a
# fresh process).
DEFAULT_INCLUDE = "DispatchKeySet(BackendSelect, ADInplaceOrView)"
DEFAULT_EXCLUDE = (
    "DispatchKeySet(AutocastCPU, AutocastMTIA, AutocastMAIA, AutocastXPU, AutocastIPU, "
    "AutocastHPU, AutocastXLA, AutocastMPS, AutocastCUDA, AutocastPrivateUse1)"
)


def test_defaults_are_pytorchs() -> None:
    assert str(_C._dispatch_tls_local_include_set()) == DEFAULT_INCLUDE
    assert str(_C._dispatch_tls_local_exclude_set()) == DEFAULT_EXCLUDE


def test_defaults_match_live_pytorch() -> None:
    torch = pytest.importorskip("torch")
    code = (
        "import torch; print(torch._C._dispatch_tls_local_include_set()); "
        "print(torch._C._dispatch_tls_local_exclude_set())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    del torch
    assert out == [DEFAULT_INCLUDE, DEFAULT_EXCLUDE]


def test_guards_restore_on_exception() -> None:
    before = (local_include(), local_exclude(), keyroute.is_grad_enabled())
    with pytest.raises(ValueError):
        with IncludeDispatchKeyGuard(DispatchKey.Python), AutoDispatchBelowAutograd():
            with keyroute.no_grad(), ExcludeDispatchKeyGuard(DispatchKey.CPU):
                raise ValueError("boom")
    assert (local_include(), local_exclude(), keyroute.is_grad_enabled()) == before


def test_guard_in_one_thread_changes_nothing_in_another() -> None:
    main_before = (local_include(), local_exclude(), keyroute.is_grad_enabled())
    inside = threading.Event()
    release = threading.Event()
    seen: dict[str, object] = {}

    def worker() -> None:
        with AutoDispatchBelowADInplaceOrView(), keyroute.no_grad():
            seen["worker_excludes_autograd"] = _C._dispatch_tls_is_dispatch_key_excluded(
                DispatchKey.AutogradFunctionality
            ) and _C._dispatch_tls_is_dispatch_key_excluded(DispatchKey.ADInplaceOrView)
            inside.set()
            release.wait(5)

    t = threading.Thread(target=worker)
    t.start()
    assert inside.wait(5)
    # The worker is inside its guards now: this thread sees its own state, and calls here
    # still record autograd history.
    seen["main_state"] = (local_include(), local_exclude(), keyroute.is_grad_enabled())
    x = keyroute.ones(2, requires_grad=True)
    seen["main_grad_fn"] = type((x * 2).grad_fn).__name__
    release.set()
    t.join(5)
    assert seen["worker_excludes_autograd"] is True
    assert seen["main_state"] == main_before
    assert seen["main_grad_fn"] == "MulBackward0"


def test_new_thread_starts_from_the_defaults() -> None:
    result: list[str] = []
    with IncludeDispatchKeyGuard(DispatchKey.Python), keyroute.no_grad():
        t = threading.Thread(
            target=lambda: result.append(
                f"{_C._dispatch_tls_local_include_set()}|{keyroute.is_grad_enabled()}"
            )
        )
        t.start()
        t.join(5)
    assert result == [f"{DEFAULT_INCLUDE}|True"]


def test_trace_context_manager_prints_calls_and_redispatches_by_depth() -> None:
    buf = io.StringIO()
    a = keyroute.ones(2, requires_grad=True)
    with keyroute.show_dispatch_trace(file=buf):
        a * 2
    lines = buf.getvalue().splitlines()
    assert lines == [
        "[call] op=[aten::mul.Tensor], key=[AutogradCPU] [autograd kernel] "
        "keyset=DispatchKeySet(CPU, AutogradCPU)",
        "  [redispatch] op=[aten::mul.Tensor], key=[CPU] [kernel] keyset=DispatchKeySet(CPU)",
    ]
    # off again: nothing more is printed
    a * 2
    assert buf.getvalue().splitlines() == lines


def test_trace_environment_variable() -> None:
    env = dict(os.environ, KEYROUTE_SHOW_DISPATCH_TRACE="1", PYTHONPATH=os.path.abspath(ROOT))
    code = (
        "import sys, keyroute\nx = keyroute.ones(2)\nprint('---', flush=True)\n"
        "sys.stderr.flush()\ny = x + x\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        check=True,
    )
    after = out.stdout.split("---", 1)[1].strip().splitlines()
    assert after[0].startswith("[call] op=[aten::add.Tensor], key=[AutogradCPU]")
    assert after[1].startswith("  [redispatch] op=[aten::add.Tensor], key=[CPU] [kernel]")


def test_dumps_by_name_equal_the_operator_methods() -> None:
    op = keyroute.ops.aten.mm.default
    assert dump_table("aten::mm") == op.dump_table() == _C._dispatch_dump_table("aten::mm")
    assert dump("aten::mm") == op.dump() == _C._dispatch_dump("aten::mm")
    assert dump_table("aten::mm").startswith("CPU: registered at ")
    assert dump("aten::mm").splitlines()[:2] == [
        "name: aten::mm",
        "schema: aten::mm(Tensor self, Tensor mat2) -> Tensor",
    ]


def test_dump_of_an_unknown_name_names_the_fix() -> None:
    with pytest.raises(RuntimeError, match="no operator named 'aten::mmm'.*Library.define"):
        dump_table("aten::mmm")
    # torch._C's own spelling returns an empty string, as PyTorch's does
    assert _C._dispatch_dump_table("aten::mmm") == ""
