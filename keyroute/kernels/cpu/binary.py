"""CPU kernels of the binary operators other than add/sub/mul/div: integer division, remainder,
fmod, floor division, comparisons, shifts and bitwise ops, copysign, xlogy, div with a
rounding mode and pow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten import elementwise as aten_elementwise
from ...aten._promotion import result_type
from ...tensor._tensor import CPU_KEYS, Tensor  # noqa: F401  (CPU_KEYS: generated kernels)
from ...tensor.dtype import bool_, float32, float64  # noqa: F401  (generated kernels)
from ._elementwise_util import (  # noqa: F401  (the generated kernels read some of these)
    _compute_np,
    _contiguous,
    _finish,
    _layout,
    _new,
    _operand,
    _shape_check,
    _wrap,
    hot_kernel_function,
    ndarray,
    wrap_1d,
)
from ._kernel import kernel
from .elementwise import _FAST_ERRORS, _binary_general, div_Tensor  # noqa: F401
from .sleef_pow import powf_like_pytorch

# -- integer division by zero, remainder, fmod, floor division


def _zero_division_check(b: Any, a: Any = None) -> None:
    if a is not None and not np.broadcast(a, b).size:
        return  # no element is computed
    if isinstance(b, ndarray):
        if b.dtype.kind in "iub" and not b.all():
            raise RuntimeError("ZeroDivisionError")
    elif isinstance(b, (np.integer, np.bool_)) and not b:
        raise RuntimeError("ZeroDivisionError")


def _remainder_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
        return np.remainder(a, b)
    # PyTorch: mod = fmod(a, b); if mod != 0 and (b < 0) != (mod < 0): mod += b
    mod = np.fmod(a, b)
    fix = (mod != 0) & ((np.asarray(b) < 0) != (mod < 0))
    return np.where(fix, mod + b, mod)


def _fmod_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
    return np.fmod(a, b)


def _div_floor_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
        return np.floor_divide(a, b)
    # PyTorch's div_floor_floating (the same as Python's float floor division)
    a_, b_ = np.asarray(a), np.asarray(b)
    mod = np.fmod(a_, b_)
    div = (a_ - mod) / b_
    div = np.where((mod != 0) & ((b_ < 0) != (mod < 0)), div - 1, div)
    floordiv = np.floor(div)
    floordiv = np.where(div - floordiv > 0.5, floordiv + 1, floordiv)
    floordiv = np.where(div == 0, np.copysign(np.zeros((), div.dtype), a_ / b_), floordiv)
    return np.where(b_ == 0, a_ / b_, floordiv)


def _div_trunc_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
        q = np.floor_divide(a, b)
        rem = np.subtract(a, np.multiply(q, b))
        fix = (rem != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
        return q + fix.astype(q.dtype)
    return np.trunc(np.true_divide(a, b))


def _binary_kernel(op: str, ufunc: Callable[..., Any], *names: str) -> None:
    def k(self: Any, other: Any) -> Tensor:
        return _binary_general(op, ufunc, self, other)

    k.__name__ = names[0]
    kernel(*names, quiet=True, leaf=True)(k)


_binary_kernel(
    "remainder", _remainder_fn, "remainder.Tensor", "remainder.Scalar", "remainder.Scalar_Tensor"
)
_binary_kernel("fmod", _fmod_fn, "fmod.Tensor", "fmod.Scalar")
_binary_kernel("floor_divide", _div_floor_fn, "floor_divide", "floor_divide.Scalar")


# The hot comparison kernel (masks are everywhere): a fast path for same-dtype real tensors and
# for a float32/float64 tensor against a Python number (compared in the tensor's dtype, as
# PyTorch does); NumPy emits no floating-point warnings for them.
_COMPARE_HOT = """\
def {name}(self, other):
    try:
        dt = self._dtype
        oc = other.__class__
        if oc is Tensor:
            b = other._data if other._dtype is dt and 0 < dt.category < 3 else None
        elif (oc is float or oc is int) and (dt is float32 or dt is float64):
            b = other
        else:
            b = None
        if b is not None:
            r = ufunc(self._data, b)
{wrap}
            return _finish(r, bool_, (self, other))
    except _FAST_ERRORS:
        pass
    return _binary_general(op, ufunc, self, other)
"""


def _compare_kernel(op: str, ufunc: Callable[..., Any]) -> None:
    k = hot_kernel_function(
        _COMPARE_HOT,
        op,
        {**globals(), "op": op, "ufunc": ufunc},
        __file__,
        wrap=wrap_1d(12, "bool_"),
    )
    kernel(f"{op}.Tensor", f"{op}.Scalar", leaf=True)(k)


for _name, _uf in (
    ("eq", np.equal),
    ("ne", np.not_equal),
    ("lt", np.less),
    ("le", np.less_equal),
    ("gt", np.greater),
    ("ge", np.greater_equal),
):
    _compare_kernel(_name, _uf)
for _name, _uf in (
    ("bitwise_and", np.bitwise_and),
    ("bitwise_or", np.bitwise_or),
    ("bitwise_xor", np.bitwise_xor),
):
    _binary_kernel(_name, _uf, f"{_name}.Tensor", f"{_name}.Scalar", f"{_name}.Scalar_Tensor")


def _shift(left: bool) -> Callable[[Any, Any], Any]:
    def fn(a: Any, b: Any) -> Any:
        a_ = np.asarray(a)
        bits = a_.dtype.itemsize * 8
        b_ = np.asarray(b)
        bad = (b_ < 0) | (b_ >= bits)
        safe = np.where(bad, 0, b_).astype(a_.dtype)
        if left:
            return np.where(bad, np.zeros((), a_.dtype), np.left_shift(a_, safe))
        # out-of-range right shifts fill with the sign bit, as PyTorch's kernel
        fill = np.right_shift(a_, np.asarray(bits - 1, a_.dtype))
        return np.where(bad, fill, np.right_shift(a_, safe))

    return fn


def _check_bitwise_scalars(op: str, self: Any, other: Any) -> None:
    dt = result_type(self, other)
    aten_elementwise.check_support(op, dt)
    aten_elementwise._check_scalar_kind(op, self, other, dt)


def _bitwise_scalar_kernels() -> None:
    for op, fn, names in (
        (
            "lshift",
            _shift(True),
            (
                "bitwise_left_shift.Tensor",
                "bitwise_left_shift.Tensor_Scalar",
                "bitwise_left_shift.Scalar_Tensor",
                "__lshift__.Tensor",
                "__lshift__.Scalar",
            ),
        ),
        (
            "rshift",
            _shift(False),
            (
                "bitwise_right_shift.Tensor",
                "bitwise_right_shift.Tensor_Scalar",
                "bitwise_right_shift.Scalar_Tensor",
                "__rshift__.Tensor",
                "__rshift__.Scalar",
            ),
        ),
    ):

        def k(self: Any, other: Any, op: str = op, fn: Any = fn) -> Tensor:
            _shape_check(self, other)
            _check_bitwise_scalars(op, self, other)
            return _binary_general(op, fn, self, other)

        kernel(*names, quiet=True, leaf=True)(k)


_bitwise_scalar_kernels()


def _keep_first_on_ties(ufunc: Any) -> Any:
    """maximum/minimum as PyTorch's kernels: of two equal values (-0.0 and 0.0) the first
    operand's is kept, where NumPy's ufuncs return the second's."""

    def fn(a: Any, b: Any) -> Any:
        r = ufunc(a, b)
        if r.dtype.kind == "f" and np.ndim(r):
            np.copyto(r, a, where=np.asarray(a == b), casting="unsafe")
        elif r.dtype.kind == "f" and a == b:
            r = r.dtype.type(a)
        return r

    return fn


for _name, _uf in (
    ("maximum", _keep_first_on_ties(np.maximum)),
    ("minimum", _keep_first_on_ties(np.minimum)),
    ("fmax", np.fmax),
    ("fmin", np.fmin),
    ("atan2", np.arctan2),
    ("hypot", np.hypot),
    ("logical_and", np.logical_and),
    ("logical_or", np.logical_or),
    ("logical_xor", np.logical_xor),
):
    _binary_kernel(_name, _uf, _name)
_binary_kernel("copysign", np.copysign, "copysign.Tensor", "copysign.Scalar")


def _xlogy_fn(a: Any, b: Any) -> Any:
    a_, b_ = np.asarray(a), np.asarray(b)
    return np.where(np.isnan(b_), np.nan, np.where(a_ == 0, 0.0, a_ * np.log(b_)))


_binary_kernel("xlogy", _xlogy_fn, "xlogy.Tensor", "xlogy.Scalar_Other", "xlogy.Scalar_Self")


@kernel("div.Tensor_mode", "div.Scalar_mode", quiet=True, leaf=True)
def div_mode(self: Any, other: Any, *, rounding_mode: str | None) -> Tensor:
    dt = aten_elementwise.div_mode_dtype(self, other, rounding_mode)
    if rounding_mode is None:
        return div_Tensor(self, other)
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(other, dt, ct)
    _shape_check(self, other)
    fn = _div_floor_fn if rounding_mode == "floor" else _div_trunc_fn
    return _finish(fn(a, b), dt, (self, other))


# -- pow


def _int_pow(a: Any, b: Any) -> Any:
    """Integer powers as PyTorch's powi: negative exponents give 1, -1 or 0 (no error)."""
    a_, b_ = np.asarray(a), np.asarray(b)
    neg = b_ < 0
    if not neg.any():
        return np.power(a_, b_)
    pos = np.power(a_, np.where(neg, 0, b_).astype(b_.dtype))
    one = np.ones((), a_.dtype)
    odd = (np.abs(b_) % 2) == 1
    minus_one = a_ == -1 if a_.dtype.kind == "i" else np.zeros((), bool)
    negres = np.where(a_ == 1, one, np.where(minus_one, np.where(odd, -one, one), 0))
    return np.where(neg, negres.astype(a_.dtype), pos)


def _pow_scalar_exp(a: np.ndarray, e: Any) -> Any:
    """PyTorch's special exponents for a floating tensor and a scalar exponent."""
    if e == 2:
        return a * a
    if e == 3:
        return a * a * a
    if e == 0.5:
        return np.sqrt(a)
    if e == -0.5:
        return np.reciprocal(np.sqrt(a))
    if e == -1:
        return np.reciprocal(a)
    if e == -2:
        return np.reciprocal(a * a)
    if a.dtype == np.float32 and a.size and not isinstance(e, complex):
        return powf_like_pytorch(a, e)  # Sleef's vector pow, as PyTorch's loop calls it
    return np.power(a, e)


def _pow(self: Any, exponent: Any) -> Tensor:
    ec = exponent.__class__
    if (ec is int or ec is float) and self.__class__ is Tensor:
        dt = self._dtype
        if (dt is float32 or dt is float64) and exponent != 0 and exponent != 1:
            # Fast path: a float tensor to a real Python power keeps the tensor's dtype.
            r = _pow_scalar_exp(self._data, exponent)
            if r.__class__ is not ndarray:
                r = np.asarray(r)
            if r.dtype is not dt.np and r.dtype != dt.np:
                r = r.astype(dt.np)
            if r.ndim > 1 or (r.ndim == 1 and not r.size):
                r = _layout(r, (self,))
            return _wrap(r, dt)
    with np.errstate(all="ignore"):
        return _pow_general(self, exponent)


def _pow_general(self: Any, exponent: Any) -> Tensor:
    _shape_check(self, exponent)
    dt = aten_elementwise.pow_dtype(self, exponent)
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(exponent, dt, ct)
    if isinstance(self, Tensor) and not isinstance(exponent, Tensor):
        if exponent == 0:  # PyTorch fills ones, copies for 1 (no kernel: bool works too)
            return _finish(np.ones(a.shape, dt.np), dt, (self,))
        if exponent == 1:
            return _finish(self._data.astype(dt.np), dt, (self,))
        if dt.category == 2:
            return _finish(_pow_scalar_exp(a, b), dt, (self,))
    if dt.category == 1:
        r = _int_pow(a, b)
    else:
        r = np.power(a, b)
    if not isinstance(self, Tensor):
        return _contiguous(r, dt)  # pow.Scalar's output is contiguous
    return _finish(r, dt, (self, exponent))


kernel("pow.Tensor_Tensor", "pow.Tensor_Scalar", "pow.Scalar", leaf=True)(_pow)
