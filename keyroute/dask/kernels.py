"""The dask backend's kernels: chunked graphs for the operators that parallelise, the lazy
fallback (Note [lazy fallback] in _graph.py) for the rest.

Families, each building tasks that run keyroute's CPU kernel on NumPy blocks:
- pointwise (every functional and in-place operator of the elementwise family and the
  pointwise backward operators): one task per output block, `map_blocks` with NumPy's
  trailing-dimension broadcasting;
- batched (softmax, layer norm, attention, their backwards): the trailing dimensions the
  operator mixes are made one block, the leading ones stay chunked;
- reductions (sum, mean, amax, amin, the 2-norm): a per-block partial, then the partials
  reduced by the same CPU kernel;
- matmul (mm, bmm, addmm): one task per output block summing the partial products;
- views and copies: dask's own slicing and reshaping (a dask array is immutable, so a view
  is a new array: writes through a view do not reach its base, see known_gaps);
- embedding: the index blocks stay chunked, the table is one block per task.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from .._ops import ops
from ..aten._define import META_FUNCTIONS
from ..dispatcher.backend_defaults import to_copy_kernel
from ..dispatcher.registration import Library
from ..tensor._tensor import Tensor, wrap_cpu
from ..tensor.device import Device
from ..tensor.host import COPY_FROM_CPU
from ._backend import DISPATCH_KEY, is_dask, wrap
from ._client import compute
from ._graph import (
    flat_tensors,
    lazy_fallback,
    meta_call,
    op_ref,
    rebuild,
    run_block,
    template,
    written_args,
)

__all__ = ["register", "to_dask_array"]

aten = ops.aten


def to_dask_array(v: Tensor, chunks: Any = "auto") -> Any:
    """The dask array of a dask tensor, or of a CPU tensor (copied: later writes to the CPU
    tensor must not show through)."""
    import dask.array as da

    if is_dask(v):
        return v._data.array
    return da.from_array(np.array(v._data), chunks=chunks)


def _meta_empty(ndim: int, dtype: np.dtype) -> np.ndarray:
    return np.empty((0,) * ndim, dtype=dtype)


# -- pointwise --------------------------------------------------------------------------------


def _align(arrays: list[Any], shape: tuple[int, ...]) -> list[Any]:
    """The arrays split alike along each broadcast dimension of `shape` (dask's own chunk
    unification skips dimensions another array broadcasts from size 1)."""
    n = len(shape)
    target: dict[int, Any] = {}
    for a in arrays:
        for d in range(a.ndim):
            o = n - a.ndim + d
            if o not in target and a.shape[d] == shape[o] and shape[o] != 1:
                target[o] = a.chunks[d]
    out = []
    for a in arrays:
        want = {
            d: target[n - a.ndim + d]
            for d in range(a.ndim)
            if n - a.ndim + d in target
            and a.shape[d] != 1
            and a.chunks[d] != target[n - a.ndim + d]
        }
        out.append(a.rechunk(want) if want else a)
    return out


def pointwise(op: Any, *args: Any, **kwargs: Any) -> Any:
    import dask.array as da

    meta_out, margs, mkwargs = meta_call(op, args, kwargs)
    outs = flat_tensors(meta_out)
    if len(outs) != 1:
        return lazy_fallback(op, *args, **kwargs)
    out = outs[0]
    shape = tuple(out._data.shape)
    written = written_args(op, args, kwargs)
    arrays: list[Any] = []
    targs = template(args, arrays, written)
    tkwargs = template(kwargs, arrays, written)
    dt = out._dtype.np
    arrays = _align(arrays, shape)
    res = da.map_blocks(
        run_block,
        op_ref(op),
        targs,
        tkwargs,
        0,
        *arrays,
        dtype=dt,
        meta=_meta_empty(len(shape), dt),
    )
    if tuple(res.shape) != shape:  # broadcasting dask cannot express blockwise
        return lazy_fallback(op, *args, **kwargs)
    return rebuild(meta_out, [res], margs, mkwargs, args, kwargs)


# -- batched: trailing dimensions whole, leading ones chunked --------------------------------


def batched(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], n_lead: int) -> Any:
    """Run op per block of the first n_lead dimensions of its full-rank tensor arguments (the
    others, e.g. a layer norm's weight, go whole to every task)."""
    import dask.array as da

    meta_out, margs, mkwargs = meta_call(op, args, kwargs)
    outs = flat_tensors(meta_out)
    tensors = [t for t in flat_tensors((args, tuple(kwargs.values()))) if is_dask(t)]
    rank = max(t.dim() for t in tensors)
    written = written_args(op, args, kwargs)
    arrays: list[Any] = []
    targs = template(args, arrays, written)
    tkwargs = template(kwargs, arrays, written)
    fresh = iter(range(100, 10_000))
    pairs: list[Any] = []
    for a in arrays:
        k = n_lead if a.ndim == rank else 0
        ind = tuple(range(k)) + tuple(next(fresh) for _ in range(a.ndim - k))
        a = a.rechunk({d: -1 for d in range(k, a.ndim)}) if a.ndim > k else a
        pairs += [a, ind]
    new = []
    for i, m in enumerate(outs):
        shape = tuple(m._data.shape)
        k = min(n_lead, len(shape))
        tail = tuple(next(fresh) for _ in range(len(shape) - k))
        r = da.blockwise(
            run_block,
            tuple(range(k)) + tail,
            op_ref(op),
            None,
            targs,
            None,
            tkwargs,
            None,
            i,
            None,
            *pairs,
            new_axes=dict(zip(tail, shape[k:])),
            dtype=m._dtype.np,
            concatenate=True,
            meta=_meta_empty(len(shape), m._dtype.np),
        )
        if tuple(r.shape) != shape:
            return lazy_fallback(op, *args, **kwargs)
        new.append(r)
    return rebuild(meta_out, new, margs, mkwargs, args, kwargs)


def _lead_before(dim: int, ndim: int) -> int:
    return dim % ndim if ndim else 0


def _softmax(op: Any) -> Any:
    def k(self: Tensor, dim: int, *rest: Any, **kw: Any) -> Any:
        if self.dim() == 0:
            return lazy_fallback(op, self, dim, *rest, **kw)
        return batched(op, (self, dim, *rest), kw, _lead_before(dim, self.dim()))

    return k


def _softmax_backward(op: Any) -> Any:
    def k(grad: Tensor, output: Tensor, dim: int, *rest: Any) -> Any:
        if grad.dim() == 0:
            return lazy_fallback(op, grad, output, dim, *rest)
        return batched(op, (grad, output, dim, *rest), {}, _lead_before(dim, grad.dim()))

    return k


def _layer_norm(op: Any) -> Any:
    def k(x: Tensor, normalized_shape: Any, *rest: Any) -> Any:
        n_lead = x.dim() - len(normalized_shape)
        if n_lead <= 0:
            return lazy_fallback(op, x, normalized_shape, *rest)
        return batched(op, (x, normalized_shape, *rest), {}, n_lead)

    return k


def _attention(op: Any) -> Any:
    def k(q: Tensor, *rest: Any, **kw: Any) -> Any:
        if q.dim() < 3:
            return lazy_fallback(op, q, *rest, **kw)
        return batched(op, (q, *rest), kw, q.dim() - 2)

    return k


# -- reductions ------------------------------------------------------------------------------


def _partial(ref: str, extra: dict[str, Any], x: np.ndarray, axis: Any, keepdims: bool) -> Any:
    from ..autograd.grad_mode import no_grad
    from ._graph import _resolve

    op = _resolve(ref)
    with no_grad():
        out = op(wrap_cpu(np.asarray(x)), list(axis), bool(keepdims), **extra)
    return np.asarray(out._data)


def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return tuple(range(ndim))
    dims = [dim] if isinstance(dim, int) else list(dim)
    return tuple(sorted({d % ndim for d in dims}))


def _reduction(op: Any, ref: str, combine_ref: str) -> Any:
    """sum.dim_IntList / amax / amin: partials by `ref`'s CPU kernel, reduced by combine_ref."""

    def k(self: Tensor, dim: Any = None, keepdim: bool = False, **kw: Any) -> Any:
        import dask.array as da

        meta_out, _, _ = meta_call(op, (self, dim, keepdim), kw)
        if self.dim() == 0 or not is_dask(self):
            return lazy_fallback(op, self, dim, keepdim, **kw)
        dt = meta_out._dtype.np
        axes = _dims(dim, self.dim())
        res = da.reduction(
            self._data.array,
            functools.partial(_partial, ref, kw),
            functools.partial(_partial, combine_ref, {}),
            axis=axes,
            keepdims=bool(keepdim),
            dtype=dt,
            concatenate=True,
            meta=_meta_empty(len(meta_out.shape), dt),
        )
        return wrap(res, meta_out._dtype)

    return k


def _sum_default(self: Tensor, *, dtype: Any = None) -> Any:
    return aten.sum.dim_IntList(self, [], False, dtype=dtype)


def _mean_dim(self: Tensor, dim: Any, keepdim: bool = False, *, dtype: Any = None) -> Any:
    meta_out, _, _ = meta_call(aten.mean.dim, (self, dim, keepdim), {"dtype": dtype})
    n = math.prod(self.shape[d] for d in _dims(dim, self.dim())) if self.dim() else 1
    s = aten.sum.dim_IntList(self, dim, keepdim, dtype=meta_out._dtype)
    return aten.div.Scalar(s, n)


def _mean_default(self: Tensor, *, dtype: Any = None) -> Any:
    return _mean_dim(self, [], False, dtype=dtype)


def _vector_norm(
    self: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Any:
    meta_call(aten.linalg_vector_norm.default, (self, ord, dim, keepdim), {"dtype": dtype})
    if ord != 2 or self.is_complex() or dtype is not None or self.dim() == 0:
        return lazy_fallback(aten.linalg_vector_norm.default, self, ord, dim, keepdim, dtype=dtype)
    sq = aten.sum.dim_IntList(aten.mul.Tensor(self, self), dim, keepdim)
    return aten.sqrt.default(sq)


# -- matmul ----------------------------------------------------------------------------------


def _mm_block(ref: str, dtype: Any, a_blocks: Any, b_blocks: Any) -> np.ndarray:
    from ..autograd.grad_mode import no_grad
    from ._graph import _resolve

    op = _resolve(ref)
    a_list = a_blocks if isinstance(a_blocks, list) else [a_blocks]
    b_list = b_blocks if isinstance(b_blocks, list) else [b_blocks]
    total = None
    with no_grad():
        for a, b in zip(a_list, b_list):
            p = op(
                wrap_cpu(np.ascontiguousarray(a), dtype), wrap_cpu(np.ascontiguousarray(b), dtype)
            )
            total = p if total is None else aten.add.Tensor(total, p)
    return np.asarray(total._data)


def _matmul(op: Any, ind_a: str, ind_b: str, ind_out: str) -> Any:
    def k(a: Tensor, b: Tensor) -> Any:
        import dask.array as da

        meta_out, _, _ = meta_call(op, (a, b), {})
        if not (is_dask(a) and is_dask(b)):
            return lazy_fallback(op, a, b)
        dt = meta_out._dtype
        A, B = a._data.array, b._data.array
        # The contracted dimension must be split alike on both sides.
        A, B = da.core.unify_chunks(A, ind_a, B, ind_b)[1]
        res = da.blockwise(
            _mm_block,
            ind_out,
            op_ref(op),
            None,
            a._dtype,
            None,
            A,
            ind_a,
            B,
            ind_b,
            dtype=dt.np,
            concatenate=False,
            meta=_meta_empty(len(ind_out), dt.np),
        )
        return wrap(res, dt)

    return k


def _mm(a: Tensor, b: Tensor) -> Any:
    return _matmul(aten.mm.default, "ij", "jk", "ik")(a, b)


def _bmm(a: Tensor, b: Tensor) -> Any:
    return _matmul(aten.bmm.default, "bij", "bjk", "bik")(a, b)


def _addmm(self: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Any:
    meta_call(aten.addmm.default, (self, mat1, mat2), {"beta": beta, "alpha": alpha})
    prod = aten.mm.default(mat1, mat2)
    if beta == 0:  # PyTorch ignores self (NaN included) when beta is 0
        return prod if alpha == 1 else aten.mul.Scalar(prod, alpha)
    base = self if beta == 1 else aten.mul.Scalar(self, beta)
    out = aten.add.Tensor(base, prod, alpha=alpha)
    return out


# -- views, copies, scalars ------------------------------------------------------------------


def _view_kernel(op: Any, build: Any) -> Any:
    """A view operator as a dask expression: `build(array, meta_output, *args)`."""

    def k(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        meta_out, _, _ = meta_call(op, (self, *args), kwargs)
        if not is_dask(self):
            return lazy_fallback(op, self, *args, **kwargs)
        res = build(self._data.array, tuple(meta_out.shape), *args, **kwargs)
        return wrap(res, meta_out._dtype)

    return k


def _reshape(a: Any, shape: tuple[int, ...], *_: Any) -> Any:
    return a.reshape(shape) if tuple(a.shape) != shape else a


def _permute(a: Any, shape: Any, dims: Any) -> Any:
    return a.transpose([d % max(a.ndim, 1) for d in dims]) if a.ndim else a


def _transpose(a: Any, shape: Any, d0: int, d1: int) -> Any:
    if a.ndim < 2:
        return a
    axes = list(range(a.ndim))
    d0, d1 = d0 % a.ndim, d1 % a.ndim
    axes[d0], axes[d1] = axes[d1], axes[d0]
    return a.transpose(axes)


def _t(a: Any, shape: Any) -> Any:
    return a.T if a.ndim == 2 else a


def _expand(a: Any, shape: Any, *_: Any, **__: Any) -> Any:
    import dask.array as da

    return da.broadcast_to(a, shape)


def _slice(
    a: Any, shape: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1
) -> Any:
    d = dim % a.ndim
    n = a.shape[d]
    lo = 0 if start is None else int(start)
    hi = n if end is None else int(end)
    lo = min(max(lo + n if lo < 0 else lo, 0), n)
    hi = min(max(hi + n if hi < 0 else hi, lo), n)
    return a[(slice(None),) * d + (slice(lo, hi, int(step)),)]


def _select(a: Any, shape: Any, dim: int, index: int) -> Any:
    d = dim % a.ndim
    return a[(slice(None),) * d + (int(index),)]


def _same(a: Any, shape: Any, *_: Any, **__: Any) -> Any:
    return a


def _clone(self: Tensor, *, memory_format: Any = None) -> Any:
    meta_call(aten.clone.default, (self,), {"memory_format": memory_format})
    return wrap(self._data.array, self._dtype)  # an immutable array: sharing it is a copy


def _lift_fresh(self: Tensor) -> Tensor:
    return self


def _move(self: Tensor, dt: Any, target: Device, memory_format: Any) -> Any:
    """`_to_copy` (argument handling: backend_defaults.to_copy_kernel): a cast on dask stays a
    lazy `astype`; a copy to CPU runs the graph."""
    if target.type == "dask":
        return wrap(self._data.array.astype(dt.np), dt)
    if target.type != "cpu":
        raise RuntimeError(f"keyroute has no copy from dask to device '{target}'")
    (value,) = compute(self._data.array)
    return wrap_cpu(np.array(value, dtype=dt.np), dt)


def _copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    import dask.array as da

    meta_call(aten.copy_.default, (self, src, non_blocking), {})
    if is_dask(self):
        arr = to_dask_array(src) if isinstance(src, Tensor) else da.asarray(src)
        arr = da.broadcast_to(arr.astype(self._dtype.np), self.shape)
        self._data = wrap(arr, self._dtype)._data
        return self
    (value,) = compute(src._data.array)  # a CPU tensor written from a dask one
    aten.copy_.default(self, wrap_cpu(np.asarray(value), src._dtype), non_blocking)
    return self


def _fill_(self: Tensor, value: Any) -> Tensor:
    import dask.array as da

    if isinstance(value, Tensor):
        return lazy_fallback(aten.fill_.Tensor, self, value)
    meta_call(aten.fill_.Scalar, (self, value), {})
    cpu = aten.fill_.Scalar(wrap_cpu(np.empty((), self._dtype.np), self._dtype), value)
    chunks = self._data.array.chunks
    self._data = wrap(
        da.full(self.shape, cpu._data[()], dtype=self._dtype.np, chunks=chunks), self._dtype
    )._data
    return self


def _zero_(self: Tensor) -> Tensor:
    return _fill_(self, 0)


def _local_scalar_dense(self: Tensor) -> Any:
    (value,) = compute(self._data.array)
    return aten._local_scalar_dense.default(wrap_cpu(np.asarray(value), self._dtype))


def _embedding(weight: Tensor, indices: Tensor, *rest: Any) -> Any:
    import dask.array as da

    op = aten.embedding.default
    meta_out, margs, mkwargs = meta_call(op, (weight, indices, *rest), {})
    if not is_dask(indices) or weight.dim() != 2:
        return lazy_fallback(op, weight, indices, *rest)
    arrays: list[Any] = []
    targs = template((weight, indices, *rest), arrays, set())
    table = to_dask_array(weight).rechunk((-1, -1))
    lead = tuple(range(indices.dim()))
    pairs: list[Any] = []
    for a in arrays:
        pairs += [table, (100, 101)] if a is arrays[0] and is_dask(weight) else [a, lead]
    res = da.blockwise(
        run_block,
        lead + (101,),
        op_ref(op),
        None,
        targs,
        None,
        {},
        None,
        0,
        None,
        *pairs,
        new_axes={} if is_dask(weight) else {101: weight.shape[1]},
        dtype=meta_out._dtype.np,
        concatenate=True,
        meta=_meta_empty(len(meta_out.shape), meta_out._dtype.np),
    )
    return wrap(res, meta_out._dtype)


# -- registration ----------------------------------------------------------------------------

#: Backward operators that are pointwise (their meta functions live outside elementwise/).
POINTWISE_EXTRA = (
    "gelu_backward",
    "silu_backward",
    "sigmoid_backward",
    "tanh_backward",
    "threshold_backward",
    "hardtanh_backward",
    "leaky_relu_backward",
    "elu_backward",
    "softplus_backward",
    "mish_backward",
    "hardsigmoid_backward",
    "hardswish_backward",
    "where.self",
    "masked_fill.Scalar",
    "masked_fill_.Scalar",
)

_RANDOM_WORDS = (
    "rand",
    "normal",
    "uniform",
    "bernoulli",
    "dropout",
    "multinomial",
    "exponential",
    "geometric",
    "cauchy",
    "log_normal",
    "random",
)


def _eager_random(op: Any, *args: Any, **kwargs: Any) -> Any:
    from ._graph import _eager

    return _eager(op, args, kwargs)


def _boxed(op: Any, *args: Any, **kwargs: Any) -> Any:
    if any(w in op._name for w in _RANDOM_WORDS):
        # A random operator draws from the generator now, not when the graph runs later:
        # seeding and draw order stay PyTorch's.
        return _eager_random(op, *args, **kwargs)
    return lazy_fallback(op, *args, **kwargs)


def _fn(f: Any) -> Any:
    return lambda op: f


def _view(build: Any) -> Any:
    return lambda op: _view_kernel(op, build)


def _reduce(ref: str) -> Any:
    return lambda op: _reduction(op, ref, ref)


#: operator -> maker(op) -> kernel
_TABLE: dict[str, Any] = {
    "_softmax": _softmax,
    "_log_softmax": _softmax,
    "_safe_softmax": _softmax,
    "_softmax_backward_data": _softmax_backward,
    "_log_softmax_backward_data": _softmax_backward,
    "native_layer_norm": _layer_norm,
    "_scaled_dot_product_flash_attention_for_cpu": _attention,
    "sum.dim_IntList": _reduce("aten::sum.dim_IntList"),
    "sum": _fn(_sum_default),
    "amax": _reduce("aten::amax"),
    "amin": _reduce("aten::amin"),
    "mean.dim": _fn(_mean_dim),
    "mean": _fn(_mean_default),
    "linalg_vector_norm": _fn(_vector_norm),
    "mm": _fn(_mm),
    "bmm": _fn(_bmm),
    "addmm": _fn(_addmm),
    "view": _view(_reshape),
    "_unsafe_view": _view(_reshape),
    "_reshape_alias": _view(_reshape),
    "permute": _view(_permute),
    "transpose.int": _view(_transpose),
    "t": _view(_t),
    "expand": _view(_expand),
    "unsqueeze": _view(_reshape),
    "squeeze.dim": _view(_reshape),
    "squeeze.dims": _view(_reshape),
    "squeeze": _view(_reshape),
    "slice.Tensor": _view(_slice),
    "select.int": _view(_select),
    "alias": _view(_same),
    "detach": _view(_same),
    "clone": _fn(_clone),
    "lift_fresh": _fn(_lift_fresh),
    "_to_copy": _fn(to_copy_kernel(_move)),
    "copy_": _fn(_copy_),
    "fill_.Scalar": _fn(_fill_),
    "zero_": _fn(_zero_),
    "_local_scalar_dense": _fn(_local_scalar_dense),
    "embedding": _fn(_embedding),
}

_LIBS: list[Library] = []


def _pointwise_ops() -> list[Any]:
    out = []
    for op, fn in META_FUNCTIONS.items():
        module = getattr(fn, "__module__", "") or ""
        if not module.startswith("keyroute.aten.elementwise"):
            continue
        schema = op._schema
        if schema is None or any(a.is_out for a in schema.arguments):
            continue
        if any(w in op._name for w in _RANDOM_WORDS):
            continue
        out.append(op)
    for name in POINTWISE_EXTRA:
        base, _, overload = name.partition(".")
        packet = getattr(aten, base, None)
        op = getattr(packet, overload or "default", None) if packet is not None else None
        if op is not None:
            out.append(op)
    return out


def register() -> None:
    """Register the kernels and the fallback on the dask key (once)."""
    if _LIBS:
        return
    lib = Library._internal("aten", "IMPL")
    fb = Library._internal("_", "IMPL")
    _LIBS.extend([lib, fb])
    key = DISPATCH_KEY
    for op in _pointwise_ops():
        lib.impl(op, functools.partial(pointwise, op), key)
    for name, make in _TABLE.items():
        base, _, overload = name.partition(".")
        packet = getattr(aten, base, None)
        op = getattr(packet, overload or "default", None) if packet is not None else None
        if op is not None:
            lib.impl(op, make(op), key)
    fb.fallback(_boxed, key)
    COPY_FROM_CPU["dask"] = _from_cpu


def _from_cpu(t: Tensor, dtype: Any, device: Any) -> Tensor:
    return wrap(to_dask_array(t).astype(dtype.np), dtype)
