"""CPU autocast against PyTorch 2.13's recorded behaviour (tools/record_autocast.py ->
tests/data/autocast.json): per operator case, autocast dtype and input variant, the output
dtypes and the aten calls a dispatch mode sees; and the autocast programs. Cases and programs
named in autocast_known_gaps.txt must still differ (strict)."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute
import keyroute.nn.functional  # noqa: F401
import keyroute.utils._python_dispatch  # noqa: F401

from ._compare import outcome_matches, read_gaps
from .autocast_cases import AUTOCAST_DTYPES, CASES, VARIANTS, run_case
from .autocast_programs import PROGRAMS, run_program

HERE = pathlib.Path(__file__).resolve().parent
DATA = json.loads((HERE.parent / "data/autocast.json").read_text())
GAPS = read_gaps(HERE / "autocast_known_gaps.txt")
KEYS = [f"{n}/{d}/{v}" for n in CASES for d in AUTOCAST_DTYPES for v in VARIANTS]


def _gap(key: str) -> str | None:
    """A gap names a case key, or a case name for all its dtypes and variants."""
    return GAPS.get(key) or GAPS.get(key.split("/")[0])


def _case_matches(key: str) -> bool:
    name, acd, variant = key.split("/")
    return run_case(name, keyroute, acd, variant) == DATA["cases"][key]


def test_every_case_is_recorded() -> None:
    assert sorted(DATA["cases"]) == sorted(KEYS)
    assert sorted(DATA["programs"]) == sorted(PROGRAMS)


@pytest.mark.parametrize("key", [k for k in KEYS if _gap(k) is None])
def test_case_matches_pytorch(key: str) -> None:
    name, acd, variant = key.split("/")
    assert run_case(name, keyroute, acd, variant) == DATA["cases"][key]


@pytest.mark.parametrize("key", [k for k in KEYS if _gap(k) is not None])
def test_case_known_gap_still_differs(key: str) -> None:
    assert not _case_matches(key), _gap(key)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n not in GAPS))
def test_program_matches_pytorch(name: str) -> None:
    got = run_program(name, keyroute)
    assert outcome_matches(DATA["programs"][name], got), (DATA["programs"][name], got)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n in GAPS))
def test_program_known_gap_still_differs(name: str) -> None:
    assert not outcome_matches(DATA["programs"][name], run_program(name, keyroute))


def test_autocast_off_leaves_add_alone() -> None:
    # The plain path: with autocast off, AutocastCPU is excluded, so add's kernel is the CPU
    # kernel itself, the same one it binds without any autocast registration.
    a = keyroute.ones(3)
    op = keyroute.ops.aten.add.Tensor
    assert not keyroute.is_autocast_enabled("cpu")
    with keyroute.autocast("cpu"):
        pass  # registers the AutocastCPU kernels
    ks = (
        a._key_set | keyroute.dispatcher.tls.state.thread_state.include
    ) & keyroute.dispatcher.tls.state.thread_state.mask
    assert op._resolve(ks, False) is op._resolve(ks & ~_autocast_bit(), False)


def _autocast_bit() -> int:
    from keyroute.dispatcher.keys import DispatchKey
    from keyroute.dispatcher.keyset import key_bits

    return key_bits(DispatchKey.AutocastCPU)


def test_cast_policy_op_on_autocast_dtype_makes_no_cast() -> None:
    """A cast-policy op whose inputs are already in the autocast dtype reaches its kernel with no
    _to_copy (the layer adds no work then; its cost is measured in bench/autocast.py, not here:
    no timed assertions in the suite)."""
    from keyroute.utils._python_dispatch import TorchDispatchMode

    seen: list[str] = []

    class Spy(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    x = keyroute.ones(8, 8, dtype=keyroute.bfloat16)
    with keyroute.autocast("cpu"), Spy():
        out = keyroute.mm(x, x)
    assert seen == ["aten.mm.default"]
    assert out.dtype == keyroute.bfloat16


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    for key in ("mm/bfloat16/fp32", "cat/float16/mixed", "add/bfloat16/low"):
        name, acd, variant = key.split("/")
        assert run_case(name, torch, acd, variant) == DATA["cases"][key]
