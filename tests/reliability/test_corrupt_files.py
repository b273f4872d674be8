"""Corrupt files for every loader keyroute has (issue 12).

* safetensors: keyroute's own header reader (used when the optional package is absent, and
  to validate before loading in any case) against the safetensors library's recorded outcome
  (tests/data/corrupt_safetensors.json, tools/record_corrupt_files.py): the same exception
  class and reason; a corrupt file leaves a model exactly as it was.
* pickle: a pickled tensor whose geometry reaches past its storage is refused on unpickling
  (PyTorch's setStorage bound check), CPU and meta.
"""

from __future__ import annotations

import json
import os
import pickle
import sys

import pytest

import keyroute
from keyroute.models.loading import load_safetensors_into
from keyroute.models.safetensors_header import SafetensorError, read_header

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from safetensors_corruptions import corruptions, valid  # noqa: E402

with open(os.path.join(ROOT, "tests", "data", "corrupt_safetensors.json")) as _f:
    RECORDED = json.load(_f)["cases"]

# Messages whose detail after the reason is serde's (line/column of the JSON parser): the
# reason up to that detail must match.
_PREFIX_ONLY = {"bad_json", "bad_utf8", "list_header", "missing_dtype", "unknown_dtype"}


def _reason(name: str, message: str) -> str:
    if name not in _PREFIX_ONLY:
        return message
    head = "Error while deserializing header: "
    rest = message[len(head) :]
    return head + rest.split(":")[0]


@pytest.mark.parametrize("name", sorted(corruptions()))
def test_safetensors_header_errors_match_the_library(name: str, tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "f.safetensors"
    path.write_bytes(corruptions()[name])
    kind, message = RECORDED[name]
    with pytest.raises(SafetensorError) as info:
        read_header(path)
    assert type(info.value).__name__ == kind
    assert _reason(name, str(info.value)) == _reason(name, message)


def test_the_valid_file_reads(tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "ok.safetensors"
    path.write_bytes(valid())
    header, start = read_header(path)
    assert sorted(k for k in header if k != "__metadata__") == ["a", "b"]
    assert start + 24 == len(valid())


class _Two(keyroute.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a = keyroute.nn.Parameter(keyroute.zeros(4))
        self.b = keyroute.nn.Parameter(keyroute.zeros(2))


@pytest.mark.parametrize("name", ["truncated", "offset_out_of_range", "overlapping"])
def test_a_corrupt_file_leaves_the_model_unchanged(name: str, tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "f.safetensors"
    path.write_bytes(corruptions()[name])
    model = _Two()
    before = {k: (id(v), v.tolist()) for k, v in model._parameters.items()}
    with pytest.raises(SafetensorError):
        load_safetensors_into(model, path)
    assert {k: (id(v), v.tolist()) for k, v in model._parameters.items()} == before


def test_the_valid_file_loads(tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "ok.safetensors"
    path.write_bytes(valid())
    model = _Two()
    assert sorted(load_safetensors_into(model, path)) == ["a", "b"]
    assert model.a.tolist() == [0.0, 1.0, 2.0, 3.0] and model.b.tolist() == [1.0, 1.0]


def _tampered_pickle(t: keyroute.Tensor, stride: tuple[int, ...]) -> bytes:
    fn, args = t.__reduce_ex__(2)
    args = list(args)
    if fn.__name__ == "rebuild_meta_tensor":
        args[1] = stride
    else:
        args[3] = stride
    return pickle.dumps(_Call(fn, tuple(args)))


class _Call:
    """Pickles as a call of fn(*args): a file whose tensor geometry was edited."""

    def __init__(self, fn, args) -> None:  # noqa: ANN001
        self.fn, self.args = fn, args

    def __reduce__(self):  # noqa: ANN204
        return self.fn, self.args


@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_unpickling_refuses_geometry_past_the_storage(device: str) -> None:
    t = keyroute.arange(4.0, device=device)
    data = _tampered_pickle(t, (100000,))
    with pytest.raises(RuntimeError, match=r"setStorage: sizes \[4\], strides \[100000\]"):
        pickle.loads(data)


def test_unpickling_a_good_tensor_still_works() -> None:
    t = keyroute.arange(6.0).reshape(2, 3)[:, 1:]
    back = pickle.loads(pickle.dumps(t))
    assert back.tolist() == t.tolist() and back.stride() == t.stride()
