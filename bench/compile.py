"""keyroute.compile: per-step times against eager keyroute, hand-written NumPy and (when
installed and cheap) torch.compile; compile times; guard cost. One BLAS thread, one process,
medians of repeats.

    python bench/compile.py [--no-torch]
"""

from __future__ import annotations

import sys
import time

import _common  # noqa: F401  (one BLAS thread; before NumPy)
import numpy as np
from _common import CLOCK, compare, measure, torch_or_none

import keyroute

D, H, HD, T, FF = 256, 4, 64, 128, 1024
NUMPY = {"cpu_backend": "numpy"}


def decode_step(lib):  # noqa: ANN001, ANN201  (keyroute or torch)
    F = lib.nn.functional

    def rms(x, g):
        return x * lib.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g

    def step(x, pos, g1, wq, wk, wv, wo, g2, w1, w3, w2, kcache, vcache):
        h = rms(x, g1)
        q = F.linear(h, wq).view(1, H, HD).transpose(0, 1)
        k = F.linear(h, wk).view(1, H, HD).transpose(0, 1)
        v = F.linear(h, wv).view(1, H, HD).transpose(0, 1)
        kcache.index_copy_(1, pos, k)
        vcache.index_copy_(1, pos, v)
        att = lib.softmax((q @ kcache.transpose(-1, -2)) * (HD**-0.5), dim=-1)
        o = (att @ vcache).transpose(0, 1).reshape(1, D)
        x = x + F.linear(o, wo)
        h = rms(x, g2)
        return x + F.linear(F.silu(F.linear(h, w1)) * F.linear(h, w3), w2)

    return step


def decode_inputs(lib):  # noqa: ANN001, ANN201
    g = np.random.default_rng(0)

    def t(*shape, scale=0.05):
        return lib.from_numpy((g.standard_normal(shape) * scale).astype(np.float32))

    return (
        t(1, D, scale=1.0), lib.tensor([7]), t(D, scale=1.0), t(D, D), t(D, D), t(D, D), t(D, D),
        t(D, scale=1.0), t(FF, D), t(FF, D), t(D, FF), t(H, T, HD), t(H, T, HD),
    )  # fmt: skip


def hand_numpy_step(args):  # noqa: ANN001, ANN201
    x, pos, g1, wq, wk, wv, wo, g2, w1, w3, w2, kc, vc = [a.numpy() for a in args]
    p = int(pos[0])
    scale = np.float32(HD**-0.5)

    def rms(x, g):
        return x * (1 / np.sqrt(np.mean(x * x, -1, keepdims=True) + np.float32(1e-6))) * g

    def step():
        h = rms(x, g1)
        q = (h @ wq.T).reshape(H, 1, HD)
        kc[:, p] = (h @ wk.T).reshape(H, HD)
        vc[:, p] = (h @ wv.T).reshape(H, HD)
        s = (q @ kc.transpose(0, 2, 1)) * scale
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        o = (s @ vc).reshape(1, D)
        y = x + o @ wo.T
        h2 = rms(y, g2)
        a = h2 @ w1.T
        return y + ((a / (1 + np.exp(-a))) * (h2 @ w3.T)) @ w2.T

    return step


def rms_case(rows):  # noqa: ANN001, ANN201
    g = np.random.default_rng(1)
    x = keyroute.from_numpy(g.standard_normal((rows, 4096)).astype(np.float32))
    w = keyroute.from_numpy(g.standard_normal(4096).astype(np.float32))

    def f(x, w):
        return x * keyroute.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w

    xn, wn = x.numpy(), w.numpy()

    def hand():
        return xn * (1 / np.sqrt(np.mean(xn**2, -1, keepdims=True) + np.float32(1e-6))) * wn

    return f, (x, w), hand


def mlp_train_case():  # noqa: ANN201
    nn = keyroute.nn
    keyroute.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    x = keyroute.randn(64, 784)
    y = keyroute.randint(0, 10, (64,))
    return model, x, y


def blas_kernel() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed"
    infos = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    return ", ".join(
        f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')} "
        f"threads={i.get('num_threads')}" for i in infos
    ) or "no BLAS found"  # fmt: skip


def main() -> None:
    use_torch = "--no-torch" not in sys.argv
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 9
    rows = []
    print(f"clock: {CLOCK}; interleaved rounds: {rounds}, medians")
    print(f"BLAS: {blas_kernel()}")

    # -- decode step -----------------------------------------------------------------------
    args = decode_inputs(keyroute)
    step = decode_step(keyroute)
    t0 = time.perf_counter()
    keyroute._dynamo.reset()
    cstep = keyroute.compile(step, backend="inductor", mode="reduce-overhead", fullgraph=True)
    cstep(*args)
    t_compile = time.perf_counter() - t0
    plain = keyroute.compile(step, backend="inductor", fullgraph=True)
    plain(*args)
    npy = keyroute.compile(step, backend="inductor", options=NUMPY, fullgraph=True)
    npy(*args)
    hand = hand_numpy_step(args)
    cases = {
        "decode step: eager keyroute": lambda: step(*args),
        "decode step: inductor (numba)": lambda: plain(*args),
        "decode step: inductor (numpy)": lambda: npy(*args),
        "decode step: inductor + reduce-overhead": lambda: cstep(*args),
        "decode step: hand NumPy": hand,
    }
    torch = torch_or_none() if use_torch else None
    t_torch_compile = None
    if torch is not None:
        targs = [torch.from_numpy(a.numpy().copy()) for a in args]
        tstep = decode_step(torch)
        t1 = time.perf_counter()
        tc = torch.compile(tstep)
        tc(*targs)
        t_torch_compile = time.perf_counter() - t1
        cases["decode step: torch eager"] = lambda: tstep(*targs)
        cases["decode step: torch.compile"] = lambda: tc(*targs)
    res = compare(cases, rounds=rounds)
    rows += [(n, t, res["decode step: hand NumPy"]) for n, t in res.items()]

    # -- RMSNorm ---------------------------------------------------------------------------
    rms_compile = {}
    for r in (512, 1):
        f, a, handf = rms_case(r)
        t1 = time.perf_counter()
        cf = keyroute.compile(f, backend="inductor")
        cf(*a)
        rms_compile[r] = time.perf_counter() - t1
        cn = keyroute.compile(f, backend="inductor", options=NUMPY)
        cn(*a)
        res = compare(
            {
                f"RMSNorm ({r}, 4096): inductor (numba)": lambda cf=cf, a=a: cf(*a),
                f"RMSNorm ({r}, 4096): inductor (numpy)": lambda cn=cn, a=a: cn(*a),
                f"RMSNorm ({r}, 4096): eager keyroute": lambda f=f, a=a: f(*a),
                f"RMSNorm ({r}, 4096): NumPy 6-op chain": handf,
            },
            rounds=rounds,
        )
        ref = res[f"RMSNorm ({r}, 4096): NumPy 6-op chain"]
        rows += [(n, t, ref) for n, t in res.items()]

    # -- MLP training step -----------------------------------------------------------------
    model, x, y = mlp_train_case()
    F = keyroute.nn.functional
    opt = keyroute.optim.SGD(model.parameters(), lr=0.01)
    cm = keyroute.compile(model, backend="inductor")
    cmn = keyroute.compile(model, backend="inductor", options=NUMPY)

    class WithLoss(keyroute.nn.Module):
        # The loss inside the compiled region: forward + loss + backward are one AOT joint
        # graph, so loss.backward() runs one compiled node instead of the eager loss's nodes.
        def __init__(self, m: keyroute.nn.Module) -> None:
            super().__init__()
            self.m = m

        def forward(self, x: keyroute.Tensor, y: keyroute.Tensor) -> keyroute.Tensor:
            return F.cross_entropy(self.m(x), y)

    closs = keyroute.compile(WithLoss(model), backend="inductor")

    def train_step_loss_inside():
        opt.zero_grad()
        loss = closs(x, y)
        loss.backward()
        opt.step()
        return loss

    def train_step(m):
        opt.zero_grad()
        loss = F.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        return loss

    # opt.step compiled: the optimizer's parameters, grads and state are lifted graph inputs
    # (keyroute/_dynamo/lifting.py); and the whole step (forward, loss, backward, opt.step)
    # as one compiled function, as `torch.compile(train_step)` is written.
    cstep = keyroute.compile(opt.step, backend="inductor")

    def train_step_compiled_opt():
        opt.zero_grad()
        loss = closs(x, y)
        loss.backward()
        cstep()
        return loss

    def whole(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    cwhole = keyroute.compile(whole, backend="inductor")
    cwhole_np = keyroute.compile(whole, backend="inductor", options=NUMPY)

    train_step(cm)
    train_step(cmn)
    train_step_loss_inside()
    for _ in range(2):  # the first step makes the grads: one recompile
        train_step_compiled_opt()
        cwhole(x, y)
        cwhole_np(x, y)
    W1, b1, W2, b2 = (p.detach().numpy().copy() for p in model.parameters())
    xn, yn = x.numpy(), y.numpy()

    def hand_train():
        nonlocal W1, b1, W2, b2
        h = xn @ W1.T + b1
        r = np.maximum(h, 0)
        z = r @ W2.T + b2
        z = z - z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        p[np.arange(64), yn] -= 1
        p /= 64
        gW2 = p.T @ r
        gb2 = p.sum(0)
        gr = p @ W2
        gr[h <= 0] = 0
        gW1 = gr.T @ xn
        gb1 = gr.sum(0)
        W1 -= 0.01 * gW1
        b1 -= 0.01 * gb1
        W2 -= 0.01 * gW2
        b2 -= 0.01 * gb2

    res = compare(
        {
            "MLP 784-256-10 train step: compiled (numba)": lambda: train_step(cm),
            "MLP 784-256-10 train step: compiled (numpy)": lambda: train_step(cmn),
            "MLP 784-256-10 train step: compiled, loss inside": train_step_loss_inside,
            "MLP 784-256-10 train step: + compiled opt.step": train_step_compiled_opt,
            "MLP 784-256-10 train step: whole step compiled": lambda: cwhole(x, y),
            "MLP 784-256-10 train step: whole step (numpy)": lambda: cwhole_np(x, y),
            "MLP 784-256-10 train step: eager keyroute": lambda: train_step(model),
            "MLP 784-256-10 train step: hand NumPy": hand_train,
        },
        rounds=max(5, rounds // 2),
    )
    ref = res["MLP 784-256-10 train step: hand NumPy"]
    rows += [(n, t, ref) for n, t in res.items()]

    # -- guard cost --------------------------------------------------------------------------
    tiny = keyroute.compile(lambda a, b: a, backend="eager")
    ta, tb = keyroute.ones(2), keyroute.ones(2)
    tiny(ta, tb)
    t_guard = measure(lambda: tiny(ta, tb))
    t_add = measure(lambda: ta + tb)

    print(f"{'case':48s} {'time':>10s} {'vs reference':>14s}")
    for name, t, ref in rows:
        print(f"{name:48s} {t * 1e6:8.1f}us {t / ref:13.2f}x")
    print("(reference: hand NumPy for the decode and training steps, the NumPy chain for RMSNorm)")
    for r, t in rms_compile.items():
        print(f"RMSNorm ({r}, 4096) inductor (numba) compile time: {t * 1e3:.0f} ms")
    print(
        "numba kernels are cached on disk (cache=True): run the script twice; the second run's "
        "compile times are the warm ones (numba's one-time process start-up, ~1-2 s, falls on "
        "the first graph compiled with numba)"
    )
    print(f"decode step compile time (cold, inductor + reduce-overhead): {t_compile * 1e3:.0f} ms")
    if t_torch_compile is not None:
        print(f"decode step torch.compile time: {t_torch_compile:.1f} s")
    print(
        f"guard check + call of a compiled identity (2 tensors): {t_guard * 1e6:.2f} us "
        f"({t_guard / t_add:.1f}x an eager `a + b`, {t_add * 1e6:.2f} us, in this run)"
    )


if __name__ == "__main__":
    main()
