"""torch.special's operators: the elementwise special functions (erfinv, lgamma, digamma,
polygamma, the modified Bessel functions i0/i0e/i1/i1e, ndtri, log_ndtr, erfcx, entr, sinc,
xlog1py, zeta, mvlgamma) built on the elementwise family (schema, meta rule, in-place and out=
forms), and PyTorch's special_* aliases as its CompositeImplicitAutograd decompositions.
Kernels: kernels/cpu/special.py; derivatives: autograd/derivatives/special.py.
"""

from __future__ import annotations

import math
from typing import Any

from ..tensor._tensor import Tensor
from ._define import aten, composite, composite_explicit
from ._meta_util import check, shape_of
from .elementwise.binary import BINARY_RULE, _bin
from .elementwise.checks import _support, check_support, float_result
from .elementwise.family import _family
from .elementwise.unary import rule_float as _rule_float

__all__ = ["UNARY_SPECIAL"]

#: Unary special functions computing in floating point (ints -> default dtype), with the
#: kernel name PyTorch's dtype-dispatch error names.
UNARY_SPECIAL = {
    "erfinv": "erfinv_cpu",
    "lgamma": "lgamma_vml_cpu",
    "digamma": "digamma",
    "i0": "i0_vml_cpu",
    "sinc": "sinc_cpu",
    "special_i0e": "i0e_vml_cpu",
    "special_i1": "i1_cpu",
    "special_i1e": "i1e_cpu",
    "special_ndtri": "ndtri_cpu",
    "special_log_ndtr": "log_ndtr_cpu",
    "special_erfcx": "erfcx_cpu",
    "special_entr": "entr_cpu",
}
# Which of them have an in-place form in PyTorch (the special_* ones have none).
_INPLACE = {"erfinv", "lgamma", "digamma", "i0", "sinc"}


def _float_only(name: str) -> Any:
    def chk(self: Tensor, *args: Any, **kwargs: Any) -> None:
        check_support(name, float_result(self._dtype))

    return chk


for _name, _kname in UNARY_SPECIAL.items():
    _support(_kname, "2", _name)
    _family(
        _name,
        "Tensor self",
        _rule_float,
        _float_only(_name),
        inplace=_name in _INPLACE,
    )

# polygamma(int n, Tensor self): its own argument order; polygamma_ is (self, n).
_support("polygamma", "2", "polygamma")


def _polygamma_rule(n: int, self: Tensor) -> tuple[tuple[int, ...], Any]:
    return shape_of(self), float_result(self._dtype)


def _polygamma_check(n: int, self: Tensor) -> None:
    check(n >= 0, "polygamma(n, x) does not support negative n.")
    check_support("polygamma", float_result(self._dtype))


_family("polygamma", "int n, Tensor self", _polygamma_rule, _polygamma_check, inplace=False)


# The binary ones follow the binary family (promotion, broadcasting, Scalar overloads).
for _name in ("special_xlog1py", "special_zeta"):
    BINARY_RULE[_name] = "float"
    _support(f"{_name[8:]}_cpu", "012", _name)
    _bin(f"{_name}", "Tensor self, Tensor other", _name, inplace=False, out="out")
    _bin(
        f"{_name}.self_scalar",
        "Scalar self, Tensor other",
        _name,
        inplace=False,
        out="self_scalar_out",
    )
    _bin(
        f"{_name}.other_scalar",
        "Tensor self, Scalar other",
        _name,
        inplace=False,
        out="other_scalar_out",
    )


# ----------------------------------------------------------------------------- mvlgamma


def _mvlgamma_check(self: Tensor, p: int) -> None:
    check(p >= 1, "p has to be greater than or equal to 1")


@composite_explicit("mvlgamma(Tensor self, int p) -> Tensor")
def mvlgamma(self, p):
    _mvlgamma_check(self, p)
    x = (
        self
        if self._dtype.category >= 2
        else aten("_to_copy")(self, dtype=float_result(self._dtype))
    )
    # log Gamma_p(x) = p(p-1)/4 log(pi) + sum_{j=0}^{p-1} lgamma(x - j/2)
    offs = aten("arange.start_step")(-p * 0.5 + 0.5, 0.5, 0.5, dtype=x._dtype, device=x.device)
    args = aten("add.Tensor")(offs, aten("unsqueeze")(x, -1))
    s = aten("sum.dim_IntList")(aten("lgamma")(args), [-1])
    return aten("add.Scalar")(s, p * (p - 1) * math.log(math.pi) / 4)


@composite_explicit("mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)")
def mvlgamma_(self, p):
    return aten("copy_")(self, aten("mvlgamma")(self, p))


# ----------------------------------------------------------------------------- aliases


def _alias(new: str, target: str, params: str) -> None:
    """new(params) is target under PyTorch's special_* name: a decomposition to it."""

    def fn(*args: Any, **kwargs: Any) -> Any:
        return aten(target)(*args, **kwargs)

    fn.__name__ = new.replace(".", "_")
    composite(f"{new}({params}) -> Tensor")(fn)


for _new, _target in (
    ("special_erf", "erf"),
    ("special_erfc", "erfc"),
    ("special_erfinv", "erfinv"),
    ("special_expm1", "expm1"),
    ("special_exp2", "exp2"),
    ("special_log1p", "log1p"),
    ("special_gammaln", "lgamma"),
    ("special_digamma", "digamma"),
    ("special_psi", "digamma"),
    ("special_i0", "i0"),
    ("special_sinc", "sinc"),
    ("special_expit", "sigmoid"),
):
    _alias(_new, _target, "Tensor self")

_alias("special_polygamma", "polygamma", "int n, Tensor self")
_alias("special_multigammaln", "mvlgamma", "Tensor self, int p")
_alias("special_logit", "logit", "Tensor self, float? eps=None")
_alias("special_xlogy", "xlogy.Tensor", "Tensor self, Tensor other")
_alias("special_xlogy.self_scalar", "xlogy.Scalar_Self", "Scalar self, Tensor other")
_alias("special_xlogy.other_scalar", "xlogy.Scalar_Other", "Tensor self, Scalar other")
_alias("special_round", "round.decimals", "Tensor self, *, int decimals=0")
_alias("special_logsumexp", "logsumexp", "Tensor self, int[1] dim, bool keepdim=False")


@composite("special_ndtr(Tensor self) -> Tensor")
def special_ndtr(self):
    # PyTorch's ndtr: (1 + erf(x / sqrt(2))) / 2 on the float result.
    x = (
        self
        if self._dtype.category >= 2
        else aten("_to_copy")(self, dtype=float_result(self._dtype))
    )
    return aten("mul.Scalar")(
        aten("add.Scalar")(aten("erf")(aten("mul.Scalar")(x, math.sqrt(0.5))), 1), 0.5
    )


@composite("special_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor")
def special_softmax(self, dim, dtype=None):
    return aten("softmax.int")(self, dim, dtype)


@composite("special_log_softmax(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor")
def special_log_softmax(self, dim, *, dtype=None):
    return aten("log_softmax.int")(self, dim, dtype)
