"""Python API of the assorted operators of aten/misc_ops.py: torch.diag, diag_embed, diagflat,
kthvalue, cummax, cummin, searchsorted, bucketize, histc, dist, cdist, masked_scatter,
tril_indices, triu_indices, cartesian_prod, combinations (functions and Tensor methods)."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from ..tensor.dtype import int64
from . import function, method
from .linalg_ops import _write_out
from .reductions import _return_type

aten = ops.aten

__all__: list[str] = []

_kth_t = _return_type("kthvalue", ("values", "indices"))
_cummax_t = _return_type("cummax", ("values", "indices"))
_cummin_t = _return_type("cummin", ("values", "indices"))


@function
@method
def diag(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return _write_out(aten.diag.default(input, diagonal), out)


@function
@method
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: A002
    return aten.diag_embed.default(input, offset, dim1, dim2)


@function
@method
def diagflat(input: Tensor, offset: int = 0) -> Tensor:  # noqa: A002
    return aten.diagflat.default(input, offset)


@function
@method
def kthvalue(
    input: Tensor,  # noqa: A002
    k: int,
    dim: int = -1,
    keepdim: bool = False,
    *,
    out: Any = None,
) -> Any:
    return _write_out(_kth_t(*aten.kthvalue.default(input, k, dim, keepdim)), out)


@function
@method
def cummax(input: Tensor, dim: int, *, out: Any = None) -> Any:  # noqa: A002
    return _write_out(_cummax_t(*aten.cummax.default(input, dim)), out)


@function
@method
def cummin(input: Tensor, dim: int, *, out: Any = None) -> Any:  # noqa: A002
    return _write_out(_cummin_t(*aten.cummin.default(input, dim)), out)


@function
def searchsorted(
    sorted_sequence: Tensor,
    input: Any,  # noqa: A002
    *,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    out: Tensor | None = None,
    sorter: Tensor | None = None,
) -> Tensor:
    kw = {"out_int32": out_int32, "right": right, "side": side, "sorter": sorter}
    if isinstance(input, Tensor):
        r = aten.searchsorted.Tensor(sorted_sequence, input, **kw)
    else:
        r = aten.searchsorted.Scalar(sorted_sequence, input, **kw)
    return _write_out(r, out)


@function
def bucketize(
    input: Any,  # noqa: A002
    boundaries: Tensor,
    *,
    out_int32: bool = False,
    right: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    if isinstance(input, Tensor):
        r = aten.bucketize.Tensor(input, boundaries, out_int32=out_int32, right=right)
    else:
        r = aten.bucketize.Scalar(input, boundaries, out_int32=out_int32, right=right)
    return _write_out(r, out)


@function
@method
def histc(
    input: Tensor,  # noqa: A002
    bins: int = 100,
    min: Any = 0,  # noqa: A002
    max: Any = 0,  # noqa: A002
    *,
    out: Tensor | None = None,
) -> Tensor:
    return _write_out(aten.histc.default(input, bins, min, max), out)


@function
@method
def dist(input: Tensor, other: Tensor, p: Any = 2) -> Tensor:  # noqa: A002
    return aten.dist.default(input, other, p)


_CDIST_MODES = {
    "use_mm_for_euclid_dist_if_necessary": None,
    "use_mm_for_euclid_dist": 1,
    "donot_use_mm_for_euclid_dist": 2,
}


@function
def cdist(
    x1: Tensor,
    x2: Tensor,
    p: float = 2.0,
    compute_mode: str = "use_mm_for_euclid_dist_if_necessary",
) -> Tensor:
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return aten.cdist.default(x1, x2, p, _CDIST_MODES[compute_mode])


@function
@method
def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    return aten.masked_scatter.default(input, mask, source)


def masked_scatter_(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    return aten.masked_scatter_.default(self, mask, source)


Tensor.masked_scatter_ = masked_scatter_  # type: ignore[attr-defined]


def _factory_flags(t: Tensor, pin_memory: bool | None, requires_grad: bool) -> Tensor:
    """A factory's pin_memory= / requires_grad= on its CPU result, as PyTorch checks them."""
    if pin_memory:
        raise RuntimeError(
            "pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
            "allocator is available on this system."
        )
    return t.requires_grad_() if requires_grad else t


@function
def tril_indices(
    row: int,
    col: int,
    offset: int = 0,
    *,
    dtype: Any = int64,
    device: Any = None,
    layout: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    t = aten.tril_indices.default(row, col, offset, dtype=dtype, device=device, layout=layout)
    return _factory_flags(t, pin_memory, requires_grad)


@function
def triu_indices(
    row: int,
    col: int,
    offset: int = 0,
    *,
    dtype: Any = int64,
    device: Any = None,
    layout: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    t = aten.triu_indices.default(row, col, offset, dtype=dtype, device=device, layout=layout)
    return _factory_flags(t, pin_memory, requires_grad)


@function
def cartesian_prod(*tensors: Tensor) -> Tensor:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return aten.cartesian_prod.default(list(tensors))


@function
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:  # noqa: A002
    return aten.combinations.default(input, r, with_replacement)


def _tensor_getattr(self: Tensor, name: str) -> Any:
    # Reached only when ordinary lookup fails: a PyTorch method keyroute lacks raises a
    # NotImplementedError naming it (keyroute/_missing.py); anything else the usual error.
    if name[:1] == "_":
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
    from .._missing import missing

    raise missing("Tensor", name, f"'{type(self).__name__}' object")


Tensor.__getattr__ = _tensor_getattr  # type: ignore[attr-defined]
