"""CPU kernels of trace, addr, _trilinear and renorm (aten/products.py), as PyTorch's CPU
kernels compute them: float16/bfloat16 in float32 rounded once; renorm's norms in double
(its accumulate type for float on CPU)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten import products as _m
from ...aten._shape import wrap_dim
from ...tensor import dtype as _dt
from ...tensor._tensor import Tensor
from ._kernel import kernel
from .core import _SCALAR_T
from .nn import _as, _comp, _round
from .nn import _wrap as wrap

__all__: list[str] = []


@kernel("trace")
def trace(self: Tensor) -> Tensor:
    dt = _m.trace(self)._dtype
    comp = _comp(dt)
    a = self._data
    r = np.asarray(np.trace(a, dtype=comp) if a.size else np.zeros((), comp))
    return wrap(_round(r, dt), dt)


@kernel("addr")
def addr(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    meta = _m.addr(self, vec1, vec2, beta=beta, alpha=alpha)
    dt = meta._dtype
    if not dt.is_complex:  # the kernel's beta.to<scalar_t>(), alpha.to<scalar_t>()
        for s in (beta, alpha):
            if isinstance(s, complex) and s.imag != 0:
                raise RuntimeError(
                    f"value cannot be converted to type {_SCALAR_T[dt.np.name]} without overflow"
                )
        beta, alpha = (v.real if isinstance(v, complex) else v for v in (beta, alpha))
    shape = tuple(meta.shape)
    if dt is _dt.bool_:
        outer = np.logical_and.outer(vec1._data.astype(bool), vec2._data.astype(bool))
        r = np.logical_and(outer, bool(alpha))
        if beta:
            r = np.logical_or(r, np.broadcast_to(self._data.astype(bool), shape))
        return wrap(np.ascontiguousarray(r), dt)
    comp = _comp(dt)
    if comp != dt.np:  # float16/bfloat16: scalar_t arithmetic, each step rounded to dt
        return wrap(_addr_half(self, vec1, vec2, beta, alpha, dt, shape), dt)
    outer = np.multiply.outer(_as(vec1._data, comp), _as(vec2._data, comp))
    r = outer * comp.type(alpha) if alpha != 1 else outer
    if beta != 0:  # beta == 0 ignores self (its NaNs too), as PyTorch's kernel does
        s = np.broadcast_to(_as(self._data, comp), shape)
        r = r + (s * comp.type(beta) if beta != 1 else s)
    return wrap(np.ascontiguousarray(_round(np.asarray(r, comp), dt)), dt)


def _addr_half(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Any, alpha: Any, dt: Any,
               shape: tuple[int, ...]) -> np.ndarray:  # fmt: skip
    """addr_kernel's `beta * self + alpha * vec1 * vec2` in c10::Half / c10::BFloat16: the
    scalars converted to dt, and every product and the sum computed in float and rounded back
    (as the scalar and the Vectorized arithmetic of those types do)."""
    low = dt.np

    def rounded(x: np.ndarray) -> np.ndarray:
        return x.astype(low).astype(np.float32)

    f32 = np.float32
    a = f32(low.type(alpha))
    r = rounded(np.multiply.outer(rounded(a * vec1._data.astype(f32)), vec2._data.astype(f32)))
    if beta != 0:
        b = f32(low.type(beta))
        s = rounded(b * np.broadcast_to(self._data.astype(f32), shape))
        r = s + r
    return np.ascontiguousarray(r.astype(low))


@kernel("_trilinear")
def _trilinear(
    i1: Tensor,
    i2: Tensor,
    i3: Tensor,
    expand1: list[int],
    expand2: list[int],
    expand3: list[int],
    sumdim: list[int],
    unroll_dim: int = 1,
) -> Tensor:
    dt = _m._trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim)._dtype
    comp = _comp(dt)
    shapes = (tuple(i1.shape), tuple(i2.shape), tuple(i3.shape))
    full, out_shape = _m.trilinear_shape(shapes, (expand1, expand2, expand3), sumdim)
    a, b, c = (_as(t._data, comp).reshape(s) for t, s in zip((i1, i2, i3), full))
    prod = a * b * c
    r = prod.sum(axis=tuple(sorted(set(sumdim)))) if sumdim else prod
    r = np.asarray(r, comp).reshape(out_shape)
    return wrap(np.ascontiguousarray(_round(r, dt)), dt)


@kernel("renorm")
def renorm(self: Tensor, p: Any, dim: int, maxnorm: Any) -> Tensor:
    meta = _m.renorm(self, p, dim, maxnorm)
    dt = meta._dtype
    a = self._data
    d = wrap_dim(dim, a.ndim)
    axes = tuple(i for i in range(a.ndim) if i != d)
    acc = np.float64 if dt.np.kind == "f" and dt is not _dt.float64 else _comp(dt)
    x = np.abs(a.astype(acc))
    p = float(p)
    if p == float("inf"):
        norm = x.max(axis=axes, keepdims=True) if x.size else np.zeros((), acc)
    else:
        norm = np.power(np.power(x, p).sum(axis=axes, keepdims=True), 1.0 / p)
    factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    comp = _comp(dt)
    if comp != dt.np:  # the factor tensor has self's dtype (Half/BFloat16) in renorm_out
        factor = factor.astype(dt.np)
    r = _as(a, comp) * factor.astype(comp)
    return wrap(np.ascontiguousarray(_round(np.asarray(r, comp), dt)), dt)
