"""The autograd graph: nodes (grad_fn), edges, saved tensors, leaf accumulation.

A Node is one recorded operation: `apply(grads)` maps gradients of its outputs to gradients of
its inputs; `next_functions` are the (node, input_nr) edges to the nodes that produced those
inputs (an AccumulateGrad node for a leaf that requires grad, None for inputs that do not).
Names follow PyTorch's (`MulBackward0`, `AccumulateGrad`), so printed graphs read the same.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, key_bits
from ..dispatcher.tls import state as _tls
from ..tensor._tensor import make_tensor
from . import saved_hooks as _saved_hooks
from ._meta import INFERENCE_VERSION, AutogradMeta, autograd_meta, version_counter
from .saved_hooks import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks
from .saved_hooks import pack_with_hooks as _pack_with_hooks
from .saved_hooks import unpack_with_hooks as _unpack_with_hooks

__all__ = [
    "Node",
    "AccumulateGrad",
    "SavedTensor",
    "grad_accumulator",
    "gradient_edge",
    "set_history",
    "collect_next_edges",
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
]

_sequence = itertools.count()
UINT64_MAX = 2**64 - 1  # AccumulateGrad's sequence number (Node's for leaves)


class SavedTensor:
    """A tensor saved for backward, with the version it had (PyTorch's SavedVariable).

    An input, or an output without history (a leaf: an integer output, say), is kept as it is.
    An op's own output with history is saved as a history-free alias sharing its version
    counter (PyTorch's `tensor_data()`: no reference cycle through its grad_fn); unpacking it
    makes another alias with the node as its grad_fn (`make_variable`). Both are PyTorch's
    `shallow_copy_and_detach`, which goes to Python as an `aten.detach` call when a dispatch
    mode is active or the tensor has the Python key (a `__torch_dispatch__` subclass), and is
    invisible otherwise: keyroute dispatches `detach` only then (Note [observed detach]).
    """

    __slots__ = (
        "tensor",
        "version",
        "is_output",
        "output_nr",
        "requires_grad",
        "_freed",
        "hooks",
    )
    hooks: Any  # (unpack_hook, packed, grad_fn, data) under saved_tensors_hooks, else None

    def __init__(self, t: Any, is_output: bool = False, output_nr: int = 0, st: Any = None) -> None:
        # st: this thread's ThreadState when the caller already holds it (saves a TLS lookup).
        self._freed = False
        self.hooks = None
        self.output_nr = output_nr
        if _saved_hooks.active and t is not None and _saved_hooks.current_hooks() is not None:
            _pack_with_hooks(self, t, is_output, grad_accumulator)
            return
        if t is None:
            self.is_output = False
            self.tensor = None
            self.version = 0
            self.requires_grad = False
            return
        vc = t._version_counter
        ks = t._key_set
        if vc is INFERENCE_VERSION:  # an identity check: free on the common path
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work around "
                "this, you can make a clone to get a normal tensor and use it in autograd, or "
                "use `torch.no_grad()` instead of `torch.inference_mode()`."
            )
        if not is_output or (ag := t._autograd_meta) is None or ag.grad_fn is None:
            # PyTorch's saved_original_ (an input, or an output without history): kept as it
            # is. No counter yet means version 0; the tensor gets one (shared with any later
            # view) when first written, so a later write is still seen at unpack.
            self.is_output = False
            self.requires_grad = bool(ks & REQUIRES_GRAD_BIT)
            self.version = vc.version if vc is not None else 0
            self.tensor = t
            return
        self.is_output = True
        self.requires_grad = True
        if vc is None:
            vc = version_counter(t)
        self.version = vc.version
        self.output_nr = ag.output_nr
        if st is None:
            st = _tls.thread_state
        # Note [observed detach], inline: this runs for every saved output
        if (st.modes or ks & _PYTHON_BIT) and not st.exclude & _PYTHON_BIT:
            alias = _aten().detach.default(t)
        else:
            alias = make_tensor(t._data, t._dtype, ks & ~REQUIRES_GRAD_BIT, type(t))
        alias._version_counter = vc
        self.tensor = alias

    def unpack(self, node: Node | None = None) -> Any:
        if self._freed:
            raise RuntimeError(_FREED_MESSAGE)
        if self.hooks is not None:
            return _unpack_with_hooks(self, node)
        t = self.tensor
        if t is None:
            return None
        current = t._version_counter.version if t._version_counter is not None else 0
        if current != self.version:
            raise RuntimeError(
                _modified_message(
                    t, current, self.version, node if self.is_output else None, self.output_nr
                )
            )
        if self.is_output and node is not None:
            # make_variable: a fresh alias (never a view) with the node as its grad_fn.
            st = _tls.thread_state  # Note [observed detach]
            if (st.modes or t._key_set & _PYTHON_BIT) and not st.exclude & _PYTHON_BIT:
                out = _aten().detach.default(t)
            else:
                out = make_tensor(t._data, t._dtype, t._key_set, type(t))
            out._version_counter = t._version_counter
            set_history(out, node, self.output_nr)
            return out
        return t

    def free(self) -> None:
        self.tensor = None
        self.hooks = None
        self._freed = True

    def register_hooks(
        self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]
    ) -> None:
        """SavedTensor.register_hooks (grad_fn._raw_saved_<name>): pack what is saved now."""
        from .saved_hooks import register_hooks_on

        register_hooks_on(self, pack_hook, unpack_hook)


# Note [observed detach]: PyTorch's TensorImpl::shallow_copy_and_detach (SavedVariable's
# tensor_data() when saving an output, make_variable when unpacking it) calls the Python
# interpreter's detach, i.e. the innermost mode's (or the subclass's) __torch_dispatch__ with
# aten.detach.default, when a dispatch mode is active (and Python not excluded) or the tensor
# carries the Python key; otherwise it copies the TensorImpl in C++, which nothing can observe.
# keyroute dispatches aten.detach in exactly those cases and builds the alias directly in the
# others (every recorded operator saving its output takes that path). Either way the alias
# shares the saved tensor's version counter and has no history and no `_base`.
_PYTHON_BIT = key_bits(DispatchKey.Python)


def _aten() -> Any:
    from .._ops import ops

    return ops.aten


def _modified_message(t: Any, current: int, expected: int, node: Any, output_nr: int) -> str:
    from .engine import is_anomaly_enabled

    shape = ", ".join(str(s) for s in t._data.shape)
    produced = ""
    ag = t._autograd_meta
    grad_fn = node if node is not None else (ag.grad_fn if ag is not None else None)
    if grad_fn is not None:
        nr = output_nr if node is not None else ag.output_nr
        produced = f", which is output {nr} of {forward_op_name(grad_fn.name())},"
    if is_anomaly_enabled():
        hint = (
            "Hint: the backtrace further above shows the operation that failed to compute its "
            "gradient. The variable in question was changed in there or anywhere later. Good luck!"
        )
    else:
        hint = (
            "Hint: enable anomaly detection to find the operation that failed to compute its "
            "gradient, with keyroute.autograd.set_detect_anomaly(True, check_nan=False)."
        )
    return (
        f"one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [keyroute.{t._dtype._short}Tensor [{shape}]]{produced} is at version "
        f"{current}; expected version {expected} instead. {hint}"
    )


def forward_op_name(name: str) -> str:
    """Node::forward_op_name: the node's name without its "Backward<N>" suffix ("Backward0"
    and a bare "Backward" drop entirely, "AddBackward1" reads "Add1")."""
    pos = name.rfind("Backward")
    if pos < 0:
        return name
    suffix = name[pos + 8 :]
    if suffix and not suffix.isdigit():
        return name
    return name[:pos] + ("" if suffix in ("", "0") else suffix)


_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)


class Node:
    """A backward function in the graph (torch.autograd.graph.Node)."""

    _name = "Node"
    # Rarely set: class-level defaults keep node creation (every recorded op) to two stores.
    _pre_hooks: list[Callable[..., Any]] | None = None
    _hooks: list[Callable[..., Any]] | None = None
    _tensor_pre_hooks: dict[int, list[Callable[..., Any]]] | None = None
    _retains_grad: dict[int, Any] | None = None
    output_metadata: tuple[tuple[Any, ...], ...] = ()  # (shape, dtype, device) per output

    def __init__(self, next_edges: tuple[tuple[Node | None, int], ...] = ()) -> None:
        self.next_edges = next_edges
        self.sequence_nr = next(_sequence)

    @property
    def metadata(self) -> dict[str, Any]:
        """A dict for user data (torch.autograd.graph.Node.metadata), created on first use."""
        d = self.__dict__.get("_metadata")
        if d is None:
            d = self.__dict__["_metadata"] = {}
        return d

    # -- PyTorch's Python surface
    def name(self) -> str:
        return self._name

    def _sequence_nr(self) -> int:
        return self.sequence_nr

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        return self.next_edges

    def register_hook(self, fn: Callable[..., Any]) -> Any:
        """fn(grad_inputs, grad_outputs) after this node ran; may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return _RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn: Callable[..., Any]) -> Any:
        """fn(grad_outputs) before this node runs; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(fn)
        return _RemovableHandle(self._pre_hooks, fn)

    def _register_tensor_pre_hook(self, output_nr: int, fn: Callable[..., Any]) -> Any:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = self._tensor_pre_hooks.setdefault(output_nr, [])
        hooks.append(fn)
        return _RemovableHandle(hooks, fn)

    def __repr__(self) -> str:
        return f"<{self._name} object at {hex(id(self))}>"

    # -- to override
    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        raise NotImplementedError

    def release_variables(self) -> None:
        """Free saved tensors after backward (unless retain_graph)."""

    def __call__(self, *grads: Any) -> Any:
        out = self.apply(list(grads))
        return out[0] if len(out) == 1 else out


class _RemovableHandle:
    __slots__ = ("_list", "_fn")

    def __init__(self, lst: list[Any], fn: Any) -> None:
        self._list, self._fn = lst, fn

    def remove(self) -> None:
        if self._fn in self._list:
            self._list.remove(self._fn)


class AccumulateGrad(Node):
    """Sink for a leaf that requires grad: adds incoming gradients into `leaf.grad`."""

    _name = "AccumulateGrad"

    def __init__(self, leaf: Any) -> None:
        super().__init__(())
        # PyTorch gives AccumulateGrad the largest sequence number: the engine runs a leaf's
        # accumulation as soon as it is ready, before any other ready node.
        self.sequence_nr = UINT64_MAX
        self.variable_ref = weakref.ref(leaf)
        self._variable = leaf  # keep the leaf alive while a graph references it

    @property
    def variable(self) -> Any:
        return self._variable

    def apply(self, grads: list[Any], held: int = 0) -> tuple[Any, ...]:
        from .engine import accumulate_into_grad

        # Move the gradient out of the list (PyTorch's std::move(grads[0])): whether it can be
        # stolen depends on who else references it.
        g = grads[0] if grads else None
        if grads:
            grads[0] = None
        accumulate_into_grad(self._variable, g, held)
        return ()


def grad_accumulator(t: Any) -> AccumulateGrad:
    meta = autograd_meta(t)
    acc = meta.grad_accumulator
    if acc is None:
        acc = meta.grad_accumulator = AccumulateGrad(t)
    return acc


def gradient_edge(t: Any) -> tuple[Node | None, int]:
    """The edge through which gradient flows to t: its grad_fn, its accumulator, or none."""
    if t is None or not hasattr(t, "_key_set") or not t._key_set & REQUIRES_GRAD_BIT:
        return (None, 0)
    ag = t._autograd_meta
    if ag is not None and ag.grad_fn is not None:
        return (ag.grad_fn, ag.output_nr)
    return (grad_accumulator(t), 0)


def collect_next_edges(*tensors: Any) -> tuple[tuple[Node | None, int], ...]:
    return tuple(gradient_edge(t) for t in tensors)


def set_history(t: Any, node: Node, output_nr: int) -> None:
    """Make `t` an output of `node`: it requires grad and its grad_fn is node."""
    meta: AutogradMeta = autograd_meta(t)
    meta.grad_fn = node
    meta.output_nr = output_nr
    t._key_set |= REQUIRES_GRAD_BIT
