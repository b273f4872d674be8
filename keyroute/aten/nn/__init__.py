"""aten nn operators: schemas, meta functions, decompositions, one module per family.

Backend operators (native_layer_norm, embedding, native_dropout, _safe_softmax,
_scaled_dot_product_flash_attention_for_cpu, nll_loss_forward, nll_loss2d_forward, mse_loss,
binary_cross_entropy, convolution, max_pool2d_with_indices, avg_pool2d, _adaptive_avg_pool2d,
constant_pad_nd) have meta functions with PyTorch's checks. The CompositeImplicitAutograd ops
(layer_norm, rms_norm, dropout, scaled_dot_product_attention and its math path, nll_loss,
nll_loss2d, nll_loss_nd, cross_entropy_loss, conv1d, conv2d, conv_transpose1d/2d/3d,
max_pool1d/2d, avg_pool1d, adaptive_avg_pool2d, pad, one_hot) decompose as PyTorch's C++
does, so a TorchDispatchMode logs the same aten calls.

The families: ``norm.py``, ``sparse.py`` (embedding, one_hot), ``dropout.py``, ``attention.py``,
``loss.py``, ``conv.py``, ``pool.py``, ``padding.py``; ``_common.py`` holds what they share.
The names below are re-exported because the CPU kernels reach them as ``aten.nn.<name>``.
"""

# ruff: noqa: F401  (the imports below are the re-exports)
from __future__ import annotations

# The families define their operators in this order (isort would sort it).
# isort: off
from . import norm, sparse, dropout, attention, loss, conv, pool, padding
from . import upsample, fold, grid_sample, unpool
from . import embedding_bag, pool3d, upsample_aa, ctc
from . import smooth_loss

# isort: on
from ._common import REDUCTION, _ints
from .attention import _flash_check, _safe_softmax, flash_attention_meta
from .conv import conv_output_shape, convolution
from .dropout import native_dropout
from .loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    mse_loss,
    nll_loss,
    nll_loss2d_forward_meta,
    nll_loss_forward_check,
    nll_loss_forward_meta,
)
from .norm import layer_norm_checks, layer_norm_stat_dtype
from .padding import constant_pad_shape, index_pad_shape
from .pool import (
    _adaptive_avg_pool2d,
    _avg_divisors,
    avg_pool2d,
    max_pool2d_with_indices,
    pool2d_params,
    pool_output_size,
)
from .sparse import embedding, embedding_renorm_, one_hot

__all__ = [
    "layer_norm_checks",
    "flash_attention_meta",
    "conv_output_shape",
    "pool_output_size",
    "nll_loss_forward_meta",
    "nll_loss_forward_check",
    "nll_loss2d_forward_meta",
    "REDUCTION",
]
