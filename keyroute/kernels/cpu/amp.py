"""CPU kernels of the GradScaler's operators (aten/amp_ops.py), in PyTorch's arithmetic
(AmpGradScalerKernels.cpp): float32/float64 gradients are multiplied in their own type;
bfloat16/float16 ones in float32 and rounded back; an inverse scale of exactly 1 leaves the
values untouched. The scale update multiplies the float32 scale by the double factor and
rounds to float32, and never grows the scale to inf.
"""

from __future__ import annotations

import math

import numpy as np

from ...aten.amp_ops import check_unscale, check_update
from ._kernel import kernel

__all__: list[str] = []


@kernel("_amp_foreach_non_finite_check_and_unscale_")
def amp_unscale_(self, found_inf, inv_scale):
    check_unscale(self, found_inf, inv_scale, "cpu")
    if not self:
        return None
    inv = np.float32(inv_scale._data.reshape(()))
    found = False
    for t in self:
        a = t._data
        wide = a.dtype.itemsize < 4  # bfloat16 / float16: opmath is float32
        v = a.astype(np.float32) if wide else a
        if not found and not np.isfinite(v).all():
            found = True
        if inv != 1:
            a[...] = (v * inv.astype(v.dtype)).astype(a.dtype) if wide else v * inv.astype(a.dtype)
    if found:
        found_inf._data[...] = 1.0
    return None


@kernel("_amp_update_scale_")
def amp_update_scale_(
    self, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval
):
    check_update(self, growth_tracker, found_inf, "cpu")
    scale = self._data
    tracker = growth_tracker._data
    current = float(scale.reshape(()))
    if float(found_inf._data.reshape(())):
        scale[...] = np.float32(current * scale_backoff_factor)
        tracker[...] = 0
    else:
        successful = int(tracker.reshape(())) + 1
        if successful == growth_interval:
            grown = np.float32(current * scale_growth_factor)
            if math.isfinite(float(grown)):
                scale[...] = grown
            tracker[...] = 0
        else:
            tracker[...] = successful
    return self
