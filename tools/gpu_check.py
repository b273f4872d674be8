"""The CUDA backend on a real GPU: operators vs the CPU, MiniLM on cuda, and speed against
PyTorch's CUDA build when it is installed. Needs CuPy (the `cuda` extra) and a GPU; the
suite cannot run this (no GPU on CI), so run it by hand on a GPU machine:

    PYTHONPATH=$PWD python tools/gpu_check.py

Also checked (each section reports and the script goes on; the exit status is 1 if any failed):
- the fused-group CuPy kernels (keyroute/_inductor/cupy_codegen.py) compiled by CuPy and run on
  the GPU against eager CPU results and against the NumPy stand-in (tests/cuda/cupy_standin.py)
  running the same source (groups come from the numba path: needs the `compile` extra);
- a compiled RMSNorm + matmul on cuda tensors (keyroute/_inductor/cuda_graph.py) vs eager on cuda;
- AutocastCUDA on real cuda tensors (PyTorch's CUDA lists: mm in float16, softmax in float32);
- `.device` of cuda tensors: cuda:0 as PyTorch's; on a second GPU, the device guard (factories,
  `.to("cuda:1")` and kernels run on the tensor's GPU); `torch.as_tensor` of a CuPy array's
  `__cuda_array_interface__` shares its memory.
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


def _fused(name: str, fn, args, tol: float) -> None:
    """One function's fusion group as CuPy kernels on the GPU, vs eager CPU and the stand-in."""
    import os

    import cupy
    import numpy as np

    import keyroute as kr
    from keyroute._inductor import cupy_codegen

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "cuda"))
    import cupy_standin

    kr._dynamo.reset()
    c = kr.compile(fn, backend="inductor")
    c(*args)
    k = list(c.variants.values())[-1].run.kernel
    assert len(k.groups) == 1, f"{name}: {len(k.groups)} fusion groups"
    values = dict(zip([n for n in k.nodes if n.op == "placeholder"], args))
    g = k.groups[0]
    gk = cupy_codegen.build(g)
    host = [values[a].numpy() for a, _ in g.inputs]
    got = [cupy.asnumpy(v) for v in gk.run(cupy, [cupy.asarray(h) for h in host])]
    stand = gk.run(cupy_standin, host)
    want = fn(*args).numpy()
    err = float(np.nanmax(np.abs(got[-1].reshape(want.shape) - want)))
    err_s = float(np.nanmax(np.abs(got[-1] - stand[-1])))
    assert err <= tol and err_s <= tol, (err, err_s)
    cupy.cuda.runtime.deviceSynchronize()
    t0 = time.perf_counter()
    dev = [cupy.asarray(h) for h in host]
    for _ in range(20):
        gk.run(cupy, dev)
    cupy.cuda.runtime.deviceSynchronize()
    ms = (time.perf_counter() - t0) / 20 * 1e3
    print(
        f"fused {name}: {len(gk.stages)} cupy kernels; max |gpu - cpu| {err:.2e}, "
        f"|gpu - stand-in| {err_s:.2e}; {ms:.3f} ms per run"
    )


def fused_checks() -> None:
    import keyroute as kr

    g = kr.Generator().manual_seed(1)
    x, w = kr.randn(512, 1024, generator=g), kr.randn(1024, generator=g)
    y = kr.randn(512, 1024, generator=g)

    def rms(t, u):
        return t * kr.rsqrt(t.pow(2).mean(-1, keepdim=True) + 1e-6) * u

    def centred(t):
        return (t - t.amax(-1, keepdim=True)).relu().sum(-1)

    def pointwise(t, u, m):
        return kr.where(m, t * 2.5, -u).clamp(-1.0, 1.0) + kr.maximum(t, u)

    _fused("rmsnorm float32", rms, (x, w), 1e-4)
    _fused("rmsnorm float64", rms, (x.double(), w.double()), 1e-10)
    _fused("amax/relu/sum", centred, (x,), 1e-2)
    _fused("where/clamp/maximum", pointwise, (x, y, x > 0), 1e-6)


def compiled_rmsnorm() -> None:
    """keyroute.compile on cuda tensors (keyroute/_inductor/cuda_graph.py): the RMSNorm group runs
    as CuPy kernels, the matmul through the cuda backend; vs eager on cuda."""
    import numpy as np

    import keyroute as kr

    g = kr.Generator().manual_seed(3)
    x, w = kr.randn(512, 1024, generator=g).cuda(), kr.randn(1024, generator=g).cuda()
    m = kr.randn(1024, 256, generator=g).cuda()

    def rms_mm(t, u, v):
        return (t * kr.rsqrt(t.pow(2).mean(-1, keepdim=True) + 1e-6) * u) @ v

    kr._dynamo.reset()
    c = kr.compile(rms_mm, backend="inductor")
    got = c(x, w, m)
    run = list(c.variants.values())[-1].run
    n = len(getattr(run, "kernels", []))
    assert n == 1, f"compiled graph on cuda ran {n} fused groups (dispatcher path?)"
    want = rms_mm(x, w, m)
    assert got.device.type == "cuda" and got.dtype == want.dtype, (got.device, got.dtype)
    err = float(np.max(np.abs(got.cpu().numpy() - want.cpu().numpy())))
    assert err <= 1e-3, err
    print(f"compiled rmsnorm @ matmul on cuda: 1 fused group; max |compiled - eager| {err:.2e}")


def autocast_checks() -> None:
    import numpy as np

    import keyroute as kr
    import keyroute.nn.functional as F

    g = kr.Generator().manual_seed(2)
    a, b = kr.randn(64, 128, generator=g), kr.randn(128, 32, generator=g)
    x, w = a.cuda(), b.cuda()
    assert "AutocastCUDA" in repr(kr._C._dispatch_keys(x))
    with kr.autocast("cuda"):
        y = x @ w
        s = F.softmax(y, -1)
    assert y.dtype == kr.float16 and y.device.type == "cuda", (y.dtype, y.device)
    assert s.dtype == kr.float32, s.dtype
    err = float(np.max(np.abs(y.float().cpu().numpy() - (a @ b).numpy())))
    assert err < 0.1, err
    with kr.autocast("cuda", dtype=kr.bfloat16):
        assert (x @ w).dtype == kr.bfloat16
    print(f"AutocastCUDA: mm float16 (max diff to float32 {err:.2e}), softmax float32, bf16 ok")


def device_report() -> None:
    import keyroute as kr

    x = kr.ones(2).cuda()
    assert x.device == kr.device("cuda", 0), x.device  # as PyTorch's
    import cupy

    class Producer:  # only the interface, as a Numba device array offers it
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    backing = cupy.arange(4, dtype=cupy.float32)
    shared = kr.as_tensor(Producer(backing))
    backing[0] = 7
    assert shared.cpu().tolist() == [7.0, 1.0, 2.0, 3.0], shared
    print(f"cuda tensor .device: {x.device}; as_tensor(__cuda_array_interface__) shares memory")
    if kr.cuda.device_count() > 1:
        y = kr.ones(2, device="cuda:1")
        assert y.device == kr.device("cuda", 1) and (y + y).device == y.device
        assert x.to("cuda:1").device == y.device and x.device == kr.device("cuda", 0)
        print("device guard on cuda:1: factories, .to and kernels ok")
    else:
        print("one GPU only: the device guard is checked by tests/cuda/multi_device_script.py")


def run_all() -> int:
    failed = []
    for section in (main, fused_checks, compiled_rmsnorm, autocast_checks, device_report):
        try:
            rc = section()
        except Exception as e:  # noqa: BLE001 - report each section and go on
            import traceback

            traceback.print_exc()
            print(f"FAILED {section.__name__}: {type(e).__name__}: {e}")
            failed.append(section.__name__)
            continue
        if section is main and rc == 1:
            return 1  # no GPU: nothing else can run
    print("gpu_check:", "all sections passed" if not failed else f"failed: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run_all())
