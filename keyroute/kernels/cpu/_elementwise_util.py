"""What the CPU elementwise kernels share: result wrapping with
TensorIterator's strides, and operand conversion to the compute dtype."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten import elementwise as aten_elementwise
from ...aten._promotion import _python_scalar
from ...aten._scalars import check_python_int
from ...aten._shape import broadcast_shapes, elementwise_strides
from ...tensor._tensor import CPU_KEYS, Tensor

ndarray = np.ndarray
_new = object.__new__
_ZERO32 = np.zeros((), np.float32)  # 0-d operands are cheaper for NumPy than Python floats
_ZERO64 = np.zeros((), np.float64)
_ONE = 1  # CPython caches small ints: `alpha is _ONE` is the cheap "alpha is the int 1" test

# inf/nan are results, not warnings, in PyTorch: NumPy's floating-point warnings from the
# kernels are filtered out (kernels/cpu/__init__.py).


# SciPy's erf/erfc when present (exact and fast), keyroute's own otherwise. Imported on first
# use: scipy.special costs 0.2 s, a fifth of keyroute's start-up, and most programs never
# call erf.
# ----------------------------------------------------------------------------- wrapping


def _wrap(r: ndarray, dt: Any) -> Tensor:
    t = _new(Tensor)
    t._data = r
    t._dtype = dt
    t._key_set = CPU_KEYS
    t._autograd_meta = None
    t._base = None
    t._version_counter = None
    return t


#: The inline wrap of a fresh 1-d result (most hot results), for generated hot kernels: `_wrap(r,
#: {dt})` without its call frame (about 60 ns, against a 1 µs `a + b`). Only 1-d results take
#: it, because their strides cannot differ from TensorIterator's (others go through
#: `_finish_same`'s layout rule). It is the one written-out copy of `_wrap`: every hot kernel
#: (here, unary.py, binary.py, elementwise.py) is generated with it by `hot_kernel_function`.
WRAP_1D = """\
if r.ndim == 1 and r.size:  # a fresh 1-d result: WRAP_1D (_wrap without its frame)
    t = _new(Tensor)
    t._data = r
    t._dtype = {dt}
    t._key_set = CPU_KEYS
    t._autograd_meta = t._base = t._version_counter = None
    return t
"""


def wrap_1d(spaces: int, dt: str = "dt") -> str:
    """WRAP_1D for a template, indented by `spaces`, the result's dtype named by `dt`."""
    from ...dispatcher.codegen import indent

    return indent(WRAP_1D.format(dt=dt), spaces).rstrip("\n")


def hot_kernel_function(
    template: str, name: str, namespace: dict[str, Any], template_file: str, **fields: str
) -> Callable[..., Any]:
    """Generate the hot kernel `name` from `template` (a `def {name}(...)` with `fields`
    substituted), registered with linecache so that debuggers and `inspect.getsource` show it.
    `namespace` holds the names its code reads."""
    from ...dispatcher.codegen import define

    src = f"# Generated from a hot-kernel template in {os.path.basename(template_file)}.\n"
    src += template.format(name=name, **fields)
    fn = define(src, name, dict(namespace), name, template_file=os.path.abspath(template_file))
    fn.__module__ = namespace.get("__name__", fn.__module__)
    return fn


def _finish(r: Any, dt: Any, ins: tuple[Any, ...]) -> Tensor:
    """The result tensor of dtype dt from ufunc output r (a NumPy scalar for 0-d inputs),
    laid out with TensorIterator's strides for inputs `ins`."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)
    if r.dtype != dt.np:
        r = r.astype(dt.np)
    if r.ndim > 1 or (r.ndim == 1 and not r.size):
        r = _layout(r, ins)
    return _wrap(r, dt)


def _finish_same(r: Any, dt: Any, ins: tuple[Any, ...]) -> Tensor:
    """_finish for a result already of dtype dt (the hot kernels' same-dtype fast paths)."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)  # 0-d inputs give a NumPy scalar
    elif r.ndim:
        r = _layout(r, ins)
    return _wrap(r, dt)


def _layout(r: ndarray, ins: tuple[Any, ...]) -> ndarray:
    """r, re-laid out (copied) if its strides are not the ones PyTorch's output would have."""
    for x in ins:
        if x.__class__ is Tensor and not x._data.flags.c_contiguous:
            break
    else:
        if r.size:
            return r  # contiguous inputs: NumPy's and PyTorch's outputs are both contiguous
    tensors = [x for x in ins if isinstance(x, Tensor)]
    shape = r.shape
    want = elementwise_strides(shape, [(x._data.shape, x.stride()) for x in tensors])
    item = r.itemsize
    if r.size and tuple(s // item for s in r.strides) == want:
        return r
    return _empty_strided_copy(r, want)


def _like(r: Any, dt: Any, self: Tensor) -> Tensor:
    """Wrap r laid out as empty_like(self) (the output of kernels that allocate that way)."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)
    if r.dtype != dt.np:
        r = r.astype(dt.np)
    want = aten_elementwise.like_strides(self)
    if tuple(s // r.itemsize for s in r.strides) != want or not r.size:
        r = _empty_strided_copy(r, want)
    return _wrap(r, dt)


def _contiguous(r: Any, dt: Any) -> Tensor:
    """Wrap r laid out contiguously."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)
    r = np.ascontiguousarray(r, dtype=dt.np) if r.ndim else r.astype(dt.np, copy=False)
    if r.ndim and not r.size:
        from ...aten._shape import contiguous_strides

        r = _empty_strided_copy(r, contiguous_strides(r.shape))
    return _wrap(r, dt)


def _empty_strided_copy(r: ndarray, strides: tuple[int, ...]) -> ndarray:
    """A copy of r with the given (dense) element strides."""
    n = 1
    for s in r.shape:
        n *= s
    buf = np.empty(max(n, 0), dtype=r.dtype)
    out = np.ndarray(
        r.shape, dtype=r.dtype, buffer=buf, strides=tuple(s * r.itemsize for s in strides)
    )
    if n:
        np.copyto(out, r)
    return out


# ----------------------------------------------------------------------------- operands


def _compute_np(dt: Any) -> Any:
    """The NumPy dtype a result of dtype dt is computed in: float32 for the half types."""
    if dt.itemsize == 2 and dt.category == 2:
        return np.float32
    return dt.np


def _scalar(v: Any, dt: Any, np_dt: Any) -> Any:
    """A Python scalar converted as c10 converts a wrapped number to a tensor of dtype dt
    (integers wrap as C++ casts do), in NumPy form for computing in np_dt."""
    if v.__class__ not in (int, float, bool, complex):
        v = _python_scalar(v)
    check_python_int(v)  # where a Python int becomes a number (aten/_scalars.py)
    cat = dt.category
    if cat == 0:
        return np.bool_(bool(v))
    if cat == 1:
        if isinstance(v, complex):
            v = v.real
        if isinstance(v, float):
            if v != v or v in (math.inf, -math.inf):
                return np.array(v).astype(np_dt)[()]
            v = int(v)
        bits = np.dtype(np_dt).itemsize * 8
        v = int(v) & ((1 << bits) - 1)
        if np.dtype(np_dt).kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        return np.dtype(np_dt).type(v)
    if cat == 2:
        if isinstance(v, complex):
            v = v.real
        return float(v)
    return complex(v)


def _operand(x: Any, dt: Any, np_dt: Any) -> Any:
    """x (tensor or Python scalar) as a NumPy operand of dtype np_dt."""
    if isinstance(x, Tensor):
        a = x._data
        if a.dtype == np_dt:
            return a
        if np_dt is not dt.np and a.dtype != dt.np:
            # TensorIterator casts every operand to the common (result) dtype before the
            # kernel widens a half type to float32: int64 min becomes -inf in float16 first.
            a = a.astype(dt.np)
        return a.astype(np_dt)
    return _scalar(x, dt, np_dt)


def _shape_check(*xs: Any) -> None:

    broadcast_shapes(*(x._data.shape for x in xs if isinstance(x, Tensor)))
