"""Assorted operators real programs reach for: diag/diag_embed/diagflat, kthvalue,
cummax/cummin, searchsorted/bucketize, histc, dist, cdist (PyTorch's choice between
_euclidean_dist and _cdist_forward), masked_scatter, tril/triu_indices, cartesian_prod and
combinations. Schemas and meta rules here, kernels in kernels/cpu/misc_ops.py, derivatives in
autograd/derivatives/misc_ops.py.
"""

from __future__ import annotations

from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import bool_, int32, int64, to_dtype
from . import _shape
from ._define import aten, composite, composite_explicit, meta
from ._meta_util import check, new_meta, shape_of
from .elementwise.checks import not_implemented

__all__ = ["diag_embed_shape", "cdist_shape", "tri_count"]


# ----------------------------------------------------------------------------- diag


def diag_embed_shape(
    shape: tuple[int, ...], offset: int, dim1: int, dim2: int
) -> tuple[tuple[int, ...], int, int]:
    nd = len(shape) + 1
    d1, d2 = _shape.wrap_dim(dim1, nd), _shape.wrap_dim(dim2, nd)
    check(
        d1 != d2,
        f"diagonal dimensions cannot be identical {dim1}, {dim2}",
    )
    n = (shape[-1] if shape else 1) + abs(offset)
    rest = list(shape[:-1])
    out = []
    for i in range(nd):
        if i in (d1, d2):
            out.append(n)
        else:
            out.append(rest.pop(0))
    return tuple(out), d1, d2


@meta("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor")
def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    shape, _, _ = diag_embed_shape(shape_of(self), offset, dim1, dim2)
    return new_meta(shape, self._dtype)


@composite("diag(Tensor self, int diagonal=0) -> Tensor")
def diag(self, diagonal=0):
    nd = len(shape_of(self))
    check(nd in (1, 2), f"diag(): Supports 1D or 2D tensors. Got {nd}D")
    if nd == 1:
        return aten("diag_embed")(self, diagonal)
    return aten("diagonal_copy")(self, diagonal)


@composite("diagflat(Tensor self, int offset=0) -> Tensor")
def diagflat(self, offset=0):
    return aten("diag_embed")(aten("contiguous")(self).reshape(-1), offset)


# ----------------------------------------------------------------------------- kthvalue


@meta(
    "kthvalue(Tensor self, SymInt k, int dim=-1, bool keepdim=False) -> "
    "(Tensor values, Tensor indices)"
)
def kthvalue(self, k, dim=-1, keepdim=False):
    shape = shape_of(self)
    d = _shape.wrap_dim(dim, len(shape))
    size = shape[d] if shape else 1
    check(
        1 <= k <= size,
        f"kthvalue(): selected number k out of range for dimension {d}",
    )
    out = _shape.reduced_shape(shape, (d,), keepdim) if shape else ()
    return new_meta(out, self._dtype), new_meta(out, int64)


# ----------------------------------------------------------------------------- cummax / cummin


def _cum_meta(self: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    shape = shape_of(self)
    _shape.wrap_dim(dim, len(shape))
    return new_meta(shape, self._dtype), new_meta(shape, int64)


@meta("cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)")
def cummax(self, dim):
    return _cum_meta(self, dim)


@meta("cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)")
def cummin(self, dim):
    return _cum_meta(self, dim)


@composite("cummaxmin_backward(Tensor grad, Tensor input, Tensor indices, int dim) -> Tensor")
def cummaxmin_backward(grad, input, indices, dim):
    if input.numel() == 0:
        return input
    result = aten("zeros_like")(input)
    return aten("scatter_add")(result, dim, indices, grad)


# ----------------------------------------------------------------------------- searchsorted


def _search_dtype(out_int32: bool) -> Any:
    return int32 if out_int32 else int64


def searchsorted_check(seq: Tensor, values: Any, side: Any, right: bool, sorter: Any) -> None:
    sb = shape_of(seq)
    sv = shape_of(values) if isinstance(values, Tensor) else ()
    if side is not None:
        check(
            side in ("left", "right"),
            f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}",
        )
        check(
            not (right and side == "left"),
            "torch.searchsorted(): side and right can't be set to opposites, got side of left "
            "while right was True",
        )
    if isinstance(values, Tensor):
        check(
            len(sb) == 1 or (len(sb) == len(sv) and sb[:-1] == sv[:-1]),
            f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            f"dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(sb)} and input value tensor {list(sv)}",
        )
    if sorter is not None:
        check(
            shape_of(sorter) == sb,
            f"torch.searchsorted(): boundary and sorter must have the same size, but got "
            f"boundary tensor {list(sb)}and got sorter tensor {list(shape_of(sorter))}",
        )


@meta(
    "searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool "
    "right=False, str? side=None, Tensor? sorter=None) -> Tensor"
)
def searchsorted_Tensor(
    sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None
):
    searchsorted_check(sorted_sequence, self, side, right, sorter)
    return new_meta(shape_of(self), _search_dtype(out_int32))


@meta(
    "searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool "
    "right=False, str? side=None, Tensor? sorter=None) -> Tensor"
)
def searchsorted_Scalar(
    sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None
):
    check(
        len(shape_of(sorted_sequence)) == 1,
        f"torch.searchsorted(): input value can be a scalar only when boundaries tensor "
        f"dimension is 1, but we got boundaries tensor dim({len(shape_of(sorted_sequence))}) "
        f"and input value's dim(0) numel(1)",
    )
    searchsorted_check(sorted_sequence, self, side, right, sorter)
    return new_meta((), _search_dtype(out_int32))


def _bucketize_check(boundaries: Tensor) -> None:
    nd = len(shape_of(boundaries))
    check(nd == 1, f"boundaries tensor must be 1 dimension, but got dim({nd})")


@meta(
    "bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool "
    "right=False) -> Tensor"
)
def bucketize_Tensor(self, boundaries, *, out_int32=False, right=False):
    _bucketize_check(boundaries)
    return new_meta(shape_of(self), _search_dtype(out_int32))


@meta(
    "bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool "
    "right=False) -> Tensor"
)
def bucketize_Scalar(self, boundaries, *, out_int32=False, right=False):
    _bucketize_check(boundaries)
    return new_meta((), _search_dtype(out_int32))


# ----------------------------------------------------------------------------- histc


@meta("histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor")
def histc(self, bins=100, min=0, max=0):  # noqa: A002
    if self._dtype.category < 2:
        raise not_implemented("histogram_cpu", self._dtype)
    check(bins > 0, f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    check(max >= min, "torch.histc: max must be larger than min")
    return new_meta((bins,), self._dtype)


# ----------------------------------------------------------------------------- dist / cdist


@composite_explicit("dist(Tensor self, Tensor other, Scalar p=2) -> Tensor")
def dist(self, other, p=2):
    return aten("linalg_vector_norm")(aten("sub.Tensor")(self, other), p)


def cdist_shape(x1: Tensor, x2: Tensor) -> tuple[int, ...]:
    s1, s2 = shape_of(x1), shape_of(x2)
    check(len(s1) >= 2, f"cdist only supports at least 2D tensors, X1 got: {len(s1)}D")
    check(len(s2) >= 2, f"cdist only supports at least 2D tensors, X2 got: {len(s2)}D")
    check(
        s1[-1] == s2[-1],
        f"X1 and X2 must have the same number of columns. X1: {s1[-1]} X2: {s2[-1]}",
    )
    batch = _shape.broadcast_shapes(s1[:-2], s2[:-2])
    return (*batch, s1[-2], s2[-2])


def _cdist_checks(x1: Tensor, x2: Tensor, p: float, compute_mode: Any) -> None:
    check(
        x1._dtype.category == 2,
        f"cdist only supports floating-point dtypes, X1 got: {x1._dtype._short}",
    )
    check(
        x2._dtype.category == 2,
        f"cdist only supports floating-point dtypes, X2 got: {x2._dtype._short}",
    )
    check(p >= 0, "cdist only supports non-negative p values")
    check(
        compute_mode is None or compute_mode in (0, 1, 2),
        f"possible modes: None, 1, 2, but was: {compute_mode}",
    )


@meta("_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor")
def _cdist_forward(x1, x2, p, compute_mode):
    shape = cdist_shape(x1, x2)
    _cdist_checks(x1, x2, p, compute_mode)
    return new_meta(shape, x1._dtype)


@meta("_cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor")
def _cdist_backward(grad, x1, x2, p, cdist):
    s1 = shape_of(x1)
    batch = shape_of(cdist)[:-2]
    return new_meta((*batch, s1[-2], s1[-1]), x1._dtype)


@composite_explicit("_euclidean_dist(Tensor x1, Tensor x2) -> Tensor")
def _euclidean_dist(x1, x2):
    # |a - b|^2 = -2 a.b + |a|^2 + |b|^2, as one matmul of augmented matrices (PyTorch's).
    a = aten
    n1 = a("sum.dim_IntList")(a("pow.Tensor_Scalar")(x1, 2), [-1], True)
    n2 = a("sum.dim_IntList")(a("pow.Tensor_Scalar")(x2, 2), [-1], True)
    o1, o2 = a("ones_like")(n1), a("ones_like")(n2)
    left = a("cat")([a("mul.Scalar")(x1, -2), n1, o1], -1)
    right = a("cat")([x2, o2, n2], -1)
    r = a("matmul")(left, a("mT")(right))
    return a("sqrt")(a("clamp_min")(r, 0))


@composite("cdist(Tensor x1, Tensor x2, float p=2., int? compute_mode=None) -> Tensor")
def cdist(x1, x2, p=2.0, compute_mode=None):
    shape = cdist_shape(x1, x2)
    r1, r2 = shape[-2], shape[-1]
    if x1.numel() == 0 or x2.numel() == 0:
        return aten("_cdist_forward")(x1, x2, p, compute_mode)
    mode = 0 if compute_mode is None else compute_mode
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        _cdist_checks(x1, x2, p, compute_mode)
        batch = list(shape[:-2])
        c = shape_of(x1)[-1]
        e1 = aten("reshape")(aten("expand")(x1, [*batch, r1, c]), [-1, r1, c])
        e2 = aten("reshape")(aten("expand")(x2, [*batch, r2, c]), [-1, r2, c])
        return aten("view")(aten("_euclidean_dist")(e1, e2), list(shape))
    return aten("_cdist_forward")(x1, x2, p, compute_mode)


# ----------------------------------------------------------------------------- masked_scatter


@meta("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)")
def masked_scatter_(self, mask, source):
    check(
        mask._dtype is bool_,
        f"masked_scatter_ only supports boolean masks, but got mask with dtype "
        f"{mask._dtype._short}",
    )
    check(
        self._dtype is source._dtype,
        f"masked_scatter: expected self and source to have same dtypes but got"
        f"{self._dtype._short} and {source._dtype._short}",
    )
    return self


@composite_explicit("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor")
def masked_scatter(self, mask, source):
    shape = _shape.broadcast_shapes(shape_of(self), shape_of(mask))
    out = aten("clone")(aten("expand")(self, list(shape)))
    return aten("masked_scatter_")(out, aten("expand")(mask, list(shape)), source)


@composite_explicit(
    "masked_scatter_backward(Tensor grad_output, Tensor mask, SymInt[] sizes) -> Tensor"
)
def masked_scatter_backward(grad_output, mask, sizes):
    n = 1
    for s in sizes:
        n *= s
    selected = aten("masked_select")(grad_output, mask)
    diff = n - selected.numel()
    if diff > 0:
        pad = aten("zeros")([diff], dtype=grad_output._dtype)
        selected = aten("cat")([selected, pad])
    return aten("view")(selected, list(sizes))


# ----------------------------------------------------------------------------- tril/triu_indices


def tri_count(row: int, col: int, offset: int, lower: bool) -> int:
    count = 0
    for i in range(row):
        if lower:
            count += max(0, min(col, i + offset + 1))
        else:
            count += max(0, col - max(0, i + offset))
    return count


def _tri_meta(name: str, row: int, col: int, offset: int, dtype: Any) -> Tensor:
    dt = int64 if dtype is None else to_dtype(dtype)
    check(row >= 0, f"row must be non-negative, got{row}")
    check(col >= 0, f"col must be non-negative, got{col}")
    if dt not in (int32, int64):
        raise not_implemented(name, dt)
    return new_meta((2, tri_count(row, col, offset, name == "tril_indices")), dt)


_FACTORY = "ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None"


@meta(f"tril_indices(int row, int col, int offset=0, *, {_FACTORY}) -> Tensor")
def tril_indices(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _tri_meta("tril_indices", row, col, offset, dtype)


@meta(f"triu_indices(int row, int col, int offset=0, *, {_FACTORY}) -> Tensor")
def triu_indices(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _tri_meta("triu_indices", row, col, offset, dtype)


# ----------------------------------------------------------------------------- products


def _check_1d(t: Tensor) -> None:
    check(t.dim() == 1, f"Expect a 1D vector, but got shape {list(shape_of(t))}")


@composite("cartesian_prod(Tensor[] tensors) -> Tensor")
def cartesian_prod(tensors):
    for t in tensors:
        _check_1d(t)
    if len(tensors) == 1:
        return tensors[0]
    grids = aten("meshgrid.indexing")(list(tensors), indexing="ij")
    return aten("stack")([aten("flatten.using_ints")(g) for g in grids], 1)


@composite("combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor")
def combinations(self, r=2, with_replacement=False):
    _check_1d(self)
    check(r >= 0, f"Expect a non-negative number, but got {r}")
    if r == 0:
        return aten("empty.memory_format")([0], dtype=self._dtype)
    n = self.numel()
    grids = aten("meshgrid.indexing")([self] * r, indexing="ij")
    # The mask of index tuples i_0 < i_1 < ... (<= with replacement), over the r-dim grid.
    idx = aten("arange")(n, device=self.device)
    mask = None
    for k in range(r - 1):
        shape_a = [1] * r
        shape_b = [1] * r
        shape_a[k] = n
        shape_b[k + 1] = n
        a = aten("view")(idx, shape_a)
        b = aten("view")(idx, shape_b)
        cmp = aten("le.Tensor")(a, b) if with_replacement else aten("lt.Tensor")(a, b)
        mask = cmp if mask is None else aten("logical_and")(mask, cmp)
    if mask is None:
        return aten("stack")([aten("flatten.using_ints")(g) for g in grids], 1)
    mask = aten("expand")(mask, [n] * r)
    return aten("stack")([aten("masked_select")(g, mask) for g in grids], 1)
