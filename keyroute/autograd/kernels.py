"""Autograd kernels: one per differentiable operator, built from its derivatives-table entry.

Registered on the Autograd alias key. When no input requires grad (or grad mode is off) the
kernel is a pure passthrough below autograd, which the dispatcher folds away on the plain path.
Otherwise it builds the graph node (PyTorch's `<Op>Backward<N>` name), saves what the formula
needs, runs the operator below autograd, and records the outputs' history. In-place ops check
leaves and rebase views (CopySlices); out= variants refuse tensors that require grad.
"""

from __future__ import annotations

import functools
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import (
    FUNCTIONALITY_MASK,
    REQUIRES_GRAD_BIT,
    DispatchKeySet,
    full_after_bits,
)
from ..dispatcher.operator import LayerKernel, OpOverload
from ..dispatcher.schema import OPT_TENSOR, TENSOR
from ..dispatcher.tls import AUTOGRAD_WITH_INPLACE_OR_VIEW, redispatch_below_ad_inplace_or_view
from ..dispatcher.tls import state as _tls
from ._meta import AutogradMeta
from .derivatives import DERIVATIVES, Derivative
from .graph import SavedTensor, _sequence, grad_accumulator, gradient_edge, set_history
from .nodes import CopySlices, make_node_class

__all__ = ["AutogradKernel", "register_all"]

_AFTER_AUTOGRAD = full_after_bits(DispatchKey.AutogradOther)
# The guard redispatch_below_ad_inplace_or_view sets, inlined in AutogradKernel.bind's closure.
_BELOW_EXCLUDE = AUTOGRAD_WITH_INPLACE_OR_VIEW
_BELOW_MASK = ~(AUTOGRAD_WITH_INPLACE_OR_VIEW & FUNCTIONALITY_MASK)
_MISSING = object()
_NO_EDGE = (None, 0)


def _below(op: OpOverload, ks: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return redispatch_below_ad_inplace_or_view(op, ks & _AFTER_AUTOGRAD, args, kwargs)


def _is_diff_tensor(t: Any) -> bool:
    return hasattr(t, "_ks") and bool(t._ks & REQUIRES_GRAD_BIT)


class AutogradKernel(LayerKernel):
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

    def passthrough(self, ks: int) -> int | None:
        return ks & _AFTER_AUTOGRAD if not ks & REQUIRES_GRAD_BIT else None

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
        ks = keyset.repr_
        if not _tls.s.grad_enabled:
            return _below(self.op, ks, args, kwargs)
        values = None
        index = self.input_index
        if index is not None and len(args) >= self.min_positional:
            flat = [args[i] for i in index]
        else:
            values = self._bind(args, kwargs)
            flat = []
            for name in self.inputs:
                v = values[name]
                if isinstance(v, (list, tuple)):
                    flat.extend(v)
                else:
                    flat.append(v)
        for t in flat:
            if getattr(t, "_ks", 0) & REQUIRES_GRAD_BIT:
                break
        else:
            return _below(self.op, ks, args, kwargs)
        if self.needs_values and values is None:
            values = self._bind(args, kwargs)
        if self.inplace:
            self._check_inplace(values)
        edges = []
        for t in flat:  # gradient_edge, inlined: this runs for every input of every recorded op
            if getattr(t, "_ks", 0) & REQUIRES_GRAD_BIT:
                ag = t._ag
                if ag is not None and ag.grad_fn is not None:
                    edges.append((ag.grad_fn, ag.output_nr))
                else:
                    edges.append((grad_accumulator(t), 0))
            else:
                edges.append(_NO_EDGE)
        node = self.node_class(tuple(edges))
        node.input_metadata = [
            (t._data.shape, t._dtype) if hasattr(t, "_ks") else None for t in flat
        ]
        saved = node.saved
        n_args = len(args)
        for name, i, default in self.save_args:
            if i < n_args:
                v = args[i]
            else:
                v = kwargs.get(name, default) if kwargs else default
            if hasattr(v, "_ks"):
                if self.inplace and i == 0:
                    v = _clone_for_save(v)
                saved[name] = SavedTensor(v)
            elif isinstance(v, (list, tuple)) and v and hasattr(v[0], "_ks"):
                saved[name] = [SavedTensor(t) for t in v]
            else:
                saved[name] = v
        entry = self.entry
        if entry.save_computed:
            for key, fn in entry.save_computed.items():
                saved[key] = fn(values)
        out = _below(self.op, ks, args, kwargs)
        if out.__class__ is tuple or out.__class__ is list:
            outs = out
        else:
            outs = (out,)
        if self.inplace:
            _rebase_history(outs[0], node)
        else:
            diff_outputs = entry.differentiable_outputs
            for i, t in enumerate(outs):
                if i in diff_outputs and hasattr(t, "_ks") and t._dtype.category >= 2:
                    ag = t._ag
                    if ag is None:
                        ag = t._ag = AutogradMeta()
                    ag.grad_fn = node
                    ag.output_nr = i
                    t._ks |= REQUIRES_GRAD_BIT
        for name, k in self.save_results:
            saved[name] = SavedTensor(outs[k], is_output=True, output_nr=k)
        return out

    def bind(self, ks: int) -> Any:
        """A closure specialised to key set `ks` for the common case: not in-place, nothing
        computed at save time, the differentiable inputs passed positionally. It does what
        __call__ does with the per-kernel lookups hoisted out of the call."""
        general = functools.partial(self, DispatchKeySet.from_raw(ks))
        index = self.input_index
        if not ks & REQUIRES_GRAD_BIT or index is None or self.inplace or self.needs_values:
            return general
        op, rcache, below = self.op, self.op._rcache, ks & _AFTER_AUTOGRAD
        resolve = op._resolve
        min_positional, node_class = self.min_positional, self.node_class
        save_args, save_results = self.save_args, self.save_results
        diff_outputs = self.entry.differentiable_outputs
        single_output = diff_outputs == frozenset({0})
        state = _tls
        new_node = object.__new__
        next_sequence = _sequence.__next__

        def autograd_call(*args: Any, **kwargs: Any) -> Any:
            st = state.s  # one thread-local lookup for the grad check and the guard below
            if len(args) < min_positional or not st.grad_enabled:
                return general(*args, **kwargs)
            edges = []
            metadata = []
            requires_grad = False
            for i in index:
                t = args[i]
                t_ks = getattr(t, "_ks", None)
                if t_ks is None:  # an absent optional tensor
                    edges.append(_NO_EDGE)
                    metadata.append(None)
                    continue
                metadata.append((t._data.shape, t._dtype))
                if t_ks & REQUIRES_GRAD_BIT:
                    requires_grad = True
                    ag = t._ag
                    if ag is not None and ag.grad_fn is not None:
                        edges.append((ag.grad_fn, ag.output_nr))
                    else:  # a leaf: its (cached) AccumulateGrad
                        acc = ag.grad_accumulator if ag is not None else None
                        edges.append((acc if acc is not None else grad_accumulator(t), 0))
                else:
                    edges.append(_NO_EDGE)
            if not requires_grad:
                return general(*args, **kwargs)
            # The node, built without its __init__ frame (FormulaNode.__init__ does the same).
            node = new_node(node_class)
            node.next_edges = tuple(edges)
            node.sequence_nr = next_sequence()
            node.saved = saved = {}
            node.input_metadata = metadata
            if save_args:
                n_args = len(args)
                for name, i, default in save_args:
                    if i >= n_args and not kwargs:
                        saved[name] = default  # not passed: its (non-tensor) default
                        continue
                    v = args[i] if i < n_args else kwargs.get(name, default)
                    if hasattr(v, "_ks"):
                        saved[name] = SavedTensor(v)
                    elif isinstance(v, (list, tuple)) and v and hasattr(v[0], "_ks"):
                        saved[name] = [SavedTensor(t) for t in v]
                    else:
                        saved[name] = v
            # Below autograd, as _below does.
            fn = rcache.get(below)
            if fn is None:
                fn = rcache[below] = resolve(below, False)
            exclude, mask, im = st.exclude, st.mask, st.im
            if exclude & _BELOW_EXCLUDE == _BELOW_EXCLUDE:
                out = fn(*args, **kwargs)
            else:
                st.exclude = exclude | _BELOW_EXCLUDE
                st.mask = new_mask = mask & _BELOW_MASK
                st.im = (im[0], new_mask)
                try:
                    out = fn(*args, **kwargs)
                finally:
                    st.exclude, st.mask, st.im = exclude, mask, im
            if single_output and out.__class__ is not tuple and out.__class__ is not list:
                if out._dtype.category >= 2:
                    ag = out._ag
                    if ag is None:
                        ag = out._ag = AutogradMeta()
                    ag.grad_fn = node
                    ag.output_nr = 0
                    out._ks |= REQUIRES_GRAD_BIT
                outs = (out,)
            else:
                outs = out if out.__class__ is tuple or out.__class__ is list else (out,)
                for i, t in enumerate(outs):
                    if i in diff_outputs and hasattr(t, "_ks") and t._dtype.category >= 2:
                        ag = t._ag
                        if ag is None:
                            ag = t._ag = AutogradMeta()
                        ag.grad_fn = node
                        ag.output_nr = i
                        t._ks |= REQUIRES_GRAD_BIT
            for name, k in save_results:
                node.saved[name] = SavedTensor(outs[k], is_output=True, output_nr=k)
            return out

        return autograd_call

    def _check_inplace(self, values: dict[str, Any]) -> None:
        self_ = values[self.names[0]]
        ag = self_._ag
        if (
            self_._ks & REQUIRES_GRAD_BIT
            and (ag is None or ag.grad_fn is None)
            and self_._base is None
        ):
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )
        base = self_._base
        if base is not None:
            if ag is not None and ag.creation_meta:
                _raise_view_error(self_, ag.creation_meta, self.op)
            if base._ks & REQUIRES_GRAD_BIT and (base._ag is None or base._ag.grad_fn is None):
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation."
                )


def _clone_for_save(t: Any) -> Any:
    from .._ops import ops

    prev = _tls.s.grad_enabled
    _tls.s.grad_enabled = False
    _tls.s.refresh()
    try:
        return ops.aten.clone.default(t)
    finally:
        _tls.s.grad_enabled = prev
        _tls.s.refresh()


def _raise_view_error(view: Any, creation_meta: int, op: OpOverload) -> None:
    from .inplace_or_view import CreationMeta

    grad_fn = view._ag.grad_fn
    if creation_meta == CreationMeta.MULTI_OUTPUT_NODE:
        name = grad_fn.name() if grad_fn is not None else "a function"
        raise RuntimeError(
            f"Output {view._ag.output_nr} of {name} is a view and is being modified inplace. "
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
    from .views import as_strided_history

    as_strided_history(t, base, geometry)


def _out_error_kernel(op: OpOverload) -> Any:
    class OutKernel(LayerKernel):
        def passthrough(self, ks: int) -> int | None:
            return ks & _AFTER_AUTOGRAD if not ks & REQUIRES_GRAD_BIT else None

        def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
            tensors = [a for a in list(args) + list(kwargs.values()) if hasattr(a, "_ks")]
            if _tls.s.grad_enabled and any(_is_diff_tensor(t) for t in tensors):
                base = op._opname
                raise RuntimeError(
                    f"{base}(): functions with out=... arguments don't support automatic "
                    f"differentiation, but one of the arguments requires grad."
                )
            return _below(op, keyset.repr_, args, kwargs)

    return OutKernel()


#: Operators whose outputs never require grad (PyTorch's DONT_REQUIRE_DERIVATIVE and
#: `output_differentiability: False` entries): their autograd kernel only redispatches.
NON_DIFFERENTIABLE = {
    "detach",
    "lift_fresh",
    "_local_scalar_dense",
    "empty_like",
    "zeros_like",
    "ones_like",
    "full_like",
    "rand_like",
    "randn_like",
    "new_empty",
    "new_zeros",
    "new_ones",
    "new_full",
    "empty_strided",
    "nonzero",
    "argmax",
    "argmin",
    "argsort",
    "isnan",
    "isinf",
    "isfinite",
    "isposinf",
    "isneginf",
    "signbit",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "count_nonzero",
    "all",
    "any",
    "uniform_",
    "normal_",
    "random_",
    "bernoulli_",
    "randperm",
    "arange",
    "linspace",
    "eye",
    "resize_",
    "_unique2",
    "bucketize",
    "searchsorted",
    "one_hot",
}


class NonDifferentiableKernel(LayerKernel):
    """Autograd kernel of an operator whose outputs never require grad."""

    def __init__(self, op: OpOverload) -> None:
        self.op = op

    def passthrough(self, ks: int) -> int:
        return ks & _AFTER_AUTOGRAD

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        return _below(self.op, keyset.repr_, args, kwargs)


def register_all(lib: Any) -> None:
    """Register autograd kernels for every aten operator with a derivatives-table entry (and
    their in-place forms), and the out= refusal for out variants."""
    from ..dispatcher.operator import all_ops

    by_name = {op.qualified_name(): op for op in all_ops() if op.namespace == "aten"}
    for name, entry in DERIVATIVES.items():
        op = by_name.get(f"aten::{name}".replace(".default", ""))
        if op is None or op.has_kernel_for_dispatch_key(DispatchKey.Autograd):
            continue
        writes_self = 0 in op._schema.mutated_arg_indices
        lib.impl(op, AutogradKernel(op, entry, writes_self), "Autograd", with_keyset=True)
        base, _, overload = name.partition(".")
        inplace = by_name.get(
            f"aten::{base}_" + (f".{overload}" if overload and overload != "default" else "")
        )
        if inplace is not None and not inplace.has_kernel_for_dispatch_key(DispatchKey.Autograd):
            lib.impl(inplace, AutogradKernel(inplace, entry, True), "Autograd", with_keyset=True)
    for op in by_name.values():
        schema = op._schema
        if schema is None or op.has_kernel_for_dispatch_key(DispatchKey.Autograd):
            continue
        if op.has_kernel_for_dispatch_key(DispatchKey.CompositeImplicitAutograd):
            continue
        if any(a.is_out for a in schema.arguments):
            lib.impl(op, _out_error_kernel(op), "Autograd", with_keyset=True)
        elif op._opname.rstrip("_") in NON_DIFFERENTIABLE or op._opname in NON_DIFFERENTIABLE:
            lib.impl(op, NonDifferentiableKernel(op), "Autograd", with_keyset=True)
