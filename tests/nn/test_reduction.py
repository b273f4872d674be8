"""The losses' reduction handling (keyroute/nn/_reduction.py, one helper for every loss):
PyTorch's deprecated size_average/reduce flags with its warning (one per call), the
reductions themselves, and its error for a bad reduction string."""

from __future__ import annotations

import warnings

import pytest

import keyroute as kr
import keyroute.nn.functional as F

A = kr.tensor([[1.0, 2.0], [3.0, 5.0]])
B = kr.tensor([[0.0, 2.0], [1.0, 1.0]])
# elementwise squared errors 1, 0, 4, 16; absolute errors 1, 0, 2, 4


@pytest.mark.parametrize(
    "flags, expected, word",
    [
        ({"size_average": False}, 21.0, "sum"),
        ({"reduce": False}, [[1.0, 0.0], [4.0, 16.0]], "none"),
        ({"size_average": True, "reduce": True}, 5.25, "mean"),
    ],
)
def test_legacy_flags_warn(flags, expected, word) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = F.mse_loss(A, B, **flags)
    assert out.tolist() == expected
    (w,) = caught
    assert str(w.message) == (
        f"size_average and reduce args will be deprecated, please use reduction='{word}' instead."
    )


@pytest.mark.parametrize(
    "name", ["l1_loss", "smooth_l1_loss", "soft_margin_loss", "binary_cross_entropy"]
)
def test_python_and_aten_losses_warn(name: str) -> None:
    # Looked up at call time: F's public functions are rebound to __torch_function__ checking
    # wrappers once any test defines a tensor-like class (keyroute/overrides.py).
    loss = getattr(F, name)
    bce = name == "binary_cross_entropy"
    x = kr.tensor([0.25, 0.5]) if bce else A
    y = kr.tensor([0.0, 1.0]) if bce else B
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        total = loss(x, y, reduce=True, size_average=False)
    assert [str(w.message) for w in caught] == [
        "size_average and reduce args will be deprecated, please use reduction='sum' instead."
    ]
    assert total.item() == pytest.approx(loss(x, y, reduction="sum").item())


def test_reductions() -> None:
    assert F.l1_loss(A, B, reduction="none").tolist() == [[1, 0], [2, 4]]
    assert F.l1_loss(A, B, reduction="sum").item() == 7
    assert F.l1_loss(A, B).item() == 1.75
    w = kr.tensor([[1.0, 1.0], [2.0, 0.0]])
    # weighted mean divides by the weights' sum: (1 + 0 + 4) / 4
    assert F.l1_loss(A, B, weight=w).item() == 1.25
    assert F.soft_margin_loss(kr.zeros(2), kr.ones(2), reduction="sum").item() == pytest.approx(
        2 * 0.6931471805599453
    )


def test_bad_reduction_strings() -> None:
    with pytest.raises(ValueError, match="^avg is not a valid value for reduction$"):
        F.mse_loss(A, B, reduction="avg")
    with pytest.raises(ValueError, match="^avg is not a valid value for reduction$"):
        F.soft_margin_loss(A, B, reduction="avg")
    with pytest.raises(ValueError, match="Invalid reduction mode: avg"):
        F.l1_loss(A, B, reduction="avg", weight=kr.ones(2, 2))
