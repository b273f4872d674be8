"""The inference layer: inside `inference_mode`, tensors a backend kernel creates become
inference tensors (no version counter, no autograd keys), as PyTorch's InferenceMode does.

inference_mode itself (autograd/grad_mode.py) only edits the TLS key sets: the autograd keys
are excluded and ADInplaceOrView leaves the include set. What it cannot do by key sets alone,
marking fresh results, is done here by a bind hook: when a call's key set carries
INFERENCE_BIT and resolves to a dense backend kernel, that kernel is wrapped to mark its fresh
outputs. Outside inference mode the hook returns the kernel unchanged (nothing on the hot path).
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import is_dense_backend_key
from ..dispatcher.keyset import INFERENCE_BIT
from ..dispatcher.operator import BIND_HOOKS
from ..tensor._tensor import INFERENCE_DROP as _INFERENCE_DROP

__all__ = ["BIND_HOOKS"]


def _returns_fresh(op: Any) -> bool:
    schema = op._schema
    return schema is not None and all(r.alias_info is None for r in schema.returns)


def _mark_inference(value: Any, inputs: tuple[Any, ...]) -> None:
    """Make the tensors in `value` inference tensors (not the inputs a kernel handed back)."""
    from ..autograd._meta import INFERENCE_VERSION

    if isinstance(value, (list, tuple)):
        for v in value:
            _mark_inference(v, inputs)
    elif hasattr(value, "_key_set") and not any(value is i for i in inputs):
        value._key_set &= ~_INFERENCE_DROP
        value._version_counter = INFERENCE_VERSION


def _inference_hook(op: Any, ks: int, key: int, reg: Any, bound: Any) -> Any:
    """Inside inference mode, tensors a backend kernel creates are inference tensors."""
    if not ks & INFERENCE_BIT or not is_dense_backend_key(key) or not _returns_fresh(op):
        return bound

    def run(*args: Any, **kwargs: Any) -> Any:
        out = bound(*args, **kwargs)
        _mark_inference(out, args + tuple(kwargs.values()))
        return out

    return run


BIND_HOOKS.append(_inference_hook)
