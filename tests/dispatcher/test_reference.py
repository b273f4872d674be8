"""The fast paths agree with the reference dispatcher (keyroute/dispatcher/reference.py).

Every recorded dispatch scenario (tests/dispatcher/scenarios.py) runs twice: as keyroute runs
it (generated OpOverload.__call__ specialisations, fast_call dunders, caches, the plain-path
shortcut), and with every top-level operator call sent through `reference.dispatch` instead.
The two runs must produce the same normalized results, errors included.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.dispatcher import scenarios as S
from tests.dispatcher.test_conformance import BASELINE, RECORDED


@contextlib.contextmanager
def reference_calls() -> Iterator[None]:
    """Route OpOverload calls and the hot Tensor dunders through reference.dispatch."""
    kr = importlib.import_module("keyroute")
    operator = importlib.import_module("keyroute.dispatcher.operator")
    dispatch = importlib.import_module("keyroute.dispatcher.reference").dispatch
    aten = kr.ops.aten

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        return dispatch(self, *args, **kwargs)

    def dunder(op: Any) -> Any:
        def method(*args: Any) -> Any:
            try:
                return dispatch(op, *args)
            except TypeError:
                return NotImplemented

        return method

    classes = [operator.OpOverload, *operator._SPECIALIZED.values()]
    saved_calls = {cls: cls.__dict__["__call__"] for cls in classes}
    dunders = {
        "__add__": aten.add.Tensor,
        "__radd__": aten.add.Tensor,
        "__sub__": aten.sub.Tensor,
        "__mul__": aten.mul.Tensor,
        "__rmul__": aten.mul.Tensor,
        "__truediv__": aten.div.Tensor,
        "__iadd__": aten.add_.Tensor,
        "__isub__": aten.sub_.Tensor,
        "__imul__": aten.mul_.Tensor,
        "__itruediv__": aten.div_.Tensor,
    }
    saved_dunders = {name: kr.Tensor.__dict__[name] for name in dunders}
    try:
        for cls in classes:
            cls.__call__ = call
        for name, op in dunders.items():
            setattr(kr.Tensor, name, dunder(op))
        yield
    finally:
        for cls, fn in saved_calls.items():
            cls.__call__ = fn
        for name, fn in saved_dunders.items():
            setattr(kr.Tensor, name, fn)


@pytest.mark.parametrize("name", RECORDED)
def test_fast_path_agrees_with_reference(name: str) -> None:
    kr = importlib.import_module("keyroute")
    fast = S.normalize(S.SCENARIOS[name](kr), BASELINE)
    with reference_calls():
        reference = S.normalize(S.SCENARIOS[name](kr), BASELINE)
    assert reference == fast


def test_reference_is_really_used() -> None:
    """The patch reaches the reference: a call it cannot make (an operator whose table the
    reference reads but never caches) leaves the operator's cache empty."""
    kr = importlib.import_module("keyroute")
    lib = kr.library.Library("kr_reference_probe", "FRAGMENT")
    try:
        lib.define("probe(Tensor x) -> Tensor")
        lib.impl("probe", lambda x: x, "CPU")
        op = kr.ops.kr_reference_probe.probe.default
        with reference_calls():
            op(kr.ones(1))
        assert not op._cache
        op(kr.ones(1))
        assert op._cache
    finally:
        lib._destroy()
