"""Max unpooling: max_unpool2d and max_unpool3d (F.max_unpool1d/2d/3d), the partial inverse of
max pooling: zeros with each input value written at its pooling index (MaxUnpooling.cpp's
checks). Kernels in kernels/cpu/unpool.py; derivative (max_pool_double_backward: a gather) in
autograd/derivatives/unpool.py."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import int64
from .._define import meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from .upsample import out_strides

__all__ = ["unpool_shape"]

_WORDS = {2: "two elements (height, width)", 3: "three elements (depth, height, width)"}


def unpool_shape(
    self: Tensor,
    indices: Tensor,
    output_size: Any,
    nd: int,
    stride: Any = None,
    padding: Any = None,
) -> tuple[int, ...]:
    check(
        indices._dtype is int64,
        f"elements in indices should be type int64 but got: {indices._dtype._short}",
    )
    s = shape_of(self)
    osize = [int(o) for o in output_size]
    name = f"max_unpooling{nd}d"
    if nd == 2:
        check(
            len(osize) == 2,
            f"There should be exactly {_WORDS[2]} in output_size, but got {len(osize)} elements.",
        )
        check(
            len(s) in (3, 4),
            f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {len(s)} "
            f"dimensions.",
        )
    else:
        check(
            len(s) in (4, 5),
            f"Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {len(s)} "
            f"dimensions.",
        )
        for what, v in (("output_size", osize), ("stride", stride), ("padding", padding)):
            sep = "" if what == "output_size" else ":"
            check(
                len(v) == 3,
                f"There should be exactly {_WORDS[3]} in {what}, but got{sep} {len(v)} elements.",
            )
    check(
        s == shape_of(indices),
        f"Expected shape of indices to be same as that of the input tensor ({list(s)}) but got "
        f"indices tensor with shape: {list(shape_of(indices))}",
    )
    fn = f"{name}_forward_out_cpu(): " if nd == 2 else f"{name}_forward_out_cpu(): "
    for i in range(1, len(s)):
        check(
            s[i] > 0,
            f"{fn}Expected input to have non-zero size for non-batch dimensions, but got "
            f"{list(s)} with dimension {i} being empty.",
        )
    if nd == 3:
        check(
            all(int(x) > 0 for x in stride),
            f"strides should be greater than zero, but got stride: {list(stride)}",
        )
    return (*s[: len(s) - nd], *osize)


@meta("max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor")
def max_unpool2d(self, indices, output_size):
    shape = unpool_shape(self, indices, output_size, 2)
    return new_meta(shape, self._dtype, out_strides(self, shape))


@meta(
    "max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, int[3] "
    "padding) -> Tensor"
)
def max_unpool3d(self, indices, output_size, stride, padding):
    return new_meta(unpool_shape(self, indices, output_size, 3, stride, padding), self._dtype)


out_variant(
    "max_unpool2d.out(Tensor self, Tensor indices, SymInt[2] output_size, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "max_unpool2d",
    check=same_dtype,
)
out_variant(
    "max_unpool3d.out(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, int[3] "
    "padding, *, Tensor(a!) out) -> Tensor(a!)",
    "max_unpool3d",
    check=same_dtype,
)
