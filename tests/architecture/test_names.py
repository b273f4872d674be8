"""Renamed internals stay renamed (issue 11): the tensor slots are `_key_set`,
`_autograd_meta` and `_version_counter` (PyTorch's TensorImpl key_set_, autograd_meta_,
version_counter_), the thread state is `tls.state.thread_state` and its (include, mask) pair
`include_and_mask`. The old names (`_ks`, `_ag`, `_vc`, `state.s`, `im`) remain only as
aliases for code outside keyroute, defined once each."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OLD = re.compile(r"\._ks\b|\._ag\b|\._vc\b|\b(?:_tls|state|tls)\.s\b(?!\()|\.im\b")
ALIASES = {
    "keyroute/tensor/_tensor.py": 3,  # Tensor._ks/_ag/_vc = the renamed member descriptors
    "keyroute/dispatcher/tls.py": 1,  # ThreadState.im (state.s is a property, not matched)
}


def test_keyroute_uses_the_new_names() -> None:
    found = []
    for path in sorted((ROOT / "keyroute").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        hits = [
            f"{rel}:{i}: {line.strip()}"
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if OLD.search(line)
        ]
        if len(hits) != ALIASES.get(rel, 0):
            found.extend(hits)
    assert not found, (
        "old internal names (rename: _ks -> _key_set, _ag -> _autograd_meta, "
        "_vc -> _version_counter, state.s -> state.thread_state, im -> include_and_mask):\n"
        + "\n".join(found)
    )


def test_the_old_names_are_aliases() -> None:
    import keyroute
    from keyroute.dispatcher import tls

    t = keyroute.ones(2)
    assert t._ks == t._key_set and t._ag is t._autograd_meta and t._vc is t._version_counter
    assert tls.state.s is tls.state.thread_state
    assert tls.state.thread_state.im is tls.state.thread_state.include_and_mask
