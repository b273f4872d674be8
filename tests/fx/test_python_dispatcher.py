"""OpOverload.py_impl and enable_python_dispatcher: Python kernels per key and per mode type,
active only inside the context."""

import pytest

import keyroute as torch
from keyroute._dispatch.python import enable_python_dispatcher
from keyroute.dispatcher.keys import DispatchKey
from keyroute.library import Library
from keyroute.utils.python_dispatch import TorchDispatchMode


def _op(name):
    lib = Library("kr_pydisp", "FRAGMENT")
    lib.define(f"{name}(Tensor x) -> Tensor")
    lib.impl(name, lambda x: x + 1, "CPU")
    return lib, getattr(torch.ops.kr_pydisp, name).default


def test_py_impl_for_a_key_only_inside_the_context():
    lib, op = _op("plus_key")
    op.py_impl(DispatchKey.CPU)(lambda x: x + 100)
    x = torch.zeros(1)
    assert float(op(x)) == 1.0
    with enable_python_dispatcher():
        assert float(op(x)) == 100.0
    assert float(op(x)) == 1.0
    with pytest.raises(RuntimeError, match="Trying to override a python impl"):
        op.py_impl(DispatchKey.CPU)(lambda x: x)


def test_py_impl_for_a_mode_type():
    lib, op = _op("plus_mode")

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    op.py_impl(Mode)(lambda mode, x: x * 0 - 7)
    x = torch.zeros(1)
    with Mode():
        assert float(op(x)) == 1.0  # outside the python dispatcher: the mode's handler
    with enable_python_dispatcher(), Mode():
        assert float(op(x)) == -7.0
