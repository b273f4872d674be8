"""The schema parser (PyTorch's SchemaParser) and the public, cached entry points
``parse_schema``, ``parse_name`` and ``parse_schema_or_name``."""

from __future__ import annotations

from .lexer import _c_stod, _c_stoll, _expected_msg, _report, _tokenize, _unescape
from .model import (
    _BC_IDENTS,
    _DTYPE_NAMES,
    _NO_DEFAULT,
    AliasInfo,
    Argument,
    FunctionSchema,
    _parse_device,
)
from .schema_type import (
    _BASE_TYPES,
    _FAKE_AS_INT,
    _INT_T,
    _TENSOR_T,
    SchemaParseError,
    SchemaType,
    _make_union,
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


def parse_schema(schema: str, allow_typevars: bool = True) -> FunctionSchema:
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
    r = _parse(schema, allow_typevars)
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
