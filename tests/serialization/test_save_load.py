"""keyroute.save writes PyTorch's format: round trips here, and through PyTorch when it is
importable (keyroute -> torch and torch -> keyroute)."""

from __future__ import annotations

import io
import os
import zipfile
from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import keyroute
from keyroute.nn.parameter import Parameter

ALL = [
    keyroute.bool,
    keyroute.uint8,
    keyroute.int8,
    keyroute.int16,
    keyroute.int32,
    keyroute.int64,
    keyroute.float16,
    keyroute.bfloat16,
    keyroute.float32,
    keyroute.float64,
    keyroute.complex64,
    keyroute.complex128,
]


def _roundtrip(obj, **kw):
    buf = io.BytesIO()
    keyroute.save(obj, buf, **kw)
    buf.seek(0)
    return keyroute.load(buf)


def _raw(t):
    return np.asarray(t.detach()._data)


def _sample():
    base = keyroute.arange(24.0).reshape(4, 6)
    d = {f"{dt.name}": (keyroute.arange(-3, 3).reshape(2, 3) * 1.5).to(dt) for dt in ALL}
    d.update(
        base=base,
        t=base.t(),
        row=base[2],
        cols=base[:, 1::2],
        expand=keyroute.tensor([1.0, 2.0]).unsqueeze(0).expand(3, 2),
        scalar=keyroute.tensor(2.5),
        param=Parameter(keyroute.tensor([0.5, -1.5])),
        frozen=Parameter(keyroute.tensor([3.0]), requires_grad=False),
        leaf=keyroute.tensor([1.0, 2.0], requires_grad=True),
        nested=[1, 2.5, "s", None, True, b"b", (4, {"k": keyroute.ones(2)})],
        size=keyroute.Size([2, 3]),
        device=keyroute.device("cpu"),
        dtype=keyroute.float16,
        meta=keyroute.empty(2, 3, device="meta"),
    )
    return d


def test_roundtrip_every_dtype_view_and_container():
    src = _sample()
    got = _roundtrip(src)
    assert list(got) == list(src)
    for k, v in src.items():
        g = got[k]
        if isinstance(v, keyroute.Tensor):
            assert type(g) is type(v), k
            assert g.dtype == v.dtype and g.shape == v.shape and g.stride() == v.stride(), k
            assert g.requires_grad == v.requires_grad, k
            if not v.is_meta:
                assert g.storage_offset() == v.storage_offset(), k
                assert np.array_equal(_raw(g), _raw(v)), k
        elif k != "nested":
            assert g == v and type(g) is type(v), k
    assert got["t"].untyped_storage() == got["base"].untyped_storage()
    assert got["cols"].untyped_storage() == got["base"].untyped_storage()
    assert got["row"].untyped_storage() != got["param"].untyped_storage()
    assert got["nested"][:6] == [1, 2.5, "s", None, True, b"b"]
    assert np.array_equal(_raw(got["nested"][6][1]["k"]), np.ones(2, np.float32))


def test_ordered_dict_and_state_dict_roundtrip():
    keyroute.manual_seed(0)
    m = keyroute.nn.Sequential(keyroute.nn.Linear(3, 4), keyroute.nn.ReLU())
    sd = _roundtrip(m.state_dict())
    assert type(sd) is OrderedDict and list(sd) == ["0.weight", "0.bias"]
    m2 = keyroute.nn.Sequential(keyroute.nn.Linear(3, 4), keyroute.nn.ReLU())
    m2.load_state_dict(sd)
    assert np.array_equal(m2[0].weight.detach().numpy(), m[0].weight.detach().numpy())


def test_file_layout_is_pytorchs(tmp_path):
    path = tmp_path / "my.model.pt"
    keyroute.save({"a": keyroute.arange(3.0), "b": keyroute.ones(2, dtype=keyroute.int64)}, path)
    z = zipfile.ZipFile(path)
    assert z.namelist() == [
        "my.model/data.pkl",
        "my.model/.format_version",
        "my.model/.storage_alignment",
        "my.model/byteorder",
        "my.model/data/0",
        "my.model/data/1",
        "my.model/version",
        "my.model/.data/serialization_id",
    ]
    assert z.read("my.model/version") == b"3\n"
    assert z.read("my.model/byteorder") == b"little"
    assert len(z.read("my.model/.data/serialization_id")) == 40
    raw = path.read_bytes()
    for info in z.infolist():  # every record's data starts on a 64-byte boundary
        assert info.compress_type == zipfile.ZIP_STORED
        n, e = (
            int.from_bytes(raw[info.header_offset + 26 : info.header_offset + 28], "little"),
            (int.from_bytes(raw[info.header_offset + 28 : info.header_offset + 30], "little")),
        )
        assert (info.header_offset + 30 + n + e) % 64 == 0


def test_paths_file_objects_and_protocols(tmp_path):
    x = keyroute.arange(5.0)
    keyroute.save(x, str(tmp_path / "a.pt"))
    keyroute.save(x, tmp_path / "b.pt")
    with open(tmp_path / "c.pt", "wb") as f:
        keyroute.save(x, f)
    for n in "abc":
        assert keyroute.load(tmp_path / f"{n}.pt").tolist() == x.tolist()
    with open(tmp_path / "c.pt", "rb") as f:
        assert keyroute.load(f).tolist() == x.tolist()
    # (protocol 1 writes bools as INT, which weights_only refuses, as PyTorch's does)
    assert _roundtrip(x, pickle_protocol=2).tolist() == x.tolist()
    with pytest.warns(UserWarning, match="Detected pickle protocol 3 in the checkpoint"):
        assert _roundtrip(x, pickle_protocol=3).tolist() == x.tolist()
    buf = io.BytesIO()
    keyroute.save(x, buf, pickle_protocol=4)
    buf.seek(0)
    assert keyroute.load(buf, weights_only=False).tolist() == x.tolist()


def test_bad_save_arguments():
    with pytest.raises(AttributeError, match="file-like object with a 'write' attribute"):
        keyroute.save(keyroute.ones(1), 3)
    with pytest.raises(RuntimeError, match="invalid file name"):
        keyroute.save(keyroute.ones(1), "/tmp/.pt")
    with pytest.raises(ValueError, match="pickle protocol"):
        keyroute.save(keyroute.ones(1), io.BytesIO(), pickle_protocol=99)


def test_unpicklable_object_leaves_no_file(tmp_path):
    path = tmp_path / "x.pt"
    with pytest.raises(Exception):  # noqa: B017 - pickle's own error for a lambda
        keyroute.save({"f": lambda: 1}, path)
    assert not path.exists()


def test_different_dtypes_over_one_storage_is_pytorchs_error():
    x = keyroute.zeros(4)
    y = keyroute.tensor([1.0])  # a second storage is fine
    _roundtrip([x, y])
    s = keyroute.storage.TypedStorage(x.untyped_storage(), keyroute.int32)
    with pytest.raises(RuntimeError, match="view the same data as different types"):
        keyroute.save([x, s], io.BytesIO())


def test_weights_only_false_loads_custom_objects():
    Point = namedtuple("Point", "x y")
    globals()["Point"] = Point
    Point.__module__ = __name__
    obj = {"p": Point(1, keyroute.ones(2))}
    buf = io.BytesIO()
    keyroute.save(obj, buf)
    buf.seek(0)
    got = keyroute.load(buf, weights_only=False)
    assert got["p"].x == 1 and got["p"].y.tolist() == [1.0, 1.0]


def test_mmap_requires_a_path():
    buf = io.BytesIO()
    keyroute.save(keyroute.ones(1), buf)
    buf.seek(0)
    with pytest.raises(ValueError, match="must be a file path in order to use the mmap"):
        keyroute.load(buf, mmap=True)


def test_explicit_pickle_module_with_weights_only_is_refused():
    import pickle

    with pytest.raises(RuntimeError, match="explicit pickle_module"):
        keyroute.load(io.BytesIO(b""), pickle_module=pickle, weights_only=True)


# -- through PyTorch (live, where it is importable) ---------------------------------------------
def test_keyroute_file_loads_in_pytorch(tmp_path):
    torch = pytest.importorskip("torch")
    src = _sample()
    path = tmp_path / "k.pt"
    keyroute.save(src, path)
    got = torch.load(path)  # weights_only=True: only allow-listed names in the file
    for k, v in src.items():
        g = got[k]
        if isinstance(v, keyroute.Tensor):
            assert str(g.dtype) == f"torch.{v.dtype.name}", k
            assert tuple(g.shape) == tuple(v.shape) and g.stride() == v.stride(), k
            assert g.requires_grad == v.requires_grad, k
            assert isinstance(g, torch.nn.Parameter) == isinstance(v, Parameter), k
            if not v.is_meta:
                assert g.storage_offset() == v.storage_offset(), k
                if v.dtype == keyroute.bfloat16:
                    assert g.float().tolist() == v.float().tolist(), k
                else:
                    assert np.array_equal(g.detach().numpy(), _raw(v)), k
            else:
                assert g.device.type == "meta"
    assert got["t"].untyped_storage().data_ptr() == got["base"].untyped_storage().data_ptr()
    assert got["size"] == torch.Size([2, 3]) and got["device"] == torch.device("cpu")
    assert got["dtype"] is torch.float16


def test_pytorch_file_loads_in_keyroute_live(tmp_path):
    torch = pytest.importorskip("torch")
    base = torch.arange(12.0).reshape(3, 4)
    obj = {"b": base, "v": base[:, 1:3], "p": torch.nn.Parameter(torch.ones(2)), "h": base.half()}
    path = tmp_path / "t.pt"
    torch.save(obj, path)
    got = keyroute.load(path)
    assert got["v"].stride() == (4, 1) and got["v"].storage_offset() == 1
    assert got["v"].untyped_storage() == got["b"].untyped_storage()
    assert got["v"].tolist() == obj["v"].tolist()
    assert isinstance(got["p"], Parameter) and got["h"].dtype == keyroute.float16


def test_state_dict_into_pytorch_module(tmp_path):
    torch = pytest.importorskip("torch")
    keyroute.manual_seed(0)
    m = keyroute.nn.Linear(3, 2)
    path = tmp_path / "sd.pt"
    keyroute.save(m.state_dict(), path)
    tm = torch.nn.Linear(3, 2)
    tm.load_state_dict(torch.load(path))
    x = [[1.0, 2.0, 3.0]]
    with torch.no_grad():
        assert np.allclose(tm(torch.tensor(x)).numpy(), m(keyroute.tensor(x)).detach().numpy())


def test_env_var_forces_weights_only(monkeypatch):
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "1")
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(RuntimeError, match="should be set, but both were set"):
        keyroute.load(io.BytesIO(b""))
    monkeypatch.delenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")
    assert os.environ["TORCH_FORCE_WEIGHTS_ONLY_LOAD"] == "1"


def test_tensor_attributes_travel_both_ways():
    t = keyroute.ones(2)
    t.note = "x"
    got = _roundtrip(t)
    assert type(got) is keyroute.Tensor and got.note == "x"
    torch = pytest.importorskip("torch")
    buf = io.BytesIO()
    keyroute.save(t, buf)
    assert torch.load(io.BytesIO(buf.getvalue())).note == "x"


def test_whole_module_needs_weights_only_false():
    keyroute.manual_seed(0)
    m = keyroute.nn.Sequential(keyroute.nn.Linear(3, 4), keyroute.nn.ReLU())
    buf = io.BytesIO()
    keyroute.save(m, buf)
    with pytest.raises(Exception, match="was not an allowed global by default"):
        keyroute.load(io.BytesIO(buf.getvalue()))
    m2 = keyroute.load(io.BytesIO(buf.getvalue()), weights_only=False)
    assert type(m2) is type(m)
    assert np.array_equal(m2[0].weight.detach().numpy(), m[0].weight.detach().numpy())


def test_module_buffer_saves_as_a_plain_tensor():
    b = keyroute.nn.Buffer(keyroute.ones(2))
    got = _roundtrip({"b": b})
    assert type(got["b"]) is keyroute.Tensor and got["b"].tolist() == [1.0, 1.0]
