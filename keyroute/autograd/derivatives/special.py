"""Derivatives of torch.special's functions (derivatives.yaml's formulas)."""

from __future__ import annotations

import math

from ._registry import aten, derivative


def _mul(a, b):
    return aten.mul.Tensor(a, b)


@derivative("erfinv", "ErfinvBackward0", save=("self",))
def _erfinv(grad, self):
    e = aten.erfinv.default(self)
    return (_mul(aten.mul.Scalar(aten.exp.default(_mul(e, e)), 0.5 * math.sqrt(math.pi)), grad),)


@derivative("lgamma", "LgammaBackward0", save=("self",))
def _lgamma(grad, self):
    return (_mul(grad, aten.digamma.default(self)),)


@derivative("digamma", "DigammaBackward0", save=("self",))
def _digamma(grad, self):
    return (_mul(grad, aten.polygamma.default(1, self)),)


@derivative("polygamma", "PolygammaBackward0", save=("n", "self"), inputs=("self",))
def _polygamma(grad, n, self):
    return (_mul(grad, aten.polygamma.default(n + 1, self)),)


@derivative("i0", "I0Backward0", save=("self",))
def _i0(grad, self):
    return (_mul(grad, aten.special_i1.default(self)),)


@derivative("special_i0e", "SpecialI0EBackward0", save=("self", "result"))
def _i0e(grad, self, result):
    return (
        _mul(
            grad,
            aten.sub.Tensor(aten.special_i1e.default(self), _mul(aten.sgn.default(self), result)),
        ),
    )


def _at_zero_half(self, value):
    # I1'(0) = I1e'(0) = 1/2: the x -> 0 limit where the formula divides by x.
    return aten.where.ScalarSelf(aten.eq.Scalar(self, 0), 0.5, value)


@derivative("special_i1", "SpecialI1Backward0", save=("self", "result"))
def _i1(grad, self, result):
    # I1'(x) = I0(x) - I1(x) / x
    v = aten.sub.Tensor(aten.i0.default(self), aten.div.Tensor(result, self))
    return (_mul(grad, _at_zero_half(self, v)),)


@derivative("special_i1e", "SpecialI1EBackward0", save=("self", "result"))
def _i1e(grad, self, result):
    # I1e'(x) = I0e(x) - I1e(x) (sgn(x) + 1/x)
    v = aten.sub.Tensor(
        aten.special_i0e.default(self),
        _mul(result, aten.add.Tensor(aten.sgn.default(self), aten.reciprocal.default(self))),
    )
    return (_mul(grad, _at_zero_half(self, v)),)


@derivative("special_ndtri", "SpecialNdtriBackward0", save=("result",))
def _ndtri(grad, result):
    e = aten.exp.default(aten.mul.Scalar(_mul(result, result), 0.5))
    return (_mul(grad, aten.mul.Scalar(e, math.sqrt(2 * math.pi))),)


@derivative("special_log_ndtr", "SpecialLogNdtrBackward0", save=("self", "result"))
def _log_ndtr(grad, self, result):
    e = aten.exp.default(aten.sub.Tensor(aten.mul.Scalar(_mul(self, self), -0.5), result))
    return (_mul(grad, aten.mul.Scalar(e, 1 / math.sqrt(2 * math.pi))),)


@derivative("special_erfcx", "SpecialErfcxBackward0", save=("self", "result"))
def _erfcx(grad, self, result):
    v = aten.sub.Scalar(aten.mul.Scalar(_mul(self, result), 2.0), 2 / math.sqrt(math.pi))
    return (_mul(grad, v),)


@derivative("special_entr", "SpecialEntrBackward0", save=("self",))
def _entr(grad, self):
    return (_mul(grad, aten.neg.default(aten.add.Scalar(aten.log.default(self), 1))),)


@derivative("sinc", "SincBackward0", save=("self",))
def _sinc(grad, self):
    px = aten.mul.Scalar(self, math.pi)
    num = aten.sub.Tensor(_mul(px, aten.cos.default(px)), aten.sin.default(px))
    v = aten.div.Tensor(num, aten.mul.Scalar(_mul(self, self), math.pi))
    return (_mul(grad, aten.where.ScalarSelf(aten.eq.Scalar(self, 0), 0.0, v)),)


@derivative("special_xlog1py", "SpecialXlog1PyBackward0", save=("self", "other"))
def _xlog1py(grad, self, other, needs):
    gs = _mul(grad, aten.log1p.default(other)) if needs[0] else None
    go = aten.div.Tensor(_mul(grad, self), aten.add.Scalar(other, 1)) if needs[1] else None
    return gs, go


@derivative(
    "special_xlog1py.self_scalar",
    "SpecialXlog1PyBackward1",
    save=("self", "other"),
    inputs=("other",),
)
def _xlog1py_ss(grad, self, other):
    return (aten.div.Tensor(aten.mul.Scalar(grad, self), aten.add.Scalar(other, 1)),)


@derivative(
    "special_xlog1py.other_scalar", "SpecialXlog1PyBackward2", save=("other",), inputs=("self",)
)
def _xlog1py_os(grad, other):
    return (aten.mul.Scalar(grad, math.log1p(other)),)


def _zeta_self() -> None:
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


@derivative("special_zeta", "SpecialZetaBackward0", save=("self", "other"))
def _zeta(grad, self, other, needs):
    if needs[0]:
        _zeta_self()
    return None, _mul(
        grad,
        _mul(aten.neg.default(self), aten.special_zeta.default(aten.add.Scalar(self, 1), other)),
    )


@derivative(
    "special_zeta.self_scalar", "SpecialZetaBackward1", save=("self", "other"), inputs=("other",)
)
def _zeta_ss(grad, self, other):
    return (aten.mul.Scalar(_mul(grad, aten.special_zeta.self_scalar(self + 1.0, other)), -self),)


@derivative("mvlgamma", "MvlgammaBackward0", save=("self", "p"))
def _mvlgamma(grad, self, p):
    offs = aten.arange.start_step(-p * 0.5 + 0.5, 0.5, 0.5, dtype=self._dtype, device=self.device)
    args = aten.add.Tensor(offs, aten.unsqueeze.default(self, -1))
    return (_mul(grad, aten.sum.dim_IntList(aten.digamma.default(args), [-1])),)
