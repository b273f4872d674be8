"""CPU kernels of the elementwise operators: NumPy ufuncs with PyTorch's dtype rules.

The result dtype comes from PyTorch's promotion (aten/_promotion.py), never NumPy's: operands
are cast to the *compute* dtype before the ufunc runs (float32 for float16/bfloat16 results,
as PyTorch's CPU kernels compute them in float32 "opmath" and round once), Python scalars are
converted as c10 converts them (integers wrap into the tensor's type), and the result is cast
to the result dtype. Outputs get TensorIterator's strides (`_finish`).

The hot kernels (add/sub/mul/div, exp, neg, relu, sigmoid, tanh, silu, gelu, add_/mul_...)
start with a fast path for same-dtype floating operands that calls the ufunc and wraps its
result with no further Python calls; anything else takes the general path. NumPy's
floating-point warnings are silenced for this module (PyTorch computes inf/nan silently).

This module holds the four hot binary kernels (add/sub/mul/div, Tensor and Scalar forms), rsub
and the in-place binary kernels; the rest of the family is in `unary.py`, `binary.py`,
`ternary.py`, with `_elementwise_util.py` (wrapping, operands) and `_special.py` (erf).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten import elementwise as aten_elementwise
from ...aten._promotion import result_type
from ...aten._scalars import check_python_int
from ...tensor._tensor import CPU_KEYS, Tensor  # noqa: F401  (CPU_KEYS: generated kernels)
from ...tensor.dtype import bool_, float32, float64
from ...tensor.memory_overlap import assert_no_partial_overlap
from . import fma as _fma
from ._elementwise_util import (  # noqa: F401  (the generated kernels read some of these)
    _ONE,
    _compute_np,
    _finish,
    _finish_same,
    _new,
    _operand,
    _scalar,
    _shape_check,
    hot_kernel_function,
    ndarray,
    wrap_1d,
)
from ._kernel import check_no_internal_overlap, kernel
from .ternary import _addc_functional, _lerp_arrays, lerp_Scalar

# ----------------------------------------------------------------------------- binary


def _binary_general(op: str, ufunc: Callable[..., Any], self: Any, other: Any) -> Tensor:
    """The general binary kernel: PyTorch's result dtype, operands in the compute dtype. The
    hot kernels' slow path: it goes quiet itself (np.errstate, see `kernel`'s `quiet`)."""
    with np.errstate(all="ignore"):
        _shape_check(self, other)  # broadcast errors before dtype errors, as TensorIterator
        dt = aten_elementwise.binary_dtype(op, self, other)
        if aten_elementwise.BINARY_RULE[op] == "bool":
            cmp_dt = result_type(self, other)
            aten_elementwise.check_support(op, cmp_dt)
            ct = _compute_np(cmp_dt)
            a, b = _operand(self, cmp_dt, ct), _operand(other, cmp_dt, ct)
            return _finish(ufunc(a, b), bool_, (self, other))
        ct = _compute_np(dt)
        a, b = _operand(self, dt, ct), _operand(other, dt, ct)
        return _finish(ufunc(a, b), dt, (self, other))


def _add_general(self: Any, other: Any, alpha: Any, sub: bool) -> Tensor:
    """add/sub's slow path, quiet as `_binary_general`."""
    with np.errstate(all="ignore"):
        _shape_check(self, other)  # broadcast errors first, as in _binary_general
        dt = aten_elementwise.binary_dtype("sub" if sub else "add", self, other)
        if sub:
            aten_elementwise.check_sub(self, other)
        if alpha is not _ONE:
            aten_elementwise.check_alpha(dt, alpha)
        ct = _compute_np(dt)
        a, b = _operand(self, dt, ct), _operand(other, dt, ct)
        if alpha is not _ONE:
            al = _scalar(alpha, dt, ct)
            if dt.category == 2:  # floating: PyTorch's fmadd(other, alpha, self), one rounding
                r = _fma.fma(b, np.asarray(-al if sub else al, ct), a, ct)
                return _finish(r, dt, (self, other))
            b = np.multiply(b, al).astype(ct, copy=False)
        return _finish(np.subtract(a, b) if sub else np.add(a, b), dt, (self, other))


# The hot binary kernels. Fast path: two tensors of the same dtype (add/mul: any dtype, sub:
# not bool, div: floating), or a float32/float64 tensor and a Python float/int.
_FAST_ERRORS = (AttributeError, ValueError, TypeError, OverflowError)
# Python scalars of the hot paths as cached 0-d arrays: NumPy combines a 0-d array of the
# tensor's dtype twice as fast as a Python float (same value: it converts the float to the
# array's dtype either way). Zero is never cached (0.0 == -0.0 as keys).
_SC32: dict[Any, ndarray] = {}
_SC64: dict[Any, ndarray] = {}


def _scalar_array(v: Any, dt: Any, cache: dict[Any, ndarray]) -> Any:
    if len(cache) > 256:
        cache.clear()
    check_python_int(v)  # a cache miss only: the hot path pays nothing
    try:
        z = np.asarray(v, dt.np)
    except OverflowError:
        return v
    cache[v] = z
    return z


_add_uf = np.add
_sub_uf = np.subtract
_mul_uf = np.multiply
_div_uf = np.true_divide


# The hot binary kernel, one template for add, sub, mul and div: the fast paths (two tensors of
# one dtype; a float32/float64 tensor and a nonzero Python float/int, as a cached 0-d array),
# then the general path. `{guard}` narrows the dtypes the fast paths take (sub: not bool; div:
# floating only), `{alpha}` adds add/sub's alpha (the fast paths take only alpha == 1).
_BINARY_HOT = """\
def {name}(self, other{alpha_param}):
    if {alpha_test}:
        try:
            dt = self._dtype
            oc = other.__class__
            if oc is Tensor:
                if other._dtype is dt{guard}:
                    r = ufunc(self._data, other._data)
{wrap}
                    return _finish_same(r, dt, (self, other))
            elif (oc is float or oc is int) and (dt is float32 or dt is float64) and other:
                cache = _SC32 if dt is float32 else _SC64
                z = cache.get(other)
                if z is None:
                    z = _scalar_array(other, dt, cache)
                r = ufunc(self._data, z)
{wrap16}
                return _finish_same(r, dt, (self,))
        except _FAST_ERRORS:
            pass  # a scalar self, shapes that do not broadcast: the general path words it
    return {general}
"""


def _binary_hot(name: str, ufunc: Any, guard: str, general: str, alpha: bool) -> Any:
    return hot_kernel_function(
        _BINARY_HOT,
        name,
        {**globals(), "ufunc": ufunc},
        __file__,
        alpha_param=", alpha=1" if alpha else "",
        alpha_test="alpha is _ONE" if alpha else "True",
        guard=guard,
        wrap=wrap_1d(20),
        wrap16=wrap_1d(16),
        general=general,
    )


add_Tensor = kernel("add.Tensor", leaf=True)(
    _binary_hot("add_Tensor", _add_uf, "", "_add_general(self, other, alpha, False)", True)
)
sub_Tensor = kernel("sub.Tensor", leaf=True)(
    _binary_hot(
        "sub_Tensor",
        _sub_uf,
        " and dt is not bool_",
        "_add_general(self, other, alpha, True)",
        True,
    )
)
mul_Tensor = kernel("mul.Tensor", leaf=True)(
    _binary_hot("mul_Tensor", _mul_uf, "", "_binary_general('mul', ufunc, self, other)", False)
)
div_Tensor = kernel("div.Tensor", leaf=True)(
    _binary_hot(
        "div_Tensor",
        _div_uf,
        " and (dt is float32 or dt is float64)",
        "_binary_general('div', ufunc, self, other)",
        False,
    )
)


@kernel("add.Scalar", leaf=True)
def add_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return add_Tensor(self, other, alpha)


@kernel("sub.Scalar", leaf=True)
def sub_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return sub_Tensor(self, other, alpha)


@kernel("mul.Scalar", leaf=True)
def mul_Scalar(self: Tensor, other: Any) -> Tensor:
    return mul_Tensor(self, other)


@kernel("div.Scalar", leaf=True)
def div_Scalar(self: Tensor, other: Any) -> Tensor:
    return div_Tensor(self, other)


def _rsub(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    _shape_check(other, self)
    dt = aten_elementwise.binary_dtype("sub", self, other)
    aten_elementwise.check_sub(self, other)
    if alpha != 1 or isinstance(alpha, bool):
        aten_elementwise.check_alpha(dt, alpha)
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(other, dt, ct)
    _shape_check(self, other)
    if alpha != 1:
        a = np.multiply(a, _scalar(alpha, dt, ct))
    return _finish(np.subtract(b, a), dt, (other, self))


@kernel("rsub.Tensor", quiet=True, leaf=True)
def rsub_Tensor(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    return _rsub(self, other, alpha)


@kernel("rsub.Scalar", quiet=True, leaf=True)
def rsub_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return _rsub(self, other, alpha)


# ----------------------------------------------------------------------------- in-place


def _inplace_binary(
    ufunc: Any, name: str, functional: Callable[..., Tensor], has_alpha: bool
) -> Callable[..., Tensor]:
    """self op= other written in place: a ufunc with out= when the dtypes agree and other
    broadcasts to self; else the functional result checked and copied into self."""
    floating_only = name.startswith("div")
    no_bool = name.startswith("sub")

    def k(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
        a = self._data
        dt = self._dtype
        if 0 in a.strides:
            check_no_internal_overlap(a)  # (an expanded self)
        if other.__class__ is Tensor and (a.base is not None or other._data.base is not None):
            # only views can share memory with self: TensorIterator refuses a partial overlap
            assert_no_partial_overlap(self, other)
        if alpha is _ONE:
            oc = other.__class__
            if oc is Tensor:
                if (
                    other._dtype is dt
                    and (other._data.shape == a.shape)
                    and not (floating_only and dt.category < 2)
                    and not (no_bool and dt is bool_)
                ):
                    ufunc(a, other._data, a)
                    return self
            elif (oc is float or oc is int) and (dt is float32 or dt is float64) and other:
                cache = _SC32 if dt is float32 else _SC64
                z = cache.get(other)
                if z is None:
                    z = _scalar_array(other, dt, cache)
                ufunc(a, z, a)
                return self
        result = functional(self, other, alpha) if has_alpha else functional(self, other)
        aten_elementwise.check_inplace_shape(self, result._data.shape)
        aten_elementwise._check_cast(result._dtype, dt)
        with np.errstate(all="ignore"):
            np.copyto(a, result._data, casting="unsafe")
        return self

    k.__name__ = name
    return k


for _name, _uf, _fn, _al in (
    ("add_", np.add, add_Tensor, True),
    ("sub_", np.subtract, sub_Tensor, True),
    ("mul_", np.multiply, mul_Tensor, False),
    ("div_", np.true_divide, div_Tensor, False),
):
    _k = _inplace_binary(_uf, _name, _fn, _al)
    kernel(f"{_name}.Tensor", f"{_name}.Scalar", leaf=True)(_k)


# In-place forms of the optimizer's operators (lerp_, addcmul_, addcdiv_): computed into self
# with out= when every tensor has self's float dtype and shape; otherwise the functional result
# is checked and copied in, as the CompositeExplicitAutograd variant does.


def _same_float(self: Tensor, *others: Tensor) -> bool:
    dt = self._dtype
    if dt is not float32 and dt is not float64:
        return False
    shape = self._data.shape
    for o in others:
        if o.__class__ is not Tensor or o._dtype is not dt or o._data.shape != shape:
            return False
    return True


def _copy_result(self: Tensor, result: Tensor) -> Tensor:
    aten_elementwise.check_inplace_shape(self, result._data.shape)
    aten_elementwise._check_cast(result._dtype, self._dtype)
    with np.errstate(all="ignore"):
        np.copyto(self._data, result._data, casting="unsafe")
    return self


@kernel("lerp_.Scalar", leaf=True)
def lerp__Scalar(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    if weight.__class__ is float and _same_float(self, end):
        check_no_internal_overlap(self._data)
        a = self._data
        _lerp_arrays(a, end._data, weight, a.dtype, out=a)
        return self
    return _copy_result(self, lerp_Scalar(self, end, weight))


def _addc_inplace(op: str, functional: Callable[..., Tensor]) -> None:

    def k(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        if (value.__class__ is float or value.__class__ is int) and _same_float(
            self, tensor1, tensor2
        ):
            check_no_internal_overlap(self._data)
            a, t1, t2 = self._data, tensor1._data, tensor2._data
            if op == "addcmul":  # fused, as PyTorch's: fma(value * t1, t2, self)
                _fma.addcmul_(a, t1, t2, value)
            else:
                _fma.addcdiv_(a, t1, t2, value)
            return self
        return _copy_result(self, functional(self, tensor1, tensor2, value=value))

    k.__name__ = op + "_"
    kernel(op + "_", leaf=True)(k)


_addc_inplace("addcmul", _addc_functional["addcmul"])
_addc_inplace("addcdiv", _addc_functional["addcdiv"])
