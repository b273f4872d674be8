"""aten::empty_permuted, and the meta device's empty_like that allocates with it.

`empty_permuted(size, physical_layout)` makes an uninitialized tensor of logical shape `size`
whose memory holds its dims in the order `physical_layout` (outermost first): PyTorch's
CompositeExplicitAutograd kernel allocates the physical shape with `empty` and restrides it to
the logical one with `as_strided`, two operator calls (profiler events). A factory: no
derivative.

On the meta device PyTorch's empty_like is a Python kernel (its reference implementation,
registered on the Meta key): with preserve_format it allocates with empty_permuted in the
input's memory order, other formats with empty. Its CPU kernel (keyroute.aten.core) calls
empty_strided instead; which one runs follows the input's device, not the device= argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tensor.device import Device
from ..tensor.dtype import to_dtype
from ..tensor.layout import to_memory_format
from ._define import aten, aten_lib, composite_explicit
from ._meta_util import check, shape_of
from ._shape import logical_to_physical_perm
from .core import as_size

__all__ = ["empty_permuted"]


@composite_explicit(
    "empty_permuted(SymInt[] size, int[] physical_layout, *, ScalarType? dtype=None, "
    "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
)
def empty_permuted(
    size: Sequence[int],
    physical_layout: Sequence[int],
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = None,
) -> Any:
    shape = list(as_size(size))
    perm = [int(d) for d in physical_layout]
    ndim = len(shape)
    check(
        ndim == len(perm),
        "Number of dimensions in size does not match the length of the physical_layout; "
        f"i.e. len(size) = {ndim} is not equal to len(physical_layout) = {len(perm)}",
    )
    seen = [False] * ndim
    for i, d in enumerate(perm):
        check(
            0 <= d < ndim,
            f"Dimension out of range (expected to be between 0 and {ndim - 1}, but got {d} at "
            f"index {i}).  NB: negative dims not currently supported; file an issue if you "
            "want it.",
        )
        check(not seen[d], "Duplicate dim not allowed")
        seen[d] = True
    physical = [shape[d] for d in perm]
    t = aten("empty.memory_format")(
        physical, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory
    )
    # the physical tensor's contiguous strides, given back to the logical dims they hold
    stride = [0] * ndim
    acc = 1
    for i in range(ndim - 1, -1, -1):
        stride[perm[i]] = acc
        acc *= max(physical[i], 1)
    return aten("as_strided")(t, shape, stride)


def _empty_like_meta(
    self: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = None,
    memory_format: Any = None,
) -> Any:
    dt = self._dtype if dtype is None else to_dtype(dtype)
    dev = self.device if device is None else Device(device)
    shape = list(shape_of(self))
    mf = to_memory_format(memory_format)
    if mf is not None and mf.name != "preserve_format":
        return aten("empty.memory_format")(shape, dtype=dt, device=dev, memory_format=mf)
    perm = logical_to_physical_perm(shape, list(self.stride()))
    return aten("empty_permuted")(shape, perm, dtype=dt, device=dev)


aten_lib.impl(aten("empty_like"), _empty_like_meta, "Meta")
