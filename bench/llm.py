"""SmolLM2-135M decode and prefill: keyroute eager (and --quantized, with and without int8
dynamic activations, and compiled where keyroute.compile exists) against the same decoder
step written by hand in NumPy on the same float32 weights, one BLAS thread, one process,
medians of interleaved rounds; then again in a subprocess with OPENBLAS_CORETYPE /
OPENBLAS_L2_SIZE unset (when the machine sets them), each run naming the OpenBLAS kernel
that ran.

Each decode step reads every weight once: 540 MB in float32 (the embedding doubles as the LM
head), so memory bandwidth bounds the tokens/s; the table gives the bound measured here (a
NumPy sum over a 512 MB array) and the fraction of it each case reaches.

    python bench/llm.py [--rounds N] [--position P] [--prefill N]
"""

from __future__ import annotations

import argparse
import math

import _common  # noqa: F401  (one BLAS thread: before NumPy loads)
import numpy as np
from _common import CLOCK, TIMER, blas_kernel, compare, fmt_time, rerun_with_autodetected_blas

import keyroute
from keyroute.models import llama


def read_bandwidth(nbytes: int = 512 << 20) -> float:
    """Bytes per second of a streaming read (np.sum over a float32 array), best of 5."""
    a = np.ones(nbytes // 4, dtype=np.float32)
    best = math.inf
    for _ in range(5):
        t = TIMER()  # the cases' clock, so that the fractions of the limit compare like
        a.sum()
        best = min(best, TIMER() - t)
    return nbytes / best


class HandDecoder:
    """The SmolLM2 forward in plain NumPy: one token at a time (gemv) or a prefill (gemm),
    with its own KV cache; the model's weights, the same arithmetic."""

    def __init__(self, model: llama.Llama, max_seq: int) -> None:
        c = model.config
        self.c = c
        p = {n: t.detach().numpy() for n, t in model.named_parameters()}
        self.emb = p["embed_tokens.weight"]
        self.norm = p["norm.weight"]
        self.layers = []
        for i in range(c.layers):
            pre = f"layers.{i}."
            self.layers.append(
                [
                    p[pre + n]
                    for n in (
                        "input_layernorm.weight",
                        "self_attn.q_proj.weight",
                        "self_attn.k_proj.weight",
                        "self_attn.v_proj.weight",
                        "self_attn.o_proj.weight",
                        "post_attention_layernorm.weight",
                        "mlp.gate_proj.weight",
                        "mlp.up_proj.weight",
                        "mlp.down_proj.weight",
                    )
                ]
            )
        hd = c.head_dim
        inv = c.rope_theta ** (-np.arange(0, hd, 2, dtype=np.float64) / hd)
        ang = np.arange(max_seq, dtype=np.float64)[:, None] * inv[None, :]
        ang = np.concatenate((ang, ang), -1)
        self.cos, self.sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
        shape = (c.layers, c.kv_heads, max_seq, hd)
        self.kc = np.zeros(shape, np.float32)
        self.vc = np.zeros(shape, np.float32)
        self.eps = np.float32(c.norm_eps)

    def _rms(self, x: np.ndarray, g: np.ndarray) -> np.ndarray:
        return x * (1.0 / np.sqrt(np.mean(x * x, -1, keepdims=True) + self.eps)) * g

    def _rope(self, x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
        half = x.shape[-1] // 2
        rot = np.concatenate((-x[..., half:], x[..., :half]), -1)
        return x * cos + rot * sin

    def forward(self, ids: list[int], start: int) -> np.ndarray:
        """Logits of the last position after tokens `ids` at positions start.."""
        c = self.c
        s, hd, h, kvh = len(ids), c.head_dim, c.heads, c.kv_heads
        group = h // kvh
        end = start + s
        x = self.emb[ids]  # (s, hidden)
        cos, sin = self.cos[start:end, None], self.sin[start:end, None]
        scale = np.float32(1.0 / math.sqrt(hd))
        mask = None
        if s > 1:
            mask = np.triu(np.full((s, end), -np.inf, np.float32), start + 1)
        for i, (n1, wq, wk, wv, wo, n2, wg, wu, wd) in enumerate(self.layers):
            y = self._rms(x, n1)
            q = self._rope((y @ wq.T).reshape(s, h, hd), cos, sin)
            k = self._rope((y @ wk.T).reshape(s, kvh, hd), cos, sin)
            self.kc[i, :, start:end] = k.transpose(1, 0, 2)
            self.vc[i, :, start:end] = (y @ wv.T).reshape(s, kvh, hd).transpose(1, 0, 2)
            # (kv heads, group * s, hd): the queries sharing a KV head side by side
            qg = q.reshape(s, kvh, group, hd).transpose(1, 2, 0, 3).reshape(kvh, group * s, hd)
            scores = qg @ self.kc[i, :, :end].transpose(0, 2, 1) * scale
            if mask is not None:
                scores = (scores.reshape(kvh, group, s, end) + mask).reshape(kvh, group * s, end)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            att = (scores @ self.vc[i, :, :end]).reshape(kvh, group, s, hd)
            x = x + att.transpose(2, 0, 1, 3).reshape(s, h * hd) @ wo.T
            y = self._rms(x, n2)
            g = y @ wg.T
            x = x + (g / (1.0 + np.exp(-g)) * (y @ wu.T)) @ wd.T
        return self.emb @ self._rms(x[-1], self.norm)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--position", type=int, default=64, help="cache position of the decode step")
    ap.add_argument("--prefill", type=int, default=128, help="prompt tokens of the prefill")
    args = ap.parse_args()
    max_seq = max(args.position, args.prefill) + 8

    model = llama.load(max_seq_len=max_seq)
    hand = HandDecoder(model, max_seq)
    rng = np.random.default_rng(0)
    prompt = rng.integers(100, 40000, args.prefill).tolist()
    pos = args.position
    tok = [[prompt[0]]]
    ids = keyroute.tensor(tok)
    ids_prefill = keyroute.tensor([prompt])

    with keyroute.no_grad():
        model(keyroute.tensor([prompt[:pos]]), start_pos=0, last_only=True)
        hand.forward(prompt[:pos], 0)
        ours = model(ids, start_pos=pos, last_only=True)[0, -1].numpy()
        theirs = hand.forward(tok[0], pos)
        err = float(np.abs(ours - theirs).max())
        assert err < 1e-3 * float(np.abs(theirs).max()), f"logits differ by {err}"

        cases = {
            "keyroute eager decode": lambda: model(ids, start_pos=pos, last_only=True),
            "NumPy by hand decode": lambda: hand.forward(tok[0], pos),
        }
        quant = None
        try:
            quant = llama.load(quantized=True, max_seq_len=max_seq)
            quant(keyroute.tensor([prompt[:pos]]), start_pos=0, last_only=True)
            cases["keyroute --quantized decode"] = lambda: quant(ids, start_pos=pos, last_only=True)
            # the opt-in int8 dynamic activations (quantized_int8): faster, not exact
            qint8 = llama.load(quantized=True, int8_dynamic_activation=True, max_seq_len=max_seq)
            qint8(keyroute.tensor([prompt[:pos]]), start_pos=0, last_only=True)
            cases["keyroute --quantized int8 act"] = lambda: qint8(
                ids, start_pos=pos, last_only=True
            )
        except (NotImplementedError, ImportError) as e:
            print(f"(quantized: {e})")
        try:
            from keyroute.models.llama_compile import compiled_decode_step

            step = compiled_decode_step(model)
            step(ids, pos)  # capture once, outside the timing
            cases["keyroute compiled decode"] = lambda: step(ids, pos)
        except NotImplementedError as e:
            print(f"(compiled: {e})")
        times = compare(cases, rounds=args.rounds, min_time=0.05)
        pre = compare(
            {
                "keyroute eager prefill": lambda: model(ids_prefill, start_pos=0, last_only=True),
                "NumPy by hand prefill": lambda: hand.forward(prompt, 0),
            },
            rounds=max(3, args.rounds // 2),
            min_time=0.05,
        )

    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    bw = read_bandwidth()
    limit = bw / weight_bytes
    print(f"BLAS: {blas_kernel()}; read bandwidth {bw / 1e9:.1f} GB/s; clock: {CLOCK}")
    print(
        f"float32 weights read per token: {weight_bytes / 1e6:.0f} MB -> bandwidth limit "
        f"{limit:.1f} tokens/s"
    )
    ref = times["NumPy by hand decode"]
    print(f"\ndecode step at position {pos}")
    print(f"{'case':<30}{'time':>12}{'tokens/s':>10}{'of limit':>10}   ratio to NumPy")
    for name, t in times.items():
        frac = f"{1 / t / limit:9.0%}" if "quantized" not in name else "        -"
        print(f"{name:<30}{fmt_time(t):>12}{1 / t:10.1f}{frac:>10}   {t / ref:6.2f}x")
    if quant is not None:
        for name in ("keyroute --quantized decode", "keyroute --quantized int8 act"):
            ratio = times["keyroute eager decode"] / times[name]
            print(f"{name[9:]}: {ratio:.2f}x float32 tokens/s")
    pref = pre["NumPy by hand prefill"]
    print(f"\nprefill of {args.prefill} tokens")
    for name, t in pre.items():
        print(f"{name:<30}{fmt_time(t):>12}{args.prefill / t:10.1f}   {t / pref:6.2f}x")
    rerun_with_autodetected_blas(
        __file__,
        [f"--rounds={args.rounds}", f"--position={args.position}", f"--prefill={args.prefill}"],
    )


if __name__ == "__main__":
    main()
