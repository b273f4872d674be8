"""The anti-aliased interpolation operators behind F.interpolate(antialias=True):
_upsample_bilinear2d_aa and _upsample_bicubic2d_aa, each with its `.vec` overload
(CompositeImplicitAutograd: sizes and scales as UpSample.cpp's compute_output_size) and its
`_backward` operator. Meta rules here, with the tap arithmetic of UpSampleKernel.cpp's
HelperInterp*::_compute_weights_aa: every output position averages the input over a support
widened by the downscaling factor, with a triangle (bilinear) or Keys a=-0.5 cubic (bicubic)
filter, weights normalized to sum to one. Kernels in kernels/cpu/upsample_aa.py, derivatives
in autograd/derivatives/upsample.py.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...tensor._tensor import Tensor
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _not_implemented
from .upsample import _compute_scale, _opmath, compute_output_size, out_strides, upsample_check

__all__ = ["AA_OPS", "AA_BACKWARD_META", "aa_taps"]

#: name -> interpolation kind ("linear" or "cubic")
AA_OPS: dict[str, str] = {"_upsample_bilinear2d_aa": "linear", "_upsample_bicubic2d_aa": "cubic"}
AA_BACKWARD_META: dict[str, Any] = {}


def _filter(kind: str, x: np.ndarray, dt: Any) -> np.ndarray:
    """aa_filter in the opmath type: the triangle, or Keys' cubic with a = -0.5."""
    x = np.abs(x).astype(dt)
    if kind == "linear":
        return np.where(x < dt(1), dt(1) - x, dt(0)).astype(dt)
    a = dt(-0.5)
    near = ((a + dt(2)) * x - (a + dt(3))) * x * x + dt(1)
    far = ((a * x - dt(5) * a) * x + dt(8) * a) * x - dt(4) * a
    return np.where(x < dt(1), near, np.where(x < dt(2), far, dt(0))).astype(dt)


def aa_taps(
    kind: str, in_size: int, out_size: int, align: bool, scale: float | None, np_dtype: Any
) -> tuple[np.ndarray, np.ndarray]:
    """For one spatial dim: (indices, weights), each (out_size, taps), taps past an output
    position's window have weight 0 (and a valid index). Rounded as PyTorch's scalar_t /
    double mix: float products are float32 for float32 inputs."""
    dt = _opmath(np_dtype)
    s = _compute_scale(in_size, out_size, align, scale, dt)
    interp = 2 if kind == "linear" else 4
    support = dt(interp * 0.5 * float(s)) if s >= 1 else dt(interp * 0.5)
    taps = int(math.ceil(float(support))) * 2 + 1
    inv = dt(1.0 / float(s)) if s >= 1 else dt(1.0)
    i = np.arange(out_size, dtype=np.float64)
    center = (float(s) * (i + 0.5)).astype(dt)
    # int64 of a double: truncation toward zero.
    lo = np.trunc((center - support).astype(np.float64) + 0.5).astype(np.int64)
    xmin = np.maximum(lo, 0)
    hi = np.trunc((center + support).astype(np.float64) + 0.5).astype(np.int64)
    xsize = np.clip(np.minimum(hi, in_size) - xmin, 0, taps)
    j = np.arange(taps)
    pos = (j[None, :] + xmin[:, None]).astype(dt) - center[:, None]
    arg = ((pos.astype(np.float64) + 0.5) * float(inv)).astype(dt)
    w = _filter(kind, arg, dt)
    w = np.where(j[None, :] < xsize[:, None], w, dt(0)).astype(dt)
    total = np.zeros(out_size, dt)
    for k in range(taps):  # total_w += w, in tap order
        total = (total + w[:, k]).astype(dt)
    safe = np.where(total != 0, total, dt(1)).astype(dt)
    w = np.where(total[:, None] != 0, (w / safe[:, None]).astype(dt), w).astype(dt)
    idx = np.minimum(j[None, :] + xmin[:, None], in_size - 1)
    return idx, w


def _aa_meta(name: str, self: Tensor, output_size: Any) -> Tensor:
    s = shape_of(self)
    shape = upsample_check(2, s, output_size)
    check(
        self.numel() != 0 or math.prod(s[1:]) != 0,
        f"Non-empty 4D data tensor expected but got a tensor with sizes {list(s)}",
    )
    if not self._dtype.is_floating_point and self._dtype.name != "uint8":
        _not_implemented("compute_index_ranges_weights", self._dtype)
    return new_meta(shape, self._dtype, out_strides(self, shape))


def _define(name: str) -> None:
    base = (
        "Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, "
        "float? scales_w=None"
    )

    def meta_fn(self: Tensor, output_size: Any, *rest: Any, **kw: Any) -> Tensor:
        return _aa_meta(name, self, output_size)

    meta_fn.__name__ = name
    meta(f"{name}({base}) -> Tensor")(meta_fn)
    out_variant(f"{name}.out({base}, *, Tensor(a!) out) -> Tensor(a!)", name, check=same_dtype)

    bw = f"{name}_backward"
    bw_args = (
        "Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, "
        "float? scales_h=None, float? scales_w=None"
    )

    def bw_meta(grad_output: Tensor, output_size: Any, input_size: Any, *rest: Any, **kw: Any):
        full = upsample_check(2, input_size, output_size)
        g = shape_of(grad_output)
        check(
            len(g) == 4,
            f"Expected grad_output to be a tensor of dimension 4 but got: dimension {len(g)}",
        )
        for i in range(4):
            check(
                g[i] == full[i],
                f"Expected grad_output to have the same shape as output; output.size({i}) = "
                f"{full[i]} but got grad_output.size({i}) = {g[i]}",
            )
        return new_meta([int(x) for x in input_size], grad_output._dtype)

    bw_meta.__name__ = bw
    AA_BACKWARD_META[name] = bw_meta
    meta(f"{bw}({bw_args}) -> Tensor")(bw_meta)
    out_variant(
        f"{bw}.grad_input({bw_args}, *, Tensor(a!) grad_input) -> Tensor(a!)",
        bw,
        ("grad_input",),
        check=same_dtype,
    )

    def vec(input: Tensor, output_size: Any, align_corners: bool, scale_factors: Any) -> Tensor:  # noqa: A002
        osize = compute_output_size(shape_of(input), output_size, scale_factors)
        sc = [None, None] if scale_factors is None else [float(x) for x in scale_factors]
        return op(name)(input, osize, align_corners, *sc)

    vec.__name__ = name + "_vec"
    composite(
        f"{name}.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
        "float[]? scale_factors) -> Tensor"
    )(vec)


for _name in AA_OPS:
    _define(_name)
