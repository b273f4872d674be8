"""The backward operators PyTorch's derivative formulas call, as aten operators.

PyTorch's autograd computes the gradients of relu, log_softmax, softmax, nll_loss, sigmoid and
tanh, and of the views select, slice and diagonal, with dedicated operators
(`threshold_backward`, `_log_softmax_backward_data`, `select_backward`, ...), so a dispatch mode
sees those calls in a backward pass. keyroute defines the same operators: one
NumPy pass each on CPU instead of a chain of elementwise calls, and the same op log as PyTorch.
Their own derivatives (double backward) are in autograd/derivatives.py.

`_scaled_dot_product_flash_attention_for_cpu_backward` is the CPU flash attention's backward:
one operator for the three gradients, checked in the order PyTorch's kernel checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tensor.dtype import float32, to_dtype
from . import _shape
from ._define import meta
from ._meta_util import check, elementwise, new_meta, shape_of
from ._promotion import result_type
from ._variants import out_variant, same_dtype
from .core import as_size, expand_geometry
from .views import diagonal_geometry, select_check, slice_geometry

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
    softmax_backward_check(grad_output, output)
    return new_meta(shape_of(grad_output), to_dtype(input_dtype))


def softmax_backward_check(grad_output: Any, output: Any) -> None:
    """The (log_)softmax backward's check (its CPU kernels run this, not the meta function;
    the message is built only when it fails)."""
    if shape_of(grad_output) != shape_of(output):
        raise RuntimeError(
            f"grad_output and output must have the same shape, but got "
            f"{list(shape_of(grad_output))} and {list(shape_of(output))}"
        )


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
    nll_loss_backward_check(self, target, total_weight)
    return new_meta(shape_of(self), self._dtype)


def nll_loss_backward_check(self: Any, target: Any, total_weight: Any) -> None:
    """nll_loss_backward's checks (its CPU kernel runs these, not the meta function; messages
    are built only for a failing check)."""
    check(0 < self.dim() <= 2, "input tensor should be 1D or 2D")
    check(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported")
    if total_weight.numel() != 1:
        raise RuntimeError(
            f"expected total_weight to be a single element tensor, got: "
            f"{list(shape_of(total_weight))} ({total_weight.numel()} elements)"
        )


# ----------------------------------------------------------------------------- view backwards
# PyTorch's kernels: grad_input = zeros(input_sizes, grad.options()); view(grad_input).copy_(grad).
# The meta functions check in that order: zeros' sizes, the view's arguments, copy_'s broadcast.


def _contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides = [1] * len(shape)
    acc = 1
    for i in range(len(shape) - 1, -1, -1):
        strides[i] = acc
        acc *= max(shape[i], 1)
    return tuple(strides)


def _view_backward_sizes(input_sizes: Any) -> tuple[int, ...]:
    sizes = as_size(input_sizes)
    for s in sizes:
        check(s >= 0, "zeros: Dimension size must be non-negative.")
    return sizes


def _view_backward_out(grad_output: Any, sizes: Sequence[int], view: Sequence[int]) -> Any:
    """copy_(view, grad_output)'s broadcast check, then the fresh contiguous gradient."""
    src = shape_of(grad_output)
    full = _shape.broadcast_shapes(view, src)
    check(
        full == tuple(view),
        f"output with shape {list(view)} doesn't match the broadcast shape {list(full)}",
    )
    return new_meta(sizes, grad_output._dtype)


@meta("select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor")
def select_backward(grad_output, input_sizes, dim, index):
    sizes = _view_backward_sizes(input_sizes)
    d, _ = select_check(sizes, dim, int(index))
    return _view_backward_out(grad_output, sizes, sizes[:d] + sizes[d + 1 :])


@meta(
    "slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, "
    "SymInt step) -> Tensor"
)
def slice_backward(grad_output, input_sizes, dim, start, end, step):
    sizes = _view_backward_sizes(input_sizes)
    view, _, _ = slice_geometry(
        sizes, _contiguous_strides(sizes), dim, int(start), int(end), int(step)
    )
    return _view_backward_out(grad_output, sizes, view)


@meta(
    "diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2) "
    "-> Tensor"
)
def diagonal_backward(grad_output, input_sizes, offset, dim1, dim2):
    sizes = _view_backward_sizes(input_sizes)
    view, _, _ = diagonal_geometry(sizes, _contiguous_strides(sizes), offset, dim1, dim2)
    return _view_backward_out(grad_output, sizes, view)


# ----------------------------------------------------------------------------- flash attention


def _size(shape: Sequence[int], d: int) -> int:
    """Tensor.size(d), with PyTorch's IndexError for a missing dimension."""
    if not shape:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    return shape[_shape.wrap_dim(d, len(shape))]


def _transposed_12(t: Any) -> list[int]:
    """The sizes of t.transpose(1, 2) (IndexError when t lacks those dimensions)."""
    s = list(shape_of(t))
    a, b = _shape.wrap_dim(1, len(s)), _shape.wrap_dim(2, len(s))
    s[a], s[b] = s[b], s[a]
    return s


def _permuted_strides(sizes_t: Sequence[int]) -> tuple[int, ...]:
    """zeros(sizes_t).transpose(1, 2): contiguous over (B, L, H, E), seen as (B, H, L, E)."""
    strides = [0] * len(sizes_t)
    acc = 1
    for i in range(len(sizes_t) - 1, -1, -1):
        strides[i] = acc
        acc *= max(sizes_t[i], 1)
    strides[1], strides[2] = strides[2], strides[1]
    return tuple(strides)


def flash_mask_4d(
    attn_mask: Any, batch: int, num_head: int, q_len: int, kv_len: int
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """reshape_attn_mask_to_4d: the mask as (B or 1, H or 1, L, S), its view then expand
    geometry (None for an empty mask, which the kernel ignores)."""
    m = shape_of(attn_mask)
    numel = 1
    for d in m:
        numel *= d
    if not numel:
        return None
    s0 = s1 = 1
    if len(m) == 4:
        s0 = batch if m[0] == batch else 1
        s1 = num_head if m[1] == num_head else 1
    view = _shape.infer_size([s0, s1, _size(m, -2), _size(m, -1)], numel)
    stride = _shape.compute_view_stride(m, attn_mask.stride(), view)
    check(
        stride is not None,
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    )
    return expand_geometry(view, stride, [s0, s1, q_len, kv_len])


_MASK_DTYPES = ("Bool", "Float", "Double", "BFloat16", "Half")


@meta(
    "_scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, Tensor "
    "key, Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, *, "
    "Tensor? attn_mask=None, float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor "
    "grad_value)"
)
def _scaled_dot_product_flash_attention_for_cpu_backward(
    grad_out,
    query,
    key,
    value,
    out,
    logsumexp,
    dropout_p,
    is_causal,
    *,
    attn_mask=None,
    scale=None,
):
    # The kernel works on the (B, L, H, E) views: transpose(1, 2) of every tensor argument.
    _transposed_12(grad_out)
    q_t, k_t, v_t = _transposed_12(query), _transposed_12(key), _transposed_12(value)
    _transposed_12(out)
    _transposed_12(logsumexp)
    dt = query._dtype
    if dt.category != 2 or dt.itemsize == 1:
        raise NotImplementedError(f"\"flash_attention_backward\" not implemented for '{dt._short}'")
    if attn_mask is not None and attn_mask._dtype._short not in _MASK_DTYPES:
        raise NotImplementedError(
            f"\"flash_attention_mask_backward\" not implemented for '{attn_mask._dtype._short}'"
        )
    check(
        _size(q_t, 3) == _size(v_t, 3) and _size(k_t, 3) == _size(v_t, 3),
        "scaled_dot_product_attention_flash_attention_backward: Q/K/V should have the same head "
        "size",
    )
    if attn_mask is not None:
        flash_mask_4d(attn_mask, q_t[0], q_t[2], q_t[1], v_t[1])
    # The data pointers the kernel takes, in its order: scalar_t for all but the logsumexp.
    accum = float32 if dt.itemsize == 2 else dt
    for t, want in ((key, dt), (value, dt), (grad_out, dt), (out, dt), (logsumexp, accum)):
        check(
            t._dtype is want,
            f"expected scalar type {want._short} but found {t._dtype._short}",
        )
    return tuple(
        new_meta(shape_of(t), t._dtype, _permuted_strides(s))
        for t, s in ((query, q_t), (key, k_t), (value, v_t))
    )


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
for _name, _args in (
    ("select_backward", "int dim, SymInt index"),
    ("slice_backward", "int dim, SymInt start, SymInt end, SymInt step"),
    ("diagonal_backward", "int offset, int dim1, int dim2"),
):
    # PyTorch generates these (autogen): the out must have the result's dtype exactly
    out_variant(
        f"{_name}.out(Tensor grad_output, SymInt[] input_sizes, {_args}, *, Tensor(a!) out) -> "
        "Tensor(a!)",
        _name,
        check=same_dtype,
    )
