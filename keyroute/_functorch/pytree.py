"""A small pytree (torch.utils._pytree's containers: tuple, list, dict, namedtuple; anything
else, None included, is a leaf), with PyTorch's TreeSpec wording for vmap's errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["TreeSpec", "LeafSpec", "tree_flatten", "tree_unflatten", "tree_map",
           "broadcast_to_and_flatten"]  # fmt: skip


class TreeSpec:
    __slots__ = ("type", "context", "children")

    def __init__(self, type_: Any, context: Any, children: list[Any]) -> None:
        self.type = type_
        self.context = context
        self.children = children

    @property
    def num_leaves(self) -> int:
        return sum(c.num_leaves for c in self.children)

    def is_leaf(self) -> bool:
        return False

    def _kind(self) -> str:
        if self.type is tuple:
            return "tuple"
        if self.type is list:
            return "list"
        if self.type is dict:
            return "dict"
        return "namedtuple"

    def _str(self, indent: int) -> str:
        ctx = {"tuple": "None", "list": "None", "dict": repr(self.context)}.get(
            self._kind(), repr(self.context)
        )
        head = f"TreeSpec({self._kind()}, {ctx}, ["
        parts = [c._str(indent + 2) for c in self.children]
        sep = ",\n" + " " * (indent + 2)
        return head + sep.join(parts) + "])"

    def __str__(self) -> str:
        return self._str(0)

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TreeSpec)
            and not other.is_leaf()
            and self.type is other.type
            and self.context == other.context
            and self.children == other.children
        )

    def __hash__(self) -> int:  # pragma: no cover - specs are compared, not hashed
        return id(self)


class LeafSpec(TreeSpec):
    def __init__(self) -> None:
        super().__init__(None, None, [])

    @property
    def num_leaves(self) -> int:
        return 1

    def is_leaf(self) -> bool:
        return True

    def _str(self, indent: int) -> str:
        return "*"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LeafSpec)

    def __hash__(self) -> int:  # pragma: no cover
        return 0


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _children(x: Any) -> tuple[Any, Any, list[Any]] | None:
    if _is_namedtuple(x):
        return type(x), type(x), list(x)
    if type(x) is tuple:
        return tuple, None, list(x)
    if type(x) is list:
        return list, None, list(x)
    if type(x) is dict:
        keys = list(x)
        return dict, keys, [x[k] for k in keys]
    return None


def tree_flatten(tree: Any) -> tuple[list[Any], TreeSpec]:
    leaves: list[Any] = []

    def go(x: Any) -> TreeSpec:
        node = _children(x)
        if node is None:
            leaves.append(x)
            return LeafSpec()
        type_, ctx, kids = node
        return TreeSpec(type_, ctx, [go(k) for k in kids])

    spec = go(tree)
    return leaves, spec


def tree_unflatten(leaves: list[Any], spec: TreeSpec) -> Any:
    it = iter(leaves)

    def go(s: TreeSpec) -> Any:
        if s.is_leaf():
            return next(it)
        kids = [go(c) for c in s.children]
        if s.type is dict:
            return dict(zip(s.context, kids))
        if s.type is tuple or s.type is list:
            return s.type(kids)
        return s.type(*kids)

    return go(spec)


def tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def broadcast_to_and_flatten(tree: Any, spec: TreeSpec) -> list[Any] | None:
    """`tree` repeated over every leaf of `spec` where `tree` holds a leaf, or None when
    their structures do not match (torch.utils._pytree._broadcast_to_and_flatten)."""
    out: list[Any] = []

    def go(t: Any, s: TreeSpec) -> bool:
        node = _children(t)
        if node is None:
            out.extend([t] * s.num_leaves)
            return True
        if s.is_leaf():
            return False
        type_, ctx, kids = node
        if type_ is not s.type and not (_is_namedtuple(t) and s.type is type(t)):
            return False
        if ctx != s.context or len(kids) != len(s.children):
            return False
        return all(go(k, c) for k, c in zip(kids, s.children))

    return out if go(tree, spec) else None
