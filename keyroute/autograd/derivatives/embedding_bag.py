"""Derivative of _embedding_bag (aten/nn/embedding_bag.py), derivatives.yaml's: the weight's
through _embedding_bag_backward (CompositeImplicitAutograd: _embedding_bag_dense_backward),
the per-sample weights' through _embedding_bag_per_sample_weights_backward. indices and
offsets are not differentiable; _embedding_bag_dense_backward's own derivative is
not_implemented (no_formula.py)."""

from __future__ import annotations

from ._registry import aten, derivative


@derivative(
    "_embedding_bag",
    "EmbeddingBagBackward0",
    inputs=("weight", "per_sample_weights"),
    n_outputs=4,
    save=(
        "weight", "indices", "offsets", "scale_grad_by_freq", "mode", "sparse",
        "per_sample_weights", "padding_idx", "result1", "result2", "result3",
    ),
)  # fmt: skip
def _embedding_bag(
    grads, weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
    padding_idx, result1, result2, result3,
):  # fmt: skip
    grad = grads[0]
    g_weight = g_psw = None
    if weight.requires_grad:
        g_weight = aten._embedding_bag_backward.default(
            grad, indices, offsets, result1, result2, result3, weight.shape[0],
            scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx,
        )  # fmt: skip
    if per_sample_weights is not None and per_sample_weights.requires_grad:
        g_psw = aten._embedding_bag_per_sample_weights_backward.default(
            grad, weight, indices, offsets, result1, mode, padding_idx
        )
    return g_weight, g_psw
