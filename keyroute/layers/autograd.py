"""Autograd kernels: one on the Autograd alias key for every aten operator that is not
CompositeImplicitAutograd, of the kind PyTorch's codegen gives it (`register_all`):

- AutogradKernel: the derivatives-table entry (an in-place or out= form matched to its
  functional operator by signature, unless it has an entry of its own). It builds the graph
  node (PyTorch's `<Op>Backward<N>` name), saves what the formula needs, runs the operator
  below autograd, and records the outputs' history. In-place ops check leaves and rebase views
  (CopySlices).
- OutKernel: the out= form of a differentiable operator refuses tensors that require grad.
- NonDifferentiableKernel: outputs never require grad (NON_DIFFERENTIABLE).
- NotImplementedKernel: no formula (PyTorch's autogradNotImplementedFallback): outputs get a
  NotImplemented node whose backward raises.

When no input requires grad (or grad mode is off) each is a pure passthrough below autograd,
which the dispatcher folds away on the plain path.

The autograd fallback (`AutogradFallback`, on every Autograd key) is what an operator with no
autograd kernel of its own runs: custom (non-aten) operators, as in PyTorch. As PyTorch's
default ("warn" mode) the operator runs below autograd *without* disabling autograd for what
it calls, so a kernel made of differentiable operators still records a graph; outputs that need
a gradient but got no graph node get one that warns when backward reaches it. When no input
requires grad it is a pure passthrough (Note [plain path] in dispatcher/operator).

The graph itself (nodes, edges, the engine, the formulas) is keyroute/autograd/.
"""

from __future__ import annotations

import functools
from typing import Any

from ..autograd.derivatives import DERIVATIVES, NOT_IMPLEMENTED, Derivative
from ..autograd.derivatives.no_formula import (
    COMPOSITE_WITH_FORMULA,
    GENERATED_OUT,
    NON_DIFFERENTIABLE,
)
from ..autograd.derivatives.random import RANDOM_DERIVATIVES
from ..autograd.graph import SavedTensor, gradient_edge, set_history
from ..autograd.nodes import CopySlices, make_node_class
from ..autograd.nodes import NotImplemented as _NotImplementedFn  # not the builtin
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import (
    REQUIRES_GRAD_BIT,
    DispatchKeySet,
    full_after_bits,
)
from ..dispatcher.operator import LayerKernel, OpOverload
from ..dispatcher.registration import Library
from ..dispatcher.schema import OPT_TENSOR, TENSOR
from ..dispatcher.tls import redispatch_below_ad_inplace_or_view
from ..dispatcher.tls import state as _tls
from ..profiler import _state as _prof
from .recorder import NO_EDGE as _NO_EDGE
from .recorder import make_recorder

__all__ = [
    "AutogradFallback",
    "AutogradKernel",
    "NonDifferentiableKernel",
    "NotImplementedKernel",
    "OutKernel",
    "register_all",
]

_AFTER_AUTOGRAD = full_after_bits(DispatchKey.AutogradOther)
_MISSING = object()


def _below(op: OpOverload, ks: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return redispatch_below_ad_inplace_or_view(op, ks & _AFTER_AUTOGRAD, args, kwargs)


def _below_call(op: OpOverload, below: int, *args: Any, **kwargs: Any) -> Any:
    return redispatch_below_ad_inplace_or_view(op, below, args, kwargs)


def _is_diff_tensor(t: Any) -> bool:
    return hasattr(t, "_key_set") and bool(t._key_set & REQUIRES_GRAD_BIT)


class AutogradLayerKernel(LayerKernel):
    """Base of the Autograd keys' kernels: a pure passthrough (to the keys below Autograd)
    for key sets in which no argument requires grad. See Note [plain path]."""

    def passthrough(self, ks: int) -> int | None:
        return ks & _AFTER_AUTOGRAD if not ks & REQUIRES_GRAD_BIT else None


class AutogradKernel(AutogradLayerKernel):
    """The Autograd-key kernel of one operator."""

    def __init__(self, op: OpOverload, entry: Derivative, inplace: bool) -> None:
        schema = op._schema
        self.op = op
        self.entry = entry
        self.inplace = inplace
        self.names = [a.name for a in schema.arguments]
        self.defaults = [
            a.default_value if a.has_default_value() else _MISSING for a in schema.arguments
        ]
        self.missing = _MISSING
        self.kwarg_only = [a.kwarg_only for a in schema.arguments]
        self.kinds = [a.kind for a in schema.arguments]
        self.inputs = (
            entry.inputs
            if entry.inputs is not None
            else tuple(a.name for a in schema.arguments if a.kind)
        )
        self.node_class = make_node_class(entry.node_name, entry.formula, entry.n_outputs)
        self.is_view = any(i is not None for i in schema.aliased_returns) and not inplace
        # Fast path: the differentiable inputs are single Tensor(?) arguments, so a positional
        # call finds them by index without binding every argument by name.
        index = {a.name: i for i, a in enumerate(schema.arguments)}
        single = all(
            n in index and schema.arguments[index[n]].kind in (TENSOR, OPT_TENSOR)
            for n in self.inputs
        )
        self.input_index = tuple(index[n] for n in self.inputs) if single else None
        self.min_positional = max(self.input_index, default=-1) + 1 if single else 0
        # Saved arguments by position (name, index, default) and saved outputs (name, k).
        self.save_args = tuple(
            (
                n,
                index[n],
                self.defaults[index[n]] if self.defaults[index[n]] is not _MISSING else None,
            )
            for n in entry.save
            if not n.startswith("result")
        )
        self.save_results = tuple(
            (n, 0 if n == "result" else int(n[6:]))
            for n in entry.save
            if n == "result" or (n.startswith("result") and n[6:].isdigit())
        )
        self.needs_values = bool(entry.save_computed or inplace)
        # Arguments that must not require grad (PyTorch's check_no_requires_grad), and the
        # condition under which the outputs are differentiable at all (_to_copy's dtype).
        self.no_grad = tuple(n for n in entry.no_grad if n in index)
        self.checks_values = bool(self.no_grad or entry.condition is not None)
        self._bound: dict[int, Any] = {}

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        values = {}
        n = len(args)
        for i, name in enumerate(self.names):
            if i < n:
                values[name] = args[i]
            elif name in kwargs:
                values[name] = kwargs[name]
            else:
                d = self.defaults[i]
                values[name] = None if d is _MISSING else d
        return values

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        return self.bind(keyset.repr_)(*args, **kwargs)

    def bind(self, ks: int) -> Any:
        """The callable for key set ks: below autograd when no argument requires grad, else
        this entry's recorder (generated code, layers/recorder.py), one per key set."""
        fn = self._bound.get(ks)
        if fn is None:
            if ks & REQUIRES_GRAD_BIT:
                helpers = {
                    "rebase_history": _rebase_history,
                    "check_no_requires_grad": _check_no_requires_grad,
                }
                fn = make_recorder(self, ks, helpers)
            else:
                fn = functools.partial(_below_call, self.op, ks & _AFTER_AUTOGRAD)
            self._bound[ks] = fn
        return fn

    def _flat_inputs(self, values: dict[str, Any]) -> list[Any]:
        """The differentiable inputs, tensor lists flattened, in self.inputs' order."""
        flat: list[Any] = []
        for name in self.inputs:
            v = values[name]
            if isinstance(v, (list, tuple)):
                flat.extend(v)
            else:
                flat.append(v)
        return flat

    def _save_self(self, v: Any, edges: tuple[Any, ...]) -> Any:
        """An in-place op's saved `self`: a clone of its old value, or None when no formula
        that reads it can run."""
        if not hasattr(v, "_key_set"):
            return v
        if not self._self_needed(edges):
            return None
        return SavedTensor(_clone_for_save(v))

    def _self_needed(self, edges: list[Any]) -> bool:
        """Whether an in-place op must save (clone) self's old value: some input whose formula
        reads it needs a gradient (edges are the inputs', in self.inputs' order)."""
        self_for = self.entry.self_for
        if self_for is None or self.input_index is None:
            return True
        return any(edges[self.inputs.index(n)] is not _NO_EDGE for n in self_for)

    def _saved_needed(self, name: str, edges: tuple[Any, ...]) -> bool:
        """Whether saved tensor argument `name` is kept (the reference of the recorders'
        test): some input whose formula reads it needs a gradient (self_for, saved_for)."""
        if name == "self":
            return self._self_needed(edges)
        readers = self.entry.saved_for.get(name)
        if readers is None or self.input_index is None:
            return True
        return any(edges[self.inputs.index(n)] is not _NO_EDGE for n in readers)

    def _check_inplace(self, values: dict[str, Any]) -> None:
        _check_inplace(values[self.names[0]], self.op)


def _check_inplace(self_: Any, op: OpOverload) -> None:
    """PyTorch's check_inplace: an in-place op may not write a leaf that requires grad, a view
    of one, or a view whose creation forbids it."""
    ag = self_._autograd_meta
    if (
        self_._key_set & REQUIRES_GRAD_BIT
        and (ag is None or ag.grad_fn is None)
        and self_._base is None
    ):
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    base = self_._base
    if base is not None:
        if ag is not None and ag.creation_meta:
            _raise_view_error(self_, ag.creation_meta, op)
        if base._key_set & REQUIRES_GRAD_BIT and (
            base._autograd_meta is None or base._autograd_meta.grad_fn is None
        ):
            raise RuntimeError(
                "a view of a leaf Variable that requires grad is being used in an in-place "
                "operation."
            )


def _can_mutate(t: Any) -> bool:
    """PyTorch's can_mutate_inplace (grad required): False for a leaf that requires grad, a
    view of one, or a view whose creation forbids writing it."""
    ag = t._autograd_meta
    base = t._base
    if base is not None:
        if ag is not None and ag.creation_meta:
            return False
        if t._key_set & REQUIRES_GRAD_BIT and (
            base._autograd_meta is None or base._autograd_meta.grad_fn is None
        ):
            return False
    return not (t._key_set & REQUIRES_GRAD_BIT and (ag is None or ag.grad_fn is None))


def _check_no_requires_grad(t: Any, name: str, fn_name: str) -> None:
    items = t if isinstance(t, (list, tuple)) else (t,)
    if any(hasattr(x, "_key_set") and x._key_set & REQUIRES_GRAD_BIT for x in items):
        raise RuntimeError(
            f"The function '{fn_name}' is not differentiable with respect to argument '{name}'. "
            f"This input cannot have requires_grad True."
        )


def _dtype_error(t: Any) -> RuntimeError:
    # set_history's check: an output recorded in the graph must be floating point or complex.
    return RuntimeError(f"Autograd not support dtype: {t._dtype._short}")


def _flat_tensors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """The tensors among the arguments, tensor lists flattened, in argument order."""
    out = []
    for v in (*args, *kwargs.values()) if kwargs else args:
        if hasattr(v, "_key_set"):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(t for t in v if hasattr(t, "_key_set"))
    return out


def _clone_for_save(t: Any) -> Any:
    from .._ops import ops

    prev = _tls.thread_state.grad_enabled
    _tls.thread_state.grad_enabled = False
    _tls.thread_state.refresh()
    try:
        return ops.aten.clone.default(t)
    finally:
        _tls.thread_state.grad_enabled = prev
        _tls.thread_state.refresh()


def _raise_view_error(view: Any, creation_meta: int, op: OpOverload) -> None:
    from .inplace_or_view import CreationMeta

    grad_fn = view._autograd_meta.grad_fn
    if creation_meta == CreationMeta.MULTI_OUTPUT_NODE:
        name = grad_fn.name() if grad_fn is not None else "a function"
        raise RuntimeError(
            f"Output {view._autograd_meta.output_nr} of {name} is a view and is being modified "
            f"inplace. "
            f"This view is the output of a function that returns multiple views. Such functions "
            f"do not allow the output views to be modified inplace. You should replace the "
            f"inplace operation by an out-of-place one."
        )
    if creation_meta == CreationMeta.NO_GRAD_MODE:
        raise RuntimeError(
            "A view was created in no_grad mode and is being modified inplace with grad mode "
            "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You "
            "can clarify your code by moving both the view and the inplace either both inside "
            "the no_grad block (if you don't want the inplace to be tracked) or both outside "
            "(if you want the inplace to be tracked)."
        )
    if creation_meta == CreationMeta.INFERENCE_MODE:
        raise RuntimeError(
            "A view was created in inference mode and is being modified inplace in normal mode."
        )


def _rebase_history(t: Any, node: Any) -> None:
    """After an in-place op recorded as `node`: t's new history (views rebase their base)."""
    base = t._base
    if base is None:
        set_history(t, node, 0)
        return
    # The view's region of the base was overwritten: the base's node becomes CopySlices.
    base_edge = gradient_edge(base)
    geometry = (tuple(t._data.shape), t.stride(), t.storage_offset() - base.storage_offset())
    base_meta = (tuple(base._data.shape), base.stride(), base.storage_offset(), base._dtype)
    copy_slices = CopySlices(base_edge, geometry, base_meta, node)
    copy_slices.input_metadata = [(tuple(base._data.shape), base._dtype)] + list(
        node.input_metadata[1:]
    )
    set_history(base, copy_slices, 0)
    # The view's own history now reads from the base (AsStridedBackward0 of the base).
    from ..autograd.views import as_strided_history

    as_strided_history(t, base, geometry)


class OutKernel(AutogradLayerKernel):
    """Autograd kernel of the out= form of a differentiable operator: refuses to run when an
    argument requires grad (PyTorch's generated out= kernels)."""

    def __init__(self, op: OpOverload) -> None:
        self.op = op

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        if _tls.thread_state.grad_enabled and any(
            _is_diff_tensor(t) for t in _flat_tensors(args, kwargs)
        ):
            raise RuntimeError(
                f"{self.op._opname}(): functions with out=... arguments don't support automatic "
                f"differentiation, but one of the arguments requires grad."
            )
        return _below(self.op, keyset.repr_, args, kwargs)


class NotImplementedKernel(AutogradLayerKernel):
    """Autograd kernel of an aten operator without a derivative formula (PyTorch's
    autogradNotImplementedFallback, which its codegen registers for such operators).

    The operator runs below autograd; when an input requires grad, its floating-point outputs
    get a `NotImplemented` node (edges to the inputs that require grad) whose backward raises
    "derivative for aten::<op> is not implemented". Outputs written in place rebase their
    history onto it, after PyTorch's in-place checks (for out= arguments: the out= refusal).
    """

    def __init__(self, op: OpOverload) -> None:
        schema = op._schema
        self.op = op
        self.op_name = f"aten::{op._opname}"
        self.names = [a.name for a in schema.arguments]
        self.has_out = any(a.is_out for a in schema.arguments)
        self.written = tuple(schema.mutated_arg_indices)
        self.inplace_outputs = frozenset(
            i
            for i, r in enumerate(schema.returns)
            if r.alias_info is not None and r.alias_info.is_write
        )

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        ks = keyset.repr_
        if not _tls.thread_state.grad_enabled:
            return _below(self.op, ks, args, kwargs)
        needs = [t for t in _flat_tensors(args, kwargs) if t._key_set & REQUIRES_GRAD_BIT]
        if not needs:
            return _below(self.op, ks, args, kwargs)
        for i in self.written:
            t = args[i] if i < len(args) else kwargs.get(self.names[i])
            if not hasattr(t, "_key_set"):
                continue
            if not self.has_out:
                _check_inplace(t, self.op)
            elif not _can_mutate(t):
                raise RuntimeError(
                    f"{self.op_name}(): functions with out=... arguments don't support "
                    f"automatic differentiation, but one of the arguments requires grad."
                )
        node = _NotImplementedFn(tuple(gradient_edge(t) for t in needs), self.op_name)
        node.input_metadata = [(t._data.shape, t._dtype) for t in needs]
        out = _below(self.op, ks, args, kwargs)
        outs = out if out.__class__ is tuple or out.__class__ is list else (out,)
        output_nr = 0
        for i, o in enumerate(outs):
            for t in o if isinstance(o, (list, tuple)) else (o,):
                if not hasattr(t, "_key_set") or t._dtype.category < 2:
                    continue
                if i in self.inplace_outputs:
                    _rebase_history(t, node)
                else:
                    set_history(t, node, output_nr)
                output_nr += 1
        return out


def _non_differentiable(op: OpOverload) -> bool:
    name = op._opname
    return (
        name in NON_DIFFERENTIABLE
        or name.rstrip("_") in NON_DIFFERENTIABLE
        or f"{name}.{op._overloadname or 'default'}" in NON_DIFFERENTIABLE
    )


class NonDifferentiableKernel(LayerKernel):
    """Autograd kernel of an operator whose outputs never require grad."""

    def __init__(self, op: OpOverload) -> None:
        self.op = op

    def passthrough(self, ks: int) -> int:
        return ks & _AFTER_AUTOGRAD

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        return _below(self.op, keyset.repr_, args, kwargs)


class NonDifferentiableViewKernel(NonDifferentiableKernel):
    """Autograd kernel of a view operator whose output is not differentiable (view.dtype): the
    view shares its base's key set, so its requires-grad bit is cleared (PyTorch makes such
    views with is_bw_differentiable=False). `record`: the name of the span PyTorch's kernel
    records (its manual `detach` does: 'aten::detach > detach' in a profile); while a profile
    runs the kernel is then not skipped by the plain path, so the span is there."""

    record: str | None = None

    def passthrough(self, ks: int) -> int | None:
        if self.record is not None and _prof.collector is not None:
            return None
        return AutogradLayerKernel.passthrough(self, ks)

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        span = _prof.span(self.record) if self.record is not None else None
        try:
            out = _below(self.op, keyset.repr_, args, kwargs)
        finally:
            _prof.end_span(span)
        for t in out if isinstance(out, (list, tuple)) else (out,):
            if hasattr(t, "_key_set"):
                t._key_set &= ~REQUIRES_GRAD_BIT
        return out


def _signature(op: OpOverload) -> tuple[Any, ...]:
    """The operator's arguments without out= ones and alias annotations: what PyTorch matches
    an in-place or out= form to its functional operator's derivatives by."""
    return tuple(
        (a.name, str(a.real_type), a.kwarg_only) for a in op._schema.arguments if not a.is_out
    )


def register_all(lib: Any) -> None:
    """Register an autograd kernel for every aten operator that is not CompositeImplicitAutograd,
    as PyTorch's codegen does: the derivatives-table formula (an in-place or out= form uses its
    functional operator's entry, matched by signature, unless it has its own), a passthrough
    for non-differentiable operators, the out= refusal, and NotImplemented for the rest."""
    from ..dispatcher.operator import all_ops

    aten = [op for op in all_ops() if op.namespace == "aten" and op._schema is not None]
    by_name = {op.qualified_name(): op for op in aten}
    # Functional operators by (name, signature): their entry, or None if non-differentiable.
    functional: dict[tuple[Any, ...], Derivative | None] = {}
    for name, entry in {**DERIVATIVES, **NOT_IMPLEMENTED, **RANDOM_DERIVATIVES}.items():
        op = by_name.get(f"aten::{name}".replace(".default", ""))
        if op is None or op.has_kernel_for_dispatch_key(DispatchKey.Autograd):
            continue
        writes_self = 0 in op._schema.mutated_arg_indices
        lib.impl(op, AutogradKernel(op, entry, writes_self), "Autograd", with_keyset=True)
        if not op._schema.mutated_arg_indices:
            functional[(op._opname, _signature(op))] = entry
    for op in aten:
        if not op._schema.mutated_arg_indices and _non_differentiable(op):
            functional.setdefault((op._opname, _signature(op)), None)
    # Composite operators that derivatives.yaml nonetheless gives a formula (for other
    # backends): PyTorch's codegen refuses their explicit out= forms (linear.out) as it does
    # any out= form of a differentiable operator.
    composite_functional = {
        (op._opname, _signature(op))
        for op in aten
        if op._opname in COMPOSITE_WITH_FORMULA and not op._schema.mutated_arg_indices
    }
    for op in aten:
        schema = op._schema
        if op.has_kernel_for_dispatch_key(DispatchKey.Autograd):
            continue
        if op.has_kernel_for_dispatch_key(DispatchKey.CompositeImplicitAutograd):
            continue
        name = op._opname
        key = (name[:-1] if name.endswith("_") else name, _signature(op))
        if any(a.is_out for a in schema.arguments):
            if f"{name}.{op._overloadname}" in GENERATED_OUT:
                kernel: LayerKernel = NotImplementedKernel(op)
            elif _non_differentiable(op) or (key in functional and functional[key] is None):
                kernel = NonDifferentiableKernel(op)
            elif key in functional or key in composite_functional:
                kernel = OutKernel(op)
            else:
                kernel = NotImplementedKernel(op)
        elif name.endswith("_") and functional.get(key) is not None:
            kernel = AutogradKernel(op, functional[key], True)  # e.g. pow_.Scalar: PowBackward0
        elif _non_differentiable(op):
            is_view = not schema.mutated_arg_indices and any(
                i is not None for i in schema.aliased_returns
            )
            kernel = (NonDifferentiableViewKernel if is_view else NonDifferentiableKernel)(op)
            if name == "detach":
                kernel.record = "detach"  # type: ignore[attr-defined]
        else:
            kernel = NotImplementedKernel(op)
        lib.impl(op, kernel, "Autograd", with_keyset=True)


#: The kind of each kernel class, in the terms of PyTorch's codegen (tests compare them).
KERNEL_KINDS: dict[type, str] = {
    OutKernel: "out_error",
    NotImplementedKernel: "not_implemented",
    NonDifferentiableKernel: "passthrough",
}


# -- the autograd fallback ---------------------------------------------------------------------


def attach_warning_nodes(op: Any, args: tuple, kwargs: dict, out: Any) -> None:
    """Give outputs that need a gradient but have no graph node a node that warns on backward."""
    from ..autograd import engine

    engine.attach_not_implemented(op, args, kwargs, out)


class AutogradFallback(AutogradLayerKernel):
    def __call__(self, keyset: DispatchKeySet, op: Any, *args: Any, **kwargs: Any) -> Any:
        out = op._redispatch(keyset.repr_ & _AFTER_AUTOGRAD, *args, **kwargs)
        attach_warning_nodes(op, args, kwargs, out)
        return out


def register_fallback() -> None:
    """Register the autograd fallback on every Autograd key (at import, as PyTorch's)."""
    lib = Library._internal("_", "IMPL")
    for key in (
        "AutogradOther",
        "AutogradCPU",
        "AutogradCUDA",
        "AutogradXLA",
        "AutogradMPS",
        "AutogradXPU",
        "AutogradHPU",
        "AutogradLazy",
        "AutogradMTIA",
        "AutogradMAIA",
        "AutogradPrivateUse1",
        "AutogradMeta",
    ):
        lib.fallback(autograd_fallback, DispatchKey[key], with_keyset=True)


autograd_fallback = AutogradFallback()
register_fallback()
