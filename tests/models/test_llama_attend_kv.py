"""keyroute::attend_kv_cache (rotary embeddings, the cache write and causal grouped-query
attention in one call): opcheck, values equal to the unfused custom operators
(rope, store_kv, scaled_dot_product_attention) bit for bit, for prefill, chunked prefill and
decode, and bad input rejected before anything is written."""

from __future__ import annotations

import numpy as np
import pytest

import keyroute
from keyroute.models import llama_ops
from keyroute.nn import functional as F
from keyroute.testing import opcheck

B, H, KVH, D, S = 2, 6, 2, 8, 12


def _randn(*shape: int, dtype=keyroute.float32) -> keyroute.Tensor:
    g = keyroute.Generator().manual_seed(sum(shape) + len(shape))
    return keyroute.randn(*shape, generator=g, dtype=dtype)


def _tables(dtype=keyroute.float32) -> tuple[keyroute.Tensor, keyroute.Tensor]:
    inv = 10000.0 ** (-keyroute.arange(0, D, 2, dtype=keyroute.float64) / D)
    ang = keyroute.arange(S, dtype=keyroute.float64)[:, None] * inv[None, :]
    ang = keyroute.cat((ang, ang), -1)
    return ang.cos().to(dtype), ang.sin().to(dtype)


def _unfused(q, k, v, kc, vc, start, cos, sin):  # noqa: ANN001, ANN202
    """The same step with the separate operators, laid out as the model's unfused path."""
    s = q.shape[1]
    q = llama_ops.rope(q.transpose(1, 2), cos, sin)
    k = llama_ops.rope(k.transpose(1, 2), cos, sin)
    positions = keyroute.arange(start, start + s)
    llama_ops.store_kv(kc, positions, k)
    llama_ops.store_kv(vc, positions, v.transpose(1, 2))
    keys, values = kc.narrow(2, 0, start + s), vc.narrow(2, 0, start + s)
    if s == 1:
        b, h, _, d = q.shape
        grouped = q.reshape(b, KVH, h // KVH, d)
        out = F.scaled_dot_product_attention(grouped, keys, values)
        return out.reshape(b, 1, h, d)
    mask = keyroute.ones(s, start + s, dtype=keyroute.bool).tril(start)
    out = F.scaled_dot_product_attention(q, keys, values, mask, enable_gqa=True)
    return out.transpose(1, 2)


@pytest.mark.parametrize("dtype", [keyroute.float32, keyroute.bfloat16])
def test_same_values_as_the_unfused_operators(dtype) -> None:  # noqa: ANN001
    cos, sin = _tables(dtype)
    caches = [keyroute.zeros(B, KVH, S, D, dtype=dtype) for _ in range(4)]
    # a prefill of 5, a chunk of 3 after it, then two decode steps
    for start, s in ((0, 5), (5, 3), (8, 1), (9, 1)):
        q, k, v = (
            _randn(B, s, H, D, dtype=dtype),
            _randn(B, s, KVH, D, dtype=dtype),
            _randn(B, s, KVH, D + 0, dtype=dtype) * 0.5,
        )
        c, sn = cos[start : start + s], sin[start : start + s]
        got = llama_ops.attend_kv_cache(q, k, v, caches[0], caches[1], start, c, sn)
        want = _unfused(q, k, v, caches[2], caches[3], start, c, sn)
        assert got.shape == (B, s, H, D) and got.is_contiguous()
        np.testing.assert_array_equal(got.float().numpy(), want.float().numpy())
        assert keyroute.equal(caches[0], caches[2]) and keyroute.equal(caches[1], caches[3])


def test_writes_the_caches_and_bumps_their_versions() -> None:
    cos, sin = _tables()
    kc, vc = keyroute.zeros(1, KVH, S, D), keyroute.zeros(1, KVH, S, D)
    before = kc._version, vc._version
    v = _randn(1, 2, KVH, D)
    llama_ops.attend_kv_cache(
        _randn(1, 2, H, D), _randn(1, 2, KVH, D), v, kc, vc, 3, cos[3:5], sin[3:5]
    )
    assert kc._version > before[0] and vc._version > before[1]
    np.testing.assert_array_equal(vc.numpy()[:, :, 3:5], v.numpy().transpose(0, 2, 1, 3))
    assert not vc.numpy()[:, :, [0, 1, 2, 5]].any() and kc.numpy()[:, :, 3:5].any()


def test_opcheck() -> None:
    cos, sin = _tables()
    args = (
        _randn(1, 3, H, D),
        _randn(1, 3, KVH, D),
        _randn(1, 3, KVH, D),
        keyroute.zeros(1, KVH, S, D),
        keyroute.zeros(1, KVH, S, D),
        2,
        cos[2:5],
        sin[2:5],
    )
    result = opcheck(llama_ops.attend_kv_cache, args)
    assert set(result.values()) == {"SUCCESS"}, result


@pytest.mark.parametrize(
    "q,k,start,err,message",
    [
        ((1, 2, H, D), (1, 2, KVH, D), 11, IndexError, "positions 11..12 are out of bounds"),
        ((1, 2, H, D), (1, 2, 4, D), 0, RuntimeError, "kv_heads dividing the query's heads"),
        ((1, 2, H, D), (1, 3, KVH, D), 0, RuntimeError, "must be \\(batch, seq, kv_heads"),
        ((2, 1, H, D), (2, 1, KVH, D), 0, RuntimeError, "do not hold 2 heads of size 8 for a"),
        ((1, 2, H * D), (1, 2, KVH, D), 0, RuntimeError, "must be 4-d"),
    ],
)
def test_bad_input_leaves_the_caches(q, k, start, err, message) -> None:  # noqa: ANN001
    cos, sin = _tables()
    kc, vc = keyroute.zeros(1, KVH, S, D), keyroute.zeros(1, KVH, S, D)
    with pytest.raises(err, match=message):
        llama_ops.attend_kv_cache(
            keyroute.ones(*q), keyroute.ones(*k), keyroute.ones(*k), kc, vc, start, cos, sin
        )
    assert not kc.numpy().any() and not vc.numpy().any()


def test_fake_tensors_give_the_output_shape() -> None:
    from keyroute._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        cos, sin = keyroute.ones(1, D), keyroute.ones(1, D)
        out = llama_ops.attend_kv_cache(
            keyroute.ones(1, 1, H, D),
            keyroute.ones(1, 1, KVH, D),
            keyroute.ones(1, 1, KVH, D),
            keyroute.zeros(1, KVH, S, D),
            keyroute.zeros(1, KVH, S, D),
            4,
            cos,
            sin,
        )
    assert out.shape == (1, 1, H, D) and out.dtype == keyroute.float32


def test_schema() -> None:
    assert str(keyroute.ops.keyroute.attend_kv_cache.default._schema) == (
        "keyroute::attend_kv_cache(Tensor query, Tensor key, Tensor value, Tensor(a3!) k_cache, "
        "Tensor(a4!) v_cache, SymInt start, Tensor cos, Tensor sin) -> Tensor"
    )
