"""keyroute::rms_norm, keyroute::rope, keyroute::store_kv: opcheck, values against the aten
composites (and PyTorch's rms_norm when installed), gradients against finite differences, and
clear errors on bad input."""

from __future__ import annotations

import numpy as np
import pytest

import keyroute
from keyroute.models import llama_ops
from keyroute.testing import opcheck


def _randn(*shape: int, dtype=keyroute.float32, requires_grad: bool = False) -> keyroute.Tensor:
    g = keyroute.Generator().manual_seed(sum(shape))
    return keyroute.randn(*shape, generator=g, dtype=dtype).requires_grad_(requires_grad)


def _rope_tables(seq: int, d: int, dtype=keyroute.float32) -> tuple:
    inv = 10000.0 ** (-keyroute.arange(0, d, 2, dtype=keyroute.float64) / d)
    ang = keyroute.arange(seq, dtype=keyroute.float64)[:, None] * inv[None, :]
    ang = keyroute.cat((ang, ang), -1)
    return ang.cos().to(dtype), ang.sin().to(dtype)


def _cases(dtype=keyroute.float32, grad: bool = False) -> dict:
    cos, sin = _rope_tables(5, 8, dtype)
    return {
        "rms_norm": (
            llama_ops.rms_norm,
            (_randn(2, 5, 16, dtype=dtype, requires_grad=grad), _randn(16, dtype=dtype), 1e-5),
        ),
        "rope": (llama_ops.rope, (_randn(1, 3, 5, 8, dtype=dtype, requires_grad=grad), cos, sin)),
        "store_kv": (
            llama_ops.store_kv,
            (
                keyroute.zeros(1, 2, 8, 4, dtype=dtype),
                keyroute.tensor([3, 5]),
                _randn(1, 2, 2, 4, dtype=dtype),
            ),
        ),
    }


@pytest.mark.parametrize(
    "name,grad",
    # store_kv has no gradient (a cache write): checked without requires_grad only
    [("rms_norm", False), ("rms_norm", True), ("rope", False), ("rope", True), ("store_kv", False)],
)
def test_opcheck(name: str, grad: bool) -> None:
    op, args = _cases(grad=grad)[name]
    result = opcheck(op, args)
    assert set(result.values()) == {"SUCCESS"}, result


def test_rms_norm_matches_aten() -> None:
    x, w = _randn(3, 7, 32), _randn(32)
    got = llama_ops.rms_norm(x, w, 1e-6)
    want = keyroute.nn.functional.rms_norm(x, (32,), w, 1e-6)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def test_rms_norm_matches_pytorch() -> None:
    torch = pytest.importorskip("torch")
    x, w = _randn(4, 64), _randn(64)
    want = torch.nn.functional.rms_norm(
        torch.from_numpy(x.numpy()), (64,), torch.from_numpy(w.numpy()), 1e-5
    )
    np.testing.assert_allclose(
        llama_ops.rms_norm(x, w, 1e-5).numpy(), want.numpy(), rtol=1e-6, atol=1e-6
    )


def test_rms_norm_bfloat16_computes_in_float32() -> None:
    x, w = _randn(4, 64, dtype=keyroute.bfloat16), _randn(64, dtype=keyroute.bfloat16)
    got = llama_ops.rms_norm(x, w, 1e-5)
    assert got.dtype == keyroute.bfloat16
    want = keyroute.nn.functional.rms_norm(x.float(), (64,), w.float(), 1e-5).to(keyroute.bfloat16)
    np.testing.assert_allclose(got.float().numpy(), want.float().numpy(), rtol=1e-2, atol=1e-2)


def test_rope_matches_rotate_half_composite() -> None:
    x = _randn(2, 3, 5, 8)
    cos, sin = _rope_tables(5, 8)
    want = x * cos + llama_ops.rotate_half(x) * sin
    np.testing.assert_allclose(
        llama_ops.rope(x, cos, sin).numpy(), want.numpy(), rtol=1e-6, atol=1e-6
    )


@pytest.mark.parametrize("name", ["rms_norm", "rope"])
def test_gradients_match_finite_differences(name: str) -> None:
    op, args = _cases(dtype=keyroute.float64, grad=True)[name]
    if name == "rope":  # every input differentiable, as gradcheck would ask
        args = (args[0], args[1].requires_grad_(), args[2].requires_grad_())
    else:
        args = (args[0], args[1].requires_grad_(), args[2])
    assert keyroute.autograd.gradcheck(lambda *a: op(*a), args)


def test_store_kv_writes_the_slots_and_bumps_the_version() -> None:
    cache = keyroute.zeros(1, 2, 8, 4)
    before = cache._version
    value = _randn(1, 2, 2, 4)
    llama_ops.store_kv(cache, keyroute.tensor([1, 6]), value)
    assert cache._version > before
    c = cache.numpy()
    np.testing.assert_array_equal(c[:, :, [1, 6]], value.numpy())
    assert not c[:, :, [0, 2, 3, 4, 5, 7]].any()


def test_store_kv_same_as_index_copy() -> None:
    a, b = keyroute.zeros(1, 3, 6, 4), keyroute.zeros(1, 3, 6, 4)
    pos, value = keyroute.tensor([2, 3, 4]), _randn(1, 3, 3, 4)
    llama_ops.store_kv(a, pos, value)
    b.index_copy_(2, pos, value)
    assert keyroute.equal(a, b)


@pytest.mark.parametrize(
    "cache,pos,value,err,message",
    [
        ((1, 2, 8, 4), [9], (1, 2, 1, 4), IndexError, "position 9 is out of bounds for a cache"),
        ((1, 2, 8, 4), [1, 2], (1, 2, 1, 4), RuntimeError, "does not fit positions of length 2"),
        ((1, 2, 8, 4), [1], (2, 4), RuntimeError, "must have the same number of dimensions"),
    ],
)
def test_store_kv_bad_input_leaves_the_cache(cache, pos, value, err, message) -> None:  # noqa: ANN001
    c = keyroute.zeros(*cache)
    with pytest.raises(err, match=message):
        llama_ops.store_kv(c, keyroute.tensor(pos), keyroute.ones(*value))
    assert not c.numpy().any()


def test_store_kv_float_positions_rejected() -> None:
    with pytest.raises(RuntimeError, match="positions must be a 1-d tensor of integers"):
        llama_ops.store_kv(
            keyroute.zeros(1, 1, 4, 2), keyroute.tensor([1.0]), keyroute.ones(1, 1, 1, 2)
        )


def test_rms_norm_weight_mismatch() -> None:
    with pytest.raises(RuntimeError, match="does not match the last dimension"):
        llama_ops.rms_norm(
            keyroute.ones(2, 8, device="meta"), keyroute.ones(4, device="meta"), 1e-5
        )


def test_schemas() -> None:
    ops = keyroute.ops.keyroute
    assert str(ops.rms_norm.default._schema) == (
        "keyroute::rms_norm(Tensor x, Tensor weight, float eps) -> Tensor"
    )
    assert (
        str(ops.rope.default._schema)
        == "keyroute::rope(Tensor x, Tensor cos, Tensor sin) -> Tensor"
    )
    assert str(ops.store_kv.default._schema) == (
        "keyroute::store_kv(Tensor(a0!) cache, Tensor positions, Tensor value) -> ()"
    )
