"""repr(tensor) and the print options, against PyTorch's recorded reprs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import keyroute
from keyroute.tensor import repr as repr_mod

from . import recorded, tool

CASES = recorded()["repr"]


@pytest.fixture(autouse=True)
def _default_print_options():
    yield
    keyroute.set_printoptions(profile="default", sci_mode=None)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_repr_matches_pytorch(case):
    assert tool().run_repr(keyroute, case) == case["expected"]


def test_repr_case_count():
    assert len(CASES) >= 150


def test_str_is_repr():
    t = keyroute.tensor([[1.5, -2.0], [3.25, 4.0]])
    assert str(t) == repr(t)


def test_print_options_defaults_and_profiles():
    assert keyroute.get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }
    keyroute.set_printoptions(profile="short")
    assert keyroute.get_printoptions()["precision"] == 2
    assert keyroute.get_printoptions()["edgeitems"] == 2
    keyroute.set_printoptions(profile="full")
    assert keyroute.get_printoptions()["threshold"] == math.inf
    keyroute.set_printoptions(profile="default")
    assert keyroute.get_printoptions()["threshold"] == 1000


def test_sci_mode_is_reset_by_every_call():
    # As PyTorch: set_printoptions always sets sci_mode (None restores the automatic choice).
    keyroute.set_printoptions(sci_mode=True)
    keyroute.set_printoptions(precision=3)
    assert keyroute.get_printoptions()["sci_mode"] is None


def test_printoptions_context_restores():
    t = keyroute.tensor([1.123456])
    with keyroute.printoptions(precision=2):
        assert repr(t) == "tensor([1.12])"
    assert repr(t) == "tensor([1.1235])"


def test_printoptions_context_restores_after_error():
    with pytest.raises(ValueError), keyroute.printoptions(linewidth=20):
        raise ValueError
    assert keyroute.get_printoptions()["linewidth"] == 80


def test_repr_dispatches_no_operator():
    from keyroute.utils.python_dispatch import TorchDispatchMode

    seen = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    t = keyroute.from_numpy(np.arange(2000, dtype=np.float32))
    m = keyroute.ones(3, device="meta")
    with Log():
        repr(t)
        repr(m)
    assert seen == []


def test_tensor_contents_replace_the_data():
    t = keyroute.ones(2)
    assert t.__repr__(tensor_contents="[...]") == "tensor([...])"


class _Node:
    pass


class MulBackward0(_Node):
    pass


class _WithGradFn(keyroute.Tensor):
    @property
    def grad_fn(self):
        return MulBackward0()


class _BrokenGradFn(keyroute.Tensor):
    @property
    def grad_fn(self):
        raise RuntimeError("a view modified in place in no-grad mode")


def _as(cls, t):
    from keyroute.tensor._tensor import make_tensor

    return make_tensor(t._data, t._dtype, t._key_set, cls)


def test_grad_fn_suffix_and_subclass_prefix():
    t = _as(_WithGradFn, keyroute.tensor([1.0, 2.0]))
    assert repr(t) == "_WithGradFn([1., 2.], grad_fn=<MulBackward0>)"


def test_unreadable_grad_fn_prints_invalid():
    t = _as(_BrokenGradFn, keyroute.tensor([1.0]))
    assert repr(t) == "_BrokenGradFn([1.], grad_fn=<Invalid>)"


def test_dtype_suffix_measured_as_pytorch_spells_it():
    # "keyroute.float64" is longer than "torch.float64": lines still break where PyTorch's do.
    t = keyroute.tensor([5.0e-05, 1.2346, 2.5, 1.0e05], dtype=keyroute.float64)
    assert repr(t) == (
        "tensor([5.0000e-05, 1.2346e+00, 2.5000e+00, 1.0000e+05], dtype=keyroute.float64)"
    )


def test_print_opts_object_is_shared():
    keyroute.set_printoptions(precision=6)
    assert repr_mod.PRINT_OPTS.precision == 6
