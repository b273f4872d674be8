"""The decoder's custom operators: `keyroute::rms_norm`, `keyroute::rope`, `keyroute::store_kv`.

Defined with `keyroute.library.custom_op` as an inference framework defines its fused kernels
(the seed's `demo::rms_norm` / `demo::store_kv`): each is one dispatcher operator with a NumPy
kernel (one pass over the data instead of the half-dozen aten operators of the composite), a
fake implementation (meta and fake tensors, so `keyroute plan` and tracing see one node), and,
where a gradient makes sense, an autograd formula. `store_kv` writes the cache in place and says
so (`mutates_args=("cache",)`), so functionalization and graph capture keep the write.

    rms_norm(x, weight, eps)      x * rsqrt(mean(x**2, -1) + eps) * weight
    rope(x, cos, sin)             x * cos + rotate_half(x) * sin  (Hugging Face's halves)
    store_kv(cache, positions, value)   cache[..., positions, :] = value  (dim -2)
    attend_kv_cache(q, k, v, k_cache, v_cache, start, cos, sin)
        rope on q and k, both written into the caches at start.., causal GQA attention of q
        over the caches up to the last position written (mutates both caches)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._api import creation as _creation
from .._library.custom_ops import custom_op
from ..kernels.cpu._kernel import wrap as _wrap_array
from ..tensor._tensor import Tensor

__all__ = ["rms_norm", "rope", "store_kv", "attend_kv_cache", "rotate_half"]

_F32 = np.dtype(np.float32)


def _compute(a: np.ndarray) -> np.ndarray:
    """Half-precision values compute in float32 (PyTorch's opmath type), others as they are."""
    return a.astype(_F32) if a.dtype.itemsize == 2 else a


def _wrap(a: np.ndarray, like: Tensor) -> Tensor:
    """A new CPU tensor of `like`'s dtype over the result (rounded once from float32)."""
    want = like._data.dtype
    return _wrap_array(a if a.dtype == want else a.astype(want), like._dtype)


def rotate_half(x: Tensor) -> Tensor:
    """(x1, x2) -> (-x2, x1) over the last dimension's two halves."""
    from .. import cat

    half = x.shape[-1] // 2
    return cat((-x[..., half:], x[..., :half]), -1)


def _sum_to(t: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum a broadcast gradient back to `shape`."""
    lead = t.dim() - len(shape)
    if lead:
        t = t.sum(tuple(range(lead)))
    dims = tuple(i for i, n in enumerate(shape) if n == 1 and t.shape[i] != 1)
    if dims:
        t = t.sum(dims, keepdim=True)
    return t


# ----------------------------------------------------------------------------- rms_norm


@custom_op("keyroute::rms_norm", mutates_args=())
def rms_norm(x: Tensor, weight: Tensor, eps: float) -> Tensor:
    # The kernel reads the NumPy arrays behind the CPU tensors (as a C++ kernel reads
    # data_ptr): one mean, one rsqrt, two multiplies. The mean is np.mean's arithmetic (a sum,
    # then a division by the count) without its Python wrapper, which costs more than the
    # arithmetic on a decode step's one row.
    a = _compute(x._data)
    inv = np.add.reduce(a * a, axis=-1, keepdims=True)
    inv /= a.shape[-1]
    inv += np.float32(eps)
    np.sqrt(inv, out=inv)
    np.divide(1.0, inv, out=inv)
    out = a * inv
    out *= _compute(weight._data)
    return _wrap(out, x)


@rms_norm.register_fake
def _(x: Tensor, weight: Tensor, eps: float) -> Tensor:
    if weight.shape[-1] != x.shape[-1]:
        raise RuntimeError(
            f"keyroute::rms_norm: weight of shape {list(weight.shape)} does not match the last "
            f"dimension of an input of shape {list(x.shape)}"
        )
    return _creation.empty_like(x)


def _rms_setup(ctx: object, inputs: tuple, output: Tensor) -> None:  # noqa: ANN001
    x, weight, eps = inputs
    ctx.save_for_backward(x, weight)  # type: ignore[attr-defined]
    ctx.eps = eps  # type: ignore[attr-defined]


def _rms_backward(ctx: object, grad: Tensor) -> tuple:  # noqa: ANN001
    x, weight = ctx.saved_tensors  # type: ignore[attr-defined]
    inv = (x.pow(2).mean(-1, keepdim=True) + ctx.eps).rsqrt()  # type: ignore[attr-defined]
    gw = grad * weight
    # d/dx of x * inv * w: inv * g w - x inv^3 mean(g w x)
    dx = gw * inv - x * inv.pow(3) * (gw * x).mean(-1, keepdim=True)
    dw = _sum_to(grad * x * inv, tuple(weight.shape))
    return dx, dw, None


rms_norm.register_autograd(_rms_backward, setup_context=_rms_setup)


# ----------------------------------------------------------------------------- rope


@custom_op("keyroute::rope", mutates_args=())
def rope(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    a, c, s = _compute(x._data), _compute(cos._data), _compute(sin._data)
    half = a.shape[-1] // 2
    out = a * c
    out[..., :half] -= a[..., half:] * s[..., :half]
    out[..., half:] += a[..., :half] * s[..., half:]
    return _wrap(out, x)


@rope.register_fake
def _(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    if x.shape[-1] % 2:
        raise RuntimeError(f"keyroute::rope: the last dimension ({x.shape[-1]}) must be even")
    return _creation.empty_like(x)


def _rope_setup(ctx: object, inputs: tuple, output: Tensor) -> None:  # noqa: ANN001
    ctx.save_for_backward(*inputs)  # type: ignore[attr-defined]


def _rope_backward(ctx: object, grad: Tensor) -> tuple:  # noqa: ANN001
    from .. import cat

    x, cos, sin = ctx.saved_tensors  # type: ignore[attr-defined]
    half = x.shape[-1] // 2
    gs = grad * sin
    # rotate_half is linear with transpose (y1, y2) -> (y2, -y1)
    dx = grad * cos + cat((gs[..., half:], -gs[..., :half]), -1)
    dcos = _sum_to(grad * x, tuple(cos.shape))
    dsin = _sum_to(grad * rotate_half(x), tuple(sin.shape))
    return dx, dcos, dsin


rope.register_autograd(_rope_backward, setup_context=_rope_setup)


# ----------------------------------------------------------------------------- store_kv


def _check_store(cache: Tensor, positions: Tensor, value: Tensor) -> None:
    _check_store_shapes(
        tuple(cache.shape), tuple(positions.shape), positions.dtype, tuple(value.shape)
    )
    if cache.dtype != value.dtype:
        raise RuntimeError(
            f"keyroute::store_kv: cache has dtype {cache.dtype} but value has {value.dtype}"
        )


def _check_store_shapes(
    cache: tuple[int, ...], positions: tuple[int, ...], pos_dtype: Any, value: tuple[int, ...]
) -> None:
    if len(cache) < 2 or len(value) != len(cache):
        raise RuntimeError(
            f"keyroute::store_kv: cache ({len(cache)}-d) and value ({len(value)}-d) must have "
            f"the same number of dimensions, at least 2"
        )
    if len(positions) != 1 or pos_dtype.is_floating_point or pos_dtype.is_complex:
        raise RuntimeError("keyroute::store_kv: positions must be a 1-d tensor of integers")
    want = [*cache[:-2], positions[0], cache[-1]]
    if list(value) != want:
        raise RuntimeError(
            f"keyroute::store_kv: value of shape {list(value)} does not fit positions of "
            f"length {positions[0]} in a cache of shape {list(cache)} (expected {want})"
        )


@custom_op("keyroute::store_kv", mutates_args=("cache",))
def store_kv(cache: Tensor, positions: Tensor, value: Tensor) -> None:
    # The checks read the arrays' shapes (tuples of ints), not the tensors' Size objects: on a
    # decode step the checks cost as much as the write.
    c, pos, v = cache._data, positions._data, value._data
    _check_store_shapes(c.shape, pos.shape, positions._dtype, v.shape)
    if cache._dtype is not value._dtype:
        raise RuntimeError(
            f"keyroute::store_kv: cache has dtype {cache.dtype} but value has {value.dtype}"
        )
    size = c.shape[-2]
    if pos.size == 1:  # a decode step: one position, read as a Python int
        lo = hi = int(pos[0])
    else:
        lo, hi = (int(pos.min()), int(pos.max())) if pos.size else (0, 0)
    if lo < -size or hi >= size:
        bad = hi if hi >= size else lo
        raise IndexError(
            f"keyroute::store_kv: position {bad} is out of bounds for a cache of {size} positions"
        )
    c[..., pos, :] = v


@store_kv.register_fake
def _(cache: Tensor, positions: Tensor, value: Tensor) -> None:
    _check_store(cache, positions, value)
    return None


# ----------------------------------------------------------------------------- attend_kv_cache


def _check_attend(
    query: Tensor, key: Tensor, value: Tensor, k_cache: Tensor, v_cache: Tensor, start: int
) -> None:
    name = "keyroute::attend_kv_cache"
    q, k, v, kc = (tuple(t.shape) for t in (query, key, value, k_cache))
    if len(q) != 4 or len(k) != 4 or len(v) != 4 or len(kc) != 4:
        raise RuntimeError(f"{name}: query, key, value and the caches must be 4-d")
    b, s, h, d = q
    kvh = k[2]
    if k != v or k[0] != b or k[1] != s or k[3] != d or kvh == 0 or h % kvh:
        raise RuntimeError(
            f"{name}: key and value must be (batch, seq, kv_heads, head_dim) with kv_heads "
            f"dividing the query's heads; got query {list(q)}, key {list(k)}, value {list(v)}"
        )
    if tuple(v_cache.shape) != kc or kc[0] < b or kc[1] != kvh or kc[3] != d:
        raise RuntimeError(
            f"{name}: caches of shape {list(kc)} and {list(v_cache.shape)} do not hold "
            f"{kvh} heads of size {d} for a batch of {b}"
        )
    if start < 0 or start + s > kc[2]:
        raise IndexError(
            f"{name}: positions {start}..{start + s - 1} are out of bounds for a cache of "
            f"{kc[2]} positions"
        )
    dt = query._dtype
    if any(t._dtype is not dt for t in (key, value, k_cache, v_cache)):
        raise RuntimeError(f"{name}: query, key, value and the caches must share one dtype")


@custom_op("keyroute::attend_kv_cache", mutates_args=("k_cache", "v_cache"))
def attend_kv_cache(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    k_cache: Tensor,
    v_cache: Tensor,
    start: int,
    cos: Tensor,
    sin: Tensor,
) -> Tensor:
    """Rotary embeddings on query and key, the key and value written into the caches at
    positions start.., and causal grouped-query attention of the query over the cache up to
    its last position written: one call per layer, as an inference framework's fused
    kernel does it (flash-attn's `flash_attn_with_kvcache` with rotary tables).

    query (batch, seq, heads, head_dim), key and value (batch, seq, kv_heads, head_dim) (the
    projections' layout, no transpose), caches (batch, kv_heads, positions, head_dim), cos and
    sin (seq, head_dim) for positions start..; returns (batch, seq, heads, head_dim).

    The arithmetic is `rope`'s, `store_kv`'s and the CPU flash kernel's, operation for
    operation, so the unfused path and this one give the same values."""
    _check_attend(query, key, value, k_cache, v_cache, start)
    b, s, h, d = query._data.shape
    kvh = key._data.shape[2]
    end = start + s
    c, sn = _compute(cos._data)[:, None, :], _compute(sin._data)[:, None, :]
    q = _rope_array(_compute(query._data), c, sn)
    want = query._data.dtype
    if q.dtype != want:  # half precision: rounded once, as `rope`'s output is
        q = q.astype(want).astype(_F32)
    k = _rope_array(_compute(key._data), c, sn)
    kc, vc = k_cache._data, v_cache._data
    kc[:b, :, start:end] = k.transpose(0, 2, 1, 3)
    vc[:b, :, start:end] = value._data.transpose(0, 2, 1, 3)
    keys, values = _compute(kc[:b, :, :end]), _compute(vc[:b, :, :end])
    if s == 1:
        # One query per head: the heads sharing a KV head are that head's rows, so each
        # cached key and value is read once (not repeated per query head).
        qh = q.reshape(b, kvh, h // kvh, d)
    else:
        qh = q.transpose(0, 2, 1, 3)
        if kvh != h:
            keys = np.repeat(keys, h // kvh, axis=1)
            values = np.repeat(values, h // kvh, axis=1)
    scores = np.matmul(qh, keys.swapaxes(-1, -2))
    scores *= 1.0 / math.sqrt(d)  # a Python float, as the flash kernel's scale
    if s > 1:  # query i sees the keys up to position start + i
        scores[..., np.triu(np.ones((s, end), dtype=np.bool_), start + 1)] = -np.inf
    np.subtract(scores, np.maximum.reduce(scores, -1, keepdims=True), out=scores)
    np.exp(scores, out=scores)
    total = np.add.reduce(scores, -1, keepdims=True)
    if end <= d:  # normalise the smaller of the probabilities and the output (as flash)
        scores /= total
        out = np.matmul(scores, values)
    else:
        out = np.matmul(scores, values)
        out /= total
    out = out.reshape(b, s, h, d) if s == 1 else np.ascontiguousarray(out.transpose(0, 2, 1, 3))
    return _wrap(out, query)


def _rope_array(a: np.ndarray, c: np.ndarray, s: np.ndarray) -> np.ndarray:
    """`rope`'s arithmetic on arrays: a * cos + rotate_half(a) * sin, over the last dim."""
    half = a.shape[-1] // 2
    out = a * c
    out[..., :half] -= a[..., half:] * s[..., :half]
    out[..., half:] += a[..., :half] * s[..., half:]
    return out


@attend_kv_cache.register_fake
def _(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    k_cache: Tensor,
    v_cache: Tensor,
    start: int,
    cos: Tensor,
    sin: Tensor,
) -> Tensor:
    _check_attend(query, key, value, k_cache, v_cache, start)
    return _creation.empty(tuple(query.shape), dtype=query.dtype, device=query.device)
