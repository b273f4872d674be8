"""keyroute's device and stand-in modules (cuda, backends, accelerator, mps, amp, jit, onnx,
distributed, Tag, __future__) answer as PyTorch's CPU build, recorded by
tools/record_runtime_modules.py; TorchFunctionMode sees the functions PyTorch's does."""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

import pytest

import keyroute
import keyroute.__future__  # noqa: F401

DATA = pathlib.Path(__file__).parents[1] / "data/runtime"
CASES = json.loads((DATA / "modules.json").read_text())["cases"]
DUNDERS = json.loads((DATA / "dunders.json").read_text())

#: Where keyroute answers differently from PyTorch's CPU build, on purpose.
DIFFERENCES = {
    # keyroute has no oneDNN, opt_einsum is not installed here either way
    "torch.backends.mkldnn.enabled": None,
}


def _outcome(expr: str) -> dict[str, object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(expr, {"torch": keyroute})  # noqa: S307  (recorded case list)
        except Exception as e:  # noqa: BLE001
            return {"error": type(e).__name__, "message": str(e)}
    return {"value": repr(value)}


@pytest.mark.parametrize("expr", sorted(CASES))
def test_module_answers_as_pytorch_cpu_build(expr: str, torch_names: None) -> None:
    if expr.startswith("torch.backends.opt_einsum") and keyroute.backends.opt_einsum.enabled:
        pytest.skip("opt_einsum installed here: the recording has it absent")
    assert _outcome(expr) == CASES[expr]


def _tools() -> object:
    sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "tools"))
    try:
        import record_runtime_modules
    finally:
        sys.path.pop(0)
    return record_runtime_modules


def _gaps() -> dict[str, str]:
    out = {}
    for line in (pathlib.Path(__file__).parent / "known_gaps.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, why = line.partition(":")
            out[name.strip()] = why.strip()
    return out


GAPS = _gaps()


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            n,
            marks=pytest.mark.xfail(
                reason=GAPS[f"test_function_mode_sees_pytorchs_names[{n}]"], strict=True
            ),
        )
        if f"test_function_mode_sees_pytorchs_names[{n}]" in GAPS
        else n
        for n in sorted(DUNDERS)
    ],
)
def test_function_mode_sees_pytorchs_names(name: str, torch_names: None) -> None:
    assert _tools().dunder_calls(keyroute, name) == DUNDERS[name]


def test_stand_ins_fail_on_use_not_on_import() -> None:
    import keyroute.distributed as dist
    import keyroute.jit
    import keyroute.onnx

    assert not dist.is_available() and not dist.is_initialized()
    with pytest.raises(NotImplementedError, match="torch.distributed.init_process_group"):
        dist.init_process_group("gloo")
    with pytest.raises(NotImplementedError, match="torch.onnx.export"):
        keyroute.onnx.export(None, None, "m.onnx")
    with pytest.raises(NotImplementedError, match="torch.jit.save"):
        keyroute.jit.save(None, "m.pt")
    with pytest.raises(AttributeError):
        dist.no_such_function  # noqa: B018
    f = lambda x: x + 1  # noqa: E731
    assert keyroute.jit.script(f) is f and keyroute.jit.trace(f, keyroute.ones(1)) is f


def test_cudnn_flags_restore() -> None:
    cudnn = keyroute.backends.cudnn
    with cudnn.flags(enabled=False, benchmark=True):
        assert cudnn.enabled is False and cudnn.benchmark is True
    assert cudnn.enabled is True and cudnn.benchmark is False


def test_nn_modules_file_layout() -> None:
    import keyroute.nn.modules.activation as activation
    import keyroute.nn.modules.conv as conv
    import keyroute.nn.modules.linear as linear

    assert linear.Linear is keyroute.nn.Linear
    assert conv.Conv2d is keyroute.nn.Conv2d and activation.ReLU is keyroute.nn.ReLU
    assert keyroute.nn.Linear.__module__ == "keyroute.nn.modules.linear"
    assert keyroute.nn.CrossEntropyLoss.__module__ == "keyroute.nn.modules.loss"


def test_torch_names_switch_and_restore() -> None:
    from keyroute import _naming

    _naming.set_name("torch")
    try:
        assert repr(keyroute.float16) == "torch.float16"
        assert repr(keyroute.ones(2, 3).shape) == "torch.Size([2, 3])"
        assert "dtype=torch.float16" in repr(keyroute.ones(2, dtype=keyroute.float16))
        assert keyroute.nn.Linear.__module__ == "torch.nn.modules.linear"
        assert str(keyroute.Tensor) == "<class 'torch.Tensor'>"
    finally:
        _naming.set_name("keyroute")
    assert repr(keyroute.float16) == "keyroute.float16"
    assert keyroute.nn.Linear.__module__ == "keyroute.nn.modules.linear"
    with pytest.raises(ValueError, match="expected 'torch' or 'keyroute'"):
        _naming.set_name("numpy")
