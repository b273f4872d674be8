"""keyroute.profiler's API: events, nesting, tables, schedules, traces, dispatch layers, memory,
and that a finished profile leaves the dispatcher's plain path as it was."""

from __future__ import annotations

import json
import os
import warnings

import pytest

import keyroute as torch
from keyroute.dispatcher import trace as dtrace
from keyroute.dispatcher.operator import find_op
from keyroute.profiler import (
    ProfilerAction,
    ProfilerActivity,
    profile,
    record_function,
    schedule,
    tensorboard_trace_handler,
)


def _tree(events) -> list:  # noqa: ANN001
    def node(e):  # noqa: ANN001, ANN202
        return (e.name, [node(c) for c in e.cpu_children])

    return [node(e) for e in events if e.cpu_parent is None]


def test_top_level_calls_are_events_and_redispatches_are_not() -> None:
    x = torch.ones(2, 3)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        y = x + x
        torch.nn.functional.linear(y, torch.ones(4, 3))
    tree = _tree(prof.events())
    assert tree[0] == ("aten::add", [])
    # PyTorch: linear > t (> transpose > as_strided), matmul > mm > resolve_conj for the result
    # and the row-major operand (the transposed weight goes to gemm as is).
    t = ("aten::t", [("aten::transpose", [("aten::as_strided", [])])])
    mm = ("aten::mm", [("aten::resolve_conj", [])] * 2)
    assert tree[-1] == ("aten::linear", [t, ("aten::matmul", [mm])])
    names = [e.name for e in prof.events()]
    assert names.count("aten::add") == 1  # the autograd layer's redispatch is no second event


def test_record_function_context_and_decorator_nest() -> None:
    @record_function("decorated")
    def f(t):  # noqa: ANN001, ANN202
        return t * t

    x = torch.ones(3)
    with profile() as prof:
        with record_function("outer"):
            f(x)
    assert _tree(prof.events()) == [("outer", [("decorated", [("aten::mul", [])])])]
    ev = prof.events()[0]
    assert ev.is_user_annotation and ev.cpu_time_total >= ev.cpu_children[0].cpu_time_total


def test_record_function_outside_a_profile_records_nothing() -> None:
    with record_function("nothing"):
        torch.ones(1) + 1
    with profile() as prof:
        pass
    assert list(prof.events()) == []


def test_record_function_rejects_a_non_string_name() -> None:
    with pytest.raises(TypeError, match="must be str"):
        record_function(3)  # type: ignore[arg-type]


def test_autograd_and_optimizer_spans_named_as_pytorch() -> None:
    lin = torch.nn.Linear(3, 2)
    opt = torch.optim.AdamW(lin.parameters())
    x = torch.ones(4, 3)
    with profile() as prof:
        opt.zero_grad()
        lin(x).sum().backward()
        opt.step()
    names = {e.name for e in prof.events()}
    for expected in (
        "Optimizer.zero_grad#AdamW.zero_grad",
        "Optimizer.step#AdamW.step",
        "autograd::engine::evaluate_function: AddmmBackward0",
        "AddmmBackward0",
        "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
        "torch::autograd::AccumulateGrad",
    ):
        assert expected in names
    for e in prof.events():
        if e.name == "AddmmBackward0":
            assert e.cpu_parent.name == "autograd::engine::evaluate_function: AddmmBackward0"
            assert {c.name for c in e.cpu_children} >= {"aten::mm"}


def test_plain_path_restored_after_profile() -> None:
    x = torch.ones(2)
    x + x
    op = find_op("aten::add.Tensor")
    plain = dict(op._cache)
    with profile():
        x + x
        assert dtrace.profile_wrap is not None
    assert dtrace.profile_wrap is None and not dtrace.every_layer
    x + x
    # The same resolution as before the profile: no recording wrapper left in the cache.
    assert all(getattr(fn, "__name__", "") != "recorded" for fn in op._cache.values())
    assert set(plain) <= set(op._cache)


def test_nested_profiles_are_refused_and_state_unchanged() -> None:
    with profile():
        with pytest.raises(RuntimeError, match="already enabled"):
            with profile():
                pass
        assert dtrace.profile_wrap is not None
    assert dtrace.profile_wrap is None


def test_events_require_a_finished_profile() -> None:
    prof = profile()
    with pytest.raises(AssertionError, match="must be initialized"):
        prof.events()


def test_key_averages_table_layout_and_counts() -> None:
    x = torch.ones(3)
    with profile(record_shapes=True) as prof:
        for _ in range(3):
            x + x
        x * x
    avg = prof.key_averages()
    counts = {e.key: e.count for e in avg}
    assert counts == {"aten::add": 3, "aten::mul": 1}
    table = avg.table(sort_by="self_cpu_time_total", row_limit=1)
    lines = table.splitlines()
    header = lines[1].split("  ")
    assert [h.strip() for h in header if h.strip()] == [
        "Name",
        "Self CPU %",
        "Self CPU",
        "CPU total %",
        "CPU total",
        "CPU time avg",
        "# of Calls",
    ]
    assert lines[0] == lines[2] and set(lines[0]) <= {"-", " "}
    assert len(lines) == 6 and lines[-1].startswith("Self CPU time total: ")  # row_limit=1
    by_shape = prof.key_averages(group_by_input_shape=True)
    shapes = {(e.key, str(e.input_shapes)) for e in by_shape}
    assert ("aten::add", "[[3], [3], []]") in shapes and ("aten::mul", "[[3], [3]]") in shapes
    assert "Input Shapes" in by_shape.table()


def test_table_rejects_an_unknown_sort_key() -> None:
    with profile() as prof:
        torch.ones(1) + 1
    with pytest.raises(AttributeError, match="no attribute 'bogus'"):
        prof.key_averages().table(sort_by="bogus")


def test_schedule_records_active_steps_only() -> None:
    ready = []
    x = torch.ones(2)
    sched = schedule(wait=1, warmup=1, active=2, repeat=1)
    assert [sched(i) for i in range(5)] == [
        ProfilerAction.NONE,
        ProfilerAction.WARMUP,
        ProfilerAction.RECORD,
        ProfilerAction.RECORD_AND_SAVE,
        ProfilerAction.NONE,
    ]
    with profile(schedule=sched, on_trace_ready=ready.append) as prof:
        for _ in range(6):
            x + 1
            prof.step()
    assert ready == [prof]
    top = [e.trace_name for e in prof.events() if e.cpu_parent is None]
    assert top == ["ProfilerStep#2", "ProfilerStep#3"]
    assert [e.key for e in prof.key_averages() if e.key.startswith("Profiler")] == ["ProfilerStep*"]


def test_schedule_rejects_bad_arguments() -> None:
    with pytest.raises(AssertionError, match="Invalid profiler schedule"):
        schedule(wait=0, warmup=0, active=0)
    with pytest.warns(UserWarning, match="warmup"):
        schedule(wait=0, warmup=0, active=1)


def test_chrome_trace_and_tensorboard_handler(tmp_path) -> None:  # noqa: ANN001
    x = torch.ones(2)
    with profile(record_shapes=True) as prof:
        with record_function("block"):
            x + x
    path = str(tmp_path / "t.json")
    prof.export_chrome_trace(path)
    data = json.loads(open(path).read())
    spans = [e for e in data["traceEvents"] if e.get("ph") == "X"]
    assert [(e["name"], e["cat"]) for e in spans] == [
        ("block", "user_annotation"),
        ("aten::add", "cpu_op"),
    ]
    assert spans[1]["args"]["Input Dims"] == [[2], [2], []]  # alpha's default included
    assert spans[0]["ts"] <= spans[1]["ts"] and spans[1]["dur"] <= spans[0]["dur"]
    handler = tensorboard_trace_handler(str(tmp_path / "tb"), worker_name="w")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched = schedule(wait=0, warmup=0, active=1, repeat=1)
    with profile(schedule=sched, on_trace_ready=handler) as p2:
        x + 1
        p2.step()
    files = os.listdir(tmp_path / "tb")
    assert len(files) == 1 and files[0].startswith("w.") and files[0].endswith(".pt.trace.json")


def test_internal_calls_as_pytorchs_kernels_make_them() -> None:
    # PyTorch 2.13's torch.profiler trees for the same calls (its C++ kernels call these
    # operators; keyroute's profiler adds their events, keyroute/profiler/_internal_calls.py)
    x, d = torch.ones(3), torch.ones(3, dtype=torch.float64)
    to = ("aten::to", [("aten::_to_copy", [("aten::empty_strided", []), ("aten::copy_", [])])])
    with profile() as prof:
        x + 1
        d + 1.0
        x.relu()
        x.sum()
        torch.ones(2, 3).t()
    assert _tree(prof.events()) == [
        ("aten::add", [to]),
        ("aten::add", []),
        ("aten::relu", [("aten::clamp_min", [])]),
        ("aten::sum", [("aten::as_strided", []), ("aten::fill_", [])]),
        ("aten::ones", [("aten::empty", []), ("aten::fill_", [])]),
        ("aten::t", [("aten::transpose", [("aten::as_strided", [])])]),
    ]
    assert {e.kind for e in prof.events() if e.name == "aten::clamp_min"} == {"internal"}


def test_synthesized_events_nest_in_time_within_their_operator() -> None:
    # the added events have no times of their own: they are laid out one nanosecond apart
    # inside the operator's event, so a timeline shows them nested and in order
    x = torch.ones(2, 3)
    with profile() as prof:
        x.t()
        x + 1
    events = prof.events()
    for e in events:
        for c in e.cpu_children:
            assert e.time_range.start <= c.time_range.start
            assert c.time_range.end <= e.time_range.end
        kids = e.cpu_children
        for a, b in zip(kids, kids[1:]):
            assert a.time_range.end <= b.time_range.start
    tops = [e for e in events if e.cpu_parent is None]
    assert tops[0].time_range.end <= tops[1].time_range.start


@pytest.mark.parametrize("full", [False, True])
def test_scalar_tensor_has_no_children_on_cpu_only(full: bool) -> None:
    # PyTorch's CPU scalar_tensor allocates and fills without the dispatcher; on other devices
    # its empty + fill_ are events (as keyroute's); with record_shapes/profile_memory the same
    x = torch.ones(3)
    kw = {"record_shapes": True, "profile_memory": True} if full else {}
    with profile(**kw) as prof:
        torch.where(x > 0, x, 0.0)
        torch.scalar_tensor(1.0, device="meta")
    tree = _tree(prof.events())
    where = ("aten::scalar_tensor", []), ("aten::to", []), ("aten::where", [("aten::empty", [])])
    assert tree[1] == ("aten::where", list(where))
    assert tree[2] == ("aten::scalar_tensor", [("aten::empty", []), ("aten::fill_", [])])


@pytest.mark.parametrize("to_float", [False, True])
def test_cast_rule_shortcuts_agree_with_result_type(to_float: bool) -> None:
    # _casts answers the common operand pairs without result_type (it runs on every profiled
    # binary call): every pair here must get the answer of the general path
    from keyroute.profiler import _internal_calls as ic

    dtypes = [torch.bool, torch.int32, torch.int64, torch.float32, torch.float64, torch.complex64]
    tensors = [torch.ones(s, dtype=d) for d in dtypes for s in ((), (2,))]
    others = [*tensors, True, 3, 2.5, 1j, None]
    for a in tensors:
        for b in others:
            got = ic._casts(a, b, to_float=to_float)
            common = ic._common(a, b, to_float=to_float)
            want = tuple(ic._CAST for v in (a, b) if ic._dtype_name(v) not in (None, common))
            if b is None and not to_float:
                want = ()  # (not a number: no operand to cast)
            assert got == want, (a.dtype, a.dim(), b if not hasattr(b, "dtype") else b.dtype)


def test_with_dispatch_children_per_key_and_group_by_dispatch_key() -> None:
    w = torch.ones(3, 3, requires_grad=True)
    with profile(with_dispatch=True) as prof:
        (w * 2).sum()
    tree = _tree(prof.events())
    assert tree[0] == ("aten::mul", [("AutogradCPU", [("CPU", [])])])
    layers = {e.key: e.count for e in prof.key_averages(group_by="dispatch_key")}
    assert layers == {"AutogradCPU": 2, "CPU": 2}
    with pytest.raises(ValueError, match="group_by"):
        prof.key_averages(group_by="nope")
    # Without with_dispatch no layer events, and no plain-path shortcut was disabled after.
    assert not dtrace.every_layer


def test_with_dispatch_shows_every_layer_of_a_plain_call() -> None:
    x = torch.ones(3)
    with profile(with_dispatch=True) as prof:
        x + 1
    # No input requires grad: the plain path would skip autograd; the layers view shows it.
    assert _tree(prof.events()) == [("aten::add", [("AutogradCPU", [("CPU", [])])])]


def test_profile_memory_allocations_frees_and_peak() -> None:
    a = torch.ones(100, 100)
    with profile(profile_memory=True) as prof:
        b = a * 2  # 40000 bytes
        c = b + 1  # 40000 bytes
        del b  # freed outside any operator
        d = c.sum()  # 4 bytes
    avg = {e.key: e for e in prof.key_averages()}
    assert avg["aten::mul"].self_cpu_memory_usage == 40000
    assert avg["aten::add"].self_cpu_memory_usage == 40000
    assert avg["aten::sum"].self_cpu_memory_usage == 4
    assert prof.peak_memory() == 80000
    assert "CPU Mem" in prof.key_averages().table()
    del c, d


def test_memory_timeline(tmp_path) -> None:  # noqa: ANN001
    with profile(profile_memory=True) as prof:
        t = torch.ones(10)
        del t
    path = tmp_path / "mem.json"
    prof.export_memory_timeline(str(path))
    times, (sizes,) = json.loads(path.read_text())
    assert sizes == [40, 0] and times[0] <= times[1]
    prof.export_memory_timeline(str(tmp_path / "mem.html"))
    assert "<svg" in (tmp_path / "mem.html").read_text()
    with profile() as p2:
        pass
    with pytest.raises(AssertionError, match="profile_memory=True"):
        p2.export_memory_timeline(str(path))


def test_with_stack_and_flops() -> None:
    a, b = torch.ones(4, 5), torch.ones(5, 6)
    with profile(with_stack=True, with_flops=True) as prof:
        torch.mm(a, b)
    (e,) = [e for e in prof.events() if e.name == "aten::mm"]
    assert e.flops == 2 * 4 * 5 * 6
    assert any("test_profiler.py" in s for s in e.stack)
    assert "Total FLOPs" in prof.key_averages().table()


def test_bad_activity_is_refused() -> None:
    with pytest.raises(TypeError, match="ProfilerActivity"):
        profile(activities=["cpu"])  # type: ignore[list-item]


def test_table_header_matches_pytorch_for_the_same_events() -> None:
    real = pytest.importorskip("torch")
    if not hasattr(real, "profiler") or real is torch:
        pytest.skip("torch is keyroute here")

    def program(lib):  # noqa: ANN001, ANN202
        x = lib.ones(3)
        with lib.profiler.profile() as prof:
            with lib.profiler.record_function("step"):
                x * x  # no scalar operand: PyTorch's kernel calls nothing more
        return prof.key_averages().table(sort_by="count").splitlines()

    mine, theirs = program(torch), program(real)
    assert mine[:3] == theirs[:3]  # separator, header, separator: same columns and widths
    assert sorted(line.split()[0] for line in mine[3:-2]) == sorted(
        line.split()[0] for line in theirs[3:-2]
    )


def test_autograd_profiler_names() -> None:
    with torch.autograd.profiler.profile() as prof:
        with torch.autograd.profiler.record_function("span"):
            torch.ones(2) * 2
    assert [e.name for e in prof.events()][:1] == ["span"]
    assert torch.autograd.profiler.record_function is record_function


def test_measured_peak_agrees_with_the_memory_planner() -> None:
    from keyroute.utils.memory import estimate_memory

    torch.manual_seed(0)
    m = torch.nn.Sequential(
        torch.nn.Linear(64, 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, 256),
        torch.nn.Linear(256, 10),
    )
    x = torch.randn(32, 64)
    with torch.no_grad():
        planned = estimate_memory(m, x).activation_peak_bytes
        with profile(profile_memory=True) as prof:
            out = m(x)
            del out
    # Views of the weights (t()) and of the input allocate nothing; each activation does.
    assert planned > 0 and prof.peak_memory() == planned
