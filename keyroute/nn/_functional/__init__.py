"""torch.nn.functional, family by family (keyroute/nn/functional.py re-exports each module's
names): norms, losses, activations, pooling and padding, attention, recurrent helpers."""

from typing import Any


def F_softmax(x: Any, dim: int) -> Any:
    from .. import functional

    return functional.softmax(x, dim=dim)


def F_dropout(x: Any, p: float) -> Any:
    from .. import functional

    return functional.dropout(x, p=p)


def sdpa(q: Any, k: Any, v: Any, mask: Any, p: float, is_causal: bool) -> Any:
    from .. import functional

    return functional.scaled_dot_product_attention(q, k, v, mask, p, is_causal)
