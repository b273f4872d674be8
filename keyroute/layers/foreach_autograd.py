"""Autograd kernels of the `_foreach_*` operators and the fused optimizer operators, as
PyTorch's codegen makes them (torchgen's gen_foreach_derivativeinfo and gen_variable_type):

- an out-of-place `_foreach_<op>` with a derivative records ONE node for the whole list
  (PyTorch's `Foreach<Op>Backward<N><Overload>`, a C++ node Python sees as `CppFunction`): its
  edges are the list inputs flattened in argument order, its outputs the result list; the
  backward applies the per-tensor operator's formula to each element (`grads[i]`, `self[i]`,
  ...), as torchgen derives it by renaming the reference formula's arguments;
- an in-place `_foreach_<op>_` records one node PER ELEMENT: the per-tensor in-place
  operator's own node (AddBackward0, ExpBackward0, ...) with its saved values, and rebases
  each written tensor's history onto it;
- an in-place `_foreach_*_` without a derivative (copy_, the Scalar forms of maximum_/minimum_,
  the Tensor forms of addcmul_/addcdiv_) gives each written tensor that requires grad a
  NotImplemented node whose backward raises "derivative for _foreach_copy_ is not implemented";
- the fused optimizer steps (`_fused_adam_`, ...) pass through: their outputs keep whatever
  history they had (PyTorch registers no derivative and no NotImplemented node for them).

The operator itself always runs ONCE below autograd, so a dispatch mode still sees the single
`_foreach_*` call (the point of the foreach paths). `register` runs before the generic
registration (layers/autograd.register_all), which then skips these operators.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from ..autograd.derivatives import DERIVATIVES, Derivative
from ..autograd.graph import SavedTensor, set_history
from ..autograd.nodes import FormulaNode, make_node_class
from ..autograd.nodes import NotImplemented as _NotImplementedFn  # not the builtin
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, DispatchKeySet
from ..dispatcher.operator import OpOverload
from ..dispatcher.schema import OPT_TENSOR, TENSOR, TENSOR_LIST
from ..dispatcher.tls import state as _tls
from .autograd import (
    AutogradKernel,
    NonDifferentiableKernel,
    _below,
    _check_inplace,
    _dtype_error,
    _rebase_history,
)
from .recorder import NO_EDGE, _edge_of

__all__ = ["ForeachKernel", "ForeachNoFormulaKernel", "register"]

_MISSING = object()


def _is_list(a: Any) -> bool:
    return str(a.real_type).startswith("List[")


class ForeachNode(FormulaNode):
    """The one node of an out-of-place `_foreach_*` call (see the module docstring)."""

    __slots__ = ()
    # Set per node class: the element formula, whether it takes `needs`, and the layout.
    wants_needs = False

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        n, layout, listed = self.saved["#n"], self.saved["#layout"], self.saved["#listed"]
        values: dict[str, Any] = {}
        for k, v in self.saved.items():
            if k.startswith("#"):
                continue
            if isinstance(v, SavedTensor):
                values[k] = v.unpack(self)
            elif isinstance(v, list) and v and isinstance(v[0], SavedTensor):
                values[k] = [s.unpack(self) for s in v]
            else:
                values[k] = v
        edges = self.next_edges
        out: list[Any] = [None] * len(edges)
        for start, is_list in layout:
            if not is_list and edges[start][0] is not None:
                # torchgen copies a per-element gradient list into a single tensor's slot
                raise RuntimeError("inconsistent range for TensorList output")
        for i in range(n):
            g = grads[i] if i < len(grads) else None
            if g is None:
                continue
            vals = {k: (v[i] if k in listed else v) for k, v in values.items()}
            slots = [start + i if is_list else start for start, is_list in layout]
            if self.wants_needs:
                vals["needs"] = tuple(edges[s][0] is not None for s in slots)
            r = self.formula(g, **vals)
            if not isinstance(r, tuple):
                r = (r,)
            for s, gi in zip(slots, r):
                if edges[s][0] is not None:
                    out[s] = gi
        return tuple(out)


class ForeachKernel(AutogradKernel):
    """The Autograd kernel of a `_foreach_*` operator with a derivative: the per-tensor
    reference entry `ref` applied per element (one node, or one per element in place)."""

    def __init__(
        self,
        op: OpOverload,
        ref: Derivative,
        ref_args: list[tuple[str, Any, bool]],
        node_name: str,
        consts: dict[str, Any] | None = None,
        no_grad: tuple[str, ...] = (),
    ) -> None:
        schema = op._schema
        self.op = op
        self.ref = ref
        self.inplace = bool(schema.mutated_arg_indices)
        self.names = [a.name for a in schema.arguments]
        self.defaults = [
            a.default_value if a.has_default_value() else _MISSING for a in schema.arguments
        ]
        self.listed_args = {a.name for a in schema.arguments if _is_list(a)}
        # torchgen's renaming: the reference operator's arguments, position by position, are
        # the foreach operator's (a reference argument past the end keeps its default); `consts`
        # pins reference arguments the foreach operator does not have (_foreach_norm's dim).
        self.argmap: dict[str, tuple[str, Any]] = {}
        for k, (rname, rdefault, _) in enumerate(ref_args):
            if consts and rname in consts:
                self.argmap[rname] = ("const", consts[rname])
            elif k < len(schema.arguments) and not schema.arguments[k].is_out:
                self.argmap[rname] = ("arg", schema.arguments[k].name)
            else:
                self.argmap[rname] = ("const", rdefault)
        ref_inputs = (
            ref.inputs if ref.inputs is not None else tuple(n for n, _, is_t in ref_args if is_t)
        )
        self.ref_inputs = ref_inputs
        self.input_args = tuple(self.argmap[n][1] for n in ref_inputs)
        self.wants_needs = "needs" in inspect.signature(ref.formula).parameters
        # What kernel_kind and tools read: PyTorch's node name, the arguments torchgen lists as
        # without derivative (for the in-place lerp_ its reference's names do not match; PyTorch
        # checks nothing), one list output (out-of-place) or none (in place).
        self.entry = Derivative(
            op._opname,
            node_name,
            ref.formula,
            ref.save,
            ref_inputs,
            1,
            frozenset() if self.inplace else frozenset({0}),
            no_grad=no_grad,
        )
        if self.inplace:
            self.node_class = make_node_class(ref.node_name, ref.formula, ref.n_outputs)
        else:
            self.node_class = type(
                # PyTorch's generated foreach nodes have no Python class of their own (C++
                # nodes show as CppFunction); those with a derivatives.yaml entry have one
                node_name if node_name in _OWN_ENTRIES else "CppFunction",
                (ForeachNode,),
                {
                    "_name": node_name,
                    "formula": staticmethod(ref.formula),
                    "wants_needs": self.wants_needs,
                    "__slots__": (),
                },
            )

    def passthrough(self, ks: int) -> int | None:
        return AutogradKernel.passthrough(self, ks)

    def bind(self, ks: int) -> Any:
        # (not AutogradKernel's generated recorder: these kernels record by hand)
        return functools.partial(self, DispatchKeySet.from_raw(ks))

    def _values(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        values = {}
        for i, name in enumerate(self.names):
            if i < len(args):
                values[name] = args[i]
            elif name in kwargs:
                values[name] = kwargs[name]
            else:
                d = self.defaults[i]
                values[name] = None if d is _MISSING else d
        return values

    def _ref_value(self, values: dict[str, Any], ref_name: str, i: int | None) -> Any:
        kind, v = self.argmap[ref_name]
        if kind == "const":
            return v
        x = values[v]
        return x[i] if i is not None and v in self.listed_args else x

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        ks = keyset.repr_
        if not _tls.thread_state.grad_enabled:
            return _below(self.op, ks, args, kwargs)
        values = self._values(args, kwargs)
        n = len(values["self"])
        if self.inplace:
            return self._inplace(ks, args, kwargs, values, n)
        return self._outplace(ks, args, kwargs, values, n)

    def _outplace(self, ks: int, args: Any, kwargs: Any, values: dict[str, Any], n: int) -> Any:
        edges: list[Any] = []
        meta: list[Any] = []
        layout: list[tuple[int, bool]] = []
        for name in self.input_args:
            v = values[name]
            items = list(v) if name in self.listed_args else [v]
            layout.append((len(edges), name in self.listed_args))
            for t in items:
                edges.append(_edge_of(t))
                meta.append((t._data.shape, t._dtype) if hasattr(t, "_key_set") else None)
        if all(e is NO_EDGE for e in edges):
            return _below(self.op, ks, args, kwargs)
        node = self.node_class(tuple(edges))
        node.input_metadata = meta
        saved: dict[str, Any] = {"#n": n, "#layout": tuple(layout)}
        listed = set()
        for name in self.ref.save:
            if name == "result":
                listed.add(name)
                continue
            kind, fname = self.argmap[name]
            v = fname if kind == "const" else values[fname]
            if kind == "arg" and fname in self.listed_args:
                listed.add(name)
                v = [SavedTensor(x) if hasattr(x, "_key_set") else x for x in v]
            elif hasattr(v, "_key_set"):
                v = SavedTensor(v)
            saved[name] = v
        saved["#listed"] = frozenset(listed)
        node.saved = saved
        out = _below(self.op, ks, args, kwargs)
        for i, t in enumerate(out):
            if t._dtype.category < 2:
                raise _dtype_error(t)
            set_history(t, node, i)
        if "result" in self.ref.save:
            st = _tls.thread_state
            saved["result"] = [SavedTensor(t, True, i, st) for i, t in enumerate(out)]
        return out

    def _inplace(self, ks: int, args: Any, kwargs: Any, values: dict[str, Any], n: int) -> Any:
        selves = values["self"]
        for t in selves:
            _check_inplace(t, self.op)
        nodes: list[Any] = [None] * n
        ref = self.ref
        for i in range(n):
            tensors = [self._ref_value(values, r, i) for r in self.ref_inputs]
            edges = tuple(_edge_of(t) for t in tensors)
            if all(e is NO_EDGE for e in edges):
                continue
            node = self.node_class(edges)
            node.input_metadata = [
                (t._data.shape, t._dtype) if hasattr(t, "_key_set") else None for t in tensors
            ]
            saved = {}
            for name in ref.save:
                if name == "result":
                    continue
                v = self._ref_value(values, name, i)
                if name == "self":
                    # the old value of self (a clone), only when a formula reading it can run
                    need = ref.self_for is None or any(
                        edges[self.ref_inputs.index(r)] is not NO_EDGE for r in ref.self_for
                    )
                    saved[name] = self._save_self(v, edges) if need else None
                else:
                    saved[name] = SavedTensor(v) if hasattr(v, "_key_set") else v
            for key, compute in ref.save_computed.items():
                saved[key] = compute({r: self._ref_value(values, r, i) for r in self.argmap})
            node.saved = saved
            nodes[i] = node
        if not any(nd is not None for nd in nodes):
            return _below(self.op, ks, args, kwargs)
        out = _below(self.op, ks, args, kwargs)
        st = _tls.thread_state
        for t, node in zip(selves, nodes):
            if node is None:
                continue
            _rebase_history(t, node)
            if "result" in ref.save:
                node.saved["result"] = SavedTensor(t, True, 0, st)
        return out

    def _save_self(self, v: Any, edges: tuple[Any, ...]) -> Any:
        from .autograd import _clone_for_save

        return SavedTensor(_clone_for_save(v)) if hasattr(v, "_key_set") else v


class ForeachNoFormulaKernel(NonDifferentiableKernel):
    """An in-place `_foreach_*_` without a derivative (see the module docstring). torchgen's
    table calls its kernel a passthrough (an Autograd kernel of the codegen that is not the
    boxed NotImplemented fallback), hence the base class; what it records is a NotImplemented
    node per written tensor, with edges to that tensor and to every tensor of the other
    arguments."""

    def passthrough(self, ks: int) -> int | None:
        from .autograd import _AFTER_AUTOGRAD

        return ks & _AFTER_AUTOGRAD if not ks & REQUIRES_GRAD_BIT else None

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        ks = keyset.repr_
        if not _tls.thread_state.grad_enabled:
            return _below(self.op, ks, args, kwargs)
        schema = self.op._schema
        names = [a.name for a in schema.arguments]
        values = {**dict(zip(names, args)), **kwargs}
        selves = values["self"]
        others: list[Any] = []
        for a in schema.arguments[1:]:
            v = values.get(a.name)
            if a.kind == TENSOR_LIST and v is not None:
                others.extend(v)
            elif hasattr(v, "_key_set"):
                others.append(v)
        other_edges = tuple(_edge_of(t) for t in others)
        for t in selves:
            _check_inplace(t, self.op)
        nodes = []
        for t in selves:
            edges = (_edge_of(t), *other_edges)
            if all(e is NO_EDGE for e in edges):
                nodes.append(None)
                continue
            node = _NotImplementedFn(edges, self.op._opname)
            node.input_metadata = [(x._data.shape, x._dtype) for x in (t, *others)]
            nodes.append(node)
        out = _below(self.op, ks, args, kwargs)
        for t, node in zip(selves, nodes):
            if node is not None:
                _rebase_history(t, node)
        return out


# -- the table -------------------------------------------------------------------------------

_BINARY_REFS = {"List": "Tensor", "Tensor": "Tensor", "Scalar": "Scalar", "ScalarList": "Scalar"}
# PyTorch's node names of the out-of-place forms (torchgen: Foreach + the reference node's
# name + the overload; div.List and norm have derivatives.yaml entries of their own).
_BINARY_NODES = {
    ("add", "List"): "ForeachAddBackward0List",
    ("add", "Scalar"): "ForeachAddBackward1Scalar",
    ("add", "ScalarList"): "ForeachAddBackward1ScalarList",
    ("add", "Tensor"): "ForeachAddBackward0Tensor",
    ("sub", "List"): "ForeachSubBackward0List",
    ("sub", "Scalar"): "ForeachSubBackward1Scalar",
    ("sub", "ScalarList"): "ForeachSubBackward1ScalarList",
    ("mul", "List"): "ForeachMulBackward0List",
    ("mul", "Scalar"): "ForeachMulBackward1Scalar",
    ("mul", "ScalarList"): "ForeachMulBackward1ScalarList",
    ("mul", "Tensor"): "ForeachMulBackward0Tensor",
    ("div", "List"): "ForeachDivBackward0",
    ("div", "Scalar"): "ForeachDivBackward1Scalar",
    ("div", "ScalarList"): "ForeachDivBackward1ScalarList",
    ("div", "Tensor"): "ForeachDivBackward0Tensor",
}


def _extremum_formula(name: str) -> Any:
    """derivatives.yaml's _foreach_maximum/minimum.Scalar(List): half the gradient where self
    equals the scalar, none where the scalar wins."""
    from .._ops import ops

    aten = ops.aten
    loses = aten.lt.Scalar if name == "maximum" else aten.gt.Scalar

    def formula(grad: Any, self: Any, other: Any) -> Any:
        half = aten.where.self(aten.eq.Scalar(self, other), aten.div.Scalar(grad, 2), grad)
        return aten.masked_fill_.Scalar(half, loses(self, other), 0)

    return formula


def _specs() -> list[tuple[str, str, str, dict[str, Any] | None, tuple[str, ...]]]:
    """(foreach "name.overload", reference entry, node name, pinned reference args, no_grad)."""
    specs: list[tuple[str, str, str, dict[str, Any] | None, tuple[str, ...]]] = []
    for (name, ov), node in _BINARY_NODES.items():
        ref = f"{name}.{_BINARY_REFS[ov]}"
        specs.append((f"_foreach_{name}.{ov}", ref, node, None, ()))
        specs.append((f"_foreach_{name}_.{ov}", ref, DERIVATIVES[ref].node_name, None, ()))
    for name in ("maximum", "minimum"):
        cap = name.capitalize()
        specs.append((f"_foreach_{name}.List", name, f"Foreach{cap}Backward0List", None, ()))
        specs.append((f"_foreach_{name}_.List", name, f"{cap}Backward0", None, ()))
        specs.append((f"_foreach_{name}.Scalar", f"#{name}", f"Foreach{cap}Backward0", None, ()))
        specs.append(
            (f"_foreach_{name}.ScalarList", f"#{name}", f"Foreach{cap}Backward1", None, ())
        )
    for name in ("abs", "exp", "log", "neg", "reciprocal", "sigmoid", "sign", "sqrt", "tanh"):
        node = DERIVATIVES[name].node_name
        specs.append((f"_foreach_{name}.default", name, f"Foreach{node}", None, ()))
        specs.append((f"_foreach_{name}_.default", name, node, None, ()))
    for name in ("addcmul", "addcdiv"):
        cap = name.capitalize()
        for ov in ("Scalar", "ScalarList"):
            specs.append((f"_foreach_{name}.{ov}", name, f"Foreach{cap}Backward0{ov}", None, ()))
            specs.append((f"_foreach_{name}_.{ov}", name, f"{cap}Backward0", None, ()))
    for ov, ref, n in (
        ("List", "lerp.Tensor", "1"),
        ("Scalar", "lerp.Scalar", "0"),
        ("ScalarList", "lerp.Scalar", "0"),
    ):
        specs.append((f"_foreach_lerp.{ov}", ref, f"ForeachLerpBackward{n}{ov}", None, ()))
        no_grad = ("tensors1", "weights") if ov == "List" else ("tensors1",)
        specs.append((f"_foreach_lerp_.{ov}", ref, f"LerpBackward{n}", None, no_grad))
    specs.append(("_foreach_zero_.default", "zero_", "ZeroBackward0", None, ()))
    specs.append(("_foreach_clamp_max_.Scalar", "clamp_max", "ClampMaxBackward0", None, ()))
    specs.append(("_foreach_clamp_min_.Scalar", "clamp_min", "ClampMinBackward0", None, ()))
    specs.append(
        (
            "_foreach_norm.Scalar",
            "linalg_vector_norm",
            "ForeachNormBackward0",
            {"dim": None, "keepdim": False, "dtype": None},
            (),
        )
    )
    return specs


#: The out-of-place foreach nodes with a derivatives.yaml entry of their own.
_OWN_ENTRIES = frozenset(
    {
        "ForeachDivBackward0",
        "ForeachMaximumBackward0",
        "ForeachMaximumBackward1",
        "ForeachMinimumBackward0",
        "ForeachMinimumBackward1",
        "ForeachNormBackward0",
    }
)

#: In-place foreach operators without a derivative, and the fused optimizer steps.
_NO_FORMULA = (
    "_foreach_copy_.default",
    "_foreach_addcmul_.Tensor",
    "_foreach_addcdiv_.Tensor",
    "_foreach_maximum_.Scalar",
    "_foreach_maximum_.ScalarList",
    "_foreach_minimum_.Scalar",
    "_foreach_minimum_.ScalarList",
)
_FUSED = ("_fused_sgd_.default", "_fused_adam_.default", "_fused_adamw_.default")


def _resolve(name: str) -> OpOverload | None:
    from .._ops import ops

    base, _, overload = name.partition(".")
    packet = getattr(ops.aten, base, None)
    return None if packet is None else getattr(packet, overload or "default", None)


def _arguments(op: Any) -> list[tuple[str, Any, bool]]:
    """A reference operator's arguments: (name, default, is a tensor)."""
    return [
        (a.name, a.default_value if a.has_default_value() else None, a.kind in (TENSOR, OPT_TENSOR))
        for a in op._schema.arguments
    ]


def register(lib: Any) -> None:
    """Register these kernels on the Autograd key (before layers/autograd.register_all)."""
    for name, ref_name, node, consts, no_grad in _specs():
        op = _resolve(name)
        if op is None:
            continue
        if ref_name.startswith("#"):  # derivatives.yaml's own formula (maximum.Scalar, ...)
            base = ref_name[1:]
            ref = Derivative(base, node, _extremum_formula(base), ("self", "other"), ("self",))
            ref_args = [("self", None, True), ("other", None, False)]
        else:
            ref = DERIVATIVES[ref_name]
            ref_args = _arguments(_resolve(ref_name))
        kernel = ForeachKernel(op, ref, ref_args, node, consts, no_grad)
        lib.impl(op, kernel, "Autograd", with_keyset=True)
    for name in _NO_FORMULA:
        op = _resolve(name)
        if op is not None:
            lib.impl(op, ForeachNoFormulaKernel(op), "Autograd", with_keyset=True)
    for name in _FUSED:
        op = _resolve(name)
        if op is not None:
            lib.impl(op, NonDifferentiableKernel(op), "Autograd", with_keyset=True)
