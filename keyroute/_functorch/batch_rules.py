"""vmap's batching rules, generic and driven by operator tables (aten/src/ATen/functorch's
BatchRules*.cpp as families rather than one rule per operator).

A rule gets (op, info, args, kwargs) with the arguments still wrapped; `_phys` unwraps one at
the rule's level (batch dimension moved to the front). Families:

- pointwise: every operator PyTorch tags `pointwise` (tools/gen_functorch_tables.py), and their
  in-place forms: operands' batch dims go first, padded so the per-sample dims broadcast;
- same-shape unary ops (clone, _to_copy, detach, *_like, ...): run on the value, batch dim kept;
- dim ops: an argument names dimensions of `self` (reductions, softmax, scans, sort, views such
  as transpose/select/slice/unsqueeze): dims shift by one, no-dim reductions reduce every
  per-sample dim;
- size ops (view, reshape, expand, new_*): the batch size is prepended to the size;
- several tensors over one dim (cat, stack, gather, scatter, index_add, ...): every operand
  batched (unbatched ones expanded), dims shifted;
- leading-batch ops (conv input, pools, pads, attention): the batch folds into dimension 0;
- matmul family, index, embedding, convolution weights: their own rules (in nn_rules.py).
"""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..layers.functorch import RANDOM_OPS, RULES, add_batch_dim, unwrap_at
from ..tensor._tensor import Tensor
from ._op_classes import POINTWISE, RANDOM

__all__ = ["phys", "front", "wrap_outputs", "register_family"]

aten = ops.aten


def phys(x: Any, level: int) -> tuple[Any, bool]:
    """(value with the batch dim first, batched?) for one argument."""
    v, b = unwrap_at(x, level)
    if b is None:
        return x, False
    return (v if b == 0 else v.movedim(b, 0)), True


def front(x: Any, level: int, batch_size: int) -> Any:
    """The value with the batch dim first; an unbatched tensor is expanded to the batch."""
    v, b = unwrap_at(x, level)
    if b is None:
        return x.expand([batch_size, *x.shape])  # expand adds the leading dim itself
    return v if b == 0 else v.movedim(b, 0)


def wrap_outputs(out: Any, level: int, bdim: int = 0) -> Any:
    if isinstance(out, Tensor):
        return add_batch_dim(out, bdim, level)
    if isinstance(out, (tuple, list)):
        return type(out)(wrap_outputs(o, level, bdim) for o in out)
    return out


def _wrap_dim(d: int, n: int) -> int:
    m = max(n, 1)
    if not -m <= d < m:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-m}, {m - 1}], but got {d})"
        )
    return d % m


def _is_batched(x: Any, level: int) -> bool:
    return unwrap_at(x, level)[1] is not None


def _base(name: str) -> str:
    return name.partition("::")[2].partition(".")[0]


# ----------------------------------------------------------------------------- pointwise
_INPLACE_ERROR = (
    "vmap: {what}(self, *extra_args) is not possible because there exists a Tensor `other` in "
    "extra_args that has more elements than `self`. This happened due to `other` being vmapped "
    "over but `self` not being vmapped over in a vmap. Please try to use out-of-place operators "
    "instead of {what}. If said operator is being called inside the PyTorch framework, please "
    "file a bug report instead."
)
#: In-place ops whose PyTorch rule lets the broadcast check word the error ("output with shape
#: [4] doesn't match the broadcast shape [3, 4]") instead of vmap's in-place error.
_BROADCAST_CHECKED = {"add_", "sub_", "copy_", "subtract_", "lerp_", "addcmul_", "addcdiv_"}


def pointwise_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    level = info.level
    tensors = [a for a in args if isinstance(a, Tensor)]
    tensors += [v for v in kwargs.values() if isinstance(v, Tensor)]
    batched = [t for t in tensors if _is_batched(t, level)]
    inplace = _base(op.qualified_name()).endswith("_")
    if len(batched) == 1 and len(tensors) == 1:
        # One tensor operand: run on the value itself, the batch dim stays where it is.
        (t,) = batched
        v, b = unwrap_at(t, level)
        al = tuple(v if a is t else a for a in args)
        kw = {k: (v if x is t else x) for k, x in kwargs.items()}
        out = op(*al, **kw)
        return args[0] if inplace else wrap_outputs(out, level, b)  # type: ignore[arg-type]
    if inplace and not _is_batched(args[0], level) and batched:
        base = _base(op.qualified_name())
        if base not in _BROADCAST_CHECKED:
            raise RuntimeError(_INPLACE_ERROR.format(what="inplace arithmetic"))
    rank = max((t.dim() for t in tensors), default=0)
    # Backward kernels (tanh_backward, threshold_backward, ...) take same-shaped operands.
    expand_all = _base(op.qualified_name()).endswith("_backward")

    def prep(x: Any) -> Any:
        if not isinstance(x, Tensor):
            return x
        if expand_all:
            return front(x, level, info.batch_size)
        v, is_b = phys(x, level)
        if not is_b:
            return x
        for _ in range(rank - x.dim()):
            v = v.unsqueeze(1)
        return v

    out = op(*(prep(a) for a in args), **{k: prep(v) for k, v in kwargs.items()})
    return args[0] if inplace else wrap_outputs(out, level, 0)


# ----------------------------------------------------------------------------- same shape
_SAME_SHAPE = (
    "clone",
    "_to_copy",
    "contiguous",
    "alias",
    "detach",
    "lift_fresh",
    "zeros_like",
    "ones_like",
    "empty_like",
    "full_like",
    "fill_.Scalar",
    "zero_",
    "_conj",
    "resolve_conj",
    "resolve_neg",
)


def same_shape_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    v, b = unwrap_at(args[0], info.level)
    out = op(v, *args[1:], **kwargs)
    return (
        args[0] if _base(op.qualified_name()).endswith("_") else add_batch_dim(out, b, info.level)
    )


# ----------------------------------------------------------------------------- dim ops
#: op -> (dim argument names, rank offset for wrapping: 1 for unsqueeze-like ops).
_DIM_OPS: dict[str, tuple[tuple[str, ...], int]] = {}
for _n in (
    "sum.dim_IntList", "mean.dim", "amax", "amin", "prod.dim_int", "argmax", "argmin",
    "logsumexp", "var.correction", "std.correction", "var_mean.correction",
    "std_mean.correction", "nansum", "max.dim", "min.dim", "median.dim", "nanmedian.dim",
    "mode", "any.dim", "all.dim", "any.dims", "all.dims", "norm.ScalarOpt_dim",
    "linalg_vector_norm", "count_nonzero.dim_IntList", "aminmax", "_softmax", "_log_softmax",
    "cumsum", "cumprod", "sort", "sort.stable", "argsort", "argsort.stable", "topk",
    "select.int", "slice.Tensor", "squeeze.dim", "squeeze.dims", "split.Tensor",
    "split_with_sizes", "unbind.int", "flip", "narrow", "diagonal", "transpose.int",
    "unfold", "movedim.int", "movedim.intlist", "logcumsumexp", "cummax", "cummin",
    "_softmax_backward_data", "_log_softmax_backward_data", "_safe_softmax",
):  # fmt: skip
    _DIM_OPS[_n] = (("dim", "dims", "dim0", "dim1", "dim2", "dimension", "source",
                      "destination"), 0)  # fmt: skip
_DIM_OPS["unsqueeze"] = (("dim",), 1)
_DIM_OPS["roll"] = (("dims",), 0)
#: Reductions whose `dim=None` / `dim=[]` means every dimension.
_FULL_WHEN_EMPTY = {
    "sum.dim_IntList", "mean.dim", "amax", "amin", "var.correction", "std.correction",
    "var_mean.correction", "std_mean.correction", "nansum", "linalg_vector_norm",
    "count_nonzero.dim_IntList", "logsumexp", "norm.ScalarOpt_dim", "any.dims", "all.dims",
}  # fmt: skip
#: Ops whose dim=None flattens (argmax, argmin, aminmax).
_FLATTEN_WHEN_NONE = {"argmax", "argmin", "aminmax"}


def dim_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    level = info.level
    name = op.qualified_name()[6:]
    names, extra = _DIM_OPS[name]
    schema_names = [a.name for a in op._schema.arguments]
    self_t = args[0]
    rank = self_t.dim()
    v = front(self_t, level, info.batch_size)
    scalar = rank == 0 and extra == 0
    if scalar:  # per-sample scalars: operate on a size-1 dim, squeezed again after
        v = v.unsqueeze(1)
        rank = 1
    vals = dict(zip(schema_names, args))
    vals.update(kwargs)
    for arg in op._schema.arguments:  # dims left at their defaults still need shifting
        if arg.name in names and arg.name not in vals and arg.has_default_value():
            vals[arg.name] = arg.default_value
    others: dict[str, Any] = {}
    for key in schema_names[1:]:
        if key in vals and isinstance(vals[key], Tensor):
            others[key] = front(vals[key], level, info.batch_size)
    if name in _FLATTEN_WHEN_NONE and vals.get("dim") is None:
        v = v.flatten(1)
        vals["dim"] = 0
        rank = 1
    for key in names:
        if key not in vals or key not in schema_names:
            continue
        d = vals[key]
        if d is None or (isinstance(d, (list, tuple)) and len(d) == 0):
            if name in _FULL_WHEN_EMPTY:
                vals[key] = list(range(1, rank + 1))
            elif name == "roll":
                return _roll_flat(op, info, args, kwargs)
            continue
        if isinstance(d, (list, tuple)):
            vals[key] = [_wrap_dim(x, rank + extra) + 1 for x in d]
        elif isinstance(d, int):
            vals[key] = _wrap_dim(d, rank + extra) + 1
    vals[schema_names[0]] = v
    vals.update(others)
    al = []
    kw = {}
    for a in op._schema.arguments:
        if a.kwarg_only:
            if a.name in vals:
                kw[a.name] = vals[a.name]
        elif a.name in vals:
            al.append(vals[a.name])
        elif a.has_default_value():
            al.append(a.default_value)
    out = op(*al, **kw)
    if scalar:
        out = _squeeze_scalar(out)
    return wrap_outputs(out, level, 0)


def _squeeze_scalar(out: Any) -> Any:
    if isinstance(out, Tensor):
        return out.squeeze(1) if out.dim() == 2 else out
    if isinstance(out, (tuple, list)):
        return type(out)(_squeeze_scalar(o) for o in out)
    return out


def _roll_flat(op: Any, info: Any, args: Any, kwargs: Any) -> Any:
    v, _ = phys(args[0], info.level)
    shape = list(v.shape)
    out = v.flatten(1).roll(args[1], [1]).view(shape)
    return add_batch_dim(out, 0, info.level)


#: No-dim reductions: computed by their dim overload over every per-sample dim.
def _full_reduction(fn: Any) -> Any:
    def rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        v, _ = phys(args[0], info.level)
        if v.dim() > 1:
            v = v.flatten(1)
        else:
            v = v.unsqueeze(1)
        return add_batch_dim(fn(v, *args[1:], **kwargs), 0, info.level)

    return rule


_FULL = {
    "sum": lambda v, dtype=None: aten.sum.dim_IntList(v, [1], False, dtype=dtype),
    "mean": lambda v, dtype=None: aten.mean.dim(v, [1], False, dtype=dtype),
    "max": lambda v: aten.amax.default(v, [1]),
    "min": lambda v: aten.amin.default(v, [1]),
    "prod": lambda v, dtype=None: aten.prod.dim_int(v, 1, False, dtype=dtype),
    "all": lambda v: aten.all.dim(v, 1),
    "any": lambda v: aten.any.dim(v, 1),
    "count_nonzero": lambda v, dim=None: aten.count_nonzero.dim_IntList(v, [1]),
    "median": lambda v: aten.median.dim(v, 1)[0],
    "nanmedian": lambda v: aten.nanmedian.dim(v, 1)[0],
    "norm.Scalar": lambda v, p=2: aten.norm.ScalarOpt_dim(v, p, [1]),
}


# ----------------------------------------------------------------------------- size ops
def view_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    v, _ = phys(args[0], info.level)
    size = [info.batch_size, *args[1]]
    return add_batch_dim(op(v, size, *args[2:], **kwargs), 0, info.level)


def expand_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x = args[0]
    size = list(args[1])
    v, _ = phys(x, info.level)
    if len(size) < x.dim():
        raise RuntimeError(
            f"expand: the number of sizes provided ({len(size)}) must be greater or equal to "
            f"the number of dimensions in the tensor ({x.dim()})"
        )
    for _ in range(len(size) - x.dim()):
        v = v.unsqueeze(1)
    return add_batch_dim(op(v, [info.batch_size, *size], **kwargs), 0, info.level)


def new_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    v, _ = phys(args[0], info.level)
    return add_batch_dim(op(v, [info.batch_size, *args[1]], *args[2:], **kwargs), 0, info.level)


def permute_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x = args[0]
    v, _ = phys(x, info.level)
    dims = [0] + [_wrap_dim(d, x.dim()) + 1 for d in args[1]]
    return add_batch_dim(op(v, dims), 0, info.level)


def t_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x = args[0]
    v, _ = phys(x, info.level)
    out = v.transpose(1, 2) if x.dim() == 2 else v
    return add_batch_dim(out, 0, info.level)


def squeeze_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x = args[0]
    v, _ = phys(x, info.level)
    dims = [i + 1 for i, s in enumerate(x.shape) if s == 1]
    return add_batch_dim(aten.squeeze.dims(v, dims) if dims else v, 0, info.level)


def repeat_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x = args[0]
    v, _ = phys(x, info.level)
    reps = list(args[1])
    for _ in range(len(reps) - x.dim()):
        v = v.unsqueeze(1)
    return add_batch_dim(op(v, [1, *reps]), 0, info.level)


def trailing_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Ops on trailing dims only (tril, triu, constant_pad_nd): batch dim first is enough."""
    v, _ = phys(args[0], info.level)
    return add_batch_dim(op(v, *args[1:], **kwargs), 0, info.level)


#: Ops on (N, C, *spatial) inputs whose N is optional: op -> rank with N.
_LEADING = {
    "max_pool2d_with_indices": 4, "avg_pool2d": 4, "_adaptive_avg_pool2d": 4,
    "max_pool1d": 3, "avg_pool1d": 3, "reflection_pad1d": 3, "reflection_pad2d": 4,
    "reflection_pad3d": 5, "replication_pad1d": 3, "replication_pad2d": 4,
    "replication_pad3d": 5, "_pad_circular": 0, "pixel_shuffle": 4,
}  # fmt: skip


def fold_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The batch dim folds into the leading (N) dim, or is N when the sample has none."""
    x = args[0]
    full = _LEADING.get(op.qualified_name()[6:], 0)
    v, _ = phys(x, info.level)
    if full and x.dim() < full:
        return wrap_outputs(op(v, *args[1:], **kwargs), info.level, 0)
    n = x.shape[0] if x.dim() else 1
    flat = v.flatten(0, 1)
    out = op(flat, *args[1:], **kwargs)
    return wrap_outputs(_unfold(out, info.batch_size, n), info.level, 0)


def _unfold(out: Any, b: int, n: int) -> Any:
    if isinstance(out, Tensor):
        return out.view([b, n, *out.shape[1:]])
    return type(out)(_unfold(o, b, n) for o in out)


# ----------------------------------------------------------------------------- many tensors
def cat_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    level, b = info.level, info.batch_size
    tensors = list(args[0])
    dim = args[1] if len(args) > 1 else kwargs.get("dim", 0)
    stack = op.qualified_name() == "aten::stack"
    ref = next((t for t in tensors if not (t.dim() == 1 and t.shape[0] == 0)), tensors[0])
    rank = ref.dim() + (1 if stack else 0)
    d = _wrap_dim(dim, rank) + 1
    fronts = [
        t if (not stack and t.dim() == 1 and t.shape[0] == 0) else front(t, level, b)
        for t in tensors
    ]
    return add_batch_dim(op(fronts, d), 0, level)


#: (dim, index, src...) ops: every tensor operand batched, dim shifted.
_MULTI_DIM = (
    "gather", "scatter.src", "scatter.value", "scatter.reduce", "scatter.value_reduce",
    "scatter_add", "scatter_reduce.two", "index_add", "index_copy", "index_fill.int_Scalar",
    "index_fill.int_Tensor", "take_along_dim",
)  # fmt: skip
_INDEX_1D = ("index_add", "index_copy", "index_fill.int_Scalar", "index_fill.int_Tensor")


def multi_dim_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from ..layers.functorch import loop_fallback

    level, b = info.level, info.batch_size
    name = op.qualified_name()[6:]
    if name in _INDEX_1D and _is_batched(args[2], level):
        return loop_fallback(op, info, args, kwargs)
    self_t = args[0]
    rank = self_t.dim()
    al = [front(self_t, level, b)]
    for a in args[1:]:
        if isinstance(a, Tensor) and not (name in _INDEX_1D and a is args[2]):
            al.append(front(a, level, b) if a.dim() else front(a, level, b).view([b]))
        else:
            al.append(a)
    if name == "take_along_dim":
        al[2] = None if al[2] is None else _wrap_dim(al[2], rank) + 1
    else:
        al[1] = _wrap_dim(al[1], rank) + 1
    return add_batch_dim(op(*al, **kwargs), 0, level)


def index_select_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from ..layers.functorch import loop_fallback

    if _is_batched(args[2], info.level):
        return loop_fallback(op, info, args, kwargs)
    v, _ = phys(args[0], info.level)
    d = _wrap_dim(args[1], args[0].dim()) + 1
    return add_batch_dim(op(v, d, args[2]), 0, info.level)


# ----------------------------------------------------------------------------- in-place views
def inplace_view_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """squeeze_ / unsqueeze_ / transpose_ / t_ on a BatchedTensor: the value changes in place
    and the wrapper's per-sample metadata follows (PyTorch updates the BatchedTensorImpl)."""
    from ..layers.functorch import _relogical

    self_t = args[0]
    v, b = unwrap_at(self_t, info.level)
    rank = self_t.dim()
    name = _base(op.qualified_name())

    def phys_dim(d: int) -> int:
        d = _wrap_dim(d, rank)
        return d + 1 if d >= b else d

    # The value is replaced by an out-of-place view (the wrapper's metadata changes, as
    # PyTorch's BatchedTensorImpl does), so autograd records a plain view, no in-place one.
    if name == "unsqueeze_":
        d = _wrap_dim(args[1], rank + 1)
        if d <= b:
            v = v.unsqueeze(d)
            b += 1
        else:
            v = v.unsqueeze(d + 1)
    elif name == "squeeze_":
        dims = args[1] if len(args) > 1 else [i for i, n in enumerate(self_t.shape) if n == 1]
        dims = [dims] if isinstance(dims, int) else list(dims)
        keep = [phys_dim(d) for d in dims if self_t.shape[_wrap_dim(d, rank)] == 1]
        if keep:
            v = aten.squeeze.dims(v, keep)
        b -= sum(1 for p in keep if p < b)
    elif name == "t_":
        if rank == 2:
            v = v.transpose(phys_dim(0), phys_dim(1))
    else:  # transpose_
        v = v.transpose(phys_dim(args[1]), phys_dim(args[2]))
    _relogical(self_t, v, b)
    return self_t


# ----------------------------------------------------------------------------- errors
def _item_rule(op: Any, info: Any, args: Any, kwargs: Any) -> Any:
    raise RuntimeError(
        "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
        "calling .item() on a Tensor, please try to rewrite what you're doing with other "
        "operations. If error is occurring somewhere inside PyTorch internals, please file a "
        "bug report."
    )


def _dynamic_rule(op: Any, info: Any, args: Any, kwargs: Any) -> Any:
    raise RuntimeError(
        f"vmap: We do not support batching operators that can output dynamic shape. Attempted "
        f"to vmap over {op.qualified_name()}. Please file an issue at "
        f"https://github.com/pytorch/pytorch/issues if you need this feature."
    )


def _masked_select_rule(op: Any, info: Any, args: Any, kwargs: Any) -> Any:
    from ..layers.functorch import loop_fallback

    if _is_batched(args[1], info.level):
        raise RuntimeError(
            "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
            "support this because for each batch this would return a differently shaped Tensor. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues if you need this "
            "feature."
        )
    return loop_fallback(op, info, args, kwargs)


def _random(op: Any, info: Any, args: Any, kwargs: Any) -> Any:
    from ..layers.functorch import random_rule

    return random_rule(op, info, args, kwargs)


# ----------------------------------------------------------------------------- table
def register_family(names: Any, rule: Any) -> None:
    for n in names:
        RULES["aten::" + n] = rule


def _install() -> None:
    from ..dispatcher.keys import DispatchKey
    from ..dispatcher.operator import _OPS

    cia = int(DispatchKey.CompositeImplicitAutograd)
    have = {k[6:] for k, op in _OPS.items() if k.startswith("aten::") and op._schema is not None}
    extra_pointwise = {"masked_fill.Tensor", "masked_fill_.Tensor", "threshold_backward",
                       "copy_", "fill_.Tensor", "where.self", "_masked_scale", "floor_divide",
                       "floor_divide.Scalar", "rsub.Tensor", "hardswish", "hardswish_"}  # fmt: skip
    register_family((n for n in (POINTWISE | extra_pointwise) & have), pointwise_rule)
    register_family((n for n in _SAME_SHAPE if n in have), same_shape_rule)
    register_family((n for n in _DIM_OPS if n in have), dim_rule)
    for n, fn in _FULL.items():
        if n in have:
            RULES["aten::" + n] = _full_reduction(fn)
    register_family(("view", "_unsafe_view", "reshape"), view_rule)
    register_family(("expand",), expand_rule)
    register_family(("new_zeros", "new_ones", "new_empty", "new_full"), new_rule)
    register_family(("permute",), permute_rule)
    register_family(("t",), t_rule)
    register_family(("squeeze",), squeeze_rule)
    register_family(("repeat",), repeat_rule)
    register_family(("tril", "triu", "constant_pad_nd"), trailing_rule)
    register_family((n for n in _LEADING if n in have), fold_rule)
    register_family(("cat", "stack"), cat_rule)
    register_family((n for n in _MULTI_DIM if n in have), multi_dim_rule)
    register_family(("index_select",), index_select_rule)
    register_family(("_local_scalar_dense",), _item_rule)
    register_family(
        (n for n in ("squeeze_", "squeeze_.dim", "squeeze_.dims", "unsqueeze_", "transpose_",
                     "t_") if n in have),
        inplace_view_rule,
    )  # fmt: skip
    register_family(("masked_select",), _masked_select_rule)
    register_family(
        (n for n in ("nonzero", "_unique2", "unique_dim", "unique_consecutive",
                     "unique_dim_consecutive", "_unique", "nonzero_numpy") if n in have),
        _dynamic_rule,
    )  # fmt: skip
    for n in RANDOM & have:
        RANDOM_OPS.add("aten::" + n)
        op = _OPS["aten::" + n]
        if op._active(cia) is None:
            RULES["aten::" + n] = _random
