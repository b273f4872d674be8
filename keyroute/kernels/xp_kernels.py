"""Kernels written once against an array module `xp` (NumPy or CuPy): the CUDA backend runs
them with CuPy on the GPU; the suite runs the same source with NumPy, so a kernel's logic is
tested without a GPU (tests/cuda/test_xp_kernels.py checks each against the CPU kernels).

A kernel takes `xp` first, then the operator's arguments with arrays in place of tensors,
and returns arrays; the caller (keyroute/cuda/backend.py) gives them the dtype the operator's
meta function says, so a kernel computes values and leaves dtype rules to the meta layer.
`special(xp)` supplies what the two modules name differently (erf).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["KERNELS", "special"]

KERNELS: dict[str, Callable[..., Any]] = {}


def _k(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        for n in names:
            KERNELS[n] = fn
        return fn

    return wrap


def special(xp: Any) -> Any:
    """erf for xp: cupyx.scipy.special's on CuPy, keyroute's CPU one on NumPy."""
    if xp.__name__ == "numpy":
        from .cpu._special import erf_array

        return erf_array
    import cupyx.scipy.special as sp  # type: ignore[import-not-found]

    return sp.erf


def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return tuple(range(ndim))
    dims = [dim] if isinstance(dim, int) else list(dim)
    return tuple(sorted({d % max(ndim, 1) for d in dims})) if ndim else ()


# -- elementwise -----------------------------------------------------------------------------


@_k("add.Tensor")
def add(xp: Any, a: Any, b: Any, *, alpha: Any = 1) -> Any:
    return xp.add(a, b if alpha == 1 else xp.multiply(b, alpha))


@_k("sub.Tensor")
def sub(xp: Any, a: Any, b: Any, *, alpha: Any = 1) -> Any:
    return xp.subtract(a, b if alpha == 1 else xp.multiply(b, alpha))


@_k("mul.Tensor")
def mul(xp: Any, a: Any, b: Any) -> Any:
    return xp.multiply(a, b)


@_k("div.Tensor")
def div(xp: Any, a: Any, b: Any) -> Any:
    return xp.true_divide(a, b)


def _unary(name: str, fn: Callable[..., Any]) -> None:
    KERNELS[name] = fn


for _name, _uf in {
    "neg": "negative",
    "exp": "exp",
    "log": "log",
    "sqrt": "sqrt",
    "tanh": "tanh",
    "sin": "sin",
    "cos": "cos",
    "abs": "abs",
    "reciprocal": "reciprocal",
}.items():
    _unary(_name, lambda xp, a, _uf=_uf: getattr(xp, _uf)(a))


@_k("rsqrt")
def rsqrt(xp: Any, a: Any) -> Any:
    return 1 / xp.sqrt(a)


@_k("sigmoid")
def sigmoid(xp: Any, a: Any) -> Any:
    return 1 / (1 + xp.exp(-a))


@_k("relu")
def relu(xp: Any, a: Any) -> Any:
    return xp.maximum(a, 0)


@_k("silu")
def silu(xp: Any, a: Any) -> Any:
    return a / (1 + xp.exp(-a))


@_k("gelu")
def gelu(xp: Any, a: Any, *, approximate: str = "none") -> Any:
    if approximate == "tanh":
        inner = math.sqrt(2 / math.pi) * (a + 0.044715 * a * a * a)
        return 0.5 * a * (1 + xp.tanh(inner))
    return 0.5 * a * (1 + special(xp)(a * (1 / math.sqrt(2))))


@_k("erf")
def erf(xp: Any, a: Any) -> Any:
    return special(xp)(a)


@_k("where.self")
def where(xp: Any, cond: Any, a: Any, b: Any) -> Any:
    return xp.where(cond, a, b)


for _name, _uf in {
    "eq.Tensor": "equal",
    "ne.Tensor": "not_equal",
    "lt.Tensor": "less",
    "le.Tensor": "less_equal",
    "gt.Tensor": "greater",
    "ge.Tensor": "greater_equal",
    "maximum": "maximum",
    "minimum": "minimum",
}.items():
    KERNELS[_name] = lambda xp, a, b, _uf=_uf: getattr(xp, _uf)(a, b)


@_k("clamp")
def clamp(xp: Any, a: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    out = a
    if min is not None:
        out = xp.maximum(out, min)
    if max is not None:
        out = xp.minimum(out, max)
    return out


@_k("clamp_min")
def clamp_min(xp: Any, a: Any, min: Any) -> Any:  # noqa: A002
    return xp.maximum(a, min)


# -- reductions ------------------------------------------------------------------------------


@_k("sum.dim_IntList")
def sum_dim(xp: Any, a: Any, dim: Any, keepdim: bool = False, *, dtype: Any = None) -> Any:
    acc = dtype.np if dtype is not None else (xp.int64 if a.dtype.kind in "biu" else None)
    return xp.sum(a, axis=_dims(dim, a.ndim), keepdims=keepdim, dtype=acc)


@_k("sum")
def sum_all(xp: Any, a: Any, *, dtype: Any = None) -> Any:
    return sum_dim(xp, a, None, False, dtype=dtype)


@_k("mean.dim")
def mean_dim(xp: Any, a: Any, dim: Any, keepdim: bool = False, *, dtype: Any = None) -> Any:
    return xp.mean(
        a, axis=_dims(dim, a.ndim), keepdims=keepdim, dtype=None if dtype is None else dtype.np
    )


@_k("mean")
def mean_all(xp: Any, a: Any, *, dtype: Any = None) -> Any:
    return mean_dim(xp, a, None, False, dtype=dtype)


@_k("amax")
def amax(xp: Any, a: Any, dim: Any = (), keepdim: bool = False) -> Any:
    return xp.max(a, axis=_dims(dim, a.ndim), keepdims=keepdim)


@_k("amin")
def amin(xp: Any, a: Any, dim: Any = (), keepdim: bool = False) -> Any:
    return xp.min(a, axis=_dims(dim, a.ndim), keepdims=keepdim)


@_k("linalg_vector_norm")
def vector_norm(
    xp: Any, a: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Any:
    axes = _dims(dim, a.ndim)
    x = xp.abs(a)
    if ord == 2:
        return xp.sqrt(xp.sum(x * x, axis=axes, keepdims=keepdim))
    if ord == math.inf:
        return xp.max(x, axis=axes, keepdims=keepdim)
    if ord == 1:
        return xp.sum(x, axis=axes, keepdims=keepdim)
    return xp.sum(x**ord, axis=axes, keepdims=keepdim) ** (1.0 / ord)


# -- matmul and nn ---------------------------------------------------------------------------


@_k("mm", "bmm")
def mm(xp: Any, a: Any, b: Any) -> Any:
    return xp.matmul(a, b)


@_k("addmm")
def addmm(xp: Any, c: Any, a: Any, b: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    prod = xp.matmul(a, b)
    if alpha != 1:
        prod = prod * alpha
    if beta == 0:
        return prod
    return prod + (c if beta == 1 else c * beta)


@_k("_softmax")
def softmax(xp: Any, a: Any, dim: int, half_to_float: bool = False) -> Any:
    z = xp.exp(a - xp.max(a, axis=dim, keepdims=True))
    return z / xp.sum(z, axis=dim, keepdims=True)


@_k("_log_softmax")
def log_softmax(xp: Any, a: Any, dim: int, half_to_float: bool = False) -> Any:
    s = a - xp.max(a, axis=dim, keepdims=True)
    return s - xp.log(xp.sum(xp.exp(s), axis=dim, keepdims=True))


@_k("native_layer_norm")
def layer_norm(
    xp: Any, x: Any, normalized_shape: Any, weight: Any, bias: Any, eps: float
) -> tuple[Any, Any, Any]:
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    mean = xp.mean(x, axis=axes, keepdims=True)
    var = xp.mean((x - mean) ** 2, axis=axes, keepdims=True)
    rstd = 1 / xp.sqrt(var + eps)
    out = (x - mean) * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean, rstd


@_k("embedding")
def embedding(xp: Any, weight: Any, indices: Any, *rest: Any) -> Any:
    return xp.take(weight, indices, axis=0)


# -- views (xp views: writes through them reach the base, as on CPU) -------------------------


@_k("view", "_unsafe_view", "unsqueeze", "squeeze.dim", "squeeze.dims", "squeeze")
def reshape_view(xp: Any, a: Any, *args: Any, out_shape: tuple[int, ...] = ()) -> Any:
    v = a.view()
    v.shape = out_shape  # raises rather than copy: a view must share memory
    return v


@_k("permute")
def permute(xp: Any, a: Any, dims: Any) -> Any:
    return xp.transpose(a, [d % max(a.ndim, 1) for d in dims]) if a.ndim else a


@_k("transpose.int")
def transpose(xp: Any, a: Any, d0: int, d1: int) -> Any:
    return xp.swapaxes(a, d0 % a.ndim, d1 % a.ndim) if a.ndim >= 2 else a


@_k("t")
def t(xp: Any, a: Any) -> Any:
    return a.T if a.ndim == 2 else a


@_k("expand")
def expand(xp: Any, a: Any, size: Any, *, implicit: bool = False, out_shape: Any = ()) -> Any:
    return xp.broadcast_to(a, out_shape)


@_k("slice.Tensor")
def slice_(xp: Any, a: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1) -> Any:
    d = dim % a.ndim
    n = a.shape[d]
    lo = 0 if start is None else int(start)
    hi = n if end is None else int(end)
    lo = min(max(lo + n if lo < 0 else lo, 0), n)
    hi = min(max(hi + n if hi < 0 else hi, lo), n)
    return a[(slice(None),) * d + (slice(lo, hi, int(step)),)]


@_k("select.int")
def select(xp: Any, a: Any, dim: int, index: int) -> Any:
    return a[(slice(None),) * (dim % a.ndim) + (int(index),)]


@_k("alias", "detach")
def alias(xp: Any, a: Any) -> Any:
    return a.view()


@_k("clone")
def clone(xp: Any, a: Any, *, memory_format: Any = None) -> Any:
    # preserve_format (None) keeps the strides; any other format asks for row-major here
    # (channels_last clones take the CPU fallback's path only through other operators).
    return xp.array(a, copy=True, order="K" if memory_format is None else "C")


#: kernels that need the output shape the meta function computed (passed as out_shape=)
NEEDS_SHAPE = frozenset(
    {"view", "_unsafe_view", "unsqueeze", "squeeze.dim", "squeeze.dims", "squeeze", "expand"}
)
#: view kernels: their outputs share the input's memory
VIEWS = NEEDS_SHAPE | {
    "permute",
    "transpose.int",
    "t",
    "slice.Tensor",
    "select.int",
    "alias",
    "detach",
}
