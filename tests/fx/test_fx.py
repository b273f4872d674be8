"""keyroute.fx: graphs, generated code (compared with the text PyTorch 2.13 prints for the same
programs), Interpreter, Transformer, dead-code elimination from schemas, symbolic_trace."""

import operator

import pytest

import keyroute as torch
from keyroute import fx
from keyroute.fx.experimental.proxy_tensor import make_fx


def _close(a, b):
    return bool(((a - b).abs() <= 1e-5 + 1e-5 * b.abs()).all())


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(4, 3)

    def forward(self, x):
        return torch.relu(self.l(x)).sum() + x.size(0)


# PyTorch 2.13's `symbolic_trace(M()).code` for the module above.
TORCH_M_CODE = """


def forward(self, x):
    l = self.l(x)
    relu = torch.relu(l);  l = None
    sum_1 = relu.sum();  relu = None
    size = x.size(0);  x = None
    add = sum_1 + size;  sum_1 = size = None
    return add
    """

# PyTorch 2.13's make_fx(f, tracing_mode="fake")(randn(3, 4), randn(4, 5)).print_readable().
TORCH_F_READABLE = """class f(torch.nn.Module):
    def forward(self, x_1: "f32[3, 4]", y_1: "f32[4, 5]"):
        # No stacktrace found for following nodes
        mm: "f32[3, 5]" = torch.ops.aten.mm.default(x_1, y_1);  x_1 = y_1 = None
        add_: "f32[3, 5]" = torch.ops.aten.add_.Tensor(mm, 1);  mm = None
        relu: "f32[3, 5]" = torch.ops.aten.relu.default(add_)
        sum_1: "f32[5]" = torch.ops.aten.sum.dim_IntList(relu, [0]);  relu = None
        select: "f32[5]" = torch.ops.aten.select.int(add_, 0, 0);  add_ = None
        return (sum_1, select)
"""


def f(x, y):
    z = x @ y
    z.add_(1)
    return torch.relu(z).sum(0), z[0]


def test_symbolic_trace_code_matches_pytorch():
    m = M()
    gm = fx.symbolic_trace(m)
    assert gm.code == TORCH_M_CODE
    x = torch.randn(2, 4)
    assert _close(gm(x), m(x))
    assert [n.op for n in gm.graph.nodes] == [
        "placeholder", "call_module", "call_function", "call_method", "call_method",
        "call_function", "output",
    ]  # fmt: skip
    assert list(gm.graph.nodes)[5].target is operator.add


def test_symbolic_trace_control_flow_refused():
    class C(torch.nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x
            return -x

    with pytest.raises(fx.proxy.TraceError, match="control flow"):
        fx.symbolic_trace(C())


def test_make_fx_print_readable_matches_pytorch():
    gm = make_fx(f, tracing_mode="fake")(torch.randn(3, 4), torch.randn(4, 5))
    assert gm.print_readable(print_output=False) == TORCH_F_READABLE
    x, y = torch.randn(3, 4), torch.randn(4, 5)
    for a, b in zip(gm(x, y), f(x.clone(), y)):
        assert _close(a, b)


def test_printed_code_runs():
    gm = make_fx(f)(torch.randn(3, 4), torch.randn(4, 5))
    ns = {"torch": torch}
    src = gm.print_readable(print_output=False)
    exec(src, ns)
    mod = ns["f"]()
    x, y = torch.randn(3, 4), torch.randn(4, 5)
    for a, b in zip(mod(x, y), f(x.clone(), y)):
        assert _close(a, b)


def test_meta_val_is_fake_in_both_modes():
    from keyroute.subclasses.fake_tensor import FakeTensor

    for mode in ("real", "fake"):
        gm = make_fx(f, tracing_mode=mode)(torch.randn(3, 4), torch.randn(4, 5))
        vals = [n.meta.get("val") for n in gm.graph.nodes if n.op != "output"]
        assert all(isinstance(v, FakeTensor) for v in vals)
        assert [tuple(v.shape) for v in vals] == [
            (3, 4),
            (4, 5),
            (3, 5),
            (3, 5),
            (3, 5),
            (5,),
            (5,),
        ]


def test_dead_code_elimination_follows_schema():
    def g(x, y):
        x.mul(3)  # pure, unused: removed
        y.add_(1)  # mutating, unused result: kept
        return x + 1

    gm = make_fx(g)(torch.randn(2), torch.randn(2))
    assert [str(n.target) for n in gm.graph.nodes if n.op == "call_function"] == [
        "aten.mul.Tensor", "aten.add_.Tensor", "aten.add.Tensor"
    ]  # fmt: skip
    assert gm.graph.eliminate_dead_code()
    gm.recompile()
    assert [str(n.target) for n in gm.graph.nodes if n.op == "call_function"] == [
        "aten.add_.Tensor", "aten.add.Tensor"
    ]  # fmt: skip
    assert not gm.graph.eliminate_dead_code()


def test_interpreter_and_transformer():
    gm = make_fx(f)(torch.randn(3, 4), torch.randn(4, 5))
    x, y = torch.randn(3, 4), torch.randn(4, 5)
    want = gm(x.clone(), y)
    got = fx.Interpreter(gm).run(x.clone(), y)
    assert all(_close(a, b) for a, b in zip(got, want))

    class ReluToSigmoid(fx.Transformer):
        def call_function(self, target, args, kwargs):
            if target is torch.ops.aten.relu.default:
                target = torch.ops.aten.sigmoid.default
            return super().call_function(target, args, kwargs)

    new = ReluToSigmoid(gm).transform()
    assert "aten.sigmoid.default" in new.code and "relu" not in new.code
    z = x @ y + 1
    assert _close(new(x.clone(), y)[0], torch.sigmoid(z).sum(0))


def test_graph_api():
    g = fx.Graph()
    a = g.placeholder("a")
    b = g.call_function(torch.ops.aten.sin.default, (a,))
    c = g.call_function(torch.ops.aten.cos.default, (b,))
    g.output(c)
    assert [n.name for n in g.nodes] == ["a", "sin", "cos", "output"]
    with g.inserting_after(b):
        d = g.call_function(torch.ops.aten.neg.default, (b,))
    c.replace_input_with(b, d)
    assert list(b.users) == [d]
    g.lint()
    gm = fx.GraphModule({}, g)
    x = torch.randn(3)
    assert _close(gm(x), torch.cos(-torch.sin(x)))
    with pytest.raises(RuntimeError, match="still had 1 users"):
        g.erase_node(b)


def test_decomposition_tables():
    from keyroute._decomp import core_aten_decompositions, get_decompositions

    aten = torch.ops.aten
    table = get_decompositions([aten.silu, aten.t.default])
    assert set(table) == {aten.silu.default, aten.t.default}
    assert aten.silu.default in core_aten_decompositions()
    gm = make_fx(lambda x: torch.nn.functional.silu(x.t()), decomposition_table=table)(
        torch.randn(2, 3)
    )
    targets = [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]
    assert targets == ["aten.permute.default", "aten.sigmoid.default", "aten.mul.Tensor"]
    x = torch.randn(2, 3)
    assert _close(gm(x), torch.nn.functional.silu(x.t()))


def test_pre_dispatch_records_composite_ops():
    def g(x, w):
        return torch.nn.functional.linear(x, w).relu_()

    gm = make_fx(g, pre_dispatch=True)(torch.randn(2, 3), torch.randn(4, 3))
    assert [str(n.target) for n in gm.graph.nodes if n.op == "call_function"] == [
        "aten.linear.default", "aten.relu_.default"
    ]  # fmt: skip
    plain = make_fx(g)(torch.randn(2, 3), torch.randn(4, 3))
    assert "aten.linear.default" not in plain.code  # below autograd: t + mm
