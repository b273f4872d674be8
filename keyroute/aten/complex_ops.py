"""angle, polar, complex and isreal (PyTorch's UnaryOps.cpp / TensorFactories.cpp
complex_check_dtype, TensorCompare.cpp isreal): meta functions here, CPU kernels in
kernels/cpu/complex_ops.py, derivatives in autograd/derivatives/complex_ops.py."""

from __future__ import annotations

from ..tensor.dtype import bool_, float16, float32, float64, get_default_dtype
from . import _shape
from ._define import aten, composite, meta
from ._meta_util import new_meta, shape_of

__all__: list[str] = []


@meta("angle(Tensor self) -> Tensor")
def angle(self):
    dt = self._dtype
    if dt.is_complex:
        out = dt.to_real()
    elif dt.is_floating_point:
        out = dt
    else:  # integers and bool: the default floating type (PyTorch's angle promotes them)
        out = get_default_dtype()
    return new_meta(shape_of(self), out)


def complex_check_dtype(a, b) -> None:
    """complex_check_dtype: both inputs Half/Float/Double, and the same type."""
    ok = (float16, float32, float64)
    if a._dtype not in ok or b._dtype not in ok:
        raise RuntimeError(
            "Expected both inputs to be Half, Float or Double tensors but got "
            f"{a._dtype._short} and {b._dtype._short}"
        )
    if a._dtype is not b._dtype:
        raise RuntimeError(
            f"Expected object of scalar type {a._dtype._short} but got scalar type "
            f"{b._dtype._short} for second argument"
        )


def _complex_meta(a, b):
    complex_check_dtype(a, b)
    shape = _shape.broadcast_shapes(shape_of(a), shape_of(b))
    return new_meta(shape, a._dtype.to_complex())


@meta("polar(Tensor abs, Tensor angle) -> Tensor")
def polar(abs, angle):  # noqa: A002 - PyTorch's argument names
    return _complex_meta(abs, angle)


@meta("complex(Tensor real, Tensor imag) -> Tensor")
def complex(real, imag):  # noqa: A001
    return _complex_meta(real, imag)


@composite("isreal(Tensor self) -> Tensor")
def isreal(self):
    if not self._dtype.is_complex:
        return aten("ones_like")(self, dtype=bool_)
    return aten("eq.Scalar")(aten("imag")(self), 0)
