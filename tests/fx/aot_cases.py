"""Functions whose AOT Autograd graphs are recorded from PyTorch 2.13
(tools/record_aot_graphs.py) and compared with keyroute's (test_aot_conformance.py): training
cases (inputs that require grad: forward and backward graphs) and inference cases (no grad:
the functionalized graph with mutated inputs as leading outputs)."""

from . import graph_cases as G


def _grad(torch, case, which):
    f, args = G.CASES[case](torch)
    args = tuple(a.requires_grad_(True) if i in which else a for i, a in enumerate(args))
    return f, args


def mlp_square_mean(torch):
    F = torch.nn.functional

    def f(x, w1, b1, w2):
        return (F.linear(torch.relu(F.linear(x, w1, b1)), w2) ** 2).mean()

    x, w1, b1, w2 = (G._t(torch, 4, 6), G._t(torch, 8, 6), G._t(torch, 8), G._t(torch, 3, 8))
    return f, (x, w1.requires_grad_(True), b1.requires_grad_(True), w2.requires_grad_(True))


# Training with input mutations (issue 13): the forward graph is functionalized, the new values
# of the mutated inputs are its leading outputs and the runtime copies them back (epilogue).
def buffer_add_(torch):
    def f(x, w, buf):
        buf.add_(1)
        y = (x @ w).view(-1)
        return (y * buf.sum()).sum()

    x, w = G._t(torch, 2, 3).requires_grad_(True), G._t(torch, 3, 2).requires_grad_(True)
    return f, (x, w, torch.zeros(3))


def running_stat_update(torch):
    def f(x, w, rm):
        rm.mul_(0.9).add_(x.detach().mean(0), alpha=0.1)
        return ((x * w) * rm).sum()

    x, w = G._t(torch, 4, 5), G._t(torch, 5).requires_grad_(True)
    return f, (x, w, torch.ones(5))


def copy_into_buffer(torch):
    def f(x, buf):
        buf.copy_(x.detach() * 2)
        return (x * buf).sum()

    return f, (G._t(torch, 3, 4).requires_grad_(True), torch.zeros(3, 4))


def index_copy_cache(torch):
    def f(x, w, cache, idx):
        cache.index_copy_(0, idx, x.detach())
        return (cache @ w).sum()

    x, w = G._t(torch, 1, 4), G._t(torch, 4, 2).requires_grad_(True)
    return f, (x, w, torch.zeros(3, 4), torch.tensor([1]))


MUTATING = {"buffer_add_", "running_stat_update", "copy_into_buffer", "index_copy_cache"}
TRAINING = {
    "buffer_add_": buffer_add_,
    "running_stat_update": running_stat_update,
    "copy_into_buffer": copy_into_buffer,
    "index_copy_cache": index_copy_cache,
    "mlp_square_mean": mlp_square_mean,
    "mlp_with_loss": lambda torch: _grad(torch, "mlp_with_loss", {1, 2, 3, 4}),
    "rmsnorm_linear_silu": lambda torch: _grad(torch, "rmsnorm_linear_silu", {0, 1, 2, 3}),
    "layer_norm_gelu": lambda torch: _grad(torch, "layer_norm_gelu", {0, 1, 2}),
    "attention_scores": lambda torch: _grad(torch, "attention_scores", {0, 1, 2}),
    "pointwise_chain": lambda torch: _grad(torch, "pointwise_chain", {0}),
    "embedding_sum": lambda torch: _grad(torch, "embedding_sum", {0}),
}
INFERENCE = [
    "inplace_on_inputs",
    "decode_step_index_copy",
    "view_written_inplace",
    "select_written_inplace",
    "rmsnorm_linear_silu",
    "slice_assign",
]


def trace(torch, aot_function, kind, name):
    """{"fw": [...], "bw": [...], "fw_inputs": [...], "bw_inputs": [...]} (graph_cases.describe
    lists plus placeholder names), or {"error": ...}."""
    graphs = []

    def keep(gm, _):
        graphs.append(gm)
        return gm

    if kind == "training":
        f, args = TRAINING[name](torch)
    else:
        f, args = G.CASES[name](torch)
    try:
        out = aot_function(f, keep, keep)(*args)
        if kind == "training":
            out.sum().backward() if out.dim() else out.backward()
    except Exception as e:  # noqa: BLE001 - the error is the recorded behaviour
        return {"error": type(e).__name__, "msg": str(e).splitlines()[0][:200]}
    res = {}
    if kind == "training" and len(args) and not isinstance(out, tuple):
        # The mutated inputs' values after the call (the epilogue's copies).
        res["inputs_after"] = [
            [round(float(v), 5) for v in a.detach().reshape(-1).tolist()][:8]
            for a in args
            if not a.requires_grad and a.dtype.is_floating_point
        ]
    for key, gm in zip(("fw", "bw"), graphs):
        res[key] = G.describe(gm)
        res[key + "_inputs"] = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
        if name in MUTATING:
            outs = list(gm.graph.nodes)[-1].args[0]
            res[key + "_outputs"] = [getattr(o, "name", None) for o in outs]
    return res
