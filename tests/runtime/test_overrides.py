"""keyroute.overrides: __torch_function__ on subclasses, tensor-likes and TorchFunctionModes,
with PyTorch's semantics (as in torch/overrides.py and the "Extending PyTorch" notes); the
wrappers leave the plain path alone while nothing uses them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import keyroute
from keyroute import overrides
from keyroute.overrides import TorchFunctionMode, resolve_name


def _plain_path_untouched() -> bool:
    return not overrides._installed


def test_import_leaves_the_plain_path_unwrapped() -> None:
    # A fresh interpreter: nothing has defined a __torch_function__ yet.
    code = textwrap.dedent(
        """
        import keyroute, keyroute.overrides as o
        add = keyroute.Tensor.__add__
        assert not o._installed and keyroute.add.__name__ == 'add'
        with o.TorchFunctionMode.__new__(type('M', (o.BaseTorchFunctionMode,), {})):
            assert o._installed
        assert not o._installed and keyroute.Tensor.__add__ is add
        print('ok')
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "ok", out.stderr


class _Log(TorchFunctionMode):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str | None] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        self.seen.append(resolve_name(func))
        return func(*args, **(kwargs or {}))


def test_mode_sees_outermost_public_calls_only(torch_names: None) -> None:
    with _Log() as log:
        a = keyroute.ones(3)
        b = keyroute.nn.functional.relu(a - 2) + a
        c = b.sum()
    assert log.seen == [
        "torch.ones",
        "torch.Tensor.sub",
        "torch.nn.functional.relu",
        "torch.Tensor.add",
        "torch.Tensor.sum",
    ]
    assert c.item() == 3.0


def test_nested_modes_innermost_first() -> None:
    order: list[str] = []

    class Named(TorchFunctionMode):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

        def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
            order.append(self.name)
            return func(*args, **(kwargs or {}))

    with Named("outer"), Named("inner"):
        keyroute.zeros(1)
    assert order == ["inner", "outer"]


def test_subclass_survives_operators_and_keeps_autograd() -> None:
    class Sub(keyroute.Tensor):
        pass

    x = keyroute.ones(2, requires_grad=True)
    y = (x * 2).as_subclass(Sub)
    z = y + 1
    assert type(z) is Sub and type(keyroute.add(z, 1)) is Sub
    assert type(keyroute.ones(2) + z) is Sub and type(keyroute.cat([keyroute.ones(1), z])) is Sub
    z.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_parameter_opts_out() -> None:
    p = keyroute.nn.Parameter(keyroute.ones(2))
    assert type(p * 2) is keyroute.Tensor


def test_tensor_like_and_not_implemented_message(torch_names: None) -> None:
    class Like:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN206
            return ("like", resolve_name(func))

    class Refuses:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN206
            return NotImplemented

    assert keyroute.add(Like(), 1) == ("like", "torch.add")
    assert overrides.has_torch_function([Like()]) and not overrides.has_torch_function([1])
    with pytest.raises(TypeError, match=r"Multiple dispatch failed for 'torch.add'; all"):
        keyroute.add(Refuses(), 1)


def test_handle_torch_function_for_user_functions() -> None:
    class Like:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN206
            return f"handled {func.__name__}{args[1:]}"

    def my_op(x, k=1):  # noqa: ANN001, ANN202
        if overrides.has_torch_function_unary(x):
            return overrides.handle_torch_function(my_op, (x,), x, k)
        return x * k

    assert my_op(3, 2) == 6
    assert my_op(Like(), 2) == "handled my_op(2,)"


def test_disable_torch_function_subclass() -> None:
    class Sub(keyroute.Tensor):
        pass

    s = keyroute.ones(2).as_subclass(Sub)
    with keyroute._C.DisableTorchFunctionSubclass():
        assert type(s + 1) is keyroute.Tensor
    assert type(s + 1) is Sub


def test_ignored_and_overridable_functions() -> None:
    ov = overrides.get_overridable_functions()
    assert (
        keyroute.add in ov[keyroute] and keyroute.manual_seed in overrides.get_ignored_functions()
    )
    assert overrides.is_tensor_like(keyroute.ones(1)) and not overrides.is_tensor_like(1)


def test_importing_pytorch_beside_keyroute_installs_no_wrappers() -> None:
    """torch.Tensor and other PyTorch classes define __torch_function__; importing PyTorch in a
    keyroute process (to compare with it) must leave keyroute's plain functions in place.
    A fresh process: wrappers, once installed, stay while a tensor-like class exists."""
    pytest.importorskip("torch")
    code = (
        "import keyroute, keyroute.overrides as o\n"
        "import keyroute.nn.functional as F\n"
        "before = (keyroute.add, F.relu)\n"
        "import torch\n"
        "assert not o._installed, 'wrappers installed by importing torch'\n"
        "assert before == (keyroute.add, F.relu)\n"
        "class Like:\n"
        "    @classmethod\n"
        "    def __torch_function__(cls, func, types, args=(), kwargs=None):\n"
        "        return 'seen'\n"
        "assert o._installed, 'a user tensor-like class still installs them'\n"
        "assert keyroute.add(Like(), 1) == 'seen'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_class_of_pytorch_is_recognised() -> None:
    from keyroute.overrides import _of_pytorch

    ns = {"__module__": "torch._tensor", "__torch_function__": classmethod(lambda *a: None)}
    assert _of_pytorch(type("Tensor", (), ns))
    ns["__module__"] = "torch_helpers"
    assert not _of_pytorch(type("Like", (), ns))
    ns["__module__"] = "__main__"
    assert not _of_pytorch(type("Like", (), ns))
