"""Gradient cases of the activation, loss, layer-norm, embedding and pooling backward
operators (their double backward), registered into grad_cases.CASES."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.autograd.grad_cases import case, ints, t

case("gelu_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4)), {}))
case("gelu_backward_tanh", "gelu_backward")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4)), {"approximate": "tanh"})
)
case("softplus_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), 2.0, 1.5), {}))
case("leaky_relu_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), 0.1, False), {}))
case("hardtanh_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), -1.0, 1.0), {}))
case("hardswish_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4, low=-4, high=4)), {}))
case("elu_backward")(lambda M, rng: ((t(M, rng, 3, 4), 1.5, 1.0, 0.5, False, t(M, rng, 3, 4)), {}))
case("elu_backward_result", "elu_backward")(
    lambda M, rng: ((t(M, rng, 3, 4), 1.5, 1.0, 1.0, True, t(M, rng, 3, 4, low=-1.4)), {})
)
case("mse_loss_backward")(lambda M, rng: ((t(M, rng), t(M, rng, 3, 4), t(M, rng, 3, 4), 1), {}))
case("mse_loss_backward_none", "mse_loss_backward")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), t(M, rng, 3, 4), 0), {})
)
case("binary_cross_entropy_backward")(
    lambda M, rng: (
        (t(M, rng), t(M, rng, 3, 4, low=0.1, high=0.9), t(M, rng, 3, 4, low=0, high=1)),
        {"reduction": 1},
    )
)


def _layer_norm_backward(grad_input: bool) -> Any:
    def make(M: Any, rng: np.random.Generator) -> Any:  # noqa: N803
        x = t(M, rng, 3, 4, grad=grad_input)
        xd = x.detach()
        # mean and rstd as the forward computes them (eps 1e-5): PyTorch's double backward
        # treats them as functions of the input
        mean = xd.mean(-1, keepdim=True)
        rstd = (xd.var(-1, unbiased=False, keepdim=True) + 1e-5).rsqrt()
        args = (t(M, rng, 3, 4), x, [4], mean, rstd, t(M, rng, 4), t(M, rng, 4, grad=False))
        return (*args, [True, True, True]), {}

    return make


case("native_layer_norm_backward")(_layer_norm_backward(False))
case("native_layer_norm_backward_input", "native_layer_norm_backward")(_layer_norm_backward(True))
case("embedding_dense_backward")(
    lambda M, rng: ((t(M, rng, 5, 3), ints(M, [0, 2, 1, 0, 3]), 4, 1, False), {})
)
case("max_pool2d_with_indices_backward")(
    lambda M, rng: (
        (
            t(M, rng, 1, 2, 2, 2),
            t(M, rng, 1, 2, 4, 4),
            [2, 2],
            [2, 2],
            [0, 0],
            [1, 1],
            False,
            ints(M, [[[[0, 3], [9, 14]], [[5, 2], [8, 15]]]]),
        ),
        {},
    )
)
case("avg_pool2d_backward")(
    lambda M, rng: (
        (t(M, rng, 1, 2, 2, 2), t(M, rng, 1, 2, 4, 4), [2, 2], [2, 2], [0, 0], False, True, None),
        {},
    )
)
case("_adaptive_avg_pool2d_backward")(
    lambda M, rng: ((t(M, rng, 1, 2, 2, 3), t(M, rng, 1, 2, 5, 6)), {})
)
