"""Operators under CUDA autocast on fake "cuda" tensors, run under PyTorch 2.13's CPU build
(tools/record_autocast_cuda.py) and keyroute (tests/layers/test_autocast_cuda.py).

PyTorch's AutocastCUDA kernels (aten/src/ATen/autocast_mode.cpp, the AT_FORALL_* lists of
autocast_mode.h) are compiled into its CPU build too, so its CUDA policy is data that runs
without a GPU: `set_autocast_enabled("cuda", True)` (the context manager refuses, as CUDA is not
available) with FakeTensorMode tensors on `cuda:0`. The cases are tests/layers/autocast_cases.py's
operators plus the ones only the CUDA lists name; each case gives the output dtypes (or the
error) and the aten calls a dispatch mode sees below the Autocast layer, `_to_copy` with its
dtype and any explicit `dtype=` a call receives. PyTorch's log also holds `prim.device` calls
(a FakeTensor answers C++ `device()` queries through Python dispatch, autocast's eligibility
test among them): they are a FakeTensor detail, not autocast's, and are left out.
"""

from __future__ import annotations

import sys
from typing import Any

from .autocast_cases import CASES as CPU_CASES
from .autocast_cases import VARIANTS, _dtypes

# Operators the CUDA lists name that the CPU cases do not cover.
EXTRA: dict[str, tuple[str, list[Any]]] = {
    "mv_cuda": ("torch.mv({0}, {1})", [(2, 3), (3,)]),
    "addr": ("torch.addr({0}, {1}, {2})", [(2, 3), (2,), (3,)]),
    "chain_matmul": ("torch.linalg.multi_dot([{0}, {1}, {2}])", [(2, 3), (3, 4), (4, 2)]),
    "acos": ("torch.acos({0})", [(3,)]),
    "asin": ("torch.asin({0})", [(3,)]),
    "cosh": ("torch.cosh({0})", [(3,)]),
    "expm1": ("torch.expm1({0})", [(3,)]),
    "log2": ("torch.log2({0}.abs() + 1)", [(3,)]),
    "log10": ("torch.log10({0}.abs() + 1)", [(3,)]),
    "log1p": ("torch.log1p({0}.abs())", [(3,)]),
    "reciprocal": ("torch.reciprocal({0} + 2)", [(3,)]),
    "rsqrt": ("torch.rsqrt({0}.abs() + 1)", [(3,)]),
    "sinh": ("torch.sinh({0})", [(3,)]),
    "tan": ("torch.tan({0})", [(3,)]),
    "pow_tensor": ("torch.pow({0}, {1})", [(3,), (3,)]),
    "pow_scalar_base": ("torch.pow(2, {0})", [(3,)]),
    "softplus": ("F.softplus({0})", [(3,)]),
    "group_norm": ("F.group_norm({0}, 2)", [(1, 4, 3)]),
    "cosine_similarity": ("F.cosine_similarity({0}, {1})", [(2, 3), (2, 3)]),
    "dist": ("torch.dist({0}, {1})", [(3,), (3,)]),
    "logsumexp": ("torch.logsumexp({0}, 1)", [(2, 3)]),
    "renorm": ("torch.renorm({0}, 2, 0, 1.0)", [(2, 3)]),
    "sum_dim": ("torch.sum({0}, 1)", [(2, 3)]),
    "sum_dtype": ("torch.sum({0}, dtype=torch.float64)", [(2, 3)]),
    "softmax_dtype": ("torch.softmax({0}, -1, dtype=torch.float64)", [(2, 3)]),
    "cumprod": ("torch.cumprod({0}, 0)", [(3,)]),
    "vector_norm": ("torch.linalg.vector_norm({0})", [(2, 3)]),
    "norm_dim": ("torch.norm({0}, dim=1)", [(2, 3)]),
    "norm_p1": ("torch.norm({0}, 1)", [(2, 3)]),
    "addcdiv": ("torch.addcdiv({0}, {1}, {2} + 2)", [(3,), (3,), (3,)]),
    "atan2": ("torch.atan2({0}, {1})", [(3,), (3,)]),
    "cross": ("torch.linalg.cross({0}, {1})", [(2, 3), (2, 3)]),
    "vdot": ("torch.vdot({0}, {1})", [(3,), (3,)]),
    "tensordot": ("torch.tensordot({0}, {1}, 1)", [(2, 3), (3, 2)]),
    "scatter_add": ("torch.scatter_add({0}, 0, {2}, {1})", [(3,), (2,), ("long", (2,), 3)]),
    "index_put": ("{0}.index_put(({2},), {1})", [(3,), (2,), ("long", (2,), 3)]),
    "bilinear": ("F.bilinear({0}, {1}, {2})", [(2, 3), (2, 4), (5, 3, 4)]),
    "norm_scalar_op": ("torch.ops.aten.norm.Scalar({0})", [(2, 3)]),
    "norm_dim_op": ("torch.ops.aten.norm.ScalarOpt_dim({0}, 2, [1])", [(2, 3)]),
    # the CPU case's eye is a CPU tensor: here it is made on the input's device
    "inverse": ("torch.inverse({0} + 3 * torch.eye(3, dtype={0}.dtype, device='cuda'))", [(3, 3)]),
}

# nn_linear_module is left out: its parameters require grad, and PyTorch's CPU build aborts
# building an AccumulateGrad for a fake cuda tensor (no CUDA device guard), so the CUDA
# weight-cast cache cannot be recorded there; the CPU programs record the cache.
CASES: dict[str, tuple[str, list[Any]]] = {
    **{k: v for k, v in CPU_CASES.items() if k != "nn_linear_module"},
    **EXTRA,
}
AUTOCAST_DTYPES = ("float16", "bfloat16")


def _inputs(torch: Any, specs: list[Any], variant: str, low: Any) -> list[Any]:
    out = []
    first = True
    for spec in specs:
        if isinstance(spec, tuple) and spec and spec[0] == "long":
            _, shape, high = spec
            n = 1
            for s in shape:
                n *= s
            out.append((torch.arange(n, device="cuda") * 7 % high).reshape(shape))
            continue
        if isinstance(spec, tuple) and spec and spec[0] == "bool":
            n = 1
            for s in spec[1]:
                n *= s
            out.append((torch.arange(n, device="cuda") % 2 == 0).reshape(spec[1]))
            continue
        if variant == "fp32" or (variant == "mixed" and first):
            dtype = torch.float32
        elif variant == "fp64":
            dtype = torch.float64
        else:
            dtype = low
        first = False
        out.append(torch.empty(spec, dtype=dtype, device="cuda"))
    return out


def _mode_class(torch: Any) -> Any:
    base = sys.modules[torch.__name__ + ".utils._python_dispatch"].TorchDispatchMode

    class Log(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[str] = []

        def __torch_dispatch__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            kwargs = kwargs or {}
            name = str(func).replace(torch.__name__ + ".", "")
            if not name.startswith("prim."):
                if kwargs.get("dtype") is not None:
                    name += f"({str(kwargs['dtype']).rpartition('.')[2]})"
                dts = [a for a in args if isinstance(a, torch.dtype)]
                if dts:  # norm's fp32_append_dtype passes the dtype positionally
                    name += f"[{str(dts[-1]).rpartition('.')[2]}]"
                self.calls.append(name)
            return func(*args, **kwargs)

    return Log


def run_case(name: str, torch: Any, acdtype: str, variant: str) -> dict[str, Any]:
    call, specs = CASES[name]
    low = getattr(torch, acdtype)
    F = sys.modules[torch.__name__ + ".nn.functional"]
    fake = sys.modules[torch.__name__ + "._subclasses.fake_tensor"]
    with fake.FakeTensorMode(allow_non_fake_inputs=True):
        args = _inputs(torch, specs, variant, low)
        env = {"torch": torch, "F": F}
        env.update({f"_a{i}": a for i, a in enumerate(args)})
        code = call.format(*[f"_a{i}" for i in range(len(args))])
        mode = _mode_class(torch)()
        prev = torch.get_autocast_dtype("cuda")
        torch.set_autocast_enabled("cuda", True)
        torch.set_autocast_dtype("cuda", low)
        torch.autocast_increment_nesting()
        try:
            with mode:
                out = eval(code, env)  # noqa: S307 - the case's own expression
        except Exception as e:  # the error is the recorded outcome
            return {"error": type(e).__name__, "msg": str(e).split("\n")[0]}
        finally:
            if torch.autocast_decrement_nesting() == 0:
                torch.clear_autocast_cache()
            torch.set_autocast_enabled("cuda", False)
            torch.set_autocast_dtype("cuda", prev)
    return {"dtype": _dtypes(out, torch), "device": _devices(out, torch), "log": mode.calls}


def _devices(value: Any, torch: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.device.type
    if isinstance(value, (tuple, list)):
        return [_devices(v, torch) for v in value]
    return None


__all__ = ["CASES", "VARIANTS", "AUTOCAST_DTYPES", "run_case"]
