"""The aliasing check of a custom op with several outputs (the general, non-single-tensor path):
an output that is an input, views an input's storage, or shares storage with another output is
refused with PyTorch's error; fresh outputs and declared views pass."""

from __future__ import annotations

import pytest

import keyroute
from keyroute import Tensor
from keyroute.library import custom_op

NS = "kr_alias_check"


def test_multi_output_aliasing_is_refused() -> None:
    @custom_op(f"{NS}::same_in", mutates_args=())
    def same_in(x: Tensor) -> tuple[Tensor, Tensor]:
        return x.clone(), x

    @custom_op(f"{NS}::view_in", mutates_args=())
    def view_in(x: Tensor) -> tuple[Tensor, Tensor]:
        return x.clone(), x.view(-1)

    @custom_op(f"{NS}::each_other", mutates_args=())
    def each_other(x: Tensor) -> tuple[Tensor, Tensor]:
        y = x.clone()
        return y, y[1:]

    x = keyroute.ones(2, 2)
    for op in (same_in, view_in, each_other):
        with pytest.raises(RuntimeError, match="must not also be an input"):
            op(x)


def test_multi_output_fresh_outputs_pass() -> None:
    @custom_op(f"{NS}::fresh", mutates_args=())
    def fresh(x: Tensor) -> tuple[Tensor, Tensor]:
        return x.clone(), x * 2

    a, b = fresh(keyroute.ones(2))
    assert a.tolist() == [1.0, 1.0] and b.tolist() == [2.0, 2.0]


def test_viewed_input_and_fresh_output_pass() -> None:
    # An input that is itself a view (its array has a base) must not trip the check.
    @custom_op(f"{NS}::from_view", mutates_args=())
    def from_view(x: Tensor) -> tuple[Tensor, Tensor]:
        return x + 1, x.clone()

    base = keyroute.zeros(4)
    a, b = from_view(base[1:])
    assert a.tolist() == [1.0, 1.0, 1.0] and b.tolist() == [0.0, 0.0, 0.0]


def test_mutating_op_returning_nothing() -> None:
    @custom_op(f"{NS}::fill", mutates_args=("out",))
    def fill(out: Tensor, v: float) -> None:
        out.fill_(v)

    t = keyroute.zeros(2)
    assert fill(t, 3.0) is None
    assert t.tolist() == [3.0, 3.0]


def test_live_torch_refuses_the_same() -> None:
    torch = pytest.importorskip("torch")

    @torch.library.custom_op(
        f"{NS}::t_each_other", mutates_args=(), schema="(Tensor x) -> (Tensor, Tensor)"
    )
    def each_other(x):  # noqa: ANN001, ANN202 - the schema is given
        y = x.clone()
        return y, y[1:]

    with pytest.raises(RuntimeError, match="must not also be an input"):
        each_other(torch.ones(2, 2))
