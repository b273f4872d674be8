# ruff: noqa: E501  (case expressions are kept on one line each, as recorded)
"""Record what PyTorch's CPU build answers for its device and stand-in modules (torch.cuda,
torch.backends, torch.accelerator, torch.mps, torch.amp, torch.jit, torch.onnx, torch.Tag,
torch.__future__) into tests/data/runtime/modules.json, and which function a
TorchFunctionMode sees for each Tensor operator dunder into tests/data/runtime/dunders.json.

Each case is an expression evaluated with `torch` bound to PyTorch; the tests evaluate the same
text with `torch` bound to keyroute (printing its names as `torch.`).
"""

from __future__ import annotations

import json
import pathlib
import warnings

CASES = [
    "torch.cuda.is_available()",
    "torch.cuda.device_count()",
    "torch.cuda.manual_seed(1)",
    "torch.cuda.manual_seed_all(1)",
    "torch.cuda.is_initialized()",
    "torch.cuda.synchronize()",
    "torch.cuda.current_device()",
    "torch.cuda.get_device_name(0)",
    "torch.cuda.get_device_capability()",
    "torch.cuda.empty_cache()",
    "torch.cuda.memory_allocated()",
    "torch.cuda.max_memory_allocated()",
    "torch.cuda.is_bf16_supported()",
    "torch.cuda.initial_seed()",
    "torch.cuda.get_rng_state()",
    "torch.cuda.Stream()",
    "torch.cuda.Event()",
    "torch.cuda.current_stream()",
    "torch.accelerator.is_available()",
    "torch.accelerator.current_accelerator()",
    "torch.accelerator.device_count()",
    "torch.accelerator.current_device_index()",
    "torch.accelerator.synchronize()",
    "torch.backends.mps.is_available()",
    "torch.backends.mps.is_built()",
    "torch.backends.cudnn.is_available()",
    "torch.backends.cudnn.enabled",
    "torch.backends.cudnn.benchmark",
    "torch.backends.cudnn.deterministic",
    "torch.backends.cudnn.allow_tf32",
    "torch.backends.cudnn.version()",
    "torch.backends.cudnn.is_acceptable(torch.ones(1))",
    "torch.backends.mkldnn.enabled",
    "torch.backends.opt_einsum.is_available()",
    "torch.backends.opt_einsum.enabled",
    "torch.backends.opt_einsum.strategy",
    "torch.backends.cuda.is_built()",
    "torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.flash_sdp_enabled()",
    "torch.backends.cuda.math_sdp_enabled()",
    "torch.backends.cuda.mem_efficient_sdp_enabled()",
    "torch.backends.fp32_precision",
    "torch.mps.device_count()",
    "torch.mps.manual_seed(1)",
    "torch.mps.synchronize()",
    "torch.amp.GradScaler('cuda').is_enabled()",
    "torch.amp.GradScaler('cuda').get_scale()",
    "torch.amp.GradScaler('cuda').scale(torch.ones(2))",
    "torch.amp.GradScaler('cuda').state_dict()",
    "torch.cuda.amp.GradScaler().is_enabled()",
    "torch.amp.autocast('cuda').__enter__() is not None",
    "torch.autocast('cpu', enabled=False).__enter__() is not None",
    "torch.amp.autocast('tpu')",
    "torch.amp.autocast(1)",
    "torch.jit.is_scripting()",
    "torch.jit.is_tracing()",
    "torch.jit.annotate(int, 3)",
    "torch.distributed.is_initialized() if torch.distributed.is_available() else False",
    "torch.onnx.is_in_onnx_export()",
    "torch.Tag.core",
    "str(torch.Tag.pointwise)",
    "len(torch.Tag.__members__)",
    "torch.__future__.get_overwrite_module_params_on_conversion()",
    "torch.__future__.get_swap_module_params_on_conversion()",
]


def outcome(expr: str) -> dict[str, object]:
    import torch.__future__  # noqa: F401

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(expr)  # noqa: S307  (our own case list)
        except Exception as e:  # noqa: BLE001
            return {"error": type(e).__name__, "message": str(e)}
    return {"value": repr(value)}


DUNDER_OPERANDS = {
    "__neg__": 1,
    "__pos__": 1,
    "__abs__": 1,
    "__invert__": 1,
    "__getitem__": "index",
    "__setitem__": "setindex",
    "__float__": 0,
    "__int__": 0,
    "__bool__": 0,
    "__len__": 1,
    "__format__": "format",
}
BITWISE = (
    "__invert__",
    "__and__",
    "__rand__",
    "__iand__",
    "__or__",
    "__ror__",
    "__ior__",
    "__xor__",
    "__rxor__",
    "__ixor__",
    "__lshift__",
    "__rlshift__",
    "__ilshift__",
    "__rshift__",
    "__rrshift__",
    "__irshift__",
)
DUNDERS = [
    "__neg__",
    "__pos__",
    "__abs__",
    "__invert__",
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__truediv__",
    "__rtruediv__",
    "__floordiv__",
    "__rfloordiv__",
    "__mod__",
    "__rmod__",
    "__pow__",
    "__rpow__",
    "__iadd__",
    "__isub__",
    "__imul__",
    "__itruediv__",
    "__ifloordiv__",
    "__imod__",
    "__ipow__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    *BITWISE[1:],
    "__matmul__",
    "__rmatmul__",
    "__getitem__",
    "__setitem__",
    "__float__",
    "__int__",
    "__bool__",
    "__len__",
    "__format__",
]


def dunder_calls(torch_module: object, name: str) -> list[str]:
    """The names a TorchFunctionMode sees when Tensor.<name> is called (shared with the test)."""
    t = torch_module
    seen: list[str] = []

    class Log(t.overrides.TorchFunctionMode):  # type: ignore[attr-defined, name-defined]
        def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
            seen.append(t.overrides.resolve_name(func))  # type: ignore[attr-defined]
            return func(*args, **(kwargs or {}))

    x = t.ones(2, dtype=t.int64) if name in BITWISE else t.ones(2)  # type: ignore[attr-defined]
    if name in ("__float__", "__int__", "__bool__"):
        x = t.tensor(1.0)  # type: ignore[attr-defined]
    y = x.clone()
    kind = DUNDER_OPERANDS.get(name, 2)
    with Log():
        # Looked up inside the mode, as `x + y` looks up Tensor.__add__ when it runs.
        f = getattr(t.Tensor, name)  # type: ignore[attr-defined]
        if kind == "index":
            f(x, 0)
        elif kind == "setindex":
            f(x, 0, 1)
        elif kind == "format":
            f(x, "")
        elif kind in (0, 1):
            f(x)
        else:
            f(x, y)
    return seen


def main() -> None:
    # Imported here, not at the top: the tests import dunder_calls from this file without torch.
    import torch

    root = pathlib.Path(__file__).resolve().parents[1] / "tests/data/runtime"
    out = {"torch_version": torch.__version__, "cases": {e: outcome(e) for e in CASES}}
    (root / "modules.json").write_text(json.dumps(out, indent=1) + "\n")
    dunders = {n: dunder_calls(torch, n) for n in DUNDERS}
    (root / "dunders.json").write_text(json.dumps(dunders, indent=1) + "\n")
    print(f"wrote {len(CASES)} module cases, {len(dunders)} dunders")


if __name__ == "__main__":
    main()
