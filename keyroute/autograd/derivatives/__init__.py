"""The derivatives table: one short entry per differentiable operator (PyTorch's
derivatives.yaml). An entry names the operator, its graph node (PyTorch's name), what the
forward saves, and the formula mapping the output gradient to one gradient per differentiable
input (the schema's tensor arguments in order, unless `inputs=` says otherwise; None = no
gradient). Gradients of broadcast inputs are summed back to the input's shape by the engine.

    @derivative("mul.Tensor", "MulBackward0", save=("self", "other"))
    def _(grad, self, other):
        return grad * other, grad * self

The in-place form of an operator (`mul_.Tensor`) uses the same entry. There are two ways to
register an entry, `derivative` and `same_formula`; `_registry.py` says when each is used.

One module per operator family, mirroring keyroute/aten/: elementwise, views, reductions,
linalg, indexing, assembly, nn, backward_ops; then `inplace` (in-place operators with an entry
of their own) and `no_formula` (not_implemented entries, non-differentiable operators, the
generated out= forms). The autograd layer that applies these is keyroute/layers/autograd.py.
"""

from __future__ import annotations

from ._registry import DERIVATIVES, Derivative, derivative, same_formula

__all__ = ["DERIVATIVES", "NOT_IMPLEMENTED", "Derivative", "derivative", "same_formula"]

# The families register their entries on import; in-place forms reuse entries, so come last.
from . import (  # noqa: E402, F401, I001
    elementwise,
    views,
    reductions,
    linalg,
    linalg_ops,
    special,
    misc_ops,
    indexing,
    assembly,
    nn,
    norms,
    backward_ops,
    nn_backward_ops,
    wirtinger,
    functional_variants,
    mathbits,
    complex_ops,
    fft,
    upsample,
    fold,
    grid_sample,
    unpool,
    embedding_bag,
    pool3d,
    spectral,
    ctc,
    smooth_loss,
    products,
    inplace,
    no_formula,
)
from .no_formula import NOT_IMPLEMENTED  # noqa: E402
