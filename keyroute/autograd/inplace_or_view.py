"""The ADInplaceOrView layer: version counters for in-place ops, base tracking for views.

Every operator whose schema writes an argument (`Tensor(a!)`) gets a kernel that runs the op
below this layer and then bumps the version of each written tensor; every view operator (a
return aliasing an input without a write) gets a kernel that marks its outputs as views of the
input's base, sharing its version counter. Other operators fall through. Kernels are derived
from schemas, so custom operators get them too (`register_for`).
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import DispatchKeySet, full_after_bits
from ..dispatcher.operator import OpOverload
from ..dispatcher.tls import AUTOGRAD_WITH_INPLACE_OR_VIEW
from ..dispatcher.tls import state as _tls
from ..library import Library
from ._meta import autograd_meta, bump_version, version_counter

__all__ = ["register_for", "as_view", "adinplace_lib", "CreationMeta"]

_AFTER = full_after_bits(DispatchKey.ADInplaceOrView)
adinplace_lib = Library._internal("_keyroute_adinplace", "FRAGMENT")


class CreationMeta:
    """How a view was made (PyTorch's CreationMeta): decides which in-place ops are allowed."""

    DEFAULT = 0
    IN_CUSTOM_FUNCTION = 1
    MULTI_OUTPUT_NODE = 2
    NO_GRAD_MODE = 3
    INFERENCE_MODE = 4


def _below(ks: DispatchKeySet, op: OpOverload, args: tuple, kwargs: dict) -> Any:
    # AutoDispatchBelowADInplaceOrView for the kernels below, restored on exit.
    state = _tls
    added = AUTOGRAD_WITH_INPLACE_OR_VIEW & ~state.exclude
    state.exclude |= added
    state.refresh()
    try:
        return op._redispatch(ks.repr_ & _AFTER, *args, **kwargs)
    finally:
        state.exclude &= ~added
        state.refresh()


def _tensors(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return [v for v in value if hasattr(v, "_ks")]
    return [value] if hasattr(value, "_ks") else []


def as_view(base: Any, view: Any, multi_output: bool = False) -> None:
    """Record that `view` aliases `base`'s storage: shared version counter, `_base` = root."""
    root = base._base if base._base is not None else base
    view._base = root
    vc = root._vc
    if vc is None:
        vc = version_counter(root)
        base._vc = vc
    view._vc = vc
    from .grad_mode import is_grad_enabled, is_inference_mode_enabled

    if multi_output or not is_grad_enabled() or is_inference_mode_enabled():
        meta = autograd_meta(view)
        if multi_output:
            meta.creation_meta = CreationMeta.MULTI_OUTPUT_NODE
        elif is_inference_mode_enabled():
            meta.creation_meta = CreationMeta.INFERENCE_MODE
        else:
            meta.creation_meta = CreationMeta.NO_GRAD_MODE


def _inplace_kernel(op: OpOverload, written: list[tuple[int, str]]):
    def kernel(ks: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        out = _below(ks, op, args, kwargs)
        n = len(args)
        for i, name in written:
            value = args[i] if i < n else kwargs.get(name)
            for t in _tensors(value):
                bump_version(t)
        return out

    return kernel


def _view_kernel(op: OpOverload, source: int, source_name: str, multi: bool):
    def kernel(ks: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        out = _below(ks, op, args, kwargs)
        base = args[source] if source < len(args) else kwargs[source_name]
        for t in _tensors(out):
            as_view(base, t, multi)
        return out

    return kernel


def register_for(op: OpOverload, lib: Library | None = None) -> bool:
    """Register op's ADInplaceOrView kernel if its schema writes or views; returns whether."""
    schema = op._schema
    written = [
        (i, a.name)
        for i, a in enumerate(schema.arguments)
        if a.alias_info is not None and a.alias_info.is_write
    ]
    target = lib if lib is not None else adinplace_lib
    if written:
        target.impl(op, _inplace_kernel(op, written), "ADInplaceOrView", with_keyset=True)
        return True
    for r in schema.returns:
        info = r.alias_info
        if info is None or info.is_write:
            continue
        for i, a in enumerate(schema.arguments):
            ai = a.alias_info
            if ai is not None and not ai.is_write and ai.before_set & info.before_set:
                multi = str(r.type).startswith("List") or len(schema.returns) > 1
                target.impl(
                    op, _view_kernel(op, i, a.name, multi), "ADInplaceOrView", with_keyset=True
                )
                return True
    return False
