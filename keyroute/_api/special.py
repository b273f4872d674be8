"""Python API of torch.special (the `keyroute.special` module's functions) and the torch.* /
Tensor methods over the special-function operators (erfinv, lgamma, digamma, polygamma, i0,
sinc, mvlgamma), with PyTorch's argument names."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method
from .linalg_ops import _write_out

aten = ops.aten

__all__ = ["SPECIAL"]

#: keyroute.special's namespace: name -> function.
SPECIAL: dict[str, Any] = {}


def _unary(public: str, op: str, *, torch_name: str | None = None, inplace: bool = False) -> None:
    packet = getattr(aten, op)

    def fn(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
        return _write_out(packet.default(input), out)

    fn.__name__ = public
    fn.__qualname__ = public
    SPECIAL[public] = fn
    if torch_name is not None:

        def top(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
            return _write_out(packet.default(input), out)

        def meth(self: Tensor) -> Tensor:
            return packet.default(self)

        top.__name__ = meth.__name__ = torch_name
        function(top)
        method(meth)
        if inplace:
            ip = getattr(aten, op + "_").default

            def meth_(self: Tensor) -> Tensor:
                return ip(self)

            meth_.__name__ = torch_name + "_"
            method(meth_)
            function(meth_)


for _public, _op, _torch, _ip in (
    ("erfinv", "erfinv", "erfinv", True),
    ("gammaln", "lgamma", "lgamma", True),
    ("digamma", "digamma", "digamma", True),
    ("psi", "digamma", None, False),
    ("i0", "i0", "i0", True),
    ("i0e", "special_i0e", None, False),
    ("i1", "special_i1", None, False),
    ("i1e", "special_i1e", None, False),
    ("ndtri", "special_ndtri", None, False),
    ("log_ndtr", "special_log_ndtr", None, False),
    ("erfcx", "special_erfcx", None, False),
    ("entr", "special_entr", None, False),
    ("sinc", "sinc", "sinc", True),
    ("ndtr", "special_ndtr", None, False),
    ("erf", "erf", None, False),
    ("erfc", "erfc", None, False),
    ("expit", "sigmoid", None, False),
    ("expm1", "expm1", None, False),
    ("exp2", "exp2", None, False),
    ("log1p", "log1p", None, False),
):
    _unary(_public, _op, torch_name=_torch, inplace=_ip)


def _special(fn: Any) -> Any:
    SPECIAL[fn.__name__] = fn
    return fn


@_special
def polygamma(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.polygamma.default(n, input), out)


@function
def _polygamma_top(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.polygamma.default(n, input), out)


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return aten.polygamma.default(n, self)


def _scalar_or_tensor(name: str, self: Any, other: Any) -> Tensor:
    packet = getattr(aten, name)
    if not isinstance(self, Tensor):
        return packet.self_scalar(self, other)
    if not isinstance(other, Tensor):
        return packet.other_scalar(self, other)
    return packet.default(self, other)


@_special
def xlog1py(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(_scalar_or_tensor("special_xlog1py", input, other), out)


@_special
def zeta(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(_scalar_or_tensor("special_zeta", input, other), out)


@_special
def xlogy(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    if not isinstance(input, Tensor):
        r = aten.xlogy.Scalar_Self(input, other)
    elif not isinstance(other, Tensor):
        r = aten.xlogy.Scalar_Other(input, other)
    else:
        r = aten.xlogy.Tensor(input, other)
    return _write_out(r, out)


@_special
def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.logit.default(input, eps), out)


@_special
def multigammaln(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.mvlgamma.default(input, p), out)


@_special
def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:  # noqa: A001, A002
    return _write_out(aten.round.decimals(input, decimals=decimals), out)


@_special
def logsumexp(
    input: Tensor, dim: Any, keepdim: bool = False, *, out: Tensor | None = None
) -> Tensor:  # noqa: A002
    d = [dim] if isinstance(dim, int) else list(dim)
    return _write_out(aten.logsumexp.default(input, d, keepdim), out)


@_special
def softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:  # noqa: A002
    return aten.softmax.int(input, dim, dtype)


@_special
def log_softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:  # noqa: A002
    return aten.log_softmax.int(input, dim, dtype)


@function
@method
def mvlgamma(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.mvlgamma.default(input, p), out)


def _mvlgamma_(self: Tensor, p: int) -> Tensor:
    return aten.mvlgamma_.default(self, p)


def _install() -> None:
    from . import FUNCTIONS

    FUNCTIONS.pop("_polygamma_top", None)
    _polygamma_top.__name__ = "polygamma"
    FUNCTIONS["polygamma"] = _polygamma_top
    _polygamma_method.__name__ = "polygamma"
    Tensor.polygamma = _polygamma_method  # type: ignore[attr-defined]
    _mvlgamma_.__name__ = "mvlgamma_"
    Tensor.mvlgamma_ = _mvlgamma_  # type: ignore[attr-defined]


_install()
