"""functional_call and stack_module_state (torch.func): run a module with tensors of the
caller's in place of its parameters and buffers, and stack several models' state for the
model-ensembling pattern (vmap over the stacked parameters)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from ..tensor._tensor import Tensor

__all__ = ["functional_call", "stack_module_state"]


def _owner(module: Any, name: str) -> tuple[Any, str]:
    *path, leaf = name.split(".")
    for p in path:
        module = getattr(module, p)
    return module, leaf


@contextlib.contextmanager
def _swapped(module: Any, tensors: dict[str, Any], strict: bool) -> Iterator[None]:
    if strict:
        expected = {n for n, _ in module.named_parameters()} | {
            n for n, _ in module.named_buffers()
        }
        missing = sorted(expected - set(tensors))
        unexpected = sorted(set(tensors) - expected)
        if missing or unexpected:
            parts = []
            if unexpected:
                parts.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected) + ".")
            if missing:
                parts.append("Missing key(s): " + ", ".join(repr(k) for k in missing) + ".")
            raise RuntimeError(
                "Error(s) in reparametrizing for {}:\n\t{}".format(
                    type(module).__name__, "\n\t".join(parts)
                )
            )
    saved: list[tuple[dict[str, Any], str, Any, bool]] = []
    try:
        for name, value in tensors.items():
            owner, leaf = _owner(module, name)
            for store in ("_parameters", "_buffers"):
                table = owner.__dict__[store]
                if leaf in table:
                    saved.append((table, leaf, table[leaf], True))
                    table[leaf] = value
                    break
            else:
                saved.append(
                    (owner.__dict__, leaf, owner.__dict__.get(leaf), leaf in owner.__dict__)
                )
                owner.__dict__[leaf] = value
        yield
    finally:
        for table, leaf, old, present in reversed(saved):
            if present:
                table[leaf] = old
            else:
                table.pop(leaf, None)


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """module(*args, **kwargs) with the given tensors standing in for its parameters and
    buffers (the module is left as it was)."""
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = dict(parameter_and_buffer_dicts)
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
            )
        tensors = {}
        for d in parameter_and_buffer_dicts:
            for k, v in d.items():
                if k in tensors:
                    raise ValueError(
                        f"{k} appeared in multiple dictionaries; behavior of functional call is "
                        f"ambiguous"
                    )
                tensors[k] = v
    else:
        raise ValueError(
            f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but "
            f"got {type(parameter_and_buffer_dicts)}"
        )
    if tie_weights:
        # A tensor shared by several names (tied weights) takes the one value given for any.
        by_id: dict[int, list[str]] = {}
        for n, p in list(module.named_parameters(remove_duplicate=False)) + list(
            module.named_buffers(remove_duplicate=False)
        ):
            by_id.setdefault(id(p), []).append(n)
        for names in by_id.values():
            given = [n for n in names if n in tensors]
            if given:
                for n in names:
                    tensors.setdefault(n, tensors[given[0]])
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _swapped(module, tensors, strict):
        return module(*args, **(kwargs or {}))


def stack_module_state(models: Any) -> tuple[dict[str, Tensor], dict[str, Tensor]]:
    """(params, buffers): each name's tensors of every model stacked along a new dim 0.
    Stacked parameters are new leaves (requiring grad where the originals do)."""
    from .._ops import ops

    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(items: list[Any]) -> Tensor:
        out = ops.aten.stack.default([t.detach() for t in items])
        return out.requires_grad_() if items[0].requires_grad else out

    params = {
        n: stacked([dict(m.named_parameters())[n] for m in models])
        for n, _ in models[0].named_parameters()
    }
    buffers = {
        n: stacked([dict(m.named_buffers())[n] for m in models])
        for n, _ in models[0].named_buffers()
    }
    return params, buffers
