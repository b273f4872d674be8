"""Operators whose result depends on the data: nonzero_static, the unique family, bincount,
equal. Schemas, the one meta function and the out= variants.

`nonzero_static` is the exception: its output is (size, ndim) whatever the data, so it has a
meta function and runs on meta and fake tensors. The others have no meta function, as in
PyTorch: on the meta device the Meta fallback raises PyTorch's "no fake impl or Meta kernel"
error, and FakeTensorMode refuses them by name (DynamicOutputShapeException for the unique
family and bincount, DataDependentOutputException for equal) before looking for one.

The out= forms are PyTorch's generated ones: run the functional op, then each out must have the
result's dtype exactly, is resized (warning when it had elements) and written in place.
nonzero_static.out is a hand-written kernel in PyTorch with its own dtype check; it is written
here the same way.
"""

from __future__ import annotations

from ..tensor.dtype import int64
from ._define import aten, aten_lib, defop, meta
from ._meta_util import check, new_meta, shape_of
from ._variants import out_variant, resize_output, same_dtype

__all__: list[str] = []


# ----------------------------------------------------------------------------- nonzero_static


@meta("nonzero_static(Tensor self, *, SymInt size, int fill_value=-1) -> Tensor")
def nonzero_static(self, *, size, fill_value=-1):
    # PyTorch's CPU kernel (and its fake-tensor rule for CPU) gives a contiguous (size, ndim)
    # result; its Meta-device kernel a (1, size)-strided one. A meta function cannot tell the
    # two apart here, so it gives the CPU layout (the one fake CPU tensors must have). A
    # negative size fails in new_meta with PyTorch's meta wording ("Trying to create tensor
    # with negative dimension"); the CPU kernel has its own message.
    return new_meta((size, len(shape_of(self))), int64)


_nonzero_static_op = aten("nonzero_static")
_copy_ = aten("copy_")
_nonzero_static_out_op = defop(
    "nonzero_static.out(Tensor self, *, SymInt size, int fill_value=-1, Tensor(a!) out) -> "
    "Tensor(a!)"
)


def _nonzero_static_out(self, *, size, fill_value=-1, out):
    # nonzero_static_out_cpu: the size check (the functional op makes it, worded per device),
    # the dtype check, then resize (only when the shape differs) and write the rows through
    # out's own strides. A failed check leaves out untouched.
    result = _nonzero_static_op(self, size=size, fill_value=fill_value)
    check(
        out._dtype is int64,
        "nonzero_static: Expected out tensor to have scalar type Long but got scalar type"
        f"{out._dtype._short}",
    )
    resize_output(out, shape_of(result))
    _copy_(out, result)
    return out


aten_lib.impl(_nonzero_static_out_op, _nonzero_static_out, "CompositeExplicitAutograd")


# ----------------------------------------------------------------------------- unique

# No meta functions (PyTorch has none): the Meta fallback raises, fake tensors refuse by name.
defop("_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)")
defop(
    "_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False)"
    " -> (Tensor, Tensor, Tensor)"
)
defop(
    "unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
    "bool return_counts=False) -> (Tensor, Tensor, Tensor)"
)
defop(
    "unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, "
    "int? dim=None) -> (Tensor, Tensor, Tensor)"
)
defop(
    "unique_dim_consecutive(Tensor self, int dim, bool return_inverse=False, "
    "bool return_counts=False) -> (Tensor, Tensor, Tensor)"
)

_OUTS2 = ("out0", "out1")
_OUTS3 = ("out0", "out1", "out2")
out_variant(
    "_unique.out(Tensor self, bool sorted=True, bool return_inverse=False, *, Tensor(a!) out0, "
    "Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
    "_unique",
    _OUTS2,
    check=same_dtype,
)
out_variant(
    "_unique2.out(Tensor self, bool sorted=True, bool return_inverse=False, "
    "bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> "
    "(Tensor(a!), Tensor(b!), Tensor(c!))",
    "_unique2",
    _OUTS3,
    check=same_dtype,
)
out_variant(
    "unique_dim.out(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
    "bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> "
    "(Tensor(a!), Tensor(b!), Tensor(c!))",
    "unique_dim",
    _OUTS3,
    check=same_dtype,
)
out_variant(
    "unique_consecutive.out(Tensor self, bool return_inverse=False, bool return_counts=False, "
    "int? dim=None, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> "
    "(Tensor(a!), Tensor(b!), Tensor(c!))",
    "unique_consecutive",
    _OUTS3,
    check=same_dtype,
)
out_variant(
    "unique_dim_consecutive.out(Tensor self, int dim, bool return_inverse=False, "
    "bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> "
    "(Tensor(a!), Tensor(b!), Tensor(c!))",
    "unique_dim_consecutive",
    _OUTS3,
    check=same_dtype,
)


# ----------------------------------------------------------------------------- bincount / equal

defop("bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor")
out_variant(
    "bincount.out(Tensor self, Tensor? weights=None, SymInt minlength=0, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "bincount",
    check=same_dtype,
)
defop("equal(Tensor self, Tensor other) -> bool")
