"""AOT Autograd (torch._functorch.aot_autograd): trace the joint forward + backward graph of a
function on fake tensors, partition it into a forward graph (which also returns the
activations the backward needs) and a backward graph, and run them from an autograd.Function.

The joint function takes (primals, tangents): it runs `f` on the primals, which require grad,
and `autograd.grad` of the outputs with the tangents. make_fx records the forward's aten calls
and the backward formulas' calls as the engine runs them. The default partitioner (PyTorch's
`default_partition`) puts in the forward graph every node the forward outputs need; the rest is
the backward; forward values the backward reads are saved (outputs of the forward graph after
the user outputs, inputs of the backward graph before the tangents), as PyTorch's graphs show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..fx.experimental.proxy_tensor import dispatch_trace
from ..fx.graph import Graph
from ..fx.graph_module import GraphModule
from ..fx.node import Node, map_arg
from ..tensor._tensor import Tensor

__all__ = ["aot_function", "aot_module", "default_partition", "make_joint_graph"]


def make_joint_graph(f: Callable[..., Any], args: tuple[Tensor, ...]) -> tuple[GraphModule, int]:
    """The joint graph of `f` at `args` (placeholders primals_1.., tangents_1..); returns it
    and the number of forward outputs."""
    from .. import autograd
    from ..subclasses.fake_tensor import FakeTensorMode

    mode = FakeTensorMode()
    fake_primals = [mode.from_tensor(a.detach()).requires_grad_(a.requires_grad) for a in args]
    probe = _probe_outputs(f, [p.detach() for p in fake_primals], mode)
    outs = probe if isinstance(probe, (tuple, list)) else (probe,)
    n_out = len(outs)
    fake_tangents = [mode.from_tensor(_zeros_like(o)) for o in outs]
    diff = [i for i, a in enumerate(args) if a.requires_grad]

    def joint(*flat: Any) -> Any:
        primals, tangents = flat[: len(args)], flat[len(args) :]
        out = f(*primals)
        _tag_forward_nodes()
        out_t = out if isinstance(out, (tuple, list)) else (out,)
        # Only the outputs that need a gradient are differentiated (as PyTorch's joint graph:
        # a compiled training step also returns its new gradients and optimizer state).
        pick = [j for j, o in enumerate(out_t) if isinstance(o, Tensor) and o.requires_grad]
        grads = autograd.grad(
            [out_t[j] for j in pick],
            [primals[i] for i in diff],
            [tangents[j] for j in pick],
            allow_unused=True,
        )
        full: list[Any] = [None] * len(args)
        for i, g in zip(diff, grads):
            full[i] = g
        return (*out_t, *full)

    names = [f"primals_{i + 1}" for i in range(len(args))] + [
        f"tangents_{i + 1}" for i in range(n_out)
    ]
    from .._dispatch.python import enable_python_dispatcher

    with enable_python_dispatcher():  # AOT tracing runs the Python kernels, as PyTorch's
        gm = _trace_joint(joint, fake_primals, fake_tangents, mode, names)
    return gm, n_out


def _probe_outputs(f: Callable[..., Any], fakes: list[Tensor], mode: Any) -> Any:
    """f's outputs on fake inputs (their number and metadata). A data-dependent scalar
    (`.item()` under capture_scalar_outputs) needs a trace to stand for it: then f is traced
    into a scratch graph and its outputs are read from there."""
    from ..subclasses.fake_tensor import DataDependentOutputException

    try:
        with mode:
            return f(*fakes)
    except DataDependentOutputException:
        held: list[Any] = []

        def keep(*a: Any) -> Any:
            held.append(f(*a))
            return held[-1]

        dispatch_trace(keep, tuple(fakes), tracing_mode="fake", fake_mode=mode)
        return held[-1]


def _trace_joint(
    joint: Any, fake_primals: Any, fake_tangents: Any, mode: Any, names: list[str]
) -> GraphModule:
    return dispatch_trace(
        joint,
        (*fake_primals, *fake_tangents),
        tracing_mode="fake",
        fake_mode=mode,
        placeholder_names=names,
        flat_names=True,
    )


def _tag_forward_nodes() -> None:
    """Mark the nodes traced so far (the forward pass, including the detaches autograd makes
    when it saves outputs) as forward nodes, as PyTorch's partitioner_tag does."""
    from ..fx.experimental.proxy_tensor import ProxyTorchDispatchMode
    from ..layers.python import mode_stack

    for m in mode_stack():
        if isinstance(m, ProxyTorchDispatchMode):
            for n in m.tracking.graph.nodes:
                n.meta.setdefault("partitioner_tag", "is_forward")


def _zeros_like(t: Tensor) -> Tensor:
    from .. import zeros

    return zeros(tuple(t.shape), dtype=t.dtype)


def default_partition(joint: GraphModule, n_fw_out: int) -> tuple[GraphModule, GraphModule, int]:
    """Split the joint graph: (forward, backward, number of saved values)."""
    g = joint.graph
    nodes = list(g.nodes)
    out_node = nodes[-1]
    outs = list(out_node.args[0])
    fw_outs, grads = outs[:n_fw_out], outs[n_fw_out:]
    placeholders = [n for n in nodes if n.op == "placeholder"]
    primals = [p for p in placeholders if p.name.startswith("primals")]
    tangents = [p for p in placeholders if p.name.startswith("tangents")]
    # Forward nodes: those traced during the forward pass (their partitioner tag); the rest,
    # which read the tangents, are the backward.
    fw: set[Node] = {
        n for n in nodes if n.meta.get("partitioner_tag") == "is_forward" and n.op != "placeholder"
    }
    fw |= set(primals)
    bw = [n for n in nodes if n not in fw and n.op not in ("placeholder", "output")]
    saved: list[Node] = []
    for n in bw:
        for i in n.all_input_nodes:
            if i in fw and i not in saved and i.op != "get_attr":
                saved.append(i)
    order = {n: k for k, n in enumerate(nodes)}
    saved.sort(key=order.__getitem__)  # in graph order, as PyTorch's
    # Forward graph: primals -> user outputs + saved values.
    fwg = Graph()
    env: dict[Node, Node] = {}
    for n in nodes:
        if n in fw:
            env[n] = fwg.node_copy(n, lambda x: env[x])
    saved_order = saved
    fwg.output(tuple(map_arg(list(fw_outs), lambda x: env[x])) + tuple(env[s] for s in saved_order))
    # Backward graph: saved values + tangents -> gradients.
    bwg = Graph()
    benv: dict[Node, Node] = {}
    for s in saved_order:
        ph = bwg.create_node("placeholder", s.name, name=s.name)
        ph.meta = dict(s.meta)
        benv[s] = ph
    for t in tangents:
        benv[t] = bwg.node_copy(t)
    for n in bw:
        benv[n] = bwg.node_copy(n, lambda x: benv[x])
    bwg.output(tuple(map_arg(list(grads), lambda x: benv[x])))
    root = {k: getattr(joint, k) for k in dir(joint) if k.startswith("_tensor_constant")}
    fw_gm = GraphModule(root, fwg, "GraphModule")
    bw_gm = GraphModule(root, bwg, "GraphModule")
    bw_gm.graph.eliminate_dead_code()
    bw_gm.recompile()
    return fw_gm, bw_gm, len(saved_order)


def make_inference_graph(
    f: Callable[..., Any],
    args: tuple[Any, ...],
    *,
    names: list[str] | None = None,
    decomposition_table: dict[Any, Any] | None = None,
) -> tuple[GraphModule, list[int]]:
    """The functionalized forward graph of `f` (no autograd): placeholders arg0_1..; outputs
    the new values of the inputs `f` mutates (in input order), then `f`'s outputs; returns the
    graph and the indices of the mutated inputs, which the runtime wrapper copies back (the
    copy is outside the graph, as PyTorch's AOT graphs show). Unused pure calls are removed."""
    from ..dispatcher.keys import DispatchKey
    from ..dispatcher.tls import IncludeDispatchKeyGuard
    from ..layers import functionalize as FL
    from ..utils._pytree import tree_flatten

    mutated: list[int] = []
    holder: list[Any] = []  # the output's structure, read while tracing

    def flat_fn(*flat: Any) -> Any:
        wrapped = [FL.to_functional(a) if isinstance(a, Tensor) else a for a in flat]
        old = FL._AUTO_FUNCTIONALIZE[0], FL._REAPPLY_VIEWS[0]
        FL._AUTO_FUNCTIONALIZE[0], FL._REAPPLY_VIEWS[0] = True, True
        try:
            with IncludeDispatchKeyGuard(DispatchKey.Functionalize):
                out = f(*wrapped)
            outs = []
            for i, (a, w) in enumerate(zip(flat, wrapped)):
                if isinstance(w, FL.FunctionalTensorWrapper):
                    FL.sync(w)
                    if FL.from_functional(w) is not a:
                        mutated.append(i)
                        outs.append(FL.from_functional(w))
            leaves, spec = tree_flatten(out)
            holder.append(spec)
            for leaf in leaves:
                if isinstance(leaf, FL.FunctionalTensorWrapper):
                    FL.sync(leaf)
                    leaf = FL.from_functional(leaf)
                outs.append(leaf)
            return tuple(outs)
        finally:
            FL._AUTO_FUNCTIONALIZE[0], FL._REAPPLY_VIEWS[0] = old

    from .._dispatch.python import enable_python_dispatcher

    with enable_python_dispatcher():
        gm = _trace_inference(flat_fn, args, decomposition_table, names)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    gm._out_spec = holder[-1] if holder else None
    return gm, mutated


def _trace_inference(flat_fn: Any, args: Any, decomposition_table: Any, names: Any) -> GraphModule:
    return dispatch_trace(
        flat_fn,
        tuple(a.detach() if isinstance(a, Tensor) else a for a in args),
        tracing_mode="fake",
        decomposition_table=decomposition_table,
        placeholder_names=names or [f"arg{i}" for i in range(len(args))],
        flat_names=names is not None,
    )


def _identity_compiler(gm: GraphModule, example_inputs: Any) -> Callable[..., Any]:
    return gm


def aot_function(
    fn: Callable[..., Any],
    fw_compiler: Callable[..., Any] | None = None,
    bw_compiler: Callable[..., Any] | None = None,
    partition_fn: Callable[..., Any] = default_partition,
    decompositions: dict[Any, Any] | None = None,
    num_params_buffers: int = 0,
    keep_inference_input_mutations: bool = False,
) -> Callable[..., Any]:
    """`fn` compiled ahead of time: forward and backward graphs from one joint trace, given
    to `fw_compiler` / `bw_compiler` (default: run the GraphModules)."""
    from ..autograd.function import Function

    fw_compiler = fw_compiler or _identity_compiler
    bw_compiler = bw_compiler or fw_compiler
    cache: dict[Any, Any] = {}

    from ..autograd.grad_mode import is_grad_enabled

    def compiled(*args: Any) -> Any:
        needs_grad = is_grad_enabled() and any(
            isinstance(a, Tensor) and a.requires_grad for a in args
        )
        if not needs_grad:
            return _inference(args)
        key = tuple(
            (tuple(a.shape), a.dtype, a.requires_grad) if isinstance(a, Tensor) else a for a in args
        )
        entry = cache.get(key)
        if entry is None:
            from .input_mutations import functionalize_input_mutations

            joint, n_out = make_joint_graph(fn, args)
            # Input mutations -> the forward's leading outputs, copied back by the runtime.
            mutated, n_fw_out = functionalize_input_mutations(joint, n_out)
            fw_gm, bw_gm, n_saved = partition_fn(joint, n_fw_out)
            fw_gm.graph.eliminate_dead_code()
            fw_gm.recompile()
            fw = fw_compiler(fw_gm, list(args))
            bw = bw_compiler(bw_gm, None)
            entry = cache[key] = _function_class(Function, fw, bw, n_out, mutated)
        return entry.apply(*args)

    def _inference(args: tuple[Any, ...]) -> Any:
        key = (
            "inference",
            *((tuple(a.shape), a.dtype) if isinstance(a, Tensor) else a for a in args),
        )
        entry = cache.get(key)
        if entry is None:
            gm, mutated = make_inference_graph(fn, args)
            spec = gm._out_spec if gm._out_spec is not None else _out_spec(fn, args)
            entry = cache[key] = (fw_compiler(gm, list(args)), mutated, spec)
        run, mutated, spec = entry
        res = run(*args)
        if mutated:
            from ..autograd.grad_mode import no_grad

            with no_grad():  # as PyTorch's runtime wrapper: a parameter may be the input
                for i, idx in enumerate(mutated):
                    args[idx].copy_(res[i])  # the epilogue: mutations applied outside the graph
        outs = list(res[len(mutated) :])
        from ..utils._pytree import tree_unflatten

        return tree_unflatten(outs, spec)

    return compiled


def _function_class(
    base: type, fw: Any, bw: Any, n_out: int, mutated: list[int] | None = None
) -> Any:
    """The autograd.Function running one compiled forward / backward pair (made once per
    variant: a class per call would cost more than the small graphs it runs). The forward
    graph's first len(mutated) outputs are new values of inputs, copied back into them."""
    mutated = mutated or []
    n_mut = len(mutated)

    class CompiledFunction(base):  # type: ignore[misc, valid-type]
        @staticmethod
        def forward(ctx: Any, *inputs: Any) -> Any:
            res = fw(*inputs)
            for i, idx in enumerate(mutated):
                inputs[idx].copy_(res[i])  # the epilogue (functionalized input mutations)
            if n_mut:
                res = res[n_mut:]
            saved = res[n_out:]
            if all(isinstance(v, Tensor) for v in saved):
                ctx.save_for_backward(*saved)
                ctx.scalars = None
            else:  # saved scalars (an unbacked item() the backward reads) stay on ctx
                ctx.save_for_backward(*(v for v in saved if isinstance(v, Tensor)))
                ctx.scalars = [None if isinstance(v, Tensor) else v for v in saved]
            outs = tuple(res[:n_out])
            return outs[0] if n_out == 1 else outs

        @staticmethod
        def backward(ctx: Any, *grads: Any) -> Any:
            saved = ctx.saved_tensors
            if ctx.scalars is not None:
                it = iter(saved)
                saved = [next(it) if v is None else v for v in ctx.scalars]
            return tuple(bw(*saved, *grads))

    return CompiledFunction


def _out_spec(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """The structure of `fn`'s output (from a run on fake copies of the inputs)."""
    from ..subclasses.fake_tensor import FakeTensorMode
    from ..utils._pytree import tree_flatten

    mode = FakeTensorMode()
    fakes = [mode.from_tensor(a.detach()) if isinstance(a, Tensor) else a for a in args]
    with mode:
        out = fn(*fakes)
    return tree_flatten(out)[1]


def aot_module(
    mod: Any,
    fw_compiler: Callable[..., Any] | None = None,
    bw_compiler: Callable[..., Any] | None = None,
    **kw: Any,
) -> Any:
    """`mod` compiled ahead of time: its parameters and buffers are lifted as the first graph
    inputs (as PyTorch's), then the user inputs."""
    from ..nn.modules.module import Module

    params = dict(mod.named_parameters())
    buffers = dict(mod.named_buffers())
    names = list(params) + list(buffers)

    def functional(*flat: Any) -> Any:
        state = dict(zip(names, flat[: len(names)]))
        saved = {}
        for qn, v in state.items():
            owner, attr = _owner(mod, qn)
            saved[qn] = (owner, attr, owner.__dict__.get("_parameters", {}).get(attr))
            _swap(owner, attr, v)
        try:
            return mod(*flat[len(names) :])
        finally:
            for qn, (owner, attr, _orig) in saved.items():
                _swap(owner, attr, params.get(qn, buffers.get(qn)))

    compiled = aot_function(functional, fw_compiler, bw_compiler, **kw)

    class AOTModule(Module):
        def __init__(self) -> None:
            super().__init__()
            self.orig_module = mod

        def forward(self, *args: Any) -> Any:
            return compiled(*[params.get(n, buffers.get(n)) for n in names], *args)

    return AOTModule()


def _owner(mod: Any, qn: str) -> tuple[Any, str]:
    *path, attr = qn.split(".")
    for p in path:
        mod = getattr(mod, p)
    return mod, attr


def _swap(owner: Any, attr: str, value: Any) -> None:
    if attr in owner._parameters:
        owner._parameters[attr] = value
    elif attr in owner._buffers:
        owner._buffers[attr] = value
