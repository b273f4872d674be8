"""A small pytree (torch.utils._pytree): flatten nested lists, tuples, dicts and namedtuples
into leaves and a spec, and rebuild them. Graph capture flattens inputs and outputs with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["TreeSpec", "LeafSpec", "tree_flatten", "tree_unflatten", "tree_map", "tree_leaves"]


class TreeSpec:
    """How a flattened structure is rebuilt: its type, context (dict keys) and children."""

    __slots__ = ("type", "context", "children_specs", "num_leaves")

    def __init__(self, type: Any, context: Any, children_specs: list[TreeSpec]) -> None:  # noqa: A002
        self.type = type
        self.context = context
        self.children_specs = children_specs
        self.num_leaves = sum(c.num_leaves for c in children_specs) if type is not None else 1

    def is_leaf(self) -> bool:
        return self.type is None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TreeSpec)
            and self.type is other.type
            and self.context == other.context
            and self.children_specs == other.children_specs
        )

    def __repr__(self) -> str:
        if self.type is None:
            return "*"
        name = getattr(self.type, "__name__", str(self.type))
        return f"TreeSpec({name}, {self.context!r}, {self.children_specs!r})"


def LeafSpec() -> TreeSpec:  # noqa: N802 - PyTorch's name
    return TreeSpec(None, None, [])


def _children(tree: Any) -> tuple[Any, list[Any], Any] | None:
    t = type(tree)
    if t is list:
        return list, tree, None
    if t is tuple:
        return tuple, list(tree), None
    if t is dict:
        keys = list(tree)
        return dict, [tree[k] for k in keys], keys
    if isinstance(tree, tuple) and hasattr(t, "_fields"):  # namedtuple
        return t, list(tree), None
    return None


def tree_flatten(tree: Any) -> tuple[list[Any], TreeSpec]:
    leaves: list[Any] = []
    spec = _flatten(tree, leaves)
    return leaves, spec


def _flatten(tree: Any, leaves: list[Any]) -> TreeSpec:
    c = _children(tree)
    if c is None:
        leaves.append(tree)
        return LeafSpec()
    typ, kids, ctx = c
    return TreeSpec(typ, ctx, [_flatten(k, leaves) for k in kids])


def tree_unflatten(leaves: Any, spec: TreeSpec) -> Any:
    it = iter(leaves)
    return _unflatten(it, spec)


def _unflatten(it: Any, spec: TreeSpec) -> Any:
    if spec.type is None:
        return next(it)
    kids = [_unflatten(it, c) for c in spec.children_specs]
    if spec.type is list:
        return kids
    if spec.type is tuple:
        return tuple(kids)
    if spec.type is dict:
        return dict(zip(spec.context, kids))
    return spec.type(*kids)


def tree_leaves(tree: Any) -> list[Any]:
    return tree_flatten(tree)[0]


def tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)
