"""The GradScaler's two operators (PyTorch's native_functions.yaml, AmpKernels.cpp):
`_amp_foreach_non_finite_check_and_unscale_` multiplies every gradient of a list by the inverse
scale in place and writes 1.0 into `found_inf` when any element is inf or NaN;
`_amp_update_scale_` grows or backs off the scale in place from `found_inf` and a growth
tracker. Meta functions here check what PyTorch's kernels check (the CPU kernels in
kernels/cpu/amp.py compute).
"""

from __future__ import annotations

from typing import Any

from ..tensor.dtype import float32, int32
from ._define import meta

__all__: list[str] = []


def _one_element_float(t: Any, name: str) -> None:
    if t.numel() != 1:
        raise RuntimeError(f"{name} must be a 1-element tensor.")
    if t._dtype is not float32:
        raise RuntimeError(f"{name} must be a float tensor.")


def check_unscale(grads: Any, found_inf: Any, inv_scale: Any, device: str) -> None:
    """The checks of _amp_foreach_non_finite_check_and_unscale_ (none for an empty list)."""
    if not grads:
        return
    word = device.upper()
    if inv_scale.device.type != device:
        raise RuntimeError(f"inv_scale must be a {word} tensor.")
    if found_inf.device.type != device:
        raise RuntimeError(f"found_inf must be a {word} tensor.")
    _one_element_float(inv_scale, "inv_scale")
    _one_element_float(found_inf, "found_inf")
    # (check_foreach_api_restrictions with one list checks only that it is not empty: the
    # caller groups gradients by dtype, the kernel does not insist.)
    for t in grads:
        if t.device.type != device:
            raise RuntimeError(f"one of scaled_grads was not a {word} tensor.")


def check_update(scale: Any, growth_tracker: Any, found_inf: Any, device: str) -> None:
    """The checks of _amp_update_scale_."""
    word = device.upper()
    for t, name in ((growth_tracker, "growth_tracker"), (scale, "current_scale")):
        if t.device.type != device:
            raise RuntimeError(f"{name} must be a {word} tensor.")
    if found_inf.device.type != device:
        raise RuntimeError(f"found_inf must be a {word} tensor.")
    for t, name in (
        (growth_tracker, "growth_tracker"),
        (scale, "current_scale"),
        (found_inf, "found_inf"),
    ):
        if t.numel() != 1:
            raise RuntimeError(f"{name} must be a 1-element tensor.")
    if growth_tracker._dtype is not int32:
        raise RuntimeError("growth_tracker must be an int tensor.")
    if scale._dtype is not float32:
        raise RuntimeError("current_scale must be a float tensor.")
    if found_inf._dtype is not float32:
        raise RuntimeError("found_inf must be a float tensor.")


@meta(
    "_amp_foreach_non_finite_check_and_unscale_(Tensor(a!)[] self, Tensor(b!) found_inf, "
    "Tensor inv_scale) -> ()"
)
def _amp_foreach_non_finite_check_and_unscale_(self, found_inf, inv_scale):
    return None


@meta(
    "_amp_update_scale_(Tensor(a!) self, Tensor(b!) growth_tracker, Tensor found_inf, "
    "float scale_growth_factor, float scale_backoff_factor, int growth_interval) -> Tensor(a!)"
)
def _amp_update_scale_(
    self, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval
):
    return self
