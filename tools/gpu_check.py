"""The CUDA backend on a real GPU: operators vs the CPU, MiniLM on cuda, and speed against
PyTorch's CUDA build when it is installed. Needs CuPy (the `cuda` extra) and a GPU; the
suite cannot run this (no GPU on CI), so run it by hand on a GPU machine:

    PYTHONPATH=$PWD python tools/gpu_check.py
"""

from __future__ import annotations

import copy
import sys
import time


def _close(x, ref, tol: float) -> float:
    import numpy as np

    got = x.cpu().numpy()
    err = float(np.max(np.abs(got - ref.numpy()))) if got.size else 0.0
    assert err <= tol, err
    return err


def main() -> int:

    import keyroute as kr
    import keyroute.nn.functional as F

    if not kr.cuda.is_available():
        print("no GPU (or no CuPy): nothing to check; install 'keyroute[cuda]' on a GPU machine")
        return 1
    print("device:", kr.cuda.get_device_name(), "| count:", kr.cuda.device_count())
    g = kr.Generator().manual_seed(0)
    a, b = kr.randn(256, 384, generator=g), kr.randn(384, 512, generator=g)
    x, w = a.cuda(), b.cuda()
    checks = {
        "matmul+silu+sum": (lambda t, u: F.silu(t @ u).sum(), 1e-1),
        "softmax": (lambda t, u: F.softmax(t, -1), 1e-5),
        "layer_norm": (lambda t, u: F.layer_norm(t, (384,)), 1e-4),
        "gelu": (lambda t, u: F.gelu(t), 1e-5),
        "cumsum (CPU fallback)": (lambda t, u: t.cumsum(1), 1e-3),
        "views": (lambda t, u: t[3:100:2].t().reshape(-1)[:50], 0.0),
    }
    for name, (fn, tol) in checks.items():
        print(f"{name}: max |cuda - cpu| = {_close(fn(x, w), fn(a, b), tol):.2e}")
    xg = a.clone().cuda().requires_grad_()
    F.gelu(xg @ w).sum().backward()
    ag = a.clone().requires_grad_()
    F.gelu(ag @ b).sum().backward()
    print(f"autograd: max |grad diff| = {_close(xg.grad, ag.grad, 1e-2):.2e}")
    back = kr.from_dlpack(x.__dlpack__())
    print("dlpack round trip:", back.device, bool((back.cpu() == a).all()))
    from keyroute.models import minilm

    model = minilm.load_model()
    sents = ["A man is eating food.", "The cat sits on the mat."] * 16
    ids, mask = minilm.tokenize(sents)
    with kr.no_grad():
        ref = minilm.embed_batch(model, ids, mask)
        md = copy.deepcopy(model).cuda()
        ic, mc = kr.from_numpy(ids).cuda(), kr.from_numpy(mask).cuda()
        out = minilm.embed_batch(md, ic, mc)
        print(f"MiniLM on cuda: max diff {_close(out, ref, 1e-4):.2e}")
        kr.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(5):
            minilm.embed_batch(md, ic, mc)
        kr.cuda.synchronize()
        ours = (time.perf_counter() - t0) / 5
    peak = kr.cuda.max_memory_allocated() / 1e6
    print(f"keyroute cuda: {ours * 1e3:.1f} ms per batch of 32; peak {peak:.0f} MB")
    try:
        import torch
    except ImportError:
        print("PyTorch not installed: no speed comparison")
        return 0
    if not torch.cuda.is_available():
        print("PyTorch has no CUDA here: no speed comparison")
        return 0
    from transformers import AutoModel  # type: ignore[import-not-found]

    from keyroute.models.minilm import model_dir

    tm = AutoModel.from_pretrained(str(model_dir())).cuda().eval()
    ti, tk = torch.from_numpy(ids).cuda(), torch.from_numpy(mask).cuda()
    with torch.no_grad():
        tm(input_ids=ti, attention_mask=tk)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(5):
            tm(input_ids=ti, attention_mask=tk)
        torch.cuda.synchronize()
    theirs = (time.perf_counter() - t0) / 5
    print(
        f"PyTorch cuda: {theirs * 1e3:.1f} ms per batch; keyroute / PyTorch = {ours / theirs:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
