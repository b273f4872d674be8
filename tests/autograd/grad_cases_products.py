"""Gradient cases of the smooth losses, their backward operators (double backward), trace,
addr, _trilinear and renorm (aten/nn/smooth_loss.py, aten/products.py); registered into
grad_cases.CASES. No torch or keyroute import here."""

from __future__ import annotations

from tests.autograd.grad_cases import case, t

case("huber_loss")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4)), {}))
case("huber_loss_none", "huber_loss")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), 0, 0.5), {})
)
case("smooth_l1_loss")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), 1, 0.5), {}))
case("smooth_l1_loss_sum", "smooth_l1_loss")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), 2, 1.5), {})
)
case("huber_loss_backward")(
    lambda M, rng: ((t(M, rng), t(M, rng, 3, 4), t(M, rng, 3, 4), 1, 0.7), {})
)
case("huber_loss_backward_none", "huber_loss_backward")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), t(M, rng, 3, 4), 0, 1.0), {})
)
case("smooth_l1_loss_backward")(
    lambda M, rng: ((t(M, rng), t(M, rng, 3, 4), t(M, rng, 3, 4), 1, 0.5), {})
)
case("smooth_l1_loss_backward_none", "smooth_l1_loss_backward")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), t(M, rng, 3, 4), 0, 1.5), {})
)
case("trace")(lambda M, rng: ((t(M, rng, 3, 4),), {}))
case("addr")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3), t(M, rng, 4)), {"beta": 2.0, "alpha": 0.5})
)
case("addr_broadcast", "addr")(lambda M, rng: ((t(M, rng, 4), t(M, rng, 3), t(M, rng, 4)), {}))
case("_trilinear")(
    lambda M, rng: (
        (t(M, rng, 2, 3), t(M, rng, 5, 3, 4), t(M, rng, 2, 4), [1, 3], [0], [1, 2], [2, 3]),
        {},
    )
)
case("renorm")(lambda M, rng: ((t(M, rng, 3, 4), 2, 0, 1.5), {}))
case("renorm_p1", "renorm")(lambda M, rng: ((t(M, rng, 3, 4), 1, 1, 2.0), {}))
case("renorm_p3", "renorm")(lambda M, rng: ((t(M, rng, 3, 4), 3, 0, 1.0), {}))
