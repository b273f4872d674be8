"""Python API of the short-time Fourier transforms and window functions (aten/spectral.py):
torch.stft (torch/functional.py's: a centred signal is padded here with F.pad's operator, then
aten::stft), torch.istft, Tensor.stft / Tensor.istft, and hann/hamming/blackman/bartlett/kaiser
windows with PyTorch's overloads."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method

aten = ops.aten


@function
def stft(
    input: Tensor,  # noqa: A002
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    return_complex: bool | None = None,
    align_to_window: bool | None = None,
) -> Tensor:
    """The short-time Fourier transform of a 1-d signal or a batch of them."""
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:
        # torch.functional.stft: pad a (1, 1, len) or (1, batch, len) view, as F.pad needs.
        nd = input.dim()
        extended = [1] * (3 - nd) + list(input.shape)
        pad = int(n_fft // 2)
        input = aten.pad.default(aten.view.default(input, extended), [pad, pad], pad_mode, None)  # noqa: A001
        input = aten.view.default(input, list(input.shape[-nd:]))  # noqa: A001
    return aten.stft.default(
        input,
        n_fft,
        hop_length,
        win_length,
        window,
        normalized,
        onesided,
        return_complex,
        align_to_window,
    )


@function
def istft(
    input: Tensor,  # noqa: A002
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool | None = None,
    length: int | None = None,
    return_complex: bool = False,
) -> Tensor:
    """The inverse of stft: overlap-added inverse transforms of the frames."""
    return aten.istft.default(
        input,
        n_fft,
        hop_length,
        win_length,
        window,
        center,
        normalized,
        onesided,
        length,
        return_complex,
    )


method(stft)
method(istft)


_UNSET: Any = object()


def _window(name: str, extras: tuple[tuple[str, str, float], ...], doc: str) -> Any:
    """torch.<name>(window_length, periodic=True, <extras>, *, dtype, layout, device,
    requires_grad): the aten overload named by how many arguments were given (a mode sees
    `hann_window.default` for hann_window(n), `.periodic` once periodic is given, ...).
    extras: (argument name, overload, default) in order."""
    packet = getattr(aten, name)

    def fn(
        window_length: int,
        periodic: Any = _UNSET,
        *args: float,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: bool | None = False,
        requires_grad: bool = False,
        **named: float,
    ) -> Tensor:
        if len(args) > len(extras):
            raise TypeError(f"{name}() takes at most {2 + len(extras)} positional arguments")
        values = list(args)
        for i, (arg, _, _) in enumerate(extras):
            if i >= len(values) and arg in named:
                if i > len(values):  # PyTorch has no overload skipping an earlier argument
                    raise TypeError(f"{name}() received an invalid combination of arguments")
                values.append(float(named.pop(arg)))
        if named:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(named))}'")
        if periodic is _UNSET and values:  # as PyTorch's parser: no overload skips periodic
            raise TypeError(f"{name}() received an invalid combination of arguments")
        head = [int(window_length)] if periodic is _UNSET else [int(window_length), bool(periodic)]
        overload = "default" if periodic is _UNSET else "periodic"
        if values:
            overload = extras[len(values) - 1][1]
        t = getattr(packet, overload)(*head, *values, dtype=dtype, device=device)
        return t.requires_grad_(True) if requires_grad else t

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{doc} (aten::{name}); `periodic` drops the last point of a length+1 window."
    return fn


hann_window = function(_window("hann_window", (), "The Hann window"))
hamming_window = function(
    _window(
        "hamming_window",
        (("alpha", "periodic_alpha", 0.54), ("beta", "periodic_alpha_beta", 0.46)),
        "The Hamming window alpha - beta cos(2 pi n / (N - 1))",
    )
)
blackman_window = function(_window("blackman_window", (), "The Blackman window"))
bartlett_window = function(_window("bartlett_window", (), "The Bartlett (triangular) window"))
kaiser_window = function(_window("kaiser_window", (("beta", "beta", 12.0),), "The Kaiser window"))
