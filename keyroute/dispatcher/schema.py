"""Operator schemas: PyTorch's FunctionSchema grammar, its data model and its printer.

A schema string looks like ``ns::name.overload(Type name=default, *, ...) -> Returns``.
:func:`parse_schema` turns one into a :class:`FunctionSchema` whose ``str()`` is exactly what
``str(torch._C.parse_schema(text))`` gives in PyTorch 2.13, and whose attributes mirror the
Python attributes of ``torch._C.FunctionSchema`` / ``torch._C.Argument`` / ``torch._C._AliasInfo``.

Example::

    >>> s = parse_schema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    >>> s.name, s.overload_name, s.arguments[2].default_value
    ('aten::add', 'Tensor', 1)
    >>> str(s)
    'aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor'

The lexer, the error messages (with PyTorch's ``~~~~ <--- HERE`` highlight) and the printer
follow PyTorch's behaviour, quirks included (see ``docs`` of the individual functions).
Parsed schemas are cached by text and shared: treat every object here as immutable.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

__all__ = [
    "TENSOR",
    "OPT_TENSOR",
    "TENSOR_LIST",
    "OPT_TENSOR_LIST",
    "OTHER",
    "AliasInfo",
    "Argument",
    "DeviceDefault",
    "FunctionSchema",
    "SchemaParseError",
    "SchemaType",
    "parse_name",
    "parse_schema",
    "parse_schema_or_name",
]

# ---------------------------------------------------------------------------------------------
# Argument kinds, as the dispatcher sees them (computed from the declared type, aliasing ignored).
# They follow PyTorch's DispatchKeyExtractor: only these four shapes carry dispatch keys.
# ``OTHER`` is 0 so that ``if arg.kind:`` means "tensor-like".
# ---------------------------------------------------------------------------------------------
OTHER = 0
TENSOR = 1  #: ``Tensor``
OPT_TENSOR = 2  #: ``Tensor?``
TENSOR_LIST = 3  #: ``Tensor[]`` / ``Tensor[N]``
OPT_TENSOR_LIST = 4  #: ``Tensor?[]`` (a list of optional tensors); ``Tensor[]?`` is OTHER


class SchemaParseError(ValueError):
    """A schema string that PyTorch would refuse.

    ``str(err)`` is worded like PyTorch's message (for source errors: the message, the source line
    and a ``~~~ <--- HERE`` caret line). ``err.message`` is the bare message, ``err.source`` the
    text and ``err.start``/``err.end`` the character span it points at (``None`` when the error
    has no position, like PyTorch's TORCH_CHECK failures).

    Example::

        >>> try:
        ...     parse_schema("f(float a=inf) -> ()")
        ... except SchemaParseError as e:
        ...     print(e.message, e.start, e.end)
        invalid numeric default value 13 14
    """

    def __init__(
        self,
        text: str,
        message: str | None = None,
        source: str | None = None,
        start: int | None = None,
        end: int | None = None,
    ) -> None:
        super().__init__(text)
        self.message = text if message is None else message
        self.source = source
        self.start = start
        self.end = end


# =============================================================================================
# Types
# =============================================================================================

_INTERN: dict[tuple, SchemaType] = {}


class SchemaType:
    """A JIT type as it appears in a schema (interned: compare with ``==`` or ``is``).

    ``str(t)`` is PyTorch's Python-side string (``List[int]``, ``Optional[Tensor]``, ``number``);
    ``t.str()`` is the schema spelling (``int[]``, ``Tensor?``, ``Scalar``); ``t.kind()`` is the
    PyTorch kind name (``"TensorType"``, ``"ListType"``, ...). ``t.contained`` holds the element
    types of containers and ``t.elem`` the element of a List/Optional (else ``None``).

    Example::

        >>> t = parse_schema("f(int[]? x) -> ()").arguments[0].type
        >>> str(t), t.str(), t.kind(), str(t.elem)
        ('Optional[List[int]]', 'int[]?', 'OptionalType', 'List[int]')
    """

    __slots__ = ("_kind", "name", "contained", "elem", "_annot", "_sstr")

    def __init__(self, kind: str, contained: tuple = (), name: str | None = None) -> None:
        self._kind = kind
        self.name = name
        self.contained = contained
        self.elem = contained[0] if kind in ("ListType", "OptionalType") else None
        self._annot = _annotation_str(kind, contained, name)
        self._sstr = _schema_str(kind, contained, name)

    @staticmethod
    def make(
        kind: str, contained: Iterable[SchemaType] = (), name: str | None = None
    ) -> SchemaType:
        """Return the interned type of this kind (``"ListType"``, ...), contents and name."""
        contained = tuple(contained)
        key = (kind, contained, name)
        t = _INTERN.get(key)
        if t is None:
            if kind == "OptionalType" and contained[0]._kind == "OptionalType":
                inner = contained[0]
                if inner.elem is _NUMBER_T:
                    # PyTorch builds this one through a Union: Optional[Union[number]]
                    u = SchemaType.make("UnionType", (inner.elem,))
                    t = SchemaType.make("OptionalType", (u,))
                else:
                    t = inner  # Optional[Optional[T]] is Optional[T]
            else:
                t = SchemaType(kind, contained, name)
            _INTERN[key] = t
        return t

    @staticmethod
    def list_of(elem: SchemaType) -> SchemaType:
        """``elem[]``."""
        return SchemaType.make("ListType", (elem,))

    @staticmethod
    def optional_of(elem: SchemaType) -> SchemaType:
        """``elem?`` (``Optional[Optional[T]]`` collapses to ``Optional[T]``)."""
        return SchemaType.make("OptionalType", (elem,))

    @staticmethod
    def get(schema_name: str) -> SchemaType:
        """The base type spelt ``schema_name`` in a schema (``"Tensor"``, ``"SymInt"``, ...)."""
        if schema_name == "Tensor":
            return _TENSOR_T
        return _BASE_TYPES[schema_name]

    def kind(self) -> str:
        """PyTorch's kind name, e.g. ``"TensorType"``."""
        return self._kind

    def str(self) -> str:  # noqa: A003 - mirrors torch's Type.str()
        """The schema spelling, e.g. ``"Tensor?"``, ``"int[]"``, ``"Dict(str, Tensor)"``."""
        return self._sstr

    @property
    def annotation_str(self) -> str:
        """PyTorch's Python-side spelling, e.g. ``"Optional[Tensor]"`` (same as ``str()``)."""
        return self._annot

    def __str__(self) -> str:
        return self._annot

    def __repr__(self) -> str:
        return self._annot

    def __reduce__(self):
        return (SchemaType.make, (self._kind, self.contained, self.name))


_ANNOT_SIMPLE = {
    "TensorType": "Tensor",
    "IntType": "int",
    "SymIntType": "int",
    "SymBoolType": "bool",
    "FloatType": "float",
    "ComplexType": "complex",
    "BoolType": "bool",
    "StringType": "str",
    "NumberType": "number",
    "ScalarTypeType": "ScalarType",
    "LayoutType": "Layout",
    "MemoryFormatType": "MemoryFormat",
    "DeviceObjType": "Device",
    "StreamObjType": "Stream",
    "GeneratorType": "Generator",
    "StorageType": "Storage",
    "QSchemeType": "QScheme",
    "QuantizerType": "Quantizer",
    "CapsuleType": "Capsule",
    "NoneType": "NoneType",
    "AnyType": "Any",
    "AnyClassType": "AnyClassType",
    "AnyEnumType": "AnyEnumType",
}
_SCHEMA_SIMPLE = dict(
    _ANNOT_SIMPLE, SymIntType="SymInt", SymBoolType="SymBool", NumberType="Scalar"
)
_WRAPPERS = {"FutureType": "Future", "RRefType": "RRef", "AwaitType": "Await", "UnionType": "Union"}


def _annotation_str(kind: str, contained: tuple, name: str | None) -> str:
    if kind in _ANNOT_SIMPLE:
        return _ANNOT_SIMPLE[kind]
    if kind in ("VarType", "ClassType"):
        return name  # type: ignore[return-value]
    inner = ", ".join(t._annot for t in contained)
    if kind == "OptionalType":
        return f"Optional[{inner}]"
    if kind == "ListType":
        return f"List[{inner}]"
    if kind == "DictType":
        return f"Dict[{inner}]"
    if kind == "TupleType":
        return f"Tuple[{inner or '()'}]"
    return f"{_WRAPPERS[kind]}[{inner}]"


def _schema_str(kind: str, contained: tuple, name: str | None) -> str:
    if kind in _SCHEMA_SIMPLE:
        return _SCHEMA_SIMPLE[kind]
    if kind in ("VarType", "ClassType"):
        return name  # type: ignore[return-value]
    if kind == "OptionalType":
        return contained[0]._sstr + "?"
    if kind == "ListType":
        return contained[0]._sstr + "[]"
    inner = ", ".join(t._sstr for t in contained)
    if kind == "DictType":
        return f"Dict({inner})"
    if kind == "TupleType":
        return f"({inner})"
    return f"{_WRAPPERS[kind]}({inner})"


_TENSOR_T = SchemaType.make("TensorType")
_INT_T = SchemaType.make("IntType")
_NONE_T = SchemaType.make("NoneType")
_NUMBER_T = SchemaType.make("NumberType")

# name in a schema -> (real type, fake type). ScalarType/Layout/MemoryFormat/SymInt are ints to
# the JIT ("fake" type, ``Argument.type``); ``Argument.real_type`` keeps the declared one.
_BASE_TYPES: dict[str, SchemaType] = {
    "Generator": SchemaType.make("GeneratorType"),
    "ScalarType": SchemaType.make("ScalarTypeType"),
    "Layout": SchemaType.make("LayoutType"),
    "MemoryFormat": SchemaType.make("MemoryFormatType"),
    "Storage": SchemaType.make("StorageType"),
    "QScheme": SchemaType.make("QSchemeType"),
    "Quantizer": SchemaType.make("QuantizerType"),
    "ConstQuantizerPtr": _INT_T,
    "Device": SchemaType.make("DeviceObjType"),
    "DeviceIndex": _INT_T,
    "Stream": SchemaType.make("StreamObjType"),
    "Scalar": _NUMBER_T,
    "str": SchemaType.make("StringType"),
    "float": SchemaType.make("FloatType"),
    "complex": SchemaType.make("ComplexType"),
    "int": _INT_T,
    "SymInt": SchemaType.make("SymIntType"),
    "SymBool": SchemaType.make("SymBoolType"),
    "bool": SchemaType.make("BoolType"),
    "None": _NONE_T,
    "NoneType": _NONE_T,
    "Capsule": SchemaType.make("CapsuleType"),
    "Any": SchemaType.make("AnyType"),
    "AnyClassType": SchemaType.make("AnyClassType"),
    "AnyEnumType": SchemaType.make("AnyEnumType"),
}
_FAKE_AS_INT = frozenset({"ScalarTypeType", "MemoryFormatType", "LayoutType", "SymIntType"})

# TypeKind declaration order in c10 (used to order the members of a Union, as PyTorch does).
_KIND_ORDER = {
    k: i
    for i, k in enumerate(
        (
            "AnyType EnumType AnyEnumType TensorType StorageType TupleType ListType DictType "
            "NumberType FloatType ComplexType FutureType AwaitType RRefType IntType NoneType "
            "StringType GeneratorType QuantizerType BoolType OptionalType VarType DeviceObjType "
            "StreamObjType FunctionType ClassType PyObjectType CapsuleType InterfaceType "
            "QSchemeType ScalarTypeType LayoutType MemoryFormatType AnyListType AnyTupleType "
            "AnyClassType SymIntType SymFloatType SymBoolType UnionType DynamicType"
        ).split()
    )
}


def _make_union(types: list[SchemaType]) -> SchemaType:
    """Union(...): flattened, de-duplicated, ordered by type kind, ``Union(T, None)`` -> ``T?``.

    This approximates PyTorch's type unification (which also merges subtypes, expands ``Scalar``
    into int/float/complex and orders members of the same kind in its own way); no registered
    operator uses a Union.
    """
    flat: list[SchemaType] = []

    def add(t: SchemaType) -> None:
        if t._kind == "UnionType":
            for c in t.contained:
                add(c)
        elif t._kind == "OptionalType":
            add(t.contained[0])
            add(_NONE_T)
        elif t not in flat:
            flat.append(t)

    for t in types:
        add(t)
    if _NUMBER_T in flat:
        flat = [t for t in flat if t._kind not in ("IntType", "FloatType", "ComplexType")]
    if len(flat) == 1 and not (flat[0] is _NUMBER_T and len(types) > 1):
        originals = "".join(t._annot + ("," if i else "") + " " for i, t in enumerate(types))
        raise SchemaParseError(
            "After type unification was performed, the Union with the original types "
            f"{{{originals}}} has the single type {flat[0]._annot}. Use the common "
            "supertype instead of creating a Uniontype"
        )
    flat.sort(key=lambda t: (_KIND_ORDER.get(t._kind, 99), t._annot))
    if len(flat) == 2 and _NONE_T in flat:
        other = flat[0] if flat[1] is _NONE_T else flat[1]
        return SchemaType.optional_of(other)
    return SchemaType.make("UnionType", flat)


# =============================================================================================
# Alias annotations
# =============================================================================================


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


# =============================================================================================
# Lexer (PyTorch's TorchScript lexer, restricted to what a schema can contain)
# =============================================================================================

_KEYWORDS = {
    "def": "def",
    "if": "if",
    "else": "else",
    "elif": "elif",
    "while": "while",
    "return": "return",
    "is": "is",
    "True": "True",
    "False": "False",
    "None": "None",
    "and": "and",
    "or": "or",
    "not": "not",
    "global": "global",
    "for": "for",
    "in": "in",
    "raise": "raise",
    "assert": "assert",
    "break": "break",
    "continue": "continue",
    "del": "del",
    "pass": "pass",
    "class": "class",
    "import": "import",
    "with": "with",
    "as": "as",
    "Ellipsis": "Ellipsis",
    "NoneType": "NoneType",
}
# multi-character operator tokens -> kind name (as PyTorch's kindToString spells them)
_MULTI_OPS = {
    "<=>": "equivalent",
    "**=": "**=",
    "<<=": "<<=",
    ">>=": ">>=",
    "...": "dots",
    "->": "arrow",
    "!=": "ne",
    "==": "eq",
    "<=": "le",
    ">=": "ge",
    "//": "floordiv",
    "<<": "<<",
    ">>": ">>",
    "+=": "+=",
    "-=": "-=",
    "*=": "*=",
    "/=": "/=",
    "%=": "%=",
    "|=": "|=",
    "&=": "&=",
    "^=": "^=",
    "**": "pow operator",
}
_OP_RE = re.compile(
    "|".join(re.escape(o) for o in sorted(_MULTI_OPS, key=len, reverse=True))
    + r"|[-+*/%@()\[\]:,={}><.?!&^|~]"
)
_NUM = (
    r"(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?[0-9]+)?"
    r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)j?"
)
_NUM_RE = re.compile(_NUM)
# The common case in one match: blanks, then a number, an identifier or an operator.
_FAST_RE = re.compile(
    r"[ \t\v\f\r]*(?:(" + _NUM + r")|([A-Za-z_][A-Za-z0-9_]*)|(" + _OP_RE.pattern + r"))"
)
_BLANKS = " \t\v\f\r"

# token = (kind, start, end); kind is PyTorch's kindToString spelling: "ident", "number",
# "string_literal", "eof", "newline", "indent", "dedent", "arrow", "dots", a keyword, or the
# character itself. An error token is ("<error>", message, exception-kwargs).
_OPEN = {"(", "[", "{"}
_CLOSE = {")", "]", "}"}


def _is_string(src: str, pos: int) -> int:
    """Length of the string literal at ``pos`` (0 if none), PyTorch's isString."""
    quote = src[pos]
    n = len(src)
    ql = 3 if src.startswith(quote * 3, pos) else 1
    end = pos + ql
    closing = quote * ql
    while end < n and not src.startswith(closing, end):
        if src[end] == "\n" and ql != 3:
            return 0
        if src[end] == "\\":
            end += 1
        end += 1
    return end - pos + ql if end < n else 0


class _LexError(Exception):
    pass


def _match(src: str, pos: int, continuation: bool, whitespace_token: bool) -> tuple:
    """PyTorch's SharedParserData::match: returns (kind, start, end) or raises _LexError."""
    n = len(src)
    orig = pos
    while True:
        start = pos
        while pos < n and src[pos] in _BLANKS:
            pos += 1
        if pos < n:
            c = src[pos]
            if c == "#" and not src.startswith("# type:", pos):
                while pos < n and src[pos] != "\n":
                    pos += 1
                continue
            if c == "\\" and pos + 1 < n and src[pos + 1] == "\n" and not whitespace_token:
                pos += 2
                whitespace_token = False
                continue
            if c == "\n":
                pos += 1
                whitespace_token = not continuation
                continue
        break
    if whitespace_token:
        return ("<ws_eof>" if pos == n else "<ws>", start, pos)
    if pos == n:
        return ("eof", pos, pos)
    start = pos
    c = src[pos]
    if c != "-" and c != "+":
        m = _NUM_RE.match(src, pos)
        if m and m.end() > pos:
            return ("number", pos, m.end())
    if c == '"' or c == "'":
        ln = _is_string(src, pos)
        if ln:
            return ("string_literal", pos, pos + ln)
    if c.isascii() and (c.isalpha() or c == "_"):
        end = pos + 1
        while end < n and (src[end] == "_" or (src[end].isascii() and src[end].isalnum())):
            end += 1
        word = src[pos:end]
        if word == "is" and src.startswith(" not", end):
            return ("is not", pos, end + 4)
        if word == "not" and src.startswith(" in", end):
            return ("not in", pos, end + 3)
        return (_KEYWORDS.get(word, "ident"), pos, end)
    if src.startswith("# type:", pos):
        return ("type comment", pos, pos + 7)
    m = _OP_RE.match(src, pos)
    if m:
        op = m.group()
        return (_MULTI_OPS.get(op, op), pos, m.end())
    raise _LexError(
        _expected_msg(src, "a valid token", src[orig] if orig < n else "\0", start, start + 1)
    )


def _tokenize(src: str) -> list:
    """All tokens, as PyTorch's Lexer would hand them out (NEWLINE/INDENT/DEDENT included).

    A lexing error becomes an error token at the place the lexer would have raised it.
    """
    toks: list = []
    append = toks.append
    try:
        first = _match(src, 0, False, True)
    except _LexError as e:  # pragma: no cover - whitespace matching cannot fail
        return [("<error>", str(e), None)]
    indent_stack = [first[2] - first[1]]
    pos = first[2]
    nesting = 0
    fast = _FAST_RE.match
    keywords = _KEYWORDS
    multi = _MULTI_OPS
    while True:
        m = fast(src, pos)
        if m is not None:
            num, word, op = m.groups()
            if num is not None:
                append(("number", m.start(1), m.end()))
                pos = m.end()
                continue
            if word is not None:
                end = m.end()
                if (word == "is" or word == "not") and src.startswith(
                    " not" if word == "is" else " in", end
                ):
                    pass  # rare: take the slow path
                else:
                    append((keywords.get(word, "ident"), m.start(2), end))
                    pos = end
                    continue
            else:
                if op in _OPEN:
                    nesting += 1
                elif op in _CLOSE:
                    nesting -= 1
                append((multi.get(op, op), m.start(3), m.end()))
                pos = m.end()
                continue
        try:
            kind, start, end = _match(src, pos, nesting != 0, False)
        except _LexError as e:
            append(("<error>", str(e), None))
            return toks
        pos = end
        if kind in _OPEN:
            nesting += 1
        elif kind in _CLOSE:
            nesting -= 1
        elif kind == "<ws>" or kind == "<ws_eof>":
            depth = indent_stack[0] if kind == "<ws_eof>" else end - start
            if depth > indent_stack[-1]:
                indent_stack.append(depth)
                kind = "indent"
            elif depth == indent_stack[-1]:
                kind = "newline"
            else:
                batch = [("newline", start, end)]
                while indent_stack[-1] != depth:
                    indent_stack.pop()
                    batch.append(("dedent", start, end))
                    if not indent_stack:
                        msg = f"invalid indent level {depth}:\n" + _highlight(src, start, end)
                        append(("<error>", msg, None))
                        return toks
                toks.extend(batch)
                continue
        append((kind, start, end))
        if kind == "eof":
            return toks


# =============================================================================================
# Error formatting (PyTorch's SourceRange::highlight / ErrorReport / Lexer::expected)
# =============================================================================================


def _highlight(s: str, start: int, end: int, context: int = 3) -> str:
    n = len(s)
    if end - start == n:
        return s
    range_end = min(n, end)
    if start > n:
        return ""
    begin_line = start
    while begin_line > 0 and s[begin_line - 1] != "\n":
        begin_line -= 1
    end_line = range_end
    while end_line < n and s[end_line] != "\n":
        end_line += 1
    begin_context = begin_line
    i = 0
    while begin_context > 0:
        if s[begin_context - 1] == "\n":
            i += 1
        if i >= context:
            break
        begin_context -= 1
    end_context = end_line
    i = 0
    while end_context < n:
        if s[end_context] == "\n":
            i += 1
        if i >= context:
            break
        end_context += 1
    out = [s[begin_context:start]]
    line_start = start
    line_end = start
    while line_start < range_end:
        while line_end < n and s[line_end] != "\n":
            line_end += 1
        actual = s[line_start : line_end + 1]
        out.append(actual)
        if not actual.endswith("\n"):
            out.append("\n")
        hb = line_start
        while hb > 0 and s[hb - 1] != "\n":
            hb -= 1
        he = line_start
        while he < range_end and s[he] != "\n":
            he += 1
        empty = 0
        for k in range(hb, he):
            if s[k] == " " or k < start:
                empty += 1
            else:
                break
        hs = he - hb - empty
        if hs > 0:
            more = False
            for k in range(line_end, range_end + 1):
                ch = s[k] if k < n else "\0"
                if ch != "\n" and ch != " ":
                    more = True
            out.append(" " * empty + "~" * hs)
            out.append("\n" if (more and line_end != range_end) else " <--- HERE\n")
        line_end += 1
        line_start = line_end
    if line_end <= n:
        tail = s[line_end:end_context]
        out.append(tail)
        if tail and not tail.endswith("\n"):
            out.append("\n")
    return "".join(out)


def _expected_msg(src: str, what: str, found: str, start: int, end: int) -> str:
    return f"expected {what} but found '{found}' here:\n" + _highlight(src, start, end)


# =============================================================================================
# Parser
# =============================================================================================


_DEC_RE = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_HEX_RE = re.compile(r"0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+))([pP][-+]?[0-9]+)?")


def _c_stod(n: str) -> float:
    """std::stod on a number token (hex floats included); range errors raise like PyTorch."""
    neg = n.startswith("-")
    body = n[1:] if neg else n
    m = _HEX_RE.match(body)
    if m:
        mantissa = m.group(1)
        try:
            v = float.fromhex("0x" + mantissa + (m.group(2) or "p0"))
        except OverflowError:
            raise SchemaParseError("stod") from None
    else:
        m = _DEC_RE.match(body)
        if not m:
            raise SchemaParseError("stod")  # std::invalid_argument
        mantissa = re.split("[eE]", m.group())[0]
        v = float(m.group())
    if math.isinf(v) or (v != 0.0 and abs(v) < 2.2250738585072014e-308):
        raise SchemaParseError("stod")  # std::out_of_range (ERANGE)
    if v == 0.0 and mantissa.strip("0.") != "":
        raise SchemaParseError("stod")  # underflow to zero
    return -v if neg else v


def _c_stoll(n: str) -> int:
    m = re.match(r"-?[0-9]+", n)
    if not m:
        raise SchemaParseError("stoll")
    v = int(m.group())
    if not -(2**63) <= v < 2**63:
        raise SchemaParseError("stoll")
    return v


def _unescape(src_text: str, start: int, end: int, source: str) -> str:
    """parseStringLiteral: strip the quotes and resolve escapes (PyTorch's subset)."""
    ql = 3 if src_text[:3] in ('"""', "'''") else 1
    s = src_text[ql : len(src_text) - ql]
    if "\\" not in s:
        return s
    out = []
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = s[i + 1] if i + 1 < n else "\0"
        if e in "\\'\"\n":
            out.append(e)
            i += 2
        elif e in _ESCAPES_IN:
            out.append(_ESCAPES_IN[e])
            i += 2
        elif e == "x":
            raise _report(source, start, end, "unsupported hex specifier")
        elif e in "uU":
            raise _report(source, start, end, "unsupported unicode specifier")
        else:
            digits = s[i + 1 : i + 4]
            if i + 3 < n and len(digits) == 3 and all("0" <= d <= "7" for d in digits):
                v = int(digits, 8)
                if v < 256:
                    out.append(chr(v))
                    i += 4
                    continue
            raise _report(source, start, end, " ill formed octal specifier")
    return "".join(out)


_ESCAPES_IN = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "v": "\v", "t": "\t"}


def _report(source: str, start: int, end: int, msg: str) -> SchemaParseError:
    """An ErrorReport: '\\n<msg>:\\n<highlight>'."""
    return SchemaParseError(
        "\n" + msg + ":\n" + _highlight(source, start, end), msg, source, start, end
    )


class _Parser:
    __slots__ = ("src", "toks", "i", "allow_typevars", "next_id", "latin")

    def __init__(self, src: str, allow_typevars: bool, latin: bool) -> None:
        self.src = src
        self.toks = _tokenize(src)
        self.i = 0
        self.allow_typevars = allow_typevars
        self.next_id = 0
        self.latin = latin  # src is the latin-1 view of UTF-8 bytes
        self._check(0)

    # -- token stream -----------------------------------------------------------------------
    def _check(self, i: int) -> None:
        t = self.toks[i]
        if t[0] == "<error>":
            raise SchemaParseError(t[1], t[1], self.src)

    def cur(self) -> tuple:
        return self.toks[self.i]

    def next(self) -> tuple:
        t = self.toks[self.i]
        if t[0] == "eof":
            return t
        self.i += 1
        if self.toks[self.i][0] == "<error>":
            self._check(self.i)
        return t

    def next_if(self, kind: str) -> bool:
        if self.toks[self.i][0] != kind:
            return False
        self.next()
        return True

    def expect(self, kind: str) -> tuple:
        t = self.toks[self.i]
        if t[0] != kind:
            raise self.expected(kind, t)
        return self.next()

    def lookahead(self) -> tuple:
        if self.toks[self.i][0] == "eof":
            return self.toks[self.i]
        self._check(self.i + 1)
        return self.toks[self.i + 1]

    def text(self, t: tuple) -> str:
        return self.src[t[1] : t[2]]

    def expected(self, what: str, t: tuple) -> SchemaParseError:
        msg = _expected_msg(self.src, what, t[0], t[1], t[2])
        return SchemaParseError(msg, msg, self.src, t[1], t[2])

    def report(self, t: tuple, msg: str) -> SchemaParseError:
        return _report(self.src, t[1], t[2], msg)

    def parse_list(self, begin: str | None, sep: str, end: str | None, callback) -> None:
        if begin is not None:
            self.expect(begin)
        if self.toks[self.i][0] != end:
            callback()
            while self.next_if(sep):
                callback()
        if end is not None:
            self.expect(end)

    # -- declarations -----------------------------------------------------------------------
    def parse_exactly_one(self) -> FunctionSchema | tuple[str, str]:
        r = self.parse_declaration()
        self.next_if("newline")
        self.expect("eof")
        return r

    def parse_name(self) -> tuple[str, str]:
        name = self.text(self.expect("ident"))
        if self.next_if(":"):
            self.expect(":")
            name = name + "::" + self.text(self.expect("ident"))
        overload = ""
        if self.next_if("."):
            overload = self.text(self.expect("ident"))
        if overload == "default" or overload.startswith("__"):
            raise SchemaParseError(f"{overload} is not a legal overload name for aten operators")
        return name, overload

    def parse_declaration(self) -> FunctionSchema | tuple[str, str]:
        name, overload = self.parse_name()
        if self.toks[self.i][0] != "(":
            return (name, overload)
        arguments: list[Argument] = []
        returns: list[Argument] = []
        state = {"kw": False, "vararg": False, "varret": False}

        def one_arg() -> None:
            if state["vararg"]:
                raise self.report(self.cur(), "... must be the last element of the argument list")
            if self.next_if("*"):
                state["kw"] = True
            elif self.next_if("dots"):
                state["vararg"] = True
            else:
                arguments.append(self.parse_argument(False, state["kw"]))

        self.parse_list("(", ",", ")", one_arg)
        if state["vararg"]:
            for a in arguments:
                if a._has_default:
                    raise self.report(
                        self.cur(), "schemas with vararg (...) can't have default value args"
                    )
        self.expect("arrow")
        if self.next_if("dots"):
            state["varret"] = True
        elif self.toks[self.i][0] == "(":

            def one_ret() -> None:
                if state["varret"]:
                    raise self.report(self.cur(), "... must be the last element of the return list")
                if self.next_if("dots"):
                    state["varret"] = True
                else:
                    returns.append(self.parse_argument(True, False))

            self.parse_list("(", ",", ")", one_ret)
        else:
            returns.append(self.parse_argument(True, False))
        return FunctionSchema(name, overload, arguments, returns, state["vararg"], state["varret"])

    # -- types ------------------------------------------------------------------------------
    def parse_alias_annotation(self) -> AliasInfo | None:
        if self.next_if("("):
            before: list[str] = []
            after: list[str] = []
            is_write = False

            def before_item() -> None:
                if self.next_if("*"):
                    before.append("*")
                elif "*" not in before:
                    before.append(self.text(self.expect("ident")))

            self.parse_list(None, "|", None, before_item)
            if self.next_if("!"):
                is_write = True
            if self.next_if("arrow"):

                def after_item() -> None:
                    if self.next_if("*"):
                        after.append("*")
                    elif "*" not in after:
                        after.append(self.text(self.expect("ident")))

                self.parse_list(None, "|", None, after_item)
            else:
                # copied from the before set, in its iteration order (reversed insertion)
                after = list(reversed(list(dict.fromkeys(before))))
            self.expect(")")
            return AliasInfo(is_write, before, after)
        if self.next_if("!"):
            name = f"${self.next_id}"
            self.next_id += 1
            return AliasInfo(True, (name,), ())
        return None

    def parse_base_type(self) -> SchemaType:
        t = self.cur()
        if not self.next_if("None") and not self.next_if("NoneType"):
            self.expect("ident")
        text = self.text(t)
        # dotted names (PyTorch's opaque types) are read whole
        while self.toks[self.i][0] == "." and self.lookahead()[0] == "ident":
            self.next()
            text += "." + self.text(self.expect("ident"))
        bt = _BASE_TYPES.get(text)
        if bt is not None:
            return bt
        if self.allow_typevars and "a" <= text[:1] <= "z":
            return SchemaType.make("VarType", (), text)
        if text == "double":
            raise self.report(
                t,
                "Use `float` instead of `double` in an operator's schema string. `float` in "
                "schema corresponds to the double type in C++",
            )
        if text == "int64_t":
            raise self.report(
                t,
                "Use `SymInt` or `int` instead of `int64_t` in an operator's schema string. "
                "`SymInt` corresponds to c10::SymInt in C++ while `int` in schema corresponds "
                "to the int64_t type in C++.",
            )
        raise self.report(
            t,
            "unknown type specifier. Common valid schema types include Tensor, SymInt, int, "
            "float, bool, Scalar; for a full list, please see "
            "https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md#func ",
        )

    def parse_type(self) -> SchemaType:
        """parseType(): the fake type only (used inside Dict/Tuple/Union/Future...)."""
        return self.parse_fake_and_real()[0]

    def parse_fake_and_real(self) -> tuple[SchemaType, SchemaType, AliasInfo | None]:
        alias: AliasInfo | None = None
        t = self.cur()
        kind = t[0]
        text = self.src[t[1] : t[2]] if kind == "ident" else None
        if kind == "(":
            types: list[SchemaType] = []
            self.parse_list("(", ",", ")", lambda: types.append(self.parse_type()))
            fake = real = SchemaType.make("TupleType", types)
        elif text in ("Future", "RRef", "Await"):
            self.next()
            self.expect("(")
            sub = self.parse_type()
            self.expect(")")
            fake = real = SchemaType.make(text + "Type", (sub,))
        elif text == "Tensor":
            self.next()
            fake = real = _TENSOR_T
            alias = self.parse_alias_annotation()
        elif text == "Dict":
            self.next()
            self.expect("(")
            k = self.parse_type()
            self.expect(",")
            v = self.parse_type()
            self.expect(")")
            alias = self.parse_alias_annotation()
            if k._kind not in _DICT_KEY_KINDS:
                raise SchemaParseError(
                    f"Cannot create dict for key type '{k._sstr}', only int, float, complex, "
                    "Tensor, device and string keys are supported"
                )
            fake = real = SchemaType.make("DictType", (k, v))
        elif text == "Union":
            self.next()
            self.expect("(")
            types = [self.parse_type()]
            while self.toks[self.i][0] != ")":
                self.expect(",")
                types.append(self.parse_type())
            self.expect(")")
            alias = self.parse_alias_annotation()
            fake = real = _make_union(types)
        elif text == "__torch__":
            self.next()
            self.expect(".")
            tok = self.expect("ident")
            if self.text(tok) != "torch":
                raise self.report(tok, f"Expected classes namespace but got {self.text(tok)}")
            self.expect(".")
            tok = self.expect("ident")
            if self.text(tok) != "classes":
                raise self.report(tok, f"Expected classes namespace but got {self.text(tok)}")
            self.expect(".")
            ns = self.text(self.expect("ident"))
            self.expect(".")
            cls = self.text(self.expect("ident"))
            # keyroute has no custom-class registry: every class name is accepted
            fake = real = SchemaType.make("ClassType", (), f"__torch__.torch.classes.{ns}.{cls}")
        else:
            real = self.parse_base_type()
            fake = _INT_T if real._kind in _FAKE_AS_INT else real
            alias = self.parse_alias_annotation()
        while True:
            k = self.toks[self.i][0]
            if k == "[" and self.lookahead()[0] == "]":
                self.next()
                self.next()
                fake = SchemaType.list_of(fake)
                real = SchemaType.list_of(real)
                container = self.parse_alias_annotation()
                if alias is not None:
                    if container is None:
                        container = AliasInfo(alias.is_write)
                    container = AliasInfo(
                        container.is_write,
                        container._before,
                        container._after,
                        container.contained + (alias,),
                    )
                alias = container
            elif k == "?":
                self.next()
                fake = SchemaType.optional_of(fake)
                real = SchemaType.optional_of(real)
            else:
                break
        return fake, real, alias

    # -- arguments --------------------------------------------------------------------------
    def parse_argument(self, is_return: bool, kwarg_only: bool) -> Argument:
        fake, real, alias = self.parse_fake_and_real()
        N = None
        if self.next_if("["):
            fake = SchemaType.list_of(fake)
            real = SchemaType.list_of(real)
            N = _c_stoll(self.text(self.expect("number")))
            N = (N + 2**31) % 2**32 - 2**31  # stored as int32
            self.expect("]")
            container = self.parse_alias_annotation()
            if alias is not None:
                if container is None:
                    container = AliasInfo(alias.is_write)
                container = AliasInfo(
                    container.is_write,
                    container._before,
                    container._after,
                    container.contained + (alias,),
                )
            alias = container
            if self.next_if("?"):
                fake = SchemaType.optional_of(fake)
                real = SchemaType.optional_of(real)
        default = _NO_DEFAULT
        if is_return:
            name = self.text(self.next()) if self.toks[self.i][0] == "ident" else ""
        else:
            name = self.text(self.expect("ident"))
            if self.next_if("="):
                default = self.parse_default(fake, fake._kind, real, N)
        return Argument(name, fake, real, N, default, not is_return and kwarg_only, alias)

    # -- default values ---------------------------------------------------------------------
    def string_value(self, tok: tuple) -> str:
        v = _unescape(self.text(tok), tok[1], tok[2], self.src)
        if self.latin:
            v = v.encode("latin-1").decode("utf-8", errors="surrogateescape")
        return v

    def parse_single_constant(self, kind: str, real: SchemaType) -> object:
        t = self.cur()
        k = t[0]
        if k == "True":
            self.next()
            return True
        if k == "False":
            self.next()
            return False
        if k == "None":
            self.next()
            return None
        if k == "string_literal":
            self.next()
            return self.string_value(t)
        if k == "ident":
            self.next()
            text = self.text(t)
            v = _BC_IDENTS.get(text)
            if v is not None:
                return v
            if _is_possibly_optional_scalar_type(real) and text in _DTYPE_NAMES:
                return _DTYPE_NAMES[text]
            raise self.report(self.cur(), "invalid numeric default value")
        if self.next_if("-"):
            n = "-" + self.text(self.expect("number"))
        else:
            n = self.text(self.expect("number"))
        if kind == "ComplexType" or "j" in n:
            return complex(0.0, _c_stod(n[:-1]))
        if kind == "FloatType" or "." in n or "e" in n:
            return _c_stod(n)
        return _c_stoll(n)

    def convert_to_list(self, kind: str, tok: tuple, vs: list) -> list:
        if kind == "ComplexType":
            check, what = (lambda v: isinstance(v, complex)), "complex"
        elif kind == "FloatType":
            check, what = (lambda v: isinstance(v, float)), "double"
        elif kind == "IntType":
            check, what = (lambda v: type(v) is int), "int"
        elif kind == "BoolType":
            check, what = (lambda v: isinstance(v, bool)), "bool"
        else:
            raise self.report(tok, "lists are only supported for float, int and complex types")
        for v in vs:
            if not check(v):
                raise SchemaParseError(f"invalid list default value: expected {what}")
        return list(vs)

    def parse_default(self, typ: SchemaType, kind: str, real: SchemaType, N: int | None) -> object:
        tok = self.cur()
        if kind in ("TensorType", "GeneratorType", "QuantizerType"):
            self.expect("None")
            return None
        if kind in (
            "StringType",
            "OptionalType",
            "NumberType",
            "IntType",
            "BoolType",
            "FloatType",
            "ComplexType",
        ):
            return self.parse_single_constant(kind, real)
        if kind == "DeviceObjType":
            s = self.string_value(self.expect("string_literal"))
            return _parse_device(s)
        if kind == "ListType":
            elem = typ.elem
            relem = real.elem
            if tok[0] == "ident":
                self.expect("None")
            if N is not None and tok[0] != "[":
                v = self.parse_single_constant(elem._kind, relem)
                return self.convert_to_list(elem._kind, tok, [v] * N)
            lt = self.expect("[")
            vs = []
            if self.toks[self.i][0] != "]":
                vs.append(self.parse_single_constant(elem._kind, relem))
                while self.next_if(","):
                    vs.append(self.parse_single_constant(elem._kind, relem))
            self.expect("]")
            return self.convert_to_list(elem._kind, lt, vs)
        raise self.report(tok, "unexpected type, file a bug report")


_DICT_KEY_KINDS = frozenset(
    {
        "AnyType",
        "IntType",
        "FloatType",
        "ComplexType",
        "TensorType",
        "DeviceObjType",
        "StringType",
        "BoolType",
    }
)


def _is_possibly_optional_scalar_type(t: SchemaType) -> bool:
    if t._kind == "ScalarTypeType":
        return True
    return t._kind == "OptionalType" and _is_possibly_optional_scalar_type(t.elem)


# =============================================================================================
# Public entry points
# =============================================================================================

_CACHE: dict[tuple[str, bool], FunctionSchema | tuple[str, str]] = {}
_CACHE_LIMIT = 65536


def _parse(text: str, allow_typevars: bool) -> FunctionSchema | tuple[str, str]:
    key = (text, allow_typevars)
    r = _CACHE.get(key)
    if r is not None:
        return r
    if not isinstance(text, str):
        raise TypeError(f"schema must be a str, not {type(text).__name__}")
    latin = not text.isascii()
    src = text.encode("utf-8").decode("latin-1") if latin else text
    if text.startswith(("aten::", "prim::")):
        allow_typevars = True
    try:
        r = _Parser(src, allow_typevars, latin).parse_exactly_one()
    except SchemaParseError as e:
        if latin:
            msg = str(e).encode("latin-1").decode("utf-8", errors="replace")
            raise SchemaParseError(msg, e.message, text, e.start, e.end) from None
        raise
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = r
    return r


def parse_schema(text: str, allow_typevars: bool = True) -> FunctionSchema:
    """Parse a schema string, as ``torch._C.parse_schema`` does (cached by text).

    Raises :class:`SchemaParseError` (a ``ValueError``) where PyTorch raises, worded like it.
    Type variables (lower-case unknown type names like ``t``) are accepted when
    ``allow_typevars`` is true or the name starts with ``aten::``/``prim::``.

    Example::

        >>> str(parse_schema("foo(int[2] k=[1, 1], float a=0) -> Tensor"))
        'foo(int[2] k=1, float a=0.) -> Tensor'
        >>> parse_schema("foo.default(Tensor x) -> ()")
        Traceback (most recent call last):
        ...
        keyroute.dispatcher.schema.SchemaParseError: default is not a legal overload name ...
    """
    r = _parse(text, allow_typevars)
    if not isinstance(r, FunctionSchema):
        raise SchemaParseError(
            "Tried to parse a function schema but only the operator name was given"
        )
    return r


def parse_name(text: str) -> tuple[str, str]:
    """Parse an operator name ``ns::name[.overload]`` into ``(name, overload_name)``.

    Example::

        >>> parse_name("aten::add.Tensor")
        ('aten::add', 'Tensor')
    """
    r = _parse(text, True)
    if isinstance(r, FunctionSchema):
        raise SchemaParseError("Tried to parse an operator name but function schema was given")
    return r


def parse_schema_or_name(
    text: str, allow_typevars: bool = True
) -> FunctionSchema | tuple[str, str]:
    """Either a :class:`FunctionSchema` or, for a bare name, ``(name, overload_name)``.

    Example::

        >>> parse_schema_or_name("mylib::foo")
        ('mylib::foo', '')
    """
    return _parse(text, allow_typevars)
