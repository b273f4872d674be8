"""Dropout: native_dropout (meta) and the dropout/dropout_ decompositions."""

from __future__ import annotations

from ...tensor._tensor import Tensor
from ...tensor.dtype import bool_
from .._define import composite, meta
from .._meta_util import check, meta_like, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op

# ----------------------------------------------------------------------------- dropout


@meta("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)")
def native_dropout(input, p, train):
    if input.numel() == 0:
        return input, new_meta(shape_of(input), input._dtype, input.stride())
    if train is None or train:
        check(0 <= 1 - p <= 1, f"bernoulli_ expects p to be in [0, 1], but got p={1 - p}")
        if input._dtype.category < 2:
            raise RuntimeError(
                f"result type Float can't be cast to the desired output type {input._dtype._short}"
            )
    return meta_like(input), meta_like(input, bool_)


out_variant(
    "native_dropout.out(Tensor input, float p, bool? train, *, Tensor(a!) out0, Tensor(b!) out1) "
    "-> (Tensor(a!), Tensor(b!))",
    "native_dropout",
    ("out0", "out1"),
    check=same_dtype,
)


def _dropout_impl(input: Tensor, p: float, train: bool, inplace: bool) -> Tensor:
    check(0 <= p <= 1, f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    mul = op("mul_.Tensor") if inplace else op("mul.Tensor")
    if p == 1:
        return mul(input, op("zeros")([], dtype=input._dtype, device=input.device))
    noise = op("empty_like")(input)
    op("bernoulli_.float")(noise, 1 - p)
    op("div_.Scalar")(noise, 1 - p)
    return mul(input, noise)


@composite("dropout(Tensor input, float p, bool train) -> Tensor")
def dropout(input, p, train):
    return _dropout_impl(input, p, train, False)


@composite("dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)")
def dropout_(self, p, train):
    return _dropout_impl(self, p, train, True)
