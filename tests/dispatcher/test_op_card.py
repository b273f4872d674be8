"""`keyroute op <name>`: every line of an operator's card points at real source, and the card
names each layer the operator has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import keyroute  # noqa: F401  (registers every operator)
from keyroute.cli import main
from keyroute.dispatcher.op_card import op_card

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"(keyroute/[\w/.]+\.py):(\d+)(?:  (\S+))?")


def _points(card: str) -> list[tuple[str, int, str | None]]:
    return [(p, int(n), name) for p, n, name in LINE.findall(card)]


@pytest.mark.parametrize("name", ["add.Tensor", "sum.dim_IntList", "exp", "conv2d", "relu"])
def test_every_line_points_at_the_named_definition(name: str) -> None:
    card = op_card(name)
    points = _points(card)
    assert points
    for path, line, qualname in points:
        if "_generated" in path:  # the generated call code lives in linecache only
            continue
        text = (ROOT / path).read_text().splitlines()
        assert 1 <= line <= len(text), (path, line)
        if qualname and "<" not in qualname:
            # a def (or its decorator) of that name starts at that line
            block = "\n".join(text[line - 1 : line + 8])
            assert re.search(rf"def {re.escape(qualname.split('.')[-1])}\b", block), (
                path,
                line,
                qualname,
            )


def test_the_card_names_each_layer() -> None:
    card = op_card("aten::mul.Tensor")
    assert card.splitlines()[0] == "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor"
    for role in ("schema", "meta function", "kernel CPU", "kernel Autograd", "derivative Mul"):
        assert role in card
    assert "keyroute/kernels/cpu/elementwise.py" in card and "mul_Tensor" in card
    assert "keyroute/autograd/derivatives/elementwise.py" in card
    assert "binding keyroute.mul" in card and "binding Tensor.mul" in card


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["op", "add.Tensor"]) == 0
    assert "kernel CPU" in capsys.readouterr().out
    assert main(["op", "no_such_op"]) == 1
    assert "no operator named aten::no_such_op" in capsys.readouterr().err
