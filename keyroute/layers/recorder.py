"""The graph record of one differentiable operator, as generated code: one recorder per
derivatives-table entry (PyTorch's codegen writes one C++ autograd kernel per operator; this is
its Python counterpart, written from one template).

A recorder is what the AutogradKernel of an operator runs for a key set that has the
requires-grad bit. In order, it:

1. runs the operator below autograd when grad mode is off;
2. (some operators) binds the arguments by name to check the ones that must not require grad
   and the condition under which the outputs are differentiable;
3. reads the differentiable inputs, and runs below autograd when none requires grad;
4. builds the graph node: one tuple of edges (the input's grad_fn or its leaf's
   AccumulateGrad), the inputs' (shape, dtype), and the saved values;
5. runs the operator below autograd (the guard of dispatcher/tls.py's BELOW_AD_GUARD);
6. gives the outputs their history (in-place: rebases it) and saves the outputs the formula
   reads.

Each step is emitted only when the entry needs it, with argument positions, defaults and
saved names written in, so the common recorder (`a + b`) is straight-line code. The source is
registered with linecache (`inspect.getsource(kernel.bind(ks))` and pdb show it); the plain
reference of the same steps, one helper call each, is `record_reference` in
layers/recorder_reference.py, and the tests check that the two build the same graph.
"""

from __future__ import annotations

import os
from typing import Any

from ..autograd._meta import AutogradMeta
from ..autograd.graph import SavedTensor, _sequence, grad_accumulator
from ..dispatcher.codegen import define, indent
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, full_after_bits
from ..dispatcher.schema import OPT_TENSOR, OPT_TENSOR_LIST, TENSOR, TENSOR_LIST
from ..dispatcher.tls import BELOW_AD_EXCLUDE, BELOW_AD_GUARD, BELOW_AD_MASK, LEAF_KERNELS
from ..dispatcher.tls import redispatch_below_ad_inplace_or_view as _below_guarded
from ..dispatcher.tls import state as _tls
from ..tensor._tensor import Tensor

__all__ = ["NO_EDGE", "make_recorder", "recorder_source"]

_AFTER_AUTOGRAD = full_after_bits(DispatchKey.AutogradOther)
_THIS_FILE = os.path.abspath(__file__)  # generated recorders are named under it
#: The edge of an input that needs no gradient (one shared object: tested by identity).
NO_EDGE = _NO_EDGE = (None, 0)


def _leaf_edge(t: Any, ag: Any) -> Any:
    """The AccumulateGrad of leaf t (cached on its AutogradMeta)."""
    acc = ag.grad_accumulator if ag is not None else None
    return acc if acc is not None else grad_accumulator(t)


def _dtype_error(t: Any) -> RuntimeError:
    # set_history's check: an output recorded in the graph must be floating point or complex.
    return RuntimeError(f"Autograd not support dtype: {t._dtype._short}")


def _save_list(v: Any) -> Any:
    return [SavedTensor(t) for t in v] if v and hasattr(v[0], "_key_set") else v


def _arg_expr(kernel: Any, i: int, consts: dict[str, Any]) -> str:
    """The expression for argument i of the call (positional, keyword, or its default)."""
    name = kernel.names[i]
    default = kernel.defaults[i] if kernel.defaults[i] is not kernel.missing else None
    if default is None or isinstance(default, (bool, int, float, str)):
        d = repr(default)
    else:
        d = f"D{i}"
        consts[d] = default
    kw = f"(kwargs.get({name!r}, {d}) if kwargs else {d})"
    if kernel.kwarg_only[i]:
        return kw
    return f"(args[{i}] if n > {i} else {kw})"


def _wanted_for(kernel: Any, arg: str) -> str | None:
    """The test (on the unrolled edges e<k>) under which saved tensor `arg` is needed, or None
    when it is always saved: the entry's `self_for` (for self) or `saved_for` names the inputs
    whose formulas read it."""
    entry = kernel.entry
    readers = entry.self_for if arg == "self" else entry.saved_for.get(arg)
    if readers is None or kernel.input_index is None:
        return None
    ks = [kernel.inputs.index(n) for n in readers if n in kernel.inputs]
    if not ks:
        return None
    return " or ".join(f"e{k} is not NO_EDGE" for k in ks)


def recorder_source(kernel: Any, name: str) -> tuple[str, dict[str, Any]]:
    """The recorder's source (a `make(ks)` factory) and the constants it reads."""
    entry = kernel.entry
    consts: dict[str, Any] = {}
    lines: list[str] = []
    emit = lines.append
    emit("st = state.thread_state")
    emit("if not st.grad_enabled:")
    emit("    return below_guarded(op, below, args, kwargs)")
    emit("n = len(args)")
    values_bound = False
    if kernel.checks_values:
        emit("values = kernel._bind(args, kwargs)")
        values_bound = True
        for arg in kernel.no_grad:
            emit(f"check_no_requires_grad(values[{arg!r}], {arg!r}, op._opname)")
        if entry.condition is not None:
            emit("if not condition(values):")
            emit("    return below_guarded(op, below, args, kwargs)")
    single = kernel.input_index is not None
    if single:
        # The differentiable inputs, unrolled: s<k> the value, k<k> its key set (None: absent
        # or not a tensor), e<k> its edge.
        # One pass: s<k> the value, k<k> its key set (0: absent or not a tensor), e<k> its
        # edge (its grad_fn, or its leaf's cached AccumulateGrad, or NO_EDGE).
        n_in = len(kernel.input_index)
        for k, i in enumerate(kernel.input_index):
            emit(f"s{k} = {_arg_expr(kernel, i, consts)}")
            # (a Tensor's class test first: cheaper than getattr's call for the common input)
            key_set = f"s{k}._key_set if s{k}.__class__ is Tensor else getattr(s{k}, '_key_set', 0)"
            emit(f"k{k} = {key_set}")
            emit(f"if k{k} & RG:")
            emit(f"    ag = s{k}._autograd_meta")
            emit("    if ag is None:")
            emit(f"        e{k} = (grad_accumulator(s{k}), 0)")
            emit("    elif ag.grad_fn is not None:")
            emit(f"        e{k} = (ag.grad_fn, ag.output_nr)")
            emit("    else:  # a leaf: its (cached) AccumulateGrad")
            emit("        acc = ag.grad_accumulator")
            emit(f"        e{k} = (acc if acc is not None else grad_accumulator(s{k}), 0)")
            emit("else:")
            emit(f"    e{k} = NO_EDGE")
        test = " and ".join(f"e{k} is NO_EDGE" for k in range(n_in))
        emit(f"if {test}:")
        emit("    return below_guarded(op, below, args, kwargs)")
        edges = "(" + "".join(f"e{k}, " for k in range(n_in)) + ")"
        # (a tuple: the engine and validate_outputs only read it, and a tuple is built in one
        # allocation where a list takes two)
        meta = (
            "("
            + "".join(f"(s{k}._data.shape, s{k}._dtype) if k{k} else None, " for k in range(n_in))
            + ")"
        )
    else:
        # Tensor-list inputs (cat, stack, ...): flattened from the bound arguments.
        if not values_bound:
            emit("values = kernel._bind(args, kwargs)")
            values_bound = True
        emit("flat = kernel._flat_inputs(values)")
        emit("if not any(getattr(t, '_key_set', 0) & RG for t in flat):")
        emit("    return below_guarded(op, below, args, kwargs)")
        emit("edges = tuple(edge_of(t) for t in flat)")
        edges = "edges"
        meta = "[(t._data.shape, t._dtype) if hasattr(t, '_key_set') else None for t in flat]"
    if (kernel.needs_values or kernel.inplace) and not values_bound:
        emit("values = kernel._bind(args, kwargs)")
        values_bound = True
    if kernel.inplace:
        emit("kernel._check_inplace(values)")
    emit("node = new_node(node_class)")
    emit(f"node.next_edges = {edges}")
    emit("node.sequence_nr = next_sequence()")
    emit(f"node.input_metadata = {meta}")
    items = []
    # _save_tensor inline (one frame less per saved input) where that keeps the order in which
    # tensors are saved (saved_tensors_hooks see it): no in-place self, no tensor list
    inline = not kernel.inplace and all(
        kernel.kinds[i] not in (TENSOR_LIST, OPT_TENSOR_LIST) for _a, i, _d in kernel.save_args
    )
    for arg, i, _default in kernel.save_args:
        kind = kernel.kinds[i]
        v = _arg_expr(kernel, i, consts)
        if kernel.inplace and i == 0:
            items.append(f"{arg!r}: kernel._save_self({v}, node.next_edges)")
        elif kind in (TENSOR, OPT_TENSOR) and inline:
            emit(f"v = {v}")
            save = f"saved_{arg} = SavedTensor(v) if hasattr(v, '_key_set') else v"
            wanted = _wanted_for(kernel, arg)
            if wanted is not None:
                # As PyTorch's should_compute_output test: `self` is kept only when an input
                # whose formula reads it needs a gradient (mul saves self for other's).
                emit(f"if {wanted}:")
                emit("    " + save)
                emit("else:")
                emit(f"    saved_{arg} = None")
            else:
                emit(save)
            items.append(f"{arg!r}: saved_{arg}")
        elif kind in (TENSOR, OPT_TENSOR):
            wanted = _wanted_for(kernel, arg)
            save = f"save_tensor({v})"
            if wanted is not None:
                save = f"({save} if {wanted} else None)"
            items.append(f"{arg!r}: {save}")
        elif kind in (TENSOR_LIST, OPT_TENSOR_LIST):
            items.append(f"{arg!r}: save_list({v})")
        else:
            items.append(f"{arg!r}: {v}")
    saved_dict = "{" + ", ".join(items) + "}"
    plain = [
        kernel.kinds[i] not in (TENSOR, OPT_TENSOR, TENSOR_LIST, OPT_TENSOR_LIST)
        for _a, i, _d in kernel.save_args
    ]
    if (
        kernel.save_args
        and all(plain)
        and all(kernel.kwarg_only[i] for _a, i, _d in kernel.save_args)
        and not (kernel.inplace or entry.save_computed or kernel.save_results)
        and all(
            isinstance(d, (bool, int, float, str, type(None))) for _a, _i, d in kernel.save_args
        )
    ):
        # Only keyword-only plain values saved (add's alpha): without keywords they are the
        # defaults, and every such node shares one dict of them (nothing writes into a
        # node's `saved` after the recorder; FormulaNode.apply copies what it reads).
        consts["SAVED_DEFAULTS"] = {a: d for a, _i, d in kernel.save_args}
        emit(f"node.saved = saved = {saved_dict} if kwargs else SAVED_DEFAULTS")
    else:
        emit("node.saved = saved = " + saved_dict)
    if entry.save_computed:
        emit("for key, compute in computed:")
        emit("    saved[key] = compute(values)")
    emit("fn = rcache.get(below)")
    emit("if fn is None:")
    emit("    fn = resolve(below, False)")
    emit("if fn in LEAF:  # calls no operator: the guard would be unobservable")
    emit("    out = fn(*args, **kwargs) if kwargs else fn(*args)")
    emit("else:")
    lines.extend(indent(BELOW_AD_GUARD.format(call="fn(*args, **kwargs)"), 4).splitlines())
    if kernel.inplace:
        emit("outs = out if out.__class__ is tuple or out.__class__ is list else (out,)")
        emit("rebase_history(outs[0], node)")
    elif entry.differentiable_outputs == frozenset({0}) and entry.n_outputs == 1:
        emit("t = out[0] if out.__class__ is tuple or out.__class__ is list else out")
        if kernel.save_results:
            emit("outs = (t,)")
        emit("if t._dtype.category < 2:")
        emit("    raise dtype_error(t)")
        emit("ag = t._autograd_meta")
        emit("if ag is None:  # a fresh meta: output_nr is its class default, 0")
        emit("    t._autograd_meta = ag = new_meta()")
        emit("    ag.grad_fn = node")
        emit("else:")
        emit("    ag.grad_fn = node")
        emit("    ag.output_nr = 0")
        emit("t._key_set |= RG")
    else:
        emit("outs = out if out.__class__ is tuple or out.__class__ is list else (out,)")
        emit("for i, t in enumerate(outs):")
        emit("    if i in diff_outputs and hasattr(t, '_key_set'):")
        emit("        if t._dtype.category < 2:")
        emit("            raise dtype_error(t)")
        emit("        ag = t._autograd_meta")
        emit("        if ag is None:")
        emit("            t._autograd_meta = ag = new_meta()")
        emit("        ag.grad_fn = node")
        emit("        ag.output_nr = i")
        emit("        t._key_set |= RG")
    for arg, k in kernel.save_results:
        emit(f"saved[{arg!r}] = SavedTensor(outs[{k}], True, {k}, st)")
    emit("return out")
    body = "".join("        " + line + "\n" for line in lines)
    src = (
        f"# Generated by keyroute/layers/recorder.py (recorder_source) for {kernel.op}: the\n"
        f"# graph record of {entry.node_name}. Reference: record_reference in the same module.\n"
        "def make(ks):\n"
        "    below = ks & AFTER_AUTOGRAD\n"
        f"    def {name}(*args, **kwargs):\n" + body + f"    return {name}\n"
    )
    return src, consts


def _save_tensor(v: Any) -> Any:
    return SavedTensor(v) if hasattr(v, "_key_set") else v


def _edge_of(t: Any) -> Any:
    if getattr(t, "_key_set", 0) & REQUIRES_GRAD_BIT:
        ag = t._autograd_meta
        if ag is not None and ag.grad_fn is not None:
            return (ag.grad_fn, ag.output_nr)
        return (_leaf_edge(t, ag), 0)
    return _NO_EDGE


def make_recorder(kernel: Any, ks: int, helpers: dict[str, Any]) -> Any:
    """The recorder of `kernel` for key set ks (its `make` factory is compiled once).
    `helpers`: the autograd layer's rebase_history and check_no_requires_grad."""
    make = kernel.__dict__.get("_make_recorder")
    if make is None:
        op = kernel.op
        name = "".join(c if c.isalnum() else "_" for c in kernel.entry.node_name) + "_record"
        src, consts = recorder_source(kernel, name)
        namespace: dict[str, Any] = {
            "state": _tls,
            "op": op,
            "kernel": kernel,
            "rcache": op._rcache,
            "resolve": op._resolve,
            "below_guarded": _below_guarded,
            "AFTER_AUTOGRAD": _AFTER_AUTOGRAD,
            "RG": REQUIRES_GRAD_BIT,
            "NO_EDGE": _NO_EDGE,
            "LEAF": LEAF_KERNELS,
            "BELOW_AD_EXCLUDE": BELOW_AD_EXCLUDE,
            "BELOW_AD_MASK": BELOW_AD_MASK,
            "new_node": object.__new__,
            "node_class": kernel.node_class,
            "new_meta": AutogradMeta,
            "next_sequence": _sequence.__next__,
            "grad_accumulator": grad_accumulator,
            "edge_of": _edge_of,
            "save_tensor": _save_tensor,
            "save_list": _save_list,
            "SavedTensor": SavedTensor,
            "Tensor": Tensor,
            "dtype_error": _dtype_error,
            **helpers,
            "condition": kernel.entry.condition,
            "computed": tuple(kernel.entry.save_computed.items()),
            "diff_outputs": kernel.entry.differentiable_outputs,
            **consts,
        }
        make = define(src, str(op), namespace, "make", template_file=_THIS_FILE)
        kernel.__dict__["_make_recorder"] = make
    return make(ks)
