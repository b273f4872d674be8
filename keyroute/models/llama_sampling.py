"""Choosing the next token from a decoder's logits: greedy, temperature, top-k, top-p.

The arithmetic is that of Hugging Face's logits warpers, in their order (temperature, then
top-k, then top-p), and the draw is `multinomial(softmax(logits), 1, generator=g)`, so a seeded
`Generator` gives the tokens PyTorch gives with the same seed.

    top-k: logits below the k-th largest become -inf
    top-p: sorted ascending, the tokens whose cumulative probability is <= 1 - p are removed
           (the most likely token always stays)
"""

from __future__ import annotations

from typing import Any

from ..tensor._tensor import Tensor

__all__ = ["sample_next", "check_sampling"]


def check_sampling(temperature: float, top_k: int | None, top_p: float | None) -> None:
    """PyTorch / transformers' wording for bad sampling settings."""
    if temperature < 0:
        raise ValueError(
            f"`temperature` (={temperature}) has to be a non-negative float; 0 means greedy"
        )
    if top_k is not None and (not isinstance(top_k, int) or top_k <= 0):
        raise ValueError(f"`top_k` has to be a strictly positive integer, but is {top_k}")
    if top_p is not None and not 0.0 < top_p <= 1.0:
        raise ValueError(f"`top_p` has to be a float > 0 and <= 1, but is {top_p}")


def sample_next(
    logits: Tensor,
    temperature: float = 0.0,
    top_k: int | None = None,
    top_p: float | None = None,
    generator: Any = None,
) -> int:
    """The next token id from one position's logits (shape (vocab,))."""
    from .. import multinomial, softmax

    if temperature == 0.0:
        return int(logits.argmax())
    scores = logits / temperature
    neg_inf = float("-inf")
    if top_k is not None and top_k < scores.shape[-1]:
        kth = scores.topk(top_k).values[-1]
        scores = scores.masked_fill(scores < kth, neg_inf)
    if top_p is not None and top_p < 1.0:
        ordered, index = scores.sort(descending=False)
        cumulative = softmax(ordered, -1).cumsum(-1)
        remove = cumulative <= (1 - top_p)
        remove[-1] = False  # keep the most likely token
        scores = scores.masked_fill(remove.scatter(0, index, remove), neg_inf)
    probs = softmax(scores, -1)
    return int(multinomial(probs, 1, generator=generator)[0])
