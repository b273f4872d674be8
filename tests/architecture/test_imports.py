"""No new import circle: every circle in keyroute's import graph (lazy imports included) must
be one of known_cycles.txt, which may only shrink: a circle that is cut must leave the list."""

from __future__ import annotations

from pathlib import Path

from .imports import cycles, graph

KNOWN = Path(__file__).with_name("known_cycles.txt")


def _known() -> list[list[str]]:
    out = []
    for line in KNOWN.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(sorted(line.split()))
    return sorted(out)


def test_no_new_import_circle():
    found = cycles(graph())
    new = [c for c in found if c not in _known()]
    assert not new, "new import circle(s), cut them (or import lazily from below):\n" + "\n".join(
        " <-> ".join(c) for c in new
    )


def test_known_circles_still_exist():
    """A circle that was cut must leave known_cycles.txt (the list only shrinks)."""
    found = cycles(graph())
    gone = [c for c in _known() if c not in found]
    assert not gone, "cut circles to remove from known_cycles.txt:\n" + "\n".join(
        " ".join(c) for c in gone
    )


def test_the_walker_finds_a_circle():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(g) == [["a", "b", "c"]]
