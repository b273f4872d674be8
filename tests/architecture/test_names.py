"""Renamed internals stay renamed (issue 11): the tensor slots are `_key_set`,
`_autograd_meta` and `_version_counter` (PyTorch's TensorImpl key_set_, autograd_meta_,
version_counter_), the thread state is `tls.state.thread_state` and its (include, mask) pair
`include_and_mask`. The old names (`_ks`, `_ag`, `_vc`, `state.s`, `im`) are gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OLD = re.compile(r"\._ks\b|\._ag\b|\._vc\b|\b(?:_tls|state|tls)\.s\b(?!\()|\.im\b")


def test_keyroute_uses_the_new_names() -> None:
    found = []
    for path in sorted((ROOT / "keyroute").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        hits = [
            f"{rel}:{i}: {line.strip()}"
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if OLD.search(line)
        ]
        found.extend(hits)
    assert not found, (
        "old internal names (rename: _ks -> _key_set, _ag -> _autograd_meta, "
        "_vc -> _version_counter, state.s -> state.thread_state, im -> include_and_mask):\n"
        + "\n".join(found)
    )


def test_the_old_names_are_gone() -> None:
    import keyroute
    from keyroute.dispatcher import tls

    t = keyroute.ones(2)
    for old in ("_ks", "_ag", "_vc"):
        assert not hasattr(t, old), old
    assert not hasattr(tls.state, "s")
    assert not hasattr(tls.state.thread_state, "im")
