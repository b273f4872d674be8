"""Llama shapes and `keyroute plan`: parameter counts of known configurations, exactly.

The expected counts are the published sizes (Llama-2-7B 6,738,415,616; Llama-3-8B
8,030,261,248; Llama-3-70B 70,553,706,496), re-derived here by a formula written weight by
weight, independently of `LlamaConfig.param_count`, and (when PyTorch is installed) by a
PyTorch model of the same architecture built on PyTorch's meta device.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from typing import Any

import pytest

import keyroute
from keyroute.cli import main
from keyroute.models.llama import LLAMA_CONFIGS, Llama, LlamaConfig

# name -> (layers, hidden, ffn, heads, kv_heads, vocab, published parameter count)
KNOWN = {
    "llama2-7b": (32, 4096, 11008, 32, 32, 32000, 6_738_415_616),
    "llama3-8b": (32, 4096, 14336, 32, 8, 128256, 8_030_261_248),
    "llama3-70b": (80, 8192, 28672, 64, 8, 128256, 70_553_706_496),
}


def _by_weights(layers: int, hidden: int, ffn: int, heads: int, kv_heads: int, vocab: int) -> int:
    """Sum of every weight's size: embedding, per layer q/k/v/o, gate/up/down, two norms;
    final norm; untied LM head."""
    head_dim = hidden // heads
    shapes = [(vocab, hidden)]
    for _ in range(layers):
        shapes += [
            (heads * head_dim, hidden),
            (kv_heads * head_dim, hidden),
            (kv_heads * head_dim, hidden),
            (hidden, heads * head_dim),
            (ffn, hidden),
            (ffn, hidden),
            (hidden, ffn),
            (hidden,),
            (hidden,),
        ]
    shapes += [(hidden,), (vocab, hidden)]
    total = 0
    for s in shapes:
        n = 1
        for d in s:
            n *= d
        total += n
    return total


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_parameter_counts(name: str) -> None:
    *sizes, published = KNOWN[name]
    assert _by_weights(*sizes) == published
    cfg = LLAMA_CONFIGS[name]
    assert (cfg.layers, cfg.hidden, cfg.ffn, cfg.heads, cfg.kv_heads, cfg.vocab) == tuple(sizes)
    assert cfg.param_count() == published
    with keyroute.device("meta"):
        model = Llama(cfg, dtype=keyroute.bfloat16)
    assert sum(p.numel() for p in model.parameters()) == published


def _torch_llama(
    torch: Any, layers: int, hidden: int, ffn: int, heads: int, kv_heads: int, vocab: int
) -> Any:
    """The same architecture in torch.nn (names as Hugging Face's LlamaForCausalLM)."""
    nn = torch.nn
    head_dim = hidden // heads

    def layer() -> Any:
        attn = nn.ModuleDict(
            {
                "q_proj": nn.Linear(hidden, heads * head_dim, bias=False),
                "k_proj": nn.Linear(hidden, kv_heads * head_dim, bias=False),
                "v_proj": nn.Linear(hidden, kv_heads * head_dim, bias=False),
                "o_proj": nn.Linear(heads * head_dim, hidden, bias=False),
            }
        )
        mlp = nn.ModuleDict(
            {
                "gate_proj": nn.Linear(hidden, ffn, bias=False),
                "up_proj": nn.Linear(hidden, ffn, bias=False),
                "down_proj": nn.Linear(ffn, hidden, bias=False),
            }
        )
        return nn.ModuleDict(
            {
                "input_layernorm": nn.RMSNorm(hidden),
                "self_attn": attn,
                "post_attention_layernorm": nn.RMSNorm(hidden),
                "mlp": mlp,
            }
        )

    with torch.device("meta"):
        return nn.ModuleDict(
            {
                "embed_tokens": nn.Embedding(vocab, hidden),
                "layers": nn.ModuleList([layer() for _ in range(layers)]),
                "norm": nn.RMSNorm(hidden),
                "lm_head": nn.Linear(hidden, vocab, bias=False),
            }
        )


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_parameter_shapes_match_a_torch_meta_build(name: str) -> None:
    torch = pytest.importorskip("torch")
    *sizes, published = KNOWN[name]
    reference = _torch_llama(torch, *sizes)
    want = {n: tuple(p.shape) for n, p in reference.named_parameters()}
    assert sum(p.numel() for p in reference.parameters()) == published
    with keyroute.device("meta"):
        model = Llama(LLAMA_CONFIGS[name])
    got = {n: tuple(p.shape) for n, p in model.named_parameters()}
    assert got == want


def test_tied_embeddings_drop_the_head() -> None:
    cfg = LlamaConfig(
        layers=2, hidden=64, ffn=128, heads=4, kv_heads=2, vocab=100, tie_embeddings=True
    )
    assert cfg.param_count() == _by_weights(2, 64, 128, 4, 2, 100) - 100 * 64
    with keyroute.device("meta"):
        model = Llama(cfg)
    assert sum(p.numel() for p in model.parameters()) == cfg.param_count()


# -- the CLI ------------------------------------------------------------------------------------
PLAN_70B = [
    "plan",
    "--layers",
    "80",
    "--hidden",
    "8192",
    "--ffn",
    "28672",
    "--heads",
    "64",
    "--kv-heads",
    "8",
    "--vocab",
    "128256",
    "--dtype",
    "bfloat16",
    "--batch",
    "1",
    "--seq",
    "4096",
]


def test_plan_70b_output(capsys: pytest.CaptureFixture[str]) -> None:
    tracemalloc.start()
    try:
        assert main(PLAN_70B) == 0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    lines = capsys.readouterr().out.splitlines()
    params = 70_553_706_496
    # Activation peak, reasoned: at the LM head the live activations are the logits
    # (1 x 4096 x 128256 bf16), the final norm's output (1 x 4096 x 8192 bf16) and the rotary
    # cos and sin tables (1 x 1 x 4096 x 128 bf16 each); every block's temporaries are gone.
    act = 4096 * 128256 * 2 + 4096 * 8192 * 2 + 2 * 4096 * 128 * 2
    assert act == 1_119_879_168
    assert lines == [
        "Llama-shaped model: 80 layers, hidden 8192, ffn 28672, 64 heads (8 KV), vocab 128256, "
        "bfloat16",
        f"parameters          {params:,} (70.55 B)",
        f"parameter memory    {params * 2 / 2**30:.2f} GiB",
        f"activation peak     {act / 2**30:.2f} GiB  (forward (inference), batch 1, sequence 4096)",
        f"peak memory         {(params * 2 + 4096 * 8 + act) / 2**30:.2f} GiB",
    ]
    assert peak < 64 << 20, f"planning allocated {peak} bytes"


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_plan_config_names(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--config", name, "--seq", "16"]) == 0
    out = capsys.readouterr().out
    assert f"parameters          {KNOWN[name][-1]:,} (" in out


def test_plan_default_is_llama2_7b_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--seq", "8"]) == 0
    assert "parameters          6,738,415,616 (6.74 B)" in capsys.readouterr().out


def test_plan_by_module_and_backward(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "plan",
        "--layers",
        "2",
        "--hidden",
        "64",
        "--ffn",
        "128",
        "--heads",
        "4",
        "--kv-heads",
        "2",
        "--vocab",
        "100",
        "--dtype",
        "float32",
        "--seq",
        "8",
    ]
    assert main(args + ["--by-module"]) == 0
    fwd = capsys.readouterr().out
    assert "allocated per module (the 20 largest)" in fwd and "lm_head" in fwd
    assert main(args + ["--backward"]) == 0
    bwd = capsys.readouterr().out
    assert "(forward + backward, batch 1, sequence 8)" in bwd

    def act(text: str) -> str:
        return next(line for line in text.splitlines() if line.startswith("activation peak"))

    assert act(fwd) != act(bwd)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--hidden", "100", "--heads", "3"], "must split into --heads"),
        (["--heads", "32", "--kv-heads", "5"], "must split into --heads"),
        (["--dtype", "float99"], "unknown --dtype 'float99'"),
        (["--config", "llama9"], "unknown --config 'llama9'"),
    ],
)
def test_plan_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plan", "--seq", "4", *args]) == 2
    assert message in capsys.readouterr().err


def test_plan_rejects_non_positive_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["plan", "--layers", "0"])
    assert "must be a positive integer" in capsys.readouterr().err


def test_plan_command_line_entry() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "keyroute.cli", *PLAN_70B],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "parameters          70,553,706,496 (70.55 B)" in done.stdout
