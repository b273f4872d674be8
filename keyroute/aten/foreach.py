"""The `_foreach_*` operators nn.utils calls (clip_grad_norm_, clip_grad_value_): one aten
call over a list of tensors, as PyTorch's CPU build runs them (its slow path: one per-tensor
operator per element, below the dispatcher). A dispatch mode sees the single _foreach call.

CompositeExplicitAutograd: each backend runs the per-tensor loop; the in-place forms write
each tensor of the list.
"""

from __future__ import annotations

from ._define import composite_explicit
from .linalg import op

__all__: list[str] = []


@composite_explicit(
    "_foreach_norm.Scalar(Tensor[] self, Scalar ord=2, ScalarType? dtype=None) -> Tensor[]"
)
def _foreach_norm(self, ord=2, dtype=None):
    return [op("linalg_vector_norm")(t, ord, None, False, dtype=dtype) for t in self]


@composite_explicit("_foreach_mul.Tensor(Tensor[] self, Tensor other) -> Tensor[]")
def _foreach_mul_tensor(self, other):
    return [op("mul.Tensor")(t, other) for t in self]


@composite_explicit("_foreach_mul.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]")
def _foreach_mul_scalar(self, scalar):
    return [op("mul.Scalar")(t, scalar) for t in self]


@composite_explicit("_foreach_mul_.Tensor(Tensor(a!)[] self, Tensor other) -> ()")
def _foreach_mul__tensor(self, other):
    for t in self:
        op("mul_.Tensor")(t, other)


@composite_explicit("_foreach_mul_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()")
def _foreach_mul__scalar(self, scalar):
    for t in self:
        op("mul_.Scalar")(t, scalar)


@composite_explicit("_foreach_clamp_min_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()")
def _foreach_clamp_min_(self, scalar):
    for t in self:
        op("clamp_min_")(t, scalar)


@composite_explicit("_foreach_clamp_max_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()")
def _foreach_clamp_max_(self, scalar):
    for t in self:
        op("clamp_max_")(t, scalar)
