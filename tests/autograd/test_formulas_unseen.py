"""Built-in derivative formulas are invisible to __torch_function__, as PyTorch's C++ formulas
are: they call the aten operators directly, never Tensor's Python operators, which go through
the __torch_function__ wrappers once a subclass or mode defines one (keyroute/overrides.py).
A formula rewritten as `grad * other` would show up in these logs and change result types."""

from __future__ import annotations

from typing import Any

import keyroute as torch


class _Logged(torch.Tensor):
    log: list[str] = []

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        cls.log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})


class _LogMode(torch.overrides.TorchFunctionMode):
    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.log.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


def _graph(a: torch.Tensor, b: Any) -> torch.Tensor:
    # mul, div, sub and neg formulas: the ones most tempting to write with operators.
    return -(a * b / b - a)


def test_subclass_grad_output_sees_no_formula_op() -> None:
    a = torch.randn(3, requires_grad=True)
    b = torch.randn(3).as_subclass(_Logged)
    y = _graph(a, b)
    _Logged.log.clear()
    (g,) = torch.autograd.grad(y, a, torch.ones(3).as_subclass(_Logged))
    arithmetic = {"mul", "div", "sub", "neg", "__mul__", "__truediv__", "__sub__", "__neg__"}
    assert not [name for name in _Logged.log if name.strip("_").split("_")[0] in arithmetic]
    assert torch.allclose(g, torch.zeros(3), atol=1e-6)


def test_mode_sees_no_formula_op() -> None:
    a = torch.randn(3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    y = _graph(a, b).sum()
    mode = _LogMode()
    with mode:
        torch.autograd.grad(y, (a, b))
    assert not [n for n in mode.log if n.strip("_").split("_")[0] in ("mul", "div", "sub", "neg")]
