"""Node types: formula nodes from the derivatives table, fallback and view-rebase nodes."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..tensor._tensor import Tensor as _Tensor
from .graph import Node, SavedTensor, _sequence
from .saved_names import NOT_SAVED, saved_attribute

_SavedTensor = SavedTensor

__all__ = ["FormulaNode", "NotImplemented", "NotImplementedNode", "CopySlices", "make_node_class"]


class FormulaNode(Node):
    """A node whose backward is one entry of the derivatives table.

    `saved` maps formula parameter names to SavedTensor (tensors) or plain values; `apply`
    unpacks them and calls the formula with the output gradient(s).
    """

    _name = "FormulaNode"
    formula: Callable[..., Any]
    n_outputs = 1
    wants_needs = False  # the formula takes `needs`: which inputs need a gradient
    real_formula: Callable[..., Any] | None = None  # a holomorphic formula's real-grad form

    # Slots for the four fields every recorded operator sets (a slot store is cheaper than an
    # instance-dict one); other attributes (hooks, metadata) still go to the instance dict.
    __slots__ = ("next_edges", "sequence_nr", "saved", "input_metadata")

    def __init__(self, next_edges: tuple[tuple[Node | None, int], ...]) -> None:
        # Node.__init__, inlined (one node per recorded operator).
        self.next_edges = next_edges
        self.sequence_nr = next(_sequence)
        self.saved: dict[str, Any] = {}
        self.input_metadata: list[tuple[tuple[int, ...], Any] | None] = []

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        values = {}
        for k, v in self.saved.items():
            c = v.__class__
            if c is _SavedTensor:  # (the recorders save no subclass of it: the common test)
                values[k] = v.unpack(self)
            elif c is not list and isinstance(v, SavedTensor):
                values[k] = v.unpack(self)
            elif isinstance(v, list) and v and isinstance(v[0], SavedTensor):
                values[k] = [s.unpack(self) for s in v]
            else:
                values[k] = v
        formula = self.formula
        if self.n_outputs == 1:
            grad = grads[0]
            # A holomorphic entry's wrapper (derivatives/wirtinger.py) only conjugates around
            # a complex gradient: a real one goes to the formula itself.
            real = self.real_formula
            if real is not None and grad.__class__ is _Tensor and not grad._dtype.is_complex:
                formula = real
        else:
            grad = list(grads) + [None] * max(self.n_outputs - len(grads), 0)
        if self.wants_needs:
            # PyTorch's output mask (task_should_compute_output): which inputs get a gradient.
            values["needs"] = tuple([edge[0] is not None for edge in self.next_edges])
        out = formula(grad, **values)
        if not isinstance(out, tuple):
            out = (out,)
        return out

    def release_variables(self) -> None:
        for v in self.saved.values():
            if v.__class__ is _SavedTensor or isinstance(v, SavedTensor):
                v.free()
            elif isinstance(v, list):
                for s in v:
                    if isinstance(s, SavedTensor):
                        s.free()

    def _saved_dict(self) -> dict[str, Any]:
        try:
            return object.__getattribute__(self, "saved")
        except AttributeError:  # (a node built without the recorder that never saved)
            return {}

    def __getattr__(self, name: str) -> Any:
        # PyTorch exposes saved values as grad_fn._saved_<name>.
        if name.startswith("_saved_"):  # under PyTorch's names (autograd/saved_names.py)
            v = saved_attribute(self, self._saved_dict(), name[len("_saved_") :])
            if v is not NOT_SAVED:
                return v
        if name.startswith("_raw_saved_"):
            # The SavedTensor object itself (register_hooks on one saved tensor).
            v = self._saved_dict().get(name[len("_raw_saved_") :])
            if isinstance(v, SavedTensor):
                return v
        raise AttributeError(f"'{self._name}' object has no attribute '{name}'")


def make_node_class(name: str, formula: Callable[..., Any], n_outputs: int) -> type[FormulaNode]:
    wants_needs = "needs" in inspect.signature(formula).parameters
    real = getattr(formula, "real_formula", None)
    attrs = {
        "_name": name,
        "formula": staticmethod(formula),
        "n_outputs": n_outputs,
        "wants_needs": wants_needs,
        "real_formula": staticmethod(real) if real is not None else None,
        "__slots__": (),
    }
    return type(name, (FormulaNode,), attrs)


class NotImplemented(Node):  # noqa: A001 - PyTorch's node name
    """The node of an aten operator without a derivative formula (PyTorch's NotImplemented,
    from its NotImplemented kernel): a backward through it raises."""

    _name = "NotImplemented"

    def __init__(self, next_edges: tuple[tuple[Node | None, int], ...], op_name: str) -> None:
        super().__init__(next_edges)
        self.op_name = op_name  # "aten::<op>", no overload name (as PyTorch's message)
        self.input_metadata: list[tuple[tuple[int, ...], Any] | None] = []

    def name(self) -> str:
        return "torch::autograd::NotImplemented"

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        raise RuntimeError(f"derivative for {self.op_name} is not implemented")


class NotImplementedNode(Node):
    """Autograd fallback node: warns that the operator has no derivative; passes no gradient."""

    def __init__(self, op: Any, inputs: list[Any]) -> None:
        from .graph import collect_next_edges

        super().__init__(collect_next_edges(*inputs))
        self.op = op
        self._name = "NotImplemented"

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        import warnings

        warnings.warn(
            f"{self.op.qualified_name()}: an autograd kernel was not registered to the Autograd "
            f"key(s) but we are trying to backprop through it. This may lead to silently "
            f"incorrect behavior. This behavior is deprecated and will be removed in a future "
            f"version of PyTorch. If your operator is differentiable, please ensure you have "
            f"registered an autograd kernel to the correct Autograd key (e.g. "
            f"DispatchKey::Autograd, DispatchKey::CompositeImplicitAutograd). If your operator "
            f"is not differentiable, or to squash this warning and use the previous behavior, "
            f"please register torch::CppFunction::makeFallthrough() to DispatchKey::Autograd.",
            UserWarning,
            stacklevel=2,
        )
        return tuple(None for _ in self.next_edges)


class CopySlices(Node):
    """The base's node after an in-place op on one of its views (PyTorch's CopySlices).

    Backward: the base's gradient, with the view's region replaced by what the in-place op's
    node computes from that region's gradient.
    """

    _name = "CopySlices"

    def __init__(
        self,
        base_edge: tuple[Node | None, int],
        geometry: tuple[Any, ...],
        base_meta: tuple[Any, ...],
        fn: Node,
    ) -> None:
        # Edges: the base's previous history, then fn's other inputs.
        super().__init__((base_edge, *fn.next_edges[1:]))
        self.geometry = geometry  # (size, stride, storage_offset) of the view in the base
        self.base_meta = base_meta  # (size, stride, storage_offset, dtype) of the base
        self.fn = fn

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        from .._ops import ops

        aten = ops.aten
        grad = grads[0]
        size, stride, offset, _dtype = self.base_meta
        result = aten.new_empty_strided.default(grad, list(size), list(stride))
        aten.copy_.default(result, grad)
        vsize, vstride, voffset = self.geometry
        region = aten.as_strided.default(result, list(vsize), list(vstride), voffset)
        res = self.fn.apply([aten.clone.default(region, memory_format=0)])
        outs = list(res)
        if outs and outs[0] is not None:
            aten.copy_.default(region, outs[0])
        else:
            aten.zero_.default(region)
        return (result, *outs[1:])

    def release_variables(self) -> None:
        self.fn.release_variables()
