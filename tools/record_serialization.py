"""Record PyTorch 2.13's checkpoints and load behaviour for tests/serialization.

Writes small files with `torch.save` into tests/data/serialization/ and a manifest
(serialization.json) describing every tensor in them (dtype, shape, strides, storage offset,
values, which tensors share a storage) plus the messages PyTorch gives when it refuses a file.
The tests load the files with keyroute, without PyTorch.

    python tools/record_serialization.py
"""

from __future__ import annotations

import collections
import io
import json
import os
import pickle
import warnings
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "serialization"


def values(t: torch.Tensor) -> list:
    if t.device.type == "meta":
        return []
    if t.is_complex():
        return [[z.real, z.imag] for z in t.detach().reshape(-1).tolist()]
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.detach().reshape(-1).tolist()


def describe(obj, path: str, out: dict, storages: dict) -> None:
    if isinstance(obj, torch.Tensor):
        key = None
        if obj.device.type != "meta":
            ptr = obj.untyped_storage().data_ptr()
            key = storages.setdefault(ptr, len(storages))
        out[path] = {
            "type": type(obj).__name__,
            "dtype": str(obj.dtype).removeprefix("torch."),
            "shape": list(obj.shape),
            "stride": list(obj.stride()),
            "offset": obj.storage_offset(),
            "requires_grad": obj.requires_grad,
            "device": obj.device.type,
            "storage": key,
            "storage_nbytes": obj.untyped_storage().nbytes(),
            "values": values(obj),
        }
    elif isinstance(obj, dict):
        out[path] = {"type": type(obj).__name__, "keys": [str(k) for k in obj]}
        for k, v in obj.items():
            describe(v, f"{path}/{k}", out, storages)
    elif isinstance(obj, (list, tuple)) and not isinstance(obj, torch.Size):
        out[path] = {"type": type(obj).__name__, "len": len(obj)}
        for i, v in enumerate(obj):
            describe(v, f"{path}/{i}", out, storages)
    else:
        out[path] = {"type": type(obj).__name__, "repr": repr(obj).replace("torch.", "")}


def objects() -> dict[str, object]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    dtypes = {}
    for d in (
        torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
        torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
        torch.complex128,
    ):  # fmt: skip
        base = torch.arange(-3, 3).reshape(2, 3)
        if d == torch.bool:
            dtypes[str(d)[6:]] = base > 0
        elif d in (torch.uint8,):
            dtypes[str(d)[6:]] = (base + 3).to(d)
        elif d.is_complex:
            dtypes[str(d)[6:]] = (base + 0.5j * base).to(d)
        else:
            dtypes[str(d)[6:]] = (base * 1.25 if d.is_floating_point else base).to(d)
    dtypes["scalar_f32"] = torch.tensor(2.5)
    dtypes["scalar_i64"] = torch.tensor(-7)
    dtypes["empty"] = torch.empty(0, 3)
    base = torch.arange(24.0).reshape(4, 6)
    views = {
        "base": base,
        "t": base.t(),
        "row": base[2],
        "cols": base[:, 1::2],
        "narrow": base[1:3, 2:5],
        "expand": torch.tensor([1.0, 2.0]).unsqueeze(0).expand(3, 2),
        "param": torch.nn.Parameter(torch.tensor([0.5, -1.5])),
        "frozen": torch.nn.Parameter(torch.tensor([3.0]), requires_grad=False),
        "leaf_grad": torch.tensor([1.0, 2.0], requires_grad=True),
    }
    nested = {
        "list": [1, 2.5, "three", None, True, b"bytes", (4, 5)],
        "tuple": (torch.tensor([1, 2]), {"inner": torch.ones(2, 2)}),
        "size": torch.Size([2, 3]),
        "device": torch.device("cpu"),
        "dtype": torch.float16,
        "set": {1, 2, 3},
        "complex": 1 + 2j,
        "bytearray": bytearray(b"ab"),
        "od": collections.OrderedDict(a=1, b=2),
        "meta": torch.empty(2, 3, device="meta"),
        "conj_view": torch.tensor([1 + 2j, 3 - 1j]).conj(),  # saved with the conj bit
        "neg_view": torch.tensor([1 + 2j, 3 - 1j]).conj().imag,  # saved with the neg bit
    }
    return {"state_dict": model.state_dict(), "dtypes": dtypes, "views": views, "nested": nested}


def refusal(data: bytes, **kw) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.load(io.BytesIO(data), **kw)
    except Exception as e:  # noqa: BLE001 - the message is what is recorded
        return f"{type(e).__name__}: {e}"
    return "loaded"


class Custom:
    pass


class Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, object] = {"torch_version": torch.__version__, "files": {}}
    for name, obj in objects().items():
        path = OUT / f"torch_{name}.pt"
        torch.save(obj, path)
        desc: dict = {}
        describe(torch.load(path, weights_only=True), "", desc, {})
        manifest["files"][path.name] = desc  # type: ignore[index]
    buf = io.BytesIO()
    torch.save(torch.arange(4.0), buf, pickle_protocol=4)
    (OUT / "torch_protocol4.pt").write_bytes(buf.getvalue())
    buf = io.BytesIO()
    torch.save(torch.arange(4.0), buf, _use_new_zipfile_serialization=False)
    (OUT / "torch_legacy.pt").write_bytes(buf.getvalue())
    buf = io.BytesIO()
    torch.save(torch.ones(2).untyped_storage(), buf)
    (OUT / "torch_untyped_storage.pt").write_bytes(buf.getvalue())
    messages = {}
    for label, obj in (("custom", {"a": Custom()}), ("evil", {"a": Evil()})):
        b = io.BytesIO()
        torch.save(obj, b)
        messages[label] = refusal(b.getvalue())
    messages["protocol4"] = refusal((OUT / "torch_protocol4.pt").read_bytes())
    messages["plain_pickle"] = refusal(pickle.dumps([1, 2], protocol=2), weights_only=False)
    good = (OUT / "torch_views.pt").read_bytes()
    messages["truncated"] = refusal(good[: len(good) // 2])
    manifest["messages"] = messages
    (OUT / "serialization.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print("wrote", sorted(p.name for p in OUT.iterdir()))


if __name__ == "__main__":
    main()
