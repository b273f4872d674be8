"""Every public torch.* function and Tensor method keyroute implements accepts PyTorch 2.13's
keyword names (recorded by tools/record_keyword_names.py in tests/data/keyword_names.json):
for each of PyTorch's overloads, keyroute's signature takes each of its parameter names as a
keyword. Callables that still refuse a name are listed in keyword_known_gaps.txt (each must
still refuse one). A few calls with keywords run for real at the end."""

from __future__ import annotations

import inspect
import json
import os
from typing import Any

import pytest

import keyroute as kr

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "..", "data", "keyword_names.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)
GAPS = dict(
    (line.split(" ", 1) + [""])[:2]
    for line in open(os.path.join(HERE, "keyword_known_gaps.txt"), encoding="utf-8")
    .read()
    .splitlines()
    if line.strip() and not line.startswith("#")
)


def _target(space: str, name: str) -> Any:
    owner = kr if space == "torch" else kr.Tensor
    try:
        return getattr(owner, name)
    except AttributeError:  # MissingFromKeyroute: not implemented, not audited
        return None


def refused(space: str, name: str) -> list[str]:
    """PyTorch's keyword names keyroute's callable does not take (sorted)."""
    fn = _target(space, name)
    if fn is None or not callable(fn):
        return []
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    params = sig.parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return []
    takes = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return sorted({n for ov in RECORDED[space][name] for n in ov} - takes)


AUDITED = [
    f"{space}.{name}"
    for space in ("torch", "Tensor")
    for name in sorted(RECORDED[space])
    if _target(space, name) is not None
]


@pytest.mark.parametrize("qualname", AUDITED)
def test_takes_pytorchs_keyword_names(qualname: str) -> None:
    space, name = qualname.split(".", 1)
    missing = refused(space, name)
    if qualname in GAPS:
        assert missing, f"{qualname} now takes every name: remove it from keyword_known_gaps.txt"
        pytest.xfail(GAPS[qualname])
    assert not missing, f"{qualname} refuses PyTorch's keyword(s) {missing}"


def test_known_gaps_are_audited() -> None:
    assert not set(GAPS) - set(AUDITED), "keyword_known_gaps.txt names unaudited callables"


def test_calls_with_keywords() -> None:
    # (calls the known gaps refuse, as x.split(split_size=) and torch.matmul(input=), are
    # covered by the listed gaps above)
    x = kr.arange(6.0).reshape(2, 3)
    assert [t.shape for t in kr.split(x, split_size_or_sections=1)] == [(1, 3), (1, 3)]
    assert x.matmul(other=x.t()).shape == (2, 2)
    assert x.flip(dims=(0,)).tolist() == [[3, 4, 5], [0, 1, 2]]
    assert kr.sum(input=x, dim=1, keepdim=True).shape == (2, 1)
    assert kr.add(input=x, other=x, alpha=2).tolist() == [[0, 3, 6], [9, 12, 15]]
