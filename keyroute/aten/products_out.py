"""The out= forms of aten/products.py's and aten/nn/smooth_loss.py's operators (addr, renorm,
trace, huber_loss, smooth_l1_loss and the two loss backwards), as PyTorch's
native_functions.yaml has them, with each one's rule for out's dtype: addr and the
TensorIterator losses cast into out, renorm and trace (structured / generated out wrappers)
want exactly the result's dtype, huber_loss_backward's grad_input is checked against self's."""

from __future__ import annotations

from typing import Any

from . import products  # noqa: F401  (defines the functional operators first)
from ._meta_util import check
from ._variants import castable, out_variant, same_dtype
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
out_variant(
    "renorm.out(Tensor self, Scalar p, int dim, Scalar maxnorm, *, Tensor(a!) out) -> Tensor(a!)",
    "renorm",
    check=same_dtype,
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
