"""Attention: _safe_softmax, the CPU flash-attention meta, and scaled_dot_product_attention with
its backend choice and math path (decompositions, as PyTorch's C++ writes them)."""

from __future__ import annotations

import math
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import bool_, float32
from ...tensor.meta_array import MetaArray
from .. import _shape
from .._define import composite, meta
from .._meta_util import check, meta_like, new_meta, shape_of
from ..linalg import op, subclass_like
from ._common import _not_implemented, _opmath, _strided

# ----------------------------------------------------------------------------- softmax (SDPA)


@meta("_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor")
def _safe_softmax(self, dim, dtype=None):
    from ...tensor.dtype import to_dtype

    _shape.wrap_dim(dim, self.dim())
    dt = self._dtype if dtype is None else to_dtype(dtype)
    if dt.category < 2:
        _not_implemented("softmax_kernel_impl", dt)
    return new_meta(shape_of(self), dt)


# ----------------------------------------------------------------------------- attention


def _flash_check(query: Tensor, key: Tensor, value: Tensor, dropout_p: float, attn_mask: Any):
    # The messages are formatted only when a check fails: on a decode step this check runs
    # once per layer, and building every message up front cost more than the checks.
    name = "scaled_dot_product_attention_flash_attention"
    dt = query._dtype
    if dt.category != 2:
        raise RuntimeError(
            f"{name}: Expected data type in FP32, FP64, BF16, FP16, but got {dt._short} instead."
        )
    q, k, v = shape_of(query), shape_of(key), shape_of(value)
    if not (len(q) == 4 and len(k) == 4 and len(v) == 4):
        raise RuntimeError(f"{name}: Accept only 4 dims inputs shape of {{B, H, T, K}}")
    check(dropout_p == 0.0, f"{name}: Currently do not support dropout > 0")
    check(q[3] == v[3] and k[3] == v[3], f"{name}: Q/K/V should have the same head size")
    if attn_mask is not None:
        check(
            attn_mask._dtype is float32 or attn_mask._dtype is dt,
            f"{name}: Attention mask is the same data type as query",
        )
        check(attn_mask.dim() in (2, 4), f"{name}: Attention mask dim in {{2, 4}}")
    for t in (key, value):
        if t._dtype is not dt:
            raise RuntimeError(f"expected scalar type {dt._short} but found {t._dtype._short}")


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
    # Each check is tested first and its message formatted only on failure (the messages read
    # devices and dtypes, which cost more than the checks on a decode step's small tensors).
    if not (query._dtype is key._dtype and query._dtype is value._dtype):
        raise RuntimeError(
            f"Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{query._dtype._cpp} key.dtype: {key._dtype._cpp} and value.dtype: "
            f"{value._dtype._cpp} instead."
        )
    dev = query.device
    if not (dev == key.device and dev == value.device):
        raise RuntimeError(
            f"Expected query, key, and value to have the same device type, but got "
            f"query.device: {query.device} key.device: {key.device} and value.device: "
            f"{value.device} instead."
        )
    if not (len(shape_of(query)) >= 2 and len(shape_of(key)) >= 2 and len(shape_of(value)) >= 2):
        raise RuntimeError(
            f"Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} "
            f"instead."
        )
    if attn_mask is not None:
        mdt = attn_mask._dtype
        check(
            mdt is bool_ or mdt is float32 or mdt is query._dtype,
            f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {mdt._cpp} and  query.dtype: "
            f"{query._dtype._cpp} instead.",
        )


def _use_flash_cpp(query, key, value, attn_mask, dropout_p, enable_gqa) -> bool:
    """sdp::use_flash_attention_cpp: the CPU flash kernel's constraints, in PyTorch's order."""
    if dropout_p > 0.0:
        return False
    q, k, v = shape_of(query), shape_of(key), shape_of(value)
    if not (len(q) == len(k) == len(v) == 4):
        return False
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
    if not (_last_stride(query) == 1 and _last_stride(key) == 1 and _last_stride(value) == 1):
        return False
    dt = query._dtype
    return dt is key._dtype and dt is value._dtype and dt.category == 2


def _last_stride(t: Tensor) -> int:
    """t.stride(-1) without building the whole stride tuple."""
    d = t._data
    if d.__class__ is MetaArray:
        return d.stride[-1]
    return d.strides[-1] // d.itemsize


def _convert_boolean_attn_mask(attn_mask: Any, dt: Any) -> Any:
    """A boolean mask (True = attend) as an additive one: where(mask, 0, -inf)."""
    if attn_mask is None or attn_mask._dtype is not bool_:
        return attn_mask
    from ...tensor.layout import strided

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
    from ...tensor.layout import contiguous_format

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
