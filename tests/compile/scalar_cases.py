"""Programs calling `.item()` under `torch._dynamo.config.capture_scalar_outputs = True`,
recorded from PyTorch 2.13 (tools/record_capture_scalar.py -> tests/data/compile_scalars.json)
and compared by test_capture_scalar.py. Each case: (function, inputs) for `torch` (keyroute or
PyTorch); the inputs are deterministic."""

from __future__ import annotations

import numpy as np


def _t(torch, *shape, seed=0):
    rng = np.random.default_rng(seed + sum(shape))
    return torch.from_numpy(rng.standard_normal(shape).astype("float32"))


def item_scale(torch):
    def f(x, y):
        return y * x.sum().item()

    return f, (_t(torch, 3), _t(torch, 4))


def item_arithmetic(torch):
    def f(x, y):
        s = x.sum().item()
        return y * (s * 2 + 1) - s / 4

    return f, (_t(torch, 3), _t(torch, 4))


def item_normalize(torch):
    def f(x):
        return x / (x.abs().max().item() + 1e-6)

    return f, (_t(torch, 2, 5),)


def item_branch(torch):
    def f(x):
        if x.sum().item() > 0:
            return x + 1
        return x - 1

    return f, (_t(torch, 6),)


def item_two_scalars(torch):
    def f(x, y):
        a = x.mean().item()
        b = y.mean().item()
        return x * a + y * b

    return f, (_t(torch, 4), _t(torch, 4, seed=1))


def item_integer(torch):
    def f(x, n):
        return x * n.sum().item()

    return f, (_t(torch, 3), torch.tensor([2, 3]))


CASES = {
    "item_integer": item_integer,
    "item_scale": item_scale,
    "item_arithmetic": item_arithmetic,
    "item_normalize": item_normalize,
    "item_branch": item_branch,
    "item_two_scalars": item_two_scalars,
}
