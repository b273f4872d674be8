"""Each line of known_gaps.txt has a test here asserting keyroute still differs from PyTorch
there (and the list names exactly these tests): closing a gap fails its test."""

from __future__ import annotations

import io
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path

import pytest

import keyroute
from keyroute import serialization as S
from keyroute._zip_archive import ArchiveWriter

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "serialization"
GAPS = [
    line.split()[0]
    for line in (HERE / "known_gaps.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def _archive(pkl: bytes, storages: dict[str, bytes] | None = None, extra=()) -> bytes:
    out = io.BytesIO()
    w = ArchiveWriter(out, "archive")
    w.write_record("data.pkl", pkl)
    for name, data in extra:
        w.write_record(name, data)
    for k, v in (storages or {}).items():
        w.write_record(f"data/{k}", v)
    w.finish()
    return out.getvalue()


def _call(global_name: tuple[str, str], args: tuple) -> bytes:
    class C:
        def __reduce__(self):
            return (S._Global(*global_name), args)

    buf = io.BytesIO()
    S._TorchPickler(buf, 2).dump(C())
    return buf.getvalue()


def gap_legacy_format():
    with pytest.raises(RuntimeError, match="legacy format"):
        keyroute.load(DATA / "torch_legacy.pt")


def gap_legacy_save():
    with pytest.raises(RuntimeError, match="writes only the zip format"):
        keyroute.save(keyroute.ones(1), io.BytesIO(), _use_new_zipfile_serialization=False)


def gap_pickle_module_save():
    import copyreg

    fake = type("FakePickle", (), {"Pickler": pickle.Pickler, "dispatch_table": copyreg})
    with pytest.raises(RuntimeError, match="only the standard pickle module"):
        keyroute.save(keyroute.ones(1), io.BytesIO(), pickle_module=fake)


def gap_torchscript_archive():
    data = _archive(pickle.dumps(1, protocol=2), extra=[("constants.pkl", b"")])
    with pytest.raises(RuntimeError, match="TorchScript archive"):
        keyroute.load(io.BytesIO(data))


def gap_sparse_quantized_nested():
    for name in ("_rebuild_sparse_tensor", "_rebuild_qtensor", "_rebuild_nested_tensor"):
        data = _archive(_call(("torch._utils", name), (1,)))
        with pytest.raises(RuntimeError, match="are not supported"):
            keyroute.load(io.BytesIO(data))


def gap_absent_dtypes():
    ref = S._StorageRef(S._G_UNTYPED, "0", "cpu", 8)
    args = (ref, 0, (4,), (1,), False, OrderedDict(), S._Global("torch", "uint16"))
    data = _archive(_call(("torch._utils", "_rebuild_tensor_v3"), args), {"0": bytes(8)})
    with pytest.raises(RuntimeError, match="dtype torch.uint16 is not supported by keyroute"):
        keyroute.load(io.BytesIO(data))


def gap_crc_checked():
    good = (DATA / "torch_views.pt").read_bytes()
    info = zipfile.ZipFile(io.BytesIO(good)).getinfo("torch_views/data/0")
    b = bytearray(good)
    b[info.header_offset + 200] ^= 0xFF
    with pytest.raises(RuntimeError, match="Bad CRC-32"):
        keyroute.load(io.BytesIO(bytes(b)))


def gap_conj_neg_bits():
    # PyTorch keeps a conjugate (or negative) view over the file's storage with a bit set;
    # keyroute has no such bits and loads the values into new memory.
    v = keyroute.load(DATA / "torch_nested.pt")
    assert v["neg_view"].tolist() == [-2.0, 1.0]
    assert v["neg_view"].stride() != (2,) and v["neg_view"].storage_offset() != 1


def test_known_gaps_list_matches_the_tests():
    defined = sorted(n[len("gap_") :] for n in globals() if n.startswith("gap_"))
    assert sorted(GAPS) == defined


@pytest.mark.parametrize("name", GAPS)
def test_gap_still_differs(name):
    globals()[f"gap_{name}"]()
