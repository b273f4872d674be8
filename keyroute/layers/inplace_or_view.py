"""The ADInplaceOrView layer: version counters for in-place ops, base tracking for views.

Every operator whose schema writes an argument (`Tensor(a!)`) gets a kernel that runs the op
below this layer and then bumps the version of each written tensor; every view operator (a
return aliasing an input without a write) gets a kernel that marks its outputs as views of the
input's base, sharing its version counter. Other operators fall through. Kernels are derived
from schemas, so custom operators get them too (`register_for`).
"""

from __future__ import annotations

from typing import Any

from ..autograd._meta import INFERENCE_VERSION, autograd_meta, bump_version, version_counter
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import INFERENCE_BIT, DispatchKeySet, full_after_bits
from ..dispatcher.operator import OpOverload
from ..dispatcher.registration import Library
from ..dispatcher.tls import redispatch_below_ad_inplace_or_view
from ..dispatcher.tls import state as _tls
from ..tensor._tensor import Tensor

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
    return redispatch_below_ad_inplace_or_view(op, ks.repr_ & _AFTER, args, kwargs)


def _tensors(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return [v for v in value if hasattr(v, "_key_set")]
    return [value] if hasattr(value, "_key_set") else []


def as_view(base: Any, view: Any, multi_output: bool = False) -> None:
    """Record that `view` aliases `base`'s storage: shared version counter, `_base` = root."""
    root = base._base if base._base is not None else base
    view._base = root
    vc = root._version_counter
    if vc is None:
        vc = version_counter(root)
        base._version_counter = vc
    view._version_counter = vc
    state = _tls.thread_state
    inference = state.include & INFERENCE_BIT
    if multi_output or not state.grad_enabled or inference:
        meta = autograd_meta(view)
        if multi_output:
            meta.creation_meta = CreationMeta.MULTI_OUTPUT_NODE
        elif inference:
            meta.creation_meta = CreationMeta.INFERENCE_MODE
        else:
            meta.creation_meta = CreationMeta.NO_GRAD_MODE


def _inplace_kernel(op: OpOverload, written: list[tuple[int, str]]):
    def kernel(ks: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        out = redispatch_below_ad_inplace_or_view(op, ks.repr_ & _AFTER, args, kwargs)
        n = len(args)
        for i, name in written:
            value = args[i] if i < n else kwargs.get(name)
            if value.__class__ is Tensor:  # bump_version's common case, inline
                vc = value._version_counter
                if vc is not None and vc is not INFERENCE_VERSION:
                    vc.version += 1
                    continue
            for t in _tensors(value):
                bump_version(t)
        return out

    return kernel


def _view_kernel(op: OpOverload, source: int, source_name: str, multi: bool):
    def kernel(ks: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        out = redispatch_below_ad_inplace_or_view(op, ks.repr_ & _AFTER, args, kwargs)
        base = args[source] if source < len(args) else kwargs[source_name]
        if out.__class__ is Tensor:  # one plain view (t, view, select, ...): no list built
            as_view(base, out, multi)
        else:
            for t in _tensors(out):
                as_view(base, t, multi)
        return out

    return kernel


def _detach_kernel(op: OpOverload):
    # detach shares the data but is not a view (no `_base`); like PyTorch's it shares the
    # version counter, so an in-place change through it is seen by autograd's saved tensors.
    def kernel(ks: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        out = _below(ks, op, args, kwargs)
        self = args[0] if args else kwargs["self"]
        out._version_counter = version_counter(self)
        return out

    return kernel


def _is_aten_mutable_kind(schema: Any) -> bool:
    """An aten schema that writes arguments but is neither in-place (`name_`) nor out=
    (torchgen's SchemaKind.mutable)."""
    if schema.namespace != "aten" or schema.base_name.endswith("_"):
        return False
    return not any(a.is_out for a in schema.arguments)


def register_for(op: OpOverload, lib: Library | None = None) -> bool:
    """Register op's ADInplaceOrView kernel if its schema writes or views; returns whether."""
    schema = op._schema
    target = lib if lib is not None else adinplace_lib
    written = [(i, schema.arguments[i].name) for i in schema.mutated_arg_indices]
    if written and _is_aten_mutable_kind(schema):
        # PyTorch generates ADInplaceOrView kernels only for in-place and out= aten ops; an
        # aten op of the "mutable" kind (e.g. _native_batch_norm_legit writing its running
        # stats) leaves the version counters alone, so backward may read what it saved.
        written = []
    if written:
        target.impl(op, _inplace_kernel(op, written), "ADInplaceOrView", with_keyset=True)
        return True
    if op.qualified_name() == "aten::detach":
        target.impl(op, _detach_kernel(op), "ADInplaceOrView", with_keyset=True)
        return True
    sources = [i for i in schema.aliased_returns if i is not None]
    if sources:
        i = sources[0]
        multi = len(schema.returns) > 1 or str(schema.returns[0].type).startswith("List")
        kernel = _view_kernel(op, i, schema.arguments[i].name, multi)
        target.impl(op, kernel, "ADInplaceOrView", with_keyset=True)
        return True
    return False
