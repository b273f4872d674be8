"""`keyroute.cond(pred, true_fn, false_fn, operands)` (torch.cond): eager, it evaluates `pred`
and calls one branch; under make_fx both branches are traced into subgraphs
(`true_graph_0`, `false_graph_0`, get_attr nodes) and the call is one `cond` node, as
PyTorch's graphs show."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..tensor._tensor import Tensor
from ..utils._pytree import tree_flatten, tree_unflatten
from .hop import HigherOrderOperator

__all__ = ["cond"]

cond_op = HigherOrderOperator("cond")


def cond(
    pred: Any, true_fn: Callable[..., Any], false_fn: Callable[..., Any], operands: Any = ()
) -> Any:
    if not isinstance(operands, (tuple, list)):
        raise RuntimeError(
            f"Expect operands to be a tuple of possibly nested dict/list/tuple, but got {type(operands)}"  # noqa: E501
        )
    if isinstance(pred, Tensor) and pred.numel() != 1:
        raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
    flat = cond_op(pred, _flat_fn(true_fn), _flat_fn(false_fn), tuple(operands))
    return tree_unflatten(list(flat), _LAST_SPEC[0])


#: The output structure of the branch last run through `_flat_fn` (the HOP itself returns the
#: flat tuple of outputs, as PyTorch's; `cond()` rebuilds the user's structure).
_LAST_SPEC: list[Any] = [None]


def _flat_fn(fn: Callable[..., Any]) -> Callable[..., Any]:
    def flat(*args: Any) -> tuple[Any, ...]:
        leaves, spec = tree_flatten(fn(*args))
        _LAST_SPEC[0] = spec
        return tuple(leaves)

    flat.__name__ = getattr(fn, "__name__", "branch")
    return flat


@cond_op.py_impl(DispatchKey.CompositeExplicitAutograd)
def _cond_dense(
    pred: Any, true_fn: Callable[..., Any], false_fn: Callable[..., Any], operands: tuple[Any, ...]
) -> Any:
    take = bool(pred.item()) if isinstance(pred, Tensor) else bool(pred)
    out = (true_fn if take else false_fn)(*operands)
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)
