"""Dispatch modes beyond the recorded cases: the op logger and counter against PyTorch's
recorded sequences, the dispatch-key counter, thread-local state, threads, exits."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

import keyroute
from keyroute.dispatcher.tls import state as tls
from keyroute.utils.op_log import OpCounterMode, OpLogMode, count_dispatch_keys
from keyroute.utils.python_dispatch import TorchDispatchMode, _len_torch_dispatch_stack
from tests.recorded_compare import recorded

from .cases import CASES

RECORDED = recorded("utils")


def _rmsnorm() -> None:
    keyroute.manual_seed(0)
    x = keyroute.randn(2, 16)
    w = keyroute.ones(16)
    lin = keyroute.nn.Linear(16, 32, bias=False)
    return x, w, lin


def test_op_log_mode_logs_pytorchs_sequence() -> None:
    x, w, lin = _rmsnorm()
    with OpLogMode() as log:
        h = x * keyroute.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
        keyroute.nn.functional.silu(lin(h))
    assert log.ops == RECORDED["mode/seed_rmsnorm_sequence"]
    with OpLogMode(with_shapes=True) as shaped:
        keyroute.mm(keyroute.ones(2, 3), keyroute.ones(3, 4))
    assert shaped.ops == [
        "aten.ones.default []",
        "aten.ones.default []",
        "aten.mm.default [(2, 3), (3, 4)]",
    ]


def test_op_counter_mode_counts_pytorchs_calls() -> None:
    q = k = v = keyroute.randn(1, 8, 128, 64)
    with OpCounterMode() as c:
        keyroute.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert c.counts == Counter(RECORDED["mode/sdpa_counts"])
    x, w, lin = _rmsnorm()
    with OpCounterMode() as c:
        keyroute.nn.functional.silu(lin(x * w))
    assert c.counts == Counter(
        ["aten.mul.Tensor", "aten.t.default", "aten.mm.default", "aten.silu.default"]
    )


def test_count_dispatch_keys_sees_every_layer() -> None:
    # PyTorch runs the AutogradCPU kernel for every op on CPU tensors, and the ADInplaceOrView
    # kernel for in-place ops; fallthrough layers run nothing.
    x = keyroute.ones(2, requires_grad=True)
    y = keyroute.ones(2)
    with count_dispatch_keys() as c:
        x * y
        y.add_(1)
    assert dict(c.by_op_key) == {
        ("aten::mul.Tensor", "AutogradCPU"): 1,
        ("aten::mul.Tensor", "CPU"): 1,
        ("aten::add_.Tensor", "AutogradCPU"): 1,
        ("aten::add_.Tensor", "ADInplaceOrView"): 1,
        ("aten::add_.Tensor", "CPU"): 1,
    }
    assert c.by_key == Counter({"AutogradCPU": 2, "CPU": 2, "ADInplaceOrView": 1})


def test_modes_restore_thread_state() -> None:
    before = (tls.include, tls.exclude, tls.include_and_mask)
    with OpLogMode():
        with OpCounterMode():
            keyroute.ones(2) + 1
    assert (tls.include, tls.exclude, tls.include_and_mask) == before
    with pytest.raises(ValueError, match="boom"):
        with OpLogMode():
            raise ValueError("boom")
    assert (
        tls.include,
        tls.exclude,
        tls.include_and_mask,
    ) == before and _len_torch_dispatch_stack() == 0


def test_handler_error_restores_the_mode_and_keys() -> None:
    class Boom(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            raise KeyError(str(func))

    with Boom():
        inside = (tls.include, tls.include_and_mask)
        with pytest.raises(KeyError, match="aten.ones.default"):
            keyroute.ones(1)
        assert (tls.include, tls.include_and_mask) == inside and _len_torch_dispatch_stack() == 1


def test_guards_inside_a_handler_still_leave_the_mode_off() -> None:
    seen = []

    class GradOff(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            seen.append(str(func))
            with keyroute.no_grad():  # recomputes the thread's key sets
                return func(*args, **(kwargs or {})) + 0

    with GradOff():
        out = keyroute.ones(2) * 3
    assert out.tolist() == [3.0, 3.0]
    assert seen == ["aten.ones.default", "aten.mul.Tensor"]


def test_modes_are_per_thread() -> None:
    seen: list[str] = []

    def other() -> None:
        keyroute.ones(1) + 1

    with OpLogMode() as log:
        t = threading.Thread(target=other)
        t.start()
        t.join()
        seen = list(log.ops)
    assert seen == []


def test_exiting_out_of_order_restores_the_stack_as_pytorch() -> None:
    # PyTorch's __exit__ pops the top mode whichever it is (issue 12; recorded as
    # state/modes_out_of_order in tests/data/reliability.json): no error, and the stack is
    # empty after both exits, so later ops run plainly.
    a, b = OpLogMode(), OpLogMode()
    a.__enter__()
    b.__enter__()
    a.__exit__(None, None, None)
    b.__exit__(None, None, None)
    assert _len_torch_dispatch_stack() == 0
    assert (keyroute.ones(2) + 1).tolist() == [2.0, 2.0]


def test_recorded_cases_exist() -> None:
    assert "mode/seed_rmsnorm_sequence" in CASES and "mode/sdpa_counts" in CASES


def test_a_mode_entered_and_left_inside_a_handler_leaves_the_outer_mode_on() -> None:
    seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            seen.append(str(func))
            with OpLogMode() as inner:  # the stack is empty in here: this is the only mode
                out = func(*args, **(kwargs or {}))
            assert inner.ops == [str(func)]
            return out

    with Outer():
        keyroute.ones(1)
        keyroute.ones(1).add_(1)
        with keyroute.no_grad():  # recomputes the thread's key sets from the include set
            keyroute.zeros(1)
    assert seen == [
        "aten.ones.default",
        "aten.ones.default",
        "aten.add_.Tensor",
        "aten.zeros.default",
    ]


def test_a_mode_entered_under_a_guard_inside_a_handler_leaves_the_outer_mode_on() -> None:
    seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            seen.append(str(func))
            with keyroute.no_grad(), OpLogMode():
                return func(*args, **(kwargs or {}))

    with Outer():
        keyroute.ones(1)
        keyroute.zeros(1)
    assert seen == ["aten.ones.default", "aten.zeros.default"]
    assert _len_torch_dispatch_stack() == 0
