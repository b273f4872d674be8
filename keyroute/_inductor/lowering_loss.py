"""Lowerings for a training step's graph: the loss operators, the allocations autograd adds,
and optimizer updates written into the parameters.

`nll_loss_forward` / `nll_loss_backward` (cross_entropy is `_log_softmax` + nll_loss, whose
pieces lowering.py has) call the CPU kernels' own code on the arrays, wrapped once per call
without the dispatcher, so the compiled loss gives eager's bits (the kernels take cross
entropy's fast path: mean, no weight, every target valid). `new_empty_strided` /
`empty_strided` with the contiguous strides of their shape (AccumulateGrad's clone of a
gradient) are `np.empty`; the `copy` into such a buffer takes the source's own array when
nothing else reads it (a gradient matmul's result: no second copy of a weight gradient). An
update of a graph input that is copied back (`param.add_(grad, alpha=-lr)`, functionalized to
`add` + copy-back) is written into the input with `out=` once no other reader of it is left.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..tensor._tensor import Tensor, wrap_cpu

#: Added to lowering.LOWERINGS by lowering.py (this module imports nothing from there).
ENTRIES: dict[str, Any] = {}


def register(*names: str) -> Any:
    def deco(fn: Any) -> Any:
        for n in names:
            ENTRIES[n] = fn
        return fn

    return deco


def _meta(n: Any) -> Any:
    return getattr(n, "meta", {}).get("val")


def _dtype_global(k: Any, v: Any) -> str:
    dt = v.dtype
    name = f"kdt_{dt.np.name}" if hasattr(dt.np, "name") else f"kdt_{id(dt)}"
    k.globals[name] = dt
    return name


def _wrap(a: Any, dt: Any) -> Any:
    if a is None:
        return None
    return wrap_cpu(a if isinstance(a, np.ndarray) else np.asarray(a), dt)


def _fast_case(x: Any, t: Any, w: Any, reduction: int, ignore: int) -> bool:
    """cross_entropy's case, the one the CPU kernels compute by a shortcut: mean, no weight,
    2-d input, every target valid (else the kernels themselves run, with their errors)."""
    if w is not None or reduction != 1 or x.ndim != 2 or t.ndim != 1:
        return False
    n, c = x.shape
    return 0 < n == t.shape[0] and not 0 <= ignore < c and t.min() >= 0 and t.max() < c


def nll_forward(x: Any, t: Any, w: Any, reduction: int, ignore: int, dx: Any, dtt: Any) -> Any:
    from ..kernels.cpu.nn import _EXACT_COUNT, _as, _comp, _round, nll_loss_forward

    if _fast_case(x, t, w, reduction, ignore) and x.shape[0] < _EXACT_COUNT:
        # the kernel's own shortcut (kernels/cpu/nn.py _nll), same steps, same bits
        comp = _comp(dx)
        xs = _as(x, comp)
        n = xs.shape[0]
        total = np.asarray(n, comp)
        loss = np.negative(xs[np.arange(n), t.astype(np.int64, copy=False)]).sum(dtype=comp)
        return _round(np.asarray(loss / total, comp), dx), _round(total, dx)

    out, total = nll_loss_forward(
        _wrap(x, dx), _wrap(t, dtt), _wrap(w, dx), reduction, ignore
    )  # fmt: skip
    return out._data, total._data


def nll_backward(
    g: Any, x: Any, t: Any, w: Any, reduction: int, ignore: int, tw: Any, dx: Any, dtt: Any
) -> Any:
    from ..kernels.cpu.backward_ops import _comp, nll_loss_backward

    if (
        _fast_case(x, t, w, reduction, ignore)
        and np.size(g) == 1
        and np.size(tw) == 1
        and 0 < abs(float(np.asarray(tw).reshape(-1)[0])) < math.inf
        and x.flags.c_contiguous
    ):
        # the kernel's own shortcut (kernels/cpu/backward_ops.py nll_loss_backward)
        comp = _comp(dx)
        n, c = x.shape
        grad = np.zeros((n, c), comp)
        ga = np.asarray(g)
        ta = np.asarray(tw)
        gv = (ga if ga.dtype == comp else ga.astype(comp)).reshape(-1)
        tv = (ta if ta.dtype == comp else ta.astype(comp)).reshape(-1)
        grad[np.arange(n), t.astype(np.int64, copy=False)] = np.negative(gv / tv)
        return grad if grad.dtype == dx.np else grad.astype(dx.np)

    r = nll_loss_backward(
        _wrap(g, dx), _wrap(x, dx), _wrap(t, dtt), _wrap(w, dx), reduction, ignore, _wrap(tw, dx)
    )
    return r._data


def _tensor_args(n: Any, *idx: int) -> bool:
    return all(isinstance(_meta(n.args[i]), Tensor) for i in idx)


@register("nll_loss_forward", "nll_loss2d_forward")
def _nll_loss_forward(
    k: Any, n: Any, x: str, t: str, w: str, reduction: str, ignore_index: str
) -> str | None:
    if not _tensor_args(n, 0, 1) or n.target._opname != "nll_loss_forward":
        return None
    k.globals["_k_nll_forward"] = nll_forward
    dx, dt = _dtype_global(k, _meta(n.args[0])), _dtype_global(k, _meta(n.args[1]))
    return f"_k_nll_forward({x}, {t}, {w}, {reduction}, {ignore_index}, {dx}, {dt})"


@register("nll_loss_backward")
def _nll_loss_backward(
    k: Any, n: Any, g: str, x: str, t: str, w: str, reduction: str, ignore: str, tw: str
) -> str | None:
    if not _tensor_args(n, 0, 1, 2, 6):
        return None
    k.globals["_k_nll_backward"] = nll_backward
    dx, dt = _dtype_global(k, _meta(n.args[1])), _dtype_global(k, _meta(n.args[2]))
    return f"_k_nll_backward({g}, {x}, {t}, {w}, {reduction}, {ignore}, {tw}, {dx}, {dt})"


def _contiguous(shape: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    expect = 1
    for s, st in zip(reversed(shape), reversed(strides)):
        if s != 1 and st != expect:
            return False
        expect *= s
    return True


@register("new_empty_strided", "empty_strided")
def _empty_strided(k: Any, n: Any, *args: str, **kw: str) -> str | None:
    v = _meta(n)
    if not isinstance(v, Tensor):
        return None
    shape = tuple(v.shape)
    if not _contiguous(shape, tuple(v.stride())):
        return None
    return f"np.empty({shape}, dtype={k.np_dtype(n)})"


_FRESH = {"mm", "addmm", "bmm", "matmul", "sum", "mean", "add", "sub", "mul", "div", "where",
          "threshold_backward"}  # fmt: skip
_CHAIN_VIEWS = {"t", "transpose", "permute", "view", "_unsafe_view", "reshape", "alias", "detach"}


def _base_copy(k: Any, n: Any, dst: str, src: str, non_blocking: str = "False") -> str:
    return f"_k_copy({dst}, {src})"  # lowering.py's copy


def _name(n: Any) -> str | None:
    return getattr(n.target, "_opname", None) if getattr(n, "op", None) == "call_function" else None


def _ownable(n: Any) -> Any:
    """The root node whose fresh array `copy(n.args[0] <- n.args[1])` may take, or None."""
    dst, src = n.args[0], n.args[1]
    if _name(dst) not in ("new_empty_strided", "empty_strided") or len(dst.users) != 1:
        return None
    vd, vs = _meta(dst), _meta(src)
    if not isinstance(vs, Tensor) or vd.dtype != vs.dtype or tuple(vd.shape) != tuple(vs.shape):
        return None
    if not _contiguous(tuple(vd.shape), tuple(vd.stride())):
        return None
    cur = src
    while True:
        # new_empty_strided(src, ...) reads only src's dtype and device
        if sum(u is not dst for u in cur.users) != 1:
            return None
        name = _name(cur)
        if name in _CHAIN_VIEWS:
            cur = cur.args[0]
            continue
        return cur if name in _FRESH else None


def own(src: Any) -> Any:
    return src if src.flags.c_contiguous else np.ascontiguousarray(src)


@register("copy")
def _copy_or_own(k: Any, n: Any, dst: str, src: str, non_blocking: str = "False") -> str:
    root = _ownable(n) if len(n.args) >= 2 and hasattr(n.args[1], "users") else None
    if root is None:
        return _base_copy(k, n, dst, src, non_blocking)
    k._owning.discard(root)  # its buffer is now a graph output: never an out= target
    k.globals["_k_own"] = own
    return f"_k_own({src})"


_INPLACE = {"add": "np.add", "sub": "np.subtract", "mul": "np.multiply", "div": "np.true_divide"}


def _readers_done(k: Any, target: Any, n: Any) -> bool:
    """Every reader of `target` (through views too), other than `n`, is already emitted."""
    stack = [u for u in target.users if u is not n]
    while stack:
        u = stack.pop()
        if u is n:
            continue
        if u not in k.names or getattr(u, "op", None) == "output":
            return False
        if _name(u) in _CHAIN_VIEWS or _name(u) in ("expand", "slice", "select"):
            stack.extend(u.users)
    return True


def inplace_update(k: Any, n: Any, name: str, target: Any) -> str | None:
    """`target = target <op> b` written into target's own array (see the module docstring)."""
    fn = _INPLACE.get(name)
    if fn is None:
        return None
    if len(n.args) < 2 or n.kwargs.get("rounding_mode") is not None:
        return None
    vt, vn = _meta(target), _meta(n)
    if not isinstance(vt, Tensor) or not isinstance(vn, Tensor):
        return None
    if vt.dtype != vn.dtype or tuple(vt.shape) != tuple(vn.shape):
        return None
    b = n.args[1]
    if b is target or (hasattr(b, "op") and target in b.all_input_nodes):
        return None
    if not _readers_done(k, target, n):
        return None
    a, bs = k._src_arg(target), k._src_arg(b)
    alpha = n.kwargs.get("alpha", n.args[2] if len(n.args) > 2 else 1)
    if name in ("add", "sub") and alpha != 1:
        bs = f"({bs} * {k._src_arg(alpha)})"
    return f"{fn}({a}, {bs}, out={a})"
