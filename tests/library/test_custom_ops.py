"""keyroute.library.custom_op: what the recorded PyTorch cases cannot show.

A failed definition leaves nothing behind (PyTorch defines first and checks after; keyroute
checks first); kernels sit under PyTorch's keys; fake tensors use the fake implementation;
version counters, tensor-list gradients, device-argument ops and the thread-local state.
"""

from __future__ import annotations

import pytest

import keyroute
from keyroute import Tensor
from keyroute._library.custom_ops import OPDEFS
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.operator import find_op
from keyroute.dispatcher.tls import state as tls
from keyroute.library import custom_op
from keyroute.subclasses.fake_tensor import FakeTensor, FakeTensorMode

from .cases import drop

NS = "kx_custom_tests"


@pytest.fixture(autouse=True)
def _cleanup():
    yield
    drop(keyroute, NS)


def _tls() -> tuple[int, int, bool]:
    return tls.include, tls.exclude, tls.grad_enabled


def _bad_definitions() -> dict[str, object]:
    def unknown_arg(x: Tensor) -> Tensor:
        return x

    def non_tensor(x: Tensor, n: int) -> Tensor:
        return x

    def kwonly_tensor(x: Tensor, *, y: Tensor) -> Tensor:
        return x

    def no_tensor(n: int) -> Tensor:
        return keyroute.zeros(n)

    def plain(x):  # noqa: ANN001, ANN202
        return x

    return {
        "mutates_unknown": lambda name: custom_op(name, unknown_arg, mutates_args=("y",)),
        "mutates_non_tensor": lambda name: custom_op(name, non_tensor, mutates_args=("n",)),
        "mutates_bad_string": lambda name: custom_op(name, unknown_arg, mutates_args="x"),
        "kwarg_only_tensor": lambda name: custom_op(name, kwonly_tensor, mutates_args=()),
        "schema_mismatch": lambda name: custom_op(
            name, plain, mutates_args=(), schema="(Tensor(a!) x) -> Tensor"
        ),
        "bad_schema": lambda name: custom_op(
            name, plain, mutates_args=(), schema="(Tensor x -> Tensor"
        ),
        "device_types_no_tensor": lambda name: custom_op(
            name, no_tensor, mutates_args=(), device_types="cpu"
        ),
    }


@pytest.mark.parametrize("bad", sorted(_bad_definitions()))
def test_failed_definition_registers_nothing(bad: str) -> None:
    name = f"{NS}::{bad}"
    state = _tls()
    with pytest.raises((ValueError, RuntimeError, NotImplementedError)):
        _bad_definitions()[bad](name)
    assert find_op(name) is None
    assert name not in OPDEFS
    assert not hasattr(keyroute.ops, NS) or not hasattr(getattr(keyroute.ops, NS), bad)
    assert _tls() == state


@pytest.mark.parametrize("bad", sorted(_bad_definitions()))
def test_failed_redefinition_keeps_the_earlier_operator(bad: str) -> None:
    name = f"{NS}::{bad}"

    @custom_op(name, mutates_args=())
    def first(x: Tensor) -> Tensor:
        return x + 1

    with pytest.raises((ValueError, RuntimeError, NotImplementedError)):
        _bad_definitions()[bad](name)
    assert OPDEFS[name] is first
    assert getattr(getattr(keyroute.ops, NS), bad)(keyroute.zeros(2)).tolist() == [1.0, 1.0]


def test_kernels_sit_under_pytorchs_keys() -> None:
    @custom_op(f"{NS}::functional", mutates_args=())
    def functional(x: Tensor) -> Tensor:
        return x.clone()

    @custom_op(f"{NS}::mutating", mutates_args=("x",))
    def mutating(x: Tensor) -> None:
        x.zero_()

    @custom_op(f"{NS}::cpu_only", mutates_args=(), device_types="cpu")
    def cpu_only(x: Tensor) -> Tensor:
        return x.clone()

    def keys(op: object) -> set[str]:
        probe = ("Meta", "Autograd", "CompositeExplicitAutograd", "ADInplaceOrView", "CPU")
        return {
            k for k in probe if op._opoverload.has_kernel_for_dispatch_key(getattr(DispatchKey, k))
        }

    assert keys(functional) == {"Meta", "Autograd", "CompositeExplicitAutograd"}
    assert keys(mutating) == {"Meta", "Autograd", "CompositeExplicitAutograd", "ADInplaceOrView"}
    assert keys(cpu_only) == {"Meta", "Autograd", "CPU"}


def test_fake_tensors_run_the_fake_implementation() -> None:
    calls = []

    @custom_op(f"{NS}::outer", mutates_args=())
    def outer(a: Tensor, b: Tensor) -> Tensor:
        raise AssertionError("the real kernel must not run on fake tensors")

    @outer.register_fake
    def _(a, b):  # noqa: ANN001, ANN202
        calls.append((tuple(a.shape), tuple(b.shape)))
        return a.new_empty((a.shape[0], b.shape[0]))

    with FakeTensorMode():
        out = outer(keyroute.empty(3), keyroute.empty(5))
    assert isinstance(out, FakeTensor) and tuple(out.shape) == (3, 5) and str(out.device) == "cpu"
    assert calls == [((3,), (5,))]


def test_declared_mutations_bump_versions_through_kwargs_and_lists() -> None:
    @custom_op(f"{NS}::fill_all", mutates_args=("xs",))
    def fill_all(xs: list[Tensor], v: float) -> None:
        for x in xs:
            x.fill_(v)

    a, b, c = keyroute.zeros(2), keyroute.zeros(2), keyroute.zeros(2)
    fill_all([a, b], v=3.0)
    assert (a._version, b._version, c._version) == (2, 2, 0)  # the op's bump + fill_'s own
    assert a.tolist() == [3.0, 3.0]


def test_tensor_list_inputs_get_gradients() -> None:
    @custom_op(f"{NS}::weighted", mutates_args=())
    def weighted(xs: list[Tensor], w: Tensor) -> Tensor:
        return xs[0] * w + xs[1] * w

    def backward(ctx, g):  # noqa: ANN001, ANN202
        assert ctx.needs_input_grad == ([True, True], False)
        return [g * ctx.w, g * ctx.w], None

    def setup_context(ctx, inputs, output):  # noqa: ANN001, ANN202
        ctx.w = inputs[1]

    weighted.register_autograd(backward, setup_context=setup_context)
    x1 = keyroute.ones(2, requires_grad=True)
    x2 = keyroute.ones(2, requires_grad=True)
    w = keyroute.tensor([2.0, 3.0])
    weighted([x1, x2], w).sum().backward()
    assert x1.grad.tolist() == [2.0, 3.0] and x2.grad.tolist() == [2.0, 3.0]


def test_device_argument_ops_dispatch_on_the_device() -> None:
    @custom_op(f"{NS}::make", mutates_args=(), device_types="cpu")
    def make(n: int, device: keyroute.device) -> Tensor:
        return keyroute.arange(float(n))

    assert make(3, keyroute.device("cpu")).tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(RuntimeError, match="make does not have a kernel registered for meta"):
        make(3, keyroute.device("meta"))


def test_errors_in_kernels_leave_thread_state_unchanged() -> None:
    @custom_op(f"{NS}::boom", mutates_args=())
    def boom(x: Tensor) -> Tensor:
        raise ValueError("boom")

    boom.register_autograd(lambda ctx, g: g)
    state = _tls()
    for x in (keyroute.ones(2), keyroute.ones(2, requires_grad=True)):
        with pytest.raises(ValueError, match="boom"):
            boom(x)
        assert _tls() == state


def test_output_aliasing_an_input_through_kwargs_is_refused() -> None:
    @custom_op(f"{NS}::pick", mutates_args=())
    def pick(x: Tensor, y: Tensor) -> Tensor:
        return y

    with pytest.raises(RuntimeError, match="must not also be an input"):
        pick(keyroute.ones(1), y=keyroute.ones(1))
    with pytest.raises(RuntimeError, match="must not also be an input"):
        pick(keyroute.ones(1), keyroute.ones(1))


def test_call_forms_and_names() -> None:
    @custom_op(f"{NS}::scaled", mutates_args=())
    def scaled(x: Tensor, s: float = 2.0, *, shift: float = 0.0) -> Tensor:
        return x * s + shift

    x = keyroute.ones(2)
    assert scaled(x).tolist() == [2.0, 2.0]
    assert scaled(x, 3.0, shift=1.0).tolist() == [4.0, 4.0]
    assert scaled(x=x, s=1.0).tolist() == [1.0, 1.0]
    assert getattr(keyroute.ops, NS).scaled.default(x, shift=5.0).tolist() == [7.0, 7.0]
    assert repr(scaled) == f"<CustomOpDef({NS}::scaled)>"
    assert str(scaled._opoverload) == f"{NS}.scaled.default"
