"""Interpolation operators behind F.interpolate: upsample_nearest{1,2,3}d,
_upsample_nearest_exact{1,2,3}d, upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d,
upsample_bicubic2d, each with its `.vec` overload (CompositeImplicitAutograd: output size and
scales from `scale_factors`, as UpSample.cpp's compute_output_size) and its `_backward`
operator. Meta rules and PyTorch's index/weight arithmetic (UpSample.h) here; kernels in
kernels/cpu/upsample.py, derivatives in autograd/derivatives/upsample.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tensor._tensor import Tensor
from .. import _shape
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _not_implemented

__all__ = ["UPSAMPLE_OPS", "BACKWARD_META", "source_indices", "out_strides"]

# name -> (spatial dims, interpolation kind, has align_corners)
UPSAMPLE_OPS: dict[str, tuple[int, str, bool]] = {
    "upsample_nearest1d": (1, "nearest", False),
    "upsample_nearest2d": (2, "nearest", False),
    "upsample_nearest3d": (3, "nearest", False),
    "_upsample_nearest_exact1d": (1, "nearest-exact", False),
    "_upsample_nearest_exact2d": (2, "nearest-exact", False),
    "_upsample_nearest_exact3d": (3, "nearest-exact", False),
    "upsample_linear1d": (1, "linear", True),
    "upsample_bilinear2d": (2, "linear", True),
    "upsample_trilinear3d": (3, "linear", True),
    "upsample_bicubic2d": (2, "cubic", True),
}

#: name -> the meta function of its _backward operator (the CPU kernel runs it for the checks).
BACKWARD_META: dict[str, Any] = {}
_SCALE_NAMES = {
    1: ("scales",),
    2: ("scales_h", "scales_w"),
    3: ("scales_d", "scales_h", "scales_w"),
}


# ----------------------------------------------------------------------------- index arithmetic


def _opmath(np_dtype: np.dtype) -> Any:
    # PyTorch computes source indices and weights in opmath_t: double for double, else float.
    return np.float64 if np_dtype == np.float64 else np.float32


def _compute_scale(
    in_size: int, out_size: int, align_corners: bool, scale: float | None, dt: Any
) -> Any:
    """area_pixel_compute_scale."""
    if align_corners:
        return dt(in_size - 1) / dt(out_size - 1) if out_size > 1 else dt(0)
    if scale is not None and scale > 0:
        return dt(1.0 / scale)
    return dt(in_size) / dt(out_size)


def source_indices(
    kind: str,
    in_size: int,
    out_size: int,
    align_corners: bool,
    scale: float | None,
    np_dtype: np.dtype,
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """For one spatial dim: the input indices and weights of every output position, one array
    per tap (1 nearest, 2 linear, 4 cubic), as the CPU kernel's compute_indices_weights."""
    dt = _opmath(np_dtype)
    i = np.arange(out_size, dtype=dt)
    last = in_size - 1
    if kind in ("nearest", "nearest-exact"):
        s = _compute_scale(in_size, out_size, False, scale, dt)
        if kind == "nearest":
            real = s * i
        else:
            real = np.maximum(s * (i + dt(0.5)) - dt(0.5), dt(0)) + dt(0.5)
        # floorf: the index is floored in float precision whatever opmath is.
        idx = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), last)
        return [idx], [np.ones(out_size, dt)]
    s = _compute_scale(in_size, out_size, align_corners, scale, dt)
    if kind == "linear":
        if out_size == in_size:
            idx = np.arange(out_size, dtype=np.int64)
            return [idx, idx], [np.ones(out_size, dt), np.zeros(out_size, dt)]
        real = s * i if align_corners else np.maximum(s * (i + dt(0.5)) - dt(0.5), dt(0))
        i0 = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), last)
        l1 = np.clip(real - i0.astype(dt), dt(0), dt(1)).astype(dt)
        i1 = i0 + (i0 < last)
        return [i0, i1], [(dt(1) - l1).astype(dt), l1]
    real = s * i if align_corners else s * (i + dt(0.5)) - dt(0.5)
    i0 = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), last)
    t = np.clip(real - i0.astype(dt), dt(0), dt(1)).astype(dt)
    a = dt(-0.75)

    def conv1(x: np.ndarray) -> np.ndarray:
        return ((a + dt(2)) * x - (a + dt(3))) * x * x + dt(1)

    def conv2(x: np.ndarray) -> np.ndarray:
        return ((a * x - dt(5) * a) * x + dt(8) * a) * x - dt(4) * a

    x2 = dt(1) - t
    weights = [conv2(t + dt(1)), conv1(t), conv1(x2), conv2(x2 + dt(1))]
    idx = [np.clip(i0 - 1 + j, 0, last) for j in range(4)]
    return idx, [w.astype(dt) for w in weights]


# ----------------------------------------------------------------------------- meta


def out_strides(self: Tensor, shape: Sequence[int]) -> list[int] | None:
    """The input's suggested memory format: channels_last for a 4-d channels-last input."""
    s, st = shape_of(self), self.stride()
    if len(s) == 4 and _shape.is_channels_last_strides(s, st) and not _is_contig(s, st):
        n, c, h, w = shape
        return [h * w * c, 1, w * c, c]
    return None


def _is_contig(shape: Sequence[int], strides: Sequence[int]) -> bool:
    from ...tensor.meta_array import is_contiguous_strides

    return is_contiguous_strides(shape, strides)


def _letters(nd: int) -> tuple[str, ...]:
    return ("W",) if nd == 1 else ("H", "W") if nd == 2 else ("D", "H", "W")


def upsample_check(
    nd: int, input_size: Sequence[int], output_size: Sequence[int]
) -> tuple[int, ...]:
    """upsample_{nd}d_common_check: the full output shape."""
    check(
        len(output_size) == nd,
        f"It is expected output_size equals to {nd}, but got size {len(output_size)}",
    )
    check(
        len(input_size) == nd + 2,
        f"It is expected input_size equals to {nd + 2}, but got size {len(input_size)}",
    )
    ins, outs = list(input_size[2:]), [int(o) for o in output_size]
    if not (all(x > 0 for x in ins) and all(x > 0 for x in outs)):
        names = _letters(nd)
        fi = ", ".join(f"{n}: {v}" for n, v in zip(names, ins))
        fo = ", ".join(f"{n}: {v}" for n, v in zip(names, outs))
        sep = " and output" if nd == 1 else " output"
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input ({fi}){sep} ({fo})"
        )
    return (input_size[0], input_size[1], *outs)


def _upsample_meta(name: str, nd: int, kind: str, self: Tensor, output_size: Any) -> Tensor:
    s = shape_of(self)
    shape = upsample_check(nd, s, output_size)
    check(
        self.numel() != 0 or math.prod(s[1:]) != 0,
        f"Non-empty {nd + 2}D data tensor expected but got a tensor with sizes {list(s)}",
    )
    if not self._dtype.is_floating_point and not (kind != "cubic" and self._dtype.name == "uint8"):
        base = "nearest" if kind.startswith("nearest") else kind
        kernel = f"compute_indices_weights_{base}"
        if nd == 2 and kind != "cubic":
            kernel = f"upsample_{'nearest' if base == 'nearest' else 'bilinear'}2d_channels_last"
        _not_implemented(kernel, self._dtype)
    return new_meta(shape, self._dtype, out_strides(self, shape))


def define_backward(name: str, nd: int, bw_args: str, registry: dict[str, Any]) -> None:
    """`<name>_backward` and its grad_input form: the meta function checks grad_output against
    the output shape as PyTorch's upsample backward kernels do (the antialiased ones too)."""
    bw = f"{name}_backward"

    def bw_meta(grad_output: Tensor, output_size: Any, input_size: Any, *rest: Any, **kw: Any):
        full = upsample_check(nd, input_size, output_size)
        g = shape_of(grad_output)
        if nd == 1:
            for i in range(3):  # check_dim_size: the rank and each size of the output
                got = g[i] if i < len(g) else None
                check(
                    len(g) == 3 and got == full[i],
                    f"Expected a tensor of dimension 3 and tensor.size[{i}] == {full[i]} but got: "
                    f"dimension {len(g)} and tensor.size[{i}] = {got}",
                )
        check(
            len(g) == nd + 2,
            f"Expected grad_output to be a tensor of dimension {nd + 2} but got: dimension "
            f"{len(g)}",
        )
        for i in range(nd + 2):
            check(
                g[i] == full[i],
                f"Expected grad_output to have the same shape as output; output.size({i}) = "
                f"{full[i]} but got grad_output.size({i}) = {g[i]}",
            )
        return new_meta([int(x) for x in input_size], grad_output._dtype)

    bw_meta.__name__ = bw
    registry[name] = bw_meta
    meta(f"{bw}({bw_args}) -> Tensor")(bw_meta)
    out_variant(
        f"{bw}.grad_input({bw_args}, *, Tensor(a!) grad_input) -> Tensor(a!)",
        bw,
        ("grad_input",),
        check=same_dtype,
    )


def _define(name: str, nd: int, kind: str, align: bool) -> None:
    scales = ", ".join(f"float? {n}=None" for n in _SCALE_NAMES[nd])
    ac = "bool align_corners, " if align else ""
    base = f"Tensor self, SymInt[{nd}] output_size, {ac}{scales}"

    def meta_fn(self: Tensor, output_size: Any, *rest: Any, **kw: Any) -> Tensor:
        return _upsample_meta(name, nd, kind, self, output_size)

    meta_fn.__name__ = name
    meta(f"{name}({base}) -> Tensor")(meta_fn)
    out_variant(f"{name}.out({base}, *, Tensor(a!) out) -> Tensor(a!)", name, check=same_dtype)

    bw_args = (
        f"Tensor grad_output, SymInt[{nd}] output_size, SymInt[{nd + 2}] input_size, {ac}{scales}"
    )
    define_backward(name, nd, bw_args, BACKWARD_META)

    vec_ac = "bool align_corners, " if align else ""

    def vec(input: Tensor, output_size: Any, *args: Any) -> Tensor:  # noqa: A002
        align_corners, scale_factors = (args[0], args[1]) if align else (None, args[0])
        osize = compute_output_size(shape_of(input), output_size, scale_factors)
        sc = [None] * nd if scale_factors is None else [float(x) for x in scale_factors]
        if align:
            return op(name)(input, osize, align_corners, *sc)
        return op(name)(input, osize, *sc)

    vec.__name__ = name + "_vec"
    composite(
        f"{name}.vec(Tensor input, SymInt[]? output_size, {vec_ac}float[]? scale_factors) -> Tensor"
    )(vec)


def compute_output_size(
    input_size: Sequence[int], output_size: Any, scale_factors: Any
) -> list[int]:
    """UpSample.cpp's compute_output_size for the .vec overloads."""
    nd = len(input_size) - 2
    if output_size is not None:
        check(scale_factors is None, "Must specify exactly one of output_size and scale_factors")
        check(
            len(output_size) == nd,
            "Expected static_cast<int64_t>(output_size->size()) == spatial_dimensions to be "
            "true, but got false.  (Could this error message be improved?  If so, please report "
            "an enhancement request to PyTorch.)",
        )
        return [int(x) for x in output_size]
    check(scale_factors is not None, "Must specify exactly one of output_size and scale_factors")
    check(
        len(scale_factors) == nd,
        "Expected static_cast<int64_t>(scale_factors->size()) == spatial_dimensions to be "
        "true, but got false.  (Could this error message be improved?  If so, please report "
        "an enhancement request to PyTorch.)",
    )
    return [int(float(input_size[i + 2]) * float(scale_factors[i])) for i in range(nd)]


for _name, (_nd, _kind, _align) in UPSAMPLE_OPS.items():
    _define(_name, _nd, _kind, _align)
