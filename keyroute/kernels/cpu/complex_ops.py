"""CPU kernels of angle, polar and complex (aten/complex_ops.py), elementwise as PyTorch's:
angle of a real number is pi below zero, 0 otherwise, NaN stays NaN; polar is
abs * (cos(angle) + i sin(angle)) in the inputs' precision."""

from __future__ import annotations

import numpy as np

from ...aten.complex_ops import angle as angle_meta
from ._kernel import fix_empty, kernel, wrap

__all__: list[str] = []


@kernel("angle")
def angle_k(self):
    out = angle_meta(self)._dtype
    a = self._data
    if self._dtype.is_complex:
        r = np.angle(a).astype(out.np, copy=False)
    else:
        x = a.astype(out.np, copy=False)
        r = np.where(x < 0, out.np.type(np.pi), out.np.type(0)).astype(out.np)
        if self._dtype.is_floating_point:
            r = np.where(np.isnan(x), x, r)
    return wrap(fix_empty(np.ascontiguousarray(r)), out)


def _pair(name: str):
    from ...aten import complex_ops as C

    meta_fn = getattr(C, name)

    def k(a, b):
        out = meta_fn(a, b)._dtype
        x, y = np.broadcast_arrays(a._data, b._data)
        r = np.empty(x.shape, dtype=out.np)
        if name == "polar":
            r.real = x * np.cos(y)
            r.imag = x * np.sin(y)
        else:
            r.real = x
            r.imag = y
        return wrap(fix_empty(r), out)

    k.__name__ = f"{name}_k"
    kernel(name)(k)
    return k


polar_k = _pair("polar")
complex_k = _pair("complex")
