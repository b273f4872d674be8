"""The backward operators PyTorch's derivative formulas call, as aten operators.

PyTorch's autograd computes the gradients of relu, log_softmax, softmax, nll_loss, sigmoid and
tanh with dedicated operators (`threshold_backward`, `_log_softmax_backward_data`, ...), so a
dispatch mode sees those calls in a backward pass. keyroute defines the same operators: one
NumPy pass each on CPU instead of a chain of elementwise calls, and the same op log as PyTorch.
Their own derivatives (double backward) are in autograd/derivatives.py.
"""

from __future__ import annotations

from ..tensor.dtype import to_dtype
from ._define import meta
from ._meta_util import check, elementwise, new_meta, shape_of
from ._promotion import result_type
from ._variants import out_variant

__all__: list[str] = []


@meta("threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor")
def threshold_backward(grad_output, self, threshold):
    return elementwise(grad_output, self, dt=result_type(grad_output, self))


@meta("sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor")
def sigmoid_backward(grad_output, output):
    return elementwise(grad_output, output, dt=result_type(grad_output, output))


@meta("tanh_backward(Tensor grad_output, Tensor output) -> Tensor")
def tanh_backward(grad_output, output):
    return elementwise(grad_output, output, dt=result_type(grad_output, output))


def _softmax_backward_meta(grad_output, output, dim, input_dtype):
    check(
        shape_of(grad_output) == shape_of(output),
        f"grad_output and output must have the same shape, but got {list(shape_of(grad_output))} "
        f"and {list(shape_of(output))}",
    )
    return new_meta(shape_of(grad_output), to_dtype(input_dtype))


@meta(
    "_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType "
    "input_dtype) -> Tensor"
)
def _log_softmax_backward_data(grad_output, output, dim, input_dtype):
    return _softmax_backward_meta(grad_output, output, dim, input_dtype)


@meta(
    "_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType "
    "input_dtype) -> Tensor"
)
def _softmax_backward_data(grad_output, output, dim, input_dtype):
    return _softmax_backward_meta(grad_output, output, dim, input_dtype)


@meta(
    "nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int "
    "reduction, SymInt ignore_index, Tensor total_weight) -> Tensor"
)
def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    check(self.dim() > 0 and self.dim() <= 2, "input tensor should be 1D or 2D")
    check(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported")
    check(
        total_weight.numel() == 1,
        f"expected total_weight to be a single element tensor, got: "
        f"{list(shape_of(total_weight))} ({total_weight.numel()} elements)",
    )
    return new_meta(shape_of(self), self._dtype)


out_variant(
    "threshold_backward.grad_input(Tensor grad_output, Tensor self, Scalar threshold, *, "
    "Tensor(a!) grad_input) -> Tensor(a!)",
    "threshold_backward",
    outs=("grad_input",),
)
out_variant(
    "sigmoid_backward.grad_input(Tensor grad_output, Tensor output, *, Tensor(a!) grad_input) "
    "-> Tensor(a!)",
    "sigmoid_backward",
    outs=("grad_input",),
)
out_variant(
    "tanh_backward.grad_input(Tensor grad_output, Tensor output, *, Tensor(a!) grad_input) -> "
    "Tensor(a!)",
    "tanh_backward",
    outs=("grad_input",),
)
out_variant(
    "_log_softmax_backward_data.out(Tensor grad_output, Tensor output, int dim, ScalarType "
    "input_dtype, *, Tensor(a!) out) -> Tensor(a!)",
    "_log_softmax_backward_data",
)
out_variant(
    "_softmax_backward_data.out(Tensor grad_output, Tensor output, int dim, ScalarType "
    "input_dtype, *, Tensor(a!) grad_input) -> Tensor(a!)",
    "_softmax_backward_data",
    outs=("grad_input",),
)
out_variant(
    "nll_loss_backward.grad_input(Tensor grad_output, Tensor self, Tensor target, Tensor? "
    "weight, int reduction, SymInt ignore_index, Tensor total_weight, *, Tensor(a!) "
    "grad_input) -> Tensor(a!)",
    "nll_loss_backward",
    outs=("grad_input",),
)
