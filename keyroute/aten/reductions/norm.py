"""linalg_vector_norm and the norm overloads decomposed into it."""

from __future__ import annotations

import math
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    dtype,
    promote_types,
    to_dtype,
)
from .. import _shape
from .._define import aten, composite_explicit, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from .rules import out_shape, reduce_dims

# ----------------------------------------------------------------------------- norms


def _fmt_ord(ord: Any) -> str:
    """A Scalar as c10 prints it (doubles with ostream's %g-like format)."""
    if isinstance(ord, bool):
        return str(int(ord))
    if isinstance(ord, int):
        return str(ord)
    return f"{float(ord):g}"


def norm_dtypes(self: Tensor, dt: Any) -> tuple[dtype, dtype]:
    """linalg.vector_norm: (dtype to compute in, result dtype), with PyTorch's checks."""
    sd = self._dtype
    check(
        sd.category >= 2,
        f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
        f"{sd._short}",
    )
    if dt is None:
        return sd, sd.to_real()
    d = to_dtype(dt)
    check(
        d.category >= 2,
        f"linalg.vector_norm: dtype should be floating point or complex, but got {d._short}",
    )
    check(
        d.is_complex == sd.is_complex,
        f"linalg.vector_norm: dtype should be {'complex' if sd.is_complex else 'real'} for "
        f"{'complex' if sd.is_complex else 'real'} inputs, but got {d._short}",
    )
    check(
        promote_types(sd, d) is d,
        f"linalg.vector_norm: the dtype of the input ({sd._short}) should be convertible without "
        f"narrowing to the specified dtype ({d._short})",
    )
    return d, d.to_real()


def norm_empty_check(shape: tuple[int, ...], ord: Any, dim: Any) -> None:
    """Negative and infinite norms have no identity: refuse empty reductions."""
    if _shape.numel(shape) != 0:
        return
    o = float(ord)
    if not (o < 0 or o == math.inf):
        return
    if dim is None or (not isinstance(dim, int) and len(dim) == 0):
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {_fmt_ord(ord)} norm on an empty tensor "
            f"because the operation does not have an identity"
        )
    for d in [dim] if isinstance(dim, int) else dim:
        w = _shape.wrap_dim(d, len(shape))
        if shape and shape[w] == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {_fmt_ord(ord)} norm on the dimension "
                f"{d}because this dimension is empty and the operation does not have an identity"
            )


@meta(
    "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor"
)
def linalg_vector_norm(self, ord=2, dim=None, keepdim=False, *, dtype=None):
    _, out_dt = norm_dtypes(self, dtype)
    shape = shape_of(self)
    dims = reduce_dims(len(shape), dim)
    norm_empty_check(shape, ord, dim)
    return new_meta(out_shape(shape, dims, keepdim), out_dt)


out_variant(
    "linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "linalg_vector_norm",
    check=same_dtype,
)


def _norm_checks(self: Tensor, dt: Any) -> None:
    check(
        self._dtype.category >= 2,
        f"norm(): input dtype should be either floating point or complex. Got "
        f"{self._dtype._short} instead.",
    )
    if dt is not None:
        d = to_dtype(dt)
        check(
            d.category >= 2,
            f"norm(): the desired output dtype should be either floating point or complex. Got "
            f"{d._short} instead.",
        )


def _norm(self: Tensor, p: Any, dim: Any, keepdim: bool, dt: Any) -> Tensor:
    _norm_checks(self, dt)
    vn = aten("linalg_vector_norm")
    p = 2 if p is None else p
    if dt is None:
        return vn(self, p, dim, keepdim)
    return vn(self, p, dim, keepdim, dtype=dt)


@composite_explicit("norm.Scalar(Tensor self, Scalar p=2) -> Tensor")
def norm_Scalar(self, p=2):
    return _norm(self, p, None, False, None)


@composite_explicit(
    "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor"
)
def norm_ScalarOpt_dim(self, p, dim, keepdim=False):
    return _norm(self, p, dim, keepdim, None)


@composite_explicit(
    "norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType "
    "dtype) -> Tensor"
)
def norm_ScalarOpt_dim_dtype(self, p, dim, keepdim, *, dtype):
    return _norm(self, p, dim, keepdim, dtype)


@composite_explicit("norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor")
def norm_ScalarOpt_dtype(self, p, *, dtype):
    return _norm(self, p, None, False, dtype)


out_variant(
    "norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, "
    "Tensor(a!) out) -> Tensor(a!)",
    "norm.ScalarOpt_dim_dtype",
    check=same_dtype,
)
out_variant(
    "norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "norm.ScalarOpt_dim",
    check=same_dtype,
)
out_variant(
    "norm.ScalarOpt_dtype_out(Tensor self, Scalar? p, *, ScalarType dtype, Tensor(a!) out) -> "
    "Tensor(a!)",
    "norm.ScalarOpt_dtype",
    check=same_dtype,
)
out_variant(
    "norm.Scalar_out(Tensor self, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)",
    "norm.Scalar",
    check=same_dtype,
)
