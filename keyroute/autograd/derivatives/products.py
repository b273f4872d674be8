"""Derivatives of trace, addr, _trilinear and renorm (aten/products.py), derivatives.yaml's
formulas: trace_backward; addr's maybe_multiply(grad, beta) and the two matrix-vector products;
_trilinear_backward (three _trilinear calls with the expand and sum dims exchanged); and
FunctionsManual's renorm_backward (norms in double, the accumulate type on CPU)."""

from __future__ import annotations

import math
from typing import Any

from ...tensor import dtype as _dt
from ._registry import _shape, aten, derivative


@derivative("trace", "TraceBackward0", computed={"sizes": _shape("self")})
def _trace(grad, sizes):
    return (aten.trace_backward.default(grad, list(sizes)),)


def _maybe_multiply(t: Any, s: Any) -> Any:
    return t if s == 1 else aten.mul.Scalar(t, s)


def _conj_scalar(s: Any) -> Any:
    return s.conjugate() if isinstance(s, complex) else s


@derivative(
    "addr",
    "AddrBackward0",
    save=("vec1", "vec2", "beta", "alpha"),
    saved_for={"vec1": ("vec2",), "vec2": ("vec1",)},  # each vector only for the other's grad
)
def _addr(grad, vec1, vec2, beta, alpha, needs):
    g_self = _maybe_multiply(grad, _conj_scalar(beta)) if needs[0] else None
    g1 = g2 = None
    if needs[1]:
        g1 = aten.mv.default(grad, aten.conj.default(vec2))
        g1 = _maybe_multiply(g1, _conj_scalar(alpha))
    if needs[2]:
        g2 = aten.mv.default(aten.t.default(grad), aten.conj.default(vec1))
        g2 = _maybe_multiply(g2, _conj_scalar(alpha))
    return g_self, g1, g2


@derivative(
    "_trilinear",
    "TrilinearBackward0",
    save=("i1", "i2", "i3", "expand1", "expand2", "expand3", "sumdim"),
)
def _trilinear(grad, i1, i2, i3, expand1, expand2, expand3, sumdim, needs):
    tri = aten._trilinear.default
    g1 = tri(grad, i2, i3, sumdim, expand2, expand3, expand1) if needs[0] else None
    g2 = tri(i1, grad, i3, expand1, sumdim, expand3, expand2) if needs[1] else None
    g3 = tri(i1, i2, grad, expand1, expand2, sumdim, expand3) if needs[2] else None
    return g1, g2, g3


def _norm_backward(grad: Any, self: Any, p: float, norm: Any) -> Any:
    """FunctionsManual's norm_backward with keepdim norms (grad and norm broadcast to self)."""
    if p == 0:
        return aten.zeros_like.default(self)
    if p == 1:
        return aten.mul.Tensor(aten.sgn.default(self), grad)
    if p == 2:
        scaled = aten.div.Tensor(self, norm)
        aten.masked_fill_.Scalar(scaled, aten.eq.Scalar(norm, 0), 0)
        return aten.mul.Tensor(grad, scaled)
    if math.isinf(p):
        a = aten.abs.default(self)
        mask = aten._to_copy.default(aten.eq.Tensor(a, norm), dtype=norm.dtype)
        count = aten.sum.dim_IntList(mask, _other_dims(self, norm), True)
        share = aten.div.Tensor(aten.mul.Tensor(aten.sgn.default(self), mask), count)
        return aten.mul.Tensor(share, grad)
    a = aten.abs.default(self)
    num = aten.mul.Tensor(aten.mul.Tensor(self, aten.pow.Tensor_Scalar(a, p - 2)), grad)
    out = aten.div.Tensor(num, aten.pow.Tensor_Scalar(norm, p - 1))
    aten.masked_fill_.Scalar(out, aten.eq.Scalar(norm, 0), 0)
    return out


def _other_dims(self: Any, norm: Any) -> list[int]:
    return [d for d in range(self.dim()) if norm.shape[d] == 1 and self.shape[d] != 1] or [0]


@derivative("renorm", "RenormBackward0", save=("self", "p", "dim", "maxnorm"))
def _renorm(grad, self, p, dim, maxnorm):
    ndim = self.dim()
    d = dim % ndim
    reduce = [i for i in range(ndim) if i != d]
    acc = _acc_type(self.dtype)
    norm = aten.linalg_vector_norm.default(self, p, reduce, True, dtype=acc)
    real_acc = _real(acc)
    go = aten.mul.Tensor(aten.conj.default(self), grad)
    if real_acc is not acc:
        go = aten.real.default(go)
    go = aten.sum.dim_IntList(go, reduce, True, dtype=real_acc)
    nb = _norm_backward(go, self, float(p), norm)
    invnorm = aten.reciprocal.default(aten.add.Scalar(norm, 1e-7))
    diff = aten.sub.Tensor(grad, aten.mul.Tensor(invnorm, nb))
    factor = aten.mul.Scalar(invnorm, maxnorm)
    scaled = aten._to_copy.default(aten.mul.Tensor(factor, diff), dtype=grad.dtype)
    return (aten.where.self(aten.gt.Scalar(norm, maxnorm), scaled, grad),)


def _acc_type(dt: Any) -> Any:
    """at::toAccumulateType on CPU: float and double in double, the half types in float,
    complex in complex double."""
    if dt.is_complex:
        return _dt.complex128
    if dt.is_floating_point:
        return _dt.float32 if dt.itemsize == 2 else _dt.float64
    return dt


def _real(dt: Any) -> Any:
    return _dt.float64 if dt is _dt.complex128 else dt
