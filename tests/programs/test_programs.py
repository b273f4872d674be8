"""Real public PyTorch programs (tutorials, pytorch/examples, small GPT trainers, dispatch-mode
demos; sources in each file's header) run unchanged under `keyroute run`: stdout must equal
PyTorch's, recorded by tools/record_programs.py into tests/data/programs/.

Programs that do not match yet are listed in known_gaps.txt with what they lack; their tests
assert that they still differ (xfail strict), so a fixed gap shows up as a failure to remove it
from the list.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parents[1]
DATA = ROOT / "tests/data/programs"
INDEX = json.loads((DATA / "programs.json").read_text())
PROGRAMS = sorted(k for k in INDEX if not k.startswith("_"))


def _known_gaps() -> dict[str, str]:
    gaps = {}
    for line in (HERE / "known_gaps.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(":")
            gaps[name.strip()] = reason.strip()
    return gaps


GAPS = _known_gaps()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """Every program's stdout/stderr/exit status under keyroute run (one process importing
    keyroute, one fork per program: _runner.py)."""
    out = tmp_path_factory.mktemp("programs")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run(
        [sys.executable, str(HERE / "_runner.py"), str(out), *PROGRAMS],
        env=env,
        timeout=3600,
        check=True,
    )
    return out


def test_gap_list_names_recorded_programs() -> None:
    assert set(GAPS) <= set(PROGRAMS)
    assert len(PROGRAMS) >= 30


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=GAPS[n], strict=True)) if n in GAPS else n
        for n in PROGRAMS
    ],
)
def test_program_output_matches_pytorch(name: str, outputs: pathlib.Path) -> None:
    expected = (DATA / f"{name}.out").read_text()
    stderr = (outputs / f"{name}.err").read_text()
    assert int((outputs / f"{name}.rc").read_text()) == INDEX[name]["returncode"], stderr[-3000:]
    assert (outputs / f"{name}.out").read_text() == expected


def test_keyroute_run_command_runs_a_program() -> None:
    """The runner forks; this checks the real command line on one program."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    name = "micrograd_sanity"
    proc = subprocess.run(
        [sys.executable, "-m", "keyroute", "run", f"{name}.py"],
        capture_output=True,
        text=True,
        cwd=HERE,
        env=env,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == (DATA / f"{name}.out").read_text()
