"""The seed documents' programs (examples/, import lines changed) print what the seeds show.

Expected outputs are copied from the seed document (shared/seeds/000_9080a632894d3f14.txt).
Lines a known gap prevents are listed in tests/examples/known_gaps.txt, by program and line.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EXAMPLES = os.path.join(ROOT, "examples")

EXPECTED = {
    "dispatch_keys.py": ["DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)"],
    "log_aten_ops.py": [
        "aten.pow.Tensor_Scalar",
        "aten.mean.dim",
        "aten.add.Tensor",
        "aten.rsqrt.default",
        "aten.mul.Tensor",
        "aten.mul.Tensor",
        "aten.t.default",
        "aten.mm.default",
        "aten.silu.default",
    ],
    "custom_ops.py": [
        "demo::rms_norm(Tensor x, Tensor w, float eps) -> Tensor",
        "demo::store_kv(Tensor(a0!) cache, Tensor slots, Tensor value) -> ()",
        "CPU 上计算： (2, 16)",
        "meta 设备上只推导形状： (4096, 8192) meta",
        "写入的槽位： [1, 5]",
        "torch.compile 能完整捕获： True",
    ],
    "meta_model.py": [
        "参数量 469762048，bf16 下 0.88 GiB，权重在 meta 上",
        "FakeTensor (4, 128, 28672) 这个中间激活在 bf16 下需要 28 MiB",
    ],
    "sdpa_ops.py": ["aten._scaled_dot_product_flash_attention_for_cpu.default 1"],
}


def _known_gaps() -> dict[tuple[str, int], str]:
    gaps = {}
    path = os.path.join(os.path.dirname(__file__), "known_gaps.txt")
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            where, _, reason = line.partition(" ")
            program, _, index = where.partition(":")
            gaps[(program, int(index))] = reason.strip()
    return gaps


GAPS = _known_gaps()


def _run(program: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(ROOT), PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, program)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=EXAMPLES,
    )


@pytest.mark.parametrize("program", sorted(EXPECTED))
def test_seed_program_prints_the_seed_output(program: str) -> None:
    result = _run(program)
    lines = result.stdout.splitlines()
    expected = EXPECTED[program]
    gap_lines = {i for (p, i) in GAPS if p == program}
    for i, want in enumerate(expected):
        if i in gap_lines:
            continue
        assert i < len(lines), (
            f"{program}: output stops before line {i} ({want!r}):\n{result.stderr[-2000:]}"
        )
        assert lines[i] == want, f"{program} line {i}: {lines[i]!r} != {want!r}"
    if gap_lines:
        # A known gap must still fail, so that fixing it removes it from the list.
        first_gap = min(gap_lines)
        assert len(lines) <= first_gap or lines[first_gap] != expected[first_gap], (
            f"{program} line {first_gap} now prints the seed's output: remove its known gap"
        )
    else:
        assert result.returncode == 0, result.stderr[-2000:]
        assert len(lines) == len(expected), f"{program}: extra output {lines[len(expected) :]}"
