"""keyroute._inductor (torch._inductor): the "inductor" backend.

compile_fx(gm, example_inputs) takes the captured graph through AOT Autograd: for inference
the functionalized graph (mutated inputs as leading outputs, written back by the generated
code), for training the partitioned forward and backward graphs; each graph becomes Python
source calling NumPy (codegen.Kernel), run without the dispatcher. `mode="reduce-overhead"`
adds a replay of static buffers (cudagraphs.py).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..tensor._tensor import Tensor, wrap_cpu
from . import config
from .codegen import Kernel

__all__ = ["compile_fx", "Kernel"]


def _log_code(k: Kernel) -> None:
    logs = {s.strip() for s in os.environ.get("KEYROUTE_LOGS", "").split(",")}
    if "output_code" in logs:
        import logging

        logging.getLogger("keyroute._inductor").warning(
            "Output code written to: %s\n%s%s", k.filename, k.src, _numba_listing(k)
        )


def _numba_listing(k: Kernel) -> str:
    """The numba kernels the graph calls, after its source (as Inductor prints its C++)."""
    if not k.groups:
        return ""
    parts = [f"\n# numba kernels ({k.numba_compile_s * 1e3:.0f} ms to compile or load):"]
    for i, src in enumerate(k.numba_sources):
        parts.append(f"\n# _k_numba{i}\n{src}")
    return "".join(parts)


def _synthetic(v: Any) -> Any:
    """A probe input with `v`'s metadata (Note [probe]): ones, zeros for integer indices."""
    if not isinstance(v, Tensor):
        return v
    dt = v.dtype.np
    fill = 0 if v.dtype.name in ("int64", "int32", "int16", "int8", "uint8", "bool") else 1
    return np.full(tuple(v.shape), fill, dtype=dt)


def _probe_inputs(gm: Any) -> list[Any]:
    return [_synthetic(n.meta.get("val")) for n in gm.graph.nodes if n.op == "placeholder"]


def kernel_for(gm: Any, mutated: list[int] | None = None, cpu_backend: str = "numpy") -> Kernel:
    """gm's generated kernel, probed on synthetic inputs with the RNG state kept."""
    from .. import random as kr_random

    nodes = list(gm.graph.nodes)
    phs = [n for n in nodes if n.op == "placeholder"]
    outs = nodes[-1].args[0]
    copy_back = {outs[i]: phs[idx] for i, idx in enumerate(mutated or [])}
    k = Kernel(gm, copy_back=copy_back, cpu_backend=cpu_backend)
    state = kr_random.get_rng_state()
    try:
        with np.errstate(all="ignore"):
            k.compile(_probe_inputs(gm))
    finally:
        kr_random.set_rng_state(state)
    _log_code(k)
    return k


def _out_info(gm: Any) -> tuple[list[Any], list[int]]:
    nodes = list(gm.graph.nodes)
    phs = [n for n in nodes if n.op == "placeholder"]
    outs = nodes[-1].args[0]
    dts = []
    src = []
    for o in outs:
        v = o.meta.get("val") if hasattr(o, "meta") else None
        dts.append(v.dtype if isinstance(v, Tensor) else None)
        src.append(phs.index(o) if o in phs else -1)
    return dts, src


def _wrap(r: Any, dt: Any) -> Any:
    if isinstance(r, np.ndarray):
        return wrap_cpu(r, dt)
    if isinstance(r, np.generic):
        return wrap_cpu(np.asarray(r), dt)
    return r


def graph_runner(
    gm: Any, n_mutated: int = 0, mutated: list[int] | None = None, cpu_backend: str = "numpy"
) -> Any:
    """A callable on tensors running gm's kernel: copies the first `n_mutated` results into the
    inputs `mutated` names, returns the rest as tensors (an input returned is itself)."""
    k = kernel_for(gm, mutated, cpu_backend)
    fn = k.fn
    dts, src = _out_info(gm)
    mutated = mutated or []
    pairs = list(enumerate(mutated))
    rest = list(range(n_mutated, len(dts)))

    def run(*tensors: Any) -> list[Any]:
        arrays = [t._data if isinstance(t, Tensor) else t for t in tensors]
        res = fn(*arrays)
        for i, idx in pairs:
            dst = arrays[idx]
            if res[i] is not dst:
                np.copyto(dst, res[i])
        out = []
        for j in rest:
            s = src[j]
            out.append(tensors[s] if s >= 0 else _wrap(res[j], dts[j]))
        return out

    run.kernel = k  # type: ignore[attr-defined]
    return run


def _aot_graph_compiler(cpu_backend: str) -> Any:
    def compiler(gm: Any, example: Any) -> Any:
        run = graph_runner(gm, cpu_backend=cpu_backend)
        return lambda *ts: tuple(run(*ts))

    return compiler


def _symbolic_inputs(inf: Any, gm: Any) -> None:
    """A dynamic variant (keyroute._dynamo.dynamic): the inference graph's inputs get the
    symbolic sizes of Dynamo's, then its values (symbolic_shapes.symbolize_graph); the kernel
    binds each symbol from its Sym input and computes sizes from it at run time."""
    from .._dynamo.symbolic_shapes import symbolize_graph

    src = [n.meta.get("val") for n in gm.graph.nodes if n.op == "placeholder"]
    phs = [n for n in inf.graph.nodes if n.op == "placeholder"]
    for ph, v in zip(phs, src):
        if isinstance(v, Tensor) and isinstance(ph.meta.get("val"), Tensor):
            ph.meta["val"]._data.shape = tuple(v._data.shape)
        elif getattr(v, "_kr_symint", False):
            ph.meta["val"] = v
    symbolize_graph(inf)


def compile_fx(gm: Any, example_inputs: list[Any], *, mode: Any = None, options: Any = None) -> Any:
    from .._dynamo.aot import aot_compile
    from .._functorch.aot_autograd import make_inference_graph
    from ..autograd.grad_mode import is_grad_enabled

    backend = config.resolve_cpu_backend(options)
    tensors = [t for t in example_inputs if isinstance(t, Tensor)]
    if any(type(t._data) is not np.ndarray or t.device.type != "cpu" for t in tensors):
        if not is_grad_enabled() or not any(t.requires_grad for t in tensors):
            from .cuda_graph import compile_cuda, on_cuda

            run = compile_cuda(gm, example_inputs) if on_cuda(tensors) else None
            if run is not None:  # fusion groups as CuPy kernels, the rest dispatched
                return run
        # meta / fake inputs, other devices (a backend may hold ndarrays): the dispatcher
        return aot_compile(gm, example_inputs, None)
    training = getattr(gm, "_kr_outputs_need_grad", True)
    if training and is_grad_enabled() and any(t.requires_grad for t in tensors):
        from .._functorch.partitioners import min_cut_rematerialization_partition

        return aot_compile(
            gm, example_inputs, _aot_graph_compiler(backend), min_cut_rematerialization_partition
        )
    inf, mutated = make_inference_graph(gm, tuple(example_inputs))
    if any(getattr(v, "_kr_symint", False) for v in example_inputs):
        _symbolic_inputs(inf, gm)
    run = graph_runner(inf, len(mutated), mutated, backend)
    if mode == "reduce-overhead":
        from .cudagraphs import replay

        return replay(run, example_inputs)
    return run
