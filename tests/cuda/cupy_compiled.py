"""The fused-group emitter's CUDA C++ (keyroute/_inductor/cupy_codegen.py), compiled by real
compilers instead of read as Python (tests/cuda/cupy_standin.py reads it as Python).

Each stage is wrapped the way CuPy wraps an `ElementwiseKernel` / `ReductionKernel`: inputs are
`const T` values per element, outputs `T &` references, a reduction folds `a = reduce(a, map)`
from `identity` and ends with `post_map_expr`. The same wrapped source is

- compiled for the device by `nvcc -ptx` (syntax, types, the CUDA intrinsics of HELPERS), and
- compiled for the host by the C++ compiler, with `__device__` and the three CUDA intrinsics the
  preamble uses defined for the CPU, and run through ctypes: a module with CuPy's
  `ElementwiseKernel` / `ReductionKernel` / `broadcast_to` signature, so `GroupKernels.run`
  itself drives it. Float arithmetic is C++'s (float stays float), not NumPy's.

No GPU is needed; the tests skip, naming the missing compiler, where nvcc or g++ is absent."""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from typing import Any

import numpy as np

_CT = {"float32": "float", "float64": "double", "bool": "bool"}
_NP = {"float32": np.float32, "float64": np.float64, "bool": np.bool_}

#: What CUDA provides and a host compiler lacks, for the host build only.
_HOST_PRELUDE = """\
#include <cmath>
#include <cstring>
#define __device__ static inline
static inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
static inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
using std::sqrt; using std::pow; using std::fabs;
"""

_DIR = tempfile.mkdtemp(prefix="kr_cupy_compiled_")


def _params(text: str) -> list[tuple[str, str]]:
    """CuPy's parameter list "float32 in0, bool in1" as [(dtype, name)]."""
    out = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(float32|float64|bool)\s+(\w+)\s*", part)
        if m is None:
            raise ValueError(f"not a parameter of the emitter's types: {part!r}")
        out.append((m.group(1), m.group(2)))
    return out


def elementwise_source(ins: str, outs: str, operation: str, name: str, preamble: str) -> str:
    i_params, o_params = (_params(ins) if ins.strip() else []), _params(outs)
    args = [f"const {_CT[t]}* __restrict__ p_{n}" for t, n in i_params]
    args += [f"{_CT[t]}* __restrict__ p_{n}" for t, n in o_params]
    loads = "".join(f"    const {_CT[t]} {n} = p_{n}[i];\n" for t, n in i_params)
    refs = "".join(f"    {_CT[t]} &{n} = p_{n}[i];\n" for t, n in o_params)
    return (
        f'{preamble}\nextern "C" KR_GLOBAL void {name}({", ".join(args + ["long long n"])}) {{\n'
        "  KR_LOOP(i, n) {\n"
        f"{loads}{refs}    {operation.replace(chr(10), chr(10) + '    ')}\n  }}\n}}\n"
    )


def reduction_source(
    ins: str,
    outs: str,
    map_expr: str,
    reduce_expr: str,
    post: str,
    identity: str,
    name: str,
    preamble: str,
) -> str:
    i_params, o_params = _params(ins), _params(outs)
    ((ot, on),) = o_params
    ct = _CT[ot]
    args = [f"const {_CT[t]}* __restrict__ p_{n}" for t, n in i_params]
    args += [f"{ct}* __restrict__ p_{on}", "long long rows", "long long n"]
    loads = "".join(f"      const {_CT[t]} {n} = p_{n}[r * n + j];\n" for t, n in i_params)
    return (
        f'{preamble}\nextern "C" KR_GLOBAL void {name}({", ".join(args)}) {{\n'
        "  KR_LOOP(r, rows) {\n"
        f"    {ct} a = ({ct})({identity});\n"
        "    for (long long j = 0; j < n; ++j) {\n"
        f"{loads}      {ct} b = {map_expr};\n      a = {reduce_expr};\n    }}\n"
        f"    {ct} &{on} = p_{on}[r];\n    {post};\n  }}\n}}\n"
    )


_DEVICE_MACROS = (
    "#define KR_GLOBAL __global__\n"
    "#define KR_LOOP(i, n) for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;"
    " i < (n); i += (long long)blockDim.x * gridDim.x)\n"
)
_HOST_MACROS = "#define KR_GLOBAL\n#define KR_LOOP(i, n) for (long long i = 0; i < (n); ++i)\n"


def _compile(cmd: list[str], src: str, suffix: str, out_suffix: str) -> str:
    key = hashlib.sha1((" ".join(cmd) + src).encode()).hexdigest()[:16]
    path = os.path.join(_DIR, key + suffix)
    out = os.path.join(_DIR, key + out_suffix)
    if not os.path.exists(out):
        with open(path, "w") as f:
            f.write(src)
        res = subprocess.run([*cmd, path, "-o", out], capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"{cmd[0]} refused the generated source:\n{res.stderr}\n{src}")
    return out


def nvcc_ptx(src: str) -> str:
    """PTX text of `src` (device build); raises RuntimeError with nvcc's message."""
    out = _compile(["nvcc", "-ptx", "-arch=compute_75"], _DEVICE_MACROS + src, ".cu", ".ptx")
    with open(out) as f:
        return f.read()


def have(tool: str) -> bool:
    return shutil.which(tool) is not None


class _HostKernel:
    def __init__(self, ins: str, outs: str, src: str, name: str, reduction: bool) -> None:
        so = _compile(
            ["g++", "-O1", "-shared", "-fPIC", "-x", "c++"],
            _HOST_PRELUDE + _HOST_MACROS + src,
            ".cpp",
            ".so",
        )
        self.fn = getattr(ctypes.CDLL(so), name)
        self.ins = _params(ins) if ins.strip() else []
        self.outs = _params(outs)
        self.reduction = reduction
        self.src = src

    def __call__(self, *args: Any, size: int | None = None, axis: int | None = None) -> Any:
        if len(args) != len(self.ins):
            raise TypeError(f"expected {len(self.ins)} arguments, got {len(args)}")
        arrays = []
        for (t, n), a in zip(self.ins, args):
            a = np.asarray(a)
            if a.dtype != _NP[t]:
                raise TypeError(f"parameter {n} is {t}, got {a.dtype}")
            arrays.append(np.ascontiguousarray(a))
        shape = arrays[0].shape if arrays else (size,)
        if self.reduction:
            if axis != 1 or len(shape) != 2:
                raise ValueError("the emitter's reductions run over axis 1 of (R, N)")
            rows, n = shape
            ((t, _n),) = self.outs
            out = np.empty(rows, _NP[t])
            self.fn(
                *[a.ctypes.data_as(ctypes.c_void_p) for a in arrays],
                out.ctypes.data_as(ctypes.c_void_p),
                ctypes.c_longlong(rows),
                ctypes.c_longlong(n),
            )
            return out
        outs = [np.empty(shape, _NP[t]) for t, _n in self.outs]
        self.fn(
            *[a.ctypes.data_as(ctypes.c_void_p) for a in arrays + outs],
            ctypes.c_longlong(int(np.prod(shape))),
        )
        return outs[0] if len(outs) == 1 else tuple(outs)


class HostCuPy:
    """The three names of CuPy's API that `GroupKernels.run` calls, on host-compiled kernels."""

    broadcast_to = staticmethod(np.broadcast_to)

    def ElementwiseKernel(  # noqa: N802 - CuPy's name
        self, ins: str, outs: str, operation: str, name: str, *, preamble: str = ""
    ) -> _HostKernel:
        src = elementwise_source(ins, outs, operation, name, preamble)
        return _HostKernel(ins, outs, src, name, reduction=False)

    def ReductionKernel(  # noqa: N802 - CuPy's name
        self,
        ins: str,
        outs: str,
        map_expr: str,
        reduce_expr: str,
        post_map_expr: str,
        identity: str,
        name: str,
        *,
        preamble: str = "",
    ) -> _HostKernel:
        src = reduction_source(
            ins, outs, map_expr, reduce_expr, post_map_expr, identity, name, preamble
        )
        return _HostKernel(ins, outs, src, name, reduction=True)


def stage_source(stage: Any) -> str:
    """The wrapped CUDA C++ of one `cupy_codegen.Stage`."""
    if stage.kind == "elementwise":
        return elementwise_source(
            stage.in_params, stage.out_params, stage.operation, stage.name, stage.preamble
        )
    return reduction_source(
        stage.in_params,
        stage.out_params,
        stage.map_expr,
        stage.reduce_expr,
        stage.post_map_expr,
        stage.identity,
        stage.name,
        stage.preamble,
    )
