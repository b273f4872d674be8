"""Every recorded operator sample: keyroute's result equals PyTorch's (see harness.py)."""

from __future__ import annotations

import os

import pytest

from tests.ops.harness import (
    all_families,
    compare_results,
    data_path,
    family_samples,
    known_gaps,
    load_recorded,
    recorded_samples,
    run_sample,
    sample_by_id,
)

GAPS = known_gaps()


def _cases() -> list[tuple[str, str]]:
    cases = []
    for family in all_families():
        if os.path.exists(data_path(family)):
            for s in family_samples(family):
                cases.append((family, s.id))
    return cases


@pytest.mark.parametrize("family,sample_id", _cases())
def test_sample(family: str, sample_id: str) -> None:
    import keyroute

    sample = sample_by_id(family)[sample_id]
    recorded = recorded_samples(family)
    assert sample_id in recorded, f"{sample_id} not recorded: run tools/record_ops.py {family}"
    diffs = compare_results(recorded[sample_id], run_sample(keyroute, sample), sample)
    if sample_id in GAPS:
        assert diffs, f"{sample_id} now conforms: remove it from tests/ops/known_gaps.txt"
        pytest.xfail(GAPS[sample_id])
    assert not diffs, f"{sample_id} ({sample.op}):\n  " + "\n  ".join(diffs)


def test_recordings_cover_samples() -> None:
    for family in all_families():
        if not os.path.exists(data_path(family)):
            continue
        recorded = load_recorded(family)["samples"]
        missing = [s.id for s in family_samples(family) if s.id not in recorded]
        assert not missing, (
            f"{family}: samples not recorded (run tools/record_ops.py): {missing[:5]}"
        )


def test_known_gaps_exist() -> None:
    ids = {s.id for f in all_families() for s in family_samples(f)}
    unknown = sorted(set(GAPS) - ids)
    assert not unknown, f"known_gaps.txt names samples that do not exist: {unknown}"
