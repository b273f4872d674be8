"""Meta-built models: building allocates nothing, `to_empty`, `load_state_dict(assign=True)`,
and `load_safetensors_into` materialising a model from a safetensors file one tensor at a time
(peak memory checked with tracemalloc, which sees NumPy's allocations), computing exactly what
the model that wrote the file computes."""

from __future__ import annotations

import builtins
import tracemalloc
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import keyroute
from keyroute.models.llama import Llama, LlamaConfig
from keyroute.models.loading import load_safetensors_into, read_safetensors_header

safetensors_numpy = pytest.importorskip("safetensors.numpy")

# ~72 MiB of float32 weights: 2 layers of hidden 768, vocabulary 4096.
SMALL = LlamaConfig(layers=2, hidden=768, ffn=2048, heads=12, kv_heads=4, vocab=4096)


def _peak(fn: Callable[[], Any]) -> tuple[Any, int]:
    """fn's result and the peak of traced memory while it ran, above what was live before."""
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        out = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, peak - base


def _save(model: Any, path: str, dtype: Any = None) -> dict[str, int]:
    """Write model's state dict (as `dtype`) to path; the tensors' byte sizes."""
    sd = {}
    for k, v in model.state_dict().items():
        v = v.detach().to(dtype) if dtype is not None else v.detach()
        if v.dtype == keyroute.bfloat16:
            sd[k] = v._data.copy()  # ml_dtypes.bfloat16 (safetensors.numpy writes it as BF16)
        else:
            sd[k] = v.numpy().copy()
    safetensors_numpy.save_file(sd, path)
    return {k: a.nbytes for k, a in sd.items()}


@pytest.fixture(scope="module")
def small_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, dict]]:
    keyroute.manual_seed(0)
    ref = Llama(SMALL)
    path = str(tmp_path_factory.mktemp("weights") / "small.safetensors")
    sizes = _save(ref, path)
    yield path, ref, sizes


# -- building on meta --------------------------------------------------------------------------
def test_building_under_meta_allocates_nothing() -> None:
    def build() -> Any:
        with keyroute.device("meta"):
            return keyroute.nn.Sequential(
                keyroute.nn.Linear(8192, 28672, bias=False),
                keyroute.nn.SiLU(),
                keyroute.nn.Linear(28672, 8192, bias=False),
                keyroute.nn.LayerNorm(8192),
                keyroute.nn.Embedding(128256, 8192),
            )

    mlp, peak = _peak(build)
    n = sum(p.numel() for p in mlp.parameters())
    assert n == 2 * 8192 * 28672 + 2 * 8192 + 128256 * 8192  # 1.5e9 parameters, 6 GB as float32
    assert all(p.is_meta and type(p) is keyroute.nn.Parameter for p in mlp.parameters())
    assert peak < 1 << 20, f"building allocated {peak} bytes"
    # the same build on the CPU would allocate: the measurement can tell
    _, cpu_peak = _peak(lambda: keyroute.nn.Linear(1024, 1024))
    assert cpu_peak >= 4 << 20


def test_llama_70b_builds_on_meta_with_its_parameter_count() -> None:
    cfg = LlamaConfig(80, 8192, 28672, 64, 8, 128256)

    def build() -> Any:
        with keyroute.device("meta"):
            return Llama(cfg, dtype=keyroute.bfloat16)

    model, peak = _peak(build)
    assert sum(p.numel() for p in model.parameters()) == 70_553_706_496
    assert {p.dtype for p in model.parameters()} == {keyroute.bfloat16}
    assert peak < 32 << 20, peak  # module objects only, no weights (131 GiB)


# -- to_empty and load_state_dict(assign=True) --------------------------------------------------
class _WithBuffers(keyroute.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = keyroute.nn.Linear(4, 3)
        self.register_buffer("steps", keyroute.zeros((), dtype=keyroute.int64))
        self.register_buffer("scratch", keyroute.zeros(5), persistent=False)


def test_to_empty_materialises_uninitialised_storage() -> None:
    with keyroute.device("meta"):
        m = _WithBuffers()
    m.lin.bias.requires_grad_(False)
    out = m.to_empty(device="cpu")
    assert out is m
    for name, t in (*m.named_parameters(), *m.named_buffers()):
        assert t.device == keyroute.device("cpu"), name
        assert t.untyped_storage().nbytes() == t.numel() * t.element_size()
    assert type(m.lin.weight) is keyroute.nn.Parameter and m.lin.weight.requires_grad
    assert not m.lin.bias.requires_grad
    assert (m.steps.dtype, m.scratch.shape) == (keyroute.int64, (5,))
    m.lin.weight.data.fill_(1.0)  # usable storage
    assert m.lin.weight.sum().item() == 12.0


def test_to_empty_without_recursion_moves_only_the_module_itself() -> None:
    with keyroute.device("meta"):
        m = _WithBuffers()
    m.to_empty(device="cpu", recurse=False)
    assert not m.steps.is_meta and m.lin.weight.is_meta
    assert list(m._modules) == ["lin"]
    with pytest.raises(TypeError):
        m.to_empty("cpu")  # device is keyword-only, as in PyTorch


def test_to_from_meta_points_to_to_empty() -> None:
    with keyroute.device("meta"):
        m = keyroute.nn.Linear(2, 3)
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor; no data!"):
        m.to("cpu")


def test_load_state_dict_assign_takes_the_checkpoint_tensors() -> None:
    with keyroute.device("meta"):
        m = keyroute.nn.Linear(2, 3)
    m.weight.requires_grad_(False)
    sd = {"weight": keyroute.ones(3, 2, dtype=keyroute.float64), "bias": keyroute.zeros(3)}
    result = m.load_state_dict(sd, assign=True)
    assert repr(result) == "<All keys matched successfully>"
    assert type(m.weight) is keyroute.nn.Parameter and m.weight.device.type == "cpu"
    assert m.weight.dtype == keyroute.float64  # the checkpoint's dtype, as PyTorch
    assert m.weight.data_ptr() == sd["weight"].data_ptr()  # no copy
    assert not m.weight.requires_grad and m.bias.requires_grad  # the module's flags
    p = keyroute.nn.Parameter(keyroute.ones(3, 2), requires_grad=False)
    m.load_state_dict({"weight": p, "bias": keyroute.zeros(3)}, assign=True)
    assert m.weight is p and not p.requires_grad


def test_load_state_dict_into_meta_without_assign_warns_it_is_a_no_op() -> None:
    with keyroute.device("meta"):
        m = keyroute.nn.Linear(2, 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m.load_state_dict({"weight": keyroute.ones(3, 2), "bias": keyroute.zeros(3)})
    msgs = [str(w.message) for w in caught]
    assert msgs[0] == (
        "for weight: copying from a non-meta parameter in the checkpoint to a meta parameter in "
        "the current model, which is a no-op. (Did you mean to pass `assign=True` to assign "
        "items in the state dictionary to their corresponding key in the module instead of "
        "copying them in place?)"
    )
    assert len(msgs) == 2 and m.weight.is_meta


def test_load_state_dict_assign_shape_mismatch_is_reported() -> None:
    with keyroute.device("meta"):
        m = keyroute.nn.Linear(2, 3)
    with pytest.raises(
        RuntimeError,
        match=r"size mismatch for weight: copying a param with "
        r"shape keyroute.Size\(\[2, 2\]\) from checkpoint",
    ):
        m.load_state_dict({"weight": keyroute.ones(2, 2), "bias": keyroute.zeros(3)}, assign=True)
    assert m.weight.is_meta and m.weight.shape == (3, 2)


# -- load_safetensors_into ---------------------------------------------------------------------
def _meta_small() -> Any:
    with keyroute.device("meta"):
        return Llama(SMALL)


def test_loader_materialises_one_tensor_at_a_time(small_file: tuple[str, Any, dict]) -> None:
    path, ref, sizes = small_file
    total, largest = sum(sizes.values()), max(sizes.values())
    assert 60 << 20 < total < 100 << 20
    model = _meta_small()
    loaded, peak = _peak(lambda: load_safetensors_into(model, path))
    assert sorted(loaded) == sorted(sizes)
    # never two copies: the model's bytes plus at most one tensor in flight
    assert total <= peak < total + largest, (peak, total, largest)
    assert all(not p.is_meta for p in model.parameters())


def test_loader_peak_measurement_tells_two_copies_apart(small_file: tuple[str, Any, dict]) -> None:
    # the naive way (read the whole file, then copy into a CPU-built model) holds two copies:
    # the same measurement sees it, so the test above can fail
    path, _ref, sizes = small_file
    total = sum(sizes.values())

    def naive() -> None:
        sd = safetensors_numpy.load_file(path)
        model = Llama(SMALL)
        model.load_state_dict({k: keyroute.from_numpy(v) for k, v in sd.items()})

    _, peak = _peak(naive)
    assert peak >= 1.9 * total


def test_loaded_model_computes_as_the_original(small_file: tuple[str, Any, dict]) -> None:
    path, ref, _ = small_file
    model = _meta_small()
    load_safetensors_into(model, path)
    ids = keyroute.tensor(np.random.default_rng(0).integers(0, SMALL.vocab, (2, 12)))
    with keyroute.no_grad():
        expected, got = ref(ids), model(ids)
    assert got.dtype == expected.dtype and got.shape == (2, 12, SMALL.vocab)
    assert np.array_equal(got.numpy(), expected.numpy())
    for (n1, p1), (n2, p2) in zip(ref.named_parameters(), model.named_parameters()):
        assert n1 == n2 and np.array_equal(p1.detach().numpy(), p2.detach().numpy())
        assert type(p2) is keyroute.nn.Parameter and p2.requires_grad


def test_builtin_reader_without_the_safetensors_library(
    small_file: tuple[str, Any, dict], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, ref, sizes = small_file
    real_import = builtins.__import__

    def no_safetensors(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "safetensors" or name.startswith("safetensors."):
            raise ImportError("No module named 'safetensors'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_safetensors)
    model = _meta_small()
    _, peak = _peak(lambda: load_safetensors_into(model, path))
    total, largest = sum(sizes.values()), max(sizes.values())
    assert total <= peak < total + largest
    for (_, p1), (_, p2) in zip(ref.named_parameters(), model.named_parameters()):
        assert np.array_equal(p1.detach().numpy(), p2.detach().numpy())


def test_bf16_file_into_a_bf16_and_a_float32_model(tmp_path: Any) -> None:
    keyroute.manual_seed(1)
    cfg = LlamaConfig(layers=1, hidden=64, ffn=128, heads=4, kv_heads=2, vocab=50)
    ref = Llama(cfg)
    path = str(tmp_path / "bf16.safetensors")
    _save(ref, path, keyroute.bfloat16)
    header, _ = read_safetensors_header(path)
    assert {v["dtype"] for k, v in header.items() if k != "__metadata__"} == {"BF16"}
    for dtype in (keyroute.bfloat16, keyroute.float32):
        with keyroute.device("meta"):
            model = Llama(cfg, dtype=dtype)
        load_safetensors_into(model, path)
        for (_, p1), (_, p2) in zip(ref.named_parameters(), model.named_parameters()):
            assert p2.dtype == dtype
            want = p1.detach().to(keyroute.bfloat16).to(keyroute.float32).numpy()
            assert np.array_equal(p2.detach().to(keyroute.float32).numpy(), want)


def test_tied_weights_are_filled_everywhere_once(tmp_path: Any) -> None:
    class Tied(keyroute.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = keyroute.nn.Embedding(10, 4)
            self.head = keyroute.nn.Linear(4, 10, bias=False)
            self.head.weight = self.embed.weight

    keyroute.manual_seed(2)
    ref = Tied()
    path = str(tmp_path / "tied.safetensors")
    safetensors_numpy.save_file({"embed.weight": ref.embed.weight.detach().numpy()}, path)
    with keyroute.device("meta"):
        model = Tied()
    assert load_safetensors_into(model, path) == ["embed.weight"]
    assert model.head.weight is model.embed.weight and not model.head.weight.is_meta


def test_loader_checks_everything_before_changing_the_model(
    small_file: tuple[str, Any, dict], tmp_path: Any
) -> None:
    path, _, _ = small_file
    other = LlamaConfig(layers=2, hidden=768, ffn=1024, heads=12, kv_heads=4, vocab=4096)
    with keyroute.device("meta"):
        model = Llama(other)
    mismatch = (
        r"size mismatch for layers.0.mlp.gate_proj.weight: the file has shape "
        r"\(2048, 768\), the model expects \(1024, 768\)"
    )
    with pytest.raises(RuntimeError, match=mismatch):
        load_safetensors_into(model, path)
    assert all(p.is_meta for p in model.parameters())  # nothing was loaded
    with keyroute.device("meta"):
        bigger = Llama(
            LlamaConfig(layers=3, hidden=768, ffn=2048, heads=12, kv_heads=4, vocab=4096)
        )
    with pytest.raises(RuntimeError, match=r"missing keys \['layers.2.input_layernorm.weight'"):
        load_safetensors_into(bigger, path)
    assert all(p.is_meta for p in bigger.parameters())
    loaded = load_safetensors_into(bigger, path, strict=False)
    assert len(loaded) == len(list(_meta_small().parameters()))
    assert bigger.layers[2].mlp.up_proj.weight.is_meta
    smaller = Llama(
        LlamaConfig(layers=1, hidden=768, ffn=2048, heads=12, kv_heads=4, vocab=4096), device="meta"
    )
    with pytest.raises(RuntimeError, match=r"unexpected keys \['layers.1."):
        load_safetensors_into(smaller, path)
    assert load_safetensors_into(smaller, path, skip=("layers.1.",))
