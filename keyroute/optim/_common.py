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
    "check_capturable",
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


# What each optimizer's capturable check names, as PyTorch 2.13's _single_tensor_<name> and
# _multi_tensor_<name> word it: (subject, XLA supported) for the single-tensor and the foreach
# step (the two differ: the foreach steps pass supports_xla=False, NAdam's adds a comma).
_CAPTURABLE_CHECKS: dict[str, tuple[tuple[str, bool], tuple[str, bool]]] = {
    "Adam": (("params and state_steps", True), ("params and state_steps", False)),
    "AdamW": (("params and state_steps", True), ("params and state_steps", False)),
    "Adamax": (("params and state_steps", True), ("params and state_steps", False)),
    "RAdam": (("params and state_steps", True), ("params and state_steps", False)),
    "NAdam": (
        ("params, mu_products and state_steps", True),
        ("params, mu_products, and state_steps", False),
    ),
    "ASGD": (
        ("params, mus, etas, and state_steps", True),
        ("params, mus, etas, and state_steps", False),
    ),
    "Rprop": (("params and state_steps", True), ("params and state_steps", True)),
    "Adadelta": (("params and state_steps", False), ("params and state_steps", False)),
    "RMSprop": (("params and state_steps", True), ("params and state_steps", True)),
}


def check_capturable(opt: Any, params: list[Tensor], group: dict[str, Any]) -> None:
    """capturable=True outside torch.compile: PyTorch's assertion that every parameter is on a
    device that can capture the step into a graph (CUDA and the like, not the CPU). It runs
    after the group's state is created, before any update, as PyTorch's does; the fused steps
    have no such check."""
    if not params or not group.get("capturable") or group.get("fused") or compiling():
        return
    for cls in type(opt).__mro__:  # (a user's subclass of Adam words it as Adam)
        check = _CAPTURABLE_CHECKS.get(cls.__name__)
        if check is not None:
            break
    else:
        return
    subject, xla = check[1] if group.get("foreach") else check[0]
    from ..utils.backend_registration import _get_privateuse1_backend_name

    devices = ["cuda", "xpu", "hpu", _get_privateuse1_backend_name()] + (["xla"] if xla else [])
    if not all(p.device.type in devices for p in params):
        raise AssertionError(
            f"If capturable=True, {subject} must be on supported devices: {devices}."
        )
