"""The reduction family's shared rules, used by the meta functions and the CPU kernels alike:
dims and output shapes, result dtypes, the zero-size and correction checks, C++ type names in
errors, and the out= form builder."""

from __future__ import annotations

import warnings
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    dtype,
    int64,
    to_dtype,
)
from ...tensor.layout import strided
from .. import _shape
from .._define import aten
from .._meta_util import check

# ----------------------------------------------------------------------------- shared helpers


def _dt(d: Any) -> dtype | None:
    return None if d is None else to_dtype(d)


def reduce_dims(ndim: int, dim: Any) -> tuple[int, ...]:
    """The wrapped dims a reduction reduces: None or [] mean every dim (a 0-d tensor accepts
    0 and -1). Raises PyTorch's out-of-range and duplicate-dim errors."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        return (_shape.wrap_dim(dim, ndim),)
    if len(dim) == 0:
        return tuple(range(ndim))
    if len(dim) == 1:
        return (_shape.wrap_dim(dim[0], ndim),)
    return _shape.wrap_dims(dim, ndim)


def out_shape(shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool) -> tuple[int, ...]:
    if not shape:
        return ()
    return _shape.reduced_shape(shape, dims, keepdim)


def sum_dtype(self: Tensor, dt: Any) -> dtype:
    """sum/prod/cumsum/nansum: bool and integers accumulate in int64 unless dtype= is given."""
    if dt is not None:
        return to_dtype(dt)
    return int64 if self._dtype.category <= 1 else self._dtype


def mean_dtype(self: Tensor, dt: Any) -> dtype:
    if dt is None:
        d = self._dtype
        check(
            d.category >= 2,
            f"mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {d._short}",
        )
        return d
    d = to_dtype(dt)
    check(
        d.category >= 2,
        f"mean(): could not infer output dtype. Optional dtype must be either a floating point "
        f"or complex dtype. Got: {d._short}",
    )
    return d


def var_dtype(self: Tensor, name: str = "std and var") -> dtype:
    """var/std results are real: complex inputs give their real dtype."""
    d = self._dtype
    check(d.category >= 2, f"{name} only support floating point and complex dtypes")
    return d.to_real()


def check_empty_dims(name: str, shape: tuple[int, ...], dim: Any, sep: str = "():") -> None:
    """amax/argmax-style checks: an empty input needs dims, and each reduced dim non-empty
    (the dims are printed as given, as zero_numel_check_dims does)."""
    if _shape.numel(shape) != 0 or not shape:
        return
    dims = [dim] if isinstance(dim, int) else list(dim) if dim is not None else []
    for d in dims:
        w = _shape.wrap_dim(d, len(shape))
        if shape[w] == 0:
            raise IndexError(f"{name}{sep} Expected reduction dim {d} to have non-zero size.")


def check_dim_nonempty(name: str, shape: tuple[int, ...], d: int, sep: str = "():") -> None:
    """The same check for one already-wrapped dim."""
    if shape and shape[d] == 0:
        raise IndexError(f"{name}{sep} Expected reduction dim {d} to have non-zero size.")


def check_nonempty_input(name: str, shape: tuple[int, ...]) -> None:
    if _shape.numel(shape) == 0:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            f"the reduction dim with the 'dim' argument."
        )


def correction_of(correction: Any) -> float:
    return 1.0 if correction is None else float(correction)


def warn_dof(n: int, correction: float) -> None:
    if n - correction <= 0:
        warnings.warn(
            "var(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=4,
        )


def not_implemented(kernel_name: str, dt: dtype) -> None:
    raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{dt._short}'")


# ----------------------------------------------------------------------------- out= helpers


def _to_type(self: Tensor, dt: Any) -> Tensor:
    """Tensor::toType: a copy in dtype dt (self when it already has it), as `_to_copy` with
    the options PyTorch passes."""
    d = to_dtype(dt)
    if d is self._dtype:
        return self
    return aten("_to_copy")(self, dtype=d, layout=strided, device=self.device)
