"""FakeTensorMode against PyTorch's recorded behaviour (tests/data/fake_cases.json, written by
tools/record_fake.py): results' type, device, shape, strides and dtype; errors' type and
message (DataDependentOutputException and DynamicOutputShapeException messages start with
PyTorch's, which names the operator, and go on to say why); plus checks that need no oracle.
"""

from __future__ import annotations

import importlib.util
import json
import os
from functools import cache
from typing import Any

import pytest

import keyroute
from keyroute.subclasses import FakeTensor, FakeTensorMode
from keyroute.subclasses.fake_tensor import (
    DataDependentOutputException,
    DynamicOutputShapeException,
)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DATA = os.path.join(ROOT, "tests", "data", "fake_cases.json")


@cache
def tool() -> Any:
    path = os.path.join(ROOT, "tools", "record_fake.py")
    spec = importlib.util.spec_from_file_location("record_fake", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@cache
def cases() -> list[dict[str, Any]]:
    with open(DATA) as f:
        return json.load(f)


def _gaps() -> dict[str, str]:
    out = {}
    with open(os.path.join(os.path.dirname(__file__), "known_gaps.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(" ")
                out[name] = reason
    return out


GAPS = _gaps()


def _matches(case: dict[str, Any], got: dict[str, Any]) -> bool:
    expected = case["expected"]
    if got == expected:
        return True
    if case.get("msg") == "prefix" and "error" in expected:
        return got.get("error") == expected["error"] and got.get("msg", "").startswith(
            expected["msg"]
        )
    return False


def test_recorded_cases_cover_the_issue() -> None:
    ids = {c["id"] for c in cases()}
    assert len(ids) == len(cases()) >= 100
    assert set(GAPS) <= ids, sorted(set(GAPS) - ids)


@pytest.mark.parametrize("case_id", [c["id"] for c in cases()])
def test_matches_pytorch(case_id: str) -> None:
    case = next(c for c in cases() if c["id"] == case_id)
    got = tool().run_case(keyroute, FakeTensorMode, case)
    if case_id in GAPS:
        assert not _matches(case, got), f"known gap {case_id} is fixed: remove it ({GAPS[case_id]})"
        return
    assert _matches(case, got), (
        f"{case_id}:\n{case['code']}\nexpected {case['expected']}\ngot {got}"
    )


# -- the "why" keyroute adds to PyTorch's messages --------------------------------------------
@pytest.mark.parametrize(
    "expr,exc,op,why",
    [
        ("x.nonzero()", DynamicOutputShapeException, "aten.nonzero.default", "output's shape"),
        (
            "x.masked_select(x > 0)",
            DynamicOutputShapeException,
            "aten.masked_select.default",
            "output's shape",
        ),
        (
            "x.sum().item()",
            DataDependentOutputException,
            "aten._local_scalar_dense.default",
            "depends on the tensor's data",
        ),
        (
            "x.tolist()",
            DataDependentOutputException,
            "aten._local_scalar_dense.default",
            "depends on the tensor's data",
        ),
    ],
)
def test_data_dependent_errors_name_the_operator_and_why(
    expr: str, exc: type, op: str, why: str
) -> None:
    with FakeTensorMode():
        env = {"x": keyroute.empty(3, 4)}
        with pytest.raises(exc) as info:
            eval(expr, env)
    assert str(info.value).startswith(op + ":")
    assert why in str(info.value) and "FakeTensor holds no data" in str(info.value)
    assert str(info.value.func) == op


def test_numpy_is_refused_naming_the_call() -> None:
    f = FakeTensorMode().from_tensor(keyroute.ones(2))
    with pytest.raises(RuntimeError, match=r"^\.numpy\(\) is not supported for tensor subclasses"):
        f.numpy()


# -- no data --------------------------------------------------------------------------------
def test_fake_tensors_hold_no_data() -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        with FakeTensorMode():
            x = keyroute.empty(1 << 16, 1 << 14, device="cuda:0")  # 4 GiB of float32
            y = (x @ keyroute.empty(1 << 14, 1 << 15, device="cuda:0")).relu()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert y.shape == (1 << 16, 1 << 15) and y.device == keyroute.device("cuda", 0)
    assert peak < 1 << 20, peak
    assert not hasattr(y._data, "__array_interface__")


def test_seed_example_shapes() -> None:
    with FakeTensorMode():
        x = keyroute.empty(4, 128, 8192)
        h = keyroute.nn.functional.silu(x @ keyroute.empty(8192, 28672))
    assert type(h) is FakeTensor and tuple(h.shape) == (4, 128, 28672)
    assert h.numel() * 2 // 2**20 == 28


def test_from_real_tensor_keeps_metadata_and_device() -> None:
    mode = FakeTensorMode()
    r = keyroute.arange(24.0).view(4, 6)[1:, ::2]
    for f in (
        mode.from_tensor(r),
        mode.fake_tensor_converter.from_real_tensor(mode, r),
        mode.from_real_tensor(r),
    ):
        assert type(f) is FakeTensor and f.fake_mode is mode
        assert (f.shape, f.stride(), f.storage_offset(), f.dtype, f.device) == (
            r.shape,
            r.stride(),
            r.storage_offset(),
            r.dtype,
            r.device,
        )
    # the same real tensor gives the same fake; views of one storage share one fake storage
    assert mode.from_tensor(r) is mode.from_tensor(r)
    base = mode.from_tensor(r._base)
    assert mode.from_tensor(r)._data.storage is base._data.storage


def test_errors_leave_the_mode_stack_and_inputs_unchanged() -> None:
    from keyroute.utils.python_dispatch import _len_torch_dispatch_stack

    mode = FakeTensorMode()
    with mode:
        x = keyroute.empty(3, 4)
        before = (x.shape, x.stride(), x._version)
        with pytest.raises(RuntimeError):
            x + keyroute.empty(3, 4, device="cuda")
        with pytest.raises(DynamicOutputShapeException):
            x.nonzero()
        assert _len_torch_dispatch_stack() == 1
    assert _len_torch_dispatch_stack() == 0
    assert (x.shape, x.stride(), x._version) == before


def test_private_alias_is_the_same_module() -> None:
    from keyroute._subclasses.fake_tensor import FakeTensorMode as Aliased

    import keyroute._subclasses as private
    from keyroute.subclasses import fake_tensor

    assert Aliased is FakeTensorMode and private.FakeTensor is FakeTensor
    assert private.fake_tensor is fake_tensor
    assert private.fake_tensor.DataDependentOutputException is DataDependentOutputException
