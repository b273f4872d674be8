"""The plain reference of the generated autograd recorders (layers/recorder.py): the same
steps, one helper call each, written to be read; tests/autograd/test_recorder.py checks that the
generated recorders build the same graph."""

from __future__ import annotations

from typing import Any

from ..autograd.graph import SavedTensor, set_history
from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..dispatcher.schema import OPT_TENSOR, OPT_TENSOR_LIST, TENSOR, TENSOR_LIST
from ..dispatcher.tls import redispatch_below_ad_inplace_or_view as _below_guarded
from ..dispatcher.tls import state as _tls
from .autograd import _check_no_requires_grad, _rebase_history
from .recorder import _AFTER_AUTOGRAD, _dtype_error, _edge_of, _save_list, _save_tensor

__all__ = ["record_reference"]


def record_reference(kernel: Any, ks: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The plain reference of a recorder: the same six steps, one helper call each, for
    reading (and for the tests that check the generated recorders against it)."""
    op, entry = kernel.op, kernel.entry
    below = ks & _AFTER_AUTOGRAD
    if not _tls.thread_state.grad_enabled:  # 1. grad mode off
        return _below_guarded(op, below, args, kwargs)
    values = kernel._bind(args, kwargs)  # 2. every argument by name
    for name in kernel.no_grad:
        _check_no_requires_grad(values[name], name, op._opname)
    if entry.condition is not None and not entry.condition(values):
        return _below_guarded(op, below, args, kwargs)
    inputs = kernel._flat_inputs(values)  # 3. the differentiable inputs
    if not any(getattr(t, "_key_set", 0) & REQUIRES_GRAD_BIT for t in inputs):
        return _below_guarded(op, below, args, kwargs)
    if kernel.inplace:
        kernel._check_inplace(values)
    node = kernel.node_class(tuple(_edge_of(t) for t in inputs))  # 4. the node
    node.input_metadata = [
        (t._data.shape, t._dtype) if hasattr(t, "_key_set") else None for t in inputs
    ]
    for name, i, _default in kernel.save_args:
        v = values[kernel.names[i]]
        if kernel.inplace and i == 0:
            node.saved[name] = kernel._save_self(v, node.next_edges)
        elif kernel.kinds[i] in (TENSOR_LIST, OPT_TENSOR_LIST):
            node.saved[name] = _save_list(v)
        elif kernel.kinds[i] in (TENSOR, OPT_TENSOR):
            # only when an input whose formula reads it needs a gradient (self_for, saved_for)
            needed = kernel._saved_needed(name, node.next_edges)
            node.saved[name] = _save_tensor(v) if needed else None
        else:
            node.saved[name] = v
    for key, compute in entry.save_computed.items():
        node.saved[key] = compute(values)
    out = _below_guarded(op, below, args, kwargs)  # 5. below autograd
    outs = out if isinstance(out, (tuple, list)) else (out,)
    if kernel.inplace:  # 6. the outputs' history
        _rebase_history(outs[0], node)
    else:
        for i, t in enumerate(outs):
            if i in entry.differentiable_outputs and hasattr(t, "_key_set"):
                if t._dtype.category < 2:
                    raise _dtype_error(t)
                set_history(t, node, i)
    for name, k in kernel.save_results:
        node.saved[name] = SavedTensor(outs[k], True, k)
    return out
