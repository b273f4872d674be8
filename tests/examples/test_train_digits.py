"""examples/train_digits.py: a short run must learn (loss falls, test accuracy above 90%)."""

from __future__ import annotations

import importlib.util
import os

import pytest

pytest.importorskip("sklearn", reason="the digits data ships with scikit-learn (models extra)")

PATH = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "train_digits.py")


def _load_example():
    spec = importlib.util.spec_from_file_location("train_digits", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_short_training_run_learns_the_digits() -> None:
    example = _load_example()
    result = example.train(epochs=6, seed=1, show_progress=False)
    losses = result["losses"]
    assert len(losses) == 6
    assert losses[-1] < 0.5 * losses[0], losses
    assert result["test_acc"] >= 0.90, result


def test_progress_bar_reports_steps(capsys: pytest.CaptureFixture[str]) -> None:
    example = _load_example()
    example.train(epochs=1, seed=0, show_progress=True)
    err = capsys.readouterr().err
    assert "22/22 steps" in err and "epoch 1/1" in err
