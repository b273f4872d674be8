"""Complex gradients (Wirtinger calculus, PyTorch's convention).

For a complex input z, PyTorch's backward returns grad * conj(f'(z)) for a holomorphic f
(derivatives.yaml writes `grad * result.conj()` for exp, `grad / other.conj()` for div, ...):
the conjugate Wirtinger derivative of the real loss. The formulas of the other families are
written for real tensors, as grad * f'(z) with holomorphic operations on z. For those
operators (`HOLOMORPHIC` below) the entry's formula is wrapped once, at import: with a complex
grad it runs on conj(grad) and conjugates what it returns, which is exactly
grad * conj(f'(z)); a real grad calls the formula itself. A real input reached by a complex
gradient gets its real part (the engine's handle_r_to_c, autograd/engine.py).

Operators whose formula is not holomorphic in form have their complex branch written here
(pow with a complex exponent or base; vdot conjugates its first argument).
"""

from __future__ import annotations

import cmath
import functools
import inspect
from dataclasses import replace
from typing import Any

from ._registry import DERIVATIVES, aten

__all__ = ["HOLOMORPHIC"]

HOLOMORPHIC = (
    "exp exp2 expm1 log log1p log2 log10 sqrt rsqrt reciprocal sin cos tan sinh cosh asin acos "
    "atan asinh atanh pow.Tensor_Scalar div.Tensor div.Scalar mul.Scalar add.Tensor "
    "sub.Tensor rsub.Tensor rsub.Scalar lerp.Scalar lerp.Tensor addcmul addcdiv mm bmm addmm "
    "baddbmm dot mv addmv prod prod.dim_int cumprod logsumexp"
).split()


def _is_complex(t: Any) -> bool:
    dt = getattr(t, "_dtype", None)
    return dt is not None and dt.is_complex


def _conj(t: Any) -> Any:
    return aten.conj_physical.default(t) if _is_complex(t) else t


def _holomorphic(fn: Any) -> Any:
    @functools.wraps(fn)
    def formula(grad: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_complex(grad):
            return fn(grad, *args, **kwargs)
        out = fn(aten.conj.default(grad), *args, **kwargs)
        return tuple(None if g is None else _conj(g) for g in out)

    formula.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    # The formula itself, for a real gradient: FormulaNode.apply calls it directly (one frame
    # and the dtype test less per node in every real-valued backward).
    formula.real_formula = fn  # type: ignore[attr-defined]
    return formula


for _name in HOLOMORPHIC:
    _e = DERIVATIVES[_name]
    DERIVATIVES[_name] = replace(_e, formula=_holomorphic(_e.formula))


def _complex_branch(name: str) -> Any:
    """Replace `name`'s formula by the decorated one, which gets the real formula as `real`."""

    def deco(fn: Any) -> Any:
        e = DERIVATIVES[name]
        real = e.formula

        @functools.wraps(real)
        def formula(grad: Any, *args: Any, **kwargs: Any) -> Any:
            return fn(real, grad, *args, **kwargs)

        formula.__signature__ = inspect.signature(real)  # type: ignore[attr-defined]
        formula.__dict__.pop("real_formula", None)  # (wraps copies it: this branch must run)
        DERIVATIVES[name] = replace(e, formula=formula)
        return fn

    return deco


@_complex_branch("pow.Tensor_Tensor")
def _pow_tensor(real: Any, grad: Any, self: Any, exponent: Any, result: Any) -> Any:
    if not (_is_complex(grad) or _is_complex(self) or _is_complex(exponent)):
        return real(grad, self, exponent, result)
    # pow_backward_self: grad * (exponent * self^(exponent - 1)).conj(), 0 where exponent == 0
    d_self = aten.mul.Tensor(exponent, aten.pow.Tensor_Tensor(self, aten.sub.Scalar(exponent, 1)))
    g_self = aten.mul.Tensor(grad, _conj(d_self))
    g_self = aten.masked_fill.Scalar(g_self, aten.eq.Scalar(exponent, 0), 0)
    # pow_backward_exponent: grad * (result * log(self)).conj(), 0 where self == 0 and the
    # exponent is real and >= 0
    g_exp = aten.mul.Tensor(grad, _conj(aten.mul.Tensor(result, aten.log.default(self))))
    if _is_complex(exponent):
        cond = aten.logical_and.default(
            aten.eq.Scalar(aten.imag.default(exponent), 0),
            aten.ge.Scalar(aten.real.default(exponent), 0),
        )
    else:
        cond = aten.ge.Scalar(exponent, 0)
    zero_base = aten.logical_and.default(aten.eq.Scalar(self, 0), cond)
    return g_self, aten.masked_fill.Scalar(g_exp, zero_base, 0)


@_complex_branch("pow.Scalar")
def _pow_base_scalar(real: Any, grad: Any, self: Any, result: Any) -> Any:
    if not isinstance(self, complex) or self == 0:
        return real(grad, self, result)
    # grad * (result * log(self)).conj()
    return (aten.mul.Tensor(grad, _conj(aten.mul.Scalar(result, cmath.log(self)))),)


@_complex_branch("acosh")
def _acosh(real: Any, grad: Any, self: Any) -> Any:
    if not _is_complex(grad):
        return real(grad, self)
    # grad * ((self - 1).rsqrt() * (self + 1).rsqrt()).conj(): the branch of PyTorch's formula
    # (1 / sqrt(self * self - 1) takes the other sign on part of the plane)
    d = aten.mul.Tensor(
        aten.rsqrt.default(aten.sub.Scalar(self, 1)), aten.rsqrt.default(aten.add.Scalar(self, 1))
    )
    return (aten.mul.Tensor(grad, _conj(d)),)


@_complex_branch("vdot")
def _vdot(real: Any, grad: Any, self: Any, other: Any) -> Any:
    # vdot(a, b) = sum(conj(a) * b): a's gradient is conj(grad) * b, b's is grad * a.
    if not (_is_complex(grad) or _is_complex(self) or _is_complex(other)):
        return real(grad, self, other)
    return aten.mul.Tensor(_conj(grad), other), aten.mul.Tensor(grad, self)
