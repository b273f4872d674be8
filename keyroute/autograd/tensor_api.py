"""Tensor's autograd surface: grad, grad_fn, is_leaf, backward, hooks, retain_grad, data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..tensor._tensor import Tensor, make_tensor
from ._meta import autograd_meta
from .graph import grad_accumulator


def _grad_get(self: Tensor) -> Any:
    ag = self._autograd_meta
    if ag is None:
        return None
    if ag.grad is None and ag.grad_fn is not None and not ag.retains_grad:
        import warnings

        warnings.warn(
            "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
            ".grad attribute won't be populated during autograd.backward(). If you indeed want "
            "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
            "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
            "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
            "informations.",
            UserWarning,
            stacklevel=2,
        )
    return ag.grad


def _grad_set(self: Tensor, value: Any) -> None:
    if value is not None:
        if not isinstance(value, Tensor):
            raise TypeError(
                "assigned grad expected to be a Tensor or None but got grad of type "
                f"{type(value).__name__}"
            )
        if value._dtype is not self._dtype:
            raise RuntimeError("assigned grad has data of a different type")
        if tuple(value._data.shape) != tuple(self._data.shape):
            raise RuntimeError("assigned grad has data of a different size")
        if value.device != self.device:
            raise RuntimeError("assigned grad has data located on a different device")
    autograd_meta(self).grad = value


def _grad_fn(self: Tensor) -> Any:
    ag = self._autograd_meta
    return None if ag is None else ag.grad_fn


def _is_leaf(self: Tensor) -> bool:
    ag = self._autograd_meta
    return ag is None or ag.grad_fn is None


def _output_nr(self: Tensor) -> int:
    ag = self._autograd_meta
    return 0 if ag is None else ag.output_nr


def _version(self: Tensor) -> int:
    from ._meta import INFERENCE_VERSION

    vc = self._version_counter
    if vc is INFERENCE_VERSION or (vc is None and self.is_inference()):
        raise RuntimeError("Inference tensors do not track version counter.")
    return 0 if vc is None else vc.version


def backward(
    self: Tensor,
    gradient: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Accumulate d(self)/d(leaf) into every leaf's .grad (Tensor.backward)."""
    from .engine import backward as _backward

    _backward(self, gradient, retain_graph, create_graph, inputs)


def register_hook(self: Tensor, hook: Callable[[Tensor], Any]) -> Any:
    """hook(grad) runs when this tensor's gradient is computed; it may return a new one."""
    if not self._key_set & REQUIRES_GRAD_BIT:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    ag = self._autograd_meta
    if ag is not None and ag.grad_fn is not None:
        return ag.grad_fn._register_tensor_pre_hook(ag.output_nr, hook)
    return grad_accumulator(self)._register_tensor_pre_hook(0, hook)


def register_post_accumulate_grad_hook(self: Tensor, hook: Callable[[Tensor], Any]) -> Any:
    if not self._key_set & REQUIRES_GRAD_BIT:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self._autograd_meta is not None and self._autograd_meta.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    meta = autograd_meta(self)
    if meta.post_accumulate_hooks is None:
        meta.post_accumulate_hooks = []
    meta.post_accumulate_hooks.append(hook)
    from .graph import _RemovableHandle

    return _RemovableHandle(meta.post_accumulate_hooks, hook)


def retain_grad(self: Tensor) -> None:
    """Keep .grad for this non-leaf tensor during backward."""
    if not self._key_set & REQUIRES_GRAD_BIT:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    ag = autograd_meta(self)
    if ag.grad_fn is None or ag.retains_grad:
        return
    ag.retains_grad = True
    node = ag.grad_fn
    node._retains_grad = dict(node._retains_grad or {})
    node._retains_grad[ag.output_nr] = self


def _retains_grad(self: Tensor) -> bool:
    return bool(self._autograd_meta is not None and self._autograd_meta.retains_grad)


def _data_get(self: Tensor) -> Tensor:
    """A tensor sharing storage, without autograd history (not tracked as a view)."""
    out = make_tensor(self._data, self._dtype, self._key_set & ~REQUIRES_GRAD_BIT, type(self))
    return out


def _data_set(self: Tensor, value: Tensor) -> None:
    if not isinstance(value, Tensor):
        raise TypeError("data must be a Tensor")
    self._data = value._data
    self._dtype = value._dtype
    self._key_set = (value._key_set & ~REQUIRES_GRAD_BIT) | (self._key_set & REQUIRES_GRAD_BIT)


Tensor.grad = property(_grad_get, _grad_set)  # type: ignore[attr-defined]
Tensor.grad_fn = property(_grad_fn)  # type: ignore[attr-defined]
Tensor.is_leaf = property(_is_leaf)  # type: ignore[attr-defined]
Tensor.output_nr = property(_output_nr)  # type: ignore[attr-defined]
Tensor._version = property(_version)  # type: ignore[attr-defined]
Tensor.retains_grad = property(_retains_grad)  # type: ignore[attr-defined]
Tensor.data = property(_data_get, _data_set)  # type: ignore[attr-defined]
Tensor.backward = backward  # type: ignore[attr-defined]
Tensor.register_hook = register_hook  # type: ignore[attr-defined]
Tensor.register_post_accumulate_grad_hook = register_post_accumulate_grad_hook  # type: ignore[attr-defined]
Tensor.retain_grad = retain_grad  # type: ignore[attr-defined]
