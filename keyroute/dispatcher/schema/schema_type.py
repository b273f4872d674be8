"""Schema types: the argument kinds the dispatcher reads, ``SchemaType`` (PyTorch's ``c10::Type``
as a schema can spell it) with its two printers, and ``SchemaParseError``."""

from __future__ import annotations

from collections.abc import Iterable

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
