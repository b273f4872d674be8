"""The schema data model: ``AliasInfo``, default values, ``Argument`` and ``FunctionSchema``, each
with PyTorch's printer beside it (``str()`` matches ``torch._C`` exactly)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from .schema_type import (
    _TENSOR_T,
    OPT_TENSOR,
    OPT_TENSOR_LIST,
    OTHER,
    TENSOR,
    TENSOR_LIST,
    SchemaParseError,
    SchemaType,
)


class AliasInfo:
    """An alias annotation: ``Tensor(a)``, ``Tensor(a!)``, ``Tensor(a -> *)``, ``Tensor(a|b)``.

    ``before_set``/``after_set`` are frozensets of set names (``"*"`` is the wildcard),
    ``is_write`` is the ``!``. An annotation on a list's *element* (``Tensor(a!)[]``) shows on the
    argument as a container alias with ``is_write`` copied from the element and *empty* sets; the
    element annotation lives in ``contained`` (as in PyTorch, where it is not visible from Python).

    Example::

        >>> a = parse_schema("f(Tensor(a!) x) -> ()").arguments[0].alias_info
        >>> a.is_write, sorted(a.before_set), str(a)
        (True, ['a'], '(a!)')
    """

    __slots__ = ("is_write", "before_set", "after_set", "contained", "_before", "_after")

    def __init__(
        self,
        is_write: bool = False,
        before: Iterable[str] = (),
        after: Iterable[str] = (),
        contained: Iterable[AliasInfo] = (),
    ) -> None:
        self.is_write = is_write
        # insertion order, de-duplicated (printing reverses it, like PyTorch's unordered_set)
        self._before = tuple(dict.fromkeys(before))
        self._after = tuple(dict.fromkeys(after))
        self.before_set = frozenset(self._before)
        self.after_set = frozenset(self._after)
        self.contained = tuple(contained)

    @property
    def is_wildcard_before(self) -> bool:
        return "*" in self.before_set

    @property
    def is_wildcard_after(self) -> bool:
        return "*" in self.after_set

    def all_sets(self) -> frozenset[str]:
        """Every set name in this annotation and in the annotations of contained elements."""
        out = set(self.before_set)
        for c in self.contained:
            out |= c.all_sets()
        return frozenset(out)

    def __str__(self) -> str:
        # PyTorch iterates an std::unordered_set: for these small sets that is the reverse of
        # the order the names were written in (hence `Tensor(a|b)` prints as `Tensor(b|a)`).
        out = "(" + "|".join(reversed(self._before))
        if self.is_write:
            out += "!"
        if self.before_set != self.after_set:
            out += " -> " + "|".join(reversed(self._after))
        return out + ")"

    def __repr__(self) -> str:
        return f"AliasInfo{self}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AliasInfo):
            return NotImplemented
        return (
            self.is_write == other.is_write
            and self.before_set == other.before_set
            and self.after_set == other.after_set
            and self.contained == other.contained
        )

    def __hash__(self) -> int:
        return hash((self.is_write, self.before_set, self.after_set))


# =============================================================================================
# Default values
# =============================================================================================


class DeviceDefault(str):
    """A ``Device`` default value (PyTorch gives a ``torch.device``): the canonical device string
    (``"cpu"``, ``"cuda:1"``) with ``.type`` and ``.index`` (``None`` when absent).

    Example::

        >>> d = parse_schema('f(Device d="cuda:1") -> ()').arguments[0].default_value
        >>> d == "cuda:1", d.type, d.index
        (True, 'cuda', 1)
    """

    type: str
    index: int | None

    def __new__(cls, type_: str, index: int | None = None) -> DeviceDefault:
        self = super().__new__(cls, type_ if index is None else f"{type_}:{index}")
        self.type = type_
        self.index = index
        return self

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"


_DEVICE_TYPES = (
    "cpu cuda ipu xpu mkldnn opengl opencl ideep hip ve fpga maia xla lazy vulkan mps meta hpu "
    "mtia privateuseone"
).split()
_DEVICE_RE = re.compile(r"([a-zA-Z_]+)(?::([1-9][0-9]*|0))?\Z")


def _parse_device(text: str) -> DeviceDefault:
    """c10::Device(string) validation, with its messages."""
    if not text:
        raise SchemaParseError("Device string must not be empty")
    m = _DEVICE_RE.match(text)
    if not m:
        raise SchemaParseError(f"Invalid device string: '{text}'")
    name, idx = m.group(1), m.group(2)
    if idx is not None and int(idx) > 2**31 - 1:
        raise SchemaParseError(f"Could not parse device index '{idx}' in device string '{text}'")
    if name not in _DEVICE_TYPES:
        raise SchemaParseError(
            "Expected one of "
            + ", ".join(_DEVICE_TYPES)
            + f" device type at start of device string: {name}"
        )
    index = None
    if idx is not None:
        index = (int(idx) + 128) % 256 - 128  # DeviceIndex is an int8
        if index < -1:
            raise SchemaParseError(f"Device index must be -1 or non-negative, got {index}")
        if index == -1:
            index = None
    return DeviceDefault(name, index)


# torch dtype names accepted as ScalarType defaults -> ScalarType enum value
_DTYPE_NAMES = {
    "uint8": 0,
    "int8": 1,
    "int16": 2,
    "short": 2,
    "int32": 3,
    "int": 3,
    "int64": 4,
    "long": 4,
    "float16": 5,
    "half": 5,
    "float32": 6,
    "float": 6,
    "float64": 7,
    "double": 7,
    "complex32": 8,
    "chalf": 8,
    "complex64": 9,
    "cfloat": 9,
    "complex128": 10,
    "cdouble": 10,
    "bool": 11,
    "qint8": 12,
    "quint8": 13,
    "qint32": 14,
    "bfloat16": 15,
    "quint4x2": 16,
    "quint2x4": 17,
    "bits1x8": 18,
    "bits2x4": 19,
    "bits4x2": 20,
    "bits8": 21,
    "bits16": 22,
    "float8_e5m2": 23,
    "float8_e4m3fn": 24,
    "float8_e5m2fnuz": 25,
    "float8_e4m3fnuz": 26,
    "uint16": 27,
    "uint32": 28,
    "uint64": 29,
    "uint1": 30,
    "bit": 30,
    "uint2": 31,
    "uint3": 32,
    "uint4": 33,
    "uint5": 34,
    "uint6": 35,
    "uint7": 36,
    "int1": 37,
    "int2": 38,
    "int3": 39,
    "int4": 40,
    "int5": 41,
    "int6": 42,
    "int7": 43,
    "float8_e8m0fnu": 44,
    "float4_e2m1fn_x2": 45,
}
# identifiers accepted as a default for any type (for backward compatibility, like PyTorch)
_BC_IDENTS = {"float": 6, "complex": 9, "long": 4, "strided": 0, "Mean": 1, "contiguous_format": 0}


def _format_double(d: float) -> str:
    """IValue's printing of a double: integral values in int64 range as ``1.``, else %.17g."""
    if math.isfinite(d) and d == int(d) and -(2**63) <= d < 2**63:
        return f"{int(d)}."
    return format(d, ".17g")


def _format_ivalue(v: object) -> str:
    if v is None:
        return "None"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _format_double(v)
    if isinstance(v, complex):
        sign = "+" if v.imag >= 0 else "-"
        return f"{_format_double(v.real)}{sign}{_format_double(abs(v.imag))}j"
    if isinstance(v, list):
        return "[" + ", ".join(_format_ivalue(x) for x in v) + "]"
    return str(v)


def _quote_string(s: str) -> str:
    """c10::printQuotedString, byte by byte over the UTF-8 encoding."""
    out = ['"']
    for b in s.encode("utf-8"):
        c = chr(b)
        if c == "\\":
            out.append("\\\\")
        elif c == "'":
            out.append("\\'")
        elif c == '"':
            out.append('\\"')
        elif c in _ESCAPES_OUT:
            out.append(_ESCAPES_OUT[c])
        elif 0x1F < b < 0x7F:
            out.append(c)
        else:
            # PyTorch formats the (signed) char in octal with C++ truncating division
            s8 = b - 256 if b > 127 else b
            d2 = int(math.fmod(s8, 8))
            s8 = int(s8 / 8)
            d1 = int(math.fmod(s8, 8))
            s8 = int(s8 / 8)
            out.append("\\" + chr(48 + s8) + chr(48 + d1) + chr(48 + d2))
    out.append('"')
    return "".join(out)


_ESCAPES_OUT = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


# =============================================================================================
# Arguments and schemas
# =============================================================================================

_NO_DEFAULT = object()


class Argument:
    """One argument (or return) of a schema.

    Attributes mirror ``torch._C.Argument``: ``name``, ``type`` (the JIT type: ScalarType,
    Layout, MemoryFormat and SymInt read as ``int``), ``real_type`` (as declared), ``N`` (the
    ``[N]`` of ``int[2]``, else ``None``), ``default_value`` (``None`` also when there is none:
    use :meth:`has_default_value`), ``kwarg_only``, ``is_out``, ``is_write``, ``alias_info``.
    Also ``kind``: one of :data:`TENSOR`, :data:`OPT_TENSOR`, :data:`TENSOR_LIST`,
    :data:`OPT_TENSOR_LIST`, :data:`OTHER`. ``str(arg)`` is its schema spelling.

    Example::

        >>> a = parse_schema("f(int[2] k=1) -> ()").arguments[0]
        >>> a.N, a.default_value, str(a.type), str(a)
        (2, [1, 1], 'List[int]', 'int[2] k=1')
    """

    __slots__ = (
        "name",
        "type",
        "real_type",
        "N",
        "default_value",
        "_has_default",
        "kwarg_only",
        "is_out",
        "is_write",
        "alias_info",
        "kind",
        "_str",
    )

    def __init__(
        self,
        name: str,
        type: SchemaType,  # noqa: A002 - mirrors torch
        real_type: SchemaType | None = None,
        N: int | None = None,
        default_value: object = _NO_DEFAULT,
        kwarg_only: bool = False,
        alias_info: AliasInfo | None = None,
    ) -> None:
        self.name = name
        self.type = type
        self.real_type = type if real_type is None else real_type
        self.N = N
        self._has_default = default_value is not _NO_DEFAULT
        self.default_value = default_value if self._has_default else None
        self.kwarg_only = kwarg_only
        self.alias_info = alias_info
        self.is_write = alias_info is not None and alias_info.is_write
        self.is_out = kwarg_only and self.is_write
        self.kind = _arg_kind(self.real_type)
        self._str: str | None = None

    def has_default_value(self) -> bool:
        """Whether a default was given (``x=None`` counts)."""
        return self._has_default

    def __str__(self) -> str:
        if self._str is None:
            self._str = _format_argument(self)
        return self._str

    def __repr__(self) -> str:
        return f"Argument({self})"

    def _key(self) -> tuple:
        d = self.default_value
        return (
            self.name,
            self.type,
            self.real_type,
            self.N,
            self._has_default,
            type(d),
            repr(d),
            self.kwarg_only,
            self.alias_info,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Argument):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.name, self.type, self.N, self.kwarg_only))


def _arg_kind(t: SchemaType) -> int:
    k = t._kind
    if k == "TensorType":
        return TENSOR
    if k == "OptionalType":
        return OPT_TENSOR if t.elem is _TENSOR_T else OTHER
    if k == "ListType":
        e = t.elem
        if e is _TENSOR_T:
            return TENSOR_LIST
        if e._kind == "OptionalType" and e.elem is _TENSOR_T:
            return OPT_TENSOR_LIST
    return OTHER


def _format_argument(arg: Argument) -> str:
    t = arg.real_type
    is_opt = t._kind == "OptionalType"
    unopt = t.elem if is_opt else t
    ai = arg.alias_info
    if unopt._kind == "ListType":
        out = unopt.elem._sstr
        if ai is not None and ai.contained:
            out += str(ai.contained[0])
        out += "[" + ("" if arg.N is None else str(arg.N)) + "]"
    else:
        out = unopt._sstr
    if ai is not None and ai._before:
        out += str(ai)
    if is_opt:
        out += "?"
    if arg.name:
        out += " " + arg.name
    if arg._has_default:
        d = arg.default_value
        if (
            isinstance(d, str)
            and not isinstance(d, DeviceDefault)
            and (t._kind == "StringType" or unopt._kind == "StringType")
        ):
            out += "=" + _quote_string(d)
        elif (
            t._kind == "ListType"
            and t.elem._kind == "IntType"
            and isinstance(d, list)
            and len(d) > 1
            and all(x == d[0] for x in d)
        ):
            # native_functions.yaml style: `int[2] stride=1`, not `stride=[1, 1]`
            out += "=" + _format_ivalue(d[0])
        else:
            out += "=" + _format_ivalue(d)
    return out


class FunctionSchema:
    """A parsed operator schema; build one with :func:`parse_schema`.

    Mirrors ``torch._C.FunctionSchema``: ``name`` (``"aten::add"``), ``overload_name``
    (``"Tensor"`` or ``""``), ``arguments`` and ``returns`` (tuples of :class:`Argument`),
    ``is_vararg``, ``is_varret``, ``is_mutable``. ``str(schema)`` is PyTorch's printing.

    Precomputed for the dispatcher (plain attributes): ``qualified_name`` (``"aten::add.Tensor"``),
    ``namespace`` (``"aten"``, or ``""``), ``base_name`` (``"add"``), ``tensor_arg_indices``
    (indices into ``arguments`` of args whose ``kind`` is not :data:`OTHER`, keyword-only ones
    included), ``mutated_arg_indices`` (args whose alias annotation has ``!``), and
    ``aliased_returns`` (per return: index of the first argument sharing an alias set with it,
    looking inside list annotations and ignoring the ``*`` wildcard, else ``None``).

    Example::

        >>> s = parse_schema("aten::add_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")
        >>> s.qualified_name, s.tensor_arg_indices, s.mutated_arg_indices, s.aliased_returns
        ('aten::add_.Tensor', (0, 1), (0,), (0,))
    """

    __slots__ = (
        "name",
        "overload_name",
        "arguments",
        "returns",
        "is_vararg",
        "is_varret",
        "is_mutable",
        "qualified_name",
        "namespace",
        "base_name",
        "tensor_arg_indices",
        "mutated_arg_indices",
        "aliased_returns",
        "_str",
        "__weakref__",
    )

    def __init__(
        self,
        name: str,
        overload_name: str,
        arguments: Iterable[Argument],
        returns: Iterable[Argument],
        is_vararg: bool = False,
        is_varret: bool = False,
    ) -> None:
        self.name = name
        self.overload_name = overload_name
        self.arguments = tuple(arguments)
        self.returns = tuple(returns)
        self.is_vararg = is_vararg
        self.is_varret = is_varret
        self._str: str | None = None
        self._check()
        args = self.arguments
        self.is_mutable = any(a.is_write for a in args)
        self.qualified_name = f"{name}.{overload_name}" if overload_name else name
        ns, sep, base = name.partition("::")
        self.namespace = ns if sep else ""
        self.base_name = base if sep else name
        self.tensor_arg_indices = tuple(i for i, a in enumerate(args) if a.kind)
        self.mutated_arg_indices = tuple(i for i, a in enumerate(args) if a.is_write)
        arg_sets = [
            (a.alias_info.all_sets() - {"*"}) if a.alias_info is not None else frozenset()
            for a in args
        ]
        aliased: list[int | None] = []
        for r in self.returns:
            found = None
            if r.alias_info is not None:
                rs = r.alias_info.all_sets() - {"*"}
                for i, s in enumerate(arg_sets):
                    if s & rs:
                        found = i
                        break
            aliased.append(found)
        self.aliased_returns = tuple(aliased)

    def _check(self) -> None:
        # FunctionSchema::checkSchema (an internal assert in PyTorch)
        seen_default = False
        for arg in self.arguments:
            if arg._has_default:
                seen_default = True
            elif arg.type._kind == "ListType":
                continue  # historically allowed
            elif seen_default and not arg.kwarg_only:
                raise SchemaParseError(
                    "Non-default positional argument follows default argument. Parameter "
                    f"{arg.name} in {self}"
                )

    def __str__(self) -> str:
        s = self._str
        if s is None:
            s = self._str = _format_schema(self)
        return s

    __repr__ = __str__

    def _key(self) -> tuple:
        return (
            self.name,
            self.overload_name,
            self.arguments,
            self.returns,
            self.is_vararg,
            self.is_varret,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FunctionSchema):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(str(self))


def _format_schema(s: FunctionSchema) -> str:
    out = [s.name]
    if s.overload_name:
        out += [".", s.overload_name]
    out.append("(")
    seen_kw = False
    for i, a in enumerate(s.arguments):
        if i:
            out.append(", ")
        if a.kwarg_only and not seen_kw:
            out.append("*, ")
            seen_kw = True
        out.append(str(a))
    if s.is_vararg:
        if s.arguments:
            out.append(", ")
        out.append("...")
    out.append(") -> ")
    rets = s.returns
    single = len(rets) == 1 and not s.is_varret
    need_paren = not (single or (not rets and s.is_varret))
    rstrs = [str(r) for r in rets]
    if single and rstrs[0].startswith("("):
        need_paren = True
    if need_paren:
        out.append("(")
    out.append(", ".join(rstrs))
    if s.is_varret:
        if rets:
            out.append(", ")
        out.append("...")
    if need_paren:
        out.append(")")
    return "".join(out)
