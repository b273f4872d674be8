"""torch.nn.functional's resampling: interpolate (and the deprecated upsample,
upsample_nearest, upsample_bilinear) as PyTorch's Python function chooses its aten operator
(the upsample_*.vec overloads, or adaptive average pooling for mode='area')."""

from __future__ import annotations

import math
import warnings
from typing import Any

from ..._ops import ops
from ...tensor._tensor import Tensor
from .misc import adaptive_avg_pool1d

aten = ops.aten

__all__ = [
    "interpolate",
    "upsample",
    "upsample_nearest",
    "upsample_bilinear",
    "unfold",
    "fold",
    "grid_sample",
    "affine_grid",
    "GRID_SAMPLE_INTERPOLATION_MODES",
    "GRID_SAMPLE_PADDING_MODES",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
]

GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}
_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)

_LINEAR = {3: "linear", 4: "bilinear", 5: "trilinear"}


def _is_integer(x: Any) -> bool:
    return (
        isinstance(x, int)
        and not isinstance(x, bool)
        or (isinstance(x, Tensor) and not x.is_floating_point())
    )


def _per_dim(value: Any, dim: int, mismatch: str) -> list[Any]:
    """size / scale_factor as one entry per spatial dim: a sequence of that length, or one
    value repeated."""
    if isinstance(value, (list, tuple)):
        if len(value) != dim:
            raise ValueError(mismatch)
        return list(value)
    return [value] * dim


def interpolate(
    input: Tensor,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resample input to `size` or by `scale_factor` (torch.nn.functional.interpolate)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                "linear | bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    spatial = list(input.shape[2:])
    output_size: Any = None
    scale_factors: Any = None
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        output_size = _per_dim(
            size, dim,
            "Input and output must have the same number of spatial dimensions, but got input "
            f"with spatial dimensions of {spatial} and output size of {size}. Please provide "
            "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
            "format.",
        )  # fmt: skip
        if isinstance(size, (list, tuple)) and not all(_is_integer(x) for x in size):
            raise TypeError(
                "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                f"Tuple[int, int, int], but got size with types {[type(x) for x in size]}"
            )
    elif scale_factor is not None:
        scale_factors = _per_dim(
            scale_factor, dim,
            "Input and scale_factor must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {spatial} and scale_factor of shape "
            f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
            "scale_factor in (s1, s2, ...,sK) format.",
        )  # fmt: skip
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        # The output size from the scale; the kernel then derives its scale from the sizes.
        output_size = [math.floor(spatial[i] * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input"
        )
    nd = input.dim()
    if mode == "nearest" and nd in (3, 4, 5):
        return getattr(aten, f"upsample_nearest{nd - 2}d").vec(input, output_size, scale_factors)
    if mode == "nearest-exact" and nd in (3, 4, 5):
        op = getattr(aten, f"_upsample_nearest_exact{nd - 2}d").vec
        return op(input, output_size, scale_factors)
    if mode == "area" and nd in (3, 4, 5):
        if nd == 3:
            return adaptive_avg_pool1d(input, output_size)
        if nd == 4:
            return aten.adaptive_avg_pool2d.default(input, output_size)
        return aten.adaptive_avg_pool3d.default(input, output_size)
    if antialias and mode in ("bilinear", "bicubic"):
        op = getattr(aten, f"_upsample_{mode}2d_aa").vec
        return op(input, output_size, align_corners, scale_factors)
    if antialias:
        raise NotImplementedError(
            f"interpolate(mode={mode!r}, antialias=True) (aten::_upsample_{mode}2d_aa) is not "
            "implemented in keyroute yet"
        )
    if nd in _LINEAR and mode == _LINEAR[nd]:
        name = {3: "upsample_linear1d", 4: "upsample_bilinear2d", 5: "upsample_trilinear3d"}[nd]
        return getattr(aten, name).vec(input, output_size, align_corners, scale_factors)
    if nd == 4 and mode == "bicubic":
        return aten.upsample_bicubic2d.vec(input, output_size, align_corners, scale_factors)
    if nd == 4 and mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        raise ValueError("Lanczos mode requires antialias=True")
    for got, needs in ((3, "bilinear"), (3, "trilinear"), (4, "linear"), (4, "trilinear"),
                       (5, "linear"), (5, "bilinear")):  # fmt: skip
        if nd == got and mode == needs:
            want = {"linear": 3, "bilinear": 4, "trilinear": 5}[needs]
            raise NotImplementedError(f"Got {got}D input, but {needs} mode needs {want}D input")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported"
        f" (got {nd}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | "
        f"lanczos | area | nearest-exact (got {mode})"
    )


def _deprecated(name: str) -> Any:
    """The warning of a deprecated front end of interpolate (PyTorch's wording)."""

    def warn() -> None:
        warnings.warn(
            f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` instead.",
            stacklevel=3,
        )

    return warn


_warn_upsample = _deprecated("upsample")
_warn_upsample_nearest = _deprecated("upsample_nearest")
_warn_upsample_bilinear = _deprecated("upsample_bilinear")


def upsample(
    input: Tensor,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    """Deprecated alias of interpolate (with PyTorch's warning)."""
    _warn_upsample()
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    """Deprecated: interpolate(mode='nearest')."""
    _warn_upsample_nearest()
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    """Deprecated: interpolate(mode='bilinear', align_corners=True)."""
    _warn_upsample_bilinear()
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _pair(x: Any) -> list[int]:
    return list(x) if isinstance(x, (list, tuple)) else [x, x]


def unfold(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """Sliding local blocks of a batched image, as columns (aten::im2col)."""
    return aten.im2col.default(
        input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    )


def fold(
    input: Tensor,  # noqa: A002
    output_size: Any,
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """Sums sliding local blocks back into an image (aten::col2im)."""
    return aten.col2im.default(
        input,
        _pair(output_size),
        _pair(kernel_size),
        _pair(dilation),
        _pair(padding),
        _pair(stride),
    )


def grid_sample(
    input: Tensor,  # noqa: A002
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """Samples input at the grid's normalized coordinates (aten::grid_sampler)."""
    if mode not in GRID_SAMPLE_INTERPOLATION_MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in GRID_SAMPLE_PADDING_MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    return aten.grid_sampler.default(
        input,
        grid,
        GRID_SAMPLE_INTERPOLATION_MODES[mode],
        GRID_SAMPLE_PADDING_MODES[padding_mode],
        align_corners,
    )


def affine_grid(theta: Tensor, size: list[int], align_corners: bool | None = None) -> Tensor:
    """The sampling grid of a batch of affine transforms (aten::affine_grid_generator)."""
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(
                f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
                f"{theta.shape}."
            )
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(
                f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got "
                f"{theta.shape}."
            )
        spatial = size[-3:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    if align_corners and min(spatial) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details.",
            stacklevel=2,
        )
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return aten.affine_grid_generator.default(theta, list(size), align_corners)


def _ntuple(x: Any, n: int) -> list[int]:
    return list(x) if isinstance(x, (list, tuple)) else [x] * n


def _unpool_output_size(
    input: Tensor,  # noqa: A002
    kernel_size: list[int],
    stride: list[int],
    padding: list[int],
    output_size: Any,
) -> list[int]:
    nd = len(kernel_size)
    sizes = list(input.shape)
    default = [
        (sizes[-nd + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(nd)
    ]
    if output_size is None:
        ret = default
    else:
        if len(output_size) == nd + 2:
            output_size = output_size[2:]
        if len(output_size) != nd:
            raise ValueError(
                f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it "
                f"has a length of '{len(output_size)}'"
            )
        for d in range(nd):
            lo, hi = default[d] - stride[d], default[d] + stride[d]
            if not lo < output_size[d] < hi:
                raise ValueError(
                    f'invalid output_size "{output_size}" (dim {d} must be between {lo} and {hi})'
                )
        ret = output_size
    for d in range(nd):
        if ret[d] < 0:
            raise ValueError(
                "max_unpooling: output_size must contain non-negative spatial dimensions, but "
                f"got output_size[{d}]={ret[d]}"
            )
    return ret


def _unpool_args(nd: int, kernel_size: Any, stride: Any, padding: Any) -> tuple[list, list, list]:
    k = _ntuple(kernel_size, nd)
    return k, (_ntuple(stride, nd) if stride is not None else k), _ntuple(padding, nd)


def max_unpool1d(
    input: Tensor,  # noqa: A002
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Partial inverse of max_pool1d (aten::max_unpool2d on an added trailing dim)."""
    k, s, p = _unpool_args(1, kernel_size, stride, padding)
    osize = list(_unpool_output_size(input, k, s, p, output_size)) + [1]
    out = aten.max_unpool2d.default(input.unsqueeze(-1), indices.unsqueeze(-1), osize)
    return out.squeeze(-1)


def max_unpool2d(
    input: Tensor,  # noqa: A002
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Partial inverse of max_pool2d (aten::max_unpool2d)."""
    k, s, p = _unpool_args(2, kernel_size, stride, padding)
    osize = _unpool_output_size(input, k, s, p, output_size)
    return aten.max_unpool2d.default(input, indices, list(osize))


def max_unpool3d(
    input: Tensor,  # noqa: A002
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Partial inverse of max_pool3d (aten::max_unpool3d)."""
    k, s, p = _unpool_args(3, kernel_size, stride, padding)
    osize = _unpool_output_size(input, k, s, p, output_size)
    return aten.max_unpool3d.default(input, indices, list(osize), s, p)
