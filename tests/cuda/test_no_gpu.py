"""Without CuPy or a GPU, keyroute.cuda is PyTorch's CPU build (its texts recorded from
torch 2.13's CPU build)."""

from __future__ import annotations

import pytest

import keyroute as torch

NOT_COMPILED = "Torch not compiled with CUDA enabled"


@pytest.fixture(autouse=True)
def _no_gpu():
    if torch.cuda.is_available():
        pytest.skip("a GPU is present: tools/gpu_check.py covers it")


def test_api_reports_no_device():
    assert torch.cuda.is_available() is False and torch.cuda.device_count() == 0
    assert torch.cuda.memory_allocated() == 0 and torch.cuda.max_memory_allocated() == 0
    torch.cuda.manual_seed(0)  # queued no-ops
    torch.cuda.empty_cache()
    for fn in (torch.cuda.current_device, torch.cuda.synchronize, lambda: torch.cuda.set_device(0)):
        with pytest.raises(AssertionError, match=NOT_COMPILED):
            fn()
    with pytest.raises(RuntimeError, match="torch.cuda.Stream requires CUDA support"):
        torch.cuda.Stream()
    with pytest.raises(RuntimeError, match="Tried to instantiate dummy base class Event"):
        torch.cuda.Event()


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.ones(2, device="cuda"),
        lambda: torch.zeros(2, device="cuda:1"),
        lambda: torch.ones(2).to("cuda"),
        lambda: torch.ones(2).cuda(),
    ],
)
def test_cuda_tensors_give_pytorchs_error(make):
    with pytest.raises(AssertionError, match=NOT_COMPILED):
        make()


def test_pinned_memory():
    x = torch.ones(3)
    assert x.is_pinned() is False
    with pytest.raises(
        RuntimeError, match="Cannot access accelerator device when none is available"
    ):
        x.pin_memory()


class _CudaArrayProducer:
    """Only the interface of another library's GPU array (a Numba or CuPy device array)."""

    __cuda_array_interface__ = {"shape": (3,), "typestr": "<f4", "data": (0, False), "version": 2}


@pytest.mark.parametrize("fn", ["as_tensor", "tensor", "asarray"])
def test_cuda_array_interface_input_on_the_cpu_build(fn):
    # PyTorch 2.13's CPU build reads __cuda_array_interface__ and fails asking for the device
    with pytest.raises(RuntimeError, match=r"^Backend doesn't support getCurrentDevice\(\)$"):
        getattr(torch, fn)(_CudaArrayProducer())


@pytest.mark.parametrize("fn", ["as_tensor", "tensor", "asarray"])
def test_cuda_array_interface_input_as_live_pytorch(fn):
    real = pytest.importorskip("torch")
    if real.cuda.is_available():
        pytest.skip("PyTorch has a GPU here")
    with pytest.raises(RuntimeError) as want:
        getattr(real, fn)(_CudaArrayProducer())
    with pytest.raises(RuntimeError) as got:
        getattr(torch, fn)(_CudaArrayProducer())
    assert str(got.value) == str(want.value)
