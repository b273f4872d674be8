"""PyTorch's keyword argument names on the Tensor methods that also take `*sizes`
(x.flip(dims=(0,)), x.view(size=...), x.permute(dims=...), ...), checked against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import keyroute

A = np.arange(6.0, dtype=np.float32).reshape(2, 3)

CASES = {
    "flip": (lambda x: x.flip(dims=(0,)), lambda a: a[::-1]),
    "flip-fn": (lambda x: keyroute.flip(x, dims=[1]), lambda a: a[:, ::-1]),
    "permute": (lambda x: x.permute(dims=(1, 0)), lambda a: a.T),
    "reshape": (lambda x: x.reshape(shape=(3, 2)), lambda a: a.reshape(3, 2)),
    "view": (lambda x: x.view(size=(3, 2)), lambda a: a.reshape(3, 2)),
    "view-dtype": (lambda x: x.view(dtype=keyroute.int32), lambda a: a.view(np.int32)),
    "repeat": (lambda x: x.repeat(repeats=(2, 1)), lambda a: np.tile(a, (2, 1))),
    "expand": (lambda x: x.expand(size=(2, 2, 3)), lambda a: np.broadcast_to(a, (2, 2, 3))),
    "tile": (lambda x: x.tile(dims=(2,)), lambda a: np.tile(a, (2,))),
    "sum": (lambda x: x.sum(dim=1), lambda a: a.sum(1)),
    "transpose": (lambda x: x.transpose(dim0=0, dim1=1), lambda a: a.T),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_keyword_forms(name: str) -> None:
    call, expect = CASES[name]
    got = call(keyroute.from_numpy(A.copy())).numpy()
    np.testing.assert_array_equal(got, expect(A.copy()))
