"""The operators PyTorch's C++ CPU kernels call through the dispatcher, as profiler events.

In PyTorch, `relu`'s CPU kernel calls `clamp_min`, `ones_like` calls `empty_like` and
`fill_`, `t` calls `transpose` (which calls `as_strided`), a reduction makes its result with
`as_strided` and `fill_`, `mm` resolves its operands' conjugation with `resolve_conj`, and
TensorIterator casts every CPU input whose dtype is not the common one (a wrapped Python number
included) with `to` > `_to_copy` > `empty_strided` + `copy_`. Those calls are profiler events
nested in the operator's. keyroute's NumPy kernels call no operators, so while a profile
records, the profiler adds these events itself (children of the operator's event) from the
rules below, for the resolutions whose operator is listed: the un-profiled path never looks at
this table. The events are marked as synthesized (kind "internal") in the trace.

A rule sees the call's arguments before the kernel runs (an out= argument's size before it is
resized) and gives the child event trees. They are added only when keyroute's own
implementation made no nested operator calls (so a composite that already dispatches the same
operators is not counted twice), except for the operators in ALWAYS, whose keyroute composite
dispatches some of PyTorch's calls but not the ones the rule gives. Tensors on the meta device
get none (PyTorch's meta kernels call other operators), except from a rule marked `on_meta`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..aten._promotion import result_type
from ..tensor.dtype import get_default_dtype, int64
from ..tensor.meta_array import MetaArray as _MetaArray

__all__ = ["INTERNAL", "ALWAYS", "children", "run_rule"]

Tree = tuple[str, tuple[Any, ...]]
Rule = Callable[[str, tuple[Any, ...], dict[str, Any]], tuple[Tree, ...]]


def _leaf(name: str) -> Tree:
    return (f"aten::{name}", ())


_AS_STRIDED = _leaf("as_strided")
_CAST: Tree = (
    "aten::to",
    (("aten::_to_copy", (_leaf("empty_strided"), _leaf("copy_"))),),
)
_NOOP_TO = _leaf("to")


def _fixed(*trees: Tree) -> Rule:
    return lambda overload, args, kwargs: trees


def _arg(args: tuple[Any, ...], kwargs: dict[str, Any], i: int, name: str, default: Any = None):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def _is_tensor(v: Any) -> bool:
    return hasattr(v, "_key_set")


def _wrapped_dtype(v: Any) -> str | None:
    """The dtype PyTorch wraps a Python number in (None: not a Python number)."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float64"
    if isinstance(v, complex):
        return "complex128"
    return None


def _dtype_name(v: Any) -> str | None:
    d = getattr(v, "_dtype", None)
    return d.name if d is not None else _wrapped_dtype(v)


def _common(*operands: Any, to_float: bool = False) -> str:
    dt = result_type(*operands)
    if to_float and dt.category < 2:
        dt = get_default_dtype()
    return dt.name


_CATEGORY = {"bool": 0, "int64": 1, "float64": 2, "complex128": 3}


def _casts(*operands: Any, to_float: bool = False) -> tuple[Tree, ...]:
    """TensorIterator's casts on CPU: one `to` chain per input not of the common dtype."""
    if len(operands) == 2:
        # the common cases without result_type (the rule runs on every profiled call): two
        # tensors of one dtype; a tensor and a number of its category or a lower one (the
        # tensor's dtype is then the common one, whether it has dimensions or none); with
        # to_float (true division), when that dtype is a floating or complex one
        a, b = operands
        da = getattr(a, "_dtype", None)
        if da is not None and (not to_float or da.category >= 2):
            db = getattr(b, "_dtype", None)
            if db is da:
                return ()
            if db is None:
                w = _wrapped_dtype(b)
                if w is None:
                    if not to_float:
                        return ()
                elif _CATEGORY[w] <= da.category:
                    return () if w == da.name else (_CAST,)
    common = _common(*operands, to_float=to_float)
    return tuple(_CAST for v in operands if _dtype_name(v) not in (None, common))


def _binary(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if len(args) > 1:
        return _casts(args[0], args[1])
    return _casts(_arg(args, kwargs, 0, "self"), _arg(args, kwargs, 1, "other"))


def _true_div(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    other = _arg(args, kwargs, 1, "other")
    floor = kwargs.get("rounding_mode") is not None or overload.endswith("_mode")
    return _casts(_arg(args, kwargs, 0, "self"), other, to_float=not floor)


def _rsub(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    # rsub(self, other) is sub(other, self): rsub.Scalar wraps the number and calls sub
    casts = _casts(_arg(args, kwargs, 1, "other"), _arg(args, kwargs, 0, "self"))
    return (("aten::sub", casts),) if overload == "Scalar" else casts


def _clamp(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if overload != "default":
        return ()
    self = _arg(args, kwargs, 0, "self")
    bound = _arg(args, kwargs, 1, "min")
    if bound is None:
        bound = _arg(args, kwargs, 2, "max")
    if bound is None:
        return ()
    return (_CAST if _common(self, bound) != self._dtype.name else _NOOP_TO,)


def _pow(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    self = _arg(args, kwargs, 0, "self")
    exp = _arg(args, kwargs, 1, "exponent")
    if overload == "Tensor_Scalar":
        return (_leaf("result_type"), _CAST if _common(self, exp) != self._dtype.name else _NOOP_TO)
    if overload == "Scalar":  # number ** tensor: the wrapped base, then pow.Tensor_Tensor
        return (_leaf("result_type"), ("aten::pow", _casts(self, exp)))
    return ()


def _dense(t: Any) -> bool:
    """c10's is_non_overlapping_and_dense."""
    dims = sorted(
        (st, sz) for sz, st in zip(t.shape, t.stride()) if sz != 1
    )  # size-1 dimensions place no constraint
    expected = 1
    for st, sz in dims:
        if st != expected:
            return False
        expected *= sz
    return True


def _contiguous(t: Any) -> bool:
    expected = 1
    for sz, st in reversed(list(zip(t.shape, t.stride()))):
        if sz != 1 and st != expected:
            return False
        expected *= sz
    return True


def _preserve(kwargs: dict[str, Any]) -> bool:
    from ..tensor.layout import to_memory_format

    fmt = to_memory_format(kwargs.get("memory_format"))
    return fmt is None or fmt.name == "preserve_format"


def _empty_like_tree(kwargs: dict[str, Any]) -> Tree:
    return ("aten::empty_like", (_leaf("empty_strided" if _preserve(kwargs) else "empty"),))


def _like(fill: str) -> Rule:
    return lambda overload, args, kwargs: (_empty_like_tree(kwargs), _leaf(fill))


def _to_copy(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    return (_leaf("empty_strided" if _preserve(kwargs) else "empty"), _leaf("copy_"))


def _clone_tree(t: Any, kwargs: dict[str, Any]) -> Tree:
    if _preserve(kwargs) and _dense(t):
        return ("aten::clone", (_leaf("empty_strided"), _leaf("copy_")))
    return ("aten::clone", (_empty_like_tree(kwargs), _leaf("copy_")))


def _clone(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    return _clone_tree(_arg(args, kwargs, 0, "self"), kwargs)[1]


def _reduction_result(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    # the result viewed with the reduced dimensions restored (review_reduce_result) unless
    # keepdim; a dtype= cast of the input; the result filled with the identity
    keepdim = _arg(args, kwargs, 2, "keepdim", False) if len(args) != 1 else False
    out: list[Tree] = [] if keepdim else [_AS_STRIDED]
    dt = kwargs.get("dtype")
    if dt is not None and dt.name != args[0]._dtype.name:
        out.append(_CAST)
    out.append(_leaf("fill_"))
    return tuple(out)


def _sum(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if overload not in ("default", "dim_IntList"):
        return ()
    return _reduction_result(args, kwargs)


def _mean_trees(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    # mean is sum_out followed by an in-place division by the element count (a wrapped int)
    return (("aten::sum", _reduction_result(args, kwargs)), ("aten::div_", (_CAST,)))


def _mean(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    return _mean_trees(args, kwargs) if overload in ("default", "dim") else ()


def _mse_loss(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    reduction = _arg(args, kwargs, 2, "reduction", 1)
    if overload != "default" or reduction == 0:
        return ()
    head = (_leaf("resize_"), _leaf("empty"))
    full = (args[0],)
    if reduction == 1:
        return (*head, ("aten::mean", _mean_trees(full, {})))
    return (*head, ("aten::sum", _reduction_result(full, {})))


def _max_min(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if overload == "default":
        return (_leaf("empty"), _leaf("fill_"))
    if overload == "dim" and not _arg(args, kwargs, 2, "keepdim", False):
        # the kernel works on keepdim-shaped outputs, then squeezes them in place
        un = ("aten::unsqueeze_", (_leaf("as_strided_"),))
        sq = ("aten::squeeze_", (_leaf("as_strided_"),))
        return (un, un, sq, sq)
    return ()


_RESOLVE_CONJ = _leaf("resolve_conj")
_COPY = _leaf("copy_")
_EXPAND = ("aten::expand", (_AS_STRIDED,))
_MM_CLONE = ("aten::clone", (("aten::empty_like", (_leaf("empty"),)), _COPY))


def _strides(data: Any) -> tuple[int, ...]:
    """A 2-d operand's strides in elements, from its array (the rules run on every profiled
    call of their operator: Tensor.stride() costs a generator more)."""
    if data.__class__ is _MetaArray:
        return data.stride
    item = data.itemsize
    s0, s1 = data.strides
    return (s0 // item, s1 // item)


def _mm_resolves(result: tuple[int, ...], m1: Any, m2: Any) -> tuple[Tree, ...]:
    """The resolve_conj calls of addmm_impl_cpu_ for a fresh row-major result (sizes
    `result`): the result's, and each operand's that gemm takes untransposed; an operand
    neither row- nor column-major is copied (clone). m1, m2: the operands' arrays."""
    rows, cols = result
    if rows * cols == 0 or m1.shape[1] == 0:
        return ()
    out: list[Tree] = [_RESOLVE_CONJ]
    # The fresh result's strides are (cols, 1), or (1, 1) for one column: a row-major result
    # is taken as a transposed column-major one, with the operands swapped.
    transpose_c = cols != 1
    if transpose_c:
        m1, m2 = m2, m1
    m, n = (cols, rows) if transpose_c else (rows, cols)
    k = m1.shape[0] if transpose_c else m1.shape[1]
    i, j = (1, 0) if transpose_c else (0, 1)
    for mat, lead, other in ((m1, m, k), (m2, k, n)):
        s = _strides(mat)
        if s[i] == 1 and s[j] >= max(1, lead):
            out.append(_RESOLVE_CONJ)
        elif not (s[j] == 1 and s[i] >= max(1, other)):
            out.append(_MM_CLONE)
    return tuple(out)


def _mm(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if overload != "default":
        return ()
    a, b = _arg(args, kwargs, 0, "self")._data, _arg(args, kwargs, 1, "mat2")._data
    return _mm_resolves((a.shape[0], b.shape[1]), a, b)


def _addmm(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if overload != "default":
        return ()
    if len(args) >= 3:
        bias, a, b = args[0]._data, args[1]._data, args[2]._data
    else:
        bias = _arg(args, kwargs, 0, "self")._data
        a, b = _arg(args, kwargs, 1, "mat1")._data, _arg(args, kwargs, 2, "mat2")._data
    size = (a.shape[0], b.shape[1])
    beta = args[3] if len(args) > 3 else kwargs.get("beta", 1)
    if bias.shape == size:
        if beta != 0 and size[0] * size[1]:
            return (_COPY, *_mm_resolves(size, a, b))
        return _mm_resolves(size, a, b)
    head = (_EXPAND, _COPY) if beta != 0 and size[0] * size[1] else (_EXPAND,)
    return (*head, *_mm_resolves(size, a, b))


def _index_select_trees(self: Any) -> tuple[Tree, ...]:
    sel = ("aten::select", (_AS_STRIDED,))
    return (_leaf("empty"), sel, sel) if len(self.shape) > 1 else (_leaf("empty"),)


def _index_select(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    return _index_select_trees(args[0]) if overload == "default" else ()


def _embedding(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    weight, indices = _arg(args, kwargs, 0, "weight"), _arg(args, kwargs, 1, "indices")
    select = ("aten::index_select", _index_select_trees(weight))
    if len(indices.shape) == 1:
        return (select,)
    return (("aten::reshape", (_leaf("view"),)), select, _leaf("view"))


def _layer_norm(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    x = args[0]
    head: tuple[Tree, ...] = ()
    if not _contiguous(x):
        head = (("aten::contiguous", (_clone_tree(x, {"memory_format": 0}),)),)
    return (*head, _leaf("empty"), _leaf("empty"), _leaf("empty"), _leaf("view"), _leaf("view"))


def _flash(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    tr = ("aten::transpose", (_AS_STRIDED,))
    mask = _arg(args, kwargs, 5, "attn_mask")
    masked = (_leaf("view"), ("aten::expand", (_AS_STRIDED,))) if mask is not None else ()
    head = (("aten::empty_like", (_leaf("empty_strided"),)), tr, _leaf("empty"), tr, tr, tr)
    return (*head, *masked, _leaf("empty"), _leaf("empty"), tr, tr)


def _log_softmax(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    dt = _arg(args, kwargs, 2, "dtype")
    if dt is None:
        return ()
    return (_CAST if dt.name != args[0]._dtype.name else _NOOP_TO,)


def _arange_out(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    from ..aten.core import _arange_len

    out = kwargs.get("out")
    if out is None or overload != "start_out":
        return ()
    n = _arange_len(args[0], args[1], args[2] if len(args) > 2 else 1, out._dtype)
    return (_leaf("resize_"),) if tuple(out.shape) != (n,) else ()


def _where(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if overload == "self":
        return (_leaf("empty"),)
    if overload in ("ScalarOther", "ScalarSelf"):
        return (_leaf("scalar_tensor"), _NOOP_TO, ("aten::where", (_leaf("empty"),)))
    return ()


_RESHAPE_VIEW = ("aten::reshape", (_leaf("view"),))
_UNIFORM_META = (("prims::uniform", (_leaf("empty_strided"),)), _COPY)


def _uniform(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    # on the meta device PyTorch runs uniform_'s Python reference (prims.uniform into a fresh
    # tensor, then copy_); its CPU kernel calls nothing
    if overload == "default" and args[0]._data.__class__ is _MetaArray:
        return _UNIFORM_META
    return ()


_uniform.on_meta = True  # type: ignore[attr-defined]  (run_rule keeps its meta events)


def _index(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    # AdvancedIndex restrides the source (as_strided) and reshapes each index tensor to the
    # broadcast layout (a view for a contiguous one). Rules for int64 index tensors of one
    # shape only: bool masks (nonzero), broadcasting (expand) and other dtypes are not mirrored.
    if overload != "Tensor":
        return ()
    defined = [i for i in _arg(args, kwargs, 1, "indices") if i is not None]
    if not defined:
        return ()
    shape = defined[0]._data.shape
    for i in defined:
        data = i._data
        if i._dtype is not int64 or data.shape != shape or not data.flags.c_contiguous:
            return ()
    return (_AS_STRIDED, *((_RESHAPE_VIEW,) * len(defined)))


def _mse_backward(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if overload != "default":
        return ()
    zeros = ("aten::zeros_like", (("aten::empty_like", (_leaf("empty"),)), _leaf("zero_")))
    return (zeros, _leaf("mse_loss_backward"))


_BINARY = (
    "add", "sub", "mul", "remainder", "fmod", "gt", "lt", "ge", "le", "eq", "ne", "maximum",
    "minimum", "add_", "sub_", "mul_", "remainder_", "gt_", "lt_", "ge_", "le_", "eq_", "ne_",
)  # fmt: skip

_VIEW = _fixed(_AS_STRIDED)

#: "aten::<name>" -> a function of the call's arguments giving the child event trees.
INTERNAL: dict[str, Rule] = {
    "aten::relu": _fixed(_leaf("clamp_min")),
    "aten::ones_like": _like("fill_"),
    "aten::zeros_like": _like("zero_"),
    "aten::full_like": _like("fill_"),
    "aten::empty_like": lambda o, a, k: _empty_like_tree(k)[1],
    "aten::_to_copy": _to_copy,
    "aten::clone": _clone,
    "aten::t": _fixed(("aten::transpose", (_AS_STRIDED,))),
    "aten::transpose": _VIEW,
    "aten::unsqueeze": _VIEW,
    "aten::slice": _VIEW,
    "aten::select": _VIEW,
    "aten::expand": _VIEW,
    "aten::abs": lambda o, a, k: (_leaf("empty"), _leaf("abs")) if o == "default" else (),
    "aten::nonzero": lambda o, a, k: (
        (_leaf("empty"), _leaf("as_strided_")) if o == "default" else ()
    ),
    "aten::index_copy_": _fixed(_AS_STRIDED, _AS_STRIDED),
    # zeros of the input's size, then copy_ into the slice of it
    "aten::slice_backward": _fixed(
        ("aten::zeros", (_leaf("empty"), _leaf("zero_"))),
        ("aten::slice", (_AS_STRIDED,)),
        _leaf("copy_"),
    ),
    "aten::nll_loss_backward": lambda o, a, k: (_leaf("zero_"),) if o == "default" else (),
    "aten::mse_loss_backward": _mse_backward,
    "aten::mse_loss": _mse_loss,
    "aten::sum": _sum,
    "aten::mean": _mean,
    "aten::max": _max_min,
    "aten::min": _max_min,
    "aten::mm": _mm,
    "aten::addmm": _addmm,
    "aten::bmm": lambda o, a, k: (_leaf("resolve_conj"),) * 2 if o == "default" else (),
    "aten::index_select": _index_select,
    "aten::index": _index,
    "aten::uniform_": _uniform,
    "aten::embedding": _embedding,
    "aten::native_layer_norm": _layer_norm,
    "aten::_scaled_dot_product_flash_attention_for_cpu": _flash,
    "aten::log_softmax": _log_softmax,
    "aten::arange": _arange_out,
    "aten::where": _where,
    "aten::clamp": _clamp,
    "aten::pow": _pow,
    "aten::rsub": _rsub,
    "aten::div": _true_div,
    "aten::div_": _true_div,
    **{f"aten::{n}": _binary for n in _BINARY},
}

#: Operators whose keyroute composite dispatches other calls than the rule's (both counted).
ALWAYS = frozenset({"aten::log_softmax"})

#: Operators whose PyTorch CPU kernel calls no operator through the dispatcher where keyroute's
#: composite does: their events have no children when the result is a CPU tensor
#: (scalar_tensor's CPU fast track allocates and fills without dispatching; on other devices
#: PyTorch's empty + fill_ are events, as keyroute's).
NO_CHILDREN_ON_CPU = frozenset({"aten::scalar_tensor"})


def children(
    name: str, overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Tree, ...]:
    """The child event trees of one call of operator `name` (`aten::add`), overload `overload`.

    A rule that cannot read its arguments (a tensor subclass without strides, an unexpected
    argument form) gives no events: the profile then lacks them, the program is unaffected."""
    rule = INTERNAL.get(name)
    return () if rule is None else run_rule(rule, overload, args, kwargs)


def run_rule(rule: Rule, overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """rule's trees for one call (none for meta tensors or arguments it cannot read)."""
    try:
        trees = rule(overload, args, kwargs)
    except (AttributeError, TypeError, IndexError, ValueError):
        return ()
    if trees and not getattr(rule, "on_meta", False):
        # (the meta check only where there is something to drop: most calls have none)
        for a in args:
            if getattr(a, "_data", None).__class__ is _MetaArray:
                return ()
    return trees
