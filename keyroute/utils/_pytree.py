"""torch.utils._pytree: flatten nested containers to leaves and a TreeSpec, and rebuild them.

Dispatch modes and tensor subclasses walk their arguments with these (`tree_map` over args and
kwargs). The API and the TreeSpec repr are PyTorch's: lists, tuples, dicts (keys in insertion
order), OrderedDicts, defaultdicts, deques and namedtuples are nodes; anything else, None
included, is a leaf; `register_pytree_node` adds a node type.
"""

from __future__ import annotations

import collections
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = [
    "TreeSpec",
    "LeafSpec",
    "register_pytree_node",
    "tree_flatten",
    "tree_unflatten",
    "tree_leaves",
    "tree_structure",
    "tree_map",
    "tree_map_",
    "tree_map_only",
    "tree_map_only_",
    "tree_all",
    "tree_any",
    "tree_all_only",
    "tree_any_only",
    "tree_iter",
    "treespec_pprint",
    "arg_tree_leaves",
    "is_namedtuple",
    "SUPPORTED_NODES",
]

FlattenFn = Callable[[Any], tuple[list[Any], Any]]
UnflattenFn = Callable[[Iterable[Any], Any], Any]


class NodeDef(NamedTuple):
    type: type
    flatten_fn: FlattenFn
    unflatten_fn: UnflattenFn


SUPPORTED_NODES: dict[type, NodeDef] = {}


def register_pytree_node(
    cls: type,
    flatten_fn: FlattenFn,
    unflatten_fn: UnflattenFn,
    *,
    serialized_type_name: str | None = None,
    to_dumpable_context: Callable[[Any], Any] | None = None,
    from_dumpable_context: Callable[[Any], Any] | None = None,
    flatten_with_keys_fn: Callable[[Any], Any] | None = None,
) -> None:
    """Make `cls` a node: flatten_fn(x) -> (children, context); unflatten_fn(children, ctx)."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn)


_register_pytree_node = register_pytree_node


def is_namedtuple(obj: object) -> bool:
    cls = obj if isinstance(obj, type) else type(obj)
    return issubclass(cls, tuple) and isinstance(getattr(cls, "_fields", None), tuple)


def _dict_flatten(d: dict[Any, Any]) -> tuple[list[Any], Any]:
    return list(d.values()), list(d.keys())


def _namedtuple_unflatten(values: Iterable[Any], context: type) -> Any:
    return context(*values)


def _defaultdict_flatten(d: collections.defaultdict[Any, Any]) -> tuple[list[Any], Any]:
    return list(d.values()), [d.default_factory, list(d.keys())]


def _defaultdict_unflatten(values: Iterable[Any], context: Any) -> Any:
    factory, keys = context
    return collections.defaultdict(factory, zip(keys, values))


def _deque_flatten(d: collections.deque[Any]) -> tuple[list[Any], Any]:
    return list(d), d.maxlen


register_pytree_node(tuple, lambda t: (list(t), None), lambda v, c: tuple(v))
register_pytree_node(list, lambda t: (list(t), None), lambda v, c: list(v))
register_pytree_node(dict, _dict_flatten, lambda v, c: dict(zip(c, v)))
register_pytree_node(
    collections.OrderedDict, _dict_flatten, lambda v, c: collections.OrderedDict(zip(c, v))
)
register_pytree_node(collections.defaultdict, _defaultdict_flatten, _defaultdict_unflatten)
register_pytree_node(collections.deque, _deque_flatten, lambda v, c: collections.deque(v, c))
# namedtuples are one node kind; the context is the class (PyTorch prints "namedtuple").
register_pytree_node(
    collections.namedtuple,  # type: ignore[arg-type]
    lambda t: (list(t), type(t)),
    _namedtuple_unflatten,
)


def _node_type(tree: Any) -> Any:
    cls = type(tree)
    if cls in SUPPORTED_NODES:
        return cls
    if is_namedtuple(cls):
        return collections.namedtuple
    return None


@dataclass(eq=True, frozen=True)
class TreeSpec:
    """The structure of a pytree: the node type, its context, its children's specs."""

    type: Any
    _context: Any
    _children: list[TreeSpec] = field(default_factory=list)

    def __post_init__(self) -> None:
        nodes, leaves = 1, 0 if self.type is not None else 1
        for child in self._children:
            nodes += child.num_nodes
            leaves += child.num_leaves
        object.__setattr__(self, "num_nodes", nodes)
        object.__setattr__(self, "num_leaves", leaves)
        object.__setattr__(self, "num_children", len(self._children))

    num_nodes: int = field(init=False, default=1, compare=False)
    num_leaves: int = field(init=False, default=1, compare=False)
    num_children: int = field(init=False, default=0, compare=False)

    @property
    def context(self) -> Any:
        return self._context

    @property
    def children_specs(self) -> list[TreeSpec]:
        return self._children

    def children(self) -> list[TreeSpec]:
        return list(self._children)

    def child(self, index: int) -> TreeSpec:
        return self._children[index]

    def is_leaf(self) -> bool:
        return self.type is None

    def __hash__(self) -> int:
        ctx = self._context
        ctx_key = tuple(ctx) if isinstance(ctx, list) else ctx
        try:
            return hash((self.type, ctx_key, tuple(self._children)))
        except TypeError:
            return hash((self.type, tuple(self._children)))

    def __repr__(self, indent: int = 0) -> str:
        if self.type is None:
            return "*"
        name = self.type.__name__
        head = f"TreeSpec({name}, {self._context}, ["
        if not self._children:
            return head + "])"
        indent += 2
        parts = [self._children[0].__repr__(indent)]
        parts += ["\n" + " " * indent + c.__repr__(indent) for c in self._children[1:]]
        return head + ",".join(parts) + "])"

    def flatten_up_to(self, tree: Any) -> list[Any]:
        if self.type is None:
            return [tree]
        children, _ = SUPPORTED_NODES[self.type].flatten_fn(tree)
        out: list[Any] = []
        for spec, child in zip(self._children, children):
            out.extend(spec.flatten_up_to(child))
        return out

    def unflatten(self, leaves: Iterable[Any]) -> Any:
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(
                f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} "
                f"but the spec refers to a pytree that holds {self.num_leaves} "
                f"items ({self})."
            )
        return self._build(iter(leaves))

    def _build(self, it: Any) -> Any:
        if self.type is None:
            return next(it)
        values = [c._build(it) for c in self._children]
        return SUPPORTED_NODES[self.type].unflatten_fn(values, self._context)


class LeafSpec(TreeSpec):
    """The spec of a leaf (printed `*`)."""

    def __init__(self) -> None:
        super().__init__(None, None, [])

    def __repr__(self, indent: int = 0) -> str:
        return "*"


_LEAF = LeafSpec()


def _is_leaf(tree: Any, is_leaf: Callable[[Any], bool] | None) -> bool:
    return (is_leaf is not None and is_leaf(tree)) or _node_type(tree) is None


def _flatten(tree: Any, is_leaf: Callable[[Any], bool] | None, leaves: list[Any]) -> TreeSpec:
    if _is_leaf(tree, is_leaf):
        leaves.append(tree)
        return _LEAF
    node_type = _node_type(tree)
    children, context = SUPPORTED_NODES[node_type].flatten_fn(tree)
    specs = [_flatten(c, is_leaf, leaves) for c in children]
    return TreeSpec(node_type, context, specs)


def tree_flatten(
    tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> tuple[list[Any], TreeSpec]:
    """The leaves of `tree` left to right, and its TreeSpec."""
    leaves: list[Any] = []
    spec = _flatten(tree, is_leaf, leaves)
    return leaves, spec


def _broadcast_to_and_flatten(
    tree: Any, treespec: TreeSpec, is_leaf: Callable[[Any], bool] | None = None
) -> list[Any] | None:
    """`tree` flattened up to `treespec`, each leaf of `tree` repeated over the leaves of
    `treespec` below it; None when the structures differ (vmap's in_dims/out_dims)."""
    if _is_leaf(tree, is_leaf):
        return [tree] * treespec.num_leaves
    if treespec.is_leaf():
        return None
    node_type = _node_type(tree)
    if node_type != treespec.type:
        return None
    children, context = SUPPORTED_NODES[node_type].flatten_fn(tree)
    if len(children) != treespec.num_children or context != treespec.context:
        return None
    out: list[Any] = []
    for child, spec in zip(children, treespec.children_specs):
        flat = _broadcast_to_and_flatten(child, spec, is_leaf)
        if flat is None:
            return None
        out += flat
    return out


def tree_unflatten(leaves: Iterable[Any], treespec: TreeSpec) -> Any:
    if not isinstance(treespec, TreeSpec):
        raise TypeError(
            f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance of "
            f"TreeSpec but got item of type {type(treespec)}."
        )
    return treespec.unflatten(leaves)


def tree_iter(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    if _is_leaf(tree, is_leaf):
        yield tree
        return
    children, _ = SUPPORTED_NODES[_node_type(tree)].flatten_fn(tree)
    for c in children:
        yield from tree_iter(c, is_leaf)


def tree_leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    return list(tree_iter(tree, is_leaf))


def tree_structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> TreeSpec:
    return tree_flatten(tree, is_leaf)[1]


def tree_map(
    func: Callable[..., Any], tree: Any, *rests: Any, is_leaf: Callable[[Any], bool] | None = None
) -> Any:
    """Apply func to every leaf (and the matching leaves of `rests`), keep the structure."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [spec.flatten_up_to(r) for r in rests]
    return spec.unflatten(map(func, leaves, *others))


def tree_map_(
    func: Callable[..., Any], tree: Any, *rests: Any, is_leaf: Callable[[Any], bool] | None = None
) -> Any:
    """Apply func to every leaf for its effect; return the tree itself."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [spec.flatten_up_to(r) for r in rests]
    for args in zip(leaves, *others):
        func(*args)
    return tree


TypeOrPred = type | tuple[type, ...] | types.UnionType | Callable[[Any], bool]


def _pred(type_or_pred: TypeOrPred) -> Callable[[Any], bool]:
    if isinstance(type_or_pred, (type, tuple, types.UnionType)):
        return lambda x: isinstance(x, type_or_pred)  # type: ignore[arg-type]
    if callable(type_or_pred):
        return type_or_pred
    raise TypeError("Argument must be a type, a tuple of types, or a callable.")


def _only(type_or_pred: TypeOrPred, func: Callable[[Any], Any]) -> Callable[[Any], Any]:
    pred = _pred(type_or_pred)
    return lambda x: func(x) if pred(x) else x


def tree_map_only(
    type_or_types_or_pred: TypeOrPred,
    /,
    func: Callable[[Any], Any],
    tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """tree_map applying func only to leaves of the given type(s) (or passing the predicate)."""
    return tree_map(_only(type_or_types_or_pred, func), tree, is_leaf=is_leaf)


def tree_map_only_(
    type_or_types_or_pred: TypeOrPred,
    /,
    func: Callable[[Any], Any],
    tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    return tree_map_(_only(type_or_types_or_pred, func), tree, is_leaf=is_leaf)


def tree_all(
    pred: Callable[[Any], bool], tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> bool:
    return all(map(pred, tree_iter(tree, is_leaf)))


def tree_any(
    pred: Callable[[Any], bool], tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> bool:
    return any(map(pred, tree_iter(tree, is_leaf)))


def tree_all_only(
    type_or_types: TypeOrPred,
    /,
    pred: Callable[[Any], bool],
    tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> bool:
    test = _pred(type_or_types)
    return all(pred(x) for x in tree_iter(tree, is_leaf) if test(x))


def tree_any_only(
    type_or_types: TypeOrPred,
    /,
    pred: Callable[[Any], bool],
    tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> bool:
    test = _pred(type_or_types)
    return any(pred(x) for x in tree_iter(tree, is_leaf) if test(x))


def arg_tree_leaves(*args: Any, **kwargs: Any) -> list[Any]:
    """The leaves of (args, kwargs), as dispatch modes collect them."""
    return tree_leaves(args) + tree_leaves(kwargs)


def treespec_pprint(treespec: TreeSpec) -> str:
    return repr(treespec)
