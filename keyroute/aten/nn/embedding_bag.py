"""embedding_bag: sums, means or maxima of bags of embedding rows (EmbeddingBag.cpp).

The backend operators `_embedding_bag` / `_embedding_bag_forward_only` return four tensors:
the output, offset2bag (each index's bag; empty on the CPU's fast sum path, which never needs
it), bag_size (indices per bag without padding; zeros in sum mode) and max_indices (the argmax
rows in max mode, a copy of bag_size otherwise). `embedding_bag` is CompositeImplicitAutograd as
PyTorch's (the forward-only operator when the weight needs no gradient); the backend operator
`_embedding_bag_backward` rebuilds offset2bag when the forward skipped it and computes
`_embedding_bag_dense_backward`. Kernels in kernels/cpu/embedding_bag.py, the derivative in
autograd/derivatives/embedding_bag.py.
"""

from __future__ import annotations

from typing import Any

from ...tensor.dtype import bfloat16, float16, float32, float64, int32, int64, promote_types
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from ..linalg import op

__all__ = ["MODE_SUM", "MODE_MEAN", "MODE_MAX", "bag_arguments", "is_fast_path"]

MODE_SUM, MODE_MEAN, MODE_MAX = 0, 1, 2
_INDEX_TYPES = (int64, int32)
_WEIGHT_TYPES = (float16, bfloat16, float32, float64)


def _scalar_types(name: str, t: Any, allowed: tuple[Any, ...], words: str) -> None:
    # checkScalarTypes' message (TensorArg position 1 for every argument, as EmbeddingBag.cpp)
    check(
        t._dtype in allowed,
        f"Expected tensor for argument #1 '{name}' to have one of the following scalar types: "
        f"{words}; but got torch.{t._dtype._short}Tensor instead (while checking arguments for "
        f"embedding_bag)",
    )


def promote_indices(indices: Any, offsets: Any) -> tuple[Any, Any]:
    """promoteIndicesAndOffsets: both to their promoted dtype."""
    if indices._dtype is offsets._dtype:
        return indices, offsets
    common = promote_types(indices._dtype, offsets._dtype)
    cast = lambda t: t if t._dtype is common else op("_to_copy")(t, dtype=common)  # noqa: E731
    return cast(indices), cast(offsets)


def bag_arguments(
    weight: Any, indices: Any, offsets: Any, mode: int, per_sample_weights: Any, last: bool
) -> None:
    """_embedding_bag_cpu_impl's and check_arguments' metadata checks (the value checks on
    offsets and indices are the kernel's)."""
    check(
        indices.dim() in (1, 2),
        f"input has to be a 1D or 2D Tensor, but got Tensor of dimension {indices.dim()}",
    )
    if indices.dim() == 1:
        check(
            offsets.dim() == 1,
            f"offsets has to be a 1D Tensor, but got Tensor of dimension {offsets.dim()}",
        )
    _scalar_types("indices", indices, _INDEX_TYPES, "Long, Int")
    _scalar_types("offsets", offsets, _INDEX_TYPES, "Long, Int")
    _scalar_types("weight", weight, _WEIGHT_TYPES, "Half, BFloat16, Float, Double")
    if per_sample_weights is not None:
        check(mode == MODE_SUM, "embedding_bag: per_sample_weights only supported with mode='sum'")
        check(
            per_sample_weights._dtype is weight._dtype,
            f"Expected tensor for argument #1 'weight' to have the same type as tensor for "
            f"argument #1 'per_sample_weights'; but type torch.{weight._dtype._short}Tensor does "
            f"not equal torch.{per_sample_weights._dtype._short}Tensor (while checking arguments "
            f"for embedding_bag)",
        )
        check(
            per_sample_weights.dim() == 1,
            "Expected per_sample_weights.value().dim() == 1 to be true, but got false.  (Could "
            "this error message be improved?  If so, please report an enhancement request to "
            "PyTorch.)",
        )
        check(
            per_sample_weights.numel() == indices.numel(),
            "Expected per_sample_weights.value().numel() == indices.numel() to be true, but got "
            "false.  (Could this error message be improved?  If so, please report an enhancement "
            "request to PyTorch.)",
        )
    if last:
        check(
            shape_of(offsets)[0] >= 1, "include_last_offset: number of offset should be at least 1"
        )


def is_fast_path(weight: Any, per_sample_weights: Any, padding_idx: int) -> bool:
    """The CPU's index_select fast path (sum mode skips offset2bag there)."""
    ok = (
        weight._dtype in (float32, float16, bfloat16)
        and (shape_of(weight)[1] <= 1 or weight.stride(1) == 1)
        and padding_idx < 0
    )
    if per_sample_weights is not None:
        ok = ok and (per_sample_weights.numel() <= 1 or per_sample_weights.stride(0) == 1)
    return ok


def bag_metas(
    weight: Any,
    indices: Any,
    offsets: Any,
    mode: int,
    per_sample_weights: Any,
    last: bool,
    padding_idx: int,
    requires_grad: bool,
) -> tuple[Any, Any, Any, Any]:
    bag_arguments(weight, indices, offsets, mode, per_sample_weights, last)
    itype = promote_types(indices._dtype, offsets._dtype)
    n_off = shape_of(offsets)[0]
    n = shape_of(indices)[0]
    bags = n_off - 1 if last else n_off
    dim = shape_of(weight)[1]
    output = new_meta((bags, dim), weight._dtype)
    fast_sum = is_fast_path(weight, per_sample_weights, padding_idx)
    offset2bag = new_meta((n,) if mode != MODE_SUM or not fast_sum else (0,), itype)
    full = requires_grad or mode in (MODE_MEAN, MODE_MAX)
    bag_size = new_meta((bags,) if full else (n_off,), itype)
    max_indices = new_meta((bags, dim) if mode == MODE_MAX else shape_of(bag_size), itype)
    return output, offset2bag, bag_size, max_indices


_ARGS = (
    "Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, "
    "bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int "
    "padding_idx=-1"
)
_OUTS = "(Tensor, Tensor, Tensor, Tensor)"


@meta(f"_embedding_bag({_ARGS}) -> {_OUTS}")
def _embedding_bag(
    weight,
    indices,
    offsets,
    scale_grad_by_freq=False,
    mode=0,
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
    padding_idx=-1,
):
    return bag_metas(
        weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx, True
    )


@meta(f"_embedding_bag_forward_only({_ARGS}) -> {_OUTS}")
def _embedding_bag_forward_only(
    weight,
    indices,
    offsets,
    scale_grad_by_freq=False,
    mode=0,
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
    padding_idx=-1,
):
    return bag_metas(
        weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx, False
    )


@composite(
    "embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool "
    "scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool "
    "include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)"
)
def embedding_bag_padding_idx(
    weight,
    indices,
    offsets,
    scale_grad_by_freq,
    mode,
    sparse,
    per_sample_weights,
    include_last_offset,
    padding_idx,
):
    pad = -1
    if padding_idx is not None:
        num = shape_of(weight)[0]
        check(
            -num <= padding_idx < num,
            f"padding_idx must be within the number of embeddings, -{num} through {num - 1}, but "
            f"got {padding_idx}",
        )
        pad = padding_idx + num if padding_idx < 0 else padding_idx
    name = "_embedding_bag" if weight.requires_grad else "_embedding_bag_forward_only"
    return op(name)(
        weight, op("contiguous")(indices), op("contiguous")(offsets), scale_grad_by_freq, mode,
        sparse, per_sample_weights, include_last_offset, pad,
    )  # fmt: skip


@composite(
    "embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, "
    "int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset="
    "False) -> (Tensor, Tensor, Tensor, Tensor)"
)
def embedding_bag(
    weight,
    indices,
    offsets,
    scale_grad_by_freq=False,
    mode=0,
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
):
    return op("embedding_bag.padding_idx")(
        weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
        include_last_offset, None,
    )  # fmt: skip


def _contiguous_index(name: str, t: Any) -> None:
    check(
        t.is_contiguous(),
        f"Expected contiguous tensor, but got non-contiguous tensor for argument #1 '{name}' "
        f"(while checking arguments for embedding_bag)",
    )


_BACKWARD = (
    "_embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, "
    "Tensor bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, int "
    "mode, bool sparse, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor"
)


def backward_arguments(indices: Any, offsets: Any, offset2bag: Any) -> bool:
    """_embedding_bag_backward's checks; whether offset2bag must be rebuilt from the offsets
    (the forward's fast sum path left it empty)."""
    for name, t in (("indices", indices), ("offsets", offsets)):
        _scalar_types(name, t, _INDEX_TYPES, "Long, Int")
        _contiguous_index(name, t)
    rebuild = indices.numel() != 0 and offset2bag.numel() == 0
    if not rebuild:
        _contiguous_index("offset2bag", offset2bag)
    return rebuild


@meta(_BACKWARD)
def _embedding_bag_backward(
    grad,
    indices,
    offsets,
    offset2bag,
    bag_size,
    maximum_indices,
    num_weights,
    scale_grad_by_freq,
    mode,
    sparse,
    per_sample_weights,
    padding_idx=-1,
):
    backward_arguments(indices, offsets, offset2bag)
    if sparse:
        raise NotImplementedError(
            "embedding_bag with sparse=True: keyroute has no sparse tensors "
            "(_embedding_bag_sparse_backward)"
        )
    return _embedding_bag_dense_backward(
        grad, indices, offset2bag, bag_size, maximum_indices, num_weights, scale_grad_by_freq,
        mode, per_sample_weights, padding_idx,
    )  # fmt: skip


@meta(
    "_embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, Tensor "
    "bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, int mode, "
    "Tensor? per_sample_weights, int padding_idx=-1) -> Tensor"
)
def _embedding_bag_dense_backward(
    grad,
    indices,
    offset2bag,
    bag_size,
    maximum_indices,
    num_weights,
    scale_grad_by_freq,
    mode,
    per_sample_weights,
    padding_idx=-1,
):
    _scalar_types("grad_", grad, _WEIGHT_TYPES, "Half, BFloat16, Float, Double")
    return new_meta((int(num_weights), shape_of(grad)[1]), grad._dtype)


@meta(
    "_embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, "
    "Tensor offsets, Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor"
)
def _embedding_bag_per_sample_weights_backward(
    grad, weight, indices, offsets, offset2bag, mode, padding_idx=-1
):
    check(
        mode == MODE_SUM,
        "embedding_bag_backward: per_sample_weights only supported for mode='sum'",
    )
    return new_meta((shape_of(indices)[0],), grad._dtype)
