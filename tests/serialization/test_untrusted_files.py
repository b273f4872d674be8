"""Untrusted and corrupt checkpoints: the weights-only unpickler runs no code from a file, and
every corrupt file is a clear error (PyTorch's wording, recorded in serialization.json)."""

from __future__ import annotations

import io
import json
import os
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest

import keyroute
from keyroute import serialization as S

DATA = Path(__file__).resolve().parent.parent / "data" / "serialization"
MESSAGES = json.loads((DATA / "serialization.json").read_text())["messages"]


def _archive(pkl: bytes, storages: dict[str, bytes] | None = None) -> bytes:
    out = io.BytesIO()
    arrays = {k: np.frombuffer(v, np.uint8) for k, v in (storages or {}).items()}
    S._write_archive(out, "archive", io.BytesIO(pkl), arrays, False)
    return out.getvalue()


class _Evil:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


class _EvalEvil:
    def __reduce__(self):
        return (eval, ("__import__('os').getpid()",))


class _Custom:
    pass


# {"a": Custom()} as pickled in a script's __main__ (what torch.save wrote for the recording).
MAIN_CUSTOM = b"\x80\x02}q\x00X\x01\x00\x00\x00aq\x01c__main__\nCustom\nq\x02)\x81q\x03s."


def test_os_system_payload_is_refused_and_never_runs(tmp_path):
    marker = tmp_path / "pwned"
    data = _archive(pickle.dumps({"a": _Evil(str(marker))}, protocol=2))
    with pytest.raises(pickle.UnpicklingError) as e:
        keyroute.load(io.BytesIO(data))
    assert not marker.exists()
    assert f"UnpicklingError: {e.value}" == MESSAGES["evil"]


def test_blocked_module_stays_blocked_when_allow_listed(tmp_path):
    marker = tmp_path / "pwned"
    data = _archive(pickle.dumps(_Evil(str(marker)), protocol=2))
    with S.safe_globals([os.system]), pytest.raises(pickle.UnpicklingError, match="is blocked"):
        keyroute.load(io.BytesIO(data))
    assert not marker.exists()


def test_builtins_eval_is_not_allowed():
    data = _archive(pickle.dumps(_EvalEvil(), protocol=2))
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL eval was not an allowed global"):
        keyroute.load(io.BytesIO(data))


def test_custom_class_message_and_allow_list():
    # A torch file naming __main__.Custom: PyTorch's message, word for word.
    data = _archive(MAIN_CUSTOM)
    with pytest.raises(pickle.UnpicklingError) as e:
        keyroute.load(io.BytesIO(data))
    assert f"UnpicklingError: {e.value}" == MESSAGES["custom"]
    assert S.get_unsafe_globals_in_checkpoint(io.BytesIO(data)) == ["__main__.Custom"]
    with S.safe_globals([(_Custom, "__main__.Custom")]):
        assert type(keyroute.load(io.BytesIO(data))["a"]) is _Custom
    assert S.get_safe_globals() == []
    own = _archive(pickle.dumps({"a": _Custom()}, protocol=2))
    with pytest.raises(pickle.UnpicklingError, match="_Custom was not an allowed global"):
        keyroute.load(io.BytesIO(own))
    S.add_safe_globals([_Custom])
    try:
        assert S.get_safe_globals() == [_Custom]
        assert type(keyroute.load(io.BytesIO(own))["a"]) is _Custom
    finally:
        S.clear_safe_globals()
    assert S.get_safe_globals() == []


def _crafted(size, stride, offset, storage_bytes=16, numel=4, key="0", storage="FloatStorage"):
    class T:
        def __reduce__(self):
            ref = S._StorageRef(S._Global("torch", storage), key, "cpu", numel)
            return (S._G_REBUILD_V2, (ref, offset, size, stride, False, OrderedDict()))

    buf = io.BytesIO()
    S._TorchPickler(buf, 2).dump({"bad": T()})
    stor = {"0": np.zeros(storage_bytes, np.uint8).tobytes()}
    return _archive(buf.getvalue(), stor) if key == "0" else _archive(buf.getvalue(), {})


@pytest.mark.parametrize(
    "size, stride, offset, message",
    [
        ((10,), (1,), 0, "Trying to resize storage that is not resizable"),
        ((4,), (1,), 1, "Trying to resize storage that is not resizable"),
        ((2,), (1,), -2, "Tensor: invalid storage offset -2"),
        ((3,), (-1000000,), 0, "Storage size calculation overflowed with sizes=[3] and strides"),
        ((2, 2), (2,), 0, "mismatch in length of strides and shape"),
        ((-2,), (1,), 0, "Trying to create tensor with negative dimension -2"),
        ((2**40, 2**40), (0, 0), 0, "numel: integer multiplication overflow"),
        ((2,), (1.5,), 0, "keyroute.load: a tensor's stride must be a tuple of ints"),
    ],
)
def test_geometry_outside_the_storage_is_refused(size, stride, offset, message):
    # (PyTorch 2.13 gives the same first sentence for each: recorded by hand with torch.load.)
    with pytest.raises(RuntimeError) as e:
        keyroute.load(io.BytesIO(_crafted(size, stride, offset)))
    assert str(e.value).startswith(message)


def test_geometry_inside_the_storage_loads():
    got = keyroute.load(io.BytesIO(_crafted((2, 2), (2, 1), 0)))
    assert got["bad"].shape == (2, 2)
    got = keyroute.load(io.BytesIO(_crafted((0,), (1,), 100)))
    assert got["bad"].shape == (0,)


def test_storage_record_of_wrong_size():
    data = _crafted((2,), (1,), 0, storage_bytes=8, numel=4)
    with pytest.raises(RuntimeError, match=r"record size \(8 bytes\) does not match expected"):
        keyroute.load(io.BytesIO(data))


def test_missing_storage_record():
    data = _crafted((2,), (1,), 0, key="7")
    with pytest.raises(RuntimeError, match="failed locating file data/7: file not found"):
        keyroute.load(io.BytesIO(data))


def _rezip(good: bytes, drop: str | None = None, replace: tuple[str, bytes] | None = None):
    src = zipfile.ZipFile(io.BytesIO(good))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for n in src.namelist():
            if drop and n.endswith(drop):
                continue
            d = src.read(n)
            if replace and n.endswith(replace[0]):
                d = replace[1]
            z.writestr(n, d)
    return out.getvalue()


GOOD = (DATA / "torch_views.pt").read_bytes()


def test_missing_data_pkl():
    with pytest.raises(RuntimeError, match="failed locating file data.pkl: file not found"):
        keyroute.load(io.BytesIO(_rezip(GOOD, drop="data.pkl")))


def test_bad_pickle():
    bad = _rezip(GOOD, replace=("data.pkl", b"\x80\x02garbage"))
    with pytest.raises(pickle.UnpicklingError, match="Unsupported operand 103"):
        keyroute.load(io.BytesIO(bad))
    with pytest.raises(pickle.UnpicklingError):
        keyroute.load(io.BytesIO(bad), weights_only=False)
    cut = _rezip(GOOD, replace=("data.pkl", zipfile.ZipFile(io.BytesIO(GOOD)).read(
        "torch_views/data.pkl")[:50]))  # fmt: skip
    with pytest.raises(EOFError, match="truncated"):  # PyTorch's type (its message is empty)
        keyroute.load(io.BytesIO(cut))


def test_truncated_archives():
    for cut in (len(GOOD) // 2, len(GOOD) - 10, 10):
        with pytest.raises(RuntimeError, match="failed finding central directory"):
            keyroute.load(io.BytesIO(GOOD[:cut]))


def test_flipped_storage_byte_is_a_checksum_error():
    # PyTorch does not check the CRC and loads the corrupted values; keyroute refuses them.
    z = zipfile.ZipFile(io.BytesIO(GOOD))
    info = z.getinfo("torch_views/data/0")
    b = bytearray(GOOD)
    b[info.header_offset + 200] ^= 0xFF
    with pytest.raises(RuntimeError, match="failed reading file data/0"):
        keyroute.load(io.BytesIO(bytes(b)))


def test_empty_and_garbage_files():
    with pytest.raises(EOFError):
        keyroute.load(io.BytesIO(b""))
    with pytest.raises(RuntimeError, match="Invalid magic number; corrupt file"):
        keyroute.load(io.BytesIO(b"hello world"))


def test_persistent_id_other_than_storage_is_refused():
    class Ext:
        pass

    class P(pickle.Pickler):
        def persistent_id(self, obj):
            return ("module", "x") if isinstance(obj, Ext) else None

    buf = io.BytesIO()
    P(buf, protocol=2).dump([Ext()])
    with pytest.raises(pickle.UnpicklingError, match="Only persistent_load of storage"):
        keyroute.load(io.BytesIO(_archive(buf.getvalue())))


def test_state_on_a_tensor_cannot_touch_its_slots():
    class T:
        def __reduce__(self):
            ref = S._StorageRef(S._Global("torch", "FloatStorage"), "0", "cpu", 4)
            args = (ref, 0, (4,), (1,), False, OrderedDict())
            return (S._G_FROM_TYPE, (S._G_REBUILD_V2, S._G_TENSOR, args, {"_data": 1}))

    buf = io.BytesIO()
    S._TorchPickler(buf, 2).dump(T())
    data = _archive(buf.getvalue(), {"0": bytes(16)})
    with pytest.raises(RuntimeError, match="refusing to set attribute '_data'"):
        keyroute.load(io.BytesIO(data))
