"""The Functionalize layer (key Functionalize): programs without mutation, as PyTorch's
FunctionalTensorWrapper.

A `FunctionalTensorWrapper` holds an inner tensor (its current value), a `FunctionalStorage`
shared with every view of the same base, the chain of view operations from that base
(`view_metas`) and the storage generation its value was computed at. The fallback kernel on
the Functionalize key handles every operator, in three kinds:

- an operator that writes an argument (`add_`, `index_copy_`, `add.out`) runs its functional
  form (`add`, `index_copy`) on the unwrapped values; the written argument's wrapper takes the
  result and commits it to its storage as a pending update, then syncs;
- a view operator (`view`, `select`, `split`) runs on the unwrapped value and makes a wrapper on
  the same storage with one more view meta (in `mutations_and_views` mode the `*_copy` form
  runs instead, as PyTorch's `reapply_views=False`);
- any other operator syncs its inputs, runs, and wraps fresh outputs.

Note [sync]: the storage applies its pending updates lazily: a view's update is scattered back
into the base by re-running the view chain from the base and the inverse of each view
(`select_scatter`, `slice_scatter`, the inverse `view` ...), and a stale wrapper regenerates its
value by replaying its chain from the updated base. The graphs PyTorch prints come from exactly
this order of calls (the mutated view is synced right after the mutation; other views when they
are next read), so the same calls are made here in the same order.

Below Functionalize, the calls reach the Python key unchanged, so make_fx records the
functional program. `functionalize(f)` copies a mutated input's final value back with `copy_`
outside the layer, as PyTorch's functionalize does.
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import key_bits
from ..dispatcher.operator import find_op
from ..dispatcher.registration import Library
from ..dispatcher.tls import ExcludeDispatchKeyGuard
from ..dispatcher.tls import state as _tls
from ..tensor._tensor import Tensor
from ..tensor.meta_array import MetaArray

__all__ = [
    "FunctionalTensorWrapper",
    "FunctionalStorage",
    "to_functional",
    "from_functional",
    "sync",
    "is_functional",
    "functionalization_enabled",
]

_FUNC_BIT = key_bits(DispatchKey.Functionalize)
_new = object.__new__


class FunctionalStorage:
    """The base value shared by a tensor and its views, with its pending updates."""

    __slots__ = ("base", "generation", "updates")

    def __init__(self, base: Tensor) -> None:
        self.base = base
        self.generation = 0
        self.updates: list[tuple[Tensor, tuple[ViewMeta, ...]]] = []

    def apply_updates(self) -> None:
        while self.updates:
            value, metas = self.updates.pop(0)
            if not metas:
                self.base = value
                continue
            bases = [self.base]
            for vm in metas[:-1]:
                bases.append(vm.forward(bases[-1]))
            t = value
            for i in range(len(metas) - 1, -1, -1):
                t = metas[i].reverse(bases[i], t)
            self.base = t


class ViewMeta:
    """One view step: `forward(base)` replays it, `reverse(base, mutated)` scatters a mutated
    view back into its base (PyTorch's view inverses)."""

    __slots__ = ("op", "args", "kwargs", "index", "copy")

    def __init__(
        self, op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], index: int | None, copy: bool
    ) -> None:
        self.op = op
        self.args = args
        self.kwargs = kwargs
        self.index = index
        self.copy = copy

    def forward(self, base: Tensor) -> Tensor:
        op = _copy_variant(self.op) if self.copy else self.op
        out = op(base, *self.args, **self.kwargs)
        return out[self.index] if self.index is not None else out

    def reverse(self, base: Tensor, mutated: Tensor) -> Tensor:
        name = self.op._name.split("::")[-1]
        overload = self.op.overload_name
        a = self.args
        kw = self.kwargs

        def view_op(n: str, ov: str = "") -> Any:
            op = _op(n, ov)
            return _copy_variant(op) if self.copy else op

        if name in ("view", "_unsafe_view", "_reshape_alias", "squeeze", "unflatten") or (
            name == "view" and overload == "dtype"
        ):
            return view_op("view")(mutated, list(base.shape))
        if name in ("alias", "detach", "lift_fresh"):
            return mutated
        if name == "t":
            return view_op("t")(mutated)
        if name == "transpose":
            return view_op("transpose", "int")(mutated, *a)
        if name == "permute":
            dims = [d % base.dim() for d in (a[0] if a else kw["dims"])]
            inv = [0] * len(dims)
            for i, d in enumerate(dims):
                inv[d] = i
            return view_op("permute")(mutated, inv)
        if name == "unsqueeze":
            return view_op("squeeze", "dim")(mutated, *a)
        if name == "select":
            return _op("select_scatter")(base, mutated, *a)
        if name == "slice":
            return _op("slice_scatter")(base, mutated, *a, **kw)
        if name == "diagonal":
            return _op("diagonal_scatter")(base, mutated, *a, **kw)
        if name == "as_strided":
            return _op("as_strided_scatter")(base, mutated, *a, **kw)
        if name == "unbind":
            dim = a[0] if a else kw.get("dim", 0)
            return _op("select_scatter")(base, mutated, dim, self.index)
        if name in ("split", "split_with_sizes", "chunk"):
            dim = a[1] if len(a) > 1 else kw.get("dim", 0)
            size = base.shape[dim]
            if name == "split_with_sizes":
                sizes = list(a[0])
            else:
                step = a[0]
                sizes = [min(step, size - s) for s in range(0, size, step)] if step else [size]
            start = sum(sizes[: self.index])
            return _op("slice_scatter")(base, mutated, dim, start, start + sizes[self.index])
        if name == "expand":
            return mutated.sum_to_size(list(base.shape))
        raise NotImplementedError(
            f"functionalization: no inverse for the view {self.op} (mutating its result is not supported)"  # noqa: E501
        )


def _op(name: str, overload: str = "") -> Any:
    op = find_op(f"aten::{name}" + (f".{overload}" if overload else ""))
    if op is None:
        raise RuntimeError(f"aten::{name}.{overload} is not defined")
    return op


_COPY_VARIANTS: dict[Any, Any] = {}


def _copy_variant(op: Any) -> Any:
    """`view` -> `view_copy` (the same overload), or the view itself where none exists."""
    v = _COPY_VARIANTS.get(op)
    if v is None:
        v = find_op(op._name + "_copy" + (f".{op.overload_name}" if op.overload_name else "")) or op
        _COPY_VARIANTS[op] = v
    return v


class FunctionalTensorWrapper(Tensor):
    """A tensor under functionalization (see the module docstring)."""

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        return f"FunctionalTensor({self._value!r})"


def _meta_of(t: Tensor) -> MetaArray:
    d = t._data
    if isinstance(d, MetaArray):
        return MetaArray(d.shape, d.stride, d.dtype, d.offset, d.storage_nbytes, d.storage)
    return MetaArray(tuple(t.shape), tuple(t.stride()), d.dtype, 0, None)


def _wrap(
    value: Tensor,
    storage: FunctionalStorage | None = None,
    metas: tuple[ViewMeta, ...] = (),
    generation: int | None = None,
) -> FunctionalTensorWrapper:
    w = _new(FunctionalTensorWrapper)
    w._data = _meta_of(value)
    w._dtype = value._dtype
    w._key_set = (value._key_set & ~_PYTHON_BITS) | _FUNC_BIT
    w._autograd_meta = None
    w._base = None
    w._version_counter = None
    st = storage if storage is not None else FunctionalStorage(value)
    w.__dict__.update(
        _value=value,
        _storage=st,
        _view_metas=metas,
        _generation=st.generation if generation is None else generation,
    )
    return w


def _python_bits() -> int:
    return key_bits(DispatchKey.Python) | key_bits(DispatchKey.PythonTLSSnapshot)


_PYTHON_BITS = _python_bits()


def to_functional(t: Tensor) -> FunctionalTensorWrapper:
    """`torch._to_functional_tensor`: wrap `t` (its own storage)."""
    if isinstance(t, FunctionalTensorWrapper):
        raise RuntimeError("to_functional: the tensor is already a functional tensor")
    return _wrap(t)


def from_functional(t: Tensor) -> Tensor:
    """`torch._from_functional_tensor`: the wrapper's current inner value (not synced)."""
    if not isinstance(t, FunctionalTensorWrapper):
        raise RuntimeError("from_functional: expected a functional tensor, got a plain tensor")
    return t._value


def is_functional(t: Any) -> bool:
    return isinstance(t, FunctionalTensorWrapper)


def sync(t: Tensor) -> None:
    """Apply pending updates to the storage and regenerate this wrapper if it is stale
    (`torch._sync`; Note [sync])."""
    if not isinstance(t, FunctionalTensorWrapper):
        return
    d = t.__dict__
    st: FunctionalStorage = d["_storage"]
    with ExcludeDispatchKeyGuard(DispatchKey.Functionalize):
        st.apply_updates()
        if d["_generation"] != st.generation:
            v = st.base
            for vm in d["_view_metas"]:
                v = vm.forward(v)
            d["_value"] = v
            d["_generation"] = st.generation


def _sync_if_view(w: FunctionalTensorWrapper) -> None:
    """After a mutation, a view regenerates from the updated base at once; a base keeps its
    (current) value and its old generation, so a view taken from it next is computed from that
    value and regenerated when read, as PyTorch's graphs show (`t = t(add)` unused, then
    `t_1 = t(add)`)."""
    if w.__dict__["_view_metas"]:
        sync(w)


def _commit(w: FunctionalTensorWrapper, value: Tensor) -> None:
    d = w.__dict__
    d["_value"] = value
    st: FunctionalStorage = d["_storage"]
    st.updates.append((value, d["_view_metas"]))
    st.generation += 1


# -- the kernel -----------------------------------------------------------------------------
_FUNCTIONAL: dict[Any, Any] = {}
#: Whether views reapply as views (remove="mutations") or as *_copy ops; per thread would be
#: more exact, but functionalize() sets and restores it around one call.
_REAPPLY_VIEWS = [True]


def functionalization_enabled() -> bool:
    return bool(_tls.thread_state.include & _FUNC_BIT)


def _sig(op: Any) -> list[tuple[str, str]]:
    return [(a.name, str(a.type)) for a in op._schema.arguments if not a.is_out]


def _functional_variant(op: Any) -> Any:
    """The functional form of a mutating aten operator: `add_.Tensor` -> `add.Tensor`,
    `add.out` -> `add.Tensor` (matched by the non-out arguments), `copy_` -> `copy`."""
    if op in _FUNCTIONAL:
        return _FUNCTIONAL[op]
    from ..dispatcher.operator import all_ops

    name = op._opname
    base = name[:-1] if name.endswith("_") else name
    want = _sig(op)
    found = None
    for cand in all_ops():
        if (
            cand._name == f"{op.namespace}::{base}"
            and cand._schema is not None
            and not cand._schema.is_mutable
        ):
            if _sig(cand) == want:
                found = cand
                break
    _FUNCTIONAL[op] = found
    return found


def _custom_refusal(op: Any) -> RuntimeError:
    return RuntimeError(
        f"Found a custom (non-ATen) operator whose output has alias annotations: {op._schema}. We only "  # noqa: E501
        "support functionalizing operators whose outputs do not have alias annotations (e.g. 'Tensor(a)' is a "  # noqa: E501
        "Tensor with an alias annotation whereas 'Tensor' is a Tensor without. The '(a)' is the alias annotation). "  # noqa: E501
        "The alias annotation specifies that the output Tensor shares storage with an input that has the same "  # noqa: E501
        "annotation. Please check if (1) the output needs to be an output (if not, don't return it), (2) if the "  # noqa: E501
        "output doesn't share storage with any inputs, then delete the alias annotation. (3) if the output indeed "  # noqa: E501
        "shares storage with an input, then add a .clone() before returning it to prevent storage sharing and "  # noqa: E501
        "then delete the alias annotation. Otherwise, please file an issue on GitHub."
    )


def _unwrap(a: Any, do_sync: bool) -> Any:
    if isinstance(a, FunctionalTensorWrapper):
        if do_sync:
            sync(a)
        return a.__dict__["_value"]
    t = type(a)
    if t is list or t is tuple:
        return t(_unwrap(x, do_sync) for x in a)
    return a


def _wrap_out(out: Any) -> Any:
    if isinstance(out, Tensor):
        return _wrap(out)
    if isinstance(out, (list, tuple)):
        return type(out)(_wrap_out(o) for o in out)
    return out


def functionalize_fallback(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    schema = op._schema
    with ExcludeDispatchKeyGuard(DispatchKey.Functionalize):
        if schema.is_mutable:
            return _mutation(op, schema, args, kwargs)
        if (
            _AUTO_FUNCTIONALIZE[0]
            and op._name == "aten::_unsafe_view"
            and isinstance(args[0], FunctionalTensorWrapper)
        ):
            # Under the AOT path `_unsafe_view` is functionalized as `view` (PyTorch's
            # FunctionalTensorMode); plain functionalize keeps it, as PyTorch's C++ pass does.
            return _view(_op("view"), args, kwargs)
        if (
            any(r is not None for r in schema.aliased_returns)
            and args
            and isinstance(args[0], FunctionalTensorWrapper)
        ):
            return _view(op, args, kwargs)
        if op.namespace != "aten" and any(r.alias_info is not None for r in schema.returns):
            raise _custom_refusal(op)
        out = op(*_unwrap(args, True), **{k: _unwrap(v, True) for k, v in kwargs.items()})
        return _wrap_out(out)


def _view(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    parent: FunctionalTensorWrapper = args[0]
    d = parent.__dict__
    reapply = _REAPPLY_VIEWS[0]
    run = op if reapply else _copy_variant(op)
    out = run(d["_value"], *args[1:], **kwargs)
    st, metas, gen = d["_storage"], d["_view_metas"], d["_generation"]
    if isinstance(out, (list, tuple)):
        return type(out)(
            _wrap(o, st, (*metas, ViewMeta(op, args[1:], kwargs, i, not reapply)), gen)
            for i, o in enumerate(out)
        )
    return _wrap(out, st, (*metas, ViewMeta(op, args[1:], kwargs, None, not reapply)), gen)


#: Set by the AOT path: a mutating custom operator becomes `auto_functionalized_v2` (PyTorch's
#: FunctionalTensorMode does this under AOT; plain `functionalize` refuses such an operator).
_AUTO_FUNCTIONALIZE = [False]


def _auto_functionalize(op: Any, schema: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from .._higher_order_ops.auto_functionalize import auto_functionalized_v2

    params = schema.arguments
    bound: dict[str, Any] = dict(zip((p.name for p in params), args))
    bound.update(kwargs)
    names = [params[i].name for i in schema.mutated_arg_indices]
    targets = [bound[n] for n in names]
    bases = [_unwrap(t, True) for t in targets]
    rest = {
        p.name: _unwrap(bound[p.name], True)
        for p in params
        if p.name in bound and p.name not in names
    }
    out = auto_functionalized_v2(op, _all_bases=bases, **rest)
    n_ret = len(schema.returns)
    for t, v in zip(targets, out[n_ret:]):
        if isinstance(t, FunctionalTensorWrapper):
            _commit(t, v)
            _sync_if_view(t)
    rets = tuple(_wrap_out(r) for r in out[:n_ret])
    if n_ret == 0:
        return None
    return rets[0] if n_ret == 1 else rets


def _mutation(op: Any, schema: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if op.namespace != "aten":
        if _AUTO_FUNCTIONALIZE[0]:
            return _auto_functionalize(op, schema, args, kwargs)
        raise _custom_refusal(op)
    functional = _functional_variant(op)
    if functional is None:
        raise RuntimeError(
            f"functionalization: {op} mutates an argument and has no functional variant"
        )
    params = schema.arguments
    mutated_names = [params[i].name for i in schema.mutated_arg_indices]
    # Bind positional arguments to names, so the mutated ones can be found and the out ones
    # dropped for the functional call.
    bound: dict[str, Any] = dict(zip((p.name for p in params), args))
    bound.update(kwargs)
    targets = [bound.get(n) for n in mutated_names]
    call_kwargs = {}
    call_args = []
    for p in functional._schema.arguments:
        if p.name in bound:
            v = _unwrap(bound[p.name], True)
            if p.kwarg_only:
                call_kwargs[p.name] = v
            else:
                call_args.append(v)
    out = functional(*call_args, **call_kwargs)
    if len(targets) == 1 and isinstance(targets[0], (list, tuple)):
        # A mutated tensor list (`_foreach_add_(Tensor(a!)[] self, ...)`): the functional form
        # returns the new list, element for element.
        for t, v in zip(targets[0], out):
            if isinstance(t, FunctionalTensorWrapper):
                _commit(t, v)
                _sync_if_view(t)
        return None if len(schema.returns) == 0 else targets[0]
    results = out if isinstance(out, (list, tuple)) else (out,)
    is_out_form = any(params[i].is_out for i in schema.mutated_arg_indices)
    new_values = (
        list(results)[: len(targets)]
        if is_out_form or len(results) >= len(targets)
        else list(results)
    )
    for t, v in zip(targets, new_values):
        if isinstance(t, FunctionalTensorWrapper):
            _commit(t, v)
            _sync_if_view(t)
    # The in-place op returns its written argument(s).
    if len(schema.returns) == 0:
        return None
    if len(targets) == 1 and len(schema.returns) == 1:
        return targets[0]
    return tuple(targets) + tuple(_wrap_out(r) for r in results[len(targets) :])


_lib = Library._internal("_", "IMPL")
_lib.fallback(functionalize_fallback, "Functionalize", with_keyset=True)
