"""Eigenvectors and singular vectors against PyTorch's, up to the signs LAPACK picks freely.

Each vector's sign is a LAPACK implementation's choice (PyTorch links MKL, NumPy its own
LAPACK), so tests/ops/samples_linalg_ops.py compares those samples' shapes only; here every
vector is normalized (its largest-magnitude entry made positive, the paired singular vector
flipped with it) and then compared with PyTorch's recording."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.ops.harness import data_path, decode_array, recorded_samples, run_sample, sample_by_id

FAMILY = "linalg_ops"
# sample id -> (index of the vectors output, index of the paired output or None, paired is
# rows (Vh) rather than columns (V))
GAUGED = {
    "_linalg_eigh": (1, None, False),
    "_linalg_eigh-U": (1, None, False),
    "_linalg_svd-4x3": (0, 2, True),
    "_linalg_svd-3x4": (0, 2, True),
    "_linalg_svd-2x3x3": (0, 2, True),
    "_linalg_svd-full-4x3": (0, 2, True),
    "_linalg_svd-full-3x4": (0, 2, True),
    "_linalg_svd-full-2x3x3": (0, 2, True),
    "linalg_svd": (0, 2, True),
    "svd": (0, 2, False),
}


def _normalize(outs: list[np.ndarray], vec: int, pair: int | None, rows: bool) -> list[np.ndarray]:
    outs = [np.array(o, dtype=np.float64) for o in outs]
    v = outs[vec]
    k = v.shape[-1]
    idx = np.argmax(np.abs(v), axis=-2)  # per column
    pick = np.take_along_axis(v, idx[..., None, :], axis=-2)[..., 0, :]
    sign = np.where(pick < 0, -1.0, 1.0)
    outs[vec] = v * sign[..., None, :]
    if pair is not None:
        p = outs[pair]
        if rows:  # Vh: the first k rows pair with U's columns
            p[..., :k, :] *= sign[..., :, None][..., : p.shape[-2], :][..., :k, :]
        else:  # V: columns
            p[..., :, :k] *= sign[..., None, :k]
        outs[pair] = p
    return outs


@pytest.mark.skipif(not os.path.exists(data_path(FAMILY)), reason="not recorded")
@pytest.mark.parametrize("sample_id", sorted(GAUGED))
def test_vectors_match_up_to_sign(sample_id: str) -> None:
    import keyroute

    sample = sample_by_id(FAMILY)[sample_id]
    assert sample.compare == "shape"
    exp = recorded_samples(FAMILY)[sample_id]["out"]["seq"]
    got = run_sample(keyroute, sample)["out"]["seq"]
    vec, pair, rows = GAUGED[sample_id]
    assert len(exp) > (vec if pair is None else max(vec, pair))
    e = _normalize([decode_array(x) for x in exp], vec, pair, rows)
    g = _normalize([decode_array(x) for x in got], vec, pair, rows)
    # Beyond the k singular values (full_matrices), a complement's basis is unique only up to
    # rotation: compare the first k vectors.
    k = e[1].shape[-1] if pair is not None else e[vec].shape[-1]
    for i, (a, b) in enumerate(zip(g, e)):
        if i == vec:
            a, b = a[..., :k], b[..., :k]
        elif i == pair:
            a, b = (a[..., :k, :], b[..., :k, :]) if rows else (a[..., :k], b[..., :k])
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-9, err_msg=f"{sample_id} out {i}")
