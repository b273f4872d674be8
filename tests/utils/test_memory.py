"""keyroute.utils.memory: the planner's numbers against hand-computed ones.

Parameter bytes are exact arithmetic; activation peaks are reasoned step by step in comments
(which tensors are alive when); the meta run is also checked against the same model run for
real on the CPU, whose NumPy storages the tracker counts the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

import keyroute
from keyroute.models.llama import Llama, LlamaConfig
from keyroute.subclasses import FakeTensorMode
from keyroute.utils.memory import MemoryTracker, estimate_memory, format_bytes

F32 = 4


def _mlp(device: str | None = None) -> Any:
    keyroute.manual_seed(0)
    with keyroute.device(device or "cpu"):
        return keyroute.nn.Sequential(
            keyroute.nn.Linear(8, 16, bias=False),
            keyroute.nn.ReLU(),
            keyroute.nn.Linear(16, 4, bias=False),
        )


def _module(report: Any, suffix: str, table: str = "by_module") -> int:
    """The entry of the module whose tracker name ends with `suffix` (names carry the root's
    class name or not, as the ModuleTracker spells them)."""
    d = getattr(report, table)
    hits = [v for k, v in d.items() if k == suffix or k.endswith("." + suffix)]
    assert len(hits) == 1, (suffix, d)
    return hits[0]


def test_small_mlp_forward_by_hand() -> None:
    report = estimate_memory(_mlp("meta"), keyroute.empty(2, 8, device="meta"))
    assert report.param_count == 8 * 16 + 16 * 4 == 192
    assert report.param_bytes == 192 * F32 == 768
    assert (report.buffer_bytes, report.input_bytes) == (0, 2 * 8 * F32)
    # Linear(8, 16): weight.t() is a view of the weight (free), mm makes h1 (2x16: 128 B).
    # ReLU makes h2 (128 B) while h1 is still referenced: 256 B live, the peak; then h1 dies.
    # Linear(16, 4) makes the output (2x4: 32 B): 160 B live.
    assert report.activation_peak_bytes == 256
    assert report.by_op == {"aten.mm.default": 128 + 32, "aten.relu.default": 128}
    assert _module(report, "0") == 128 and _module(report, "1") == 128
    assert _module(report, "2") == 32 and report.by_module["Sequential"] == 288
    assert _module(report, "1", "module_peak") == 256
    assert report.peak_bytes == 768 + 64 + 256


def test_meta_and_real_cpu_runs_count_the_same() -> None:
    x = keyroute.randn(2, 8)
    for backward in (False, True):
        meta = estimate_memory(_mlp("meta"), keyroute.empty(2, 8, device="meta"), backward=backward)
        real = estimate_memory(_mlp(), x, backward=backward)
        assert (meta.activation_peak_bytes, meta.by_op) == (real.activation_peak_bytes, real.by_op)


def test_small_mlp_backward_bounds() -> None:
    model = _mlp("meta")
    fwd = estimate_memory(model, keyroute.empty(2, 8, device="meta"))
    report = estimate_memory(model, keyroute.empty(2, 8, device="meta"), backward=True)
    grads = [p.grad for p in model.parameters()]
    assert [tuple(g.shape) for g in grads] == [(16, 8), (4, 16)] and grads[0].is_meta
    # At the last gradient: both weights' .grad (768 B), the ReLU output saved for backward
    # (128 B) and the loss (4 B) are alive; nothing can be above everything allocated.
    assert 768 + 128 + 4 <= report.activation_peak_bytes <= sum(report.by_op.values())
    assert report.activation_peak_bytes > fwd.activation_peak_bytes


def test_fake_inputs_through_a_parameterless_model() -> None:
    with FakeTensorMode():
        x = keyroute.empty(4, 128, 8192, device="cuda:0")
        report = estimate_memory(keyroute.nn.SiLU(), x)
    assert report.input_bytes == 4 * 128 * 8192 * F32
    assert report.activation_peak_bytes == 4 * 128 * 8192 * F32  # one output, 16 MiB
    assert format_bytes(report.activation_peak_bytes) == "16.00 MiB"


class _Aliasing(keyroute.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.w = keyroute.nn.Parameter(keyroute.empty(64, 32, device="meta"))  # 64 -> 32

    def forward(self, x: Any) -> Any:
        x.mul_(2)  # in place on the input: no new storage
        wt = self.w.t()  # a view of a parameter: no new storage
        return x.view(-1, 64) @ wt.contiguous().t()  # one copy (contiguous) + the output


def test_views_and_in_place_writes_of_existing_tensors_are_free() -> None:
    report = estimate_memory(_Aliasing(), keyroute.empty(4, 64, device="meta"))
    # contiguous() of the transposed weight copies it (32x64 floats), mm makes 4x32
    assert report.by_op == {"aten.clone.default": 32 * 64 * F32, "aten.mm.default": 4 * 32 * F32}
    assert report.activation_peak_bytes == (32 * 64 + 4 * 32) * F32


def test_tiny_llama_forward_peak_by_hand() -> None:
    cfg = LlamaConfig(layers=2, hidden=64, ffn=4096, heads=4, kv_heads=2, vocab=50000)
    with keyroute.device("meta"):
        model = Llama(cfg, dtype=keyroute.bfloat16)
    report = estimate_memory(model, keyroute.empty(1, 32, dtype=keyroute.int64, device="meta"))
    assert report.param_count == cfg.param_count() and report.param_bytes == 2 * cfg.param_count()
    # With a vocabulary this large the peak is at the LM head: logits (1x32x50000), the final
    # norm's output (1x32x64) and the rotary cos/sin tables (1x1x32x16 each), all bf16.
    logits, normed, rotary = 32 * 50000 * 2, 32 * 64 * 2, 2 * 32 * 16 * 2
    assert report.activation_peak_bytes == logits + normed + rotary
    assert _module(report, "lm_head", "module_peak") == logits + normed + rotary
    # reshaping the mm output (matmul's _unsafe_view) aliases it, as in PyTorch: no bytes
    assert report.by_op.get("aten._unsafe_view.default", 0) == 0


def test_tracker_counts_and_frees() -> None:
    with MemoryTracker() as t:
        a = keyroute.empty(256, device="meta")
        b = a + 1
        assert t.current == 2 * 256 * F32  # a came from a factory: counted too
        c = b * 2
        assert t.current == 3 * 256 * F32 and t.peak == 3 * 256 * F32
        del b, c
        assert t.current == 256 * F32
    outside = keyroute.empty(100, device="meta")  # made before: track() counts it
    t2 = MemoryTracker()
    t2.track(outside)
    assert t2.current == 100 * F32
    del outside
    assert t2.current == 0
    assert t.peak == 3 * 256 * F32
    assert t.by_op == {
        "aten.empty.memory_format": 256 * F32,
        "aten.add.Tensor": 256 * F32,
        "aten.mul.Tensor": 256 * F32,
    }
    del a


def test_tracker_leaves_no_mode_behind_on_error() -> None:
    from keyroute.utils.python_dispatch import _len_torch_dispatch_stack

    with pytest.raises(RuntimeError):
        estimate_memory(_mlp("meta"), keyroute.empty(2, 7, device="meta"))  # bad shape
    assert _len_torch_dispatch_stack() == 0


@pytest.mark.parametrize(
    "n,text",
    [
        (0, "0 B"),
        (1023, "1023 B"),
        (1024, "1.00 KiB"),
        (3 << 29, "1.50 GiB"),
        (1 << 40, "1.00 TiB"),
    ],
)
def test_format_bytes(n: int, text: str) -> None:
    assert format_bytes(n) == text


def test_fake_model_and_inputs_count_as_meta() -> None:
    meta = estimate_memory(_mlp("meta"), keyroute.empty(2, 8, device="meta"))
    with FakeTensorMode():
        with keyroute.device("cuda:0"):
            model = keyroute.nn.Sequential(
                keyroute.nn.Linear(8, 16, bias=False),
                keyroute.nn.ReLU(),
                keyroute.nn.Linear(16, 4, bias=False),
            )
            x = keyroute.empty(2, 8)
        report = estimate_memory(model, x)
        assert model[0].weight.device == keyroute.device("cuda", 0)
    assert (report.param_bytes, report.activation_peak_bytes, report.by_op) == (
        meta.param_bytes,
        meta.activation_peak_bytes,
        meta.by_op,
    )
