"""logsumexp, _softmax/_log_softmax and the softmax/log_softmax decompositions."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    dtype,
    float16,
    float32,
    get_default_dtype,
)
from .. import _shape
from .._define import aten, aten_lib, composite, composite_explicit, defop, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype, write_out
from .rules import _to_type, out_shape, reduce_dims

# ----------------------------------------------------------------------------- logsumexp


def logsumexp_dims(self: Tensor, dim: Any) -> tuple[int, ...]:
    shape = shape_of(self)
    if not isinstance(dim, int) and len(dim) == 0 and shape:
        # PyTorch adds amax(keepdim=True) (all ones) to a sum over no dims (shape []).
        raise RuntimeError(
            f"output with shape [] doesn't match the broadcast shape {[1] * len(shape)}"
        )
    return reduce_dims(len(shape), dim)


def logsumexp_dtype(self: Tensor) -> dtype:
    return self._dtype if self._dtype.category >= 2 else get_default_dtype()


@meta("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor")
def logsumexp(self, dim, keepdim=False):
    dims = logsumexp_dims(self, dim)
    return new_meta(out_shape(shape_of(self), dims, keepdim), logsumexp_dtype(self))


@composite_explicit(
    "logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"
)
def logsumexp_out(self, dim, keepdim=False, *, out):
    check(
        out._dtype.category >= 2,
        f"logsumexp(): Expected floating point type for result tensor, but got: "
        f"{out._dtype._short}",
    )
    src = self if self._dtype is out._dtype else aten("_to_copy")(self, dtype=out._dtype)
    result = aten("logsumexp")(src, dim, keepdim)
    write_out(out, result)
    return out


# ----------------------------------------------------------------------------- softmax


def _softmax_meta(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    shape = shape_of(self)
    _shape.wrap_dim(dim, len(shape))
    return new_meta(shape, float32 if half_to_float else self._dtype)


@meta("_softmax(Tensor self, int dim, bool half_to_float) -> Tensor")
def _softmax(self, dim, half_to_float):
    return _softmax_meta(self, dim, half_to_float)


@meta("_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor")
def _log_softmax(self, dim, half_to_float):
    return _softmax_meta(self, dim, half_to_float)


out_variant(
    "_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
    "_softmax",
    check=same_dtype,
)
out_variant(
    "_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
    "_log_softmax",
    check=same_dtype,
)


def _softmax_composite(name: str) -> None:
    inner = aten(f"_{name}")

    def fn(self, dim, dtype=None):
        # SoftMax.cpp: CUDA computes half -> float in the kernel (half_to_float), no copy.
        if dtype is float32 and self._dtype is float16 and self.device.type == "cuda":
            return inner(self, dim, True)
        converted = self if dtype is None else _to_type(self, dtype)
        return inner(converted, dim, False)

    fn.__name__ = name
    composite(f"{name}.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor")(fn)

    op = defop(
        f"{name}.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> "
        f"Tensor(a!)"
    )

    def out_fn(self, dim, dtype=None, *, out):
        converted = self if dtype is None else _to_type(self, dtype)
        return aten(f"_{name}.out")(converted, dim, False, out=out)

    aten_lib.impl(op, out_fn, "CompositeExplicitAutograd")


_softmax_composite("softmax")
_softmax_composite("log_softmax")
