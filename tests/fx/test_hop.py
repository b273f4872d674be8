"""Higher-order operators: cond (eager and traced, printed as PyTorch 2.13 prints it),
py_impl, auto_functionalized_v2."""

import pytest

import keyroute as torch
from keyroute._higher_order_ops import HigherOrderOperator, auto_functionalized_v2
from keyroute.fx.experimental.proxy_tensor import make_fx


def f(x):
    return torch.cond(x.sum() > 0, lambda a: a.sin(), lambda a: a.cos(), (x,)) + 1


# PyTorch 2.13: make_fx(f, tracing_mode="fake")(torch.randn(3)).print_readable()
TORCH_COND = """class f(torch.nn.Module):
    def forward(self, x_1: "f32[3]"):
        # No stacktrace found for following nodes
        sum_1: "f32[]" = torch.ops.aten.sum.default(x_1)
        gt: "b8[]" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
        true_graph_0 = self.true_graph_0
        false_graph_0 = self.false_graph_0
        cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, (x_1,));  gt = true_graph_0 = false_graph_0 = x_1 = None
        getitem: "f32[3]" = cond[0];  cond = None
        add: "f32[3]" = torch.ops.aten.add.Tensor(getitem, 1);  getitem = None
        return add

    class true_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[3]"):
            # No stacktrace found for following nodes
            sin: "f32[3]" = torch.ops.aten.sin.default(arg0_1);  arg0_1 = None
            return (sin,)

    class false_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[3]"):
            # No stacktrace found for following nodes
            cos: "f32[3]" = torch.ops.aten.cos.default(arg0_1);  arg0_1 = None
            return (cos,)
"""  # noqa: E501


def test_cond_eager_picks_a_branch():
    x = torch.tensor([1.0, 2.0])
    assert bool((f(x) == x.sin() + 1).all())
    assert bool((f(-x) == (-x).cos() + 1).all())


@pytest.mark.parametrize("mode", ["real", "fake"])
def test_cond_traced_both_branches(mode):
    gm = make_fx(f, tracing_mode=mode)(torch.randn(3))
    if mode == "fake":
        assert gm.print_readable(print_output=False) == TORCH_COND
    x = torch.tensor([0.5, 1.0, 2.0])
    assert bool((gm(x) == x.sin() + 1).all())
    assert bool((gm(-x) == (-x).cos() + 1).all())


def test_cond_bad_pred():
    with pytest.raises(RuntimeError, match="Expected pred to be bool or single-element tensor"):
        torch.cond(torch.ones(2), lambda a: a, lambda a: a, (torch.ones(1),))


def test_py_impl_per_mode_and_key():
    from keyroute.dispatcher.keys import DispatchKey
    from keyroute.utils.python_dispatch import TorchDispatchMode

    hop = HigherOrderOperator("kr_test_double")
    hop.py_impl(DispatchKey.CompositeExplicitAutograd)(lambda x: x * 2)

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    hop.py_impl(Mode)(lambda mode, x: x * 3)
    assert float(hop(torch.tensor(1.0))) == 2.0
    with Mode():
        assert float(hop(torch.tensor(1.0))) == 3.0
    with pytest.raises(RuntimeError, match="Trying to override a python impl"):
        hop.py_impl(Mode)(lambda mode, x: x)


def test_auto_functionalized_v2_eager():
    lib = torch.library.Library("kr_hop_test", "FRAGMENT")
    lib.define("bump(Tensor(a!) c, Tensor x) -> Tensor")

    def bump(c, x):
        c.add_(x)
        return x * 2

    lib.impl("bump", bump, "CompositeExplicitAutograd")
    op = torch.ops.kr_hop_test.bump.default
    c = torch.zeros(2)
    out, new_c = auto_functionalized_v2(op, _all_bases=[c], x=torch.ones(2))
    assert bool((c == 0).all())  # the input itself is not written
    assert bool((new_c == 1).all()) and bool((out == 2).all())
