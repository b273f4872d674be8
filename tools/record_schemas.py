"""Record PyTorch's operator schemas (the oracle for keyroute.dispatcher.schema).

Needs torch. Writes ``tests/data/schemas.json.gz``::

    python tools/record_schemas.py [--out PATH]

Contents (gzip JSON):

- ``schemas``: every schema in ``torch._C._jit_get_all_schemas()`` plus any dispatcher-only one
  (``_dispatch_get_all_op_names`` + ``_dispatch_find_schema_or_throw``), each with ``str`` and the
  Python-visible fields (see :func:`record`); ``reparsed`` is added where
  ``str(parse_schema(str(s)))`` differs from ``str(s)`` (PyTorch's own non-round-trips).
- ``samples``: hand-written schema strings exercising each grammar feature and each error,
  recorded as parsed by ``torch._C.parse_schema`` (fields, or error type + message).

Default values are JSON-encoded faithfully: null/bool/int/float/str/lists as themselves,
``{"complex": [re, im]}`` for complex numbers and ``{"device": "cuda:1"}`` for ``torch.device``.
(ScalarType/Layout/MemoryFormat defaults are plain ints in PyTorch, and recorded as such.)
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "tests", "data", "schemas.json.gz")

# Each grammar feature, quirk and error; recorded with what torch does with them.
SAMPLES = [
    # names and overloads
    "foo(Tensor x) -> Tensor",
    "aten::foo(Tensor x) -> Tensor",
    "aten::foo.bar(Tensor x) -> Tensor",
    "ns::foo._x(Tensor a) -> ()",
    "foo.x__(Tensor a) -> ()",
    "foo.default(Tensor x) -> ()",
    "foo.__x(Tensor a) -> ()",
    "aten::add",
    "aten::add.Tensor",
    "a::b::c(Tensor x) -> ()",
    "foo.(Tensor x) -> ()",
    "",
    "foo(",
    "foo() ->",
    "foo() -> ()",
    # base types
    "f(Tensor a, SymInt b, int c, float d, bool e, str f, Scalar g, ScalarType h, Layout i, "
    "Device j, MemoryFormat k, Generator l, Storage m, Any n, complex o, Stream p, "
    "QScheme q, Quantizer r, Capsule s, NoneType t, None u, AnyClassType v, AnyEnumType w, "
    "DeviceIndex x, ConstQuantizerPtr y, SymBool z) -> ()",
    "f(Dimname b) -> ()",
    "f(Foo x) -> ()",
    "f(double x) -> ()",
    "f(int64_t x) -> ()",
    "foo(t x) -> t",
    "aten::foo(t x, t1 y, tVal z) -> t",
    # composite types
    "aten::foo(Future(t) a, RRef(t) b, Await(t) c, Union(int, str) d, (int, str) e, () f, "
    "Dict(str, t) g, int[][] h, Tensor?[]? i, Tensor[]?[] j, Union(int, str)? k, "
    "(int, Tensor)[] l) -> ((int, str))",
    "f(Dict(str, SymInt) a, (SymInt, ScalarType) b, int?? e, Future(SymInt) h, SymInt[]? i, "
    "ScalarType?[] j) -> (SymInt, ScalarType? x)",
    "f(Union(int, None) c) -> ()",
    "f(Union(int, str, int) d) -> ()",
    "f(Union(Tensor, NoneType) g) -> ()",
    "f(Union(int, Union(str, float)) k) -> ()",
    "f(Union(int, float, None) k) -> ()",
    "f(Union(str, int) k) -> ()",
    "f(Union(int, Scalar) k) -> ()",
    "f(Union(int?, str) k) -> ()",
    "f(Union(int) x) -> ()",
    "f(Tensor[] a, Tensor?[] b, Tensor[]? c, Tensor?[]? d, int[2] e, SymInt[3] f, "
    "int[2]? g, bool[3] h, float[] i) -> ()",
    "f(__torch__.torch.classes.quantized.Conv2dPackedParamsBase x) -> ()",
    "f(int[2.5] x) -> ()",
    "f(int[-1] x) -> ()",
    "f(int[0] x) -> ()",
    "f(int[0x3] x) -> ()",
    # alias annotations
    "f(Tensor(a) x) -> Tensor(a)",
    "f(Tensor(a!) x) -> Tensor(a!)",
    "f(Tensor(a -> *) self) -> Tensor(a)[]",
    "f(Tensor(a!)[] x, Tensor[](a!) y) -> ()",
    "f(Tensor(a|b) z, Tensor(b|a) w) -> Tensor(a|b)",
    "f(Tensor(a|b|c) u, Tensor(c|b|a) v, Tensor(x|y|z|w) q) -> Tensor(d|e|f)",
    "f(Tensor(a|a) x) -> ()",
    "f(Tensor! x) -> ()",
    "f(Tensor! x, Tensor! y) -> Tensor!",
    "f(Tensor(a! -> a|b) y) -> ()",
    "f(Tensor(*) z) -> ()",
    "f(Tensor(a|*) w) -> ()",
    "f(Tensor(*|a) v) -> ()",
    "f(Tensor(a -> b|*) u) -> ()",
    "f(Tensor(a -> *|b) u) -> ()",
    "f(Tensor(a! -> *) u) -> ()",
    "f(Tensor(a|b! -> c|d) u) -> ()",
    "f(Tensor(a)? x) -> ()",
    "f(Tensor?(a!) x) -> ()",
    "f(Tensor(a!)?[] z) -> ()",
    "f(Tensor(a)[](b) w) -> ()",
    "f(Tensor(a)[]?[] v) -> Tensor(a)[]",
    "f(Tensor(a)[](b)[](c) x) -> ()",
    "f(Dict(str, Tensor)(a!) x, int(a) y, Tensor(a)[][] z, Scalar(a) s) -> ()",
    "f(int[2](a) x, Tensor[2](a!) y, Tensor(a)[2] z, Tensor(b!)[2](c) q) -> ()",
    "f(Union(int, str)(a) x) -> ()",
    "f((Tensor(a), Tensor(b!)) x) -> ()",
    "f((Tensor(a), Tensor(b!))(c) x) -> ()",
    "f(Tensor(a -> ) x) -> ()",
    "f(Tensor() x) -> ()",
    "f(Tensor(!) x) -> ()",
    "f(Tensor(a|) x) -> ()",
    "f(Tensor(a!|b) x) -> ()",
    "f(Tensor x) -> Tensor(a",
    "f(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "f(Tensor self, Tensor(a!) out) -> Tensor(a!)",
    "f(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
    # returns
    "f(Tensor x) -> ((Tensor))",
    "f(Tensor x) -> (Tensor)",
    "f(Tensor x) -> (Tensor a)",
    "f(Tensor x) -> Tensor a",
    "f(Tensor x) -> (Tensor a, Tensor b)",
    "f(Tensor x) -> ()",
    "f(Tensor x) -> ...",
    "f(Tensor x) -> (...)",
    "f(Tensor x) -> (Tensor, ...)",
    "f(Tensor x) -> (..., Tensor)",
    "f(Tensor x) -> Tensor a b",
    "f(Tensor x) -> Tensor None",
    "f(Tensor x) -> Tensor[]",
    "aten::items(Dict(str, t) self) -> ((str, t)[])",
    "f(Tensor x) -> (Tensor a=1)",
    # varargs, keyword-only
    "f(Tensor x, ...) -> ()",
    "f(...) -> ...",
    "f(Tensor x, ..., Tensor y) -> ()",
    "f(int x=1, ...) -> ()",
    "f(Tensor x, *) -> ()",
    "f(*) -> ()",
    "f(Tensor x, *, *, Tensor y) -> ()",
    "f(*, Tensor x, int y=1, int z) -> ()",
    # default-ordering check (an INTERNAL ASSERT in torch)
    "f(float a=1, int b) -> ()",
    "f(int a=1, int[] b, Tensor c=None, int d) -> ()",
    "f(int a=1, int[2] b, Tensor[] c, int? d) -> ()",
    "f(int a=1, int[2] b, Tensor[] c) -> ()",
    "f(int a=1, int[]? b) -> ()",
    # duplicate names
    "f(int a, int a) -> ()",
    # default values
    "f(int[2] k=1, int[1] dim=0, float a=0., int[2] u=[3, 3], int[2] v=[3, 4], "
    "int[] w=[5, 5], int[] x=[4], SymInt[2] s=1, SymInt[] t=[1, 1]) -> ()",
    "f(ScalarType a=float32, ScalarType b=float64, ScalarType c=long, ScalarType d=int64, "
    "ScalarType e=bfloat16, ScalarType f=complex, ScalarType g=float, ScalarType h=bool) -> ()",
    "f(ScalarType? a=float32, ScalarType? b=None, ScalarType? c=half) -> ()",
    "f(int b=float32) -> ()",
    "f(MemoryFormat a=contiguous_format, Layout b=strided, int c=Mean, MemoryFormat? d=None) -> ()",
    "f(MemoryFormat a=channels_last) -> ()",
    "f(int a=float, float b=Mean, bool c=strided, int d=long, int e=complex, "
    "int f=contiguous_format, str s=float) -> ()",
    "f(float a=1, float b=-1, int c=-0, float d=-0., float e=1e10, float f=1e-5, "
    "float g=0.1, float h=1e16, float i=123456789012.5, float j=2.5e300, Scalar k=1e3, "
    "Scalar l=2, int m=0x10) -> ()",
    "f(float a=1e18, float b=9.2e18, float c=9.3e18, float d=1e20, float e=1e300, "
    "float f=0.3333333333333333, float g=1e-300, float h=0x1.8p1, float i=1E5, float j=1.e5, "
    "float k=.5, float l=5.) -> ()",
    "f(float a=4.9e-324) -> ()",
    "f(float a=2e308) -> ()",
    "f(float a=inf) -> ()",
    "f(float a=nan) -> ()",
    "f(int a=- 1) -> ()",
    "f(int a=+1) -> ()",
    "f(float e=1e) -> ()",
    "f(int x=1.5, bool y=1, Scalar z=-2.5e3, int w=1E5, int v=0x1e) -> ()",
    "f(float[] x=[1, 2], float[2] y=2, bool[2] z=True, bool[] w=[True, False], int[] e=[]) -> ()",
    "f(bool[] x=[1]) -> ()",
    "f(int[] x=[1.5]) -> ()",
    "f(int[] x=[True]) -> ()",
    "f(float[] x=[True]) -> ()",
    "f(int[2] x=True) -> ()",
    "f(int x=True, int y=None, Tensor z=None) -> ()",
    "f(Tensor x=1) -> ()",
    "f(Tensor[] b=None) -> ()",
    "f(Tensor[2] x=None) -> ()",
    "f(Tensor[] x=[]) -> ()",
    "f(int?[] x=[1]) -> ()",
    'f(str[] h=["a"]) -> ()',
    "f(int[]? x=[1, 1]) -> ()",
    "f(int[2]? x=None, int[3]? y=1, float[]? z=None) -> ()",
    "f(Tensor? a=None, Generator? g=None, Generator h=None, Tensor[]? c=None, "
    "int[]? d=None, int? e=None, bool? f=False, float? x=1, Scalar? y=1.5, SymInt? z=2) -> ()",
    "f(Dict(str, int) x=None) -> ()",
    "f(Any x=None) -> ()",
    "f(t x=None) -> ()",
    "f(Storage x=None) -> ()",
    "f(Stream x=None) -> ()",
    "f((int, int) x=None) -> ()",
    "f(complex a=1j, complex b=1.5j, complex c=-1.5j, Scalar d=3j, int e=1j, complex f=0j, "
    "complex g=-0j) -> ()",
    "f(complex x=1) -> ()",
    "f(complex[] x=[1.5], complex[2] y=1j) -> ()",
    "f(complex[] x=[1]) -> ()",
    # strings
    "f(str a=\"x\\ny\", str b='q', str c=\"a\\\"b\", str d='a\"b', str e='a\\'b') -> ()",
    'f(str f="\\t\\\\\\a\\b\\f\\v", str g="\\101", str h="\x01\x7f") -> ()',
    'f(str g="ü€", str? h="x", str? i=None) -> ()',
    "f(str g=\"\"\"tri\"ple\"\"\", str h='''tri'ple''') -> ()",
    'f(str d="\\101\\7") -> ()',
    'f(str d="\\r") -> ()',
    'f(str d="\\x41") -> ()',
    'f(str d="\\u0041") -> ()',
    'f(str g="a" "b") -> ()',
    'f(str x="abc',
    'f(str x="""a\nb""") -> ()',
    'f(Scalar s="x", int t="y") -> ()',
    # devices
    'f(Device a="cuda:1", Device b="meta", Device? c=None, Device? d="cpu", Device e="cpu:0")'
    " -> ()",
    'f(Device d="cuda") -> ()',
    'f(Device d="bogus") -> ()',
    'f(Device d="") -> ()',
    'f(Device d="cuda:01") -> ()',
    'f(Device d="cuda:") -> ()',
    'f(Device d="cuda:1:2") -> ()',
    'f(Device d="cuda:99999999999") -> ()',
    "f(Device d=cpu) -> ()",
    # lexer: whitespace, comments, newlines, keywords, bad characters
    "f(Tensor x,\n  Tensor y) -> ()",
    "  f(Tensor x) -> ()",
    "f(Tensor x) -> () # comment",
    "f(Tensor x) -> ()   ",
    "f(Tensor x) -> () \n  ",
    "f(Tensor x) -> ()\n",
    "\nf(Tensor x) -> ()",
    "f(Tensor x) -> \n()",
    "  f(Tensor x) ->\n  ()",
    "f(Tensor x) ->\\\n ()",
    "f(Tensor x) -> ()\nbar() -> ()",
    "f(Tensor x) -> ()\n  bar",
    "f(Tensor x) -> ()\n# hi\n  bar",
    "f(int x) -> ()\n  # hi",
    "f(Tensor x) -> (Tensor a, Tensor b) # type: int",
    "f($) -> ()",
    "f(Tensor  $x) -> ()",
    "f(Tensor x)$ -> ()",
    "$f(Tensor x) -> ()",
    "f(Tensor x) -> Tensor $",
    "f(Tensor if) -> ()",
    "f(Tensor def) -> ()",
    "f(Tensor from, Tensor to, Tensor input) -> ()",
    "f(Tensor and) -> ()",
    "f(Tensor True) -> ()",
    "f(Tensor is not) -> ()",
    "f(Tensor x) -> Tensor\n\n\n\nfoo",
    "f(Tensor x, int y=1, int z=2, int w=3,\n  int v=4, float u=5,\n  Tensor t=None,\n"
    "  int s=inf, int r=1) -> ()",
]


def encode(v: object) -> object:
    """JSON-encode a default value faithfully."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, complex):
        return {"complex": [v.real, v.imag]}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    return {"repr": repr(v), "pytype": type(v).__name__}


def record_arg(a) -> dict:
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
    return d


def record(s) -> dict:
    """The Python-visible fields of a torch FunctionSchema (varargs are read off its str)."""
    text = str(s)
    head = text[: text.rfind(") -> ")] if ") -> " in text else text
    d = {
        "str": text,
        "name": s.name,
        "overload_name": s.overload_name,
        "arguments": [record_arg(a) for a in s.arguments],
        "returns": [record_arg(a) for a in s.returns],
        "is_vararg": head.endswith(", ...") or head.endswith("(..."),
        "is_varret": text.endswith(" -> ...") or text.endswith(", ...)"),
        "is_mutable": s.is_mutable,
    }
    try:
        again = str(torch._C.parse_schema(text))
    except Exception as e:  # pragma: no cover - not seen in 2.13
        again = f"<error {type(e).__name__}: {e}>"
    if again != text:
        d["reparsed"] = again
    return d


def all_schemas() -> list:
    seen: dict[str, object] = {}
    for s in torch._C._jit_get_all_schemas():
        seen.setdefault(str(s), s)
    for op in torch._C._dispatch_get_all_op_names():
        name, _, overload = op.partition(".")
        try:
            s = torch._C._dispatch_find_schema_or_throw(name, overload).schema()
        except Exception:  # registered without a schema
            continue
        seen.setdefault(str(s), s)
    return list(seen.values())


def record_sample(text: str) -> dict:
    try:
        s = torch._C.parse_schema(text)
    except Exception as e:
        return {"text": text, "error_type": type(e).__name__, "message": str(e)}
    d = record(s)
    d["text"] = text
    return d


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    schemas = sorted(all_schemas(), key=str)
    data = {
        "torch_version": torch.__version__,
        "schemas": [record(s) for s in schemas],
        "samples": [record_sample(t) for t in SAMPLES],
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    with gzip.GzipFile(args.out, "wb", compresslevel=9, mtime=0) as f:
        f.write(raw)
    n_re = sum("reparsed" in d for d in data["schemas"])
    print(
        f"wrote {args.out}: {len(schemas)} schemas ({n_re} do not round-trip in torch), "
        f"{len(SAMPLES)} samples, {os.path.getsize(args.out)} bytes",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
