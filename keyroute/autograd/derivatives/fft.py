"""Derivatives of torch.fft's transforms (aten/fft.py): derivatives.yaml's entries and
FunctionsManual's fft_r2c_backward / fft_c2r_backward. Each transform's adjoint is the opposite
transform with the same normalization."""

from __future__ import annotations

from ._registry import _shape, aten, derivative


@derivative(
    "_fft_r2c",
    "FftR2CBackward0",
    save=("dim", "normalization", "onesided"),
    computed={"s": _shape("self")},
)
def _r2c(grad, dim, normalization, onesided, s):
    if onesided:
        # The one-sided half, zero-extended to the full length: the dropped bins had no
        # gradient of their own (the real part of the inverse transform folds them back).
        last = dim[-1] % len(s)
        half = grad.shape[last]
        if s[last] > half:
            full = list(grad.shape)
            full[last] = s[last]
            z = aten.new_zeros.default(grad, full)
            aten.copy_.default(aten.slice.Tensor(z, last, 0, half), grad)
            grad = z
    return (aten.real.default(aten._fft_c2c.default(grad, dim, normalization, False)),)


@derivative("_fft_c2r", "FftC2RBackward0", save=("dim", "normalization"))
def _c2r(grad, dim, normalization):
    g = aten._fft_r2c.default(grad, dim, normalization, True)
    last = dim[-1] % len(grad.shape)
    # Bins other than DC (and Nyquist for an even length) stand for two conjugate entries.
    double = grad.shape[last] - g.shape[last]
    if double > 0:
        aten.mul_.Scalar(aten.narrow.default(g, last, 1, double), 2)
    return (g,)


@derivative("_fft_c2c", "FftC2CBackward0", save=("dim", "normalization", "forward"))
def _c2c(grad, dim, normalization, forward):
    return (aten._fft_c2c.default(grad, dim, normalization, not forward),)
