"""`Graph` (torch.fx.Graph): a list of Nodes, their names, dead-code elimination and the Python
code a GraphModule runs (printed as PyTorch prints it: `torch.ops.aten.mm.default(x_1, y_1)`,
values deleted after their last use)."""

from __future__ import annotations

import builtins
import contextlib
import keyword
import math
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.device import Device
from ..tensor.dtype import dtype as _dtype
from ..tensor.layout import layout as _layout
from ..tensor.layout import memory_format as _mf
from .node import Node, map_arg

__all__ = ["Graph", "PythonCode", "dtype_abbrs"]

_illegal_char = re.compile("[^0-9a-zA-Z_]+")
_name_re = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")
_snake_re = re.compile(r"(?<=[a-z])([A-Z])")
_RESERVED = set(keyword.kwlist) | set(builtins.__dict__) | {"torch", "inf", "nan", "device"}

dtype_abbrs = {
    "bfloat16": "bf16",
    "float64": "f64",
    "float32": "f32",
    "float16": "f16",
    "float8_e4m3fn": "f8e4m3fn",
    "float8_e5m2": "f8e5m2",
    "complex32": "c32",
    "complex64": "c64",
    "complex128": "c128",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "bool": "b8",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
}

# Binary and unary operators printed as expressions (PyTorch's magic_methods).
_MAGIC = {
    "add": "{} + {}",
    "sub": "{} - {}",
    "mul": "{} * {}",
    "floordiv": "{} // {}",
    "truediv": "{} / {}",
    "mod": "{} % {}",
    "pow": "{} ** {}",
    "matmul": "{} @ {}",
    "lshift": "{} << {}",
    "rshift": "{} >> {}",
    "and_": "{} & {}",
    "or_": "{} | {}",
    "xor": "{} ^ {}",
    "eq": "{} == {}",
    "ne": "{} != {}",
    "lt": "{} < {}",
    "gt": "{} > {}",
    "le": "{} <= {}",
    "ge": "{} >= {}",
    "neg": "-{}",
    "pos": "+{}",
    "invert": "~{}",
    "getitem": "{}[{}]",
}


class _Namespace:
    """Unique names, PyTorch's rule: a trailing `_<n>` is a counter; builtins and keywords are
    never shadowed (`sum` becomes `sum_1`)."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._base_count: dict[str, int] = {}

    def create_name(self, candidate: str) -> str:
        m = _name_re.match(candidate)
        if m is None:
            candidate = _illegal_char.sub("_", candidate) or "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            m = _name_re.match(candidate)
            assert m is not None
        base, num = m.group(1, 2)
        if num is None or candidate in self._used:
            n = self._base_count.get(base, 0)
            if candidate in _RESERVED:
                n += 1
                candidate = f"{base}_{n}"
        else:
            n = int(num)
        while candidate in self._used:
            n += 1
            candidate = f"{base}_{n}"
        self._used.add(candidate)
        self._base_count[base] = n
        return candidate


class inspect_empty:  # noqa: N801 - a sentinel, as inspect.Signature.empty
    pass


class PythonCode:
    """Generated source and the globals it needs."""

    def __init__(self, src: str, globals_: dict[str, Any]) -> None:
        self.src = src
        self.globals = globals_


class Graph:
    """The nodes of one function, in order (see torch.fx.Graph)."""

    def __init__(self, owning_module: Any = None, tracer_cls: Any = None) -> None:
        self._root = Node(self, "", "root", "", (), {})
        self._ns = _Namespace()
        self._len = 0
        self._insert: Callable[[Node], None] = self._root.prepend
        self.owning_module = owning_module
        self._tracer_cls = tracer_cls

    # -- nodes ---------------------------------------------------------------------------------
    @property
    def nodes(self) -> _NodeList:
        return _NodeList(self)

    def __len__(self) -> int:
        return self._len

    def find_nodes(self, *, op: str, target: Any = None) -> list[Node]:
        return [n for n in self.nodes if n.op == op and (target is None or n.target == target)]

    def create_node(
        self,
        op: str,
        target: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        name: str | None = None,
        type_expr: Any = None,
    ) -> Node:
        candidate = name if name is not None else self._target_to_str(target)
        n = Node(
            self, self._ns.create_name(candidate), op, target, args or (), kwargs or {}, type_expr
        )
        self._insert(n)
        self._len += 1
        return n

    @staticmethod
    def _target_to_str(target: Any) -> str:
        if callable(target):
            if hasattr(target, "_schema") and hasattr(target, "overloadpacket"):
                op = target._opname  # aten.mm.default -> "mm", as make_fx names it
            else:
                op = getattr(target, "__name__", "fn")
        else:
            op = str(target)
            if op.startswith("__") and op.endswith("__"):
                op = op[2:-2]
        return _snake_re.sub(r"_\1", op).lower()

    def placeholder(
        self, name: str, type_expr: Any = None, default_value: Any = inspect_empty
    ) -> Node:
        args = () if default_value is inspect_empty else (default_value,)
        return self.create_node("placeholder", name, args, type_expr=type_expr)

    def get_attr(self, qualified_name: str, type_expr: Any = None) -> Node:
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_function(
        self,
        the_function: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        type_expr: Any = None,
    ) -> Node:
        return self.create_node("call_function", the_function, args, kwargs, type_expr=type_expr)

    def call_module(
        self,
        module_name: str,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        type_expr: Any = None,
    ) -> Node:
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(
        self,
        method_name: str,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        type_expr: Any = None,
    ) -> Node:
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def output(self, result: Any, type_expr: Any = None) -> Node:
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def node_copy(self, node: Node, arg_transform: Callable[[Node], Any] = lambda x: x) -> Node:
        """Copy `node` (from any graph) into this one, its Node inputs mapped by `arg_transform`."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        name = node.name if node.op != "output" else None
        n = self.create_node(node.op, node.target, args, kwargs, name, node.type)
        n.meta = dict(node.meta)
        return n

    def graph_copy(self, g: Graph, val_map: dict[Node, Any]) -> Any:
        """Copy every node of `g` but its output; returns the output's value (mapped)."""
        for node in g.nodes:
            if node.op == "output":
                return map_arg(node.args[0], lambda n: val_map[n])
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def erase_node(self, to_erase: Node) -> None:
        if to_erase.users:
            raise RuntimeError(
                f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} users in the graph: "  # noqa: E501
                f"{to_erase.users}!"
            )
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase._update_args_kwargs((), {})

    @contextlib.contextmanager
    def inserting_before(self, n: Node | None = None) -> Iterator[None]:
        old = self._insert
        self._insert = (n if n is not None else self._root._next).prepend
        try:
            yield
        finally:
            self._insert = old

    @contextlib.contextmanager
    def inserting_after(self, n: Node | None = None) -> Iterator[None]:
        old = self._insert
        anchor = [n if n is not None else self._root._prev]

        def ins(x: Node) -> None:
            anchor[0].append(x)
            anchor[0] = x

        self._insert = ins
        try:
            yield
        finally:
            self._insert = old

    # -- passes --------------------------------------------------------------------------------
    def eliminate_dead_code(self, is_impure_node: Callable[[Node], bool] | None = None) -> bool:
        """Remove nodes without users whose removal cannot change the program. Side effects come
        from the schema: an operator that writes an argument is kept; one that declares no
        mutation is removed when unused, whatever its kernel does (the seed's warning)."""
        impure = is_impure_node or (lambda n: n.is_impure())
        changed = False
        for node in reversed(list(self.nodes)):
            if not node.users and not impure(node):
                self.erase_node(node)
                changed = True
        return changed

    def lint(self) -> None:
        seen: set[Node] = set()
        for n in self.nodes:
            for i in n.all_input_nodes:
                if i not in seen:
                    raise RuntimeError(
                        f"Argument '{i}' of Node '{n}' was used before it has been defined!"
                    )
                if i.graph is not self:
                    raise RuntimeError(
                        f"Argument '{i}' of Node '{n}' does not belong to this Graph!"
                    )
            seen.add(n)

    def __str__(self) -> str:
        placeholders = [n.target for n in self.nodes if n.op == "placeholder"]
        lines = [f"graph({', '.join(placeholders)}):"]
        lines += ["    " + n.format_node() for n in self.nodes]
        return "\n".join(lines)

    def print_tabular(self) -> None:
        for n in self.nodes:
            print(f"{n.op:<14}{n.name:<20}{n.target!s:<30}{n.args!s:<30}{n.kwargs}")

    # -- code ----------------------------------------------------------------------------------
    def python_code(self, root_module: str = "self", *, verbose: bool = False) -> PythonCode:
        return _CodeGen(self, root_module, verbose).generate()


class _NodeList:
    def __init__(self, graph: Graph) -> None:
        self._graph = graph

    def __len__(self) -> int:
        return self._graph._len

    def __iter__(self) -> Iterator[Node]:
        root = self._graph._root
        cur = root._next
        while cur is not root:
            nxt = cur._next
            yield cur
            cur = nxt

    def __reversed__(self) -> Iterator[Node]:
        root = self._graph._root
        cur = root._prev
        while cur is not root:
            prv = cur._prev
            yield cur
            cur = prv


def _annotation(val: Any) -> str | None:
    if isinstance(val, Tensor):
        return f"{dtype_abbrs.get(str(val.dtype).split('.')[-1], str(val.dtype))}{list(val.shape)}"
    if isinstance(val, bool):
        return None
    if getattr(val, "_kr_symint", False):
        return f"Sym({val!r})"  # a symbolic size (keyroute._dynamo.symbolic_shapes)
    if isinstance(val, (int, float)) and not isinstance(val, bool):
        return None
    return None


class _CodeGen:
    def __init__(self, graph: Graph, root: str, verbose: bool) -> None:
        self.graph = graph
        self.root = root
        self.verbose = verbose
        import keyroute

        self.globals: dict[str, Any] = {
            "torch": keyroute,
            "operator": operator,
            "inf": math.inf,
            "nan": math.nan,
            "device": keyroute.device,
            "getattr": getattr,
        }

    def _global(self, obj: Any) -> str:
        import keyroute

        name = getattr(obj, "__name__", None)
        if name and getattr(builtins, name, None) is obj:
            return name
        if name and getattr(keyroute, name, None) is obj:
            return f"torch.{name}"
        nnf = keyroute.nn.functional
        if name and getattr(nnf, name, None) is obj:
            return f"torch.nn.functional.{name}"
        if name and getattr(operator, name, None) is obj:
            return f"operator.{name}"
        base = _illegal_char.sub("_", name or "fn")
        cand = base
        i = 0
        while cand in self.globals and self.globals[cand] is not obj:
            i += 1
            cand = f"{base}_{i}"
        self.globals[cand] = obj
        return cand

    def _repr(self, a: Any) -> str:
        t = type(a)
        if t is Node:
            return a.name
        if t is int or t is str or t is bool or a is None:
            return repr(a)
        if getattr(t, "_kr_symint", False):
            return repr(a)  # a symbolic size: its expression over the Sym placeholders
        if t is tuple:
            inner = ", ".join(self._repr(x) for x in a)
            return f"({inner},)" if len(a) == 1 else f"({inner})"
        if t is list:
            return "[" + ", ".join(self._repr(x) for x in a) + "]"
        if t is dict:
            return "{" + ", ".join(f"{k!r}: {self._repr(v)}" for k, v in a.items()) + "}"
        if t is slice:
            return f"slice({self._repr(a.start)}, {self._repr(a.stop)}, {self._repr(a.step)})"
        if isinstance(a, (_dtype, _layout, _mf)):
            return "torch." + repr(a).split(".")[-1]
        if isinstance(a, Device):
            return repr(a)
        if t is float:
            if math.isinf(a):
                return "inf" if a > 0 else "-inf"
            if math.isnan(a):
                return "nan"
            return repr(a)
        if a is None or t in (int, bool, str, complex):
            return repr(a)
        if hasattr(a, "_schema") and hasattr(a, "overloadpacket"):
            return self._op_repr(a)
        if callable(a):
            return self._global(a)
        return self._global_value(a)

    def _global_value(self, a: Any) -> str:
        base = type(a).__name__.lower()
        cand = f"_{base}"
        i = 0
        while cand in self.globals and self.globals[cand] is not a:
            i += 1
            cand = f"_{base}_{i}"
        self.globals[cand] = a
        return cand

    def _op_repr(self, op: Any) -> str:
        return f"torch.ops.{op.namespace}.{op._opname}.{op._overloadname}"

    def _args(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        parts = [self._repr(a) for a in args]
        parts += [f"{k} = {self._repr(v)}" for k, v in kwargs.items()]
        return ", ".join(parts)

    def generate(self) -> PythonCode:
        nodes = list(self.graph.nodes)
        last_uses: dict[Node, list[Node]] = {}
        seen: set[Node] = set()
        for node in reversed(nodes):
            for inp in _ordered_inputs(node):
                if inp not in seen:
                    seen.add(inp)
                    last_uses.setdefault(node, []).append(inp)
        free_vars: list[str] = []
        typed_vars: list[str] = []
        body: list[str] = []
        typed_body: list[str] = []
        said_no_trace = False
        for node in nodes:
            ann = _annotation(node.meta.get("val"))
            tann = f': "{ann}"' if ann else ""
            if node.op == "placeholder":
                default = "" if not node.args else f" = {self._repr(node.args[0])}"
                free_vars.append(f"{node.target}{default}")
                typed_vars.append(f"{node.target}{tann}{default}")
                raw = node.target.replace("*", "")
                if raw != node.name:
                    body.append(f"{node.name} = {raw}\n")
                    typed_body.append(f"{node.name} = {raw}\n")
                continue
            if node.op == "output":
                stmt = f"return {self._repr(node.args[0])}"
                body.append(stmt + "\n")
                typed_body.append(stmt + "\n")
                continue
            if not said_no_trace and "stack_trace" not in node.meta:
                typed_body.append("# No stacktrace found for following nodes\n")
                said_no_trace = True
            rhs = self._rhs(node)
            dels = list(last_uses.get(node, []))
            if not node.users:
                dels.append(node)
            tail = (";  " + " = ".join([n.name for n in dels] + ["None"])) if dels else ""
            body.append(f"{node.name} = {rhs}{tail}\n")
            typed_body.append(f"{node.name}{tann} = {rhs}{tail}\n")
        self.typed_signature = ", ".join([self.root, *typed_vars])
        self.typed_body = typed_body
        src = f"\n\n\ndef forward({', '.join([self.root, *free_vars])}):\n"
        src += "".join("    " + line for line in body) + "    "
        return PythonCode(src, self.globals)

    def _rhs(self, node: Node) -> str:
        t = node.target
        if node.op == "call_function":
            name = getattr(t, "__name__", "")
            if getattr(t, "__module__", "") in ("_operator", "operator") and name in _MAGIC:
                if name == "getitem":
                    return f"{self._repr(node.args[0])}[{self._repr(node.args[1])}]"
                return _MAGIC[name].format(*(self._repr(a) for a in node.args))
            if (
                t is getattr
                and len(node.args) == 2
                and isinstance(node.args[1], str)
                and node.args[1].isidentifier()
            ):
                return f"{self._repr(node.args[0])}.{node.args[1]}"
            tn = type(t).__name__
            if tn.startswith("OpOverload"):
                fn = self._op_repr(t)
            elif tn == "HigherOrderOperator":
                fn = f"torch.ops.higher_order.{t.__name__}"
            else:
                fn = self._repr(t)
            return f"{fn}({self._args(node.args, node.kwargs)})"
        if node.op == "call_method":
            return f"{self._repr(node.args[0])}.{t}({self._args(node.args[1:], node.kwargs)})"
        if node.op == "call_module":
            return f"{self.root}.{t}({self._args(node.args, node.kwargs)})"
        if node.op == "get_attr":
            return f"{self.root}.{t}"
        raise NotImplementedError(f"node: {node.op} {t}")


def _ordered_inputs(node: Node) -> list[Node]:
    out: list[Node] = []
    map_arg(node.args, out.append)
    map_arg(node.kwargs, out.append)
    seen: set[Node] = set()
    res = []
    for n in out:
        if n not in seen:
            seen.add(n)
            res.append(n)
    return res
