"""opcheck catches an undeclared mutation, a wrong fake implementation and a missing (or wrong)
backward, and returns PyTorch's dict of results. The same operators against PyTorch's own
opcheck are in tests/library/cases.py ("opcheck/results"); here: what keyroute adds."""

from __future__ import annotations

import pytest

import keyroute
from keyroute import Tensor
from keyroute.library import custom_op, opcheck
from keyroute.testing import DEFAULT_TEST_UTILS, OpCheckError
from keyroute.utils.schema_check import SchemaCheckError

from .cases import drop

NS = "kx_opcheck_tests"


@pytest.fixture(autouse=True)
def _cleanup():
    yield
    drop(keyroute, NS)


def test_result_dict_has_pytorchs_tests_in_order() -> None:
    @custom_op(f"{NS}::good", mutates_args=())
    def good(x: Tensor) -> Tensor:
        return x * 2

    good.register_fake(lambda x: keyroute.empty_like(x))
    good.register_autograd(lambda ctx, g: g * 2)
    result = opcheck(good, (keyroute.randn(3, requires_grad=True),))
    assert (
        list(result)
        == list(DEFAULT_TEST_UTILS)
        == [
            "test_schema",
            "test_autograd_registration",
            "test_faketensor",
            "test_aot_dispatch_dynamic",
        ]
    )
    assert set(result.values()) == {"SUCCESS"}
    assert (
        opcheck(good, (keyroute.randn(3),), test_utils="ALL")["test_aot_dispatch_static"]
        == "SUCCESS"
    )


def test_undeclared_mutation_names_the_operator_and_argument() -> None:
    @custom_op(f"{NS}::sneaky", mutates_args=())
    def sneaky(cache: Tensor, x: Tensor) -> Tensor:
        cache.add_(x)
        return x.clone()

    sneaky.register_fake(lambda cache, x: keyroute.empty_like(x))
    cache = keyroute.zeros(3)
    with pytest.raises(OpCheckError) as info:
        opcheck(sneaky, (cache, keyroute.ones(3)))
    msg = str(info.value)
    assert msg.startswith(
        "opcheck(op, ...): test_schema failed with Argument cache is not defined "
        "as mutable but was mutated (scroll up for stack trace)"
    )
    assert f"{NS}.sneaky.default" in msg and "mutates_args" in msg
    assert isinstance(info.value.__cause__, SchemaCheckError)
    assert cache.tolist() == [0.0, 0.0, 0.0]  # opcheck ran on copies


@pytest.mark.parametrize(
    ("fake", "words"),
    [
        (lambda x: keyroute.empty(x.shape[0] + 1), "Shapes"),
        (lambda x: keyroute.empty_like(x, dtype=keyroute.float64), "Dtypes"),
        (lambda x: keyroute.empty(tuple(x.shape)[::-1]).t(), "Stride mismatch"),
        (lambda x: keyroute.empty_like(x, device="meta"), "Devices cpu and meta"),
    ],
    ids=["shape", "dtype", "stride", "device"],
)
def test_wrong_fake_implementation(fake: object, words: str) -> None:
    @custom_op(f"{NS}::f", mutates_args=())
    def f(x: Tensor) -> Tensor:
        return x.clone()

    f.register_fake(fake)
    result = opcheck(f, (keyroute.randn(3, 2),), raise_exception=False)
    assert result["test_schema"] == result["test_autograd_registration"] == "SUCCESS"
    err = result["test_faketensor"]
    assert type(err).__name__ == "MetadataMismatchError"
    assert str(err).startswith(
        f"When comparing the output of {NS}.f.default on FakeTensor and "
        f"concrete Tensors, found mismatched tensor metadata: {words}"
    )


def test_missing_backward_fails_where_pytorch_fails() -> None:
    @custom_op(f"{NS}::nobw", mutates_args=())
    def nobw(x: Tensor) -> Tensor:
        return x.clone()

    nobw.register_fake(lambda x: keyroute.empty_like(x))
    result = opcheck(nobw, (keyroute.randn(3, requires_grad=True),), raise_exception=False)
    assert result["test_autograd_registration"] == "SUCCESS"  # there is an Autograd kernel
    err = result["test_aot_dispatch_dynamic"]
    assert isinstance(err, RuntimeError)
    assert str(err) == (
        f"Trying to backward through {NS}.nobw.default but no autograd formula was registered. "
        f"Please use register_autograd to add one."
    )
    # Without inputs that need a gradient there is nothing to check.
    assert set(opcheck(nobw, (keyroute.randn(3),)).values()) == {"SUCCESS"}


def test_wrong_backward_passes_as_in_pytorch() -> None:
    # The AOT path uses the same (wrong) formula as eager, so PyTorch's opcheck passes this
    # operator; keyroute's compares the same two runs and passes it too.
    @custom_op(f"{NS}::triple", mutates_args=())
    def triple(x: Tensor) -> Tensor:
        return x * 3

    triple.register_fake(lambda x: keyroute.empty_like(x))
    triple.register_autograd(lambda ctx, g: g * 2)
    assert set(opcheck(triple, (keyroute.randn(3, requires_grad=True),)).values()) == {"SUCCESS"}


def test_aot_dispatch_runs_the_aot_path() -> None:
    # The check traces the op's graph (make_inference_graph) and compares its run with eager.
    @custom_op(f"{NS}::double_aot", mutates_args=())
    def liar_shape(x: Tensor) -> Tensor:
        return x * 2

    liar_shape.register_fake(lambda x: keyroute.empty_like(x))
    seen = []
    from keyroute._functorch import aot_autograd

    orig = aot_autograd.make_inference_graph

    def spy(f, args):
        seen.append(True)
        return orig(f, args)

    aot_autograd.make_inference_graph = spy
    try:
        assert opcheck(liar_shape, (keyroute.randn(3),))["test_aot_dispatch_dynamic"] == "SUCCESS"
    finally:
        aot_autograd.make_inference_graph = orig
    assert seen  # traced through the AOT path


def test_backend_key_autograd_registration_is_flagged() -> None:
    lib = keyroute.library.Library(NS, "FRAGMENT")
    try:
        lib.define("bad_grad(Tensor x) -> Tensor")

        class Double(keyroute.autograd.Function):
            @staticmethod
            def forward(ctx, x):  # noqa: ANN001, ANN205
                return x * 2

            @staticmethod
            def backward(ctx, g):  # noqa: ANN001, ANN205
                return g * 2

        lib.impl("bad_grad", lambda x: Double.apply(x), "CPU")  # the wrong key for a Function
        op = getattr(keyroute.ops, NS).bad_grad.default
        result = opcheck(
            op,
            (keyroute.randn(2, requires_grad=True),),
            test_utils="test_autograd_registration",
            raise_exception=False,
        )
        err = result["test_autograd_registration"]
        assert isinstance(err, AssertionError)
        assert str(err).startswith(
            f"{NS}::bad_grad: at least one output of this operator has "
            "requires_grad=True but the operator does not have an autograd "
            "kernel defined at an autograd key"
        )
    finally:
        lib._destroy()


def test_opcheck_argument_errors() -> None:
    with pytest.raises(ValueError, match="op must be instance of torch._ops.OpOverload"):
        opcheck(lambda x: x, (keyroute.ones(1),))
    with pytest.raises(ValueError, match="if you specify one of rtol/atol, you must specify both"):
        opcheck(keyroute.ops.aten.sin.default, (keyroute.ones(1),), atol=1e-3)
    with pytest.raises(RuntimeError, match="opcheck can only test operators without overloads"):
        opcheck(keyroute.ops.aten.add, (keyroute.ones(1), keyroute.ones(1)))


def test_aten_operators_pass() -> None:
    x = keyroute.randn(3, requires_grad=True)
    assert set(opcheck(keyroute.ops.aten.sin.default, (x,)).values()) == {"SUCCESS"}
    assert set(opcheck(keyroute.ops.aten.mul.Tensor, (x, keyroute.randn(3))).values()) == {
        "SUCCESS"
    }
