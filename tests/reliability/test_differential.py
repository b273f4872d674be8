"""A hypothesis differential test over the recorded operator samples (issue 12).

Hypothesis draws recorded samples (tests/data/ops_<family>.json.gz, every family) and, for
each, runs it on keyroute against PyTorch's recorded outcome; when PyTorch raised, the inputs
must be unchanged after keyroute's error (a failed op leaves its inputs as they were).
Seeded (derandomize) and bounded (max_examples) so that CI runs the same few seconds each time.
Samples listed in tests/ops/known_gaps.txt are left out (test_op_conformance holds them).
"""

from __future__ import annotations

import os
import warnings

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import keyroute  # noqa: E402
from tests.ops.harness import (  # noqa: E402
    all_families,
    compare_results,
    data_path,
    encode_value,
    family_samples,
    known_gaps,
    recorded_samples,
    rng_for,
    run_sample,
)

GAPS = known_gaps()
SAMPLES = [
    (family, s)
    for family in all_families()
    if os.path.exists(data_path(family))
    for s in family_samples(family)
    if s.id not in GAPS
]


def _snapshot(values: object) -> list:
    out = []
    for v in values if isinstance(values, (list, tuple)) else [values]:
        if isinstance(v, (list, tuple)):
            out.append(_snapshot(v))
        elif hasattr(v, "_key_set") and v.device.type != "meta":
            out.append(encode_value(keyroute, v))
    return out


@settings(
    max_examples=200,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(SAMPLES))
def test_recorded_samples_match_and_errors_leave_inputs_unchanged(drawn) -> None:  # noqa: ANN001
    family, sample = drawn
    expected = recorded_samples(family)[sample.id]
    diffs = compare_results(expected, run_sample(keyroute, sample), sample)
    assert not diffs, f"{sample.id} ({sample.op}): {diffs}"
    if "error" in expected:
        args, kwargs = sample.make(keyroute, rng_for(sample.id))
        before = _snapshot(list(args) + list(kwargs.values()))
        overload = sample.op if "." in sample.op else sample.op + ".default"
        name, ov = overload.split(".", 1)
        op = getattr(getattr(keyroute.ops.aten, name), ov)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(Exception):  # noqa: B017,PT011 - the recorded error, any type
                op(*args, **kwargs)
        assert _snapshot(list(args) + list(kwargs.values())) == before, sample.id


def test_there_are_samples_to_draw() -> None:
    assert len(SAMPLES) > 1000
