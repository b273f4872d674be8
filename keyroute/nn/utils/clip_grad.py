"""torch.nn.utils.clip_grad: clip_grad_norm_, clip_grad_value_, get_total_norm,
clip_grads_with_norm_.

As PyTorch's: gradients are grouped by (device, dtype); CPU tensors take the foreach path by
default (`_foreach_norm`, `_foreach_mul_`, `_foreach_clamp_min_/max_`), `foreach=False` the
per-tensor one (`linalg_vector_norm`, `mul_`, `clamp_`); the norm is never synced to Python.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from ... import _api  # noqa: F401
from ...aten.linalg import op as _op
from ...autograd.grad_mode import no_grad
from ...tensor._tensor import Tensor
from ._fns import fns

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm",
           "clip_grads_with_norm_"]  # fmt: skip

_F = fns


def _vector_norm(x: Tensor, ord: float = 2, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """torch.linalg.vector_norm (aten::linalg_vector_norm)."""
    return _op("linalg_vector_norm")(x, ord, dim, keepdim)


def _no_grad(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with no_grad():
            return fn(*args, **kwargs)

    return wrapper


def _as_list(tensors: Any) -> list[Tensor]:
    if isinstance(tensors, Tensor):
        return [tensors]
    return list(tensors)


def _group(tensors: list[Tensor]) -> dict[tuple[Any, Any], list[Tensor]]:
    groups: dict[tuple[Any, Any], list[Tensor]] = {}
    for t in tensors:
        groups.setdefault((str(t.device), t.dtype), []).append(t)
    return groups


def _foreach_ok(tensors: list[Tensor], device: str) -> bool:
    """_has_foreach_support: plain tensors on a device with foreach kernels (CPU included)."""
    return device.split(":")[0] in ("cpu", "cuda") and all(
        t is None or type(t) in (Tensor,) or type(t).__name__ == "Parameter" for t in tensors
    )


def _refuse_foreach(device: str) -> None:
    raise RuntimeError(
        f"foreach=True was passed, but can't use the foreach API on {device.split(':')[0]} tensors"
    )


@_no_grad
def get_total_norm(
    tensors: Tensor | Iterable[Tensor],
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """The norm of the norms of `tensors` (as if concatenated into one vector)."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return _F.tensor(0.0)
    first_device = tensors[0].device
    norms: list[Tensor] = []
    for (device, _), group in _group(tensors).items():
        if (foreach is None and _foreach_ok(group, device)) or (
            foreach and _foreach_ok(group, device)
        ):
            norms.extend(_F._foreach_norm(group, norm_type))
        elif foreach:
            _refuse_foreach(device)
        else:
            norms.extend(_vector_norm(g, norm_type) for g in group)
    total = _vector_norm(_F.stack([n.to(first_device) for n in norms]), norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    return total


@_no_grad
def clip_grads_with_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    total_norm: Tensor,
    foreach: bool | None = None,
) -> None:
    """Scale the gradients by max_norm / (total_norm + 1e-6), when that is below 1."""
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    coef = _F.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for (device, _), group in _group(grads).items():
        if (foreach is None and _foreach_ok(group, device)) or (
            foreach and _foreach_ok(group, device)
        ):
            _F._foreach_mul_(group, coef.to(group[0].device))
        elif foreach:
            _refuse_foreach(device)
        else:
            c = coef.to(group[0].device)
            for g in group:
                g.mul_(c)


@_no_grad
def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Clip the gradients' total norm to max_norm, in place; returns the total norm."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        parameters = list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_norm(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Deprecated alias of clip_grad_norm_ (with PyTorch's FutureWarning)."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(
    parameters: Tensor | Iterable[Tensor], clip_value: float, foreach: bool | None = None
) -> None:
    """Clamp every gradient to [-clip_value, clip_value], in place."""
    parameters = _as_list(parameters)
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    for (device, _), group in _group(grads).items():
        if (foreach is None and _foreach_ok(group, device)) or (
            foreach and _foreach_ok(group, device)
        ):
            _F._foreach_clamp_min_(group, -clip_value)
            _F._foreach_clamp_max_(group, clip_value)
        elif foreach:
            _refuse_foreach(device)
        else:
            for g in group:
                g.clamp_(min=-clip_value, max=clip_value)
