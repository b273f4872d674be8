"""examples/train_digits_autocast.py: bfloat16 autocast training reaches float32's accuracy
(the loss runs in float32, weights and their gradients stay float32)."""

from __future__ import annotations

import importlib.util
import os

import pytest

pytest.importorskip("sklearn", reason="the digits data ships with scikit-learn (models extra)")

PATH = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "train_digits_autocast.py")


def test_autocast_training_matches_float32_accuracy() -> None:
    spec = importlib.util.spec_from_file_location("train_digits_autocast", PATH)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    full = example.train(epochs=6, seed=1, autocast=False)
    mixed = example.train(epochs=6, seed=1, autocast=True)
    assert str(mixed["logits_dtype"]).endswith("bfloat16")
    assert str(mixed["grad_dtype"]).endswith("float32")
    assert mixed["losses"][-1] < 0.5 * mixed["losses"][0], mixed["losses"]
    assert mixed["test_acc"] >= 0.90, mixed
    assert abs(mixed["test_acc"] - full["test_acc"]) <= 0.02, (mixed, full)
