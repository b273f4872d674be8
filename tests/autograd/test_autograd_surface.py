"""keyroute's autograd surface equals PyTorch's (recorded by tools/record_autograd_surface.py):

- per operator sample (tests/ops/samples_*.py, and tests/autograd/surface_samples.py): which
  outputs require grad, their grad_fn's type name, what a backward through each does, and
  which leaves it reaches (tests/autograd/surface_harness.py);
- per aten operator: the kind of its Autograd kernel (formula with PyTorch's node name, out=
  refusal, NotImplemented, passthrough, or none for CompositeImplicitAutograd).

Known gaps: tests/autograd/surface_known_gaps.txt (each must still differ).
"""

from __future__ import annotations

import functools

import pytest

from tests.autograd.surface_harness import (
    differences,
    find_sample,
    kernel_kind,
    known_gaps,
    load,
    surface,
)
from tests.autograd.surface_samples import SAMPLES
from tests.ops.harness import all_families, family_samples

_DATA = load()
RECORDED = _DATA["samples"]
KERNELS = _DATA["kernels"]
GAPS = known_gaps()


@pytest.mark.parametrize("sample_id", sorted(RECORDED))
def test_autograd_surface(sample_id: str) -> None:
    import keyroute

    expected = RECORDED[sample_id]
    sample = find_sample(expected["family"], sample_id)
    diffs = differences(expected, surface(keyroute, sample))
    if sample_id in GAPS:
        assert diffs, f"{sample_id} now conforms: remove it from surface_known_gaps.txt"
        pytest.xfail(GAPS[sample_id])
    assert not diffs, f"{sample_id} ({sample.op}):\n  " + "\n  ".join(diffs)


def test_recording_covers_samples() -> None:
    # Every sample is recorded, or its plain run records an error (those are not re-run);
    # so is every autograd-only sample.
    from tests.ops.harness import recorded_samples

    missing = [
        s.id
        for f in all_families()
        for s in family_samples(f)
        if s.id not in RECORDED and "error" not in recorded_samples(f)[s.id]
    ] + [s.id for s in SAMPLES if s.id not in RECORDED]
    assert not missing, f"run tools/record_autograd_surface.py: {missing[:5]}"


def test_known_gaps_are_recorded_samples() -> None:
    kernels = {f"kernel:{n}" for n in KERNELS}
    unknown = sorted(set(GAPS) - set(RECORDED) - kernels)
    assert not unknown, f"surface_known_gaps.txt names unrecorded samples: {unknown}"


@functools.cache
def _aten_ops() -> dict[str, object]:
    from keyroute.dispatcher.operator import all_ops

    return {
        f"{op._opname}.{op._overloadname or 'default'}": op
        for op in all_ops()
        if op.namespace == "aten" and op._schema is not None
    }


@pytest.mark.parametrize(
    "name", sorted(n for n in _aten_ops() if KERNELS.get(n, ["manual"])[0] != "manual")
)
def test_autograd_kernel(name: str) -> None:
    """Every aten operator has PyTorch's kind of Autograd kernel: the formula's node name, the
    arguments it refuses to differentiate, its differentiable outputs; the out= refusal;
    NotImplemented; a passthrough; or none (CompositeImplicitAutograd)."""
    expected = KERNELS[name]
    got = kernel_kind(_aten_ops()[name])
    gap = f"kernel:{name}"
    if gap in GAPS:
        assert got != expected, f"{name} now conforms: remove {gap} from surface_known_gaps.txt"
        pytest.xfail(GAPS[gap])
    assert got == expected, f"{name}: keyroute {got}, PyTorch {expected}"
