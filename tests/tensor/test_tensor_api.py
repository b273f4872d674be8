"""The Tensor API (dispatch keys, NumPy and DLPack interop, Python protocols, storage, sizes,
devices, pickling, versions) against PyTorch's recorded answers."""

from __future__ import annotations

import pickle
import sys
import threading

import numpy as np
import pytest

import keyroute
from keyroute.utils.python_dispatch import TorchDispatchMode

from . import check_case, recorded, tool

# id -> (aspects that differ from PyTorch, why)
KNOWN_GAPS: dict[str, tuple[set[str], str]] = {}

SECTIONS = [(s, c) for s in ("dispatch_keys", "api") for c in recorded()[s]]


@pytest.mark.parametrize("section,case", SECTIONS, ids=[c["id"] for _, c in SECTIONS])
def test_matches_pytorch(section, case):
    keyroute.manual_seed(0)
    sys.modules[
        "keyroute.tensor.new"
    ]._warned.clear()  # once-per-process warnings: as in a fresh process
    got = tool().run_case(keyroute, TorchDispatchMode, case)
    check_case(case, got, KNOWN_GAPS)


def test_known_gaps_exist():
    ids = {c["id"] for _, c in SECTIONS}
    assert set(KNOWN_GAPS) <= ids


@pytest.mark.parametrize(
    "make",
    [
        lambda: keyroute.ones(2),
        lambda: keyroute.ones(2, requires_grad=True),
        lambda: keyroute.ones(2, device="meta"),
        lambda: keyroute.inference_mode()(lambda: keyroute.ones(2))(),
        lambda: keyroute.ones(4).view(2, 2),
    ],
)
def test_dispatch_keys_is_C_dispatch_keys(make):
    t = make()
    assert str(keyroute.dispatch_keys(t)) == str(keyroute._C._dispatch_keys(t))


def test_numpy_shares_memory_both_ways():
    a = np.zeros(4, dtype=np.float32)
    t = keyroute.from_numpy(a)
    t.fill_(3.0)
    assert a.tolist() == [3.0] * 4
    a[1] = 7.0
    assert t.tolist()[1] == 7.0
    n = t.numpy()
    n[2] = -1.0
    assert t.tolist()[2] == -1.0 and a[2] == -1.0
    assert np.shares_memory(np.asarray(t), a)


def test_untyped_storage_is_shared_by_views():
    base = keyroute.arange(12, dtype=keyroute.float32)
    views = [base.view(3, 4), base.as_strided((2, 2), (4, 1), 5), base.expand(2, 12)]
    ptrs = {v.untyped_storage().data_ptr() for v in views}
    assert ptrs == {base.untyped_storage().data_ptr()}
    assert base.untyped_storage().nbytes() == 48
    assert views[1].storage_offset() == 5
    assert views[1].data_ptr() == base.data_ptr() + 20


def test_from_numpy_view_is_its_own_storage():
    a = np.arange(10.0)
    t = keyroute.from_numpy(a[3:])
    assert t.storage_offset() == 0
    assert t.untyped_storage().nbytes() == 56
    t.add_(1)
    assert a[3] == 4.0


def test_dlpack_round_trips_share_memory():
    t = keyroute.zeros(3, dtype=keyroute.int64)
    a = np.from_dlpack(t)
    a[0] = 5
    assert t.tolist() == [5, 0, 0]
    u = keyroute.from_dlpack(a)
    u.add_(1)
    assert t.tolist() == [6, 1, 1]
    v = keyroute.from_dlpack(t)
    assert v is not t and v.data_ptr() == t.data_ptr()


def test_pickle_round_trip_keeps_values_dtype_requires_grad_and_layout():
    for dt in (
        keyroute.float32,
        keyroute.bfloat16,
        keyroute.int16,
        keyroute.complex64,
        keyroute.bool,
    ):
        t = keyroute.arange(6).to(dt).view(2, 3)
        u = pickle.loads(pickle.dumps(t))
        assert u.dtype is dt and u.shape == t.shape
        assert u.tolist() == t.tolist()
    t = keyroute.ones(3, 2).as_strided((2, 3), (1, 2)).detach().requires_grad_()
    u = pickle.loads(pickle.dumps(t))
    assert u.requires_grad and u.stride() == (1, 2) and u.data_ptr() != t.data_ptr()


def test_copy_copy_shares_deepcopy_does_not():
    import copy

    t = keyroute.ones(3)
    assert copy.copy(t).data_ptr() == t.data_ptr()
    d = copy.deepcopy(t)
    assert d.data_ptr() != t.data_ptr() and d.tolist() == t.tolist()


def test_version_counter_threads():
    # The version counter is per storage, not per thread.
    t = keyroute.ones(2)

    def bump():
        t.add_(1)

    th = threading.Thread(target=bump)
    th.start()
    th.join()
    assert t._version == 1
