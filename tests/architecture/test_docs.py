"""docs/architecture.md stays true: every path it names in backticks exists, and the code of
its "Adding an operator" walk-through is the real code of the files it names."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"


def _paths() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    out = []
    for token in re.findall(r"`([^`\s]+)`", text):
        token = token.split(":", 1)[0]
        if "/" in token or re.search(r"\.(py|txt|json|md)$", token):
            if (
                not token.startswith(("http", "torch.", "keyroute."))
                and "." in token.split("/")[-1]
                or token.endswith("/")
            ):
                out.append(token)
    return out


def _exists(path: str) -> bool:
    pattern = re.sub(r"<[^>]+>", "*", path)
    for base in (ROOT, ROOT / "keyroute"):
        if any(base.glob(pattern)) if "*" in pattern else (base / pattern).exists():
            return True
    return False


def test_the_doc_names_paths():
    assert len(_paths()) > 20


def test_every_backticked_path_exists():
    missing = [p for p in _paths() if not _exists(p)]
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def _squash(text: str) -> str:
    return " ".join(text.split())


def test_the_operator_walkthrough_is_real_code():
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Adding an operator", 1)[1].split("\n## ", 1)[0]
    steps = re.findall(r"in `(keyroute/[^`]+\.py)`.*?```python\n(.*?)```", section, re.S)
    assert len(steps) == 4
    for path, code in steps:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert _squash(code) in _squash(source), f"the example from {path} is not its code"
