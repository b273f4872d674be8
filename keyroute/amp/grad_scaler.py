"""torch.amp.GradScaler: dynamic loss scaling for mixed-precision training, as PyTorch 2.13's.

`scale(loss)` multiplies by a float32 scale tensor created on the first call (lazily, on the
loss's device). `unscale_(opt)` groups the optimizer's gradients by device and dtype and runs
`_amp_foreach_non_finite_check_and_unscale_` on each group with the scale's inverse (computed
in float64, rounded to float32), recording per device whether any gradient was inf/NaN.
`step(opt)` unscales if needed and skips `opt.step()` when an inf/NaN was found; `update()` runs
`_amp_update_scale_` (back off on inf/NaN, grow after `growth_interval` clean steps) and resets
the per-optimizer stages. On the "cuda" device without a CUDA device it disables itself with
PyTorch's warning.
"""

from __future__ import annotations

import warnings
from collections import abc, defaultdict
from enum import Enum
from typing import Any

__all__ = ["OptState", "GradScaler"]


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_state() -> dict[str, Any]:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class _PerDevice:
    """One master tensor copied lazily to each device that asks for it."""

    def __init__(self, master: Any) -> None:
        self.master = master
        self.per_device: dict[Any, Any] = {}

    def get(self, device: Any) -> Any:
        t = self.per_device.get(device)
        if t is None:
            t = self.master.to(device=device, non_blocking=True, copy=True)
            self.per_device[device] = t
        return t


_FIX = (
    "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the "
    "iteration."
)


class GradScaler:
    """torch.amp.GradScaler(device="cuda", init_scale=2.**16, growth_factor=2.0,
    backoff_factor=0.5, growth_interval=2000, enabled=True)."""

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            import keyroute  # the public face: keyroute.cuda knows whether a device is there

            if not keyroute.cuda.is_available():
                warnings.warn(
                    "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                    stacklevel=2,
                )
                self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale: Any = None  # made on the first scale() call, on the loss's device
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker: Any = None
            self._per_optimizer_states: dict[int, dict[str, Any]] = defaultdict(_fresh_state)

    # -- state ---------------------------------------------------------------------------------

    def _check_scale_growth_tracker(self, funcname: str) -> tuple[Any, Any]:
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + _FIX)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + _FIX)
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self, dev: Any) -> None:
        import keyroute

        if self._growth_tracker is not None:
            raise AssertionError("_growth_tracker initialized before _scale")
        self._scale = keyroute.full((), self._init_scale, dtype=keyroute.float32, device=dev)
        self._growth_tracker = keyroute.full(
            (), self._init_growth_tracker, dtype=keyroute.int32, device=dev
        )

    # -- the iteration -------------------------------------------------------------------------

    def scale(self, outputs: Any) -> Any:
        from ..tensor._tensor import Tensor

        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device, non_blocking=True)
        stash: list[_PerDevice] = []

        def apply(val: Any) -> Any:
            if isinstance(val, Tensor):
                if not stash:
                    if self._scale is None:
                        self._lazy_init_scale_growth_tracker(val.device)
                    stash.append(_PerDevice(self._scale))
                return val * stash[0].get(val.device)
            if isinstance(val, abc.Iterable):
                scaled = map(apply, val)
                return type(val)(scaled) if isinstance(val, (list, tuple)) else scaled
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply(outputs)

    def _unscale_grads_(
        self, optimizer: Any, inv_scale: Any, found_inf: Any, allow_fp16: bool
    ) -> dict[Any, Any]:
        import keyroute

        from ..tensor._tensor import Tensor

        per_device_inv = _PerDevice(inv_scale)
        per_device_found = _PerDevice(found_inf)
        groups: dict[Any, dict[Any, list[Any]]] = defaultdict(lambda: defaultdict(list))
        with keyroute.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if not isinstance(param, Tensor):
                        raise AssertionError(
                            f"expected param to be torch.Tensor, got {type(param).__name__}"
                        )
                    if param.grad is None:
                        continue
                    if not allow_fp16 and param.grad.dtype is keyroute.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    grad = param.grad
                    groups[grad.device][grad.dtype].append(grad)
            for device, per_dtype in groups.items():
                for grads in per_dtype.values():
                    keyroute._amp_foreach_non_finite_check_and_unscale_(
                        grads, per_device_found.get(device), per_device_inv.get(device)
                    )
        return per_device_found.per_device

    def unscale_(self, optimizer: Any) -> None:
        import keyroute

        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        # The inverse in float64, then float32, as PyTorch's (exact for powers of two).
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = keyroute.full((), 0.0, dtype=keyroute.float32, device=self._scale.device)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state["stage"] = OptState.UNSCALED

    def _maybe_opt_step(self, optimizer: Any, state: dict[str, Any], *args: Any, **kw: Any) -> Any:
        if not sum(v.item() for v in state["found_inf_per_device"].values()):
            return optimizer.step(*args, **kw)
        return None

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = self._maybe_opt_step(optimizer, state, *args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale: Any = None) -> None:
        import keyroute

        if not self._enabled:
            return
        scale, tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = (
                    "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                    "torch.FloatTensor with requires_grad=False."
                )
                if new_scale.device.type != self._device:
                    raise AssertionError(reason)
                if new_scale.numel() != 1:
                    raise AssertionError(reason)
                if new_scale.requires_grad is True:
                    raise AssertionError(reason)
                self._scale.copy_(new_scale)
        else:
            found_infs = [
                found.to(device=scale.device, non_blocking=True)
                for state in self._per_optimizer_states.values()
                for found in state["found_inf_per_device"].values()
            ]
            if not found_infs:
                raise AssertionError("No inf checks were recorded prior to update.")
            combined = found_infs[0]
            for extra in found_infs[1:]:
                combined += extra
            keyroute._amp_update_scale_(
                scale,
                tracker,
                combined,
                self._growth_factor,
                self._backoff_factor,
                self._growth_interval,
            )
        self._per_optimizer_states = defaultdict(_fresh_state)

    # -- accessors -----------------------------------------------------------------------------

    def _get_scale_async(self) -> Any:
        return self._scale

    def get_scale(self) -> float:
        if self._enabled:
            return self._init_scale if self._scale is None else float(self._scale.item())
        return 1.0

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if self._enabled:
            if self._growth_tracker is None:
                return self._init_growth_tracker
            return int(self._growth_tracker.item())
        return 0

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> dict[str, Any]:
        if self._enabled:
            return {
                "scale": self.get_scale(),
                "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker(),
            }
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved "
                "from a disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError(
                    "A GradScaler instance may only be pickled at the beginning "
                    "of an iteration, or at the end after scaler.update()."
                )
            # The tensors are rebuilt lazily from the plain numbers after unpickling.
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
            state["_per_optimizer_states"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.__dict__.get("_enabled") and self._per_optimizer_states is None:
            self._per_optimizer_states = defaultdict(_fresh_state)

    def _check_inf_per_device(self, optimizer: Any) -> dict[Any, Any]:
        import keyroute

        scale, _ = self._check_scale_growth_tracker("_check_inf_per_device")
        dummy_inv = keyroute.full((), 1.0, dtype=keyroute.float32, device=scale.device)
        found_inf = keyroute.full((), 0.0, dtype=keyroute.float32, device=scale.device)
        self._per_optimizer_states[id(optimizer)]["found_inf_per_device"] = self._unscale_grads_(
            optimizer, dummy_inv, found_inf, True
        )
        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]

    def _found_inf_per_device(self, optimizer: Any) -> dict[Any, Any]:
        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]
