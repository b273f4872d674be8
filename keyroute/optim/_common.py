"""Pieces the optimizers share, as PyTorch's torch/optim/optimizer.py helpers: the dtype of
`step` and other scalar state, hyper-parameter checks, the closure call, and the state tensors
each optimizer creates on its first step."""

from __future__ import annotations

import sys
from typing import Any

import keyroute as _kr

from ..autograd.grad_mode import enable_grad
from ..tensor._tensor import Tensor

__all__ = [
    "scalar_dtype",
    "scalar_zeros",
    "scalar_tensor",
    "zeros_state",
    "call_closure",
    "check_lr",
    "check_nonneg",
    "check_betas",
    "to_scalar",
    "value",
    "no_sparse",
]


def scalar_dtype() -> Any:
    """The dtype of `step` (and mu, eta, ...): float64 when the default dtype is float64,
    float32 otherwise (PyTorch's _get_scalar_dtype)."""
    return _kr.float64 if _kr.get_default_dtype() == _kr.float64 else _kr.float32


def scalar_zeros() -> Tensor:
    """`torch.zeros((), dtype=_get_scalar_dtype())`: a dispatch mode sees aten.zeros."""
    return _kr.zeros((), dtype=scalar_dtype())


def scalar_tensor(v: float) -> Tensor:
    """`torch.tensor(v, dtype=_get_scalar_dtype())`: a dispatch mode sees aten.lift_fresh."""
    return _kr.tensor(v, dtype=scalar_dtype())


def zeros_state(p: Tensor) -> Tensor:
    return _kr.zeros_like(p, memory_format=_kr.preserve_format)


def call_closure(closure: Any) -> Any:
    """Optimizer.step's closure runs with grad enabled (the step itself under no_grad)."""
    if closure is None:
        return None
    with enable_grad():
        return closure()


def check_lr(lr: Any) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_nonneg(name: str, v: float) -> None:
    """PyTorch's `Invalid <name> value: <v>` for a hyper-parameter that must be >= 0."""
    if not 0.0 <= v:
        raise ValueError(f"Invalid {name} value: {v}")


def check_betas(betas: tuple[float, float]) -> None:
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")


def to_scalar(x: Any) -> Any:
    """A one-element Tensor hyper-parameter (a Tensor lr) as a Python number."""
    return x.item() if isinstance(x, Tensor) else x


def compiling() -> bool:
    """torch.compiler.is_compiling(), without importing the compiler into eager programs."""
    ef = sys.modules.get("keyroute._dynamo.eval_frame")
    return ef is not None and ef._is_compiling()


def value(t: Any) -> Any:
    """PyTorch's _get_value: a 0-dim state tensor read as a Python number (`.item()`)."""
    return t.item() if isinstance(t, Tensor) else t


def no_sparse(name: str, p: Tensor) -> None:
    if p.grad.is_sparse:
        raise RuntimeError(f"{name} does not support sparse gradients")
