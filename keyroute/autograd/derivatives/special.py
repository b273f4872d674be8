"""Derivatives of torch.special's functions (derivatives.yaml's formulas)."""

from __future__ import annotations

import math

from ._registry import A, derivative


def _mul(a, b):
    return A.mul.Tensor(a, b)


@derivative("erfinv", "ErfinvBackward0", save=("self",))
def _erfinv(grad, self):
    e = A.erfinv.default(self)
    return (_mul(A.mul.Scalar(A.exp.default(_mul(e, e)), 0.5 * math.sqrt(math.pi)), grad),)


@derivative("lgamma", "LgammaBackward0", save=("self",))
def _lgamma(grad, self):
    return (_mul(grad, A.digamma.default(self)),)


@derivative("digamma", "DigammaBackward0", save=("self",))
def _digamma(grad, self):
    return (_mul(grad, A.polygamma.default(1, self)),)


@derivative("polygamma", "PolygammaBackward0", save=("n", "self"), inputs=("self",))
def _polygamma(grad, n, self):
    return (_mul(grad, A.polygamma.default(n + 1, self)),)


@derivative("i0", "I0Backward0", save=("self",))
def _i0(grad, self):
    return (_mul(grad, A.special_i1.default(self)),)


@derivative("special_i0e", "SpecialI0EBackward0", save=("self", "result"))
def _i0e(grad, self, result):
    return (
        _mul(grad, A.sub.Tensor(A.special_i1e.default(self), _mul(A.sgn.default(self), result))),
    )


def _at_zero_half(self, value):
    # I1'(0) = I1e'(0) = 1/2: the x -> 0 limit where the formula divides by x.
    return A.where.ScalarSelf(A.eq.Scalar(self, 0), 0.5, value)


@derivative("special_i1", "SpecialI1Backward0", save=("self", "result"))
def _i1(grad, self, result):
    # I1'(x) = I0(x) - I1(x) / x
    v = A.sub.Tensor(A.i0.default(self), A.div.Tensor(result, self))
    return (_mul(grad, _at_zero_half(self, v)),)


@derivative("special_i1e", "SpecialI1EBackward0", save=("self", "result"))
def _i1e(grad, self, result):
    # I1e'(x) = I0e(x) - I1e(x) (sgn(x) + 1/x)
    v = A.sub.Tensor(
        A.special_i0e.default(self),
        _mul(result, A.add.Tensor(A.sgn.default(self), A.reciprocal.default(self))),
    )
    return (_mul(grad, _at_zero_half(self, v)),)


@derivative("special_ndtri", "SpecialNdtriBackward0", save=("result",))
def _ndtri(grad, result):
    e = A.exp.default(A.mul.Scalar(_mul(result, result), 0.5))
    return (_mul(grad, A.mul.Scalar(e, math.sqrt(2 * math.pi))),)


@derivative("special_log_ndtr", "SpecialLogNdtrBackward0", save=("self", "result"))
def _log_ndtr(grad, self, result):
    e = A.exp.default(A.sub.Tensor(A.mul.Scalar(_mul(self, self), -0.5), result))
    return (_mul(grad, A.mul.Scalar(e, 1 / math.sqrt(2 * math.pi))),)


@derivative("special_erfcx", "SpecialErfcxBackward0", save=("self", "result"))
def _erfcx(grad, self, result):
    v = A.sub.Scalar(A.mul.Scalar(_mul(self, result), 2.0), 2 / math.sqrt(math.pi))
    return (_mul(grad, v),)


@derivative("special_entr", "SpecialEntrBackward0", save=("self",))
def _entr(grad, self):
    return (_mul(grad, A.neg.default(A.add.Scalar(A.log.default(self), 1))),)


@derivative("sinc", "SincBackward0", save=("self",))
def _sinc(grad, self):
    px = A.mul.Scalar(self, math.pi)
    num = A.sub.Tensor(_mul(px, A.cos.default(px)), A.sin.default(px))
    v = A.div.Tensor(num, A.mul.Scalar(_mul(self, self), math.pi))
    return (_mul(grad, A.where.ScalarSelf(A.eq.Scalar(self, 0), 0.0, v)),)


@derivative("special_xlog1py", "SpecialXlog1PyBackward0", save=("self", "other"))
def _xlog1py(grad, self, other, needs):
    gs = _mul(grad, A.log1p.default(other)) if needs[0] else None
    go = A.div.Tensor(_mul(grad, self), A.add.Scalar(other, 1)) if needs[1] else None
    return gs, go


@derivative(
    "special_xlog1py.self_scalar",
    "SpecialXlog1PyBackward1",
    save=("self", "other"),
    inputs=("other",),
)
def _xlog1py_ss(grad, self, other):
    return (A.div.Tensor(A.mul.Scalar(grad, self), A.add.Scalar(other, 1)),)


@derivative(
    "special_xlog1py.other_scalar", "SpecialXlog1PyBackward2", save=("other",), inputs=("self",)
)
def _xlog1py_os(grad, other):
    return (A.mul.Scalar(grad, math.log1p(other)),)


def _zeta_self() -> None:
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


@derivative("special_zeta", "SpecialZetaBackward0", save=("self", "other"))
def _zeta(grad, self, other, needs):
    if needs[0]:
        _zeta_self()
    return None, _mul(
        grad, _mul(A.neg.default(self), A.special_zeta.default(A.add.Scalar(self, 1), other))
    )


@derivative(
    "special_zeta.self_scalar", "SpecialZetaBackward1", save=("self", "other"), inputs=("other",)
)
def _zeta_ss(grad, self, other):
    return (A.mul.Scalar(_mul(grad, A.special_zeta.self_scalar(self + 1.0, other)), -self),)


@derivative("mvlgamma", "MvlgammaBackward0", save=("self", "p"))
def _mvlgamma(grad, self, p):
    offs = A.arange.start_step(-p * 0.5 + 0.5, 0.5, 0.5, dtype=self._dtype, device=self.device)
    args = A.add.Tensor(offs, A.unsqueeze.default(self, -1))
    return (_mul(grad, A.sum.dim_IntList(A.digamma.default(args), [-1])),)
