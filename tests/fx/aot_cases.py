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


TRAINING = {
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
    for key, gm in zip(("fw", "bw"), graphs):
        res[key] = G.describe(gm)
        res[key + "_inputs"] = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    return res
