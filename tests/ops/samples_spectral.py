"""Samples of the short-time Fourier transforms and the window functions (aten/spectral.py;
see tests/ops/harness.py): stft and stft.center (windows shorter than n_fft, hop lengths,
normalized, onesided, complex inputs and windows, return_complex=False), istft (center,
length shorter and longer than the signal, onesided and two-sided, return_complex), the
unfold_backward operator istft's overlap-add uses, the five window functions with their
overloads, and the errors of each. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

from tests.ops.harness import Sample, noncontig, rand

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: rand(M, r, shape, dt)


def NC(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: noncontig(M, r, shape, dt)


def W(n: int, dt: str = "float32") -> Any:
    # A positive window (so istft's overlap-add envelope never vanishes).
    return lambda M, r: rand(M, r, (n,), dt, 0.5, 1.5)


def SPEC(shape: tuple[int, ...], dt: str = "complex64") -> Any:
    """A spectrum as stft returns it: (channels?, freqs, frames), with real DC/Nyquist bins
    left to the transform."""
    return lambda M, r: rand(M, r, shape, dt)


def STFT(sig: tuple[int, ...], n_fft: int, **kw: Any) -> Any:
    """istft's input: the stft of a random signal (so a round trip is exercised)."""

    def make(M: Any, r: Any) -> Any:
        x = rand(M, r, sig, kw.pop("dt", "float32") if "dt" in kw else "float32")
        return M.stft(x, n_fft, return_complex=True, **kw)

    return make


def mk(*specs: Any, **kwspecs: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            return s(M, r) if callable(s) else s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


# -- stft (the default overload: no centering; torch.stft pads in Python first)
_add("stft-plain", "stft", mk(T((40,)), 16, return_complex=True))
_add("stft-batch", "stft", mk(T((3, 40)), 16, 4, return_complex=True))
_add("stft-window", "stft", mk(T((2, 50)), 16, 5, 16, W(16), return_complex=True))
_add("stft-short-window", "stft", mk(T((2, 50)), 16, 4, 11, W(11), return_complex=True))
_add("stft-short-no-window", "stft", mk(T((50,)), 16, 4, 10, return_complex=True))
_add("stft-normalized", "stft", mk(T((50,)), 12, 3, normalized=True, return_complex=True))
_add("stft-twosided", "stft", mk(T((50,)), 12, 3, onesided=False, return_complex=True))
_add("stft-real-out", "stft", mk(T((2, 50)), 12, 3, return_complex=False))
_add(
    "stft-float64",
    "stft",
    mk(T((2, 50), "float64"), 16, 4, window=W(16, "float64"), return_complex=True),
)
_add("stft-complex-in", "stft", mk(T((40,), "complex64"), 8, 2, return_complex=True))
_add(
    "stft-complex-window", "stft", mk(T((40,)), 8, 2, window=W(8, "complex64"), return_complex=True)
)
_add("stft-noncontig", "stft", mk(NC((3, 40)), 8, 3, return_complex=True))
_add("stft-n-fft-len", "stft", mk(T((16,)), 16, 4, return_complex=True))
_add("stft-align", "stft", mk(T((41,)), 16, 5, return_complex=True, align_to_window=True))
_add("stft-align-false", "stft", mk(T((41,)), 16, 5, return_complex=True, align_to_window=False))
# errors
_add("stft-no-return-complex", "stft", mk(T((40,)), 16))
_add("stft-int", "stft", mk(T((40,), "int64"), 16, return_complex=True))
_add("stft-3d", "stft", mk(T((2, 2, 40)), 16, return_complex=True))
_add("stft-n-fft-long", "stft", mk(T((10,)), 16, return_complex=True))
_add("stft-n-fft-zero", "stft", mk(T((10,)), 0, return_complex=True))
_add("stft-hop-zero", "stft", mk(T((40,)), 16, 0, return_complex=True))
_add("stft-win-long", "stft", mk(T((40,)), 16, 4, 17, return_complex=True))
_add("stft-bad-window", "stft", mk(T((40,)), 16, 4, 12, W(16), return_complex=True))
_add(
    "stft-onesided-complex",
    "stft",
    mk(T((40,), "complex64"), 8, onesided=True, return_complex=True),
)

# -- stft.center (what C++/TorchScript callers reach: the padding inside the operator)
for _mode in ("reflect", "constant", "replicate", "circular"):
    _add(
        f"stft.center-{_mode}",
        "stft.center",
        mk(T((2, 40)), 16, 4, 12, W(12), True, _mode, return_complex=True),
    )
_add("stft.center-1d", "stft.center", mk(T((40,)), 16, return_complex=True))
_add("stft.center-off", "stft.center", mk(T((40,)), 16, center=False, return_complex=True))
_add(
    "stft.center-align",
    "stft.center",
    mk(T((40,)), 16, center=True, return_complex=True, align_to_window=True),
)

# -- istft (PyTorch's istft fails on meta tensors too: its envelope check calls aten::equal,
# which has no meta kernel; the error samples still run on meta)
_NO_META = ("no_meta",)
_add("istft-roundtrip", "istft", mk(STFT((2, 40), 16, hop_length=4), 16, 4), tags=_NO_META)
_add("istft-1d", "istft", mk(STFT((40,), 16), 16), tags=_NO_META)
_add(
    "istft-window",
    "istft",
    mk(STFT((2, 40), 16, hop_length=4), 16, 4, 16, lambda M, r: M.hann_window(16)),
    tags=_NO_META,
)
_add("istft-short-window", "istft", mk(SPEC((2, 9, 11)), 16, 4, 12, W(12)), tags=_NO_META)
_add("istft-length-short", "istft", mk(SPEC((2, 9, 11)), 16, 4, length=30), tags=_NO_META)
_add("istft-length-long", "istft", mk(SPEC((2, 9, 11)), 16, 4, length=70), tags=_NO_META)
_add(
    "istft-no-center", "istft", mk(SPEC((9, 11)), 16, 4, window=W(16), center=False), tags=_NO_META
)
_add("istft-normalized", "istft", mk(SPEC((9, 11)), 16, 4, normalized=True), tags=_NO_META)
_add("istft-twosided", "istft", mk(SPEC((16, 11)), 16, 4, onesided=False), tags=_NO_META)
_add("istft-complex-out", "istft", mk(SPEC((16, 11)), 16, 4, return_complex=True), tags=_NO_META)
_add("istft-float64", "istft", mk(SPEC((9, 11), "complex128"), 16, 4), tags=_NO_META)
_add(
    "istft-conj",
    "istft",
    mk(lambda M, r: rand(M, r, (9, 11), "complex64").conj(), 16, 4),
    tags=_NO_META,
)
# errors
_add("istft-real", "istft", mk(T((9, 11)), 16))
_add("istft-empty", "istft", mk(SPEC((9, 0)), 16))
_add("istft-2d", "istft", mk(SPEC((11,)), 16))
_add("istft-bad-freq", "istft", mk(SPEC((8, 11)), 16))
_add("istft-bad-freq-twosided", "istft", mk(SPEC((9, 11)), 16, onesided=False))
_add("istft-hop-long", "istft", mk(SPEC((9, 11)), 16, 17))
_add("istft-win-long", "istft", mk(SPEC((9, 11)), 16, 4, 17))
_add("istft-bad-window", "istft", mk(SPEC((9, 11)), 16, 4, 12, W(16)))
_add("istft-onesided-complex", "istft", mk(SPEC((9, 11)), 16, 4, return_complex=True))
_add("istft-envelope", "istft", mk(SPEC((9, 11)), 16, 4, 12, W(12), center=False))
_add(
    "istft-complex-window-real-out",
    "istft",
    mk(SPEC((16, 11)), 16, 4, window=W(16, "complex64"), onesided=False),
)

# -- unfold_backward
_add("unfold_backward-overlap", "unfold_backward", mk(T((2, 11, 16)), [2, 56], 1, 16, 4))
_add("unfold_backward-gap", "unfold_backward", mk(T((3, 4, 2)), [3, 13], 1, 2, 3))
_add("unfold_backward-dim0", "unfold_backward", mk(T((5, 3, 4)), [12, 3], 0, 4, 2))
_add("unfold_backward-float64", "unfold_backward", mk(T((4, 3), "float64"), [9], 0, 3, 2))
_add("unfold_backward-0d", "unfold_backward", mk(T((1,)), [], 0, 1, 1))

# -- window functions
for _fn in ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"):
    for _n in (0, 1, 2, 7, 16):
        _add(f"{_fn}-{_n}", _fn, mk(_n))
        _add(f"{_fn}.periodic-{_n}", f"{_fn}.periodic", mk(_n, False))
    _add(f"{_fn}-float64", _fn, mk(9, dtype=lambda M, r: M.float64))
    _add(f"{_fn}-negative", _fn, mk(-1))
    _add(f"{_fn}-int", _fn, mk(5, dtype=lambda M, r: M.int64))
_add("hamming_window.periodic_alpha", "hamming_window.periodic_alpha", mk(9, True, 0.6))
_add(
    "hamming_window.periodic_alpha_beta",
    "hamming_window.periodic_alpha_beta",
    mk(9, False, 0.6, 0.3),
)
_add("kaiser_window.beta", "kaiser_window.beta", mk(9, True, 5.0))
_add(
    "kaiser_window.beta-float64",
    "kaiser_window.beta",
    mk(12, False, 8.6, dtype=lambda M, r: M.float64),
)
