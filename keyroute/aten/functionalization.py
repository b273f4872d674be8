"""The operators functionalization rewrites into (PyTorch's generated functional variants):
`copy`, `zero`, `fill`, the `*_scatter` inverses of views, and the `*_copy` forms of views that
`functionalize(remove="mutations_and_views")` emits.

Each is CompositeExplicitAutograd here (one kernel for every backend, Meta included, so fake
tensors run it too): it clones and writes with the in-place operators, which is what the
functional form means. Functionalization runs below autograd, so these need no derivative of
their own for AOT graphs (PyTorch's autograd sees the user's in-place ops, as here).
"""

from __future__ import annotations

from ._define import aten, composite_explicit


def _clone(t):
    return aten("clone")(t)


@composite_explicit("copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor")
def copy(self, src, non_blocking=False):
    return aten("copy_")(_clone(self), src, non_blocking)


@composite_explicit("zero(Tensor self) -> Tensor")
def zero(self):
    return aten("zero_")(_clone(self))


@composite_explicit("fill.Scalar(Tensor self, Scalar value) -> Tensor")
def fill_scalar(self, value):
    return aten("fill_.Scalar")(_clone(self), value)


@composite_explicit("fill.Tensor(Tensor self, Tensor value) -> Tensor")
def fill_tensor(self, value):
    return aten("fill_.Tensor")(_clone(self), value)


@composite_explicit("select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor")
def select_scatter(self, src, dim, index):
    out = _clone(self)
    aten("copy_")(aten("select.int")(out, dim, index), src)
    return out


@composite_explicit(
    "slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, "
    "SymInt step=1) -> Tensor"
)
def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
    out = _clone(self)
    aten("copy_")(aten("slice.Tensor")(out, dim, start, end, step), src)
    return out


@composite_explicit(
    "diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor"
)
def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    out = _clone(self)
    aten("copy_")(aten("diagonal")(out, offset, dim1, dim2), src)
    return out


@composite_explicit(
    "as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, "
    "SymInt? storage_offset=None) -> Tensor"
)
def as_strided_scatter(self, src, size, stride, storage_offset=None):
    out = _clone(self)
    aten("copy_")(aten("as_strided")(out, size, stride, storage_offset), src)
    return out


def _copy_form(schema: str, view: str) -> None:
    """`<view>_copy`: the view's result as a fresh tensor (contiguous, as PyTorch's)."""

    def fn(self, *args, **kwargs):
        return _clone(aten(view)(self, *args, **kwargs))

    composite_explicit(schema)(fn)


for _schema, _view in [
    ("view_copy(Tensor self, SymInt[] size) -> Tensor", "view"),
    ("t_copy(Tensor self) -> Tensor", "t"),
    ("transpose_copy.int(Tensor self, int dim0, int dim1) -> Tensor", "transpose.int"),
    ("permute_copy(Tensor self, int[] dims) -> Tensor", "permute"),
    ("select_copy.int(Tensor self, int dim, SymInt index) -> Tensor", "select.int"),
    (
        "slice_copy.Tensor(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, "
        "SymInt step=1) -> Tensor",
        "slice.Tensor",
    ),
    ("unsqueeze_copy(Tensor self, int dim) -> Tensor", "unsqueeze"),
    ("squeeze_copy(Tensor self) -> Tensor", "squeeze"),
    ("squeeze_copy.dim(Tensor self, int dim) -> Tensor", "squeeze.dim"),
    ("squeeze_copy.dims(Tensor self, int[] dim) -> Tensor", "squeeze.dims"),
    ("expand_copy(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor", "expand"),
    ("alias_copy(Tensor self) -> Tensor", "alias"),
    ("detach_copy(Tensor self) -> Tensor", "detach"),
    (
        "diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor",
        "diagonal",
    ),
    (
        "as_strided_copy(Tensor self, SymInt[] size, SymInt[] stride, SymInt? "
        "storage_offset=None) -> Tensor",
        "as_strided",
    ),
]:
    _copy_form(_schema, _view)


def _list_copy_form(schema: str, view: str) -> None:
    def fn(self, *args, **kwargs):
        return [_clone(t) for t in aten(view)(self, *args, **kwargs)]

    composite_explicit(schema)(fn)


_list_copy_form(
    "split_copy.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]", "split.Tensor"
)
_list_copy_form(
    "split_with_sizes_copy(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]",
    "split_with_sizes",
)
_list_copy_form("unbind_copy.int(Tensor self, int dim=0) -> Tensor[]", "unbind.int")
