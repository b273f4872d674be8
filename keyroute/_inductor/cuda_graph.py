"""Compiled graphs on cuda tensors: fusion groups run as CuPy kernels (cupy_codegen.py), every
other node through the dispatcher, i.e. the cuda backend's kernels (keyroute/cuda/backend.py).

compile_fx hands a graph whose tensor inputs are all cuda tensors (and need no grad) to
`compile_cuda`. It takes the functional inference graph, finds its fusion groups
(fusion.find_groups, as the numba path does) and has cupy_codegen write each group's stages;
the returned runner walks the graph in fusion.emission_order, calling `GroupKernels.run(xp, ...)`
on the groups' input arrays. It returns None (compile_fx keeps the dispatcher path) where this
does not apply: a graph mutating its inputs, a group the emitter refuses, no kernel module.

The kernel module is CuPy itself on a GPU; `KERNEL_MODULE` lets the suite put the NumPy stand-in
(tests/cuda/cupy_standin.py) there, which runs the same generated source (Note [one source, two
runners] in cupy_codegen.py).
"""

from __future__ import annotations

import operator
from typing import Any

from ..fx.node import Node
from ..tensor._tensor import Tensor

__all__ = ["KERNEL_MODULE", "compile_cuda"]

#: The module providing ElementwiseKernel / ReductionKernel / broadcast_to; None: the cuda
#: backend's array module when it has them (CuPy).
KERNEL_MODULE: Any = None


def _kernel_module() -> Any:
    if KERNEL_MODULE is not None:
        return KERNEL_MODULE
    from ..cuda.backend import installed

    xp = installed()
    return xp if xp is not None and hasattr(xp, "ElementwiseKernel") else None


def _fetch(env: dict[Node, Any], a: Any) -> Any:
    if isinstance(a, Node):
        return env[a]
    if isinstance(a, (list, tuple)):
        return type(a)(_fetch(env, x) for x in a)
    if isinstance(a, dict):
        return {k: _fetch(env, v) for k, v in a.items()}
    return a


def compile_cuda(gm: Any, example_inputs: list[Any]) -> Any:
    """A runner for `gm` on cuda tensors with its fusion groups as CuPy kernels, or None."""
    xp = _kernel_module()
    if xp is None or any(getattr(v, "_kr_symint", False) for v in example_inputs):
        return None  # no kernels, or a dynamic variant (sizes known only at run time)
    from .._functorch.aot_autograd import make_inference_graph
    from ..cuda.backend import wrap
    from . import cupy_codegen
    from .fusion import emission_order, find_groups

    try:
        inf, mutated = make_inference_graph(gm, tuple(example_inputs))
    except Exception:  # noqa: BLE001 - anything tracing refuses stays on the dispatcher path
        return None
    if mutated:
        return None
    nodes = list(inf.graph.nodes)
    groups = find_groups(nodes, set())
    if not groups:
        return None
    try:
        built = {id(g): cupy_codegen.build(g, f"kr_fused{i}") for i, g in enumerate(groups)}
    except NotImplementedError:
        return None
    order = emission_order(nodes, groups)
    placeholders = [n for n in nodes if n.op == "placeholder"]
    output = nodes[-1]

    def run(*args: Any) -> Any:
        env: dict[Node, Any] = dict(zip(placeholders, args))
        for item in order:
            if isinstance(item, Node):
                if item.op == "call_function":
                    fn = item.target
                    if fn is operator.getitem:
                        env[item] = _fetch(env, item.args[0])[item.args[1]]
                    else:
                        env[item] = fn(*_fetch(env, item.args), **_fetch(env, item.kwargs))
                elif item.op == "get_attr":
                    env[item] = getattr(inf, item.target)
                continue
            gk = built[id(item)]
            arrays = [env[a]._data for a, _kind in item.inputs]
            for m, arr in zip(item.outputs, gk.run(xp, arrays)):
                v = m.meta["val"]
                env[m] = wrap(arr.reshape(tuple(v.shape)), v.dtype)
        return list(_fetch(env, output.args[0]))

    run.groups = groups  # type: ignore[attr-defined]
    run.kernels = [built[id(g)] for g in groups]  # type: ignore[attr-defined]
    return run


def on_cuda(tensors: list[Tensor]) -> bool:
    """All tensor inputs are cuda tensors holding arrays (not fake or meta ones)."""
    return bool(tensors) and all(
        t.device.type == "cuda" and type(t._data).__module__.split(".")[0] in ("cupy", "numpy")
        for t in tensors
    )
