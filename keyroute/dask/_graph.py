"""How a keyroute operator becomes dask tasks: its arguments as a picklable template, its
outputs' shapes from the meta functions, and the task that runs the CPU kernel on NumPy blocks.

Every dask kernel builds tasks that call the operator's own CPU kernel on blocks (or on whole
arrays): the arithmetic is keyroute's, dask only decides which NumPy arrays each call sees.
The operator travels by name (`aten::add.Tensor`) and is looked up again in the worker
process, so tasks pickle to a `distributed` cluster.

Note [lazy fallback]: an operator with no chunked kernel still builds the graph lazily: one
task that takes its dask inputs whole (dask concatenates the blocks), runs the CPU kernel and
hands each output back as a one-block dask array whose shape and dtype come from the meta
function. Only an operator without a meta function, or whose output shape depends on the data
(nonzero, masked_select, item), computes its inputs at the call.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor._tensor import META_KEYS, Tensor, make_tensor, wrap_cpu
from ..tensor.device import Device
from ..tensor.meta_array import MetaArray
from ._backend import DEVICE, is_dask, wrap

__all__ = [
    "Slot",
    "template",
    "fill",
    "meta_call",
    "run_block",
    "op_ref",
    "lazy_fallback",
    "flat_tensors",
]

_CPU = Device("cpu")
_META = Device("meta")


class Slot:
    """A tensor argument's place in a template: index `i` into the arrays the task receives.
    `writes`: the operator writes this argument (the task works on a copy of the block)."""

    __slots__ = ("i", "dtype", "writes")

    def __init__(self, i: int, dtype: Any, writes: bool) -> None:
        self.i, self.dtype, self.writes = i, dtype, writes

    def __reduce__(self) -> Any:
        return (Slot, (self.i, self.dtype, self.writes))


class Host:
    """A CPU tensor argument (a 0-dim wrapped scalar, a small index): travels by value."""

    __slots__ = ("array", "dtype")

    def __init__(self, array: np.ndarray, dtype: Any) -> None:
        self.array, self.dtype = array, dtype

    def __reduce__(self) -> Any:
        return (Host, (self.array, self.dtype))


def op_ref(op: Any) -> str:
    return op.qualified_name()


_RESOLVED: dict[str, Any] = {}


def _resolve(ref: str) -> Any:
    op = _RESOLVED.get(ref)
    if op is None:
        from .. import ops

        ns, _, rest = ref.partition("::")
        name, _, overload = rest.partition(".")
        op = _RESOLVED[ref] = getattr(getattr(getattr(ops, ns), name), overload or "default")
    return op


def template(v: Any, arrays: list[Any], written: set[int]) -> Any:
    """v with each dask tensor replaced by a Slot (its array appended to `arrays`), each other
    tensor by a Host value and the dask device by the CPU."""
    if isinstance(v, Tensor):
        if is_dask(v):
            arrays.append(v._data.array)
            return Slot(len(arrays) - 1, v._dtype, id(v) in written)
        return Host(np.asarray(v._data), v._dtype)
    if isinstance(v, (list, tuple)):
        return type(v)(template(x, arrays, written) for x in v)
    if isinstance(v, dict):
        return {k: template(x, arrays, written) for k, x in v.items()}
    if isinstance(v, Device) and v.type == DEVICE.type:
        return _CPU
    return v


def fill(v: Any, blocks: tuple[Any, ...]) -> Any:
    """The template's CPU arguments for these blocks."""
    if isinstance(v, Slot):
        block = np.asarray(blocks[v.i])
        if v.writes or not block.flags.writeable:
            block = np.array(block)  # dask blocks are shared: write a copy
        return wrap_cpu(block, v.dtype)
    if isinstance(v, Host):
        return wrap_cpu(v.array, v.dtype)
    if isinstance(v, (list, tuple)):
        return type(v)(fill(x, blocks) for x in v)
    if isinstance(v, dict):
        return {k: fill(x, blocks) for k, x in v.items()}
    return v


def flat_tensors(v: Any) -> list[Tensor]:
    if isinstance(v, Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in flat_tensors(x)]
    return []


def run_block(
    ref: str, targs: Any, tkwargs: dict[str, Any], out_index: int | None, *blocks: Any
) -> Any:
    """The task: the operator's CPU kernel on NumPy blocks; output `out_index` (or a tuple of
    every tensor output when None)."""
    from ..autograd.grad_mode import no_grad

    op = _resolve(ref)
    with no_grad():
        out = op(*fill(targs, blocks), **fill(tkwargs, blocks))
    outs = [np.asarray(t._data) for t in flat_tensors(out)]
    return tuple(outs) if out_index is None else outs[out_index]


def _meta(v: Any) -> Any:
    if isinstance(v, Tensor):
        data = v._data
        return make_tensor(MetaArray(tuple(data.shape), None, v._dtype.np), v._dtype, META_KEYS)
    if isinstance(v, (list, tuple)):
        return type(v)(_meta(x) for x in v)
    if isinstance(v, Device) and v.type == DEVICE.type:
        return _META
    return v


def meta_call(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(meta output, meta args, meta kwargs): the output's structure, shapes and dtypes."""
    margs = _meta(args)
    mkwargs = {k: _meta(v) for k, v in kwargs.items()}
    return op(*margs, **mkwargs), margs, mkwargs


def written_args(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> set[int]:
    """ids of the tensors the operator writes (schema `(a!)` arguments, out= included)."""
    schema = op._schema
    out: set[int] = set()
    if schema is None:
        return out
    for i, a in enumerate(schema.arguments):
        if a.alias_info is None or not a.is_write:
            continue
        v = args[i] if i < len(args) else kwargs.get(a.name)
        for t in flat_tensors(v):
            out.add(id(t))
    return out


def rebuild(meta_out: Any, new: list[Any], margs: Any, mkwargs: Any, args: Any, kwargs: Any) -> Any:
    """The real output: meta_out's structure with its i-th tensor output made a dask tensor
    over new[i]; an output that is a (written) argument is that argument, rebound."""
    by_id = {
        id(m): r
        for m, r in zip(
            flat_tensors((margs, tuple(mkwargs.values()))),
            flat_tensors((args, tuple(kwargs.values()))),
        )
    }
    it = iter(range(len(new)))

    def go(v: Any) -> Any:
        if isinstance(v, Tensor):
            i = next(it)
            orig = by_id.get(id(v))
            if orig is not None:
                orig._data = wrap(new[i], orig._dtype)._data
                return orig
            return wrap(new[i], v._dtype)
        if isinstance(v, (list, tuple)):
            return type(v)(go(x) for x in v)
        return v

    return go(meta_out)


def _eager(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Compute the dask inputs, run the CPU kernel, keep tensor outputs on dask."""
    import dask.array as da

    from ._client import compute

    written = written_args(op, args, kwargs)
    arrays: list[Any] = []
    targs = template(args, arrays, written)
    tkwargs = template(kwargs, arrays, written)
    blocks = tuple(compute(*arrays)) if arrays else ()
    cargs, ckwargs = fill(targs, blocks), fill(tkwargs, blocks)
    out = op(*cargs, **ckwargs)
    by_id = {
        id(c): r
        for c, r in zip(
            flat_tensors((cargs, tuple(ckwargs.values()))),
            flat_tensors((args, tuple(kwargs.values()))),
        )
    }

    def go(v: Any) -> Any:
        if isinstance(v, Tensor):
            orig = by_id.get(id(v))
            arr = da.from_array(np.asarray(v._data), chunks=-1)
            if orig is not None:
                if is_dask(orig):
                    orig._data = wrap(arr, orig._dtype)._data
                return orig
            return wrap(arr, v._dtype)
        if isinstance(v, (list, tuple)):
            return type(v)(go(x) for x in v)
        return v

    return go(out)


_EAGER_ERRORS = (NotImplementedError,)


def lazy_fallback(op: Any, *args: Any, **kwargs: Any) -> Any:
    """The boxed fallback of the dask key: Note [lazy fallback]."""
    import dask
    import dask.array as da

    if not any(is_dask(t) for t in flat_tensors((args, kwargs))):
        return _eager(op, args, kwargs)  # a factory: made on CPU, then moved
    try:
        meta_out, margs, mkwargs = meta_call(op, args, kwargs)
    except _EAGER_ERRORS:
        return _eager(op, args, kwargs)
    outs = flat_tensors(meta_out)
    if not outs:
        return _eager(op, args, kwargs)
    written = written_args(op, args, kwargs)
    arrays: list[Any] = []
    targs = template(args, arrays, written)
    tkwargs = template(kwargs, arrays, written)
    task = dask.delayed(run_block, nout=len(outs), pure=False)(
        op_ref(op), targs, tkwargs, None, *arrays
    )
    new = [
        da.from_delayed(task[i], tuple(m._data.shape), dtype=m._dtype.np)
        for i, m in enumerate(outs)
    ]
    return rebuild(meta_out, new, margs, mkwargs, args, kwargs)
