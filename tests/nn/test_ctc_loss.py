"""nn.CTCLoss and F.ctc_loss over aten::ctc_loss (whose values are recorded in
tests/data/ops_ctc.json.gz): the module's and function's reductions map to the operator's
enum, list and tensor lengths reach the same loss, and (with torch importable) the loss and
its log_probs gradient match PyTorch's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import keyroute as kr

T, N, C = 10, 3, 5
IL, TL = [10, 8, 9], [3, 2, 4]


def _inputs(M: Any) -> tuple[Any, Any]:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((T, N, C)).astype(np.float64)
    targets = M.from_numpy(np.array([[1, 2, 2, 0], [3, 4, 0, 0], [4, 4, 1, 2]], np.int64))
    return M.from_numpy(x), targets


@pytest.mark.parametrize("reduction,enum", [("none", 0), ("mean", 1), ("sum", 2)])
def test_module_and_function_reach_the_operator(reduction: str, enum: int) -> None:
    x, targets = _inputs(kr)
    lp = x.log_softmax(2)
    expected = kr.ops.aten.ctc_loss.IntList(lp, targets, IL, TL, 0, enum, False)
    by_module = kr.nn.CTCLoss(reduction=reduction)(lp, targets, kr.tensor(IL), kr.tensor(TL))
    by_function = kr.nn.functional.ctc_loss(lp, targets, IL, TL, reduction=reduction)
    np.testing.assert_array_equal(by_module.numpy(), expected.numpy())
    np.testing.assert_array_equal(by_function.numpy(), expected.numpy())


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_matches_pytorch_live(reduction: str, zero_infinity: bool) -> None:
    torch = pytest.importorskip("torch")
    out = []
    for M in (torch, kr):
        x, targets = _inputs(M)
        x.requires_grad_(True)
        il = [10, 8, 2]  # the last alignment is impossible: an infinite loss
        loss = M.nn.CTCLoss(reduction=reduction, zero_infinity=zero_infinity)(
            x.log_softmax(2), targets, M.tensor(il), M.tensor(TL)
        )
        (loss.sum() if reduction == "none" else loss).backward()
        out.append((loss.detach().numpy(), x.grad.numpy()))
    np.testing.assert_allclose(out[1][0], out[0][0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out[1][1], out[0][1], rtol=1e-10, atol=1e-12)
