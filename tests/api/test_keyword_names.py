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


def test_function_forms_take_input_keyword() -> None:
    # torch.<fn>(input=...) on functions written once as Tensor methods (renamed copies)
    x = kr.arange(6.0).reshape(2, 3)
    assert kr.flip(input=x, dims=(1,)).tolist() == [[2, 1, 0], [5, 4, 3]]
    assert kr.transpose(input=x, dim0=0, dim1=1).shape == (3, 2)
    assert kr.matmul(input=x, other=x.t()).tolist() == [[5, 14], [14, 50]]
    assert kr.t(x).shape == (3, 2)  # positional use unchanged
    assert kr.exp_(input=kr.zeros(2)).tolist() == [1, 1]
    assert [t.tolist() for t in kr.split(tensor=kr.arange(4), split_size_or_sections=2)] == [
        [0, 1],
        [2, 3],
    ]
    # the Tensor method keeps `self` (x.flip(dims=...)) and is not the same object
    assert kr.flip is not kr.Tensor.flip
    assert "self" in inspect.signature(kr.Tensor.flip).parameters


def test_renamed_operands_and_overload_names() -> None:
    m, v = kr.ones(2, 3), kr.ones(3)
    assert kr.addmv(kr.zeros(2), mat=m, vec=v, beta=2).tolist() == [3, 3]
    assert kr.addmm(kr.zeros(2, 2), mat1=m, mat2=m.t()).tolist() == [[3, 3], [3, 3]]
    assert kr.baddbmm(kr.zeros(1, 2, 2), batch1=m[None], batch2=m.t()[None]).shape == (1, 2, 2)
    assert m.mv(vec=v).tolist() == [3, 3] and v.dot(tensor=v).item() == 3
    assert [t.tolist() for t in kr.tensor_split(kr.arange(5), sections=2)] == [[0, 1, 2], [3, 4]]
    assert [t.tolist() for t in kr.arange(4).hsplit(indices=[1])] == [[0], [1, 2, 3]]
    parts = kr.tensor_split(kr.arange(4), tensor_indices_or_sections=kr.tensor([1, 3]))
    assert [t.tolist() for t in parts] == [[0], [1, 2], [3]]
    with pytest.raises(TypeError, match="exactly one"):
        kr.tensor_split(kr.arange(4), 2, sections=2)
    assert v.clamp_max(max=0.5).tolist() == [0.5] * 3 and kr.clamp_min(v, min=2).tolist() == [2] * 3
    assert kr.Tensor.split(kr.arange(4), split_size=3)[0].tolist() == [0, 1, 2]
    assert kr.arange(3.0).where(kr.tensor([True, False, True]), other=-1.0).tolist() == [0, -1, 2]
    assert kr.zeros(2).copy_(other=kr.ones(2)).tolist() == [1, 1]
    assert kr.zeros(4).resize_(size=(2, 2)).shape == (2, 2)
    assert v.expand(2, 3, implicit=False).shape == (2, 3)
    assert kr.result_type(scalar1=1, scalar2=2.0) is kr.float32
    assert kr.result_type(scalar=2.0, tensor=kr.ones(2, dtype=kr.int64)) is kr.float32
    assert kr.promote_types(type1=kr.int32, type2=kr.float16) is kr.float16
    assert kr.concatenate([v, v], dim=0).shape == (6,)
    assert kr.concatenate([v, v], axis=0).shape == (6,)
    with pytest.raises(NotImplementedError, match=r"aten::mm\.dtype"):
        kr.mm(m, m.t(), out_dtype=kr.float32)
    assert kr.tril_indices(3, 3, pin_memory=False).tolist() == [
        [0, 1, 1, 2, 2, 2],
        [0, 0, 1, 0, 1, 2],
    ]
    with pytest.raises(RuntimeError, match="pin_memory=True requires"):
        kr.tril_indices(3, 3, pin_memory=True)


def test_out_keyword_on_composite_functions() -> None:
    out = kr.empty(0)
    r = kr.angle(kr.tensor([-1.0, 2.0]), out=out)
    assert r is out and out.tolist() == pytest.approx([3.141592653589793, 0.0])
    c = kr.empty(2, dtype=kr.complex64)
    kr.complex(kr.ones(2), kr.zeros(2), out=c)
    assert c.tolist() == [1 + 0j, 1 + 0j]
    with pytest.raises(RuntimeError, match="result type ComplexFloat can't be cast to the desired"):
        kr.complex(kr.ones(2), kr.zeros(2), out=kr.empty(2))
    idx = kr.empty(3, dtype=kr.int64)
    kr.argsort(kr.tensor([3.0, 1.0, 2.0]), stable=True, out=idx)
    assert idx.tolist() == [1, 2, 0]
    sign, logabs = kr.empty(()), kr.empty(())
    kr.slogdet(kr.eye(2) * 2, out=(sign, logabs))
    assert sign.item() == 1 and logabs.item() == pytest.approx(1.3862943611198906)
