"""Programs compiled with sizes that change between calls (automatic dynamic shapes) or with
`dynamic=True`, recorded from PyTorch 2.13 (tools/record_dynamic_shapes.py ->
tests/data/compile_dynamic.json) and compared by test_dynamic_shapes.py.

Each case: (function or module factory, list of calls, dynamic flag). A call is a list of
input shapes; inputs are deterministic float32 tensors of those shapes. What is recorded per
case: after each call, how many graphs have been compiled; per graph its placeholders as
PyTorch's print_readable annotates them ("s77: Sym(s77)", "L_x_: f32[s77, 3]") and its
outputs' shapes.
"""

from __future__ import annotations

import numpy as np

SIZES = [4, 8, 16, 1, 0, 5]


def make_inputs(torch, shapes):
    out = []
    for i, s in enumerate(shapes):
        rng = np.random.default_rng(17 + i + sum(s))
        out.append(torch.from_numpy(rng.standard_normal(s).astype("float32")))
    return out


def pointwise(torch):
    def f(x):
        return torch.relu(x) * 2 + 1

    return f, [[(n, 3)] for n in SIZES], None


def reduction(torch):
    def f(x):
        return x.sum(1) + x.mean(0).sum()

    return f, [[(n, 6)] for n in SIZES], None


def matmul(torch):
    def f(x, w):
        return torch.tanh(x @ w)

    return f, [[(n, 3), (3, 5)] for n in SIZES], None


def linear(torch):
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    return m, [[(n, 3)] for n in SIZES], None


def linear_3d(torch):
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 4)
    return m, [[(n, 2, 3)] for n in (4, 8, 16)], None


def duck_sizing(torch):
    def f(x, y):
        return x * y + x

    return f, [[(n, 3), (n, 3)] for n in (4, 8, 16)], None


def two_symbols(torch):
    def f(x, y):
        return x.sum(0) + y.sum(0)

    return f, [[(4, 3), (5, 3)], [(6, 3), (7, 3)], [(9, 3), (2, 3)]], None


def size_scalar(torch):
    def f(x):
        return x * x.shape[0]

    return f, [[(n, 3)] for n in (4, 8, 16)], None


def view_batch(torch):
    def f(x):
        return x.view(x.shape[0], -1).sum(1)

    return f, [[(n, 2, 3)] for n in (4, 8, 16)], None


def size_branch(torch):
    def f(x):
        if x.shape[0] > 10:
            return x * 2
        return x + 1

    return f, [[(n, 3)] for n in (4, 8, 6, 16, 32)], None


def dynamic_true(torch):
    def f(x):
        return torch.sigmoid(x).sum(1)

    return f, [[(4, 3)], [(8, 5)], [(1, 5)]], True


def duck_true(torch):
    # dynamic=True: DimDynamic.DUCK, equal sizes share the first source's symbol (x's 4 and
    # y's 4), unequal ones get their own
    def f(x, y):
        return x.sum(1) + y.sum(1)

    return f, [[(4, 3), (4, 5)], [(6, 3), (6, 5)]], True


def dynamic_false(torch):
    def f(x):
        return x * 2

    return f, [[(n, 3)] for n in (4, 8, 16)], False


def inner_dim(torch):
    def f(x):
        return torch.softmax(x, -1)

    return f, [[(2, n)] for n in (4, 8, 16)], None


CASES = {
    f.__name__: f
    for f in (
        pointwise,
        reduction,
        matmul,
        linear,
        linear_3d,
        duck_sizing,
        two_symbols,
        size_scalar,
        view_batch,
        size_branch,
        dynamic_true,
        duck_true,
        dynamic_false,
        inner_dim,
    )
}
