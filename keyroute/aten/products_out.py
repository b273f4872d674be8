"""The out= forms of aten/products.py's and aten/nn/smooth_loss.py's operators (addr, renorm,
trace, huber_loss, smooth_l1_loss and the two loss backwards), as PyTorch's
native_functions.yaml has them, with each one's rule for out's dtype: addr and the
TensorIterator losses cast into out, renorm and trace (structured / generated out wrappers)
want exactly the result's dtype, huber_loss_backward's grad_input is checked against self's.
Also the in-place forms addr_ and renorm_, with the checks of the kernels PyTorch runs for them
(addr_out into self; the structured renorm_ writing self through a TensorIterator)."""

from __future__ import annotations

from typing import Any

from ..tensor.dtype import can_cast
from ..tensor.memory_overlap import assert_no_partial_overlap
from . import products  # noqa: F401  (defines the functional operators first)
from ._define import aten, composite_explicit
from ._meta_util import check, shape_of
from ._promotion import result_type
from ._variants import castable, check_out_dtype_equal, out_variant, same_dtype
from .nn import smooth_loss  # noqa: F401

__all__: list[str] = []


def _found_dtype(out: Any, result: Any) -> None:
    """huber_loss_backward_out's TensorIterator: grad_input's dtype must be the common one."""
    check(
        out._dtype is result._dtype,
        f"Found dtype {out._dtype._short} but expected {result._dtype._short}",
    )


out_variant(
    "addr.out(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, "
    "Tensor(a!) out) -> Tensor(a!)",
    "addr",
    check=castable,
)


def _renorm_out_first(targets: Any, args: list[Any], kwargs: dict[str, Any]) -> None:
    """The structured renorm.out: the meta checks, then set_output's check of out's dtype,
    before the impl's (the dim, the norms' dtype)."""
    self, p, _dim, maxnorm = [
        *args,
        *(kwargs[n] for n in ("self", "p", "dim", "maxnorm")[len(args) :]),
    ]
    products.renorm_meta_checks(self, p, maxnorm)
    check_out_dtype_equal(targets[0], self._dtype)


out_variant(
    "renorm.out(Tensor self, Scalar p, int dim, Scalar maxnorm, *, Tensor(a!) out) -> Tensor(a!)",
    "renorm",
    check=same_dtype,
    before=_renorm_out_first,
)
out_variant("trace.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "trace", check=same_dtype)
out_variant(
    "huber_loss.out(Tensor self, Tensor target, int reduction=1, float delta=1.0, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    "huber_loss",
    check=castable,
)
out_variant(
    "smooth_l1_loss.out(Tensor self, Tensor target, int reduction=1, float beta=1.0, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    "smooth_l1_loss",
    check=castable,
)
out_variant(
    "huber_loss_backward.out(Tensor grad_output, Tensor self, Tensor target, int reduction, "
    "float delta, *, Tensor(a!) grad_input) -> Tensor(a!)",
    "huber_loss_backward",
    ("grad_input",),
    check=_found_dtype,
)
out_variant(
    "smooth_l1_loss_backward.grad_input(Tensor grad_output, Tensor self, Tensor target, "
    "int reduction, float beta, *, Tensor(a!) grad_input) -> Tensor(a!)",
    "smooth_l1_loss_backward",
    ("grad_input",),
    check=castable,
)


# ----------------------------------------------------------------------------- in place
# CompositeExplicitAutograd as addr_ is in PyTorch (renorm_ is a CPU/Meta structured kernel
# there; a dispatch mode sees the one call either way). Autograd gives them the functional
# operator's node (AddrBackward0, RenormBackward0), saving self before it is written.

_INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def _no_internal_overlap(t: Any) -> None:
    """assert_no_internal_overlap of the written tensor: an expanded dimension (stride 0,
    size > 1) makes several of its elements one memory location."""
    for size, stride in zip(shape_of(t), t.stride()):
        check(not (stride == 0 and size > 1), _INTERNAL_OVERLAP)


@composite_explicit(
    "addr_(Tensor(a!) self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> "
    "Tensor(a!)"
)
def addr_(self, vec1, vec2, *, beta=1, alpha=1):
    # addr_out(self, self, ...)'s build_addr_iter: the vectors, then self as it is (not
    # expanded: it is the result), then TensorIterator's overlap and dtype checks, then
    # check_addr_scalar against the common dtype.
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        check(v.dim() == 1, f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    n, m = shape_of(vec1)[0], shape_of(vec2)[0]
    check(self.dim() == 2, f"2D tensor expected, got {self.dim()}D tensor for input")
    check(
        tuple(shape_of(self)) == (n, m),
        f"size mismatch, input: {list(shape_of(self))}, v1: [{n}], v2: [{m}]",
    )
    _no_internal_overlap(self)
    assert_no_partial_overlap(self, vec1)
    assert_no_partial_overlap(self, vec2)
    common = result_type(self, vec1, vec2)
    check(
        can_cast(common, self._dtype),
        f"result type {common._short} can't be cast to the desired output type "
        f"{self._dtype._short}",
    )
    result = aten("addr")(self, vec1, vec2, beta=beta, alpha=alpha)
    aten("copy_")(self, result)
    return self


@composite_explicit("renorm_(Tensor(a!) self, Scalar p, int dim, Scalar maxnorm) -> Tensor(a!)")
def renorm_(self, p, dim, maxnorm):
    result = aten("renorm")(self, p, dim, maxnorm)  # the meta checks and the norms' dtype check
    _no_internal_overlap(self)  # then the TensorIterator that writes self
    aten("copy_")(self, result)
    return self
