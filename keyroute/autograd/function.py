"""Custom autograd functions: `keyroute.autograd.Function` (torch.autograd.Function).

    class Exp(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    Exp.apply(x)

`forward` runs with grad mode off; its outputs get a `<Name>Backward` node that calls
`backward`. `ctx.mark_dirty` (inputs changed in place), `ctx.mark_non_differentiable`,
`ctx.needs_input_grad`, `ctx.set_materialize_grads`, `setup_context`, `once_differentiable`.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..dispatcher.tls import state as _tls
from ..tensor._tensor import Tensor
from .graph import Node, SavedTensor, collect_next_edges, set_history

__all__ = ["Function", "FunctionCtx", "once_differentiable", "BackwardCFunction"]


class FunctionCtx:
    """The `ctx` of a custom Function's forward/backward."""

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        self._saved_for_forward = tensors

    def mark_dirty(self, *tensors: Tensor) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The node of one Function.apply call: it is also that call's ctx (as in PyTorch)."""

    _forward_cls: type[Function]

    def __init__(self, next_edges: tuple[tuple[Node | None, int], ...]) -> None:
        Node.__init__(self, next_edges)
        self._to_save: tuple[Any, ...] = ()
        self._saved: list[SavedTensor | None] = []
        self._dirty: tuple[Tensor, ...] = ()
        self._non_differentiable: tuple[Tensor, ...] = ()
        self._materialize_grads = True
        self.needs_input_grad: tuple[bool, ...] = ()
        self._output_shapes: list[Any] = []
        self.input_metadata: list[Any] = []

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        return tuple(s.unpack(self) if s is not None else None for s in self._saved)

    saved_variables = saved_tensors

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        from .._ops import ops

        grads = list(grads) + [None] * (len(self._output_shapes) - len(grads))
        if self._materialize_grads:
            grads = [
                g
                if g is not None or meta is None
                else ops.aten.zeros.default(list(meta[0]), dtype=meta[1], device=meta[2])
                for g, meta in zip(grads, self._output_shapes)
            ]
        result = self._forward_cls.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n = len(self.next_edges)
        if len(result) != n:
            if len(result) > n and all(r is None for r in result[n:]):
                result = result[:n]
            else:
                raise RuntimeError(
                    f"function {self.name()} returned an incorrect number of gradients "
                    f"(expected {n}, got {len(result)})"
                )
        for r in result:
            if r is not None and not hasattr(r, "_key_set"):  # PyTorch's THPFunction check
                raise RuntimeError(f"expected Variable or None (got {type(r).__name__})")
        return result

    def release_variables(self) -> None:
        for s in self._saved:
            if s is not None:
                s.free()


class _FunctionMeta(type):
    def __init__(cls, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> None:
        backward_cls = type(
            name + "Backward",
            (BackwardCFunction,),
            {"_forward_cls": cls, "_name": name + "Backward"},
        )
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


class Function(metaclass=_FunctionMeta):
    """Base class of custom differentiable operations (torch.autograd.Function)."""

    _backward_cls: type[BackwardCFunction]

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    #: Under vmap, run the forward on the batched tensors (its operators meet the batching
    #: rules) instead of a `vmap` staticmethod (torch.autograd.Function.generate_vmap_rule).
    generate_vmap_rule = False
    #: keyroute's own Functions (batching rules' helpers) stay on the plain path under transforms.
    _functorch_transparent = False

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    @staticmethod
    def vmap(info: Any, in_dims: Any, *args: Any) -> Any:
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod "
            "or set generate_vmap_rule=True."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        return _NO_SETUP

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        if not cls._functorch_transparent and TRANSFORM_CALL and _transforms_active():
            return TRANSFORM_CALL[0](cls, args, kwargs)
        tensors = [a for a in args if isinstance(a, Tensor)]
        needs = tuple(isinstance(a, Tensor) and bool(a._key_set & REQUIRES_GRAD_BIT) for a in args)
        differentiable = _tls.thread_state.grad_enabled and any(needs)
        node = cls._backward_cls(
            collect_next_edges(*[a if isinstance(a, Tensor) else None for a in args])
        )
        node.needs_input_grad = needs
        node.input_metadata = [
            (tuple(a._data.shape), a._dtype) if isinstance(a, Tensor) else None for a in args
        ]
        custom_setup = cls.setup_context is not Function.setup_context
        prev = _tls.thread_state.grad_enabled
        _tls.thread_state.grad_enabled = False
        _tls.thread_state.refresh()
        try:
            if custom_setup:
                outputs = cls.forward(*args, **kwargs)
                cls.setup_context(node, args, outputs)
            else:
                outputs = cls.forward(node, *args, **kwargs)
        finally:
            _tls.thread_state.grad_enabled = prev
            _tls.thread_state.refresh()
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        if differentiable:
            outs = _wrap_outputs(node, args, outs)
        node._saved = [
            SavedTensor(t, is_output=any(t is o for o in outs)) if isinstance(t, Tensor) else None
            for t in node._to_save
        ]
        del tensors
        return outs[0] if single else outs


_NO_SETUP = object()


#: How Function.apply runs while a transform is active; keyroute._functorch.autograd_function
#: installs it on import (importing it from here would be an import circle).
TRANSFORM_CALL: list[Callable[..., Any]] = []


class _Pull(threading.local):
    depth = 0


_PULL = _Pull()


@contextlib.contextmanager
def forward_pull() -> Iterator[None]:
    """The pullback pass of keyroute's double-vjp forward mode (jvp, forward_ad): a Function's
    node pulls back through its own jvp there (keyroute._functorch.autograd_function)."""
    _PULL.depth += 1
    try:
        yield
    finally:
        _PULL.depth -= 1


def in_forward_pull() -> bool:
    return _PULL.depth > 0


def _transforms_active() -> bool:
    """A torch.func level or a forward-AD level is active (their modules load lazily, so an
    unloaded one is inactive: nothing is imported here)."""
    ft = sys.modules.get("keyroute.layers.functorch")
    if ft is not None and ft._local.stack:
        return True
    fa = sys.modules.get("keyroute.autograd.forward_ad")
    return fa is not None and bool(fa._LEVELS)


def _wrap_outputs(
    node: BackwardCFunction, args: tuple[Any, ...], outs: tuple[Any, ...]
) -> tuple[Any, ...]:
    from .._ops import ops

    dirty = {id(t) for t in node._dirty}
    non_diff = {id(t) for t in node._non_differentiable}
    result = []
    shapes = []
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            result.append(o)
            shapes.append(None)
            continue
        shapes.append((tuple(o._data.shape), o._dtype, o.device))
        is_input = any(o is a for a in args if isinstance(a, Tensor))
        if is_input and id(o) not in dirty:
            # Returning an input unchanged: give back a view so its history is not overwritten.
            o = ops.aten.alias.default(o)
        if id(o) in non_diff or o._dtype.category < 2:
            result.append(o)
            continue
        if id(o) in dirty:
            ag = o._autograd_meta
            if (
                o._key_set & REQUIRES_GRAD_BIT
                and (ag is None or ag.grad_fn is None)
                and o._base is None
            ):
                raise RuntimeError(
                    "a leaf Variable that requires grad has been used in an in-place operation."
                )
        set_history(o, node, i)
        result.append(o)
    node._output_shapes = shapes
    return tuple(result)


def once_differentiable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a backward as not differentiable twice: it runs with grad mode off, and a second
    differentiation raises."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        from .grad_mode import no_grad

        with no_grad():
            outputs = fn(ctx, *args)
        if not _tls.thread_state.grad_enabled:
            return outputs
        requires = any(isinstance(a, Tensor) and a.requires_grad for a in args)
        if not requires:
            return outputs
        tup = outputs if isinstance(outputs, tuple) else (outputs,)
        err = _DelayedError(
            "trying to differentiate twice a function that was marked with @once_differentiable",
            len(tup),
        )
        wrapped = err.apply(*tup)
        return wrapped if isinstance(outputs, tuple) else wrapped[0]

    return wrapper


class _DelayedErrorNode(Node):
    _name = "DelayedError"

    def __init__(self, msg: str, edges: Any) -> None:
        super().__init__(edges)
        self.msg = msg

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        raise RuntimeError(self.msg)


class _DelayedError:
    def __init__(self, msg: str, n: int) -> None:
        self.msg = msg
        self.n = n

    def apply(self, *tensors: Any) -> tuple[Any, ...]:
        from .._ops import ops

        node = _DelayedErrorNode(self.msg, collect_next_edges(*tensors))
        out = []
        for i, t in enumerate(tensors):
            if isinstance(t, Tensor) and t._dtype.category >= 2:
                a = ops.aten.alias.default(t.detach())
                set_history(a, node, i)
                out.append(a)
            else:
                out.append(t)
        return tuple(out)
