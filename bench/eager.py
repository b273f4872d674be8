"""Eager operator cost: keyroute against raw NumPy and PyTorch eager (when installed), one BLAS
thread, one process, medians of many repeats.

Cases: the tiny (16,) add; a (2,16)x(16,32) mm; the seed's 6-op RMSNorm chain on (2,16); a
512x512 matmul and a 512x512 add (where the kernel dominates and keyroute should equal NumPy).

    python bench/eager.py [--matmul-only]

The matmul cases run a second time in a subprocess with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
unset (when the machine sets them): the BLAS kernel OpenBLAS autodetects (see bench/_common.py).
"""

from __future__ import annotations

import sys

import _common  # noqa: F401  (one BLAS thread; must come first)
import numpy as np
from _common import CLOCK, blas_kernel, compare, rerun_with_autodetected_blas, torch_or_none

import keyroute


def _rms_numpy(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    var = np.mean(np.power(x, 2), axis=-1, keepdims=True)
    return x * (1.0 / np.sqrt(var + 1e-6)) * w


def _rms(lib, x, w):  # noqa: ANN001, ANN202  (keyroute or torch: the seed's six aten ops)
    var = x.pow(2).mean(-1, keepdim=True)
    return x * lib.rsqrt(var + 1e-6) * w


def main() -> None:
    rng = np.random.default_rng(0)
    f32 = np.float32
    cases = {
        "add (16,)": (rng.standard_normal(16).astype(f32), rng.standard_normal(16).astype(f32)),
        "mm (2,16)x(16,32)": (
            rng.standard_normal((2, 16)).astype(f32),
            rng.standard_normal((16, 32)).astype(f32),
        ),
        "RMSNorm chain (2,16), 6 ops": (
            rng.standard_normal((2, 16)).astype(f32),
            rng.standard_normal(16).astype(f32),
        ),
        "matmul 512x512": (
            rng.standard_normal((512, 512)).astype(f32),
            rng.standard_normal((512, 512)).astype(f32),
        ),
        "add 512x512": (
            rng.standard_normal((512, 512)).astype(f32),
            rng.standard_normal((512, 512)).astype(f32),
        ),
    }
    numpy_fns = {
        "add (16,)": lambda a, b: np.add(a, b),
        "mm (2,16)x(16,32)": lambda a, b: np.matmul(a, b),
        "RMSNorm chain (2,16), 6 ops": _rms_numpy,
        "matmul 512x512": lambda a, b: np.matmul(a, b),
        "add 512x512": lambda a, b: np.add(a, b),
    }

    def lib_fns(lib):  # noqa: ANN001, ANN202
        return {
            "add (16,)": lambda a, b: lib.add(a, b),
            "mm (2,16)x(16,32)": lambda a, b: lib.mm(a, b),
            "RMSNorm chain (2,16), 6 ops": lambda a, b: _rms(lib, a, b),
            "matmul 512x512": lambda a, b: lib.matmul(a, b),
            "add 512x512": lambda a, b: lib.add(a, b),
        }

    torch = torch_or_none()
    kr = lib_fns(keyroute)
    th = lib_fns(torch) if torch is not None else {}
    rows = []
    if "--matmul-only" in sys.argv:
        cases = {k: v for k, v in cases.items() if k.startswith(("mm", "matmul"))}
    for name, (a, b) in cases.items():
        ka, kb = keyroute.from_numpy(a), keyroute.from_numpy(b)
        np.testing.assert_allclose(kr[name](ka, kb).numpy(), numpy_fns[name](a, b), rtol=1e-4)
        timed = {
            "np": lambda f=numpy_fns[name], a=a, b=b: f(a, b),
            "kr": lambda f=kr[name], a=ka, b=kb: f(a, b),
        }
        if torch is not None:
            ta, tb = torch.from_numpy(a), torch.from_numpy(b)
            timed["th"] = lambda f=th[name], a=ta, b=tb: f(a, b)
        t = compare(timed)
        rows.append((name, t["np"], t["kr"], t.get("th")))

    print(
        f"eager operators, one BLAS thread (medians of interleaved rounds, {CLOCK}; ratios to "
        f"raw NumPy)\nBLAS: {blas_kernel()}"
    )
    head = f"{'case':<30}{'NumPy':>11}{'keyroute':>11}{'ratio':>8}"
    if torch is not None:
        head += f"{'PyTorch':>11}{'ratio':>8}{'keyroute/PyTorch':>18}"
    print(head)
    for name, t_np, t_kr, t_th in rows:
        line = f"{name:<30}{t_np * 1e6:>9.2f}µs{t_kr * 1e6:>9.2f}µs{t_kr / t_np:>7.2f}x"
        if t_th is not None:
            line += f"{t_th * 1e6:>9.2f}µs{t_th / t_np:>7.2f}x{t_kr / t_th:>17.2f}x"
        print(line)
    rerun_with_autodetected_blas(__file__, ["--matmul-only"])


if __name__ == "__main__":
    main()
