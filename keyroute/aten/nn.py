"""aten nn operators: schemas, meta functions, decompositions.

Backend operators (native_layer_norm, embedding, native_dropout, _safe_softmax,
_scaled_dot_product_flash_attention_for_cpu, nll_loss_forward, nll_loss2d_forward, mse_loss,
binary_cross_entropy, convolution, max_pool2d_with_indices, avg_pool2d, _adaptive_avg_pool2d,
constant_pad_nd) have meta functions with PyTorch's checks. The CompositeImplicitAutograd ops
(layer_norm, rms_norm, dropout, scaled_dot_product_attention and its math path, nll_loss,
nll_loss2d, nll_loss_nd, cross_entropy_loss, conv1d, conv2d, conv_transpose1d/2d/3d,
max_pool1d/2d, avg_pool1d, adaptive_avg_pool2d, pad, one_hot) decompose as PyTorch's C++
does, so a TorchDispatchMode logs the same aten calls.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import bool_, float32, int32, int64, uint8
from . import _shape
from ._define import composite, defop, meta
from ._meta_util import check, meta_like, new_meta, shape_of
from ._variants import inplace_variant, out_variant
from .linalg import cpp_type_name, exact_out_variant, op, subclass_like

__all__ = [
    "layer_norm_checks",
    "flash_attention_meta",
    "conv_output_shape",
    "pool_output_size",
    "nll_loss_forward_meta",
    "nll_loss2d_forward_meta",
    "REDUCTION",
]

#: at::Reduction: None, Mean, Sum.
REDUCTION = {"none": 0, "mean": 1, "sum": 2}


def _opmath(dt: Any) -> Any:
    """toOpMathType: float16/bfloat16 compute in float32."""
    return float32 if dt.category == 2 and dt.itemsize == 2 else dt


def _not_implemented(kernel_name: str, dt: Any) -> None:
    raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{dt._short}'")


def _ints(v: Any, n: int) -> list[int]:
    """An int or a list of ints as n ints (PyTorch's int[n] argument expansion)."""
    if isinstance(v, int):
        return [v] * n
    v = [int(x) for x in v]
    return v * n if len(v) == 1 else v


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


exact_out_variant(
    "native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, "
    "float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), "
    "Tensor(b!), Tensor(c!))",
    "native_layer_norm",
    outs=("out0", "out1", "out2"),
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


# ----------------------------------------------------------------------------- embedding


@meta(
    "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq="
    "False, bool sparse=False) -> Tensor"
)
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    check(weight.dim() == 2, "'weight' must be 2-D")
    check(
        indices._dtype in (int64, int32),
        f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
        f"Long, Int; but got torch.{indices._dtype._short}Tensor instead (while checking "
        f"arguments for embedding)",
    )
    return new_meta((*shape_of(indices), shape_of(weight)[1]), weight._dtype)


exact_out_variant(
    "embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq="
    "False, bool sparse=False, *, Tensor(a!) out) -> Tensor(a!)",
    "embedding",
)


@meta(
    "embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> "
    "Tensor(a!)"
)
def embedding_renorm_(self, indices, max_norm, norm_type):
    check(self.dim() == 2, "'self' must be 2-D")
    check(
        indices._dtype in (int64, int32),
        f"Expected tensor for argument #2 'indices' to have one of the following scalar types: "
        f"Long, Int; but got torch.{indices._dtype._short}Tensor instead (while checking "
        f"arguments for embedding_renorm_)",
    )
    return self


# ----------------------------------------------------------------------------- dropout


@meta("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)")
def native_dropout(input, p, train):
    if input.numel() == 0:
        return input, new_meta(shape_of(input), input._dtype, input.stride())
    if train is None or train:
        check(0 <= 1 - p <= 1, f"bernoulli_ expects p to be in [0, 1], but got p={1 - p}")
        if input._dtype.category < 2:
            raise RuntimeError(
                f"result type Float can't be cast to the desired output type {input._dtype._short}"
            )
    return meta_like(input), meta_like(input, bool_)


exact_out_variant(
    "native_dropout.out(Tensor input, float p, bool? train, *, Tensor(a!) out0, Tensor(b!) out1) "
    "-> (Tensor(a!), Tensor(b!))",
    "native_dropout",
    outs=("out0", "out1"),
)


def _dropout_impl(input: Tensor, p: float, train: bool, inplace: bool) -> Tensor:
    check(0 <= p <= 1, f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    mul = op("mul_.Tensor") if inplace else op("mul.Tensor")
    if p == 1:
        return mul(input, op("zeros")([], dtype=input._dtype, device=input.device))
    noise = op("empty_like")(input)
    op("bernoulli_.float")(noise, 1 - p)
    op("div_.Scalar")(noise, 1 - p)
    return mul(input, noise)


@composite("dropout(Tensor input, float p, bool train) -> Tensor")
def dropout(input, p, train):
    return _dropout_impl(input, p, train, False)


@composite("dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)")
def dropout_(self, p, train):
    return _dropout_impl(self, p, train, True)


# ----------------------------------------------------------------------------- softmax (SDPA)


@meta("_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor")
def _safe_softmax(self, dim, dtype=None):
    from ..tensor.dtype import to_dtype

    _shape.wrap_dim(dim, self.dim())
    dt = self._dtype if dtype is None else to_dtype(dtype)
    if dt.category < 2:
        _not_implemented("softmax_kernel_impl", dt)
    return new_meta(shape_of(self), dt)


# ----------------------------------------------------------------------------- attention


def _flash_check(query: Tensor, key: Tensor, value: Tensor, dropout_p: float, attn_mask: Any):
    name = "scaled_dot_product_attention_flash_attention"
    dt = query._dtype
    check(
        dt.category == 2,
        f"{name}: Expected data type in FP32, FP64, BF16, FP16, but got {dt._short} instead.",
    )
    check(
        query.dim() == 4 and key.dim() == 4 and value.dim() == 4,
        f"{name}: Accept only 4 dims inputs shape of {{B, H, T, K}}",
    )
    check(dropout_p == 0.0, f"{name}: Currently do not support dropout > 0")
    q, k, v = shape_of(query), shape_of(key), shape_of(value)
    check(q[3] == v[3] and k[3] == v[3], f"{name}: Q/K/V should have the same head size")
    if attn_mask is not None:
        check(
            attn_mask._dtype is float32 or attn_mask._dtype is dt,
            f"{name}: Attention mask is the same data type as query",
        )
        check(attn_mask.dim() in (2, 4), f"{name}: Attention mask dim in {{2, 4}}")
    for t in (key, value):
        check(
            t._dtype is dt,
            f"expected scalar type {dt._short} but found {t._dtype._short}",
        )


@meta(
    "_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float "
    "dropout_p=0., bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> "
    "(Tensor output, Tensor logsumexp)"
)
def flash_attention_meta(
    query, key, value, dropout_p=0.0, is_causal=False, *, attn_mask=None, scale=None
):
    _flash_check(query, key, value, dropout_p, attn_mask)
    b, h, L, _ = shape_of(query)
    e_v = shape_of(value)[3]
    q_like = meta_like(query)
    out = new_meta(
        (b, h, L, e_v), query._dtype, q_like.stride() if e_v == shape_of(query)[3] else None
    )
    # logsumexp = empty({B, L, H}).transpose(1, 2)
    lse = new_meta((b, h, L), _opmath(query._dtype), (L * h, 1, h))
    return out, lse


def _validate_sdpa_input(query: Tensor, key: Tensor, value: Tensor, attn_mask: Any) -> None:
    check(
        query._dtype is key._dtype and query._dtype is value._dtype,
        f"Expected query, key, and value to have the same dtype, but got query.dtype: "
        f"{cpp_type_name(query._dtype)} key.dtype: {cpp_type_name(key._dtype)} and value.dtype: "
        f"{cpp_type_name(value._dtype)} instead.",
    )
    check(
        query.device == key.device and query.device == value.device,
        f"Expected query, key, and value to have the same device type, but got query.device: "
        f"{query.device} key.device: {key.device} and value.device: {value.device} instead.",
    )
    check(
        query.dim() >= 2 and key.dim() >= 2 and value.dim() >= 2,
        f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
        f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.",
    )
    if attn_mask is not None:
        mdt = attn_mask._dtype
        check(
            mdt is bool_ or mdt is float32 or mdt is query._dtype,
            f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {cpp_type_name(mdt)} and  query.dtype: "
            f"{cpp_type_name(query._dtype)} instead.",
        )


def _use_flash_cpp(query, key, value, attn_mask, dropout_p, enable_gqa) -> bool:
    """sdp::use_flash_attention_cpp: the CPU flash kernel's constraints, in PyTorch's order."""
    if dropout_p > 0.0:
        return False
    if not (query.dim() == key.dim() == value.dim() == 4):
        return False
    q, k, v = shape_of(query), shape_of(key), shape_of(value)
    if not (q[0] == k[0] == v[0]):
        return False
    if enable_gqa:
        if k[1] != v[1] or q[1] % k[1] != 0:
            return False
    elif not (q[1] == k[1] == v[1]):
        return False
    if attn_mask is not None:
        if attn_mask.requires_grad:
            return False
        m = shape_of(attn_mask)

        def compat(md: int, target: int) -> bool:
            return md == target or md == 1

        if not (compat(m[-2], q[2]) and compat(m[-1], k[2])):
            return False
        if len(m) == 4:
            if not (compat(m[0], q[0]) and compat(m[1], q[1])):
                return False
        elif len(m) != 2:
            return False
    if not (q[3] == k[3] == v[3]):
        return False
    if q[2] == 0 or k[2] == 0:
        return False
    if not (query.stride()[-1] == 1 and key.stride()[-1] == 1 and value.stride()[-1] == 1):
        return False
    dt = query._dtype
    return dt is key._dtype and dt is value._dtype and dt.category == 2


def _convert_boolean_attn_mask(attn_mask: Any, dt: Any) -> Any:
    """A boolean mask (True = attend) as an additive one: where(mask, 0, -inf)."""
    if attn_mask is None or attn_mask._dtype is not bool_:
        return attn_mask
    from ..tensor.layout import strided

    dev = attn_mask.device
    neg_inf = op("scalar_tensor")(float("-inf"), dtype=dt, device=dev)
    zero = op("scalar_tensor")(0.0, dtype=dt, layout=strided, device=dev)
    return op("where.self")(attn_mask, zero, neg_inf)


@composite(
    "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
    "float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> "
    "Tensor"
)
def scaled_dot_product_attention(
    query,
    key,
    value,
    attn_mask=None,
    dropout_p=0.0,
    is_causal=False,
    *,
    scale=None,
    enable_gqa=False,
):
    _validate_sdpa_input(query, key, value, attn_mask)
    if query.numel() == 0 or key.numel() == 0 or value.numel() == 0:
        # An empty attention: zeros that still depend on every input (PyTorch's shortcut).
        out = op("zeros")(
            [*shape_of(query)[:-1], shape_of(value)[-1]],
            dtype=query._dtype,
            layout=None,
            device=query.device,
        )
        sv, sk, sq = op("sum")(value), op("sum")(key), op("sum")(query)
        total = op("add.Tensor")(op("add.Tensor")(sq, sk), sv)
        return op("add.Tensor")(out, op("mul.Scalar")(total, 0))
    # The CPU flash kernel (meta tensors model CPU ones).
    if query.device.type in ("cpu", "meta") and _use_flash_cpp(
        query, key, value, attn_mask, dropout_p, enable_gqa
    ):
        mask = _convert_boolean_attn_mask(attn_mask, query._dtype)
        return op("_scaled_dot_product_flash_attention_for_cpu")(
            query, key, value, dropout_p, is_causal, attn_mask=mask, scale=scale
        )[0]
    mask = _convert_boolean_attn_mask(attn_mask, query._dtype)
    return op("_scaled_dot_product_attention_math")(
        query, key, value, mask, dropout_p, is_causal, None, scale=scale, enable_gqa=enable_gqa
    )[0]


def _repeat_heads(t: Tensor, repeats: int) -> Tensor:
    """t.repeat_interleave(repeats, -3) as PyTorch decomposes it for an int repeat."""
    s = list(shape_of(t))
    d = len(s) - 3
    u = op("unsqueeze")(t, d + 1)
    e = op("expand")(u, [*s[: d + 1], repeats, *s[d + 1 :]])
    c = op("clone")(e, memory_format=_contiguous_format())
    return op("view")(c, [*s[:d], s[d] * repeats, *s[d + 1 :]])


def _contiguous_format() -> Any:
    from ..tensor.layout import contiguous_format

    return contiguous_format


@composite(
    "_scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value, Tensor? "
    "attn_mask=None, float dropout_p=0., bool is_causal=False, Tensor? dropout_mask=None, *, "
    "float? scale=None, bool enable_gqa=False) -> (Tensor, Tensor)"
)
def _scaled_dot_product_attention_math(
    query,
    key,
    value,
    attn_mask=None,
    dropout_p=0.0,
    is_causal=False,
    dropout_mask=None,
    *,
    scale=None,
    enable_gqa=False,
):
    origin = query._dtype

    def acc(t: Tensor) -> Tensor:
        if t._dtype.category == 2 and t._dtype.itemsize == 2:
            return op("_to_copy")(t, dtype=float32)
        return t

    q_acc, k_acc, v_acc = acc(query), acc(key), acc(value)
    negative = scale is not None and scale < 0.0
    base = abs(scale) if negative else scale
    softmax_scale = base if base is not None else 1.0 / math.sqrt(shape_of(q_acc)[-1])
    factor = math.sqrt(softmax_scale)
    q = op("mul.Scalar")(q_acc, (0.0 - factor) if negative else factor)
    mask = attn_mask
    if is_causal:
        check(
            mask is None,
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True",
        )
        L, S = shape_of(q)[-2], shape_of(k_acc)[-2]
        ones = op("ones")([L, S], dtype=bool_, layout=_strided(), device=q.device)
        mask = _convert_boolean_attn_mask(op("tril")(ones), q._dtype)
    k_exp, v_exp = k_acc, v_acc
    if enable_gqa:
        qh, kh, vh = shape_of(q)[-3], shape_of(k_acc)[-3], shape_of(v_acc)[-3]
        all_equal = qh == kh == vh
        check(
            all_equal or (qh % kh == 0 and qh % vh == 0),
            "Number of heads in key and value must divide the number of heads in ",
        )
        if not all_equal:
            k_exp = _repeat_heads(k_acc, qh // kh)
            v_exp = _repeat_heads(v_acc, qh // vh)
    kt = op("mul.Scalar")(op("transpose.int")(k_exp, -2, -1), factor)
    attn = op("matmul")(q, kt)
    if mask is not None:
        if subclass_like(attn, mask):
            attn = op("add.Tensor")(attn, mask)
        else:
            attn = op("add_.Tensor")(attn, mask)
    attn = op("_safe_softmax")(attn, -1)
    if dropout_p > 0.0:
        if dropout_mask is not None:
            attn = op("masked_fill.Scalar")(attn, op("logical_not")(dropout_mask), 0.0)
            v_exp = op("mul.Scalar")(v_exp, 1.0 / (1 - dropout_p))
        else:
            attn = op("dropout")(attn, dropout_p, True)
    attn_out = attn if attn._dtype is origin else op("_to_copy")(attn, dtype=origin)
    out = op("matmul")(attn, v_exp)
    if out._dtype is not origin:
        out = op("_to_copy")(out, dtype=origin)
    return out, attn_out


def _strided() -> Any:
    from ..tensor.layout import strided

    return strided


# ----------------------------------------------------------------------------- losses


def _nll_target_check(target: Tensor) -> None:
    if target._dtype is not int64 and target._dtype is not uint8:
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {target._dtype._short}"
        )


@meta(
    "nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index) -> (Tensor output, Tensor total_weight)"
)
def nll_loss_forward_meta(self, target, weight, reduction, ignore_index):
    check(self.dim() > 0 and self.dim() <= 2, "input tensor should be 1D or 2D")
    check(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported")
    if self.dim() == 1 and target.dim() == 1:
        check(
            shape_of(target)[0] == 1,
            f"For 1D input, 1D target must have size 1, but got target size: {shape_of(target)[0]}",
            ValueError,
        )
    elif self.dim() != 1 or target.dim() != 0:
        check(
            shape_of(self)[0] == shape_of(target)[0],
            f"size mismatch (got input: {list(shape_of(self))}, target: {list(shape_of(target))})",
        )
    n_classes = shape_of(self)[-1]
    check(
        weight is None or (weight.dim() == 1 and weight.numel() == n_classes),
        f"weight tensor should be defined either for all {n_classes} classes or no classes but "
        f"got weight tensor of shape: {list(shape_of(weight)) if weight is not None else []}",
    )
    _nll_target_check(target)
    if self._dtype.category != 2:
        _not_implemented("nll_loss_out_frame", self._dtype)
    if reduction == 0 and self.dim() == 2:
        out = new_meta((shape_of(self)[0],), self._dtype)
    else:
        out = new_meta((), self._dtype)
    return out, new_meta((), self._dtype)


@meta(
    "nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index) -> (Tensor output, Tensor total_weight)"
)
def nll_loss2d_forward_meta(self, target, weight, reduction, ignore_index):
    check(
        target.dim() == 3,
        f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
        f"{target.dim()}",
    )
    check(
        self.dim() == 4,
        f"only batches of spatial inputs supported (4D tensors), but got input of dimension: "
        f"{self.dim()}",
    )
    n_classes = shape_of(self)[1]
    check(
        weight is None or weight.numel() == n_classes,
        f"weight tensor should be defined either for all {n_classes} classes or no classes but "
        f"got weight tensor of shape: {list(shape_of(weight)) if weight is not None else []}",
    )
    s, t = shape_of(self), shape_of(target)
    check(
        s[0] == t[0] and s[2] == t[1] and s[3] == t[2],
        f"size mismatch (got input: {list(s)} , target: {list(t)}",
    )
    _nll_target_check(target)
    if self._dtype.category != 2:
        _not_implemented("nll_loss2d_forward_out_frame", self._dtype)
    out = new_meta(t, self._dtype) if reduction == 0 else new_meta((), self._dtype)
    return out, new_meta((), self._dtype)


exact_out_variant(
    "nll_loss_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> (Tensor(a!), Tensor(b!))",
    "nll_loss_forward",
    outs=("output", "total_weight"),
)
exact_out_variant(
    "nll_loss2d_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> (Tensor(a!), Tensor(b!))",
    "nll_loss2d_forward",
    outs=("output", "total_weight"),
)


@composite(
    "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100) -> Tensor"
)
def nll_loss(self, target, weight=None, reduction=1, ignore_index=-100):
    return op("nll_loss_forward")(self, target, weight, reduction, ignore_index)[0]


@composite(
    "nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100) -> Tensor"
)
def nll_loss2d(self, target, weight=None, reduction=1, ignore_index=-100):
    return op("nll_loss2d_forward")(self, target, weight, reduction, ignore_index)[0]


@composite(
    "nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100) -> Tensor"
)
def nll_loss_nd(self, target, weight=None, reduction=1, ignore_index=-100):
    check(self.dim() >= 1, f"Expected 1 or more dimensions (got {self.dim()})", ValueError)
    s, t = shape_of(self), shape_of(target)
    if self.dim() != 1 and (not t or s[0] != t[0]):
        raise ValueError(
            f"Expected input batch_size ({s[0]}) to match target batch_size ({t[0] if t else 0})."
        )
    if self.dim() in (1, 2):
        return op("nll_loss")(self, target, weight, reduction, ignore_index)
    if self.dim() == 4:
        return op("nll_loss2d")(self, target, weight, reduction, ignore_index)
    n, c = s[0], s[1]
    out_size = [n, *s[2:]]
    if list(t[1:]) != list(s[2:]):
        raise RuntimeError(f"Expected target size {out_size}, got {list(t)}")
    inp = op("contiguous")(self)
    tgt = op("contiguous")(target)
    inp = op("view")(inp, [n, c, 1, -1] if inp.numel() > 0 else [n, c, 0, 0])
    tgt = op("view")(tgt, [n, 1, -1] if tgt.numel() > 0 else [n, 0, 0])
    ret = op("nll_loss2d")(inp, tgt, weight, reduction, ignore_index)
    if reduction == 0:
        ret = op("view")(ret, out_size)
    return ret


def _weight_view(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    shape = [1] * ndim
    shape[class_dim] = shape_of(weight)[0]
    return op("view")(weight, shape)


def _ce_prob_target(self, target, weight, reduction, label_smoothing):
    class_dim = 0 if self.dim() == 1 else 1
    n_classes = shape_of(self)[class_dim]
    check(
        weight is None or (weight.dim() == 1 and weight.numel() == n_classes),
        f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or "
        f"no classes but got weight tensor of shape: "
        f"{list(shape_of(weight)) if weight is not None else []}",
    )
    inp = op("log_softmax.int")(self, class_dim, self._dtype)
    if label_smoothing > 0.0:
        check(
            label_smoothing <= 1.0,
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}",
        )
        target = op("add.Scalar")(
            op("mul.Scalar")(target, 1 - label_smoothing), label_smoothing / n_classes
        )
    w = None
    if weight is not None:
        w = _weight_view(weight, inp.dim(), 1) if inp.dim() > 1 else weight
    prod = op("mul.Tensor")(inp, target)
    if w is not None:
        prod = op("mul.Tensor")(prod, w)
    if reduction == 1:
        if inp.numel() == 0:
            return op("fill_.Scalar")(op("neg")(op("sum")(prod)), float("nan"))
        return op("div.Scalar")(op("neg")(op("sum")(prod)), inp.numel() // n_classes)
    if reduction == 2:
        return op("neg")(op("sum")(prod))
    if reduction == 0:
        return op("neg")(op("sum.dim_IntList")(prod, [class_dim]))
    raise RuntimeError(f"Invalid reduction type encountered in cross_entropy: {reduction}")


def _ce_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing):
    class_dim = 0 if self.dim() == 1 else 1
    inp = op("log_softmax.int")(self, class_dim, self._dtype)
    nllloss = op("nll_loss_nd")(inp, target, weight, reduction, ignore_index)
    n_classes = shape_of(inp)[class_dim]
    if weight is not None:
        w = _weight_view(weight, inp.dim(), class_dim)
        smooth = op("neg")(op("sum.dim_IntList")(op("mul.Tensor")(inp, w), [class_dim]))
    else:
        smooth = op("neg")(op("sum.dim_IntList")(inp, [class_dim]))
    ignore_mask = op("eq.Scalar")(target, ignore_index)
    op("masked_fill_.Scalar")(smooth, ignore_mask, 0.0)
    if reduction == 1:
        if weight is not None:
            if subclass_like(weight):
                filtered = op("masked_fill.Scalar")(target, ignore_mask, 0)
                tgt_w = op("gather")(weight, 0, op("flatten.using_ints")(filtered))
                wsum = op("sum")(
                    op("masked_fill_.Scalar")(tgt_w, op("flatten.using_ints")(ignore_mask), 0)
                )
            else:
                kept = op("masked_select")(target, op("bitwise_not")(ignore_mask))
                wsum = op("sum")(op("gather")(weight, 0, op("flatten.using_ints")(kept)))
            ret = op("div.Tensor")(op("sum")(smooth), wsum)
        else:
            true_mask = op("bitwise_not")(ignore_mask)
            ret = op("div.Tensor")(op("sum")(smooth), op("sum")(true_mask))
    elif reduction == 2:
        ret = op("sum")(smooth)
    elif reduction == 0:
        ret = smooth
    else:
        raise RuntimeError(f"Invalid reduction type encountered in cross_entropy: {reduction}")
    return op("add.Tensor")(
        op("mul.Scalar")(nllloss, 1 - label_smoothing),
        op("mul.Scalar")(ret, label_smoothing / n_classes),
    )


@composite(
    "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100, float label_smoothing=0.) -> Tensor"
)
def cross_entropy_loss(
    self, target, weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0
):
    if shape_of(self) == shape_of(target):
        check(
            target._dtype.category == 2,
            f"Expected floating point type for target with class probabilities, got "
            f"{target._dtype._short}",
        )
        check(ignore_index < 0, "ignore_index is not supported for floating point target")
        return _ce_prob_target(self, target, weight, reduction, label_smoothing)
    if label_smoothing > 0.0:
        check(
            label_smoothing <= 1.0,
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}",
        )
        return _ce_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing)
    class_dim = 0 if self.dim() == 1 else 1
    return op("nll_loss_nd")(
        op("log_softmax.int")(self, class_dim, self._dtype),
        target,
        weight,
        reduction,
        ignore_index,
    )


@meta("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor")
def mse_loss(self, target, reduction=1):
    from ._meta_util import elementwise

    out = elementwise(self, target)
    if reduction == 0:
        return out
    return new_meta((), out._dtype)


out_variant(
    "mse_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)",
    "mse_loss",
)


@composite("l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor")
def l1_loss(self, target, reduction=1):
    loss = op("abs")(op("sub.Tensor")(self, target))
    if reduction == 1:
        return op("mean")(loss)
    if reduction == 2:
        return op("sum")(loss)
    return loss


@meta(
    "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? "
    "pos_weight=None, int reduction=1) -> Tensor"
)
def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction=1):
    from ._meta_util import elementwise

    out = elementwise(self, target, *(t for t in (weight, pos_weight) if t is not None))
    if reduction == 0:
        return out
    return new_meta((), out._dtype)


@meta(
    "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> "
    "Tensor"
)
def binary_cross_entropy(self, target, weight=None, reduction=1):
    from ._meta_util import elementwise

    out = elementwise(self, target, *(() if weight is None else (weight,)), dt=self._dtype)
    if self._dtype.category != 2:
        _not_implemented("binary_cross_entropy", self._dtype)
    if reduction == 0:
        return out
    return new_meta((), self._dtype)


exact_out_variant(
    "binary_cross_entropy.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
    "*, Tensor(a!) out) -> Tensor(a!)",
    "binary_cross_entropy",
)


# ----------------------------------------------------------------------------- convolution


# Legacy tensor type names (Tensor.type()) in the oneDNN path's dtype errors.
_LEGACY_TYPE = {
    "float32": "torch.FloatTensor",
    "float64": "torch.DoubleTensor",
    "float16": "torch.HalfTensor",
    "bfloat16": "CPUBFloat16Type",
    "int64": "torch.LongTensor",
    "int32": "torch.IntTensor",
    "int16": "torch.ShortTensor",
    "int8": "torch.CharTensor",
    "uint8": "torch.ByteTensor",
    "bool": "torch.BoolTensor",
}


def _legacy_type(dt: Any) -> str:
    return _LEGACY_TYPE.get(dt.name, dt.name)


def _conv_param_types(input: Tensor, weight: Tensor, bias: Any) -> None:
    """check_input_same_type_as_parameters: float16/bfloat16 inputs take the oneDNN path, which
    checks the weight's and bias's dtypes before any shape check of the kernel."""
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t._dtype is not input._dtype:
            raise RuntimeError(
                f"Input type ({_legacy_type(input._dtype)}) and {name} type "
                f"({_legacy_type(t._dtype)}) should be the same or input should be a MKLDNN "
                f"tensor and {name} is a dense tensor"
            )


def _conv_transpose_checks(
    ishape: Sequence[int],
    wshape: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    output_padding: Sequence[int],
) -> list[int]:
    """slow_conv_transpose{2,3}d's shape check (a 1-d convolution is viewed as 2-d, a unit
    height first); returns the output's spatial sizes."""
    nsp = len(wshape) - 2
    names = ("depth", "height", "width") if nsp == 3 else ("height", "width")
    lead = [0] * (len(names) - nsp)  # the 2-d view of a 1-d convolution: height 1, stride 1

    def view(v: Sequence[int], fill: int) -> list[int]:
        return [fill] * len(lead) + list(v)

    op_, st, dl = view(output_padding, 0), view(stride, 1), view(dilation, 1)
    if not all(o < s or o < d for o, s, d in zip(op_, st, dl)):
        parts = [f"output_padding_{n}: {v}" for n, v in zip(names, op_)]
        parts += [f"stride_{n}: {v}" for n, v in zip(names, st)]
        parts += [f"dilation_{n}: {v}" for n, v in zip(names, dl)]
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            + " ".join(parts)
        )
    out = [
        (ishape[i + 2] - 1) * stride[i]
        - 2 * padding[i]
        + dilation[i] * (wshape[i + 2] - 1)
        + 1
        + output_padding[i]
        for i in range(nsp)
    ]
    if any(o < 1 for o in out):
        sizes = view(ishape[2:], 1)
        outs = view(out, 1)
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, sizes))}). Calculated output "
            f"size per channel: ({' x '.join(map(str, outs))}). Output size is too small"
        )
    return out


def conv_output_shape(
    input: Tensor,
    weight: Tensor,
    bias: Any,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
) -> tuple[int, ...]:
    """at::native::_convolution's checks (check_shape_forward) and the output shape."""
    k = input.dim()
    wshape = list(shape_of(weight))
    wdim = len(wshape)
    check(wdim >= 3, f"weight should have at least three dimensions")  # noqa: F541
    nsp = wdim - 2

    def expand(name: str, v: Sequence[int]) -> list[int]:
        v = [int(x) for x in v]
        if len(v) == 1:
            return v * nsp
        check(
            len(v) == nsp,
            f"expected {name} to be a single integer value or a list of {nsp} values to match the "
            f"convolution dimensions, but got {name}={v}",
        )
        return v

    stride = expand("stride", stride)
    padding = expand("padding", padding)
    dilation = expand("dilation", dilation)
    output_padding = expand("output_padding", output_padding)
    check(groups > 0, "non-positive groups is not supported")
    check(all(p >= 0 for p in padding), "negative padding is not supported")
    check(all(p >= 0 for p in output_padding), "negative output_padding is not supported")
    check(all(s > 0 for s in stride), "non-positive stride is not supported")
    check(all(d > 0 for d in dilation), "dilation should be greater than zero")
    ishape = shape_of(input)
    check(
        wdim == k,
        f"Expected {wdim}-dimensional input for {wdim}-dimensional weight {wshape}, but got "
        f"{k}-dimensional input of size {list(ishape)} instead",
    )
    check(
        wshape[0] >= groups,
        f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
        f"weight of size {wshape} instead",
    )
    check(
        wshape[0] % groups == 0,
        f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
        f"got weight of size [{wshape}] instead",
    )
    if transposed:
        check(
            ishape[1] == wshape[0],
            f"Given transposed=1, weight of size {wshape}, expected input{list(ishape)} to have "
            f"{wshape[0]} channels, but got {ishape[1]} channels instead",
        )
        cout = wshape[1] * groups
        check(
            bias is None or (bias.dim() == 1 and shape_of(bias)[0] == cout),
            f"Given transposed=1, weight of size {wshape}, expected bias to be "
            f"1-dimensional with {cout} elements, but got bias of size "
            f"{list(shape_of(bias))} instead",
        )
        dt = input._dtype
        if dt.category == 2 and dt.itemsize == 2:
            _conv_param_types(input, weight, bias)
        out_sp = _conv_transpose_checks(ishape, wshape, stride, padding, dilation, output_padding)
        if dt.category != 2 and dt is not int64:
            _not_implemented(f"slow_conv_transpose{3 if nsp == 3 else 2}d_out_cpu", dt)
        check(
            weight._dtype is dt,
            f"expected scalar type {dt._short} but found {weight._dtype._short}",
        )
        if bias is not None and dt.category != 2 and bias._dtype.category >= 2:
            raise RuntimeError(
                f"result type {bias._dtype._short} can't be cast to the desired output type "
                f"{dt._short}"
            )
        return (ishape[0], cout, *out_sp)
    check(
        ishape[1] == wshape[1] * groups,
        f"Given groups={groups}, weight of size {wshape}, expected input{list(ishape)} to have "
        f"{wshape[1] * groups} channels, but got {ishape[1]} channels instead",
    )
    check(
        bias is None or (bias.dim() == 1 and shape_of(bias)[0] == wshape[0]),
        f"Given weight of size {wshape}, expected bias to be 1-dimensional with {wshape[0]} "
        f"elements, but got bias of size {list(shape_of(bias)) if bias is not None else []} "
        f"instead",
    )
    in_sz = [ishape[i + 2] + 2 * padding[i] for i in range(nsp)]
    k_sz = [dilation[i] * (wshape[i + 2] - 1) + 1 for i in range(nsp)]
    if any(a < b for a, b in zip(in_sz, k_sz)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, in_sz))}). Kernel "
            f"size: ({' x '.join(map(str, k_sz))}). Kernel size can't be greater than actual "
            f"input size"
        )
    if input._dtype.category == 2 and input._dtype.itemsize == 2:
        _conv_param_types(input, weight, bias)
    check(
        weight._dtype is input._dtype,
        f"expected scalar type {input._dtype._short} but found {weight._dtype._short}",
    )
    out_sp = [(in_sz[i] - k_sz[i]) // stride[i] + 1 for i in range(nsp)]
    return (ishape[0], wshape[0], *out_sp)


@meta(
    "convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
    "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor"
)
def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    shape = conv_output_shape(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
    )
    if input._dtype.category == 0 or input._dtype.category == 3:
        _not_implemented("slow_conv2d_cpu", input._dtype)
    return new_meta(shape, input._dtype)


exact_out_variant(
    "convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] "
    "padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    "convolution",
)


def _batchify(input: Tensor, nsp: int, name: str) -> tuple[Tensor, bool]:
    nob = nsp + 1
    batched = input.dim() == nob + 1
    check(
        input.dim() == nob or batched,
        f"Expected {nob}D (unbatched) or {nob + 1}D (batched) input to {name}, but got input of "
        f"size: {list(shape_of(input))}",
    )
    return (input if batched else op("unsqueeze")(input, 0)), batched


def _conv_nd(input, weight, bias, stride, padding, dilation, groups, nsp: int, name: str):
    if bias is not None:
        check(
            bias._dtype is input._dtype,
            f"Input type ({cpp_type_name(input._dtype)}) and bias type "
            f"({cpp_type_name(bias._dtype)}) should be the same",
        )
    x, batched = _batchify(input, nsp, name)
    if isinstance(padding, str):
        out = _convolution_mode(
            x, weight, bias, _ints(stride, nsp), padding, _ints(dilation, nsp), groups
        )
    else:
        out = op("convolution")(
            x,
            weight,
            bias,
            _ints(stride, nsp),
            _ints(padding, nsp),
            _ints(dilation, nsp),
            False,
            [0] * nsp,
            groups,
        )
    return out if batched else op("squeeze.dim")(out, 0)


def _convolution_mode(input, weight, bias, stride, padding, dilation, groups):
    if padding == "same":
        return _convolution_same(input, weight, bias, stride, dilation, groups)
    if padding == "valid":
        return op("convolution")(input, weight, bias, stride, [0], dilation, False, [0], groups)
    raise RuntimeError(f"Invalid padding string: '{padding}'")


def _convolution_same(input, weight, bias, stride, dilation, groups):
    k = weight.dim()
    check(k > 2, "weight should have at least three dimensions")
    check(groups > 0, "non-positive groups is not supported")
    nd = k - 2
    ws = shape_of(weight)
    check(
        k == input.dim(),
        f"Expected {k}-dimensional input for {k}-dimensional weight{list(ws)}, but got "
        f"{input.dim()}-dimensional input of size {list(shape_of(input))} instead",
    )
    check(len(stride) in (nd, 1), f"stride cannot broadcast to {nd} dimensions")
    check(len(dilation) in (nd, 1), f"dilation cannot broadcast to {nd} dimensions")
    for s in stride:
        check(s == 1, "padding='same' is not supported for strided convolutions")
    pad_l: list[int] = []
    pad_r: list[int] = []
    symmetric = True
    for i in range(nd):
        d = dilation[0] if len(dilation) == 1 else dilation[i]
        total = d * (ws[i + 2] - 1)
        pad_l.append(total // 2)
        pad_r.append(total - total // 2)
        if total // 2 != total - total // 2:
            symmetric = False
    if symmetric:
        return op("convolution")(
            input, weight, bias, stride, pad_l, dilation, False, [0] * nd, groups
        )
    import warnings

    warnings.warn(
        "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
        "copy of the input be created",
        UserWarning,
        stacklevel=4,
    )
    pad_nd = [0] * (2 * nd)
    for i in range(nd):
        delta = pad_r[i] - pad_l[i]
        idx = 2 * (nd - 1 - i)
        if delta > 0:
            pad_nd[idx + 1] = delta
        else:
            pad_nd[idx] = delta
            pad_l[i] = pad_r[i]
    padded = op("constant_pad_nd")(input, pad_nd, 0)
    return op("convolution")(padded, weight, bias, stride, pad_l, dilation, False, [0] * nd, groups)


@composite(
    "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], SymInt[2] "
    "padding=[0, 0], SymInt[2] dilation=[1, 1], SymInt groups=1) -> Tensor"
)
def conv2d(input, weight, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@composite(
    "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], str "
    'padding="valid", SymInt[2] dilation=[1, 1], SymInt groups=1) -> Tensor'
)
def conv2d_padding(
    input, weight, bias=None, stride=(1, 1), padding="valid", dilation=(1, 1), groups=1
):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@composite(
    "conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], SymInt[1] "
    "padding=[0], SymInt[1] dilation=[1], SymInt groups=1) -> Tensor"
)
def conv1d(input, weight, bias=None, stride=(1,), padding=(0,), dilation=(1,), groups=1):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@composite(
    "conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], str "
    'padding="valid", SymInt[1] dilation=[1], SymInt groups=1) -> Tensor'
)
def conv1d_padding(input, weight, bias=None, stride=(1,), padding="valid", dilation=(1,), groups=1):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def _list(v: Any, n: int) -> list[int]:
    """A SymInt[n] argument as the arg parser hands it on: an int repeated n times, a list as
    it is (aten::convolution expands a single value)."""
    return [int(v)] * n if isinstance(v, int) else [int(x) for x in v]


def _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, nsp):
    # at::native::conv_transpose{1,2,3}d: batchify, then one aten::convolution (transposed).
    x, batched = _batchify(input, nsp, f"conv_transpose{nsp}d")
    out = op("convolution")(
        x,
        weight,
        bias,
        _list(stride, nsp),
        _list(padding, nsp),
        _list(dilation, nsp),
        True,
        _list(output_padding, nsp),
        groups,
    )
    return out if batched else op("squeeze.dim")(out, 0)


@composite(
    "conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], "
    "SymInt[1] padding=[0], SymInt[1] output_padding=[0], SymInt groups=1, SymInt[1] "
    "dilation=[1]) -> Tensor"
)
def conv_transpose1d(
    input,
    weight,
    bias=None,
    stride=(1,),
    padding=(0,),
    output_padding=(0,),
    groups=1,
    dilation=(1,),
):
    return _conv_transpose_nd(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 1
    )


@composite(
    "conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, "
    "1], SymInt[2] padding=[0, 0], SymInt[2] output_padding=[0, 0], SymInt groups=1, SymInt[2] "
    "dilation=[1, 1]) -> Tensor"
)
def conv_transpose2d(
    input,
    weight,
    bias=None,
    stride=(1, 1),
    padding=(0, 0),
    output_padding=(0, 0),
    groups=1,
    dilation=(1, 1),
):
    return _conv_transpose_nd(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 2
    )


@composite(
    "conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=[1, "
    "1, 1], SymInt[3] padding=[0, 0, 0], SymInt[3] output_padding=[0, 0, 0], SymInt groups=1, "
    "SymInt[3] dilation=[1, 1, 1]) -> Tensor"
)
def conv_transpose3d(
    input,
    weight,
    bias=None,
    stride=(1, 1, 1),
    padding=(0, 0, 0),
    output_padding=(0, 0, 0),
    groups=1,
    dilation=(1, 1, 1),
):
    return _conv_transpose_nd(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 3
    )


# ----------------------------------------------------------------------------- pooling


def pool_output_size(size: int, k: int, pad: int, stride: int, dil: int, ceil: bool) -> int:
    """pooling_output_shape: PyTorch's output length (the last window starts inside)."""
    check(stride != 0, "stride should not be zero")
    check(pad >= 0, f"pad must be non-negative, but got pad: {pad}")
    check(
        pad <= ((k - 1) * dil + 1) // 2,
        f"pad should be at most half of effective kernel size, but got pad={pad}, "
        f"kernel_size={k} and dilation={dil}",
    )
    num = size + 2 * pad - dil * (k - 1) - 1 + (stride - 1 if ceil else 0)
    out = num // stride + 1
    if ceil and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def pool2d_params(name: str, kernel_size, stride, padding, dilation=None):
    ks = [int(x) for x in ([kernel_size] if isinstance(kernel_size, int) else kernel_size)]
    check(
        len(ks) in (1, 2),
        f"{name}: kernel_size must either be a single int, or a tuple of two ints",
    )
    kh, kw = ks[0], ks[-1]
    st = [int(x) for x in ([stride] if isinstance(stride, int) else (stride or []))]
    check(
        len(st) in (0, 1, 2),
        f"{name}: stride must either be omitted, a single int, or a tuple of two ints",
    )
    dh, dw = (kh, kw) if not st else (st[0], st[-1])
    pd = [int(x) for x in ([padding] if isinstance(padding, int) else padding)]
    check(len(pd) in (1, 2), f"{name}: padding must either be a single int, or a tuple of two ints")
    ph, pw = pd[0], pd[-1]
    if dilation is None:
        return kh, kw, dh, dw, ph, pw, 1, 1
    dl = [int(x) for x in ([dilation] if isinstance(dilation, int) else dilation)]
    check(
        len(dl) in (1, 2),
        f"{name}: dilation must be either a single int, or a tuple of two ints",
    )
    return kh, kw, dh, dw, ph, pw, dl[0], dl[-1]


def _pool2d_shape_check(input, kh, kw, dh, dw, ph, pw, dilh, dilw, oh, ow) -> None:
    check(
        kw > 0 and kh > 0,
        f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}",
    )
    check(dw > 0 and dh > 0, f"stride should be greater than zero, but got dH: {dh} dW: {dw}")
    check(
        dilh > 0 and dilw > 0,
        f"dilation should be greater than zero, but got dilationH: {dilh} dilationW: {dilw}",
    )
    s = shape_of(input)
    nd = len(s)
    valid = s[1] != 0 and s[2] != 0
    check(
        (nd == 3 and s[0] != 0 and valid) or (nd == 4 and valid and s[3] != 0),
        f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
        f"got:{list(s)}",
    )
    check(
        kw // 2 >= pw and kh // 2 >= ph,
        f"pad should be smaller than or equal to half of kernel size, but got padW = {pw}, "
        f"padH = {ph}, kW = {kw}, kH = {kh}",
    )
    c, ih, iw = s[-3], s[-2], s[-1]
    check(
        ow >= 1 and oh >= 1,
        f"Given input size: ({c}x{ih}x{iw}). Calculated output size: ({c}x{oh}x{ow}). Output "
        f"size is too small",
    )


@meta(
    "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
    "int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"
)
def max_pool2d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    kh, kw, dh, dw, ph, pw, dilh, dilw = pool2d_params(
        "max_pool2d", kernel_size, stride, padding, dilation
    )
    check(self.dim() in (3, 4), "non-empty 3D or 4D (batch mode) tensor expected for input")
    s = shape_of(self)
    oh = pool_output_size(s[-2], kh, ph, dh, dilh, ceil_mode)
    ow = pool_output_size(s[-1], kw, pw, dw, dilw, ceil_mode)
    _pool2d_shape_check(self, kh, kw, dh, dw, ph, pw, dilh, dilw, oh, ow)
    if self._dtype.category == 0:
        _not_implemented("max_pool2d", self._dtype)
    shape = (*s[:-2], oh, ow)
    return new_meta(shape, self._dtype), new_meta(shape, int64)


exact_out_variant(
    "max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] "
    "padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) "
    "-> (Tensor(a!), Tensor(b!))",
    "max_pool2d_with_indices",
    outs=("out", "indices"),
)


@composite(
    "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] "
    "dilation=1, bool ceil_mode=False) -> Tensor"
)
def max_pool2d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return op("max_pool2d_with_indices")(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


@composite(
    "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] "
    "dilation=[1], bool ceil_mode=False) -> Tensor"
)
def max_pool1d(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    check(
        self.dim() in (2, 3),
        f"max_pool1d() Expected 2D or 3D input tensor, but got {list(shape_of(self))}",
    )
    ks, st = _ints(kernel_size, 1), list(stride) if not isinstance(stride, int) else [stride]
    x = op("unsqueeze")(self, -2)
    out, indices = op("max_pool2d_with_indices")(
        x,
        [1, ks[0]],
        [1, st[0]] if st else [1, ks[0]],
        [0, _ints(padding, 1)[0]],
        [1, _ints(dilation, 1)[0]],
        ceil_mode,
    )
    out = op("squeeze.dim")(out, -2)
    op("squeeze.dim")(indices, -2)  # PyTorch squeezes both results (max_pool1d_with_indices)
    return out


def _avg_divisors(size: int, out: int, k: int, stride: int, pad: int, include_pad: bool):
    """Per-output-position window extents of avg_pool along one dimension."""
    counts = []
    for o in range(out):
        start = o * stride - pad
        end = min(start + k, size + pad)
        full = end - start
        start, end = max(start, 0), min(end, size)
        counts.append(full if include_pad else max(end - start, 0))
    return counts


@meta(
    "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool "
    "ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"
)
def avg_pool2d(
    self,
    kernel_size,
    stride=(),
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=None,
):
    kh, kw, dh, dw, ph, pw, _, _ = pool2d_params("avg_pool2d", kernel_size, stride, padding)
    check(divisor_override is None or divisor_override != 0, "divisor must be not zero")
    s = shape_of(self)
    check(self.dim() in (3, 4), "non-empty 3D or 4D (batch mode) tensor expected for input")
    oh = pool_output_size(s[-2], kh, ph, dh, 1, ceil_mode)
    ow = pool_output_size(s[-1], kw, pw, dw, 1, ceil_mode)
    _pool2d_shape_check(self, kh, kw, dh, dw, ph, pw, 1, 1, oh, ow)
    if self._dtype.category == 0:
        _not_implemented("avg_pool2d_out_frame", self._dtype)
    return new_meta((*s[:-2], oh, ow), self._dtype)


exact_out_variant(
    "avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool "
    "ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out)"
    " -> Tensor(a!)",
    "avg_pool2d",
)


@composite(
    "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool "
    "ceil_mode=False, bool count_include_pad=True) -> Tensor"
)
def avg_pool1d(self, kernel_size, stride=(), padding=(0,), ceil_mode=False, count_include_pad=True):
    check(
        self.dim() in (2, 3),
        f"avg_pool1d() Expected 2D or 3D input tensor, but got {list(shape_of(self))}",
    )
    ks = _ints(kernel_size, 1)
    st = [stride] if isinstance(stride, int) else list(stride)
    x = op("unsqueeze")(self, -2)
    out = op("avg_pool2d")(
        x,
        [1, ks[0]],
        [1, st[0]] if st else [1, ks[0]],
        [0, _ints(padding, 1)[0]],
        ceil_mode,
        count_include_pad,
    )
    return op("squeeze.dim")(out, -2)


@meta("_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor")
def _adaptive_avg_pool2d(self, output_size):
    osz = _ints(output_size, 2)
    check(len(osz) == 2, "adaptive_avg_pool2d: output_size must be 2")
    s = shape_of(self)
    nd = len(s)
    check(nd in (3, 4), f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(s)}")
    for i in (nd - 2, nd - 1):
        check(
            s[i] > 0,
            f"adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
            f"dimensions, but input has sizes {list(s)} with dimension {i} being empty",
        )
    if self._dtype.category < 2:
        _not_implemented("adaptive_avg_pool2d", self._dtype)
    return new_meta((*s[:-2], osz[0], osz[1]), self._dtype)


@composite("adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor")
def adaptive_avg_pool2d(self, output_size):
    osz = _ints(output_size, 2)
    check(len(osz) == 2, "adaptive_avg_pool2d: output_size must be 2")
    check(
        osz[0] >= 0 and osz[1] >= 0,
        f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
        f"received {{{osz[0]}, {osz[1]}}}",
    )
    if osz[0] == 1 and osz[1] == 1:
        return op("mean.dim")(self, [-1, -2], True)
    return op("_adaptive_avg_pool2d")(self, osz)


# ----------------------------------------------------------------------------- padding


def constant_pad_shape(self: Tensor, pad: Sequence[int]) -> tuple[int, ...]:
    pad = [int(p) for p in pad]
    check(len(pad) % 2 == 0, f"Length of pad must be even but instead it equals {len(pad)}")
    shape = shape_of(self)
    l_inp, l_pad = len(shape), len(pad) // 2
    check(
        l_inp >= l_pad,
        f"Length of pad should be no more than twice the number of dimensions of the input. Pad "
        f"length is {len(pad)}while the input has {l_inp}dimensions.",
    )
    l_diff = l_inp - l_pad
    for i in range(l_diff, l_inp):
        # Negative pads narrow first (left, then right): narrow's own error.
        k = 2 * (l_inp - i - 1)
        cur = shape[i]
        for p in (pad[k], pad[k + 1]):
            if p < 0:
                check(cur + p >= 0, "narrow(): length must be non-negative.")
                cur += p
    new = list(shape[:l_diff])
    for i in range(l_pad):
        idx = len(pad) - (i + 1) * 2
        size = shape[l_diff + i] + pad[idx] + pad[idx + 1]
        check(
            size >= 0,
            f"The input size {shape[l_diff + i]}, plus negative padding {pad[idx]} and "
            f"{pad[idx + 1]} resulted in a negative output size, which is invalid. Check "
            f"dimension {l_diff + i} of your input.",
        )
        new.append(size)
    return tuple(new)


@meta("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor")
def constant_pad_nd(self, pad, value=0):
    shape = constant_pad_shape(self, pad)
    if all(int(p) <= 0 for p in pad):
        # self narrowed, then cloned: dense strides in self's memory order.
        return new_meta(
            shape, self._dtype, _shape.elementwise_strides(shape, [(shape, self.stride())])
        )
    return new_meta(shape, self._dtype)


exact_out_variant(
    "constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "constant_pad_nd",
)

_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def index_pad_shape(name: str, self: Tensor, padding: Sequence[int], nd: int) -> tuple[int, ...]:
    """reflection_pad{nd}d / replication_pad{nd}d: PyTorch's checks and the output shape."""
    pad = [int(p) for p in padding]
    s = shape_of(self)
    dims = len(s)
    check(len(pad) == 2 * nd, f"padding size is expected to be {2 * nd}, but got: {len(pad)}")
    batch_ok = dims in (nd + 1, nd + 2) and all(x != 0 for x in s[dims - nd - 1 :])
    check(
        batch_ok,
        f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with possibly 0 batch size and "
        f"other non-zero dimensions for input, but got: {list(s)}",
    )
    out = list(s)
    for i in range(nd):
        dim = dims - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        if name.startswith("reflection"):
            check(
                lo < s[dim] and hi < s[dim],
                f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                f"input dimension, but got: padding ({lo}, {hi}) at dimension {dim} of input "
                f"{list(s)}",
            )
        out[dim] = s[dim] + lo + hi
        check(
            out[dim] >= 1,
            f"input (H: {s[dim]}) is too small. Calculated output H: {out[dim]}",
        )
    if self._dtype.category == 0:
        _not_implemented(f"{name}", self._dtype)
    return tuple(out)


def _index_pad_op(name: str, nd: int) -> None:
    schema = f"{name}(Tensor self, SymInt[{2 * nd}] padding) -> Tensor"

    def meta_fn(self: Tensor, padding: Sequence[int]) -> Tensor:
        return new_meta(index_pad_shape(name, self, padding, nd), self._dtype)

    meta_fn.__name__ = name
    meta(schema)(meta_fn)
    exact_out_variant(
        f"{name}.out(Tensor self, SymInt[{2 * nd}] padding, *, Tensor(a!) out) -> Tensor(a!)",
        name,
    )


for _nd in (1, 2, 3):
    _index_pad_op(f"reflection_pad{_nd}d", _nd)
    _index_pad_op(f"replication_pad{_nd}d", _nd)


@composite("_pad_circular(Tensor self, SymInt[] pad) -> Tensor")
def _pad_circular(self, pad):
    pad = [int(p) for p in pad]
    in_shape = list(shape_of(self))
    ndim = len(in_shape)
    npad = len(pad) // 2
    nnon = ndim - npad
    check(
        nnon in (1, 2),
        f"Invalid padding size, expected 1 or 2 non-padded dimensions, which would be equivalent "
        f"to padding of length {(ndim - 1) * 2} or {(ndim - 2) * 2} respectively but got "
        f"{len(pad)}",
    )
    out_shape = list(in_shape)
    for i in range(npad):
        lo, hi = pad[2 * (npad - i - 1)], pad[2 * (npad - i - 1) + 1]
        size = in_shape[nnon + i]
        out_shape[nnon + i] = size + lo + hi
        check(lo <= size and hi <= size, "Padding value causes wrapping around more than once.")
        check(
            out_shape[nnon + i] >= 0,
            "Negative padding value is resulting in an empty dimension",
        )
    out = op("new_empty")(self, out_shape)
    slice_ = op("slice.Tensor")
    out_slice, in_slice = out, self
    for i in range(npad):
        dim = npad - i + nnon - 1
        lo, hi = pad[2 * i], pad[2 * i + 1]
        out_slice = slice_(out_slice, dim, max(lo, 0), out_shape[dim] - max(hi, 0))
        in_slice = slice_(in_slice, dim, max(-lo, 0), in_shape[dim] - max(-hi, 0))
    op("copy_")(out_slice, in_slice)
    for i in range(npad):
        dim = npad - i + nnon - 1
        lo, hi = pad[2 * i], pad[2 * i + 1]
        if lo > 0:
            dst = slice_(out, dim, 0, lo)
            src = slice_(out, dim, out_shape[dim] - lo - max(hi, 0), out_shape[dim] - max(hi, 0))
            op("copy_")(dst, src)
        if hi > 0:
            dst = slice_(out, dim, out_shape[dim] - hi, out_shape[dim])
            src = slice_(out, dim, max(lo, 0), max(lo, 0) + hi)
            op("copy_")(dst, src)
    return out


@composite('pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None) -> Tensor')
def pad(self, pad, mode="constant", value=None):
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    pad = [int(p) for p in pad]
    dim = self.dim()
    check(len(pad) % 2 == 0, "Padding length must be divisible by 2")
    check(
        len(pad) <= 2 * dim,
        f"Padding length should be less than or equal to two times the input dimension but got "
        f"padding length {len(pad)} and input of dimension {dim}",
    )
    if mode == "constant":
        return op("constant_pad_nd")(self, pad, 0.0 if value is None else value)
    check(
        value is None or value == 0,
        f'Padding mode "{mode}" doesn\'t take in value argument',
    )
    nd = len(pad) // 2
    if not (nd in (1, 2, 3) and dim in (nd + 1, nd + 2)):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {dim}D input tensor."
        )
    if mode == "reflect":
        return op(f"reflection_pad{nd}d")(self, pad)
    if mode == "replicate":
        return op(f"replication_pad{nd}d")(self, pad)
    return op("_pad_circular")(self, pad)


# ----------------------------------------------------------------------------- one_hot


@composite("one_hot(Tensor self, int num_classes=-1) -> Tensor")
def one_hot(self, num_classes=-1):
    check(
        self._dtype is int64,
        "one_hot is only applicable to index tensor of type LongTensor.",
    )
    if self.is_meta:
        if num_classes == -1:
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        index = op("arange")(num_classes, dtype=int64, device=self.device)
        return op("_to_copy")(op("eq.Tensor")(op("unsqueeze")(self, -1), index), dtype=int64)
    shape = list(shape_of(self))
    if self.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return op("empty.memory_format")([*shape, num_classes], dtype=int64, device=self.device)
    lo, hi = op("aminmax")(self)
    check(op("_local_scalar_dense")(lo) >= 0, "Class values must be non-negative.")
    top = op("_local_scalar_dense")(hi)
    if num_classes == -1:
        num_classes = top + 1
    else:
        check(num_classes > top, "Class values must be smaller than num_classes.")
    ret = op("zeros")([*shape, num_classes], dtype=int64, layout=_strided(), device=self.device)
    op("scatter_.value")(ret, -1, op("unsqueeze")(self, -1), 1)
    return ret


del defop, inplace_variant
