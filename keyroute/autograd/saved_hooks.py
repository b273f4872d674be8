"""Saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks and friends).

PyTorch keeps a thread-local stack of (pack_hook, unpack_hook) pairs; when a tensor is saved
for backward while the stack is not empty, SavedVariable calls the top pair's pack_hook with
the tensor and keeps only what it returns, and unpacking calls unpack_hook on that value. The
version check is skipped then (the hooks own the data). `disable_saved_tensors_hooks` makes
pushing a pair (and saving under one) raise the given message.

Cost: `SavedTensor` reads the module global `active` (the number of pairs pushed by all threads)
once per save; only when it is nonzero does it look at this thread's stack.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..tensor._tensor import Tensor, make_tensor
from ._meta import autograd_meta

__all__ = [
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
    "current_hooks",
]

active = 0  # pairs pushed across every thread (a cheap "anything to do?" for SavedTensor)


def pack_with_hooks(saved: Any, t: Any, is_output: bool, accumulator: Callable[[Any], Any]) -> None:
    """SavedVariable's constructor when default hooks are set: keep the metadata (output_nr,
    grad_fn unless an output, requires_grad, a leaf's accumulator) and pack_hook's result."""
    from ..autograd.grad_mode import no_grad

    pack, unpack = current_hooks()  # type: ignore[misc]
    ag = t._autograd_meta
    grad_fn = ag.grad_fn if ag is not None else None
    saved.is_output = is_output and grad_fn is not None
    saved.requires_grad = bool(t._key_set & REQUIRES_GRAD_BIT)
    saved.version = 0
    saved.tensor = None
    if ag is not None and grad_fn is not None:
        saved.output_nr = ag.output_nr
    acc = accumulator(t) if saved.requires_grad and grad_fn is None else None
    vc = t._version_counter
    before = vc.version if vc is not None else 0
    with no_grad():
        packed = pack(t)
    if (t._version_counter.version if t._version_counter is not None else 0) != before:
        raise RuntimeError(
            "A saved tensor pack hook is modifying its input in place. Tensors provided as input "
            "to pack hook can not be modified by in-place operations as this can lead to "
            "unexpected side-effects. Please open an issue if you need to perform in-place "
            "operations on the input to a pack hook."
        )
    saved.hooks = (unpack, packed, None if saved.is_output else grad_fn, acc)


def register_hooks_on(saved: Any, pack: Callable[[Any], Any], unpack: Callable[[Any], Any]) -> None:
    """SavedTensor.register_hooks: hooks for one already-saved tensor."""
    if saved._freed:
        raise RuntimeError(
            "Calling register_hooks on a saved tensor after it has been freed. Saved "
            "intermediate values of the graph are freed when you call .backward() or "
            "autograd.grad(). Specify retain_graph=True if you need to backward through the "
            "graph a second time or if you need to access saved variables after calling "
            "backward."
        )
    if saved.hooks is not None:
        raise RuntimeError(
            "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: "
            "only one pair of hooks is allowed at a time."
        )
    t = saved.tensor
    if t is None:
        return
    from ..autograd.grad_mode import no_grad

    ag = t._autograd_meta
    grad_fn = None if saved.is_output or ag is None else ag.grad_fn
    acc = ag.grad_accumulator if ag is not None and grad_fn is None else None
    with no_grad():
        packed = pack(t)
    saved.tensor = None
    saved.hooks = (unpack, packed, grad_fn, acc)


def unpack_with_hooks(saved: Any, node: Any) -> Any:
    """SavedVariable::unpack with hooks: unpack_hook(packed), checked to be a tensor, as a new
    variable with the saved grad_fn (the node itself for an output) and requires_grad."""
    unpack, packed, grad_fn, acc = saved.hooks
    data = unpack(packed)
    if not isinstance(data, Tensor):
        raise TypeError(
            "Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
            f"{type(data).__name__}"
        )
    if saved.is_output:
        grad_fn = node
    ks = data._key_set & ~REQUIRES_GRAD_BIT
    if grad_fn is not None or saved.requires_grad:
        ks |= REQUIRES_GRAD_BIT
    out = make_tensor(data._data, data._dtype, ks, type(data))
    out._version_counter = data._version_counter
    if grad_fn is not None:
        meta = autograd_meta(out)
        meta.grad_fn = grad_fn
        meta.output_nr = saved.output_nr
    elif acc is not None:
        autograd_meta(out).grad_accumulator = acc
    return out


class _State(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []
        self.disabled: str | None = None


_state = _State()


def current_hooks() -> tuple[Callable[[Any], Any], Callable[[Any], Any]] | None:
    """This thread's innermost pair, or None (PyTorch's SavedTensorDefaultHooks::get_hooks)."""
    stack = _state.stack
    if not stack:
        return None
    if _state.disabled is not None:
        raise RuntimeError(_state.disabled)
    return stack[-1]


def _push(pack: Callable[[Any], Any], unpack: Callable[[Any], Any]) -> None:
    global active
    if _state.disabled is not None:
        raise RuntimeError(_state.disabled)
    _state.stack.append((pack, unpack))
    active += 1


def _pop() -> None:
    global active
    _state.stack.pop()
    active -= 1


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Context manager: tensors saved for backward inside go through pack_hook; backward gets
    unpack_hook(packed) back."""

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        _push(self.pack_hook, self.unpack_hook)

    def __exit__(self, *args: object) -> None:
        _pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Saved tensors are moved to CPU when packed and back to their device when unpacked."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor: Any) -> tuple[Any, Any]:
            # Without pin_memory PyTorch saves tensor.cpu(): the tensor itself for a CPU tensor,
            # so a later in-place change reaches it (the version check is off under hooks).
            if not pin_memory:
                return (tensor.device, tensor.cpu())
            packed = tensor.detach().to("cpu", copy=True)
            return (tensor.device, packed)

        def unpack_from_cpu(packed: tuple[Any, Any]) -> Any:
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Inside, registering (or using) saved-tensor hooks raises RuntimeError(error_message)."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> None:
        if _state.stack:
            # PyTorch refuses to disable while hooks are in use, with the same message.
            raise RuntimeError(self.error_message)
        self._prev = _state.disabled
        _state.disabled = self.error_message

    def __exit__(self, *args: object) -> None:
        _state.disabled = self._prev

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        import functools

        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)

        return wrapped
