"""aten normalisation operators: batch norm, group norm, instance norm.

Backend operators (native_batch_norm, _native_batch_norm_legit and its no_stats /
no_training forms, native_batch_norm_backward, native_group_norm,
native_group_norm_backward) have meta functions with PyTorch's checks; their schemas are
PyTorch's, so `_native_batch_norm_legit` declares its running-stat writes (`Tensor(a!)`) and
`native_batch_norm` (which writes them too, undeclared, as PyTorch's does) does not.

The CompositeImplicitAutograd ops decompose as PyTorch's C++ does: `batch_norm` ->
`_batch_norm_impl_index` -> `native_batch_norm` (with the empty reserve tensor PyTorch's CPU
path allocates), `group_norm` -> `native_group_norm`, `instance_norm` -> `batch_norm` over the
input viewed as (1, N*C, ...), so a TorchDispatchMode logs the same aten calls.
"""

from __future__ import annotations

from typing import Any

from ..tensor.dtype import float32, uint8
from ._define import composite, meta
from ._meta_util import check, new_meta, shape_of
from .linalg import op

__all__ = ["stat_dtype", "batch_norm_checks"]


def stat_dtype(dt: Any) -> Any:
    """The dtype of saved statistics: the accumulate type (float32 for float16/bfloat16)."""
    return float32 if dt.category == 2 and dt.itemsize == 2 else dt


def _not_implemented(name: str, dt: Any) -> None:
    raise NotImplementedError(f"\"{name}\" not implemented for '{dt._short}'")


def batch_norm_checks(input: Any, weight: Any, bias: Any, rm: Any, rv: Any, training: bool) -> int:
    """The checks of PyTorch's batch_norm_cpu: returns the channel count."""
    shape = shape_of(input)
    if len(shape) < 2:
        ndim = len(shape)
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
            f"{max(ndim, 1) - 1}], but got 1)"
        )
    dt = input._dtype
    if dt.category != 2:
        _not_implemented("batch_norm", dt)
    c = shape[1]
    if not training:
        check(rm is not None, "running_mean must be defined in evaluation mode")
        check(rv is not None, "running_var must be defined in evaluation mode")
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", rm), ("running_var", rv)):
        if t is not None:
            check(t.numel() == c, f"{name} should contain {c} elements not {t.numel()}")
    return c


def _bn_meta(input: Any, training: bool) -> tuple[Any, Any, Any]:
    c = shape_of(input)[1]
    sdt = stat_dtype(input._dtype)
    n = c if training else 0
    return new_meta(shape_of(input), input._dtype), new_meta((n,), sdt), new_meta((n,), sdt)


@meta(
    "native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
    "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)"
)
def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    batch_norm_checks(input, weight, bias, running_mean, running_var, training)
    return _bn_meta(input, training)


@meta(
    "_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) "
    "running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> "
    "(Tensor, Tensor, Tensor)"
)
def _native_batch_norm_legit(
    input, weight, bias, running_mean, running_var, training, momentum, eps
):
    batch_norm_checks(input, weight, bias, running_mean, running_var, training)
    return _bn_meta(input, training)


@meta(
    "_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool "
    "training, float momentum, float eps) -> (Tensor, Tensor, Tensor)"
)
def _native_batch_norm_legit_no_stats(input, weight, bias, training, momentum, eps):
    batch_norm_checks(input, weight, bias, None, None, True)
    return _bn_meta(input, True)


@meta(
    "_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor "
    "running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)"
)
def _native_batch_norm_legit_no_training(
    input, weight, bias, running_mean, running_var, momentum, eps
):
    batch_norm_checks(input, weight, bias, running_mean, running_var, False)
    return _bn_meta(input, False)


@meta(
    "native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? "
    "running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, "
    "float eps, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"
)
def native_batch_norm_backward(
    grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps,
    output_mask,
):  # fmt: skip
    c = shape_of(input)[1]
    pdt = weight._dtype if weight is not None else input._dtype
    return (
        new_meta(shape_of(input), input._dtype) if output_mask[0] else None,
        new_meta((c,), pdt) if output_mask[1] else None,
        new_meta((c,), pdt) if output_mask[2] else None,
    )


@composite(
    "_batch_norm_impl_index(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
    "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> "
    "(Tensor, Tensor, Tensor, Tensor, int)"
)
def _batch_norm_impl_index(
    input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled
):
    shape = shape_of(input)
    if shape and 0 in shape:
        raise NotImplementedError("batch_norm of an empty input is not supported")
    # PyTorch's CPU path allocates an empty reserve tensor (Byte) before the native kernel.
    reserve = op("empty.memory_format")([0], dtype=uint8, device=input.device)
    out = op("native_batch_norm")(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )
    return out[0], out[1], out[2], reserve, 0


@composite(
    "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? "
    "running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor"
)
def batch_norm(
    input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled
):
    return op("_batch_norm_impl_index")(
        input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled
    )[0]


@composite(
    "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? "
    "running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor"
)
def instance_norm(
    input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled
):
    check(
        use_input_stats or (running_mean is not None and running_var is not None),
        "Expected running_mean and running_var to be defined when use_input_stats is false",
    )
    shape = list(shape_of(input))
    b, c = shape[0], shape[1]
    # As PyTorch's: the input viewed as one sample of B*C channels; per-channel parameters
    # and running stats repeated B times; the running stats averaged back over the batch.
    rep = lambda t: None if t is None else op("repeat")(t, [b])  # noqa: E731
    weight_, bias_ = rep(weight), rep(bias)
    rm_, rv_ = rep(running_mean), rep(running_var)
    x = op("view")(op("contiguous")(input), [1, b * c, *shape[2:]])
    out = op("batch_norm")(
        x, weight_, bias_, rm_, rv_, use_input_stats, momentum, eps, cudnn_enabled
    )
    for stat, stat_ in ((running_mean, rm_), (running_var, rv_)):
        if stat is not None:
            op("copy_")(op("alias")(stat), op("mean.dim")(op("view")(stat_, [b, c]), [0], False))
    return op("view")(out, shape)


# ----------------------------------------------------------------------------- group norm


def group_norm_checks(input: Any, num_groups: int, weight: Any, bias: Any) -> None:
    shape = list(shape_of(input))
    c = shape[1] if len(shape) > 1 else 0
    check(
        c % num_groups == 0,
        f"Expected number of channels in input to be divisible by num_groups, but got input of "
        f"shape {shape} and num_groups={num_groups}",
    )
    for name, t in (("weight", weight), ("bias", bias)):
        check(
            t is None or (t.dim() == 1 and t.numel() == c),
            f"Expected {name} to be a vector of size equal to the number of channels in input, "
            f"but got {name} of shape {list(shape_of(t)) if t is not None else []} and input of "
            f"shape {shape}",
        )


@meta(
    "native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt "
    "HxW, int group, float eps) -> (Tensor, Tensor, Tensor)"
)
def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    dt = input._dtype
    if dt.category != 2:
        _not_implemented("group_norm", dt)
    check(
        input.numel() == N * C * HxW,
        f"Expected input to have {N * C * HxW} elements, got {input.numel()}",
    )
    sdt = dt
    return new_meta(shape_of(input), dt), new_meta((N, group), sdt), new_meta((N, group), sdt)


@meta(
    "native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? "
    "weight, SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, "
    "Tensor, Tensor)"
)
def native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask):
    pdt = weight._dtype if weight is not None else input._dtype
    return (
        new_meta(shape_of(input), input._dtype) if output_mask[0] else None,
        new_meta((C,), pdt) if output_mask[1] else None,
        new_meta((C,), pdt) if output_mask[2] else None,
    )


@composite(
    "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float "
    "eps=1.0000000000000001e-05, bool cudnn_enabled=True) -> Tensor"
)
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    group_norm_checks(input, num_groups, weight, bias)
    shape = shape_of(input)
    n, c = shape[0], shape[1]
    hxw = 1
    for s in shape[2:]:
        hxw *= s
    return op("native_group_norm")(input, weight, bias, n, c, hxw, num_groups, eps)[0]
