"""Lowerings: one aten operator of a functional graph -> a line of NumPy source.

Each entry takes the kernel (codegen.Kernel: names, dtypes, buffer reuse) and the node's
arguments as source strings (tensors: variable names; scalars: their repr) and returns the
expression for the node's value. Pointwise ufuncs may write into a dying input's buffer
(`out=`): a chain of pointwise ops then runs in one buffer (the NumPy path's fusion). An op
without an entry runs through the dispatcher on wrapped arrays (codegen's fallback), so every
graph compiles; the generated code names each such call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LOWERINGS: dict[str, Callable[..., str | None]] = {}

# Unary pointwise: aten name -> NumPy ufunc source.
_UNARY = {
    "neg": "np.negative",
    "exp": "np.exp",
    "log": "np.log",
    "sin": "np.sin",
    "cos": "np.cos",
    "tan": "np.tan",
    "tanh": "np.tanh",
    "sqrt": "np.sqrt",
    "abs": "np.abs",
    "reciprocal": "np.reciprocal",
    "floor": "np.floor",
    "ceil": "np.ceil",
    "trunc": "np.trunc",
    "log1p": "np.log1p",
    "expm1": "np.expm1",
    "exp2": "np.exp2",
    "log2": "np.log2",
    "sign": "np.sign",
    "logical_not": "np.logical_not",
    "bitwise_not": "np.invert",
    "sinh": "np.sinh",
    "cosh": "np.cosh",
    "asin": "np.arcsin",
    "acos": "np.arccos",
    "atan": "np.arctan",
    "square": "np.square",
}
# Binary pointwise (Tensor and Scalar overloads alike).
_BINARY = {
    "mul": "np.multiply",
    "maximum": "np.maximum",
    "minimum": "np.minimum",
    "eq": "np.equal",
    "ne": "np.not_equal",
    "lt": "np.less",
    "le": "np.less_equal",
    "gt": "np.greater",
    "ge": "np.greater_equal",
    "logical_and": "np.logical_and",
    "logical_or": "np.logical_or",
    "bitwise_and": "np.bitwise_and",
    "bitwise_or": "np.bitwise_or",
    "bitwise_xor": "np.bitwise_xor",
    "atan2": "np.arctan2",
    "fmod": "np.fmod",
    "remainder": "np.mod",
}
POINTWISE = set(_UNARY) | set(_BINARY) | {
    "add", "sub", "div", "pow", "relu", "sigmoid", "silu", "rsqrt", "clamp", "clamp_min",
    "clamp_max", "where", "masked_fill",
}  # fmt: skip


def register(*names: str) -> Callable[[Callable[..., str | None]], Callable[..., str | None]]:
    def deco(fn: Callable[..., str | None]) -> Callable[..., str | None]:
        for n in names:
            LOWERINGS[n] = fn
        return fn

    return deco


def _ufunc(k: Any, n: Any, fn: str, *args: str) -> str:
    out = k.reuse(n)
    tail = f", out={out}" if out else ""
    return f"{fn}({', '.join(args)}{tail})"


for _name, _fn in _UNARY.items():
    LOWERINGS[_name] = lambda k, n, a, _fn=_fn: _ufunc(k, n, _fn, a)
for _name, _fn in _BINARY.items():
    LOWERINGS[_name] = lambda k, n, a, b, _fn=_fn: _ufunc(k, n, _fn, a, b)


@register("add", "sub")
def _add(k: Any, n: Any, a: str, b: str, alpha: str = "1") -> str:
    fn = "np.add" if n.target._opname.startswith("add") else "np.subtract"
    if alpha != "1":
        b = f"({b} * {alpha})"
    return _ufunc(k, n, fn, a, b)


@register("div")
def _div(k: Any, n: Any, a: str, b: str, rounding_mode: str = "None") -> str | None:
    if rounding_mode == "None":
        return _ufunc(k, n, "np.true_divide", a, b)
    if rounding_mode == "'floor'":
        return _ufunc(k, n, "np.floor_divide", a, b)
    return None


@register("pow")
def _pow(k: Any, n: Any, a: str, b: str) -> str:
    if b == "2":
        return _ufunc(k, n, "np.square", a)
    if b == "0.5":
        return _ufunc(k, n, "np.sqrt", a)
    return _ufunc(k, n, "np.power", a, b)


@register("rsqrt")
def _rsqrt(k: Any, n: Any, a: str) -> str:
    out = k.reuse(n)
    if out:
        return f"np.reciprocal(np.sqrt({a}, out={out}), out={out})"
    return f"np.reciprocal(np.sqrt({a}))"


@register("relu")
def _relu(k: Any, n: Any, a: str) -> str:
    return _ufunc(k, n, "np.maximum", a, "0")


@register("sigmoid")
def _sigmoid(k: Any, n: Any, a: str) -> str:
    return f"_k_sigmoid({a})"


@register("silu")
def _silu(k: Any, n: Any, a: str) -> str:
    return f"_k_silu({a})"


@register("clamp")
def _clamp(k: Any, n: Any, a: str, lo: str = "None", hi: str = "None") -> str:
    return _ufunc(k, n, "np.clip", a, lo, hi)


@register("clamp_min")
def _clamp_min(k: Any, n: Any, a: str, lo: str) -> str:
    return _ufunc(k, n, "np.maximum", a, lo)


@register("clamp_max")
def _clamp_max(k: Any, n: Any, a: str, hi: str) -> str:
    return _ufunc(k, n, "np.minimum", a, hi)


@register("where")
def _where(k: Any, n: Any, c: str, a: str, b: str) -> str:
    return f"np.where({c}, {a}, {b})"


@register("masked_fill")
def _masked_fill(k: Any, n: Any, a: str, mask: str, v: str) -> str:
    return f"np.where({mask}, {v}, {a})"


# -- reductions -------------------------------------------------------------------------------


def _meta_shape(v: Any) -> tuple[int, ...] | None:
    m = getattr(v, "meta", {}).get("val") if hasattr(v, "meta") else None
    return tuple(m.shape) if m is not None and hasattr(m, "shape") else None


def _count(shape: tuple[int, ...], dim: str) -> int:
    """The number of elements a reduction over `dim` (source) of `shape` folds together."""
    if dim in ("None", "[]"):
        dims = range(len(shape))
    else:
        import ast

        d = ast.literal_eval(dim)
        dims = d if isinstance(d, (list, tuple)) else [d]
    n = 1
    for d in dims:
        n *= shape[d % len(shape)] if shape else 1
    return n


def _axis(dim: str) -> str:
    if dim in ("None", "[]"):
        return "None"
    return f"({dim[1:-1]},)" if dim.startswith("[") else dim


@register("sum")
def _sum(
    k: Any, n: Any, a: str, dim: str = "None", keepdim: str = "False", dtype: str = "None"
) -> str:  # noqa: E501
    dt = k.np_dtype(n)
    return f"np.add.reduce({a}, axis={_axis(dim)}, dtype={dt}, keepdims={keepdim})"


@register("mean")
def _mean(
    k: Any, n: Any, a: str, dim: str = "None", keepdim: str = "False", dtype: str = "None"
) -> str:  # noqa: E501
    dt = k.np_dtype(n)
    src = _meta_shape(n.args[0])
    if src is None:
        return f"np.mean({a}, axis={_axis(dim)}, keepdims={keepdim}, dtype={dt})"
    count = _count(src, dim)
    red = f"np.add.reduce({a}, axis={_axis(dim)}, dtype={dt}, keepdims={keepdim})"
    if getattr(count, "_kr_symint", False):  # a dynamic size: the count read at run time
        return f"np.multiply({red}, 1.0 / ({count!r}), dtype={dt})"
    return f"np.multiply({red}, {1.0 / count!r}, dtype={dt})" if count else None


@register("amax", "amin")
def _amax(k: Any, n: Any, a: str, dim: str = "[]", keepdim: str = "False") -> str:
    fn = "np.max" if n.target._opname.startswith("amax") else "np.min"
    return f"{fn}({a}, axis={_axis(dim)}, keepdims={keepdim})"


@register("prod")
def _prod(
    k: Any, n: Any, a: str, dim: str = "None", keepdim: str = "False", dtype: str = "None"
) -> str:  # noqa: E501
    return f"np.prod({a}, axis={_axis(dim)}, keepdims={keepdim}, dtype={k.np_dtype(n)})"


@register("var")
def _var(
    k: Any, n: Any, a: str, dim: str = "None", *, correction: str = "1", keepdim: str = "False"
) -> str | None:  # noqa: E501
    if n.target._overloadname != "correction":
        return None
    corr = "1" if correction == "None" else correction
    return f"np.var({a}, axis={_axis(dim)}, ddof={corr}, keepdims={keepdim})"


@register("_softmax")
def _softmax(k: Any, n: Any, a: str, dim: str, half: str) -> str:
    return f"_k_softmax({a}, {dim})"


@register("_log_softmax")
def _log_softmax(k: Any, n: Any, a: str, dim: str, half: str) -> str:
    return f"_k_log_softmax({a}, {dim})"


@register("cumsum")
def _cumsum(k: Any, n: Any, a: str, dim: str, dtype: str = "None") -> str:
    return f"np.cumsum({a}, axis={dim}, dtype={k.np_dtype(n)})"


# -- matmuls (BLAS) ---------------------------------------------------------------------------


@register("mm", "bmm", "matmul")
def _mm(k: Any, n: Any, a: str, b: str) -> str:
    return f"np.matmul({a}, {b})"


@register("addmm")
def _addmm(
    k: Any, n: Any, c: str, a: str, b: str, *, beta: str = "1", alpha: str = "1"
) -> str | None:  # noqa: E501
    if beta != "1" or alpha != "1":
        return None
    return f"np.add(np.matmul({a}, {b}), {c})"


@register("dot")
def _dot(k: Any, n: Any, a: str, b: str) -> str:
    return f"np.dot({a}, {b})"


# -- views and shapes -------------------------------------------------------------------------


@register("view", "_unsafe_view", "reshape")
def _view(k: Any, n: Any, a: str, shape: str) -> str:
    if tuple(k.shape(n)) == _meta_shape(n.args[0]):
        return a  # a view to its own shape: the array itself
    return f"{a}.reshape({tuple(k.shape(n))})"


@register("t")
def _t(k: Any, n: Any, a: str) -> str:
    return f"{a}.T"


@register("transpose")
def _transpose(k: Any, n: Any, a: str, d0: str, d1: str) -> str:
    return f"{a}.swapaxes({d0}, {d1})"


@register("permute")
def _permute(k: Any, n: Any, a: str, dims: str) -> str:
    return f"{a}.transpose({dims})"


@register("expand")
def _expand(k: Any, n: Any, a: str, shape: str, implicit: str = "False") -> str:
    if tuple(k.shape(n)) == _meta_shape(n.args[0]):
        return a
    return f"np.broadcast_to({a}, {tuple(k.shape(n))})"


@register("unsqueeze")
def _unsqueeze(k: Any, n: Any, a: str, d: str) -> str:
    return f"np.expand_dims({a}, {d})"


@register("squeeze")
def _squeeze(k: Any, n: Any, a: str, d: str = "None") -> str:
    return f"{a}.reshape({tuple(k.shape(n))})"


@register("slice")
def _slice(
    k: Any, n: Any, a: str, dim: str = "0", start: str = "None", end: str = "None", step: str = "1"
) -> str:  # noqa: E501
    d = int(dim) % max(k.ndim(n), 1)
    idx = ", ".join(
        [":"] * d + [f"{'' if start == 'None' else start}:{'' if end == 'None' else end}:{step}"]
    )  # noqa: E501
    return f"{a}[{idx}]"


@register("select")
def _select(k: Any, n: Any, a: str, dim: str, i: str) -> str:
    d = int(dim) % (k.ndim(n) + 1)
    return f"{a}[{', '.join([':'] * d + [i])}]"


@register("alias", "detach", "lift_fresh")
def _alias(k: Any, n: Any, a: str) -> str:
    return a


@register("clone", "lift_fresh_copy")
def _clone(k: Any, n: Any, a: str, *, memory_format: str = "None") -> str:
    return f"np.array({a}, copy=True)"


@register("_to_copy")
def _to_copy(k: Any, n: Any, a: str, **kw: str) -> str:
    return f"np.asarray({a}).astype({k.np_dtype(n)})"


@register("copy")
def _copy(k: Any, n: Any, dst: str, src: str, non_blocking: str = "False") -> str:
    return f"_k_copy({dst}, {src})"


@register("cat")
def _cat(k: Any, n: Any, ts: str, dim: str = "0") -> str:
    return f"np.concatenate({ts}, axis={dim})"


@register("stack")
def _stack(k: Any, n: Any, ts: str, dim: str = "0") -> str:
    return f"np.stack({ts}, axis={dim})"


@register("index_select")
def _index_select(k: Any, n: Any, a: str, dim: str, i: str) -> str:
    return f"np.take({a}, {i}, axis={dim})"


@register("embedding")
def _embedding(k: Any, n: Any, w: str, i: str, *rest: str) -> str:
    return f"np.take({w}, {i}, axis=0)"


@register("gather")
def _gather(k: Any, n: Any, a: str, dim: str, i: str, *, sparse_grad: str = "False") -> str:
    return f"np.take_along_axis({a}, {i}, axis={dim})"


@register("index_copy")
def _index_copy(k: Any, n: Any, a: str, dim: str, i: str, v: str) -> str:
    return f"_k_index_copy({a}, {dim}, {i}, {v})"


@register("full", "zeros", "ones", "empty", "new_zeros", "new_ones", "new_empty", "scalar_tensor")
def _factory(k: Any, n: Any, *args: str, **kw: str) -> str | None:
    name = n.target._opname
    val = {"zeros": "0", "ones": "1", "empty": "0", "new_zeros": "0", "new_ones": "1"}.get(
        name.replace("new_", "new_") if name.startswith("new_") else name, None
    )
    if name == "full":
        val = args[1]
    elif name == "scalar_tensor":
        val = args[0]
    elif name == "new_empty":
        val = "0"
    if val is None:
        return None
    return f"np.full({tuple(k.shape(n))}, {val}, dtype={k.np_dtype(n)})"


@register("zeros_like", "ones_like", "full_like", "empty_like")
def _like(k: Any, n: Any, a: str, *args: str, **kw: str) -> str:
    name = n.target._opname
    val = {"zeros_like": "0", "ones_like": "1", "empty_like": "0"}.get(name)
    if name == "full_like":
        val = args[0]
    return f"np.full({tuple(k.shape(n))}, {val}, dtype={k.np_dtype(n)})"


@register("fill")
def _fill(k: Any, n: Any, a: str, v: str) -> str:
    return f"np.full({tuple(k.shape(n))}, {v}, dtype={k.np_dtype(n)})"


@register("arange")
def _arange(k: Any, n: Any, *args: str, **kw: str) -> str:
    nums = [a for a in args]
    return f"np.arange({', '.join(nums)}, dtype={k.np_dtype(n)})"


# -- backward formulas (the ops AOT backward graphs call) -------------------------------------


@register("threshold_backward")
def _threshold_backward(k: Any, n: Any, g: str, x: str, t: str) -> str:
    return f"np.where(np.greater({x}, {t}), {g}, 0)"


@register("tanh_backward")
def _tanh_backward(k: Any, n: Any, g: str, y: str) -> str:
    return f"np.multiply({g}, np.subtract(1, np.square({y})))"


@register("sigmoid_backward")
def _sigmoid_backward(k: Any, n: Any, g: str, y: str) -> str:
    return f"np.multiply({g}, np.multiply({y}, np.subtract(1, {y})))"


@register("_softmax_backward_data")
def _softmax_backward(k: Any, n: Any, g: str, y: str, dim: str, dtype: str) -> str:
    inner = f"np.add.reduce(np.multiply({g}, {y}), axis={dim}, keepdims=True)"
    return f"np.multiply({y}, np.subtract({g}, {inner}))"


@register("_log_softmax_backward_data")
def _log_softmax_backward(k: Any, n: Any, g: str, y: str, dim: str, dtype: str) -> str:
    inner = f"np.add.reduce({g}, axis={dim}, keepdims=True)"
    return f"np.subtract({g}, np.multiply(np.exp({y}), {inner}))"


from .lowering_loss import ENTRIES as _LOSS_ENTRIES  # noqa: E402

LOWERINGS.update(_LOSS_ENTRIES)  # nll_loss, empty_strided, copy taking its source (training)
