"""nn.utils.prune (first part) as PyTorch 2.13: name_orig + name_mask + a forward pre-hook."""

from __future__ import annotations

import pytest

import keyroute as torch
from keyroute.nn.utils import prune


def _lin() -> torch.nn.Linear:
    m = torch.nn.Linear(3, 2, bias=False)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.1, -2.0, 0.3], [4.0, -0.05, 1.0]]))
    return m


def test_l1_unstructured_mask_and_hook() -> None:
    m = prune.l1_unstructured(_lin(), "weight", amount=2)
    assert m.weight_mask.tolist() == [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]]
    assert "weight_orig" in dict(m.named_parameters()) and "weight" not in m._parameters
    assert prune.is_pruned(m)
    with torch.no_grad():
        m.weight_orig.fill_(1.0)
    m(torch.ones(1, 3))  # the pre-hook recomputes weight = orig * mask
    assert m.weight.tolist() == [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]]
    prune.remove(m, "weight")
    assert not prune.is_pruned(m) and isinstance(m.weight, torch.nn.Parameter)
    assert m.weight.tolist() == [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]]


def test_iterative_and_custom_mask() -> None:
    m = prune.custom_from_mask(_lin(), "weight", torch.tensor([[1, 0, 1], [1, 1, 1]]))
    prune.l1_unstructured(m, "weight", amount=0.5)  # 3 of 6 of the remaining weights' scores
    assert m.weight_mask.sum().item() <= 3
    assert len(m._forward_pre_hooks) == 1
    r = prune.random_unstructured(_lin(), "weight", amount=0.5)
    assert r.weight_mask.sum().item() == 3


def test_errors() -> None:
    with pytest.raises(ValueError, match="should either be a float in the range"):
        prune.l1_unstructured(_lin(), "weight", amount=1.5)
    with pytest.raises(ValueError, match="has to be pruned before pruning can be removed"):
        prune.remove(_lin(), "weight")


def test_live_l1_against_torch() -> None:
    real = pytest.importorskip("torch")
    import torch.nn.utils.prune  # noqa: F401  (PyTorch does not import it with nn.utils)

    m = real.nn.Linear(3, 2, bias=False)
    with real.no_grad():
        m.weight.copy_(real.tensor([[0.1, -2.0, 0.3], [4.0, -0.05, 1.0]]))
    real.nn.utils.prune.l1_unstructured(m, "weight", amount=2)
    assert m.weight_mask.tolist() == prune.l1_unstructured(_lin(), "weight", 2).weight_mask.tolist()


# -- recorded programs (tools/record_prune.py, tests/nn/prune_cases.py) -----------------------

_PRUNE_DATA = __import__("json").loads(
    (__import__("pathlib").Path(__file__).resolve().parents[1] / "data" / "prune.json").read_text()
)["programs"]


def _normalized(r: dict) -> dict:
    import re

    if "error" in r:  # module names and object addresses differ
        text = r["error"].replace("keyroute.", "torch.")
        r = {"error": re.sub(r" object at 0x[0-9a-f]+", " object", text)}
    return r


def test_prune_recording_covers_programs() -> None:
    from tests.nn.prune_cases import PROGRAMS

    assert sorted(_PRUNE_DATA) == sorted(PROGRAMS), "run tools/record_prune.py"


@pytest.mark.parametrize("name", sorted(_PRUNE_DATA))
def test_prune_program_matches_pytorch(name: str) -> None:
    import keyroute
    import keyroute.nn.utils.prune  # noqa: F401
    from tests.nn.prune_cases import run

    assert _normalized(run(name, keyroute)) == _normalized(_PRUNE_DATA[name])
