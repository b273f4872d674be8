"""`Node` (torch.fx.Node): one operation of a Graph, in a doubly linked list.

A node has an `op` (placeholder, get_attr, call_function, call_module, call_method, output), a
`target` (an OpOverload or callable for call_function, a name otherwise), `args`/`kwargs`
whose Node entries are its inputs, `users` (the nodes that read it) and `meta` (`meta["val"]`
is the value seen while tracing: a FakeTensor under fake tracing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Node", "map_arg", "map_aggregate", "Argument", "Target"]

Argument = Any
Target = Any

_OPS = ("placeholder", "get_attr", "call_function", "call_module", "call_method", "output", "root")


def map_aggregate(a: Any, fn: Callable[[Any], Any]) -> Any:
    """Apply `fn` to every leaf of a nested tuple/list/dict/slice structure."""
    t = type(a)
    if t is tuple:
        return tuple(map_aggregate(x, fn) for x in a)
    if t is list:
        return [map_aggregate(x, fn) for x in a]
    if t is dict:
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if t is slice:
        return slice(
            map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn)
        )
    if isinstance(a, tuple) and hasattr(a, "_fields"):
        return t(*(map_aggregate(x, fn) for x in a))
    return fn(a)


def map_arg(a: Any, fn: Callable[[Node], Any]) -> Any:
    """Apply `fn` to every Node inside `a` (leaving other leaves as they are)."""
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


class Node:
    """One operation in a Graph (see the module docstring)."""

    __slots__ = (
        "graph",
        "name",
        "op",
        "target",
        "_args",
        "_kwargs",
        "_input_nodes",
        "users",
        "type",
        "meta",
        "_prev",
        "_next",
        "_erased",
    )

    def __init__(
        self,
        graph: Any,
        name: str,
        op: str,
        target: Target,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        return_type: Any = None,
    ) -> None:
        if op not in _OPS:
            raise ValueError(f"Unknown node op {op!r}")
        if op == "call_function" and not callable(target):
            raise ValueError(
                f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                f"{type(target)} but a Callable is expected"
            )
        if op in ("placeholder", "get_attr", "call_module", "call_method", "output"):
            if not isinstance(target, str):
                raise ValueError(
                    f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                    f"{type(target)} but a str is expected"
                )
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self._input_nodes: dict[Node, None] = {}
        self.users: dict[Node, None] = {}
        self.type = return_type
        self.meta: dict[str, Any] = {}
        self._prev: Node = self
        self._next: Node = self
        self._erased = False
        self._args: tuple[Any, ...] = ()
        self._kwargs: dict[str, Any] = {}
        self._update_args_kwargs(args, kwargs)

    # -- linked list ---------------------------------------------------------------------------
    @property
    def next(self) -> Node:
        return self._next

    @property
    def prev(self) -> Node:
        return self._prev

    def prepend(self, x: Node) -> None:
        """Insert `x` before this node (moving it if it is in the list already)."""
        if self is x:
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev, x._next, self._prev = x, p, self, x

    def append(self, x: Node) -> None:
        """Insert `x` after this node."""
        self._next.prepend(x)

    def _remove_from_list(self) -> None:
        p, n = self._prev, self._next
        p._next, n._prev = n, p
        self._prev = self._next = self

    # -- inputs --------------------------------------------------------------------------------
    @property
    def args(self) -> tuple[Any, ...]:
        return self._args

    @args.setter
    def args(self, a: tuple[Any, ...]) -> None:
        self._update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self) -> dict[str, Any]:
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k: dict[str, Any]) -> None:
        self._update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self) -> list[Node]:
        return list(self._input_nodes)

    def _update_args_kwargs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        for old in self._input_nodes:
            old.users.pop(self, None)
        self._input_nodes = {}
        self._args = map_arg(tuple(args), self._collect)
        self._kwargs = map_arg(dict(kwargs), self._collect)

    def _collect(self, n: Node) -> Node:
        self._input_nodes.setdefault(n)
        n.users.setdefault(self)
        return n

    def update_arg(self, idx: int, arg: Any) -> None:
        args = list(self._args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key: str, arg: Any) -> None:
        self.kwargs = {**self._kwargs, key: arg}

    def replace_all_uses_with(
        self, replace_with: Node, delete_user_cb: Callable[[Node], bool] = lambda user: True
    ) -> list[Node]:
        """Make every user of this node read `replace_with` instead; returns those users."""
        changed = []
        for user in list(self.users):
            if not delete_user_cb(user):
                continue
            user.replace_input_with(self, replace_with)
            changed.append(user)
        return changed

    def replace_input_with(self, old_input: Node, new_input: Node) -> None:
        def swap(n: Node) -> Node:
            return new_input if n is old_input else n

        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    # -- side effects --------------------------------------------------------------------------
    def is_impure(self) -> bool:
        """Whether removing this node (when unused) could change the program: placeholders and
        the output, and operators whose schema writes an argument (`Tensor(a!)`), as
        PyTorch's. An operator that declares no mutation is pure, whatever it does."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_function":
            target = self.target
            if getattr(target, "_is_impure", False):
                return True
            schema = getattr(target, "_schema", None)
            if schema is not None:
                return bool(schema.is_mutable)
            return target in _IMPURE_FUNCTIONS
        if self.op == "call_module":
            mod = self.graph.owning_module
            sub = _get_attr_path(mod, self.target) if mod is not None else None
            return bool(getattr(sub, "_is_impure", False))
        return False

    def format_node(self) -> str:
        if self.op == "placeholder":
            return (
                f"%{self.name} : [num_users={len(self.users)}] = placeholder[target={self.target}]"
            )
        if self.op == "output":
            return f"return {self.args[0]}"
        return (
            f"%{self.name} : [num_users={len(self.users)}] = {self.op}[target={_target_name(self.target)}]"  # noqa: E501
            f"(args = {_fmt(self.args)}, kwargs = {_fmt(self.kwargs)})"
        )

    def __repr__(self) -> str:
        return self.name


def _fmt(a: Any) -> str:
    return str(map_arg(a, lambda n: _Percent(n.name)))


class _Percent:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"%{self.name}"


def _target_name(t: Any) -> str:
    if isinstance(t, str):
        return t
    if hasattr(t, "_schema") or type(t).__name__ == "HigherOrderOperator":
        return str(t)
    return getattr(t, "__name__", str(t))


def _get_attr_path(mod: Any, target: str) -> Any:
    for atom in target.split("."):
        mod = getattr(mod, atom, None)
        if mod is None:
            return None
    return mod


def _impure() -> set[Any]:
    import operator as _op

    return {_op.setitem}


_IMPURE_FUNCTIONS = _impure()
