"""Record PyTorch's answers for the Tensor type's user-facing surface.

    python tools/record_tensor_api.py

Writes tests/data/tensor_api.json: `repr` cases (tensors built from the same NumPy data, with
print options), and expression cases (`dispatch_keys`, `api`, `factories`) that the tests
evaluate with `M = keyroute` where this tool evaluated them with `M = torch`. Every string is
recorded with "torch." spelled "keyroute." (the one allowed difference). Needs torch==2.13.0.
"""

from __future__ import annotations

import base64
import json
import math
import os
import sys
import warnings
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "tensor_api.json")

# ----------------------------------------------------------------------------- evaluation
# (the tests import these helpers from the recorded file's neighbours: keep them torch-free)


def normalize(s: str) -> str:
    return s.replace("torch.", "keyroute.")


def encode_array(a: np.ndarray) -> dict[str, Any]:
    a = np.ascontiguousarray(a)
    return {
        "npdtype": str(a.dtype),
        "shape": list(a.shape),
        "b64": base64.b64encode(a.tobytes()).decode(),
    }


def decode_array(d: dict[str, Any]) -> np.ndarray:
    a = np.frombuffer(base64.b64decode(d["b64"]), dtype=d["npdtype"])
    return a.reshape(d["shape"]).copy()


def _float_list(a: np.ndarray) -> Any:
    return [None if math.isnan(v) else v for v in a.reshape(-1).tolist()]


def encode(M: Any, v: Any, values: bool = True) -> Any:
    """A JSON description of a result, comparable across torch and keyroute."""
    if isinstance(v, M.Tensor):
        out: dict[str, Any] = {
            "dtype": normalize(str(v.dtype)),
            "shape": list(v.shape),
            "stride": list(v.stride()),
            "offset": v.storage_offset(),
            "device": str(v.device),
            "requires_grad": bool(v.requires_grad),
        }
        if values and v.device.type != "meta":
            t = v.detach()
            if t.dtype.is_complex:
                a = np.asarray(t.to(M.complex128).numpy())
                out["real"] = _float_list(a.real)
                out["imag"] = _float_list(a.imag)
            elif t.dtype.is_floating_point:
                out["values"] = _float_list(np.asarray(t.to(M.float64).numpy()))
            else:
                out["values"] = np.asarray(t.numpy()).reshape(-1).tolist()
        return {"tensor": out}
    if isinstance(v, M.Size):
        return {"size": list(v)}
    if isinstance(v, np.ndarray):
        return {"ndarray": str(v.dtype), "shape": list(v.shape), "values": encode_py(v.tolist())}
    if isinstance(v, (list, tuple)):
        return {type(v).__name__: [encode(M, x, values) for x in v]}
    if isinstance(v, (bool, int, float, complex, str)) or v is None:
        return encode_py(v)
    return {"repr": normalize(repr(v))}


def encode_py(v: Any) -> Any:
    if isinstance(v, list):
        return {"list": [encode_py(x) for x in v]}
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return {"float": str(v)}
    if isinstance(v, complex):
        return {"complex": [encode_py(v.real), encode_py(v.imag)]}
    if isinstance(v, str):
        return {"str": normalize(v)}
    return {type(v).__name__: v}


def run_case(M: Any, mode_cls: Any, case: dict[str, Any]) -> dict[str, Any]:
    """Evaluate one expression case with module M: its result (or error), the aten operators
    a dispatch mode saw, the warnings raised."""
    log: list[str] = []

    class Log(mode_cls):  # type: ignore[misc, valid-type]
        def __torch_dispatch__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            log.append(str(func))
            return func(*args, **(kwargs or {}))

    env: dict[str, Any] = {"M": M, "np": np, "math": math}
    out: dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(case.get("setup", ""), env)
            if case.get("ops"):
                with Log():
                    value = eval(case["expr"], env)
            else:
                value = eval(case["expr"], env)
            out["result"] = encode(M, value, values=case.get("values", True))
        except Exception as e:  # noqa: BLE001 (errors are results here)
            msg = str(e).splitlines()[0] if str(e) else ""
            out["error"] = type(e).__name__
            out["msg"] = normalize(msg)
        finally:
            exec(case.get("teardown", ""), env)
    if case.get("ops"):
        out["ops"] = log
    if case.get("warnings"):
        out["warnings"] = [
            normalize(str(w.message).split(" (Triggered internally")[0])
            for w in caught
            if issubclass(w.category, UserWarning)
        ]
    return out


def build_repr_tensor(M: Any, case: dict[str, Any]) -> Any:
    a = decode_array(case["data"])
    t = M.from_numpy(a)
    t = t.to(getattr(M, case["dtype"]))
    if case.get("device") == "meta":
        t = t.to("meta")
    if case.get("view"):
        t = eval(case["view"], {"t": t, "M": M})
    if case.get("requires_grad"):
        t.requires_grad_(True)
    return t


def run_repr(M: Any, case: dict[str, Any]) -> str:
    saved = M.get_default_dtype()
    try:
        if case.get("default_dtype"):
            M.set_default_dtype(getattr(M, case["default_dtype"]))
        M.set_printoptions(**case.get("opts", {}))
        t = build_repr_tensor(M, case)
        return normalize(repr(t))
    finally:
        M.set_printoptions(profile="default", sci_mode=None)
        M.set_default_dtype(saved)


# ----------------------------------------------------------------------------- repr cases

NP_OF = {
    "bool": np.bool_,
    "uint8": np.uint8,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "float16": np.float32,
    "bfloat16": np.float32,
    "float32": np.float32,
    "float64": np.float64,
    "complex64": np.complex64,
    "complex128": np.complex128,
}


def _bf16_exact(a: np.ndarray) -> np.ndarray:
    return (a.astype(np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)


def _values(rng: np.random.Generator, kind: str, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Test data of a kind (normal, scaled, integer-valued, special values, ...)."""
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        return (rng.random(n) < 0.5).reshape(shape)
    if dtype in ("uint8", "int8", "int16", "int32", "int64"):
        lo, hi = {
            "uint8": (0, 255),
            "int8": (-128, 127),
            "int16": (-3000, 3000),
            "int32": (-(10**6), 10**6),
            "int64": (-(10**12), 10**12),
        }[dtype]
        if kind == "small":
            lo, hi = max(lo, -9), min(hi, 9)
        return rng.integers(lo, hi, size=n, endpoint=True).astype(NP_OF[dtype]).reshape(shape)
    scales = {
        "normal": 1.0,
        "tiny": 1e-5,
        "big": 1e5,
        "huge": 1e10,
        "mixed": None,
        "ints": None,
        "bigints": None,
        "special": None,
        "zeros": None,
    }
    if kind == "mixed":
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 7, size=n)
    elif kind == "ints":
        v = rng.integers(-50, 50, size=n).astype(np.float64)
    elif kind == "bigints":
        v = rng.integers(-(10**9), 10**9, size=n).astype(np.float64)
    elif kind == "special":
        v = rng.standard_normal(n)
        specials = [np.nan, np.inf, -np.inf, -0.0, 0.0]
        for i in range(min(n, 5)):
            v[i * max(1, n // 5)] = specials[i]
    elif kind == "zeros":
        v = np.zeros(n)
    elif kind == "intspecial":
        v = rng.integers(-5, 5, size=n).astype(np.float64)
        v[0] = np.nan
        if n > 1:
            v[-1] = -np.inf
    else:
        v = rng.standard_normal(n) * scales.get(kind, 1.0)
    if dtype.startswith("complex"):
        w = rng.standard_normal(n) * (scales.get(kind) or 1.0)
        if kind == "ints":
            w = rng.integers(-9, 9, size=n).astype(np.float64)
        v = v + 1j * w
    out = v.astype(NP_OF[dtype]).reshape(shape)
    if dtype == "bfloat16":
        out = _bf16_exact(out).reshape(shape)
    if dtype == "float16":
        with np.errstate(over="ignore"):
            out = out.astype(np.float16).astype(np.float32)
    return out


def repr_cases() -> list[dict[str, Any]]:
    rng = np.random.default_rng(20240613)
    cases: list[dict[str, Any]] = []

    def add(
        cid: str, dtype: str, shape: tuple[int, ...], kind: str = "normal", **extra: Any
    ) -> None:
        data = extra.pop("array", None)
        if data is None:
            data = _values(rng, kind, shape, dtype)
        cases.append({"id": cid, "data": encode_array(np.asarray(data)), "dtype": dtype, **extra})

    floats = ("float32", "float64", "float16", "bfloat16")
    ints = ("uint8", "int8", "int16", "int32", "int64")
    # every dtype, several shapes
    for dt in floats:
        for kind in (
            "normal",
            "tiny",
            "big",
            "huge",
            "mixed",
            "ints",
            "bigints",
            "special",
            "zeros",
            "intspecial",
        ):
            add(f"{dt}-{kind}-5", dt, (5,), kind)
        add(f"{dt}-normal-3x4", dt, (3, 4))
        add(f"{dt}-ints-2x3x2", dt, (2, 3, 2), "ints")
        add(f"{dt}-0d", dt, (), "normal")
        add(f"{dt}-0d-int", dt, (), "ints")
    for dt in ints:
        add(f"{dt}-7", dt, (7,))
        add(f"{dt}-3x3", dt, (3, 3))
        add(f"{dt}-0d", dt, ())
        add(f"{dt}-small-2x2x2", dt, (2, 2, 2), "small")
    for dt in ("bool",):
        add("bool-6", dt, (6,))
        add("bool-2x3", dt, (2, 3))
        add("bool-0d", dt, ())
    for dt in ("complex64", "complex128"):
        for kind in ("normal", "tiny", "big", "ints", "special", "zeros"):
            add(f"{dt}-{kind}-4", dt, (4,), kind)
        add(f"{dt}-2x3", dt, (2, 3))
        add(f"{dt}-0d", dt, ())
        add(f"{dt}-25-wrap", dt, (25,))
    # negative zero, +/- imaginary zero
    add(
        "complex64-signed-zeros",
        "complex64",
        (4,),
        array=np.array([0j, complex(0, -0.0), complex(-0.0, 0), 1 - 0j], np.complex64),
    )
    add("float32-negzero", "float32", (3,), array=np.array([-0.0, 0.0, -0.0], np.float32))
    add("float32-nan-only", "float32", (2,), array=np.array([np.nan, np.nan], np.float32))
    add("float32-inf-1", "float32", (3,), array=np.array([np.inf, 1.0, -np.inf], np.float32))
    add("float32-1e8", "float32", (2,), array=np.array([1e8, 2.0], np.float32))
    add("float32-1e8-int", "float32", (2,), array=np.array([100000000.0, 1.0], np.float32))
    add("float32-ratio-1000", "float32", (2,), array=np.array([1.0, 1000.0], np.float32))
    add("float32-ratio-1001", "float32", (2,), array=np.array([1.0, 1001.0], np.float32))
    add("float32-1e-4", "float32", (2,), array=np.array([1e-4, 0.5], np.float32))
    add("float64-rounding", "float64", (4,), array=np.array([0.00005, 1.23455, 2.5, 99999.99995]))
    add("float64-fmax", "float64", (2,), array=np.array([1.7976931348623157e308, -1.0]))
    add("float16-max", "float16", (3,), array=np.array([65504.0, -65504.0, 1.0], np.float32))
    add("float32-subnormal", "float32", (2,), array=np.array([1e-45, 1.0], np.float32))
    add("int64-big", "int64", (3,), array=np.array([-(2**63), 2**63 - 1, 0], np.int64))
    # line wrapping
    add("float32-30-wrap", "float32", (30,))
    add("int64-100-wrap", "int64", (100,))
    add("float32-3x30-wrap", "float32", (3, 30))
    add("float32-2x2x20-wrap", "float32", (2, 2, 20), "mixed")
    add("bool-40-wrap", "bool", (40,))
    # summarisation (> 1000 elements)
    add("float32-2000-summary", "float32", (2000,))
    add("float32-40x40-summary", "float32", (40, 40))
    add("float32-11x11x11-summary", "float32", (11, 11, 11), "ints")
    add("int64-1001-summary", "int64", (1001,))
    add("bool-1500-summary", "bool", (1500,))
    add("complex64-1100-summary", "complex64", (1100,))
    add("float64-3x500-summary", "float64", (3, 500), "mixed")
    add("int32-2x600-summary", "int32", (2, 600))
    add("float32-summary-specials", "float32", (1200,), "special")
    # empty tensors
    for dt, shape in (
        ("float32", (0,)),
        ("float32", (0, 3)),
        ("int64", (0,)),
        ("bool", (2, 0)),
        ("float64", (2, 0, 4)),
        ("complex64", (0,)),
        ("bfloat16", (0, 1)),
    ):
        add(f"empty-{dt}-{'x'.join(map(str, shape))}", dt, shape)
    # meta tensors
    for dt, shape in (
        ("float32", (2, 3)),
        ("int64", (4,)),
        ("float64", ()),
        ("bool", (0,)),
        ("complex64", (2,)),
        ("float16", (1, 1, 1)),
    ):
        add(f"meta-{dt}-{'x'.join(map(str, shape)) or '0d'}", dt, shape, device="meta")
    add("meta-requires-grad", "float32", (2,), device="meta", requires_grad=True)
    # requires_grad
    add("rg-float32-3", "float32", (3,), requires_grad=True)
    add("rg-float64-2x2", "float64", (2, 2), requires_grad=True)
    add("rg-complex64-2", "complex64", (2,), requires_grad=True)
    add("rg-float32-0d", "float32", (), requires_grad=True)
    add("rg-float32-empty", "float32", (0, 2), requires_grad=True)
    add("rg-float32-wrap", "float32", (12,), "mixed", requires_grad=True)
    add("rg-float16-0d", "float16", (), requires_grad=True)
    # non-contiguous views (as_strided: transposes, gaps, broadcast)
    add("view-transpose", "float32", (3, 4), view="t.as_strided((4, 3), (1, 4))")
    add("view-gaps", "float32", (4, 6), view="t.as_strided((2, 3), (12, 2), 1)")
    add("view-expand", "int64", (3,), view="t.as_strided((2, 3), (0, 1))")
    add("view-int-transpose", "int16", (2, 5), view="t.as_strided((5, 2), (1, 5))")
    # print options
    opts = [
        ("precision2", {"precision": 2}),
        ("precision8", {"precision": 8}),
        ("precision0", {"precision": 0}),
        ("sci-true", {"sci_mode": True}),
        ("sci-false", {"sci_mode": False}),
        ("threshold5", {"threshold": 5}),
        ("edgeitems1", {"threshold": 5, "edgeitems": 1}),
        ("edgeitems0", {"threshold": 5, "edgeitems": 0}),
        ("linewidth40", {"linewidth": 40}),
        ("linewidth120", {"linewidth": 120}),
        ("short", {"profile": "short"}),
        ("full", {"profile": "full"}),
    ]
    for name, o in opts:
        add(f"opts-{name}-float32-12", "float32", (12,), "mixed", opts=o)
        add(f"opts-{name}-int64-3x8", "int64", (3, 8), opts=o)
    add("opts-full-2000", "int64", (1200,), opts={"profile": "full"})
    add("opts-sci-true-ints", "float32", (4,), "ints", opts={"sci_mode": True})
    add("opts-sci-false-tiny", "float32", (4,), "tiny", opts={"sci_mode": False})
    add("opts-edgeitems0-3d", "float32", (3, 3, 3), opts={"threshold": 5, "edgeitems": 0})
    add("opts-complex-precision2", "complex64", (3,), opts={"precision": 2})
    add("opts-linewidth40-suffix", "float64", (6,), opts={"linewidth": 40}, requires_grad=True)
    # default dtype float64: the dtype= suffix rules follow it
    for dt in ("float32", "float64", "complex64", "complex128", "int64"):
        add(f"default-f64-{dt}", dt, (3,), default_dtype="float64")
    add("default-f64-empty-f32", "float32", (0,), default_dtype="float64")
    add("default-f64-meta-f64", "float64", (2,), default_dtype="float64", device="meta")
    # long suffixes wrap to a new line
    add("suffix-wrap", "float64", (8,), "mixed", requires_grad=True)
    add(
        "suffix-wrap-meta",
        "bfloat16",
        (1000, 1000, 1000),
        device="meta",
        array=np.zeros((1, 1, 1), np.float32),
        view="t.as_strided((1000, 1000, 1000), (0, 0, 0))",
    )
    return cases


# ----------------------------------------------------------------------------- expression cases


def dispatch_key_cases() -> list[dict[str, Any]]:
    exprs = {
        "plain": "M.ones(2)",
        "requires-grad": "M.ones(2, requires_grad=True)",
        "meta": "M.ones(2, device='meta')",
        "meta-requires-grad": "M.ones(2, device='meta', requires_grad=True)",
        "inference": "M.inference_mode()(lambda: M.ones(2))()",
        "inference-meta": "M.inference_mode()(lambda: M.ones(2, device='meta'))()",
        "inference-view": "M.inference_mode()(lambda: M.ones(4).view(2, 2))()",
        "view-in-inference": "(lambda b: M.inference_mode()(lambda: b.view(2, 2))())(M.ones(4))",
        "inference-disabled": "M.inference_mode(False)(lambda: M.ones(2))()",
        "no-grad": "M.no_grad()(lambda: M.ones(2))()",
        "view": "M.ones(4).view(2, 2)",
        "expand": "M.ones(1).expand(3)",
        "as-strided": "M.ones(4).as_strided((2,), (2,))",
        "detach": "M.ones(2, requires_grad=True).detach()",
        "meta-view": "M.ones(4, device='meta').view(2, 2)",
        "bfloat16": "M.ones(2, dtype=M.bfloat16)",
        "int8": "M.ones(2, dtype=M.int8)",
        "bool": "M.ones(2, dtype=M.bool)",
        "complex64": "M.ones(2, dtype=M.complex64)",
        "from-numpy": "M.from_numpy(np.ones(2))",
        "tensor": "M.tensor([1, 2])",
        "tensor-meta": "M.tensor([1, 2], device='meta')",
        "to-meta": "M.ones(2).to('meta')",
        "empty-like-inference": "(lambda b: M.inference_mode()(lambda: M.empty_like(b))())"
        "(M.ones(2))",
    }
    cases = [
        {"id": f"keys-{cid}", "expr": f"str(M._C._dispatch_keys({e}))"} for cid, e in exprs.items()
    ]
    return cases + [
        {
            "id": "keys-is-inference",
            "expr": "M.inference_mode()(lambda: M.ones(2))().is_inference()",
        },
        {"id": "keys-is-inference-plain", "expr": "M.ones(2).is_inference()"},
    ]


def api_cases() -> list[dict[str, Any]]:
    c: list[dict[str, Any]] = []

    def add(cid: str, expr: str, **kw: Any) -> None:
        c.append({"id": cid, "expr": expr, **kw})

    # numpy(): shared memory both ways, errors
    add(
        "numpy-shares-write-tensor",
        "(lambda t: (t.numpy().__setitem__(0, 7.0), t.tolist())[1])(M.zeros(3))",
    )
    add(
        "numpy-shares-write-array",
        "(lambda a: (M.from_numpy(a).fill_(2.0), a.tolist())[1])(np.zeros(3))",
    )
    add(
        "numpy-dtype",
        "[str(M.ones(1, dtype=d).numpy().dtype) for d in (M.bool, M.uint8, "
        "M.int8, M.int16, M.int32, M.int64, M.float16, M.float32, M.float64, M.complex64, "
        "M.complex128)]",
    )
    add("numpy-bfloat16", "M.ones(2, dtype=M.bfloat16).numpy()")
    add("numpy-requires-grad", "M.ones(2, requires_grad=True).numpy()")
    add("numpy-requires-grad-force", "M.ones(2, requires_grad=True).numpy(force=True)")
    add(
        "numpy-requires-grad-no-grad",
        "M.no_grad()(lambda: M.ones(2, requires_grad=True).numpy())()",
    )
    add("numpy-meta", "M.ones(2, device='meta').numpy()")
    add("numpy-noncontig-strides", "M.ones(3, 4).as_strided((4, 3), (1, 4)).numpy().strides")
    add(
        "numpy-view-shares",
        "(lambda t: (t.as_strided((2,), (2,), 1).numpy().__setitem__(1, "
        "5), t.tolist())[1])(M.zeros(4, dtype=M.int64))",
    )
    add("array-asarray", "np.asarray(M.arange(3))")
    add("array-dtype", "np.asarray(M.arange(3), dtype=np.float32)")
    add(
        "array-shares",
        "(lambda t: (np.asarray(t).__setitem__(0, 9), t.tolist())[1])(M.zeros(2, dtype=M.int32))",
    )
    add("array-requires-grad", "np.asarray(M.ones(2, requires_grad=True))")
    add("array-meta", "np.asarray(M.ones(2, device='meta'))")
    add("array-bfloat16", "np.asarray(M.ones(2, dtype=M.bfloat16))")
    # from_numpy
    for dt in (
        "float64",
        "float32",
        "float16",
        "complex64",
        "complex128",
        "int64",
        "int32",
        "int16",
        "int8",
        "uint8",
        "bool",
    ):
        add(f"from-numpy-{dt}", f"M.from_numpy(np.arange(4).astype('{dt}'))")
    for dt in (
        "float128",
        "object",
        "U3",
        "datetime64[s]",
        "complex256",
        ">f4",
        ">i8",
        "<f8",
        "S2",
        "V8",
    ):
        add(f"from-numpy-bad-{dt}", f"M.from_numpy(np.zeros(2, dtype='{dt}'))")
    add("from-numpy-list", "M.from_numpy([1, 2])")
    add("from-numpy-negative-stride", "M.from_numpy(np.arange(4)[::-1])")
    add("from-numpy-noncontig", "M.from_numpy(np.arange(12.).reshape(3, 4)[:, ::2])")
    add("from-numpy-transposed", "M.from_numpy(np.arange(6).reshape(2, 3).T)")
    add("from-numpy-0d", "M.from_numpy(np.array(2.5))")
    add("from-numpy-empty", "M.from_numpy(np.zeros((0, 3), np.int16))")
    add(
        "from-numpy-readonly", "M.from_numpy(np.broadcast_to(np.arange(3.), (2, 3)))", warnings=True
    )
    add("from-numpy-bad-stride-order", "M.from_numpy(np.zeros(2, dtype='>f4')[::-1])")
    add("from-numpy-shares", "(lambda a: (M.from_numpy(a).add_(1), a.tolist())[1])(np.zeros(2))")
    add("from-numpy-storage-offset", "M.from_numpy(np.arange(10.)[3:]).storage_offset()")
    # tensor() dtype inference and errors
    T = "M.tensor"
    datas = {
        "int-list": "[1, 2, 3]",
        "float-list": "[1.0, 2.5]",
        "bool-list": "[True, False]",
        "complex-list": "[1j, 2]",
        "mixed-bool-int": "[True, 1]",
        "mixed-int-float": "[1, 2.5]",
        "mixed-bool-float": "[True, 2.5]",
        "mixed-all": "[True, 1, 2.5, 1j]",
        "nested": "[[1, 2], [3, 4]]",
        "nested-mixed": "[[1, 2], [3, 4.5]]",
        "nested-3d": "[[[1], [2]], [[3], [4]]]",
        "tuple": "(1, 2)",
        "nested-tuple-list": "([1, 2], (3, 4))",
        "range": "range(3)",
        "scalar-int": "5",
        "scalar-float": "2.5",
        "scalar-bool": "True",
        "scalar-complex": "1 + 2j",
        "empty": "[]",
        "empty-nested": "[[], []]",
        "empty-3d": "[[[]]]",
        "empty-ragged": "[[], [1]]",
        "np-float64-scalar": "np.float64(1.5)",
        "np-float32-scalar": "np.float32(1.5)",
        "np-float16-scalar": "np.float16(1.5)",
        "np-int8-scalar": "np.int8(3)",
        "np-bool-scalar": "np.bool_(True)",
        "np-complex64-scalar": "np.complex64(1j)",
        "np-scalars-list": "[np.float16(1), np.int8(3)]",
        "np-scalars-ints": "[np.int8(1), np.int16(3)]",
        "np-int8-and-int": "[np.int8(1), 3]",
        "np-float64-and-int": "[np.float64(1), 3]",
        "np-bools": "[np.bool_(True), np.bool_(False)]",
        "np-bool-and-int": "[np.bool_(True), 2]",
        "np-arrays-list": "[np.array([1, 2]), np.array([3, 4])]",
        "np-f32-array-in-list": "[np.array([1, 2], dtype=np.float32)]",
        "np-0d-array-first": "[np.array(1.5), 2]",
        "np-0d-array-second": "[1, np.array(2)]",
        "np-array": "np.arange(3, dtype=np.int16)",
        "np-array-noncontig": "np.arange(6).reshape(2, 3).T",
        "np-array-negative": "np.arange(6)[::-1]",
        "np-array-bigendian": "np.arange(3, dtype='>i4')",
        "np-array-object": "np.array([1, 'a'], dtype=object)",
        "0d-tensors": "[M.tensor(1.5, dtype=M.float64), M.tensor(2)]",
        "1el-tensors": "[M.tensor([1.5]), 2.0]",
        "1d-tensors": "[M.tensor([1., 2.]), M.tensor([3., 4.])]",
        "int-1d-tensors": "[M.tensor([1, 2]), M.tensor([3, 4])]",
        "tensor-row": "[[1, 2], M.tensor([3, 4])]",
        "0d-int8-tensor": "[M.tensor(1, dtype=M.int8), 2]",
        "0d-bool-tensors": "[M.tensor(True), False]",
        "requires-grad-0d": "[M.tensor(1.5, requires_grad=True)]",
        "ragged": "[[1, 2], [3]]",
        "ragged-scalar": "[[1, 2], 3]",
        "ragged-list": "[1, [2, 3]]",
        "ragged-deep": "[[[1, 2], [3, 4]], [[1, 2], [3]]]",
        "ragged-empty": "[[1], []]",
        "str": "'a'",
        "str-list": "['a']",
        "bytes": "b'ab'",
        "none": "None",
        "none-list": "[None]",
        "dict": "{1: 2}",
        "set": "{1, 2}",
        "object": "object()",
        "nested-dict": "[[1, 2], {3: 0, 4: 1}]",
        "nested-set": "[[1, 2], {3, 4}]",
        "generator-row": "[[1, 2], (i for i in range(2))]",
        "self-ref": "(lambda l: (l.append(l), l)[1])([])",
        "depth-128": "eval('[' * 128 + '1' + ']' * 128)",
        "depth-129": "eval('[' * 129 + '1' + ']' * 129)",
        "big-int": "[2**63]",
        "big-int2": "[1, 2**64]",
        "huge-int-float": "[1.5, 10**400]",
        "list-in-float": "[1, [2.5, 3]]",
        "list-in-bool": "[True, [True]]",
        "list-in-complex": "[1j, [1j]]",
        "tensor-2d": "M.ones(2, 2)",
    }
    for name, d in datas.items():
        add(f"tensor-{name}", f"{T}({d})", warnings=name == "tensor-2d")
    typed = {
        "int8-overflow": ("[300]", "int8"),
        "uint8-neg": ("[-1]", "uint8"),
        "uint8-256": ("[256]", "uint8"),
        "uint8-neg-256": ("[-256]", "uint8"),
        "int64-floats": ("[1.7, -1.7]", "int64"),
        "int64-nan": ("[float('nan')]", "int64"),
        "int32-inf": ("[float('inf')]", "int32"),
        "int8-1e3": ("[1000.0]", "int8"),
        "int8-127.5": ("[127.5]", "int8"),
        "uint8-neg-float": ("[-0.5]", "uint8"),
        "half-big": ("[1e6]", "float16"),
        "float-big": ("[1e300]", "float32"),
        "bf16-big": ("[1e300]", "bfloat16"),
        "bf16-round": ("[1.00390625, 1.01171875]", "bfloat16"),
        "bool-from-float": ("[2.5, 0.0, float('nan')]", "bool"),
        "bool-from-complex": ("[1j, 0j]", "bool"),
        "bool-big": ("[2**64]", "bool"),
        "int-from-complex": ("[1 + 2j]", "int64"),
        "float-from-complex": ("[1 + 2j]", "float32"),
        "float-from-bool": ("[True, False]", "float32"),
        "int-from-str": ("['1']", "int64"),
        "int-from-np-float32": ("[np.float32(1.5)]", "int64"),
        "int-from-np-float64": ("[np.float64(1.5)]", "int64"),
        "int8-from-np-int64": ("[np.int64(300)]", "int8"),
        "float16-from-np-int": ("[np.int64(2)**40, 3]", "float16"),
        "bool-from-float-tensor": ("[M.tensor(1.5), 2]", "bool"),
        "int-from-float-tensor": ("[M.tensor(1.5)]", "int64"),
        "int-from-int-tensor": ("[M.tensor(1)]", "int64"),
        "complex-from-tensor": ("[M.tensor(1.5)]", "complex64"),
        "float64-big-int": ("[2**64]", "float64"),
        "np-array-to-float": ("np.arange(3)", "float32"),
        "tensor-to-int": ("M.tensor([1.5, 2.5])", "int32"),
    }
    for name, (d, dt) in typed.items():
        add(f"tensor-typed-{name}", f"{T}({d}, dtype=M.{dt})", warnings=True)
    add("tensor-dtype-str", "M.tensor([1], dtype='float32')")
    add("tensor-dtype-np", "M.tensor([1], dtype=np.float32)")
    add("tensor-dtype-python-float", "M.tensor([1], dtype=float)")
    add("tensor-dtype-python-complex", "M.tensor([1], dtype=complex)")
    add("tensor-requires-grad-int", "M.tensor([1], requires_grad=True)")
    add("tensor-requires-grad", "M.tensor([1.5], requires_grad=True)")
    add("tensor-meta", "M.tensor([1, 2], device='meta')")
    add("tensor-copies", "(lambda a: (M.tensor(a).add_(1), a.tolist())[1])(np.zeros(2))")
    add(
        "tensor-from-tensor-detached",
        "M.tensor(M.ones(2, requires_grad=True)).requires_grad",
        warnings=True,
    )
    add(
        "tensor-default-f64",
        "M.tensor([1.5, 1j])",
        setup="M.set_default_dtype(M.float64)",
        teardown="M.set_default_dtype(M.float32)",
    )
    add(
        "tensor-default-f64-int",
        "M.tensor([1, 2]).dtype",
        setup="M.set_default_dtype(M.float64)",
        teardown="M.set_default_dtype(M.float32)",
    )
    # as_tensor / asarray
    add("as-tensor-list", "M.as_tensor([1, 2.5])")
    add("as-tensor-np-shares", "(lambda a: (M.as_tensor(a).add_(1), a.tolist())[1])(np.zeros(2))")
    add(
        "as-tensor-np-dtype-copies",
        "(lambda a: (M.as_tensor(a, dtype=M.float32).add_(1), a.tolist())[1])(np.zeros(2))",
    )
    add("as-tensor-same", "(lambda t: M.as_tensor(t) is t)(M.ones(2))")
    add("as-tensor-dtype", "M.as_tensor(M.ones(2), dtype=M.float64)")
    add("as-tensor-keeps-grad", "M.as_tensor(M.ones(2, requires_grad=True))")
    add("as-tensor-meta", "M.as_tensor(np.ones(2), device='meta')")
    add("as-tensor-np-bigendian", "M.as_tensor(np.ones(2, dtype='>f8'))")
    add("asarray-list", "M.asarray([1, 2.5])")
    add("asarray-tensor-copy", "(lambda t: M.asarray(t, copy=True) is t)(M.ones(2))")
    add("asarray-tensor-same", "(lambda t: M.asarray(t) is t)(M.ones(2))")
    add("asarray-np-shares", "(lambda a: (M.asarray(a).add_(1), a.tolist())[1])(np.zeros(2))")
    add(
        "asarray-np-copy",
        "(lambda a: (M.asarray(a, copy=True).add_(1), a.tolist())[1])(np.zeros(2))",
    )
    add("asarray-no-copy-dtype", "M.asarray(np.zeros(2), copy=False, dtype=M.float32)")
    add("asarray-scalar", "M.asarray(3)")
    add("asarray-np-scalar", "M.asarray(np.float64(3))")
    add("asarray-requires-grad", "M.asarray([1.5], requires_grad=True)")
    # item / tolist / python number protocols
    add("item-types", "[type(M.tensor(x).item()).__name__ for x in (1, 1.5, True, 1j)]")
    for dt, v in (
        ("float16", "1.1"),
        ("bfloat16", "1.1"),
        ("int8", "-3"),
        ("complex64", "1.1 + 2.2j"),
        ("float32", "0.1"),
        ("uint8", "200"),
    ):
        add(f"item-{dt}", f"M.tensor({v}, dtype=M.{dt}).item()")
    add("item-many", "M.ones(2).item()")
    add("item-empty", "M.ones(0).item()")
    add("item-meta", "M.ones((), device='meta').item()")
    add("item-1el", "M.ones(1, 1).item()")
    add("item-requires-grad", "M.ones((), requires_grad=True).item()")
    add("tolist-bfloat16", "M.tensor([1.1, 2.2], dtype=M.bfloat16).tolist()")
    add("tolist-float16", "M.tensor([1.1], dtype=M.float16).tolist()")
    add("tolist-complex", "M.tensor([1.1j], dtype=M.complex64).tolist()")
    add("tolist-0d", "M.tensor(3).tolist()")
    add(
        "tolist-types",
        "[type(v).__name__ for v in M.tensor([1.0]).tolist() + "
        "M.tensor([1]).tolist() + M.tensor([True]).tolist()]",
    )
    add("tolist-empty", "M.zeros(2, 0).tolist()")
    add("tolist-nested", "M.arange(6).view(2, 3).tolist()")
    add("tolist-noncontig", "M.arange(6).as_strided((3, 2), (1, 3)).tolist()")
    add("tolist-meta", "M.ones(2, device='meta').tolist()")
    add("tolist-requires-grad", "M.ones(2, requires_grad=True).tolist()")
    add("len", "len(M.ones(3, 2))")
    add("len-0d", "len(M.tensor(1))")
    add("len-meta", "len(M.ones(3, device='meta'))")
    add("iter-0d", "iter(M.tensor(1))")
    add("iter-1d", "[x.item() for x in M.tensor([1, 2])]")
    add("iter-2d", "[tuple(x.shape) for x in M.ones(2, 3)]")
    add("bool-many", "bool(M.ones(2))")
    add("bool-none", "bool(M.ones(0))")
    add("bool-1el", "bool(M.tensor([0.]))")
    add("bool-nan", "bool(M.tensor(float('nan')))")
    add("bool-meta", "bool(M.ones((), device='meta'))")
    add("bool-if", "'yes' if M.tensor([[3]]) else 'no'")
    add("index-float", "M.tensor(1.).__index__()")
    add("index-many", "M.tensor([1, 2]).__index__()")
    add("index-1el", "M.tensor([3]).__index__()")
    add("index-bool", "M.tensor(True).__index__()")
    add("index-meta", "M.ones((), dtype=M.int64, device='meta').__index__()")
    add("index-list", "[10, 20, 30][M.tensor(2)]")
    add("index-range", "list(range(M.tensor(3)))")
    add("index-float-list", "[10, 20][M.tensor(1.)]")
    add("int-many", "int(M.ones(2))")
    add("int-empty", "int(M.ones(0))")
    add("int-1el", "int(M.tensor([[2.7]]))")
    add("int-neg", "int(M.tensor(-2.7))")
    add("int-nan", "int(M.tensor(float('nan')))")
    add("int-inf", "int(M.tensor(float('inf')))")
    add("int-big", "int(M.tensor(1e30))")
    add("int-bool", "int(M.tensor(True))")
    add("int-complex", "int(M.tensor(1 + 1j))")
    add("int-meta", "int(M.ones((), device='meta'))")
    add("float-int", "float(M.tensor(3))")
    add("float-many", "float(M.ones(2))")
    add("float-complex", "float(M.tensor(1 + 1j))")
    add("float-complex-real", "float(M.tensor(2 + 0j))")
    add("float-bfloat16", "float(M.tensor(1.1, dtype=M.bfloat16))")
    add("complex-float", "complex(M.tensor(2.))")
    add("complex-many", "complex(M.ones(2))")
    add("format-0d", "format(M.tensor(2.5), '.3f')")
    add("format-0d-int", "f'{M.tensor(5):>4}'")
    add("format-0d-bool", "format(M.tensor(True), '')")
    add("format-0d-requires-grad", "format(M.tensor(2.5, requires_grad=True), '.3f')")
    add("format-1d-spec", "format(M.ones(2), '.2f')")
    add("format-1d-empty", "format(M.ones(2))")
    add("format-meta-spec", "format(M.ones((), device='meta'), '.2f')")
    add("format-meta-empty", "format(M.ones((), device='meta'))")
    add("str", "str(M.tensor([1.5]))")
    # repr of autograd results: grad_fn=<...> replaces requires_grad=True
    add("repr-grad-fn-mul", "repr(M.ones(2, requires_grad=True) * 2)")
    add("repr-grad-fn-sum", "repr((M.ones(2, requires_grad=True) * 2).sum())")
    add("repr-grad-fn-view", "repr(M.ones(4, requires_grad=True).view(2, 2))")
    add("repr-grad-fn-wrap", "repr(M.arange(16.).view(2, 8).requires_grad_() * 1e-5)")
    add("repr-grad-fn-meta", "repr(M.ones(2, device='meta', requires_grad=True) * 2)")
    add("repr-detached", "repr((M.ones(2, requires_grad=True) * 2).detach())")
    add("repr-no-grad", "repr(M.no_grad()(lambda: M.ones(2, requires_grad=True) * 2)())")
    add("hash-identity", "(lambda t: hash(t) == hash(t))(M.ones(1))")
    # DLPack
    add("dlpack-np-from-tensor", "np.from_dlpack(M.arange(3))")
    add(
        "dlpack-np-shares",
        "(lambda t: (np.from_dlpack(t).__setitem__(0, 5), t.tolist())[1])"
        "(M.zeros(2, dtype=M.int64))",
    )
    add(
        "dlpack-expanded",
        "(lambda a: (a.tolist(), a.strides))(np.from_dlpack(M.arange(3).expand(2, 3)))",
    )
    add(
        "dlpack-view",
        "(lambda t: np.from_dlpack(t.as_strided((2,), (2,), 1)).tolist())(M.arange(5))",
    )
    add("keys-slice-view", "str(M._C._dispatch_keys(M.ones(4)[1:]))")
    add(
        "keys-getitem-inference",
        "str(M._C._dispatch_keys(M.inference_mode()(lambda: M.ones(4))()[1:]))",
    )
    add("dlpack-from-np", "M.from_dlpack(np.arange(3.))")
    add(
        "dlpack-from-np-shares",
        "(lambda a: (M.from_dlpack(a).add_(1), a.tolist())[1])(np.zeros(2))",
    )
    add("dlpack-from-np-bool", "M.from_dlpack(np.array([True]))")
    add("dlpack-from-np-noncontig", "M.from_dlpack(np.arange(6.).reshape(2, 3).T)")
    add("dlpack-from-tensor-new", "(lambda t: M.from_dlpack(t) is t)(M.ones(2))")
    add(
        "dlpack-from-tensor-shares",
        "(lambda t: M.from_dlpack(t).data_ptr() == t.data_ptr())(M.ones(2))",
    )
    add("dlpack-from-list", "M.from_dlpack([1])")
    add("dlpack-requires-grad", "M.ones(2, requires_grad=True).__dlpack__()")
    add("dlpack-from-requires-grad", "M.from_dlpack(M.ones(2, requires_grad=True))")
    add("dlpack-meta", "M.ones(2, device='meta').__dlpack__()")
    add("dlpack-device", "[int(x) for x in M.ones(2).__dlpack_device__()]")
    add("dlpack-bad-stream", "M.ones(2).__dlpack__(stream='a')")
    add(
        "dlpack-from-inference",
        "M.from_dlpack(M.inference_mode()(lambda: M.ones(1))()).is_inference()",
    )
    # storage and metadata
    add("storage-offset", "M.arange(10).as_strided((3,), (1,), 3).storage_offset()")
    add(
        "storage-offset-meta",
        "M.empty(10, device='meta').as_strided((3,), (1,), 3).storage_offset()",
    )
    add(
        "storage-offset-view-of-view",
        "M.arange(10).as_strided((6,), (1,), 2).as_strided((2,), (2,), 5).storage_offset()",
    )
    add(
        "storage-ptr-views",
        "(lambda t: len({t.untyped_storage().data_ptr(), t.view(2, 5)"
        ".untyped_storage().data_ptr(), t.as_strided((3,), (2,), 4).untyped_storage()"
        ".data_ptr(), t.expand(2, 10).untyped_storage().data_ptr()}))(M.arange(10))",
    )
    add(
        "storage-ptr-distinct",
        "(lambda a, b: a.untyped_storage().data_ptr() != "
        "b.untyped_storage().data_ptr())(M.ones(2), M.ones(2))",
    )
    add("storage-nbytes", "M.arange(10).as_strided((3,), (1,), 3).untyped_storage().nbytes()")
    add("storage-size", "M.arange(10, dtype=M.int16).untyped_storage().size()")
    add("storage-len", "len(M.arange(10, dtype=M.int8).untyped_storage())")
    add("storage-device", "M.arange(10).untyped_storage().device")
    add("storage-meta-nbytes", "M.empty(10, device='meta').untyped_storage().nbytes()")
    add("storage-meta-ptr", "M.ones(2, device='meta').untyped_storage().data_ptr()")
    add("storage-element-size", "M.arange(2).untyped_storage().element_size()")
    add("storage-same-object", "(lambda t: t.untyped_storage() is t.untyped_storage())(M.ones(2))")
    add(
        "storage-eq", "(lambda t: t.untyped_storage() == t.view(2, 1).untyped_storage())(M.ones(2))"
    )
    add("storage-repr", "repr(M.tensor([0, 1, 255], dtype=M.uint8).untyped_storage())")
    add("storage-repr-empty", "repr(M.empty(0).untyped_storage())")
    add("storage-repr-meta", "repr(M.empty(3, device='meta').untyped_storage())")
    add("storage-empty-strided", "M.empty_strided((2, 3), (10, 2)).untyped_storage().nbytes()")
    add(
        "data-ptr-offset",
        "(lambda t: t.as_strided((2,), (1,), 2).data_ptr() - t.data_ptr())(M.ones(4))",
    )
    add("data-ptr-meta", "M.ones(2, device='meta').data_ptr()")
    add(
        "data-ptr-numpy",
        "(lambda t: t.data_ptr() == t.numpy().__array_interface__['data'][0])(M.ones(3))",
    )
    add(
        "is-contiguous",
        "(M.ones(2, 3).is_contiguous(), M.ones(2, 3).as_strided((3, 2), (1, 3))"
        ".is_contiguous(), M.ones(1, 3).as_strided((3, 1), (1, 3)).is_contiguous(), "
        "M.ones(2, 0).as_strided((0, 2), (1, 0)).is_contiguous())",
    )
    add("is-contiguous-expand", "M.ones(3, 1).expand(3, 4).is_contiguous()")
    add(
        "is-contiguous-cl",
        "M.empty(1, 2, 3, 4, memory_format=M.channels_last)"
        ".is_contiguous(memory_format=M.channels_last)",
    )
    add(
        "is-contiguous-cl-plain",
        "(M.empty(2, 3, 4, 5).is_contiguous(memory_format="
        "M.channels_last), M.empty(2, 3, 4, 5, memory_format=M.channels_last).is_contiguous())",
    )
    add(
        "is-contiguous-meta",
        "M.ones(2, 3, device='meta').as_strided((3, 2), (1, 3)).is_contiguous()",
    )
    add(
        "element-size",
        "[M.ones(1, dtype=d).element_size() for d in (M.bool, M.uint8, M.int8, "
        "M.int16, M.int32, M.int64, M.float16, M.bfloat16, M.float32, M.float64, M.complex64, "
        "M.complex128)]",
    )
    add("itemsize", "[M.ones(1, dtype=d).itemsize for d in (M.bool, M.float16, M.complex128)]")
    add(
        "nbytes",
        "(M.ones(3, 4).nbytes, M.ones(4, 4).as_strided((4, 2), (4, 2)).nbytes, "
        "M.ones(4, 1).expand(4, 5).nbytes, M.ones(2, 3, device='meta').nbytes)",
    )
    add(
        "dims",
        "(lambda t: (t.dim(), t.ndim, t.ndimension(), t.numel(), t.nelement(), "
        "tuple(t.shape), tuple(t.size()), t.size(1), t.size(-1), t.stride(), t.stride(0), "
        "t.stride(-1)))(M.ones(2, 3))",
    )
    add("dims-0d", "(lambda t: (t.dim(), t.numel(), tuple(t.shape), t.stride()))(M.tensor(1.))")
    add("shape-type", "type(M.ones(2).shape).__name__")
    add("size-type", "type(M.ones(2).size()).__name__")
    add("stride-type", "type(M.ones(2).stride()).__name__")
    add("size-dim-error", "M.ones(2, 3).size(2)")
    add("size-dim-error-neg", "M.ones(2, 3).size(-3)")
    add("stride-dim-error", "M.ones(2, 3).stride(-3)")
    add("size-0d", "M.tensor(1.).size(0)")
    add("size-0d-neg", "M.tensor(1.).size(-1)")
    add("stride-0d", "M.tensor(1.).stride(0)")
    add("size-float", "M.ones(2).size(0.5)")
    add("size-bool", "M.ones(2, 3).size(True)")
    add("size-np-int", "M.ones(2, 3).size(np.int64(1))")
    add("size-kw", "(M.ones(2, 3).size(dim=1), M.ones(2, 3).stride(dim=0))")
    add("size-none", "(M.ones(2, 3).size(None), M.ones(2, 3).stride(None))")
    add("size-meta", "M.ones(2, 3, device='meta').size(-1)")
    # Size
    add("Size-repr", "repr(M.Size([2, 3]))")
    add("Size-empty", "repr(M.Size())")
    add("Size-slice", "repr(M.Size([2, 3, 4])[1:])")
    add("Size-index", "M.Size([2, 3])[-1]")
    add("Size-numel", "(M.Size([2, 3, 4]).numel(), M.Size([]).numel(), M.Size([2, 0]).numel())")
    add("Size-add", "repr(M.Size([2]) + (3,))")
    add("Size-radd", "repr((3,) + M.Size([2]))")
    add("Size-add-list", "M.Size([2]) + [3]")
    add("Size-mul", "(repr(M.Size([2]) * 2), repr(2 * M.Size([2])))")
    add("Size-eq", "(M.Size([2, 3]) == (2, 3), hash(M.Size([2, 3])) == hash((2, 3)))")
    add("Size-isinstance", "isinstance(M.Size([2]), tuple)")
    add("Size-str", "str(M.Size([1]))")
    add("Size-np-int", "repr(M.Size([np.int64(2)]))")
    add("Size-tensor", "repr(M.Size([M.tensor(2)]))")
    add("Size-bool", "repr(M.Size([True]))")
    add("Size-neg", "repr(M.Size([-1]))")
    add("Size-float", "M.Size([1.5])")
    add("Size-str-item", "M.Size(['a'])")
    add("Size-count-index", "(M.Size([2, 2, 3]).count(2), M.Size([2, 3]).index(3))")
    add(
        "Size-pickle",
        "repr(__import__('pickle').loads(__import__('pickle').dumps(M.Size([2, 3]))))",
    )
    # Device
    for s in (
        "cpu",
        "meta",
        "cuda",
        "cuda:0",
        "cuda:1",
        "cpu:0",
        "cpu:1",
        " cpu",
        "cpu ",
        "cuda:-1",
        "cuda:x",
        "foo",
        "cuda:0:1",
        "CPU",
        "cuda:01",
        "cuda: 1",
        "",
        "mps",
        "xla:2",
        "meta:0",
    ):
        add(f"device-{s!r}", f"repr(M.device({s!r}))")
    add("device-type-index", "(lambda d: (d.type, d.index))(M.device('cuda:3'))")
    add("device-cuda-1", "repr(M.device('cuda', 1))")
    add("device-cuda0-1", "repr(M.device('cuda:0', 1))")
    add("device-negative", "M.device('cuda', -1)")
    add("device-str", "(str(M.device('cuda', 1)), str(M.device('cpu')))")
    add("device-eq-str", "M.device('cpu') == 'cpu'")
    add("device-eq-index", "M.device('cpu') == M.device('cpu', 0)")
    add("device-eq", "M.device('cuda:1') == M.device('cuda', 1)")
    add("device-from-device", "repr(M.device(M.device('meta')))")
    add("device-hash", "hash(M.device('cpu')) == hash(M.device('cpu'))")
    add(
        "device-pickle",
        "repr(__import__('pickle').loads(__import__('pickle').dumps(M.device('cuda', 2))))",
    )
    add("tensor-device", "(repr(M.ones(1).device), repr(M.ones(1, device='meta').device))")
    add("tensor-device-cpu0", "repr(M.ones(1, device='cpu:0').device)")
    # pickling and deepcopy
    P = "__import__('pickle')"
    C = "__import__('copy')"
    add("pickle-values", f"{P}.loads({P}.dumps(M.tensor([[1.5, 2.0], [3.0, -4.0]])))")
    for dt in (
        "bool",
        "uint8",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ):
        add(f"pickle-{dt}", f"{P}.loads({P}.dumps(M.arange(4).to(M.{dt})))")
    add("pickle-requires-grad", f"{P}.loads({P}.dumps(M.ones(2, requires_grad=True)))")
    add(
        "pickle-noncontig",
        f"(lambda u: (u, u.stride(), u.storage_offset()))({P}.loads("
        f"{P}.dumps(M.arange(6.).view(2, 3).as_strided((3, 2), (1, 3)))))",
    )
    add(
        "pickle-offset",
        f"(lambda u: (u, u.storage_offset(), u.untyped_storage().nbytes()))"
        f"({P}.loads({P}.dumps(M.arange(6.).as_strided((2,), (1,), 2))))",
    )
    add("pickle-0d", f"{P}.loads({P}.dumps(M.tensor(2.5)))")
    add("pickle-empty", f"{P}.loads({P}.dumps(M.zeros(0, 3)))")
    add("pickle-meta", f"{P}.loads({P}.dumps(M.ones(2, 3, device='meta')))")
    add(
        "pickle-attr",
        f"(lambda t: (setattr(t, 'foo', 3), {P}.loads({P}.dumps(t)).foo)[1])(M.ones(2))",
    )
    add(
        "pickle-inference",
        f"(lambda u: (u.is_inference(), str(M._C._dispatch_keys(u))))("
        f"{P}.loads({P}.dumps(M.inference_mode()(lambda: M.ones(2))())))",
    )
    add(
        "pickle-protocols",
        f"[{P}.loads({P}.dumps(M.arange(3), protocol=p)).tolist() for p in (2, 3, 4, 5)]",
    )
    add(
        "deepcopy",
        f"(lambda t: (lambda u: (u, u.stride(), u.requires_grad, u is t, "
        f"u.data_ptr() == t.data_ptr()))({C}.deepcopy(t)))(M.arange(6.).view(2, 3)"
        ".as_strided((3, 2), (1, 3)).detach().requires_grad_())",
    )
    add("deepcopy-nonleaf", f"{C}.deepcopy(M.ones(2, requires_grad=True) * 2)")
    add(
        "deepcopy-shares-views",
        f"(lambda ab: ab[1].data_ptr() - ab[0].data_ptr())({C}"
        ".deepcopy((lambda b: (b, b.as_strided((4,), (1,), 2)))(M.arange(6.))))",
    )
    add("deepcopy-attr", f"(lambda t: (setattr(t, 'foo', [1]), {C}.deepcopy(t).foo)[1])(M.ones(2))")
    add("deepcopy-meta", f"{C}.deepcopy(M.ones(2, device='meta'))")
    add("deepcopy-independent", f"(lambda t: ({C}.deepcopy(t).add_(1), t.tolist())[1])(M.ones(2))")
    add("deepcopy-memo", f"(lambda t: (lambda l: l[0] is l[1])({C}.deepcopy([t, t])))(M.ones(2))")
    add(
        "copy-copy",
        f"(lambda t: (lambda u: (u is t, u.data_ptr() == t.data_ptr()))({C}.copy(t)))(M.ones(2))",
    )
    # versions
    add(
        "version-fresh",
        "[t._version for t in (M.ones(2), M.zeros(2), M.full((2,), 3.), "
        "M.arange(3), M.eye(2), M.linspace(0, 1, 3), M.tensor([1]), M.rand(2), M.randn(2), "
        "M.randint(3, (2,)), M.randperm(3), M.empty(2), M.empty_strided((2,), (1,)), "
        "M.scalar_tensor(1), M.zeros_like(M.ones(2)), M.full_like(M.ones(2), 2), "
        "M.from_numpy(np.ones(2)), M.as_tensor([1.]))]",
    )
    add("version-inplace", "(lambda t: (t.add_(1), t._version)[1])(M.ones(2))")
    add("version-view-shared", "(lambda t: (t.add_(1), t.view(2, 1)._version)[1])(M.ones(2))")
    add("version-inference", "M.inference_mode()(lambda: M.ones(2))()._version")
    # writes into expanded tensors: most in-place ops refuse (internal overlap), a few write
    E = "M.zeros(3, 1).expand(3, 4)"
    I = "M.tensor([0])"
    for name, call in (
        ("copy_", "e.copy_(M.ones(3, 4))"),
        ("zero_", "e.zero_()"),
        ("fill_", "e.fill_(2)"),
        ("fill_-tensor", "e.fill_(M.tensor(2.))"),
        ("mul_", "e.mul_(2)"),
        ("add_", "e.add_(M.ones(3, 4))"),
        ("exp_", "e.exp_()"),
        ("clamp_", "e.clamp_(0, 1)"),
        ("masked_fill_", "e.masked_fill_(M.ones(3, 4, dtype=M.bool), 1.)"),
        ("index_put_", f"e.index_put_(({I},), M.tensor(1.))"),
        ("lerp_", "e.lerp_(M.ones(3, 4), 0.5)"),
        ("addcmul_", "e.addcmul_(M.ones(3, 4), M.ones(3, 4))"),
        ("uniform_", "e.uniform_()"),
        ("normal_", "e.normal_()"),
        ("index_fill_", f"e.index_fill_(1, {I}, 1.)"),
        ("index_copy_", f"e.index_copy_(1, {I}, M.ones(3, 1))"),
        ("index_add_", f"e.index_add_(1, {I}, M.ones(3, 1))"),
        ("scatter_", "e.scatter_(1, M.zeros(3, 1, dtype=M.long), 1.)"),
        ("put_", f"e.put_({I}, M.ones(1))"),
        ("tril_", "e.tril_()"),
        ("setitem-row", "e.__setitem__(0, 1.)"),
        ("setitem-element", "e.__setitem__((0, 0), 5.)"),
        ("setitem-mask", "e.__setitem__(e > -1, 1.)"),
        ("out", "M.add(M.ones(3, 4), 1, out=e)"),
    ):
        add(f"expanded-write-{name}", f"(lambda e: ({call}, e.tolist())[1])({E})")
    # geometry of empty and one-element views, and of expanded 0-d tensors
    add(
        "empty-slice-offsets",
        "(lambda z: [z[4:].storage_offset(), z[2:2].storage_offset(), "
        "z[:, 3:].storage_offset(), z[1:, 1:][2:2].storage_offset(), z[::2][5:].storage_offset(),"
        " z.t()[1:1].storage_offset(), list(z[1:3:2][1:1].stride())])(M.zeros(4, 3))",
    )
    add(
        "view-one-element-strides",
        "[list(M.zeros(4)[::2][:1].view(1, 1).stride()), "
        "list(M.zeros(1).view(1, 1, 1).stride()), list(M.zeros(6)[::3][:1].view(()).stride())]",
    )
    add(
        "expand-0d-strides",
        "[list(M.tensor(1.).expand(*s).stride()) for s in "
        "[(1,), (3,), (1, 1), (1, 2), (2, 1), (1, 1, 1)]]",
    )
    # fill_ / full conversions of out-of-range values (one-element half fills are unchecked)
    for dt in (
        "int8",
        "uint8",
        "int32",
        "int64",
        "bool",
        "float16",
        "bfloat16",
        "float32",
        "complex64",
    ):
        for v in (
            "300",
            "-1",
            "-256",
            "2**40",
            "2**63",
            "2**64",
            "-2**63-1",
            "1e6",
            "127.9",
            "float('inf')",
            "float('nan')",
            "1e300",
            "1+2j",
            "65519.",
        ):
            for n in (1, 2):
                add(f"fill-{dt}-{v}-n{n}", f"M.zeros({n}, dtype=M.{dt}).fill_({v})")
    # broadcast errors name the last mismatching dimension of the pair
    for a, b in (
        ("(4, 3)", "(3, 4)"),
        ("(2, 3, 4)", "(5, 4)"),
        ("(3,)", "(2, 4)"),
        ("(2, 3)", "(4,)"),
        ("(1, 3)", "(2, 1, 4)"),
    ):
        add(f"broadcast-error-{a}-{b}", f"M.ones{a} + M.ones{b}")
    return c


def factory_cases() -> list[dict[str, Any]]:
    c: list[dict[str, Any]] = []

    def add(cid: str, expr: str, **kw: Any) -> None:
        c.append({"id": cid, "expr": expr, "ops": True, **kw})

    for name in ("zeros", "ones", "empty"):
        vals = name != "empty"
        for cid, args in (
            ("varargs", "2, 3"),
            ("tuple", "(2, 3)"),
            ("list", "[2, 3]"),
            ("size-kw", "size=(2, 3)"),
            ("Size", "M.Size([2, 3])"),
            ("0d", "()"),
            ("zero", "0"),
            ("int", "4"),
            ("np-int", "np.int64(2)"),
            ("tensor", "M.tensor(2)"),
            ("tensor-1el", "M.tensor([3])"),
            ("np-int-list", "[np.int32(2), 2]"),
            ("bool-varargs", "2, True"),
            ("dtype", "2, dtype=M.int32"),
            ("dtype-bool", "2, dtype=M.bool"),
            ("dtype-complex", "2, dtype=M.complex64"),
            ("dtype-bf16", "2, dtype=M.bfloat16"),
            ("dtype-py-int", "2, dtype=int"),
            ("dtype-py-float", "2, dtype=float"),
            ("dtype-py-bool", "2, dtype=bool"),
            ("dtype-py-complex", "2, dtype=complex"),
            ("meta", "2, 3, device='meta'"),
            ("requires-grad", "2, requires_grad=True"),
            ("requires-grad-int", "2, dtype=M.int64, requires_grad=True"),
            ("requires-grad-meta", "2, device='meta', requires_grad=True"),
            ("layout", "2, layout=M.strided"),
            ("cpu0", "2, device='cpu:0'"),
            ("noarg", ""),
            ("neg", "-1"),
            ("neg-2d", "2, -1"),
            ("float", "2.5"),
            ("float-varargs", "2, 2.5"),
            ("float-in-list", "[2.5]"),
            ("str", "'a'"),
            ("none", "None"),
            ("none-varargs", "2, None"),
            ("np-array", "np.array([2, 3])"),
            ("tensor-1d", "M.tensor([2, 3])"),
            ("float-tensor", "M.tensor(3.)"),
            ("np-float", "np.float64(3)"),
            ("bool", "True"),
            ("bool-in-list", "[True]"),
            ("range", "range(3)"),
            ("tuple-and-int", "(2,), 3"),
            ("int-and-tuple", "2, (3,)"),
            ("size-twice", "2, size=(2,)"),
            ("dtype-str", "2, dtype='float32'"),
            ("dtype-np", "2, dtype=np.float32"),
            ("device-bad", "2, device='foo'"),
            ("device-int", "2, device=0"),
            ("device-float", "2, device=1.5"),
            ("bad-kw", "2, foo=1"),
        ):
            add(f"{name}-{cid}", f"M.{name}({args})", values=vals)
    add("empty-channels-last", "M.empty(1, 2, 3, 4, memory_format=M.channels_last)", values=False)
    add("empty-channels-last-bad", "M.empty(2, 3, memory_format=M.channels_last)")
    add("zeros-memory-format", "M.zeros(2, memory_format=M.contiguous_format)")
    for name in ("zeros", "ones", "full", "empty"):
        fill = ", 3" if name == "full" else ""
        size = "(2, 2)" if name == "full" else "2, 2"
        vals = name != "empty"
        add(
            f"{name}-out",
            f"(lambda o: (M.{name}({size}{fill}, out=o), o._version, o))(M.empty(0))",
            values=vals,
            warnings=True,
        )
        add(
            f"{name}-out-same",
            f"(lambda o: (M.{name}({size}{fill}, out=o) is o, o._version))(M.empty(2, 2))",
        )
        add(
            f"{name}-out-resize-warn",
            f"(lambda o: M.{name}({size}{fill}, out=o).shape)(M.empty(3))",
            warnings=True,
        )
        add(
            f"{name}-out-dtype-mismatch",
            f"M.{name}({size}{fill}, out=M.empty(4, dtype=M.int32), dtype=M.float32)",
        )
        add(
            f"{name}-out-dtype-match",
            f"M.{name}({size}{fill}, out=M.empty(4, dtype=M.int32), dtype=M.int32)",
            values=vals,
        )
        add(f"{name}-out-device-mismatch", f"M.{name}({size}{fill}, out=M.empty(0), device='meta')")
        add(f"{name}-out-meta", f"M.{name}({size}{fill}, out=M.empty(0, device='meta'))")
        add(f"{name}-out-not-tensor", f"M.{name}({size}{fill}, out=[1])")
        add(
            f"{name}-out-requires-grad-leaf",
            f"M.{name}({size}{fill}, out=M.empty(4, requires_grad=True))",
        )
        add(
            f"{name}-out-requires-grad",
            f"M.{name}({size}{fill}, out=M.empty(4), requires_grad=True).requires_grad",
        )
        add(
            f"{name}-out-noncontig",
            f"(lambda o: M.{name}({size}{fill}, out=o).stride())"
            "(M.empty(2, 2).as_strided((2, 2), (1, 2)))",
        )
        add(
            f"{name}-out-view",
            f"(lambda b: (M.{name}((2,){fill}, out=b.as_strided((2,), (1,), "
            "1)), b.tolist()[0], b.tolist()[3]))(M.ones(4))",
            values=vals,
        )
    # full
    for cid, v in (
        ("int", "3"),
        ("float", "3."),
        ("bool", "True"),
        ("complex", "1j"),
        ("np-float64", "np.float64(1.5)"),
        ("np-int32", "np.int32(1)"),
        ("np-bool", "np.bool_(True)"),
        ("tensor", "M.tensor(1.5)"),
        ("tensor-f64", "M.tensor(1.5, dtype=M.float64)"),
        ("tensor-int", "M.tensor(2)"),
        ("tensor-1el", "M.tensor([2.5])"),
        ("nan", "float('nan')"),
        ("neg-inf", "float('-inf')"),
    ):
        add(f"full-{cid}", f"M.full((2,), {v})")
    for cid, expr in (
        ("dtype", "M.full((2,), 3, dtype=M.float64)"),
        ("int-size", "M.full(2, 3)"),
        ("varargs", "M.full(2, 3, 4)"),
        ("list-size", "M.full([2, 1], 3)"),
        ("size-kw", "M.full(size=(2,), fill_value=3)"),
        ("no-fill", "M.full((2,))"),
        ("str", "M.full((2,), 'a')"),
        ("none", "M.full((2,), None)"),
        ("list", "M.full((2,), [1])"),
        ("tensor-2el", "M.full((2,), M.ones(2))"),
        ("float-in-size", "M.full([2, 2.5], 3)"),
        ("bool-int", "M.full((2,), True, dtype=M.int32)"),
        ("float-int", "M.full((2,), 1.5, dtype=M.int32)"),
        ("neg-uint8", "M.full((2,), -1, dtype=M.uint8)"),
        ("256-uint8", "M.full((2,), 256, dtype=M.uint8)"),
        ("complex-float", "M.full((2,), 1j, dtype=M.float32)"),
        ("1e40-f32", "M.full((2,), 1e40, dtype=M.float32)"),
        ("1e5-f16", "M.full((2,), 1e5, dtype=M.float16)"),
        ("inf-int", "M.full((2,), float('inf'), dtype=M.int64)"),
        ("big-int", "M.full((2,), 2**63)"),
        ("2-bool", "M.full((2,), 2, dtype=M.bool)"),
        ("meta", "M.full((2,), 7, device='meta')"),
        ("neg", "M.full((-1,), 2.)"),
        ("requires-grad", "M.full((2,), 2., requires_grad=True)"),
        ("requires-grad-int", "M.full((2,), 2, requires_grad=True)"),
        ("default-f64", "M.full((2,), 2.5)"),
    ):
        kw = {}
        if cid == "default-f64":
            kw = {
                "setup": "M.set_default_dtype(M.float64)",
                "teardown": "M.set_default_dtype(M.float32)",
            }
        add(f"full-{cid}", expr, **kw)
    # *_like: preserve_format strides, dtype/device/requires_grad
    inputs = {
        "contig": "M.ones(2, 3)",
        "transposed": "M.ones(3, 2).as_strided((2, 3), (1, 2))",
        "expanded": "M.ones(3, 1).expand(3, 4)",
        "gaps": "M.ones(4, 6).as_strided((2, 3), (12, 2), 1)",
        "permuted": "M.ones(2, 3, 4).as_strided((4, 2, 3), (1, 12, 4))",
        "expand-transposed": "M.ones(2, 1, 3).expand(2, 4, 3).as_strided((3, 4, 2), (1, 0, 3))",
        "channels-last": "M.empty(2, 3, 4, 5, memory_format=M.channels_last)",
        "0d": "M.tensor(1.5)",
        "int": "M.arange(6).view(2, 3)",
        "empty": "M.ones(0, 3)",
        "meta": "M.ones(2, 3, device='meta')",
        "meta-transposed": "M.ones(3, 2, device='meta').as_strided((2, 3), (1, 2))",
        "bool": "M.ones(2, dtype=M.bool)",
        "requires-grad": "M.ones(2, requires_grad=True)",
    }
    for fn in ("empty_like", "zeros_like", "ones_like", "full_like", "rand_like", "randn_like"):
        extra = ", 7" if fn == "full_like" else ""
        vals = fn in ("zeros_like", "ones_like", "full_like")
        for cid, src in inputs.items():
            add(f"{fn}-of-{cid}", f"M.{fn}({src}{extra})", values=vals)
        add(f"{fn}-dtype", f"M.{fn}(M.ones(2){extra}, dtype=M.float64)", values=vals)
        add(f"{fn}-dtype-int", f"M.{fn}(M.ones(2){extra}, dtype=M.int64)", values=vals)
        add(f"{fn}-device", f"M.{fn}(M.ones(2){extra}, device='meta')")
        add(f"{fn}-requires-grad", f"M.{fn}(M.ones(2){extra}, requires_grad=True)", values=vals)
        add(
            f"{fn}-requires-grad-int",
            f"M.{fn}(M.ones(2){extra}, dtype=M.int64, requires_grad=True)",
        )
        add(
            f"{fn}-contiguous-format",
            f"M.{fn}(M.ones(3, 2).as_strided((2, 3), (1, 2)){extra}, "
            "memory_format=M.contiguous_format)",
            values=vals,
        )
        add(
            f"{fn}-channels-last",
            f"M.{fn}(M.empty(2, 3, 4, 5){extra}, memory_format=M.channels_last)",
            values=False,
        )
        add(f"{fn}-not-tensor", f"M.{fn}(3{extra})")
        add(
            f"{fn}-in-meta-context",
            f"(M.device('meta').__enter__(), M.{fn}(M.ones(2){extra}))[1]",
            values=vals,
            teardown="M.device('meta').__exit__(None, None, None)",
        )
    add("full_like-bool-value", "M.full_like(M.ones(2), True)")
    add("full_like-float-into-int", "M.full_like(M.ones(2, dtype=M.int32), 2.7)")
    add("full_like-no-value", "M.full_like(M.ones(2))")
    add("rand_like-int", "M.rand_like(M.ones(2, dtype=M.int64))")
    add("randn_like-int", "M.randn_like(M.ones(2, dtype=M.int64))")
    # arange
    for cid, args in (
        ("5", "5"),
        ("5.", "5."),
        ("1-5", "1, 5"),
        ("1-5-2", "1, 5, 2"),
        ("0-1-.1", "0, 1, .1"),
        ("1-2.5-.5", "1, 2.5, .5"),
        ("5-1--1", "5, 1, -1"),
        ("5-1--1.5", "5, 1, -1.5"),
        ("0--3--1", "0, -3, -1"),
        ("1-1", "1, 1"),
        ("bad-sign", "1, 5, -1"),
        ("zero-step", "1, 5, 0"),
        ("inf", "0, float('inf')"),
        ("nan", "0, float('nan')"),
        ("tensor", "M.tensor(3)"),
        ("tensor-float", "M.tensor(3.)"),
        ("np-int", "np.int64(3)"),
        ("np-float", "np.float32(3)"),
        ("np-float64", "np.float64(2.5)"),
        ("dtype", "5, dtype=M.float64"),
        ("float-int-dtype", "0, 2.5, 0.5, dtype=M.int32"),
        ("float-int-dtype2", "0.5, 5, 1.5, dtype=M.int64"),
        ("float-int-dtype3", "-0.5, 3.7, 1.2, dtype=M.int64"),
        ("int8", "0, 5, dtype=M.int8"),
        ("int8-wrap", "0, 300, 100, dtype=M.int8"),
        ("uint8-neg", "-2, 2, dtype=M.uint8"),
        ("big", "0, 1e20, 1e19"),
        ("f16", "0, 1, 0.25, dtype=M.float16"),
        ("f16-big", "0, 70000, 10000, dtype=M.float16"),
        ("bf16", "0, 3, dtype=M.bfloat16"),
        ("bool", "0, 2, dtype=M.bool"),
        ("complex", "0, 2, dtype=M.complex64"),
        ("large-int", "2**40, 2**40 + 3"),
        ("bool-arg", "True"),
        ("mixed", "0, 5, 2.0"),
        ("precision", "-1.0, 1.0, 0.1"),
        ("0.1", "0.1, 0.4, 0.1"),
        ("f64-steps", "1, 4, .3, dtype=M.float64"),
        ("count-0.3", "0, 0.3, 0.1"),
        ("count-0.6", "0, 0.6, 0.1"),
        ("count-0.7", "0, 0.7, 0.1"),
        ("count-1.0", "0, 1.0, 0.1"),
        ("count-2.1", "0, 2.1, 0.1"),
        ("count-1.3", "1.0, 1.3, 0.1"),
        ("count-third", "0, 1, 1/3"),
        ("count-neg", "-1, 1, 0.2"),
        ("end-kw", "end=5"),
        ("start-end-kw", "start=1, end=5"),
        ("step-kw", "1, 5, step=2"),
        ("str", "'a'"),
        ("noarg", ""),
        ("4-args", "1, 2, 3, 4"),
        ("none", "1, None"),
        ("complex-arg", "1j"),
        ("meta", "0, 1, .25, device='meta'"),
        ("requires-grad", "3., requires_grad=True"),
        ("requires-grad-int", "3, requires_grad=True"),
        ("huge-meta", "0, 2**62, 1, device='meta'"),
    ):
        add(f"arange-{cid}", f"M.arange({args})", values=cid != "huge-meta")
    add("arange-out", "(lambda o: (M.arange(3, out=o), o._version))(M.empty(5))", warnings=True)
    add("arange-out-same", "(lambda o: M.arange(3, out=o) is o)(M.empty(3, dtype=M.int64))")
    # linspace
    for cid, args in (
        ("5", "0, 1, 5"),
        ("int", "0, 10, 4, dtype=M.int64"),
        ("1", "3, 10, 1"),
        ("0", "3, 10, 0"),
        ("neg", "3, 10, -1"),
        ("tensor", "M.tensor(0.), M.tensor(1.), 3"),
        ("f64", "0, 1, 7, dtype=M.float64"),
        ("f32", "-1, 1, 7"),
        ("complex", "0, 1+1j, 3"),
        ("int-args", "0, 4, 5"),
        ("int-neg", "10, 0, 4, dtype=M.int32"),
        ("steps-float", "0, 1, 2.5"),
        ("no-steps", "0, 1"),
        ("bool", "0, 1, 3, dtype=M.bool"),
        ("int8", "-5, 5, 4, dtype=M.int8"),
        ("uint8", "0, 255, 4, dtype=M.uint8"),
        ("f16", "0, 1, 5, dtype=M.float16"),
        ("int32-10", "1, 10, 10, dtype=M.int32"),
        ("2", "2, 5, 2"),
        ("np-args", "np.float64(0), 1, 3"),
        ("meta", "0, 1, 4, device='meta'"),
        ("requires-grad", "0, 1, 3, requires_grad=True"),
        ("long", "0, 1, 100"),
        ("reverse", "1, -1, 9, dtype=M.float64"),
    ):
        add(f"linspace-{cid}", f"M.linspace({args})")
    add("linspace-out", "(lambda o: M.linspace(0, 1, 3, out=o))(M.empty(3))")
    # eye
    for cid, args in (
        ("3", "3"),
        ("2-3", "2, 3, dtype=M.int32"),
        ("neg", "-1"),
        ("m-neg", "2, -1"),
        ("float", "2.5"),
        ("0", "0"),
        ("bool", "2, dtype=M.bool"),
        ("complex", "2, dtype=M.complex64"),
        ("meta", "3, device='meta'"),
        ("3-1", "3, 1"),
        ("requires-grad", "2, requires_grad=True"),
    ):
        add(f"eye-{cid}", f"M.eye({args})")
    add("eye-out", "(lambda o: (M.eye(2, out=o), o._version))(M.empty(5))", warnings=True)
    # scalar_tensor, empty_strided
    for cid, args in (
        ("int", "3"),
        ("bool", "True"),
        ("complex", "1j"),
        ("dtype", "3, dtype=M.int64"),
        ("tensor", "M.tensor(2)"),
        ("none", "None"),
        ("float-int", "2.5, dtype=M.int32"),
        ("meta", "2., device='meta'"),
        ("requires-grad", "2., requires_grad=True"),
        ("np", "np.float64(2.5)"),
    ):
        add(f"scalar_tensor-{cid}", f"M.scalar_tensor({args})")
    for cid, args in (
        ("basic", "(2, 3), (1, 2)"),
        ("mismatch", "(2, 3), (1,)"),
        ("neg", "(2, -1), (1, 1)"),
        ("neg-stride", "(2, 3), (-1, 1)"),
        ("overlap", "(2, 3), (0, 0)"),
        ("gaps", "(2, 3), (10, 2)"),
        ("zero", "(2, 0), (10, 2)"),
        ("dtype", "(2,), (3,), dtype=M.int16"),
        ("meta", "(2, 3), (1, 2), device='meta'"),
        ("int-size", "2, (1,)"),
        ("requires-grad", "(2,), (1,), requires_grad=True"),
    ):
        add(f"empty_strided-{cid}", f"M.empty_strided({args})", values=False)
    add("empty_strided-storage", "M.empty_strided((2, 3), (10, 2)).untyped_storage().nbytes()")
    add(
        "empty_strided-storage-overlap",
        "M.empty_strided((2, 3), (0, 0)).untyped_storage().nbytes()",
    )
    add("empty_strided-storage-zero", "M.empty_strided((2, 0), (10, 2)).untyped_storage().nbytes()")
    # random factories: metadata, errors and ranges only (keyroute's numbers are its own)
    for cid, expr in (
        ("rand", "M.rand(2, 3)"),
        ("rand-generator", "M.rand(2, generator=M.Generator())"),
        ("rand-f16", "M.rand(2, dtype=M.float16)"),
        ("rand-bf16", "M.rand(2, dtype=M.bfloat16)"),
        ("rand-f64", "M.rand(2, dtype=M.float64)"),
        ("rand-c64", "M.rand(2, dtype=M.complex64)"),
        ("rand-int", "M.rand(2, dtype=M.int64)"),
        ("rand-bad-gen", "M.rand(2, generator=3)"),
        ("rand-meta", "M.rand(2, device='meta')"),
        ("rand-neg", "M.rand(-1)"),
        ("rand-requires-grad", "M.rand(2, requires_grad=True)"),
        ("randn", "M.randn(2)"),
        ("randn-int", "M.randn(2, dtype=M.int32)"),
        ("randn-c64", "M.randn(2, dtype=M.complex64)"),
        ("randn-generator", "M.randn(2, 3, generator=M.Generator())"),
        ("randint", "M.randint(10, (3,))"),
        ("randint-low", "M.randint(3, 10, (3,))"),
        ("randint-gen", "M.randint(10, (3,), generator=M.Generator())"),
        ("randint-low-gen", "M.randint(3, 10, (3,), generator=M.Generator())"),
        ("randint-bad", "M.randint(10, 3, (3,))"),
        ("randint-eq", "M.randint(3, 3, (2,))"),
        ("randint-dtype", "M.randint(10, (3,), dtype=M.float32)"),
        ("randint-int-size", "M.randint(10, 3)"),
        ("randint-size-kw", "M.randint(10, size=(3,))"),
        ("randint-high-kw", "M.randint(high=3, size=(2,))"),
        ("randint-low-kw", "M.randint(low=1, high=3, size=(2,))"),
        ("randint-one-arg", "M.randint(3)"),
        ("randint-float", "M.randint(0.5, 3.5, (2,))"),
        ("randint-bool", "M.randint(0, 2, (5,), dtype=M.bool)"),
        ("randint-int8-range", "M.randint(0, 300, (2,), dtype=M.int8)"),
        ("randint-f16-range", "M.randint(0, 70000, (2,), dtype=M.float16)"),
        ("randint-meta", "M.randint(3, (2,), device='meta')"),
        ("randperm", "M.randperm(4)"),
        ("randperm-gen", "M.randperm(4, generator=M.Generator())"),
        ("randperm-neg", "M.randperm(-1)"),
        ("randperm-0", "M.randperm(0)"),
        ("randperm-float", "M.randperm(4, dtype=M.float32)"),
        ("randperm-int8-big", "M.randperm(200, dtype=M.int8)"),
        ("randperm-f16-big", "M.randperm(3000, dtype=M.float16)"),
        ("randperm-bool", "M.randperm(3, dtype=M.bool)"),
        ("randperm-meta", "M.randperm(3, device='meta')"),
    ):
        add(f"random-{cid}", expr, values=False)
    # the default device: with device(...) and set_default_device
    ctx = [
        ("meta-zeros", "meta", "M.zeros(2)"),
        ("meta-tensor", "meta", "M.tensor([1, 2])"),
        ("meta-arange", "meta", "M.arange(3)"),
        ("meta-full", "meta", "M.full((2,), 1)"),
        ("meta-eye", "meta", "M.eye(2)"),
        ("meta-linspace", "meta", "M.linspace(0, 1, 3)"),
        ("meta-rand", "meta", "M.rand(2)"),
        ("meta-randint", "meta", "M.randint(3, (2,))"),
        ("meta-randperm", "meta", "M.randperm(3)"),
        ("meta-empty-strided", "meta", "M.empty_strided((2,), (1,))"),
        ("meta-scalar-tensor", "meta", "M.scalar_tensor(1)"),
        ("meta-as-tensor", "meta", "M.as_tensor([1.])"),
        ("meta-from-numpy", "meta", "M.from_numpy(np.ones(2))"),
        ("meta-zeros-like-cpu", "meta", "M.zeros_like(M.ones(1, device='cpu'))"),
        ("meta-explicit-cpu", "meta", "M.zeros(2, device='cpu')"),
        ("meta-as-tensor-np", "meta", "M.as_tensor(np.ones(2))"),
        ("meta-tensor-of-tensor", "meta", "M.tensor(M.ones(2, device='cpu'))"),
        ("meta-default-device", "meta", "M.get_default_device()"),
        ("cpu0-default-device", "cpu:0", "M.get_default_device()"),
        ("cpu0-zeros", "cpu:0", "M.zeros(1)"),
    ]
    for cid, dev, expr in ctx:
        add(
            f"context-{cid}",
            f"(lambda d: (d.__enter__(), {expr})[1])(M.device({dev!r}))",
            teardown=f"M.device({dev!r}).__exit__(None, None, None)",
            ops=False,
            warnings=cid == "meta-tensor-of-tensor",
        )
    add(
        "context-nested",
        "(lambda: [(a.__enter__(), (M.zeros(1).device.type, (b.__enter__(), "
        "M.zeros(1).device.type, b.__exit__(None, None, None))[1], M.zeros(1).device.type), "
        "a.__exit__(None, None, None))[1] for a, b in [(M.device('meta'), M.device('cpu'))]])()"
        "[0] + (M.zeros(1).device.type,)",
        ops=False,
    )
    add("default-device-plain", "M.get_default_device()", ops=False)
    add(
        "set-default-device",
        "(M.set_default_device('meta'), M.get_default_device(), "
        "M.zeros(1).device, repr(M.ones(1)), M.ones(1, device='cpu').device)",
        ops=False,
        teardown="M.set_default_device(None)",
    )
    add(
        "set-default-device-none",
        "(M.set_default_device('meta'), M.set_default_device(None), "
        "M.get_default_device(), M.zeros(1).device)",
        ops=False,
        teardown="M.set_default_device(None)",
    )
    add(
        "set-default-device-cpu",
        "(M.set_default_device('cpu'), M.get_default_device())",
        ops=False,
        teardown="M.set_default_device(None)",
    )
    add(
        "set-default-device-then-with",
        "(M.set_default_device('meta'), (lambda d: (d.__enter__"
        "(), M.zeros(1).device, d.__exit__(None, None, None))[1])(M.device('cpu')), "
        "M.zeros(1).device)",
        ops=False,
        teardown="M.set_default_device(None)",
    )
    return c


def main() -> None:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    torch.set_num_threads(1)
    data: dict[str, Any] = {"torch_version": torch.__version__}
    rcases = repr_cases()
    for case in rcases:
        case["expected"] = run_repr(torch, case)
    data["repr"] = rcases
    for section, cases in (
        ("dispatch_keys", dispatch_key_cases()),
        ("api", api_cases()),
        ("factories", factory_cases()),
    ):
        ids = [c["id"] for c in cases]
        assert len(ids) == len(set(ids)), f"duplicate ids in {section}"
        for case in cases:
            torch.manual_seed(0)
            case["expected"] = run_case(torch, TorchDispatchMode, case)
        data[section] = cases
    with open(OUT, "w") as f:
        json.dump(data, f, indent=0, sort_keys=True)
        f.write("\n")
    counts = {k: len(v) for k, v in data.items() if isinstance(v, list)}
    print(f"wrote {OUT}: {counts}, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
