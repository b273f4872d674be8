"""Tests for keyroute.dispatcher.schema against PyTorch 2.13's recorded behaviour.

The recorded data (tests/data/schemas.json.gz, written by tools/record_schemas.py) holds every
schema PyTorch registers plus hand-written samples of each grammar feature and error. Tests that
run PyTorch live are skipped when torch is not installed.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import pickle
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from keyroute.dispatcher import schema as S
from keyroute.dispatcher.schema import (
    OPT_TENSOR,
    OPT_TENSOR_LIST,
    OTHER,
    TENSOR,
    TENSOR_LIST,
    AliasInfo,
    Argument,
    DeviceDefault,
    FunctionSchema,
    SchemaParseError,
    SchemaType,
    parse_name,
    parse_schema,
    parse_schema_or_name,
)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "schemas.json.gz")
GAPS = os.path.join(HERE, "schema_known_gaps.txt")


@functools.cache
def recorded() -> dict:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)


@functools.cache
def known_gaps() -> frozenset[str]:
    with open(GAPS) as f:
        return frozenset(
            line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")
        )


def qualified(d: dict) -> str:
    return d["name"] + ("." + d["overload_name"] if d["overload_name"] else "")


# ------------------------------------------------------------------------- comparing to records


def encode(v: object) -> object:
    """keyroute default value -> the recorder's JSON encoding."""
    if isinstance(v, DeviceDefault):
        return {"device": str(v)}
    if isinstance(v, complex):
        return {"complex": [v.real, v.imag]}
    if isinstance(v, list):
        return [encode(x) for x in v]
    return v


def typed(v: object) -> object:
    """Make JSON values compare with their types (True != 1, 1.0 != 1, -0.0 != 0.0)."""
    if isinstance(v, list):
        return [typed(x) for x in v]
    if isinstance(v, dict):
        return {k: typed(x) for k, x in v.items()}
    return (type(v).__name__, repr(v))


def record_arg(a: Argument) -> dict:
    ai = a.alias_info
    d = {
        "name": a.name,
        "type": str(a.type),
        "real_type": str(a.real_type),
        "N": a.N,
        "kwarg_only": a.kwarg_only,
        "is_out": a.is_out,
        "alias_info": None
        if ai is None
        else [ai.is_write, sorted(ai.before_set), sorted(ai.after_set)],
    }
    if a.has_default_value():
        d["default_value"] = encode(a.default_value)
    return typed(d)


def record_schema(s: FunctionSchema) -> dict:
    return {
        "name": s.name,
        "overload_name": s.overload_name,
        "arguments": [record_arg(a) for a in s.arguments],
        "returns": [record_arg(a) for a in s.returns],
        "is_vararg": s.is_vararg,
        "is_varret": s.is_varret,
        "is_mutable": s.is_mutable,
    }


def expected_fields(d: dict) -> dict:
    return {
        "name": d["name"],
        "overload_name": d["overload_name"],
        "arguments": [typed(a) for a in d["arguments"]],
        "returns": [typed(a) for a in d["returns"]],
        "is_vararg": d["is_vararg"],
        "is_varret": d["is_varret"],
        "is_mutable": d["is_mutable"],
    }


def test_recorded_data_is_complete():
    data = recorded()
    assert data["torch_version"].startswith("2.13")
    assert len(data["schemas"]) > 4000
    assert len(data["samples"]) > 100


def test_every_recorded_schema_round_trips_except_known_gaps():
    failing = {}
    for d in recorded()["schemas"]:
        out = str(parse_schema(d["str"]))
        if out != d["str"]:
            failing[qualified(d)] = (d, out)
    # the list stays honest: exactly the listed schemas fail, and they fail as in PyTorch
    assert set(failing) == known_gaps()
    for d, out in failing.values():
        assert out == d["reparsed"], (d["str"], out)


def test_every_recorded_schema_reparses_like_torch():
    for d in recorded()["schemas"]:
        assert str(parse_schema(d["str"])) == d.get("reparsed", d["str"])


def test_every_recorded_schema_has_torchs_fields():
    bad = []
    for d in recorded()["schemas"]:
        s = parse_schema(d["str"])
        if record_schema(s) != expected_fields(d):
            bad.append(d["str"])
    assert not bad, bad[:5]


def test_known_gaps_file_names_recorded_schemas():
    names = {qualified(d) for d in recorded()["schemas"]}
    assert known_gaps() <= names
    assert len(known_gaps()) == 8


def _internal_assert_tail(message: str) -> str | None:
    if "INTERNAL ASSERT FAILED" not in message:
        return None
    return message.split("please report a bug to PyTorch. ", 1)[1]


@pytest.mark.parametrize("i", range(len(recorded()["samples"])))
def test_recorded_samples(i):
    d = recorded()["samples"][i]
    text = d["text"]
    if "message" in d:
        with pytest.raises(SchemaParseError) as ei:
            parse_schema(text)
        tail = _internal_assert_tail(d["message"])
        if tail is not None:
            # PyTorch fails an internal assert; keyroute raises a clean error with its words
            assert tail in str(ei.value)
        else:
            assert str(ei.value) == d["message"]
        assert isinstance(ei.value, ValueError)
        return
    s = parse_schema(text)
    assert str(s) == d["str"]
    assert record_schema(s) == expected_fields(d)
    if d.get("reparsed", "").startswith("<error"):
        with pytest.raises(SchemaParseError):  # PyTorch prints some forms it cannot parse
            parse_schema(d["str"])
    elif "reparsed" in d:
        assert str(parse_schema(d["str"])) == d["reparsed"]


def test_parse_cache_returns_the_parsed_schema():
    # Speed is measured in bench/schema.py; here: a cached parse is the same object, for every
    # recorded text.
    texts = [d["str"] for d in recorded()["schemas"]]
    S.parser._CACHE.clear()
    first = [parse_schema(t) for t in texts]
    assert all(parse_schema(t) is f for t, f in zip(texts, first))


# ------------------------------------------------------------------------- hand-written: API


def test_add_tensor_example():
    s = parse_schema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    assert s.name == "aten::add"
    assert s.overload_name == "Tensor"
    assert str(s) == "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    a = s.arguments[2]
    assert a.name == "alpha"
    assert str(a.type) == "number"  # PyTorch's Python spelling of Scalar
    assert a.type.str() == "Scalar"
    assert str(a) == "Scalar alpha=1"
    assert a.kwarg_only is True
    assert a.default_value == 1 and type(a.default_value) is int
    assert a.has_default_value()
    assert a.alias_info is None
    assert not s.arguments[0].has_default_value()
    assert s.is_vararg is False and s.is_varret is False and s.is_mutable is False
    assert s.qualified_name == "aten::add.Tensor"
    assert s.namespace == "aten" and s.base_name == "add"
    assert s.tensor_arg_indices == (0, 1)
    assert s.mutated_arg_indices == ()
    assert s.aliased_returns == (None,)
    assert isinstance(s.arguments, tuple) and isinstance(s.returns, tuple)
    assert repr(s) == str(s)


def test_names():
    s = parse_schema("foo(Tensor x) -> Tensor")
    assert (s.name, s.overload_name, s.namespace, s.base_name, s.qualified_name) == (
        "foo",
        "",
        "",
        "foo",
        "foo",
    )
    assert parse_name("aten::add.Tensor") == ("aten::add", "Tensor")
    assert parse_name("mylib::foo") == ("mylib::foo", "")
    assert parse_schema_or_name("mylib::foo") == ("mylib::foo", "")
    with pytest.raises(SchemaParseError, match="only the operator name was given"):
        parse_schema("aten::add.Tensor")
    with pytest.raises(SchemaParseError, match="function schema was given"):
        parse_name("aten::add(Tensor x) -> Tensor")


def test_kinds():
    s = parse_schema(
        "aten::f(Tensor a, Tensor? b, Tensor[] c, Tensor?[] d, Tensor[]? e, int f, "
        "Tensor(a!) g, Tensor(a)[] h, Tensor[2] i, Tensor?[]? j, Scalar k, *, Tensor(b!) out)"
        " -> Tensor"
    )
    kinds = [a.kind for a in s.arguments]
    assert kinds == [
        TENSOR,
        OPT_TENSOR,
        TENSOR_LIST,
        OPT_TENSOR_LIST,
        OTHER,
        OTHER,
        TENSOR,
        TENSOR_LIST,
        TENSOR_LIST,
        OTHER,
        OTHER,
        TENSOR,
    ]
    assert OTHER == 0 and all(k for k in (TENSOR, OPT_TENSOR, TENSOR_LIST, OPT_TENSOR_LIST))
    assert s.tensor_arg_indices == (0, 1, 2, 3, 6, 7, 8, 11)
    assert s.mutated_arg_indices == (6, 11)
    assert s.arguments[11].is_out and not s.arguments[6].is_out
    assert s.is_mutable


def test_aliased_returns():
    s = parse_schema("aten::split(Tensor(a -> *) self, int[] sizes, int dim=0) -> Tensor(a)[]")
    assert s.aliased_returns == (0,)
    assert s.mutated_arg_indices == ()
    s = parse_schema(
        "aten::f.out(Tensor self, *, Tensor(a!) values, Tensor(b!) indices)"
        " -> (Tensor(a!) values, Tensor(b!) indices)"
    )
    assert s.aliased_returns == (1, 2)
    assert [r.name for r in s.returns] == ["values", "indices"]
    s = parse_schema("aten::cpu(Tensor(a) self) -> Tensor(a|b)")
    assert s.aliased_returns == (0,)
    s = parse_schema("aten::f(Tensor self) -> (Tensor, Tensor(*))")
    assert s.aliased_returns == (None, None)


def test_types():
    s = parse_schema(
        "aten::f(SymInt a, ScalarType b, Layout c, MemoryFormat d, int[2] e, SymInt[]? f, "
        "Dict(str, Tensor) g, Tensor?[] h, (int, str) i, t j, Scalar[] k) -> ()"
    )
    rows = [(str(a.type), str(a.real_type), a.real_type.str(), a.type.kind()) for a in s.arguments]
    assert rows == [
        ("int", "int", "SymInt", "IntType"),
        ("int", "ScalarType", "ScalarType", "IntType"),
        ("int", "Layout", "Layout", "IntType"),
        ("int", "MemoryFormat", "MemoryFormat", "IntType"),
        ("List[int]", "List[int]", "int[]", "ListType"),
        ("Optional[List[int]]", "Optional[List[int]]", "SymInt[]?", "OptionalType"),
        ("Dict[str, Tensor]", "Dict[str, Tensor]", "Dict(str, Tensor)", "DictType"),
        ("List[Optional[Tensor]]", "List[Optional[Tensor]]", "Tensor?[]", "ListType"),
        ("Tuple[int, str]", "Tuple[int, str]", "(int, str)", "TupleType"),
        ("t", "t", "t", "VarType"),
        ("List[number]", "List[number]", "Scalar[]", "ListType"),
    ]
    f = s.arguments[5].real_type
    assert str(f.elem) == "List[int]" and f.elem.elem.str() == "SymInt"
    # interned
    assert s.arguments[0].type is parse_schema("f(int x) -> ()").arguments[0].type
    assert SchemaType.get("Tensor") is s.arguments[7].real_type.elem.elem
    assert SchemaType.list_of(SchemaType.get("int")) is s.arguments[4].type
    assert pickle.loads(pickle.dumps(s.arguments[4].type)) is s.arguments[4].type


def test_alias_annotations():
    s = parse_schema(
        "f(Tensor(a) a, Tensor(a!) b, Tensor(a -> *) c, Tensor(a!)[] d, Tensor[](a!) e, "
        "Tensor(a|b) f, Tensor! g, Tensor(a)? h) -> ()"
    )
    ai = [a.alias_info for a in s.arguments]
    assert (ai[0].is_write, ai[0].before_set, ai[0].after_set) == (False, {"a"}, {"a"})
    assert (ai[1].is_write, ai[1].before_set) == (True, {"a"})
    assert (ai[2].before_set, ai[2].after_set) == ({"a"}, {"*"})
    assert ai[2].is_wildcard_after and not ai[2].is_wildcard_before
    # alias on the element: the argument's alias is a container with empty sets
    assert (ai[3].is_write, ai[3].before_set, ai[3].after_set) == (True, set(), set())
    assert ai[3].contained[0].before_set == {"a"}
    assert (ai[4].is_write, ai[4].before_set, ai[4].contained) == (True, {"a"}, ())
    assert ai[5].before_set == {"a", "b"}
    assert (ai[6].is_write, ai[6].before_set, ai[6].after_set) == (True, {"$0"}, set())
    assert ai[7].before_set == {"a"}
    assert [str(a) for a in s.arguments] == [
        "Tensor(a) a",
        "Tensor(a!) b",
        "Tensor(a -> *) c",
        "Tensor(a!)[] d",
        "Tensor[](a!) e",
        "Tensor(b|a) f",  # PyTorch's unordered_set order
        "Tensor($0! -> ) g",
        "Tensor(a)? h",
    ]
    assert s.mutated_arg_indices == (1, 3, 4, 6)
    assert isinstance(ai[0], AliasInfo) and ai[0] == AliasInfo(False, ["a"], ["a"])


def test_returns():
    def ret(r: str) -> str:
        return str(parse_schema("f(Tensor x) -> " + r)).split(" -> ", 1)[1]

    assert ret("Tensor") == "Tensor"
    assert ret("(Tensor)") == "Tensor"
    assert ret("()") == "()"
    assert ret("(Tensor, Tensor)") == "(Tensor, Tensor)"
    assert ret("(Tensor a, Tensor b)") == "(Tensor a, Tensor b)"
    assert ret("((Tensor))") == "((Tensor))"
    assert ret("...") == "..."
    assert ret("(...)") == "..."
    assert ret("(Tensor, ...)") == "(Tensor, ...)"
    s = parse_schema("f(Tensor x) -> ((Tensor))")
    assert str(s.returns[0].type) == "Tuple[Tensor]"
    s = parse_schema("f(Tensor x, ...) -> ...")
    assert s.is_vararg and s.is_varret and s.returns == ()


def test_defaults():
    s = parse_schema(
        "f(int[2] k=1, int[1] dim=0, float a=0., ScalarType st=float32, MemoryFormat m="
        'contiguous_format, int r=Mean, Tensor? x=None, float b=0.1, str s="mean", '
        'bool c=True, Device d="cuda:1", float[] e=[1, 2], complex z=1.5j) -> ()'
    )
    vals = [a.default_value for a in s.arguments]
    assert vals[:8] == [[1, 1], [0], 0.0, 6, 0, 1, None, 0.1]
    assert vals[8:10] == ["mean", True]
    assert isinstance(vals[10], DeviceDefault) and vals[10] == "cuda:1"
    assert (vals[10].type, vals[10].index) == ("cuda", 1)
    assert repr(vals[10]) == "device(type='cuda', index=1)"
    assert vals[11] == [1.0, 2.0] and all(type(v) is float for v in vals[11])
    assert vals[12] == 1.5j
    assert str(s) == (
        "f(int[2] k=1, int[1] dim=[0], float a=0., ScalarType st=6, MemoryFormat m=0, int r=1, "
        'Tensor? x=None, float b=0.10000000000000001, str s="mean", bool c=True, '
        "Device d=cuda:1, float[] e=[1., 2.], complex z=0.+1.5j) -> ()"
    )


def test_double_printing():
    def fmt(v: str) -> str:
        return str(parse_schema(f"f(float a={v}) -> ()"))[10:-7]

    assert fmt("1") == "1."
    assert fmt("-0.") == "0."
    assert fmt("1e16") == "10000000000000000."
    assert fmt("9.3e18") == "9.3e+18"
    assert fmt("1e-5") == "1.0000000000000001e-05"
    assert fmt("0x1.8p1") == "3."


def test_string_defaults():
    s = parse_schema('f(str a="x\\ny", str b=\'q\\\'\', str c="ü", str d="\\101") -> ()')
    assert [a.default_value for a in s.arguments] == ["x\ny", "q'", "ü", "A"]
    assert str(s) == 'f(str a="x\\ny", str b="q\\\'", str c="\\0)+\\/0,", str d="A") -> ()'


# ------------------------------------------------------------------------- hand-written: errors


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("f(float a=inf) -> ()", "invalid numeric default value"),
        ("f.default(Tensor x) -> ()", "default is not a legal overload name for aten operators"),
        ("f.__x(Tensor x) -> ()", "__x is not a legal overload name"),
        ("f(float a=1, int b) -> ()", "Non-default positional argument follows default"),
        ("f(Foo x) -> ()", "unknown type specifier"),
        ("f(Tensor x=1) -> ()", "expected None but found 'number' here"),
        ("f(Tensor x, ..., Tensor y) -> ()", "... must be the last element of the argument list"),
        ("f(int x=1, ...) -> ()", "schemas with vararg (...) can't have default value args"),
        ("f(Tensor x) -> (..., Tensor)", "... must be the last element of the return list"),
        ("f(Tensor x) -> Tensor a b", "expected eof but found 'ident' here"),
        ("f($) -> ()", "expected a valid token but found '$' here"),
        ("f(Tensor if) -> ()", "expected ident but found 'if' here"),
        ('f(str s="\\x41") -> ()', "unsupported hex specifier"),
        ("f(int[] x=[1.5]) -> ()", "expected int"),
        ("f(Tensor[] x=[]) -> ()", "lists are only supported for float, int and complex types"),
        ("f(Dict(t, int) x) -> ()", "Cannot create dict for key type 't'"),
        ('f(Device d="bogus") -> ()', "device type at start of device string: bogus"),
        ("f(Any x=None) -> ()", "unexpected type, file a bug report"),
        ("aten::add", "only the operator name was given"),
        ("", "expected ident but found 'eof' here"),
    ],
)
def test_errors(text, phrase):
    with pytest.raises(SchemaParseError) as ei:
        parse_schema(text)
    assert phrase in str(ei.value)
    assert isinstance(ei.value, ValueError)


def test_error_caret_and_position():
    with pytest.raises(SchemaParseError) as ei:
        parse_schema("foo(float a=inf) -> ()")
    e = ei.value
    assert str(e) == (
        "\ninvalid numeric default value:\nfoo(float a=inf) -> ()\n               ~ <--- HERE\n"
    )
    assert e.message == "invalid numeric default value"
    # PyTorch points at the token after the bad identifier
    assert (e.start, e.end) == (15, 16)
    assert e.source == "foo(float a=inf) -> ()"
    with pytest.raises(SchemaParseError) as ei:
        parse_schema("f(Tensor x) -> ()\nbar() -> ()")
    assert str(ei.value) == (
        "expected eof but found 'ident' here:\nf(Tensor x) -> ()\nbar() -> ()\n~~~ <--- HERE\n"
    )


def test_duplicate_names_and_tensor_none_accepted():
    s = parse_schema("f(int a, int a, Tensor x=None) -> ()")
    assert [a.name for a in s.arguments] == ["a", "a", "x"]


def test_typevars():
    assert str(parse_schema("f(t x) -> t").arguments[0].type) == "t"
    with pytest.raises(SchemaParseError, match="unknown type specifier"):
        parse_schema("f(t x) -> t", allow_typevars=False)
    with pytest.raises(SchemaParseError, match="Use `float` instead of `double`"):
        parse_schema("f(double x) -> ()", allow_typevars=False)
    parse_schema("aten::f(t x) -> t", allow_typevars=False)  # aten:: always allows them


def test_cache_and_equality():
    text = "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor"
    assert parse_schema(text) is parse_schema(text)
    a = parse_schema(text)
    b = parse_schema("aten::mul.Tensor(Tensor self,  Tensor other) -> Tensor")
    assert a is not b and a == b and hash(a) == hash(b)
    assert a != parse_schema("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor out")
    assert a.arguments[0] == b.arguments[0]


# ------------------------------------------------------------------------- generated schemas

ALIAS_NAMES = ["a", "b", "c"]
BASES = [
    "Tensor",
    "int",
    "SymInt",
    "float",
    "bool",
    "str",
    "Scalar",
    "ScalarType",
    "Layout",
    "MemoryFormat",
    "Device",
    "Generator",
    "Storage",
    "Any",
    "complex",
    "t",
    "Stream",
    "SymBool",
]
ARG_NAMES = ["x", "self", "other", "dim", "out", "alpha", "input", "from", "to", "a_1", "_b"]


@st.composite
def alias_annotations(draw, max_names: int = 2) -> str:
    k = draw(st.integers(0, 9))
    if k < 5:
        return ""
    if k == 5:
        return "!"
    names = draw(st.lists(st.sampled_from(ALIAS_NAMES), min_size=1, max_size=max_names))
    if draw(st.integers(0, 9)) == 0:
        names = names + ["*"]
    out = "(" + "|".join(names)
    if draw(st.booleans()):
        out += "!"
    if draw(st.integers(0, 5)) == 0:
        after = draw(st.lists(st.sampled_from(ALIAS_NAMES + ["*"]), min_size=1, max_size=max_names))
        if "*" in after:  # a wildcard must come last
            after = [n for n in after if n != "*"] + ["*"]
        out += " -> " + "|".join(after)
    return out + ")"


@st.composite
def schema_types(draw, depth: int = 0, allow_alias: bool = True) -> str:
    k = draw(st.integers(0, 49))
    alias = alias_annotations() if allow_alias else st.just("")
    if depth < 2 and k < 3:
        key = draw(st.sampled_from(["str", "int", "Tensor", "bool"]))
        t = f"Dict({key}, {draw(schema_types(depth + 1, False))}){draw(alias)}"
    elif depth < 2 and k < 5:
        items = draw(st.lists(schema_types(depth + 1, False), max_size=3))
        t = "(" + ", ".join(items) + ")"
    elif depth < 2 and k < 6:
        wrapper = draw(st.sampled_from(["Future", "RRef", "Await"]))
        t = f"{wrapper}({draw(schema_types(depth + 1, False))})"
    else:
        base = draw(st.sampled_from(BASES))
        t = base + (draw(alias) if base in ("Tensor", "t", "Any", "int") else "")
    for suffix in draw(st.lists(st.sampled_from(["[]", "?", "[]"]), max_size=2)):
        t += suffix
        if suffix == "[]" and allow_alias and draw(st.integers(0, 3)) == 0:
            t += draw(alias)
    return t


NUMBERS = ["0", "1", "-1", "2", "0.", "1.5", "-2.5", "1e-5", "1e10", "0.1", "-0.", ".5", "5."]


@st.composite
def defaults_for(draw, t: str) -> str | None:
    base = t.split("(")[0].split("[")[0].rstrip("?")
    if t.endswith("?") and draw(st.booleans()):
        return "None"
    if "[" in t:
        if t.endswith("?"):
            return "None"
        if not re.fullmatch(r"(int|SymInt|float|bool)\[\d?\]", t):
            return None
        ints = st.sampled_from(["0", "1", "-1", "2"])
        elems = {
            "int": ints,
            "SymInt": ints,
            "float": st.sampled_from(NUMBERS),
            "bool": st.sampled_from(["True", "False"]),
        }.get(base)
        if elems is None:
            return None
        return "[" + ", ".join(draw(st.lists(elems, max_size=3))) + "]"
    choices = {
        "int": ["0", "1", "-1", "100", "True"],
        "SymInt": ["0", "2"],
        "float": NUMBERS,
        "bool": ["True", "False"],
        "str": ['""', '"mean"', "'a b'", '"x\\ny"', '"q\\\'"', '"\\t\\\\"'],
        "Scalar": ["1", "0", "1.5", "-2", "2.5e3"],
        "complex": ["1j", "1.5j"],
        "ScalarType": ["float32", "float", "long", "int64", "bfloat16", "6"],
        "Layout": ["strided", "0"],
        "MemoryFormat": ["contiguous_format", "0"],
        "Device": ['"cpu"', '"cuda:1"', '"meta"'],
    }
    if base in ("Tensor", "Generator") and "(" not in t.replace("Tensor(", ""):
        return "None"
    if base in choices and "(" not in t:
        return draw(st.sampled_from(choices[base]))
    return None


@st.composite
def schema_texts(draw) -> str:
    name = draw(st.sampled_from(["foo", "aten::foo", "mylib::bar_baz", "prim::X"]))
    if draw(st.booleans()):
        name += "." + draw(st.sampled_from(["Tensor", "out", "int_out", "Scalar2"]))
    args: list[str] = []
    kw = seen_default = False
    for _ in range(draw(st.integers(0, 5))):
        if not kw and draw(st.integers(0, 6)) == 0:
            args.append("*")
            kw = True
        t = draw(schema_types())
        if draw(st.integers(0, 9)) == 0 and not any(c in t for c in "[?(D"):
            t += f"[{draw(st.integers(1, 3))}]"
        nm = draw(st.sampled_from(ARG_NAMES))
        d = None
        is_list = re.search(r"\]\d?\]?(\([^()]*\))?$", t) is not None
        needs_default = seen_default and not kw and not is_list
        if needs_default or draw(st.integers(0, 2)) == 0:
            d = draw(defaults_for(t))
            if d is None and needs_default:
                args.append("*")
                kw = True
        if d is not None:
            seen_default = True
            args.append(f"{t} {nm}={d}")
        else:
            args.append(f"{t} {nm}")
    if not seen_default and draw(st.integers(0, 19)) == 0:
        args.append("...")
    k = draw(st.integers(0, 19))
    if k < 4:
        ret = "()"
    elif k < 11:
        ret = draw(schema_types())
        if ret.startswith("("):  # a lone tuple type must be wrapped: `-> ((int, str))`
            ret = f"({ret})"
    elif k == 11:
        ret = "..."
    else:
        rets = [
            draw(schema_types()) + draw(st.sampled_from(["", "", "", " out", " values"]))
            for _ in range(draw(st.integers(1, 3)))
        ]
        ret = "(" + ", ".join(rets) + ")"
    return f"{name}({', '.join(args)}) -> {ret}"


def semantic(s: FunctionSchema) -> tuple:
    """Everything but the print order of alias sets."""
    return (
        s.name,
        s.overload_name,
        [record_arg(a) for a in s.arguments],
        [record_arg(a) for a in s.returns],
        s.is_vararg,
        s.is_varret,
    )


def _reparseable(printed: str) -> bool:
    """PyTorch's printer emits a few forms its own parser refuses (keyroute prints the same)."""
    return not (
        "?(" in printed  # `Tensor?(a!)[]`: alias after `?`
        or "()" in printed.replace("-> ()", "")  # `Tensor[]?()[]`: empty container annotation
        or "(!)" in printed  # `Tensor[](!)[]`: the same, for a written element
        or "$" in printed  # `Tensor($0! -> )`, from `Tensor!`
        or "*|" in printed  # `Tensor(*|a)`: a wildcard must come last when written
        or re.search(r"Device\?? \w+=(?!None)", printed)  # device defaults print unquoted
        or re.search(r"\d\.[-+]\d", printed)  # complex defaults print as `0.+1.j`
        or "Union(" in printed  # `Scalar??` prints as `Union(Scalar)?`
        # `int[] x=[0, 0]` prints as `int[] x=0` (equal elements collapse, as in
        # native_functions.yaml's `int[2] stride=1`), which only a sized list reparses
        or re.search(r"int\[\]\?? \w+=-?\d", printed)
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema_texts())
def test_generated_schemas_round_trip(text):
    assume("-0." not in text)  # -0.0 prints as `0.`, as in PyTorch
    s1 = parse_schema(text)
    # `int[1] x=[0, 0]`: a list default longer than N prints as `x=0` and reparses as [0], in
    # PyTorch too (its printer collapses equal elements): not a round trip to test.
    assume(
        not any(
            a.N and isinstance(a.default_value, list) and len(a.default_value) != a.N
            for a in s1.arguments
        )
    )
    t1 = str(s1)
    if not _reparseable(t1):
        return
    s2 = parse_schema(t1)
    assert semantic(s2) == semantic(s1)
    # alias sets print in reverse of the written order, so printing is stable with period 2
    assert str(parse_schema(str(s2))) == t1
    if "|" not in t1:
        assert str(s2) == t1


SCHEMA_CHARS = "()[]?!|*,=.:-> \n\"'#\\$0a_"


@settings(max_examples=300, deadline=None)
@given(schema_texts(), st.lists(st.tuples(st.integers(0, 200), st.sampled_from(SCHEMA_CHARS))))
def test_mutated_schemas_only_raise_schema_parse_error(text, edits):
    for pos, ch in edits:
        pos %= len(text) + 1
        text = text[:pos] + ch + text[pos + 1 :] if ch == "#" else text[:pos] + ch + text[pos:]
    try:
        s = parse_schema(text)
    except SchemaParseError:
        return
    assert isinstance(str(s), str)


# ------------------------------------------------------------------------- live PyTorch


def _torch():
    return pytest.importorskip("torch")


def _alias_fields(ai) -> list | None:
    return None if ai is None else [ai.is_write, sorted(ai.before_set), sorted(ai.after_set)]


def _arg_rows(args, encode_default) -> list:
    return [
        typed(
            [
                a.name,
                str(a.type),
                str(a.real_type),
                a.N,
                encode_default(a.default_value) if a.has_default_value() else "<none>",
                a.kwarg_only,
                a.is_out,
                _alias_fields(a.alias_info),
            ]
        )
        for a in args
    ]


def _torch_record(torch, text: str) -> dict:
    try:
        s = torch._C.parse_schema(text)
    except Exception as e:
        return {"error": str(e)}

    def enc(v: object) -> object:
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, complex):
            return {"complex": [v.real, v.imag]}
        if isinstance(v, list):
            return [enc(x) for x in v]
        return v

    args = list(s.arguments) + list(s.returns)
    return {"str": str(s), "args": _arg_rows(args, enc), "mutable": s.is_mutable}


def _our_record(text: str) -> dict:
    try:
        s = parse_schema(text)
    except SchemaParseError as e:
        return {"error": str(e)}
    args = s.arguments + s.returns
    return {"str": str(s), "args": _arg_rows(args, encode), "mutable": s.is_mutable}


def _compare_live(torch, text: str) -> None:
    theirs = _torch_record(torch, text)
    ours = _our_record(text)
    if "error" in theirs and "error" in ours:
        tail = _internal_assert_tail(theirs["error"])
        if tail is not None:
            assert tail in ours["error"]
        elif theirs["error"] != "stod":
            assert ours["error"] == theirs["error"], text
        return
    assert theirs == ours, text


def test_live_samples_match_recording():
    torch = _torch()
    for d in recorded()["samples"]:
        live = _torch_record(torch, d["text"])
        if "message" in d:
            assert live["error"] == d["message"]
        else:
            assert live["str"] == d["str"]


def test_live_registered_schemas_match_recording():
    # In a fresh interpreter: other tests register and destroy operators in torch, and
    # torch._C._jit_get_all_schemas() can crash on what they leave behind.
    import json
    import subprocess
    import sys

    _torch()
    code = (
        "import json, torch; "
        "print(json.dumps(sorted({str(s) for s in torch._C._jit_get_all_schemas()})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    live = set(json.loads(out.stdout))
    assert live <= {d["str"] for d in recorded()["schemas"]}


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema_texts())
def test_live_generated_schemas_match_torch(text):
    _compare_live(_torch(), text)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema_texts(), st.lists(st.tuples(st.integers(0, 200), st.sampled_from(SCHEMA_CHARS))))
def test_live_mutated_schemas_match_torch(text, edits):
    for pos, ch in edits:
        pos %= len(text) + 1
        text = text[:pos] + ch + text[pos:] if pos % 2 else text[:pos] + ch + text[pos + 1 :]
    _compare_live(_torch(), text)


def test_parse_schema_is_public_api():
    import keyroute

    s = keyroute.parse_schema("demo::f.out(Tensor(a!) x, *, int[2] k=[1, 2]) -> Tensor(a!)")
    assert isinstance(s, keyroute.FunctionSchema)
    assert (s.name, s.overload_name) == ("demo::f", "out")
    assert str(s) == "demo::f.out(Tensor(a!) x, *, int[2] k=[1, 2]) -> Tensor(a!)"
