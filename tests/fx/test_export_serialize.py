"""keyroute.export.save / load: a program round-trips through one file (graph, signature,
state, constants) and the loaded program computes what the original does."""

from __future__ import annotations

import io

import pytest

import keyroute as torch


class _M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.register_buffer("n", torch.zeros(2))

    def forward(self, x):
        self.n.add_(1)
        return torch.relu(self.lin(x)) + self.n + torch.tensor([0.5, 1.0])


def test_round_trip(tmp_path) -> None:
    torch.manual_seed(0)
    ep = torch.export.export(_M(), (torch.randn(4, 3),))
    path = tmp_path / "m.pt2"
    torch.export.save(ep, str(path), extra_files={"note": "hi"})
    extra = {"note": ""}
    ep2 = torch.export.load(str(path), extra_files=extra)
    assert extra["note"] == "hi"
    assert str(ep2.graph_signature) == str(ep.graph_signature)
    assert ep2.graph_module.code == ep.graph_module.code
    x = torch.randn(4, 3)
    m1, m2 = ep.module(), ep2.module()
    for _ in range(2):
        assert torch.allclose(m1(x), m2(x))
    assert torch.equal(ep2.state_dict["n"], ep.state_dict["n"])


def test_decomposed_program_round_trips() -> None:
    ep = torch.export.export(_M(), (torch.randn(2, 3),)).run_decompositions()
    buf = io.BytesIO()
    torch.export.save(ep, buf)
    buf.seek(0)
    ep2 = torch.export.load(buf)
    assert ep2.graph_module.code == ep.graph_module.code


def test_not_an_exported_program() -> None:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("format", "other")
    buf.seek(0)
    with pytest.raises(RuntimeError, match="not a keyroute exported program"):
        torch.export.load(buf)
