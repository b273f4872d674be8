"""Every operator sample on meta tensors: the meta function gives PyTorch's output metadata
(dtype, shape, strides) and raises where PyTorch raises (same exception type)."""

from __future__ import annotations

import os

import pytest

from tests.ops.harness import (
    all_families,
    data_path,
    family_samples,
    recorded_samples,
    run_sample,
    sample_by_id,
)


def _cases() -> list[tuple[str, str]]:
    cases = []
    for family in all_families():
        if os.path.exists(data_path(family)):
            for s in family_samples(family):
                if "no_meta" not in s.tags:
                    cases.append((family, s.id))
    return cases


def _meta_view(enc):  # noqa: ANN001, ANN202
    if isinstance(enc, dict) and "dtype" in enc:
        return {k: enc[k] for k in ("dtype", "shape", "stride")}
    if isinstance(enc, dict) and "seq" in enc:
        return [_meta_view(e) for e in enc["seq"]]
    return None


@pytest.mark.parametrize("family,sample_id", _cases())
def test_meta(family: str, sample_id: str) -> None:
    import keyroute

    sample = sample_by_id(family)[sample_id]
    expected = recorded_samples(family)[sample_id]
    got = run_sample(keyroute, sample, meta=True)
    if "error" in expected:
        assert "error" in got, f"{sample_id}: PyTorch raises {expected['error']}, meta does not"
        return
    assert "error" not in got, f"{sample_id}: meta raised {got.get('error')}: {got.get('msg')}"
    exp, res = _meta_view(expected["out"]), _meta_view(got["out"])
    if "strides" in sample.tags:
        exp = _drop_strides(exp)
        res = _drop_strides(res)
    assert res == exp, f"{sample_id} ({sample.op}): meta {res} != PyTorch {exp}"


def _drop_strides(v):  # noqa: ANN001, ANN202
    if isinstance(v, dict):
        return {k: x for k, x in v.items() if k != "stride"}
    if isinstance(v, list):
        return [_drop_strides(x) for x in v]
    return v
