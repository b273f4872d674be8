"""Tests for keyroute.dispatcher.infer_schema against torch.library.infer_schema (2.13).

No ``from __future__ import annotations`` here: the functions defined in the tests must carry
real annotations, as the recorded cases do.

tests/data/infer_schema.json (written by tools/record_infer_schema.py) holds PyTorch's answer for
every case in infer_cases.py. Each case is replayed with keyroute's types (or stand-ins where
keyroute does not have them yet); with torch installed, also with torch's own types, where the
messages must match character for character.
"""

import functools
import json
import os
import types
import typing

import pytest

from keyroute.dispatcher.infer_schema import (
    Number,
    TypeRegistry,
    default_registry,
    infer_schema,
    register_tensor_type,
    register_type_name,
)
from keyroute.dispatcher.schema import SchemaParseError, parse_schema

from .infer_cases import CASES

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "infer_schema.json")


@functools.cache
def recorded() -> dict:
    with open(DATA) as f:
        return {c["name"]: c for c in json.load(f)["cases"]}


# ------------------------------------------------------------------------- keyroute's types


class StandInTensor:
    """Used where keyroute.Tensor does not exist yet."""


class StandInDtype:
    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return f"keyroute.{self.name}"

    __repr__ = __str__


class StandInDevice:
    def __init__(self, spec: str) -> None:
        self.spec = spec

    def __str__(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"device(type='{self.spec}')"


class _Tag:
    def __init__(self, name: str) -> None:
        self.name = name


def keyroute_namespace() -> types.SimpleNamespace:
    """``M`` for the cases: keyroute's classes where they exist, else stand-ins."""
    import keyroute

    dtype = getattr(keyroute, "dtype", None)
    float32 = getattr(keyroute, "float32", None)
    if not isinstance(dtype, type) or float32 is None:
        dtype, float32 = StandInDtype, StandInDtype("float32")
    device = getattr(keyroute, "device", None)
    if not isinstance(device, type):
        device = StandInDevice
    tensor = getattr(keyroute, "Tensor", None)
    if not isinstance(tensor, type):
        tensor = StandInTensor
    return types.SimpleNamespace(
        Tensor=tensor,
        dtype=dtype,
        device=device,
        float32=float32,
        types=types.SimpleNamespace(Number=Number),
        Tag=types.SimpleNamespace(inplace=_Tag("inplace"), out=_Tag("out")),
    )


def registry_for(M) -> TypeRegistry:
    reg = TypeRegistry()
    reg.register_tensor_type(M.Tensor)
    reg.register_type_name(M.dtype, "ScalarType")
    reg.register_type_name(M.device, "Device")
    return reg


def _qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def normalize_torch(msg: str) -> str:
    """PyTorch's message with its type names replaced by placeholders."""
    group = "torch.distributed.distributed_c10d.GroupName"
    msg = msg.replace(f", {group}, typing.Optional[{group}]", "")
    for name, ph in (
        ("torch.Tensor", "<Tensor>"),
        ("torch.dtype", "<dtype>"),
        ("torch.device", "<device>"),
        ("torch.float32", "<float32>"),
    ):
        msg = msg.replace(name, ph)
    return msg


def normalize_ours(msg: str, M) -> str:
    for name, ph in (
        (_qualname(M.Tensor), "<Tensor>"),
        (_qualname(M.dtype), "<dtype>"),
        (_qualname(M.device), "<device>"),
        (repr(M.float32), "<float32>"),
    ):
        msg = msg.replace(name, ph)
    return normalize_torch(msg)  # string annotations spell `torch.Tensor` literally


def run(make, M, registry: TypeRegistry) -> dict:
    fn, mutates_args, extra = make(M)
    try:
        return {"result": infer_schema(fn, mutates_args=mutates_args, registry=registry, **extra)}
    except Exception as e:
        return {"error_type": type(e).__name__, "message": str(e)}


# ------------------------------------------------------------------------- recorded cases


def test_catalogue_matches_recording():
    assert list(recorded()) == list(CASES)
    assert len(CASES) >= 60
    assert sum("error_type" in c for c in recorded().values()) >= 20


@pytest.mark.parametrize("name", list(CASES))
def test_recorded_case_with_keyroute_types(name):
    M = keyroute_namespace()
    expected = recorded()[name]
    got = run(CASES[name], M, registry_for(M))
    if "result" in expected:
        assert got == {"result": expected["result"]}
    else:
        assert got.get("error_type") == expected["error_type"], got
        assert normalize_ours(got["message"], M) == normalize_torch(expected["message"])


@pytest.mark.parametrize("name", [n for n, c in recorded().items() if "result" in c])
def test_recorded_results_parse_like_torch(name):
    c = recorded()[name]
    text = c["result"] if c["result"][0] != "(" else "f" + c["result"]
    if "parsed" in c:
        assert str(parse_schema(text)) == c["parsed"]
    else:
        with pytest.raises(SchemaParseError):
            parse_schema(text)


# ------------------------------------------------------------------------- hand-written


def test_examples():
    M = keyroute_namespace()
    reg = registry_for(M)

    def f(x: M.Tensor, n: int, *, alpha: float = 1.0) -> M.Tensor: ...

    assert infer_schema(f, mutates_args=(), registry=reg) == (
        "(Tensor x, SymInt n, *, float alpha=1.0) -> Tensor"
    )
    assert infer_schema(f, mutates_args=(), op_name="mylib::f", registry=reg) == (
        "mylib::f(Tensor x, SymInt n, *, float alpha=1.0) -> Tensor"
    )
    assert infer_schema(f, mutates_args="unknown", registry=reg).startswith("(Tensor(a0!) x")
    with pytest.raises(ValueError, match="torch.Tag.inplace requires mutates_args"):
        infer_schema(f, mutates_args=(), registry=reg, tags="inplace")
    assert infer_schema(f, mutates_args=["x"], registry=reg, tags=["inplace"]).endswith(
        "-> Tensor(a0!)"
    )


def test_number_alias():
    assert Number == int | float | bool
    assert Number == typing.Union[int, float, bool]  # noqa: UP007


def test_unregistered_tensor_class_is_refused():
    class Other:
        pass

    def f(x: Other) -> None: ...

    with pytest.raises(ValueError, match="Parameter x has unsupported type"):
        infer_schema(f, mutates_args=(), registry=TypeRegistry())


def test_registry_caches_and_invalidates():
    reg = TypeRegistry()
    t1 = reg.param_types()
    assert reg.param_types() is t1
    reg.register_tensor_type(StandInTensor)
    assert StandInTensor in reg.param_types()
    assert list(reg.param_types())[0] is StandInTensor  # tensors are listed first
    reg.register_type_name(StandInDevice, "Device")
    assert reg.param_types()[typing.Optional[StandInDevice]] == "Device?"  # noqa: UP045
    assert reg.types_named("Device") == (StandInDevice,)


def test_default_registry_and_module_level_registration():
    reg = default_registry()
    saved = (list(reg.tensor_types), dict(reg.type_names))
    try:

        class MyTensor:
            pass

        class MyDevice:
            def __str__(self) -> str:
                return "meta"

        register_tensor_type(MyTensor)
        register_type_name(MyDevice, "Device")

        def f(x: MyTensor, d: MyDevice = MyDevice()) -> MyTensor: ...  # noqa: B008

        assert infer_schema(f, mutates_args=()) == '(Tensor x, Device d="meta") -> Tensor'
    finally:
        reg.tensor_types[:] = saved[0]
        reg.type_names.clear()
        reg.type_names.update(saved[1])
        reg._param_types = reg._return_types = None


def test_default_registry_finds_keyroute_types():
    import keyroute

    reg = default_registry()
    assert keyroute.Tensor in reg.tensor_types


# ------------------------------------------------------------------------- live PyTorch


def torch_registry(torch) -> TypeRegistry:
    reg = TypeRegistry()
    reg.register_tensor_type(torch.Tensor)
    reg.register_type_name(torch.dtype, "ScalarType")
    reg.register_type_name(torch.device, "Device")
    if torch.distributed.is_available():
        from torch.distributed.distributed_c10d import GroupName

        reg.register_type_name(GroupName, "str")
    return reg


def test_live_cases_match_torch_exactly():
    torch = pytest.importorskip("torch")
    import logging

    logging.disable(logging.WARNING)
    try:
        reg = torch_registry(torch)
        for name, make in CASES.items():
            fn, mutates_args, extra = make(torch)
            try:
                result = torch.library.infer_schema(fn, mutates_args=mutates_args, **extra)
                theirs = {"result": result}
            except Exception as e:
                theirs = {"error_type": type(e).__name__, "message": str(e)}
            ours = run(make, torch, reg)
            assert ours == theirs, name
            # the recording was made from these same cases
            keys = ("result", "error_type", "message")
            rec = {k: v for k, v in recorded()[name].items() if k in keys}
            assert theirs == rec, name
    finally:
        logging.disable(logging.NOTSET)
