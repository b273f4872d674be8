"""The command line answers bad input with a one-line error and an exit status, never a
traceback (issue 12)."""

from __future__ import annotations

import pytest

from keyroute.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    rc = main(argv)
    err = capsys.readouterr().err
    return rc, err


def test_plan_with_an_integer_dtype(capsys: pytest.CaptureFixture[str]) -> None:
    rc, err = _run(["plan", "--dtype", "int64"], capsys)
    assert rc == 2 and err.strip() == (
        "keyroute plan: --dtype must be a floating-point dtype, got 'int64'"
    )


def test_embed_with_a_binary_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    path = tmp_path / "bin.dat"
    path.write_bytes(bytes(range(128, 256)))
    rc, err = _run(["embed", "--file", str(path)], capsys)
    assert rc == 1 and err.strip() == f"keyroute embed: {path} is not UTF-8 text"


def test_embed_output_into_a_missing_folder_fails_before_computing(
    tmp_path,  # noqa: ANN001
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from keyroute.models import minilm

    def refuse(*a, **k):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the model must not run")

    monkeypatch.setattr(minilm, "encode", refuse)
    target = tmp_path / "missing" / "out.npy"
    rc, err = _run(["embed", "hello", "--output", str(target)], capsys)
    assert rc == 1 and "does not exist" in err and str(tmp_path / "missing") in err


def test_non_utf8_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    rc, err = _run(["embed", "\udcff\udcfe"], capsys)
    assert rc == 2 and err.strip() == "keyroute: argument 2 is not valid UTF-8"
