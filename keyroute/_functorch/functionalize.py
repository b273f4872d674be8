"""`keyroute.func.functionalize(f, remove=...)`: run `f` on functional tensors (the
Functionalize layer, keyroute/layers/functionalize.py) and copy mutated inputs' final values
back with `copy_`, as PyTorch's functionalize does."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.tls import IncludeDispatchKeyGuard
from ..layers import functionalize as functionalize_layer
from ..tensor._tensor import Tensor
from ..utils._pytree import tree_flatten, tree_map, tree_unflatten

__all__ = ["functionalize"]


def functionalize(func: Callable[..., Any], *, remove: str = "mutations") -> Callable[..., Any]:
    if remove == "mutations":
        reapply_views = True
    elif remove == "mutations_and_views":
        reapply_views = False
    else:
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. "
            "Valid options are:\n     remove='mutations': all inplace and out= operators will be removed from the "  # noqa: E501
            "program, and replaced with their out-of-place equivalents.\n     remove='mutations_and_views': In "  # noqa: E501
            "addition to the above, all aliasing operators {view} will be replaced with their non-aliasing "  # noqa: E501
            "counterparts, {view}_copy.\n"
        )

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        flat, spec = tree_flatten((args, kwargs))
        wrapped_flat = [
            functionalize_layer.to_functional(a) if isinstance(a, Tensor) else a for a in flat
        ]
        f_args, f_kwargs = tree_unflatten(wrapped_flat, spec)
        old = functionalize_layer._REAPPLY_VIEWS[0]
        functionalize_layer._REAPPLY_VIEWS[0] = reapply_views
        try:
            with IncludeDispatchKeyGuard(DispatchKey.Functionalize):
                out = func(*f_args, **f_kwargs)
            for w in wrapped_flat:
                if isinstance(w, functionalize_layer.FunctionalTensorWrapper):
                    functionalize_layer.sync(w)
            for orig, w in zip(flat, wrapped_flat):
                if isinstance(w, functionalize_layer.FunctionalTensorWrapper):
                    new = functionalize_layer.from_functional(w)
                    if new is not orig:
                        orig.copy_(new)
            return tree_map(_unwrap_out, out)
        finally:
            functionalize_layer._REAPPLY_VIEWS[0] = old

    return wrapped


def _unwrap_out(x: Any) -> Any:
    if isinstance(x, functionalize_layer.FunctionalTensorWrapper):
        functionalize_layer.sync(x)
        return functionalize_layer.from_functional(x)
    return x
