"""SchemaCheckMode's messages: PyTorch's words, then the operator, its schema, and the fix.
(Which violations are caught, against PyTorch's mode: the schema_check/* cases.)"""

from __future__ import annotations

import pytest

import keyroute
from keyroute.library import Library
from keyroute.utils.schema_check import SchemaCheckError, SchemaCheckMode


@pytest.fixture
def lib():
    lib = Library("kx_schema_tests", "FRAGMENT")
    yield lib
    lib._destroy()


def test_undeclared_mutation_names_operator_argument_and_fix(lib: Library) -> None:
    lib.define("scale(Tensor self, Tensor cache) -> Tensor")

    def scale(x, cache):  # noqa: ANN001, ANN202
        cache.mul_(2)
        return x * 2

    lib.impl("scale", scale, "CPU")
    with pytest.raises(SchemaCheckError) as info, SchemaCheckMode():
        keyroute.ops.kx_schema_tests.scale(keyroute.ones(2), keyroute.ones(2))
    err = info.value
    assert isinstance(err, RuntimeError)
    assert err.message == "Argument cache is not defined as mutable but was mutated"
    assert str(err) == (
        "Argument cache is not defined as mutable but was mutated (operator "
        "kx_schema_tests.scale.default, schema kx_schema_tests::scale(Tensor self, Tensor cache) "
        "-> Tensor; declare it Tensor(a!) -- for a custom op, list it in mutates_args -- or stop "
        "writing to it)"
    )


def test_undeclared_alias_names_operator_and_argument(lib: Library) -> None:
    lib.define("flat(Tensor self) -> Tensor")
    lib.impl("flat", lambda x: x.reshape(-1), "CPU")
    with pytest.raises(SchemaCheckError) as info, SchemaCheckMode():
        keyroute.ops.kx_schema_tests.flat(keyroute.ones(2, 2))
    assert info.value.message == "Argument input is not defined to alias output but was aliasing"
    assert "operator kx_schema_tests.flat.default" in str(info.value)
    assert "input.clone()" not in str(info.value) and "self.clone()" in str(info.value)


def test_nan_values_are_not_a_mutation() -> None:
    with SchemaCheckMode() as mode:
        x = keyroute.tensor([float("nan"), 1.0])
        keyroute.relu(x)
    assert mode.mutated == [] and "aten::relu" in mode.ops
