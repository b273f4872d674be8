"""Operator conformance: the same samples run on PyTorch (recorded) and on keyroute (tested).

A *sample* is `Sample(id, op, make)`: `op` names an aten overload ("add.Tensor"), and
`make(M, rng)` builds `(args, kwargs)` for module `M` (torch or keyroute) from a NumPy random
generator seeded by the sample id, so both modules receive identical inputs. Families list
their samples in `tests/ops/samples_<family>.py` (no torch or keyroute import at module level).

`tools/record_ops.py <family>` runs every sample with torch and writes
`tests/data/ops_<family>.json.gz`; `tests/ops/test_op_conformance.py` runs them with keyroute
and compares outputs (dtype, shape, strides, values with a per-dtype tolerance), the inputs
an in-place op wrote, or the error (type and first line). Known gaps are listed by sample id
in `tests/ops/known_gaps.txt` with a reason; the test requires them to still differ.
"""

from __future__ import annotations

import base64
import collections
import functools
import gzip
import hashlib
import importlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DATA_DIR = os.path.join(os.path.dirname(__file__), "..", "data")
FAMILIES_FILE_PREFIX = "samples_"

# -- samples -----------------------------------------------------------------------------------


@dataclass
class Sample:
    id: str
    op: str  # aten overload: "add.Tensor", "sum.dim_IntList", "mm" (= mm.default)
    make: Callable[[Any, np.random.Generator], tuple[tuple[Any, ...], dict[str, Any]]]
    # Compare these argument positions after the call (in-place ops, out=): filled in by the
    # harness from the schema when empty.
    check_args: tuple[int, ...] = ()
    # "values" (default), "shape" (random ops: compare metadata only), "none"
    compare: str = "values"
    atol: float | None = None
    rtol: float | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)


def rng_for(sample_id: str) -> np.random.Generator:
    seed = int.from_bytes(hashlib.sha256(sample_id.encode()).digest()[:8], "little")
    return np.random.default_rng(seed)


def family_samples(family: str) -> list[Sample]:
    return list(_family_samples(family))


@functools.cache
def _family_samples(family: str) -> tuple[Sample, ...]:
    # Cached: the conformance tests look a family's samples up once per sample.
    mod = importlib.import_module(f"tests.ops.{FAMILIES_FILE_PREFIX}{family}")
    samples = tuple(mod.SAMPLES)
    dup = sorted(i for i, n in collections.Counter(s.id for s in samples).items() if n > 1)
    if dup:
        raise ValueError(f"duplicate sample ids in {family}: {dup}")
    return samples


@functools.cache
def sample_by_id(family: str) -> dict[str, Sample]:
    return {s.id: s for s in _family_samples(family)}


def all_families() -> list[str]:
    here = os.path.dirname(__file__)
    return sorted(
        f[len(FAMILIES_FILE_PREFIX) : -3]
        for f in os.listdir(here)
        if f.startswith(FAMILIES_FILE_PREFIX) and f.endswith(".py")
    )


# -- input helpers used by sample makers -------------------------------------------------------

NP_DTYPES = {
    "bool": np.bool_,
    "uint8": np.uint8,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "complex64": np.complex64,
    "complex128": np.complex128,
}
FLOAT_DTYPES = ("float32", "float64", "float16", "bfloat16")
INT_DTYPES = ("uint8", "int8", "int16", "int32", "int64")
ALL_DTYPES = ("bool", *INT_DTYPES, *FLOAT_DTYPES)


def array(
    rng: np.random.Generator, shape: tuple[int, ...], dtype: str, low: float = -3, high: float = 3
) -> np.ndarray:
    """Random values of a dtype (bfloat16 values are float32 values exactly representable)."""
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype in INT_DTYPES:
        lo = max(int(low), 0) if dtype == "uint8" else int(low)
        return rng.integers(lo, max(int(high), lo + 1) + 1, size=shape).astype(NP_DTYPES[dtype])
    if dtype.startswith("complex"):
        v = rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)
        return v.astype(NP_DTYPES[dtype])
    v = rng.uniform(low, high, shape)
    if dtype == "bfloat16":
        return (v.astype(np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)
    return v.astype(NP_DTYPES[dtype])


def tensor(M: Any, a: np.ndarray, dtype: str | None = None, *, requires_grad: bool = False) -> Any:
    """A tensor of module M holding a copy of a (cast to `dtype`, e.g. "bfloat16")."""
    t = M.from_numpy(np.array(a, order="C", copy=True))  # ascontiguousarray makes 0-d 1-d
    if dtype is not None and dtype != str(a.dtype):
        t = t.to(getattr(M, dtype))
    if requires_grad:
        t.requires_grad_(True)
    return t


def rand(
    M: Any,
    rng: np.random.Generator,
    shape: tuple[int, ...],
    dtype: str = "float32",
    low: float = -3,
    high: float = 3,
) -> Any:
    return tensor(
        M, array(rng, shape, "float32" if dtype == "bfloat16" else dtype, low, high), dtype
    )


def noncontig(
    M: Any,
    rng: np.random.Generator,
    shape: tuple[int, ...],
    dtype: str = "float32",
    low: float = -3,
    high: float = 3,
) -> Any:
    """A non-contiguous tensor of `shape` (a transposed view of a larger one)."""
    if len(shape) >= 2:
        big = rand(M, rng, (shape[-1], *shape[:-2], shape[-2]), dtype, low, high)
        perm = (*range(1, len(shape) - 1), len(shape) - 1, 0) if len(shape) > 2 else (1, 0)
        return big.permute(*perm) if len(shape) > 2 else big.t()
    big = rand(M, rng, (shape[0] * 2,) if shape else (2,), dtype, low, high)
    return big[::2] if shape else big[0]


# -- encoding results --------------------------------------------------------------------------


def _np_of(M: Any, t: Any) -> np.ndarray:
    t = t.detach()
    if str(t.dtype).endswith("bfloat16"):
        t = t.to(M.float32)
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def encode_value(M: Any, v: Any) -> Any:
    """JSON form of an operator output (tensors, tuples/lists of them, Python scalars)."""
    if isinstance(v, M.Tensor):
        conj = v.is_conj()
        if conj:  # a lazily conjugated result (numpy() refuses it): its values, flagged
            v = v.resolve_conj()
        out = {
            "dtype": str(v.dtype).split(".")[-1],
            "shape": list(v.shape),
            "stride": list(v.stride()),
            "device": str(v.device.type),
        }
        if conj:
            out["conj"] = True
        if v.device.type != "meta":
            a = np.ascontiguousarray(_np_of(M, v))
            out["data"] = base64.b64encode(a.tobytes()).decode()
            out["npdtype"] = str(a.dtype)
        return out
    if isinstance(v, (list, tuple)):
        return {"seq": [encode_value(M, x) for x in v]}
    if isinstance(v, (bool, int, float, complex)) or v is None:
        if isinstance(v, complex):
            return {"complex": [v.real, v.imag]}
        if isinstance(v, float) and v != v:
            return {"float": "nan"}
        if isinstance(v, float) and v in (float("inf"), float("-inf")):
            return {"float": str(v)}
        return {"py": v}
    return {"repr": repr(v)}


def decode_array(d: dict[str, Any]) -> np.ndarray:
    a = np.frombuffer(base64.b64decode(d["data"]), dtype=d["npdtype"])
    return a.reshape(d["shape"])


def to_meta(M: Any, v: Any) -> Any:
    """The same arguments with every tensor moved to the meta device (layout kept)."""
    if isinstance(v, M.Tensor):
        return M.empty_strided(list(v.shape), list(v.stride()), dtype=v.dtype, device="meta")
    if isinstance(v, (list, tuple)):
        return type(v)(to_meta(M, x) for x in v)
    return v


def run_sample(M: Any, sample: Sample, meta: bool = False) -> dict[str, Any]:
    """Run one sample on module M: {"out": ..., "args": {i: ...}} or {"error", "msg"}.
    With `meta`, every tensor argument is first replaced by a meta tensor of its layout."""
    rng = rng_for(sample.id)
    args, kwargs = sample.make(M, rng)
    if meta:
        args = tuple(to_meta(M, a) for a in args)
        kwargs = {k: to_meta(M, v) for k, v in kwargs.items()}
    overload = sample.op if "." in sample.op else sample.op + ".default"
    name, ov = overload.split(".", 1)
    op = getattr(getattr(M.ops.aten, name), ov)
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = op(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - errors are results too
        msg = str(e).strip().split("\n")[0]
        return {"error": type(e).__name__, "msg": msg}
    result: dict[str, Any] = {"out": encode_value(M, out)}
    positions = sample.check_args
    if not positions:
        schema = op._schema
        positions = tuple(
            i
            for i, a in enumerate(schema.arguments)
            if a.alias_info is not None and a.alias_info.is_write and i < len(args)
        )
        outs = [
            a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write
        ]
        for name in outs:
            if name in kwargs:
                result.setdefault("kwargs", {})[name] = encode_value(M, kwargs[name])
    for i in positions:
        result.setdefault("args", {})[str(i)] = encode_value(M, args[i])
    return result


def data_path(family: str) -> str:
    return os.path.join(DATA_DIR, f"ops_{family}.json.gz")


def load_recorded(family: str) -> dict[str, Any]:
    with gzip.open(data_path(family), "rt") as f:
        return json.load(f)


@functools.cache
def recorded_samples(family: str) -> dict[str, Any]:
    """The recorded results of a family by sample id, loaded once per test session
    (callers must not modify them)."""
    return load_recorded(family)["samples"]


def save_recorded(family: str, data: dict[str, Any]) -> None:
    with gzip.open(data_path(family), "wt") as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)


# -- comparison --------------------------------------------------------------------------------

TOLERANCE = {  # (rtol, atol)
    "float16": (1e-3, 1e-3),
    "bfloat16": (1.6e-2, 1e-2),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
    "complex64": (1.3e-6, 1e-5),
    "complex128": (1e-7, 1e-7),
}


def compare(expected: Any, got: Any, sample: Sample, path: str = "out") -> list[str]:
    """Differences between two encoded results (empty when they agree)."""
    diffs: list[str] = []
    if isinstance(expected, dict) and "dtype" in expected:
        if not (isinstance(got, dict) and "dtype" in got):
            return [f"{path}: expected a tensor, got {got!r}"[:300]]
        for key in ("dtype", "shape", "device", "conj"):
            if expected.get(key) != got.get(key):
                diffs.append(f"{path}.{key}: expected {expected[key]}, got {got[key]}")
        if diffs:
            return diffs
        if (
            sample.compare != "shape"
            and expected["stride"] != got["stride"]
            and "strides" not in sample.tags
        ):
            diffs.append(f"{path}.stride: expected {expected['stride']}, got {got['stride']}")
        if sample.compare == "values" and "data" in expected:
            e, g = decode_array(expected), decode_array(got)
            rtol, atol = TOLERANCE.get(expected["dtype"], (0, 0))
            rtol = sample.rtol if sample.rtol is not None else rtol
            atol = sample.atol if sample.atol is not None else atol
            if e.dtype.kind in "fc":
                ok = np.allclose(g.astype(e.dtype), e, rtol=rtol, atol=atol, equal_nan=True)
            else:
                ok = np.array_equal(g.astype(e.dtype), e)
            if not ok:
                bad = (
                    np.argwhere(
                        ~np.isclose(g.astype(e.dtype), e, rtol=rtol, atol=atol, equal_nan=True)
                    )
                    if e.dtype.kind in "fc"
                    else np.argwhere(g.astype(e.dtype) != e)
                )
                idx = tuple(bad[0]) if len(bad) else ()
                diffs.append(
                    f"{path}: values differ at {len(bad)} positions, first {idx}: expected "
                    f"{e[idx] if e.ndim else e}, got {g[idx] if g.ndim else g}"
                )
        return diffs
    if isinstance(expected, dict) and "seq" in expected:
        if not (isinstance(got, dict) and "seq" in got) or len(got["seq"]) != len(expected["seq"]):
            return [f"{path}: expected a sequence of {len(expected['seq'])}, got {str(got)[:200]}"]
        for i, (e, g) in enumerate(zip(expected["seq"], got["seq"])):
            diffs += compare(e, g, sample, f"{path}[{i}]")
        return diffs
    if isinstance(expected, dict) and "py" in expected and isinstance(got, dict) and "py" in got:
        e, g = expected["py"], got["py"]
        if isinstance(e, float) or isinstance(g, float):
            if not (e is not None and g is not None and abs(e - g) <= 1e-5 * max(1.0, abs(e))):
                diffs.append(f"{path}: expected {e!r}, got {g!r}")
        elif e != g or type(e) is not type(g):
            diffs.append(f"{path}: expected {e!r}, got {g!r}")
        return diffs
    if expected != got:
        diffs.append(f"{path}: expected {str(expected)[:200]}, got {str(got)[:200]}")
    return diffs


def compare_results(expected: dict[str, Any], got: dict[str, Any], sample: Sample) -> list[str]:
    if "error" in expected or "error" in got:
        if "error" not in got:
            return [f"expected {expected['error']}: {expected['msg']}, got a result"]
        if "error" not in expected:
            return [f"expected a result, got {got['error']}: {got['msg']}"]
        diffs = []
        if expected["error"] != got["error"]:
            diffs.append(f"error type: expected {expected['error']}, got {got['error']}")
        if expected["msg"] != got["msg"] and "errmsg" not in sample.tags:
            diffs.append(f"error message: expected {expected['msg']!r}, got {got['msg']!r}")
        return diffs
    diffs = compare(expected["out"], got["out"], sample)
    for key in ("args", "kwargs"):
        for k, v in expected.get(key, {}).items():
            diffs += compare(v, got.get(key, {}).get(k), sample, f"{key}[{k}]")
    return diffs


def known_gaps() -> dict[str, str]:
    path = os.path.join(os.path.dirname(__file__), "known_gaps.txt")
    gaps: dict[str, str] = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                sid, _, reason = line.partition(" ")
                gaps[sid] = reason.strip()
    return gaps
