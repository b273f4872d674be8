"""Creating tensors from data: tensor(), as_tensor, asarray, from_numpy, from_dlpack and the
legacy Tensor(...) constructor (what the recorded PyTorch cases do not already pin down)."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

import keyroute


def test_tensor_copies_and_is_fresh():
    a = np.arange(4.0)
    t = keyroute.tensor(a)
    t.add_(1)
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]
    u = keyroute.tensor([1.5, 2.5])
    assert u._base is None and u._version == 0 and not u._is_view()
    assert u.is_contiguous() and u.stride() == (1,)


def test_tensor_keeps_numpy_layout():
    a = np.arange(6, dtype=np.int32).reshape(2, 3).T
    t = keyroute.tensor(a)
    assert t.stride() == (1, 3) and t.tolist() == a.tolist()
    assert not np.shares_memory(t.numpy(), a)


def test_tensor_dtype_inference_follows_default_dtype():
    try:
        keyroute.set_default_dtype(keyroute.float64)
        assert keyroute.tensor([1.5]).dtype is keyroute.float64
        assert keyroute.tensor([1j]).dtype is keyroute.complex128
        assert keyroute.tensor([1, 2]).dtype is keyroute.int64
        assert keyroute.full((1,), 2.5).dtype is keyroute.float64
        assert keyroute.arange(0.5).dtype is keyroute.float64
    finally:
        keyroute.set_default_dtype(keyroute.float32)
    assert keyroute.tensor([1.5]).dtype is keyroute.float32


def test_tensor_with_requires_grad_is_a_leaf():
    t = keyroute.tensor([1.0, 2.0], requires_grad=True)
    assert t.requires_grad and t._autograd_meta is None or t._autograd_meta.grad_fn is None
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex"):
        keyroute.tensor([1], requires_grad=True)


def test_tensor_of_tensor_warns_and_detaches():
    src = keyroute.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        t = keyroute.tensor(src)
    assert not t.requires_grad and t.data_ptr() != src.data_ptr()


def test_tensor_meta_has_no_data():
    t = keyroute.tensor([[1, 2], [3, 4]], device="meta")
    assert t.is_meta and t.shape == (2, 2) and t.dtype is keyroute.int64
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
        t.tolist()


def test_large_nested_list_is_reasonably_fast():
    data = [[float(i + j) for j in range(100)] for i in range(1000)]
    start = time.perf_counter()
    t = keyroute.tensor(data)
    assert time.perf_counter() - start < 5.0
    assert t.shape == (1000, 100) and t.dtype is keyroute.float32
    assert t.tolist()[999][99] == 1098.0


def test_bfloat16_and_float16_round_as_pytorch():
    # c10 converts Python floats to half/bfloat16 through float32 (two roundings): the low
    # bit is lost first, then the tie rounds to even (one direct rounding would round up).
    t = keyroute.tensor([1.00390625, 1.0 + 2**-8 + 2**-30], dtype=keyroute.bfloat16)
    assert t.tolist() == [1.0, 1.0]
    h = keyroute.tensor([1.0 + 2**-11 + 2**-40, 65520.0], dtype=keyroute.float16)
    assert h.tolist() == [1.0, float("inf")]


def test_from_numpy_readonly_warns_once():
    a = np.broadcast_to(np.arange(3.0), (2, 3))
    from keyroute.tensor import new as _new

    _new._warned.discard("from_numpy-readonly")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        keyroute.from_numpy(a)
        keyroute.from_numpy(a)
    assert len([w for w in caught if "not writable" in str(w.message)]) == 1


def test_from_numpy_rejects_what_pytorch_rejects():
    with pytest.raises(TypeError, match=r"^can't convert np.ndarray of type numpy.object_"):
        keyroute.from_numpy(np.array([None]))
    with pytest.raises(ValueError, match="byte order"):
        keyroute.from_numpy(np.arange(2, dtype=">f8"))
    with pytest.raises(ValueError, match="negative"):
        keyroute.from_numpy(np.arange(3)[::-1])
    with pytest.raises(TypeError, match="uint16"):
        keyroute.from_numpy(np.arange(3, dtype=np.uint16))  # no uint16 dtype in keyroute


def test_as_tensor_and_asarray_share_when_they_can():
    a = np.zeros(3)
    assert keyroute.as_tensor(a).data_ptr() == a.__array_interface__["data"][0]
    assert keyroute.asarray(a).data_ptr() == a.__array_interface__["data"][0]
    t = keyroute.ones(2)
    assert keyroute.as_tensor(t) is t and keyroute.asarray(t) is t
    c = keyroute.as_tensor(a, dtype=keyroute.float32)
    assert c.dtype is keyroute.float32 and c.data_ptr() != a.__array_interface__["data"][0]
    with pytest.raises(ValueError, match="can't alias"):
        keyroute.asarray(a, dtype=keyroute.float32, copy=False)
    assert keyroute.asarray([1, 2], dtype=keyroute.float64).dtype is keyroute.float64


def test_from_dlpack_bfloat16_tensor_shares():
    t = keyroute.zeros(2, dtype=keyroute.bfloat16)
    u = keyroute.from_dlpack(t)
    u.fill_(1.5)
    assert t.tolist() == [1.5, 1.5] and u.dtype is keyroute.bfloat16


def test_legacy_constructor():
    t = keyroute.Tensor([1, 2])
    assert t.dtype is keyroute.float32 and t.tolist() == [1.0, 2.0]
    assert keyroute.Tensor(2, 3).shape == (2, 3)
    assert keyroute.Tensor().shape == (0,)
    assert keyroute.Tensor(keyroute.Size([4])).shape == (4,)


def test_factories_accept_sizes_like_pytorch():
    assert keyroute.zeros(keyroute.Size([2, 3])).shape == (2, 3)
    assert keyroute.ones([np.int64(2), keyroute.tensor(3)]).shape == (2, 3)
    assert keyroute.empty(2, True).shape == (2, 1)
    with pytest.raises(TypeError, match=r"^zeros\(\): argument 'size' \(position 1\) must be"):
        keyroute.zeros(2.5)


def test_dtype_argument_types():
    assert keyroute.zeros(1, dtype=float).dtype is keyroute.float64
    assert keyroute.zeros(1, dtype=int).dtype is keyroute.int64
    assert keyroute.zeros(1, dtype=bool).dtype is keyroute.bool
    assert keyroute.zeros(1, dtype=complex).dtype is keyroute.complex128
    with pytest.raises(TypeError, match=r"argument 'dtype' must be torch.dtype, not str"):
        keyroute.tensor([1], dtype="float32")
