"""Functions whose graphs are recorded from PyTorch 2.13 (tools/record_graphs.py) and compared
with keyroute's (tests/fx/test_graph_conformance.py). Each case is written against the module
it is given (`torch` or `keyroute`) and returns (function, example inputs); inputs come from a
seeded NumPy generator so both libraries see the same values."""

import numpy as np


def _t(torch, *shape, seed=0, dtype="float32"):
    rng = np.random.default_rng(seed + sum(shape))
    return torch.from_numpy(rng.standard_normal(shape).astype(dtype))


def rmsnorm_linear_silu(torch):
    F = torch.nn.functional

    def f(x, g, w1, w2):
        h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g
        return F.linear(F.silu(F.linear(h, w1)), w2)

    return f, (_t(torch, 2, 8), _t(torch, 8), _t(torch, 16, 8), _t(torch, 8, 16))


def decode_step_index_copy(torch):
    def f(q, k, v, kcache, vcache, pos):
        kcache.index_copy_(1, pos, k)
        vcache.index_copy_(1, pos, v)
        att = torch.softmax(q @ kcache.transpose(-1, -2) / 4.0, dim=-1)
        return att @ vcache

    return f, (
        _t(torch, 2, 1, 16),
        _t(torch, 2, 1, 16, seed=1),
        _t(torch, 2, 1, 16, seed=2),
        torch.zeros(2, 6, 16),
        torch.zeros(2, 6, 16),
        torch.tensor([3]),
    )


def mlp_with_loss(torch):
    F = torch.nn.functional

    def f(x, w1, b1, w2, b2, target):
        h = F.relu(F.linear(x, w1, b1))
        return F.cross_entropy(F.linear(h, w2, b2), target)

    return f, (
        _t(torch, 4, 6),
        _t(torch, 8, 6),
        _t(torch, 8),
        _t(torch, 3, 8),
        _t(torch, 3),
        torch.tensor([0, 2, 1, 0]),
    )


def inplace_on_inputs(torch):
    def f(x, y):
        x.add_(1)
        y.mul_(x)
        return x + y

    return f, (_t(torch, 3, 4), _t(torch, 3, 4, seed=1))


def view_written_inplace(torch):
    def f(x):
        y = x.view(-1)
        y.add_(1)
        return x

    return f, (_t(torch, 4, 3),)


def select_written_inplace(torch):
    def f(x):
        x[0].mul_(2)
        return x.t() + 1

    return f, (_t(torch, 4, 3),)


def split_written_inplace(torch):
    def f(x):
        a, b = x.split(2)
        a.zero_()
        return b * 2, x

    return f, (_t(torch, 4, 3),)


def transpose_select_fill(torch):
    def f(x):
        y = x.transpose(0, 1)
        y[1].fill_(3.0)
        return x.sum()

    return f, (_t(torch, 4, 3),)


def batchnorm_buffers(torch):
    F = torch.nn.functional

    def f(x, rm, rv, w, b):
        return F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.1)

    return f, (_t(torch, 4, 3), torch.zeros(3), torch.ones(3), _t(torch, 3), _t(torch, 3, seed=1))


def layer_norm_gelu(torch):
    F = torch.nn.functional

    def f(x, w, b):
        return F.gelu(F.layer_norm(x, (8,), w, b))

    return f, (_t(torch, 2, 8), _t(torch, 8), _t(torch, 8, seed=1))


def attention_scores(torch):
    def f(q, k, v):
        s = torch.matmul(q, k.transpose(-2, -1)) * 0.25
        return torch.matmul(torch.softmax(s, dim=-1), v)

    return f, (_t(torch, 2, 3, 4), _t(torch, 2, 3, 4, seed=1), _t(torch, 2, 3, 4, seed=2))


def cat_stack(torch):
    def f(a, b):
        return torch.cat([a, b], 0), torch.stack([a, b], 1)

    return f, (_t(torch, 2, 3), _t(torch, 2, 3, seed=1))


def embedding_sum(torch):
    F = torch.nn.functional

    def f(w, idx):
        return F.embedding(idx, w).sum(1)

    return f, (_t(torch, 10, 4), torch.tensor([[1, 2], [3, 9]]))


def where_masked_fill(torch):
    def f(x):
        m = x > 0
        return torch.where(m, x, 0.0), x.masked_fill(m, -1.0)

    return f, (_t(torch, 3, 4),)


def reductions(torch):
    def f(x):
        return x.mean(0), x.var(1), x.amax(-1), x.sum()

    return f, (_t(torch, 3, 4),)


def reshape_contiguous(torch):
    def f(x):
        return x.transpose(0, 1).contiguous().reshape(-1, 2), x.reshape(6, 2)

    return f, (_t(torch, 3, 4),)


def pointwise_chain(torch):
    def f(x):
        return torch.clamp(x, -0.5, 0.5).pow(2) + torch.exp(-x.abs()) * torch.tanh(x)

    return f, (_t(torch, 5),)


def index_select_gather(torch):
    def f(x, i, j):
        return torch.index_select(x, 0, i), torch.gather(x, 1, j)

    return f, (_t(torch, 4, 3), torch.tensor([0, 2]), torch.tensor([[0], [1], [2], [0]]))


def cumsum_softmax(torch):
    def f(x):
        return torch.cumsum(x, 1), torch.log_softmax(x, -1)

    return f, (_t(torch, 3, 4),)


def to_dtype_and_factory(torch):
    def f(x):
        return x.to(torch.float64) + torch.ones(3, 4, dtype=torch.float64), torch.zeros_like(x)

    return f, (_t(torch, 3, 4),)


def matmul_batched(torch):
    def f(a, b):
        return a @ b, torch.bmm(a, b)

    return f, (_t(torch, 2, 3, 4), _t(torch, 2, 4, 5))


def var_mean_tuple(torch):
    def f(x):
        v, m = torch.var_mean(x, 1)
        return v + m

    return f, (_t(torch, 3, 4),)


def inplace_relu_chain(torch):
    def f(x):
        y = x * 2
        y.relu_()
        y.add_(x)
        return y

    return f, (_t(torch, 6),)


def slice_assign(torch):
    def f(x, v):
        x[1:3] = v
        return x * 1

    return f, (_t(torch, 4, 2), _t(torch, 2, 2, seed=1))


def unbind_zero(torch):
    def f(x):
        a, b = x.unbind(0)
        b.zero_()
        return x + a

    return f, (_t(torch, 2, 3),)


def item_call(torch):
    def f(x):
        return x * x.sum().item()

    return f, (_t(torch, 3),)


CASES = {
    name: fn
    for name, fn in globals().items()
    if callable(fn)
    and not name.startswith("_")
    and name not in ("CASES",)
    and fn.__module__ == __name__
}
MODES = ("real", "fake", "functional_real", "functional_fake", "core_fake", "pre_fake")


def _val(v):
    if isinstance(v, (list, tuple)):
        return [_val(x) for x in v]
    shape = getattr(v, "shape", None)
    if shape is None:
        return None
    return [list(shape), str(v.dtype).split(".")[-1]]


def describe(gm):
    """A graph as a list of [target, value] per call_function node (value: [shape, dtype])."""
    out = []
    for n in gm.graph.nodes:
        if n.op == "call_function":
            t = n.target
            name = str(t) if hasattr(t, "_schema") else getattr(t, "__name__", str(t))
            out.append([name, _val(n.meta.get("val"))])
        elif n.op == "get_attr":
            out.append(["get_attr", None])
    return out


def trace(torch, make_fx, functionalize, name, mode, core=None):
    """The graph of case `name` traced by make_fx in `mode` (see MODES), as `describe` lists
    it, or {"error": type, "msg": first line} when tracing raises. `core`: the library's
    core_aten_decompositions (mode core_fake)."""
    f, args = CASES[name](torch)
    tracing = mode.split("_")[-1]
    if mode.startswith("functional"):
        f = functionalize(f)
    table = core() if mode.startswith("core") else None
    try:
        gm = make_fx(
            f, tracing_mode=tracing, decomposition_table=table, pre_dispatch=mode.startswith("pre")
        )(*args)
    except Exception as e:  # noqa: BLE001 - the error is the recorded behaviour
        return {"error": type(e).__name__, "msg": str(e).splitlines()[0][:200]}
    return describe(gm)
