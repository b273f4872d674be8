"""keyroute.load reads checkpoints written by PyTorch 2.13 (tests/data/serialization, recorded
by tools/record_serialization.py), without PyTorch."""

from __future__ import annotations

import io
import json
import pickle
import warnings
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest

import keyroute
from keyroute.nn.parameter import Parameter

DATA = Path(__file__).resolve().parent.parent / "data" / "serialization"
MANIFEST = json.loads((DATA / "serialization.json").read_text())
FILES = sorted(MANIFEST["files"])


def _walk(obj, path, out):
    out[path] = obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            _walk(v, f"{path}/{k}", out)
    elif isinstance(obj, (list, tuple)) and not isinstance(obj, keyroute.Size):
        for i, v in enumerate(obj):
            _walk(v, f"{path}/{i}", out)


def _values(t):
    if t.is_meta:
        return []
    a = np.asarray(t.detach()._data).reshape(-1)  # the raw elements, bfloat16 too
    if t.dtype.is_complex:
        return [[z.real, z.imag] for z in a.tolist()]
    if t.dtype == keyroute.bfloat16:
        a = a.astype(np.float32)
    return a.tolist()


@pytest.mark.parametrize("name", FILES)
def test_torch_file_loads_with_recorded_contents(name):
    loaded = keyroute.load(DATA / name)
    got: dict = {}
    _walk(loaded, "", got)
    want = MANIFEST["files"][name]
    assert sorted(got) == sorted(want)
    groups: dict[int, object] = {}
    for path, spec in want.items():
        obj = got[path]
        if "dtype" in spec:
            assert isinstance(obj, keyroute.Tensor), path
            assert type(obj).__name__ == spec["type"], path
            assert obj.dtype.name == spec["dtype"], path
            assert list(obj.shape) == spec["shape"], path
            materialised = path.endswith(("conj_view", "neg_view"))  # known_gaps: conj_neg_bits
            if not materialised:
                assert list(obj.stride()) == spec["stride"], path
                assert obj.storage_offset() == spec["offset"], path
            assert obj.requires_grad == spec["requires_grad"], path
            assert obj.device.type == spec["device"], path
            if not materialised:
                assert obj.untyped_storage().nbytes() == spec["storage_nbytes"], path
            assert _values(obj) == spec["values"], path
            if spec["storage"] is not None and not materialised:
                # Tensors that shared a storage in PyTorch share one here, and no others do.
                st = obj.untyped_storage()
                if spec["storage"] in groups:
                    assert st == groups[spec["storage"]], path
                else:
                    assert all(st != g for g in groups.values()), path
                    groups[spec["storage"]] = st
        elif "keys" in spec:
            assert type(obj).__name__ == spec["type"], path
            assert [str(k) for k in obj] == spec["keys"], path
        elif "len" in spec:
            assert type(obj).__name__ == spec["type"] and len(obj) == spec["len"], path
        else:
            # keyroute's device class is spelled Device (keyroute.device is the same class).
            assert type(obj).__name__.replace("Device", "device") == spec["type"], path
            assert repr(obj).replace("keyroute.", "") == spec["repr"], path


def test_views_share_storage_and_writes_show_through():
    v = keyroute.load(DATA / "torch_views.pt")
    v["base"][0, 1] = 100.0
    assert v["t"][1, 0].item() == 100.0
    assert v["base"].untyped_storage() == v["narrow"].untyped_storage()
    assert isinstance(v["param"], Parameter) and v["param"].requires_grad
    assert isinstance(v["frozen"], Parameter) and not v["frozen"].requires_grad


def test_state_dict_is_ordered_and_loads_into_a_module():
    sd = keyroute.load(DATA / "torch_state_dict.pt")
    assert type(sd) is OrderedDict
    keyroute.manual_seed(1)
    model = keyroute.nn.Sequential(
        keyroute.nn.Linear(3, 4),
        keyroute.nn.ReLU(),
        keyroute.nn.Linear(4, 2),
    )
    model.load_state_dict(sd)
    for k, v in model.state_dict().items():
        assert np.array_equal(v.numpy(), sd[k].numpy()), k


def test_state_dict_assign_into_meta_built_module():
    sd = keyroute.load(DATA / "torch_state_dict.pt", mmap=True)
    with keyroute.device("meta"):
        model = keyroute.nn.Sequential(
            keyroute.nn.Linear(3, 4),
            keyroute.nn.ReLU(),
            keyroute.nn.Linear(4, 2),
        )
    assert model[0].weight.is_meta
    model.load_state_dict(sd, assign=True)
    assert not model[0].weight.is_meta
    assert isinstance(model[0].weight, Parameter) and model[0].weight.requires_grad
    # assign=True takes the checkpoint's storage itself, no copy.
    assert model[0].weight.untyped_storage() == sd["0.weight"].untyped_storage()
    out = model.eval()(keyroute.ones(2, 3))
    assert out.shape == (2, 2)


@pytest.mark.parametrize("mmap", [False, True])
def test_mmap_and_map_location_forms(mmap):
    path = DATA / "torch_views.pt"
    want = keyroute.load(path)["base"].numpy()
    for ml in (None, "cpu", keyroute.device("cpu"), {"cpu": "cpu"}, lambda s, loc: s):
        got = keyroute.load(path, map_location=ml, mmap=mmap)
        assert np.array_equal(got["base"].numpy(), want)
        assert got["t"].untyped_storage() == got["base"].untyped_storage()


def test_mmap_is_copy_on_write(tmp_path):
    path = tmp_path / "w.pt"
    path.write_bytes((DATA / "torch_views.pt").read_bytes())
    v = keyroute.load(path, mmap=True)
    v["base"].add_(1.0)
    assert v["t"][0, 0].item() == 1.0
    assert keyroute.load(path)["base"][0, 0].item() == 0.0  # the file is unchanged


def test_map_location_meta_reads_no_data():
    v = keyroute.load(DATA / "torch_views.pt", map_location="meta")
    assert v["base"].is_meta and v["t"].stride() == (1, 6)
    assert v["param"].is_meta and isinstance(v["param"], Parameter)


def test_map_location_callable_sees_storage_and_location():
    seen = []

    def ml(storage, loc):
        seen.append((type(storage).__name__, loc, storage.nbytes()))
        return None

    keyroute.load(DATA / "torch_nested.pt", map_location=ml)
    assert seen and all(s[0] == "UntypedStorage" and s[1] == "cpu" for s in seen)


def test_cuda_location_without_cuda_is_pytorchs_error(tmp_path):
    with pytest.raises(RuntimeError, match="map_location=torch.device\\('cpu'\\)"):
        keyroute.load(DATA / "torch_views.pt", map_location="cuda:0")
    # map_location as a dict maps the file's tag.
    v = keyroute.load(DATA / "torch_views.pt", map_location={"cpu": "meta"})
    assert v["base"].is_meta


def test_untyped_storage_file():
    # PyTorch hands a saved storage back as a TypedStorage of bytes; so does keyroute.
    s = keyroute.load(DATA / "torch_untyped_storage.pt")
    assert isinstance(s, keyroute.storage.TypedStorage) and s.dtype == keyroute.uint8
    assert s.nbytes() == 8
    assert np.frombuffer(bytes(s.tolist()), np.float32).tolist() == [1.0, 1.0]


def test_protocol4_refused_by_weights_only_with_pytorchs_message():
    with pytest.raises(pickle.UnpicklingError) as e, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        keyroute.load(DATA / "torch_protocol4.pt")
    assert f"UnpicklingError: {e.value}" == MANIFEST["messages"]["protocol4"]
    t = keyroute.load(DATA / "torch_protocol4.pt", weights_only=False)
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_legacy_format_is_a_clear_error():
    with pytest.raises(RuntimeError, match="legacy format"):
        keyroute.load(DATA / "torch_legacy.pt")


def test_plain_pickle_is_pytorchs_error():
    with pytest.raises(RuntimeError) as e:
        keyroute.load(io.BytesIO(pickle.dumps([1, 2], protocol=2)), weights_only=False)
    assert f"RuntimeError: {e.value}" == MANIFEST["messages"]["plain_pickle"]


def test_truncated_file_is_pytorchs_error():
    good = (DATA / "torch_views.pt").read_bytes()
    with pytest.raises(RuntimeError) as e:
        keyroute.load(io.BytesIO(good[: len(good) // 2]))
    assert f"RuntimeError: {e.value}" == MANIFEST["messages"]["truncated"]
