"""keyroute.testing.assert_close, isclose/allclose and utils._pytree against PyTorch's
recorded outcomes and messages (tools/record_testing.py)."""

from __future__ import annotations

import collections
import json
import pathlib
import types

import pytest

import keyroute

DATA = json.loads((pathlib.Path(__file__).parents[1] / "data/runtime/testing.json").read_text())[
    "cases"
]


def _torch_namespace() -> types.SimpleNamespace:
    import keyroute.utils._pytree  # noqa: F401

    return keyroute


def _outcome(expr: str) -> dict[str, object]:
    env = {"torch": _torch_namespace(), "collections": collections}
    try:
        value = eval(expr, env)  # noqa: S307  (recorded case list)
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e)}
    return {"value": repr(value)}


@pytest.mark.parametrize("expr", sorted(DATA))
def test_matches_pytorch(expr: str, torch_names: None) -> None:
    assert _outcome(expr) == DATA[expr]


def test_assert_close_loaded_by_import() -> None:
    assert keyroute.testing.assert_close is not None
    assert callable(keyroute.testing.make_tensor)


def test_make_tensor_ranges_and_flags() -> None:
    t = keyroute.testing.make_tensor(50, dtype=keyroute.float32, device="cpu", low=-1, high=1)
    assert t.shape == (50,) and t.dtype == keyroute.float32
    assert bool(((t >= -1) & (t < 1)).all())
    i = keyroute.testing.make_tensor((4, 5), dtype=keyroute.int64, device="cpu")
    assert bool(((i >= -9) & (i < 10)).all())
    nc = keyroute.testing.make_tensor(
        3, 4, dtype=keyroute.float64, device="cpu", noncontiguous=True
    )
    assert nc.shape == (3, 4) and not nc.is_contiguous()
    z = keyroute.testing.make_tensor(
        100, dtype=keyroute.int32, device="cpu", low=0, high=2, exclude_zero=True
    )
    assert bool((z == 1).all())
    g = keyroute.testing.make_tensor(2, dtype=keyroute.float32, device="cpu", requires_grad=True)
    assert g.requires_grad


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"dtype": "int64", "requires_grad": True},
            ValueError,
            "`requires_grad=True` is not supported",
        ),
        (
            {"dtype": "float32", "low": 2, "high": 1},
            ValueError,
            "`low` must be less than `high`, but got 2 >= 1",
        ),
        ({"dtype": "float32", "low": float("nan")}, ValueError, "`low` and `high` cannot be NaN"),
    ],
)
def test_make_tensor_errors(kwargs: dict, error: type, message: str) -> None:
    kwargs = dict(kwargs, dtype=getattr(keyroute, kwargs["dtype"]))
    with pytest.raises(error, match=message.replace("(", r"\(").replace("[", r"\[")):
        keyroute.testing.make_tensor(3, device="cpu", **kwargs)
