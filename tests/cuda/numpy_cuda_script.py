"""Run by test_backend_on_numpy.py in a fresh process: the CUDA backend installed with NumPy
as its array module, so the adapter, the fallback and the kernels run on the CPU."""

from __future__ import annotations

import copy

import numpy as np

import keyroute as torch
import keyroute.nn.functional as F
from keyroute.cuda.backend import install


def close(x, ref, tol=1e-5):
    assert x.device.type == "cuda", x.device
    got = x.cpu()
    assert got.device.type == "cpu" and got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=tol, atol=tol)


def main() -> None:
    install(np)
    g = torch.Generator().manual_seed(0)
    a, b = torch.randn(4, 6, generator=g), torch.randn(6, 3, generator=g)
    x, w = a.to("cuda"), b.to("cuda")
    close(F.silu(x @ w).sum(), F.silu(a @ b).sum())
    close(F.softmax(x, -1) + F.layer_norm(x, (6,)), F.softmax(a, -1) + F.layer_norm(a, (6,)))
    close(x.cumsum(1), a.cumsum(1))  # through the CPU fallback
    close(x[1:3, ::2].t(), a[1:3, ::2].t())
    v = x[0]
    v.mul_(0)  # in place through a view: reaches the base, as on CPU
    assert x[0].tolist() == [0.0] * 6
    x2, a2 = a.clone().to("cuda").requires_grad_(), a.clone().requires_grad_()
    F.gelu(x2 @ w).pow(2).sum().backward()
    F.gelu(a2 @ b).pow(2).sum().backward()
    close(x2.grad, a2.grad, 1e-4)
    assert repr(torch.ones(2).to("cuda")) == "tensor([1., 1.], device='cuda:0')"  # as PyTorch
    assert torch.zeros(2, device="cuda").device == torch.device("cuda", 0)
    autocast_on_real_cuda_tensors(x, w)
    from keyroute.models import minilm

    model = minilm.load_model()
    ids, mask = minilm.tokenize(["A man is eating food.", "The cat sits on the mat."])
    with torch.no_grad():
        ref = minilm.embed_batch(model, ids, mask)
        md = copy.deepcopy(model).to("cuda")
        out = minilm.embed_batch(
            md, torch.from_numpy(ids).to("cuda"), torch.from_numpy(mask).to("cuda")
        )
    close(out, ref, 1e-5)
    print("ok")


def autocast_on_real_cuda_tensors(x, w) -> None:
    """AutocastCUDA on backend tensors (not fake ones): PyTorch's CUDA lists. torch.autocast
    asks keyroute.cuda.is_available(), which CuPy answers on a GPU; here a GPU is declared."""
    real = torch.cuda.is_available
    torch.cuda.is_available = lambda: True
    try:
        assert "AutocastCUDA" in repr(torch._C._dispatch_keys(x))
        with torch.autocast("cuda"):
            y = x @ w
            assert y.dtype == torch.float16 and y.device.type == "cuda"  # lower_precision_fp
            assert F.linear(x, w.t()).dtype == torch.float16
            assert torch.addmm(torch.zeros(3, device="cuda"), x, w).dtype == torch.float16
            assert F.softmax(y, -1).dtype == torch.float32  # fp32 list
            assert F.layer_norm(x, (6,)).dtype == torch.float32
            assert (y + F.softmax(y, -1)).dtype == torch.float32  # promote
        with torch.autocast("cuda", dtype=torch.bfloat16):
            assert (x @ w).dtype == torch.bfloat16
        with torch.autocast("cpu"):  # CPU autocast leaves cuda tensors alone
            assert (x @ w).dtype == torch.float32
    finally:
        torch.cuda.is_available = real


if __name__ == "__main__":
    main()
