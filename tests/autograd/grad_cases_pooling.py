"""Gradient cases of embedding_bag (aten/nn/embedding_bag.py) and of 3-d and adaptive max
pooling with their backward operators (aten/nn/pool3d.py); registered into
tests/autograd/grad_cases.py's CASES. No torch or keyroute import here."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.autograd.grad_cases import case, t


def _long(M: Any, values: list[int]) -> Any:
    return M.tensor(values, dtype=M.int64)


_IDX = [0, 2, 2, 5, 1, 3, 3]
_OFF = [0, 2, 2, 5]


def _bag(mode: int, psw: bool = False, pad: int = -1, freq: bool = False) -> Any:
    def make(M: Any, rng: np.random.Generator) -> Any:
        w = t(M, rng, 6, 3)
        p = t(M, rng, len(_IDX)) if psw else None
        return (w, _long(M, _IDX), _long(M, _OFF), freq, mode, False, p, False, pad), {}

    return make


case("_embedding_bag")(_bag(0))
case("_embedding_bag_mean", "_embedding_bag")(_bag(1))
case("_embedding_bag_max", "_embedding_bag")(_bag(2))
case("_embedding_bag_psw", "_embedding_bag")(_bag(0, psw=True))
case("_embedding_bag_pad", "_embedding_bag")(_bag(1, pad=2))
case("_embedding_bag_freq", "_embedding_bag")(_bag(0, freq=True))

_X = (2, 2, 4, 5, 4)
_K, _S, _P, _D = [2, 3, 2], [2, 1, 2], [1, 1, 0], [1, 1, 2]
case("max_pool3d_with_indices")(lambda M, rng: ((t(M, rng, *_X), _K, _S, _P, _D, True), {}))
case("avg_pool3d")(lambda M, rng: ((t(M, rng, *_X), [3, 2, 3], [2, 1, 2], [1, 1, 1]), {}))
case("avg_pool3d_exclude", "avg_pool3d")(
    lambda M, rng: ((t(M, rng, *_X), [3, 2, 3], [2, 1, 2], [1, 1, 1], True, False), {})
)
case("_adaptive_avg_pool3d")(lambda M, rng: ((t(M, rng, *_X), [3, 2, 3]), {}))
case("adaptive_max_pool2d")(lambda M, rng: ((t(M, rng, 2, 5, 7), [3, 4]), {}))
case("adaptive_max_pool3d")(lambda M, rng: ((t(M, rng, *_X), [3, 2, 3]), {}))


def _backward_with_indices(op: str, shape: tuple[int, ...], *params: Any) -> Any:
    def make(M: Any, rng: np.random.Generator) -> Any:
        x = t(M, rng, *shape, grad=False)
        out, idx = getattr(M.ops.aten, op).default(x, *params)
        g = t(M, rng, *out.shape)
        if op.startswith("adaptive"):
            return (g, x, idx), {}
        return (g, x, *params, idx), {}

    return make


case("max_pool3d_with_indices_backward")(
    _backward_with_indices("max_pool3d_with_indices", _X, _K, _S, _P, _D, True)
)
case("adaptive_max_pool2d_backward")(
    _backward_with_indices("adaptive_max_pool2d", (2, 5, 7), [3, 4])
)
case("adaptive_max_pool3d_backward")(_backward_with_indices("adaptive_max_pool3d", _X, [3, 2, 3]))
case("avg_pool3d_backward")(
    lambda M, rng: (
        (
            t(M, rng, 2, 2, 2, 6, 2),
            t(M, rng, *_X),
            [3, 2, 3],
            [2, 1, 2],
            [1, 1, 1],
            False,
            True,
            None,
        ),
        {},
    )  # fmt: skip
)
case("_adaptive_avg_pool3d_backward")(
    lambda M, rng: ((t(M, rng, 2, 2, 3, 2, 3), t(M, rng, *_X)), {})
)
