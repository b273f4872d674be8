"""Normalization operators: native_layer_norm (meta, PyTorch's checks), layer_norm and rms_norm
(CompositeImplicitAutograd decompositions, as PyTorch's C++ writes them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import float32
from .. import _shape
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _not_implemented, _opmath

# ----------------------------------------------------------------------------- layer norm


def layer_norm_checks(
    input: Tensor, normalized_shape: Sequence[int], weight: Any, bias: Any, rms: bool = False
) -> tuple[int, int]:
    """_check_layer_norm_inputs (and _check_rms_norm_inputs): returns (M, N)."""
    ns = [int(s) for s in normalized_shape]
    check(
        len(ns) >= 1,
        f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
        f"element, but got normalized_shape = {ns}",
    )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            check(
                list(shape_of(t)) == ns,
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {list(shape_of(t))} and normalized_shape = {ns}",
            )
    shape = shape_of(input)
    ndim = len(shape)
    if ndim < len(ns) or list(shape[ndim - len(ns) :]) != ns:
        want = (
            ("[*" + ", ".join(str(s) for s in ns) + "]")
            if rms
            else ("[*" + "".join(f", {s}" for s in ns) + "]")
        )
        raise RuntimeError(
            f"Given normalized_shape={ns}, expected input with shape {want}, but got input of "
            f"size{list(shape)}"
        )
    axis = ndim - len(ns)
    return _shape.numel(shape[:axis]), _shape.numel(shape[axis:])


def layer_norm_stat_dtype(input: Tensor, weight: Any, bias: Any) -> Any:
    """The dtype of mean/rstd: float32 for a half input with float32 parameters (PyTorch's
    CPU mixed-type layer norm); otherwise the input's. Other mixes are refused."""
    dt = input._dtype
    params = [t._dtype for t in (weight, bias) if t is not None]
    if any(p is not dt for p in params):
        mixed = dt.category == 2 and dt.itemsize == 2 and all(p is float32 for p in params)
        check(mixed, "mixed dtype (CPU): expect parameter to have scalar type of Float")
        return float32
    if dt.category != 2:
        _not_implemented("LayerNormKernelImpl", dt)
    return dt


@meta(
    "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, "
    "float eps) -> (Tensor, Tensor, Tensor)"
)
def native_layer_norm(input, normalized_shape, weight, bias, eps):
    layer_norm_checks(input, normalized_shape, weight, bias)
    stat_dt = layer_norm_stat_dtype(input, weight, bias)
    shape = shape_of(input)
    axis = len(shape) - len(normalized_shape)
    stat_shape = (*shape[:axis], *([1] * len(normalized_shape)))
    return (
        new_meta(shape, input._dtype),
        new_meta(stat_shape, stat_dt),
        new_meta(stat_shape, stat_dt),
    )


out_variant(
    "native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, "
    "float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), "
    "Tensor(b!), Tensor(c!))",
    "native_layer_norm",
    ("out0", "out1", "out2"),
    check=same_dtype,
)


@composite(
    "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
    "float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor"
)
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return op("native_layer_norm")(input, list(normalized_shape), weight, bias, eps)[0]


_FLOAT_EPS = 1.1920928955078125e-07  # std::numeric_limits<float>::epsilon()
_DOUBLE_EPS = 2.220446049250313e-16


def _suggests_channels_last(t: Tensor) -> bool:
    return (
        t.dim() == 4
        and not t.is_contiguous()
        and _shape.is_channels_last_strides(shape_of(t), t.stride())
    )


@composite(
    "rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> "
    "Tensor"
)
def rms_norm(input, normalized_shape, weight=None, eps=None):
    layer_norm_checks(input, normalized_shape, weight, None, rms=True)
    dt = input._dtype
    if dt.category not in (2, 3):
        _not_implemented("rms_norm", dt)
    opmath = _opmath(dt)
    ndim = input.dim()
    dims = [ndim - i - 1 for i in range(len(normalized_shape))]
    x = input if opmath is dt else op("_to_copy")(input, dtype=opmath)
    if eps is None:
        eps = _FLOAT_EPS if opmath.name in ("float32", "complex64") else _DOUBLE_EPS
    ms = op("mean.dim")(op("pow.Tensor_Scalar")(x, 2), dims, True)
    rsq = op("rsqrt")(op("add_.Scalar")(ms, eps))
    result = op("mul.Tensor")(x, rsq)
    if weight is not None:
        result = op("mul.Tensor")(result, weight)
    if not _suggests_channels_last(input):
        result = op("contiguous")(result)
    if result._dtype is not dt:
        result = op("_to_copy")(result, dtype=dt)
    return result
