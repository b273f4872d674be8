# ruff: noqa: E501
"""Functionalization (keyroute/layers/functionalize.py): the graphs of make_fx(functionalize(f))
are PyTorch 2.13's, printed code compared with what PyTorch printed for the same functions; the
functionalized function computes what the eager one does, including input mutations."""

import pytest

import keyroute as torch
from keyroute.func import functionalize
from keyroute.fx.experimental.proxy_tensor import make_fx


def f1(x):
    y = x.view(-1)
    y.add_(1)
    return x


def f2(x):
    x[0].mul_(2)
    z = x.t()
    return z + 1


def f3(x):
    a, b = x.split(2)
    a.zero_()
    return b * 2, x


def f4(x):
    y = x.transpose(0, 1)
    y[1].fill_(3.0)
    return x.sum()


# PyTorch 2.13: make_fx(functionalize(f, remove=...))(torch.randn(4, 3)).code
TORCH = {
    ("f1", "mutations"): """
def forward(self, x_1):
    view = torch.ops.aten.view.default(x_1, [-1])
    add = torch.ops.aten.add.Tensor(view, 1);  view = None
    view_1 = torch.ops.aten.view.default(add, [4, 3]);  add = None
    view_2 = torch.ops.aten.view.default(view_1, [-1]);  view_2 = None
    copy_ = torch.ops.aten.copy_.default(x_1, view_1);  x_1 = copy_ = None
    return view_1
""",
    ("f2", "mutations_and_views"): """
def forward(self, x_1):
    select_copy = torch.ops.aten.select_copy.int(x_1, 0, 0)
    mul = torch.ops.aten.mul.Tensor(select_copy, 2);  select_copy = None
    select_scatter = torch.ops.aten.select_scatter.default(x_1, mul, 0, 0);  mul = None
    select_copy_1 = torch.ops.aten.select_copy.int(select_scatter, 0, 0);  select_copy_1 = None
    t_copy = torch.ops.aten.t_copy.default(x_1);  t_copy = None
    t_copy_1 = torch.ops.aten.t_copy.default(select_scatter)
    add = torch.ops.aten.add.Tensor(t_copy_1, 1);  t_copy_1 = None
    copy_ = torch.ops.aten.copy_.default(x_1, select_scatter);  x_1 = select_scatter = copy_ = None
    return add
""",
    ("f3", "mutations_and_views"): """
def forward(self, x_1):
    split_copy = torch.ops.aten.split_copy.Tensor(x_1, 2)
    getitem = split_copy[0]
    getitem_1 = split_copy[1];  split_copy = getitem_1 = None
    zero = torch.ops.aten.zero.default(getitem);  getitem = None
    slice_scatter = torch.ops.aten.slice_scatter.default(x_1, zero, 0, 0, 2);  zero = None
    split_copy_1 = torch.ops.aten.split_copy.Tensor(slice_scatter, 2)
    getitem_2 = split_copy_1[0];  getitem_2 = None
    getitem_3 = split_copy_1[1];  split_copy_1 = getitem_3 = None
    split_copy_2 = torch.ops.aten.split_copy.Tensor(slice_scatter, 2)
    getitem_4 = split_copy_2[0];  getitem_4 = None
    getitem_5 = split_copy_2[1];  split_copy_2 = None
    mul = torch.ops.aten.mul.Tensor(getitem_5, 2);  getitem_5 = None
    copy_ = torch.ops.aten.copy_.default(x_1, slice_scatter);  x_1 = copy_ = None
    return (mul, slice_scatter)
""",
    ("f4", "mutations"): """
def forward(self, x_1):
    transpose = torch.ops.aten.transpose.int(x_1, 0, 1)
    select = torch.ops.aten.select.int(transpose, 0, 1);  transpose = None
    fill = torch.ops.aten.fill.Scalar(select, 3.0);  select = None
    transpose_1 = torch.ops.aten.transpose.int(x_1, 0, 1)
    select_scatter = torch.ops.aten.select_scatter.default(transpose_1, fill, 0, 1);  transpose_1 = fill = None
    transpose_2 = torch.ops.aten.transpose.int(select_scatter, 0, 1);  select_scatter = None
    transpose_3 = torch.ops.aten.transpose.int(transpose_2, 0, 1)
    select_1 = torch.ops.aten.select.int(transpose_3, 0, 1);  transpose_3 = select_1 = None
    sum_1 = torch.ops.aten.sum.default(transpose_2)
    copy_ = torch.ops.aten.copy_.default(x_1, transpose_2);  x_1 = transpose_2 = copy_ = None
    return sum_1
""",
}  # noqa: E501

FNS = {"f1": f1, "f2": f2, "f3": f3, "f4": f4}


@pytest.mark.parametrize("key", sorted(TORCH))
def test_graph_matches_pytorch(key):
    name, remove = key
    gm = make_fx(functionalize(FNS[name], remove=remove))(torch.randn(4, 3))
    assert "\n".join(ln for ln in gm.code.splitlines() if ln.strip()) == TORCH[key].strip()


@pytest.mark.parametrize("name", sorted(FNS))
@pytest.mark.parametrize("remove", ["mutations", "mutations_and_views"])
def test_values_and_input_mutation_match_eager(name, remove):
    x = torch.randn(4, 3)
    x_eager = x.clone()
    got = functionalize(FNS[name], remove=remove)(x)
    want = FNS[name](x_eager)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for a, b in zip(got, want):
        assert bool((a == b).all())
    assert bool((x == x_eager).all())  # the input's mutation was copied back


def test_functional_graph_has_no_mutation_but_the_copy_back():
    gm = make_fx(functionalize(f4))(torch.randn(4, 3))
    mutating = [
        str(n.target)
        for n in gm.graph.nodes
        if n.op == "call_function" and n.target._schema.is_mutable
    ]
    assert mutating == ["aten.copy_.default"]


def test_invalid_remove():
    with pytest.raises(RuntimeError, match="received invalid argument for remove=views"):
        functionalize(f1, remove="views")


def test_custom_mutating_op_refused_with_pytorch_text():
    lib = torch.library.Library("kr_fn_test", "FRAGMENT")
    lib.define("wr(Tensor(a!) c, Tensor x) -> ()")
    lib.impl("wr", lambda c, x: c.copy_(x) and None, "CompositeExplicitAutograd")

    def f(c, x):
        torch.ops.kr_fn_test.wr(c, x)
        return c + 1

    with pytest.raises(
        RuntimeError,
        match=r"Found a custom \(non-ATen\) operator whose output has alias annotations",
    ):
        functionalize(f)(torch.zeros(3), torch.ones(3))


def test_private_api():
    x = torch.ones(3)
    w = torch._to_functional_tensor(x)
    assert torch._is_functional_tensor(w) and not torch._is_functional_tensor(x)
    assert torch._from_functional_tensor(w) is x
    torch._sync(w)
    assert torch._C._to_functional_tensor is torch._to_functional_tensor
