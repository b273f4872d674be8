"""Functions whose torch.compile graph breaks are recorded from PyTorch 2.13
(tools/record_compile_breaks.py) and compared with keyroute's (test_breaks.py).

Each case is `name(torch) -> (fn, args)`; the functions are defined here so that the
"from user code" locations both libraries report point at the same file and line.
"""

from __future__ import annotations


def _x(torch, *shape):
    g = torch.Generator().manual_seed(0)
    return torch.randn(*shape, generator=g)


def item_mul(torch):
    def f(x):
        y = x.sin()
        v = y.sum().item()
        return y * v

    return f, (_x(torch, 3),)


def if_tensor(torch):
    def f(x):
        y = x.sin()
        if y.sum() > 0:
            return y.cos()
        return y + 1

    return f, (_x(torch, 3),)


def tolist_float(torch):
    def f(x):
        y = x * 2
        n = len(y.tolist())
        return y + n

    return f, (_x(torch, 3),)


def tolist_int(torch):
    def f(x):
        y = x * 2
        return y + sum(y.tolist())

    return f, (torch.arange(3),)


def print_tensor(torch):
    def f(x):
        y = x * 2
        print(y)
        return y + 1

    return f, (_x(torch, 3),)


def disabled_call(torch):
    @torch.compiler.disable
    def helper(x):
        return x + 1

    def f(x):
        y = x * 2
        return helper(y) * 3

    return f, (_x(torch, 3),)


def two_breaks(torch):
    def f(x):
        a = x.cos()
        s = a.sum().item()
        b = a * s
        t = b.max().item()
        return b - t

    return f, (_x(torch, 4),)


def no_break(torch):
    def f(x, w):
        return torch.relu(x @ w).sum(-1)

    return f, (_x(torch, 2, 3), _x(torch, 3, 4))


def break_at_start(torch):
    def f(x):
        v = x.sum().item()
        return x * v

    return f, (_x(torch, 3),)


def if_in_module(torch):
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 3)

        def forward(self, x):
            y = self.lin(x)
            if y.mean() > 0:
                y = y * 2
            return y.relu()

    torch.manual_seed(0)
    return M(), (_x(torch, 2, 3),)


def numpy_call(torch):
    def f(x):
        y = x * 2
        y.numpy()
        return y + 1

    return f, (_x(torch, 3),)


def graph_break_call(torch):
    def f(x):
        y = x * 2
        torch._dynamo.graph_break()
        return y + 1

    return f, (_x(torch, 3),)


CASES = {
    name: fn
    for name, fn in dict(globals()).items()
    if callable(fn) and not name.startswith("_") and fn.__module__ == __name__
}
