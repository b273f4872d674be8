"""CPU kernels of the complex views and math bits (aten/mathbits.py), and the conj/neg-aware
forms of the operators the Conjugate and Negative layers let through.

A tensor with the conjugate (negative) bit holds its values' conjugate (negation) in memory:
`_conj` and `_neg_view` are NumPy views of the same memory with the bit toggled. The layers
(keyroute/layers/mathbits.py) materialize inputs for every operator except those PyTorch
handles bit-aware: views, `copy_`, `clone`, `mm`, `dot`, `vdot`, `addmm`, `bmm`, `baddbmm`
(and, for Negative, the same list). Their CPU kernels here read a bit-carrying input through
`logical` (the values it stands for) and give results without bits; `copy_` into a
bit-carrying destination writes the stored form.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.mathbits import (
    CONJ_BIT,
    MATH_BITS,
    NEG_BIT,
    view_as_complex_geometry,
    view_as_real_geometry,
)
from ...dispatcher.keys import DispatchKey
from ...dispatcher.tls import LEAF_KERNELS
from ...tensor._tensor import Tensor, _root_array, make_tensor
from ._kernel import cpu_lib, kernel, wrap

__all__ = ["logical", "plain_inputs"]

_as_strided = np.lib.stride_tricks.as_strided


def logical(t: Any) -> Any:
    """The values a tensor stands for, as a NumPy array (a copy when a bit is set)."""
    a = t._data
    ks = t._key_set
    if ks & CONJ_BIT:
        a = np.conj(a)
    if ks & NEG_BIT:
        a = np.negative(a)
    return a


def _toggle(self: Tensor, bit: int) -> Tensor:
    ks = self._key_set ^ bit
    return make_tensor(self._data.view(), self._dtype, ks, Tensor)


@kernel("_conj")
def _conj(self):
    return _toggle(self, CONJ_BIT)


@kernel("_neg_view")
def _neg_view(self):
    return _toggle(self, NEG_BIT)


@kernel("_conj_physical")
def _conj_physical(self):
    return wrap(np.conj(logical(self)), self._dtype)


@kernel("conj_physical_")
def conj_physical_(self):
    np.conjugate(self._data, out=self._data)
    return self


def _view_of_root(self: Tensor, np_dtype: Any, shape: Any, stride: Any, offset: int) -> np.ndarray:
    """A NumPy array of another dtype over self's storage (element strides and offset in the
    new dtype's units, counted from the storage's first byte, as storage_offset is)."""
    root = _root_array(self._data)
    item = np.dtype(np_dtype).itemsize
    arr = np.ndarray(
        shape=tuple(shape),
        dtype=np_dtype,
        buffer=root,
        offset=offset * item,
        strides=tuple(s * item for s in stride),
    )
    if not self._data.flags.writeable:
        arr.flags.writeable = False
    return arr


@kernel("view_as_real")
def view_as_real(self):
    shape, stride, offset = view_as_real_geometry(self)
    dt = self._dtype.to_real()
    a = self._data
    if a.size and all(shape):
        # a.real is a float view at the same first element; add the (real, imag) dimension.
        re = a.real
        item = re.itemsize
        arr = _as_strided(
            re,
            shape,
            tuple(s * item for s in stride),
            writeable=a.flags.writeable,
            subok=False,
        )
    else:
        arr = np.empty(shape, dt.np)
    return make_tensor(arr, dt, self._key_set, Tensor)


@kernel("view_as_complex")
def view_as_complex(self):
    shape, stride, offset = view_as_complex_geometry(self)
    dt = self._dtype.to_complex()
    a = self._data
    if a.size:
        arr = _view_of_root(self, dt.np, shape, stride, offset)
    else:
        arr = np.empty(shape, dt.np)
    return make_tensor(arr, dt, self._key_set, Tensor)


# -- the operators both layers let through: bit-aware CPU forms --------------------------------


def _plain(t: Any) -> Any:
    """t itself, or a bit-free tensor of its logical values."""
    if isinstance(t, Tensor) and t._key_set & MATH_BITS:
        return wrap(logical(t), t._dtype)
    return t


def plain_inputs(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """args with every bit-carrying tensor replaced by a bit-free one of its values (for the
    kernels that read bits themselves, kernels/cpu/linalg.py's `reads_math_bits`)."""
    return tuple(_plain(a) for a in args)


def _wrap_reading(name: str) -> None:
    """Re-register `name`'s CPU kernel so that inputs with a bit are read as their values."""
    op = getattr(__import__("keyroute")._ops.ops.aten, name.split(".")[0]).default
    inner = op.kernel_for_key(DispatchKey.CPU)
    if inner is None or getattr(inner, "reads_math_bits", False):
        return  # (none, or it reads bit-carrying inputs itself)

    def bit_aware(*args: Any, **kwargs: Any) -> Any:
        for a in args:  # (a loop, not any(<genexpr>): this runs on every mm, addmm, clone)
            if a.__class__ is Tensor or isinstance(a, Tensor):
                if a._key_set & MATH_BITS:
                    args = tuple(_plain(a) for a in args)
                    break
        return inner(*args, **kwargs)

    bit_aware.__name__ = f"{name}_math_bits"
    if inner in LEAF_KERNELS:  # _plain calls no operator: still a leaf (dispatcher/tls.py)
        LEAF_KERNELS.add(bit_aware)
    cpu_lib.impl(op, bit_aware, "CPU")


def _register_readers() -> None:
    import warnings

    with warnings.catch_warnings():
        # Replacing the plain kernels is the point: no "Overriding a previously registered
        # kernel" warning for these.
        warnings.simplefilter("ignore", UserWarning)
        _register_readers_now()


def _register_readers_now() -> None:
    for name in ("mm", "dot", "vdot", "addmm", "bmm", "baddbmm", "clone"):
        _wrap_reading(name)
    copy_op = __import__("keyroute")._ops.ops.aten.copy_.default
    inner_copy = copy_op.kernel_for_key(DispatchKey.CPU)

    def copy_math_bits(self: Any, src: Any, non_blocking: bool = False) -> Any:
        if isinstance(src, Tensor) and src._key_set & MATH_BITS:
            src = _plain(src)
        bits = self._key_set & MATH_BITS
        if not bits:
            return inner_copy(self, src, non_blocking)
        # The destination stores the conjugate / negation of what it stands for.
        s = src._data if isinstance(src, Tensor) else np.asarray(src)
        if bits & CONJ_BIT:
            s = np.conj(s)
        if bits & NEG_BIT:
            s = np.negative(s)
        plain = make_tensor(self._data, self._dtype, self._key_set & ~MATH_BITS, Tensor)
        inner_copy(
            plain,
            wrap(np.asarray(s), src._dtype if isinstance(src, Tensor) else self._dtype),
            non_blocking,
        )
        return self

    cpu_lib.impl(copy_op, copy_math_bits, "CPU")


# -- ZeroTensor -------------------------------------------------------------------------------


@kernel("_efficientzerotensor")
def _efficientzerotensor(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    from ...aten.core import as_size, factory_dtype
    from ...aten.mathbits import ZERO_BIT

    dt = factory_dtype(dtype)
    # PyTorch's zero tensor has no storage; keyroute's holds zeros (pages the OS maps lazily)
    # that nothing may write: the ZeroTensor layer refuses writes first, NumPy as a backstop.
    arr = np.zeros(as_size(size), dt.np)
    arr.flags.writeable = False
    out = wrap(arr, dt)
    out._key_set |= ZERO_BIT
    return out
