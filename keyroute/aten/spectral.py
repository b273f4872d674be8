"""Short-time Fourier transforms and the window functions, as SpectralOps.cpp and
TensorFactories.cpp define them.

- `stft` / `stft.center` (CompositeImplicitAutograd): frames the signal with one as_strided
  view, multiplies by the (centre-padded) window, then one _fft_r2c or _fft_c2c over the last
  dim and a transpose_, so a dispatch mode sees PyTorch's calls. torch.stft pads a centred
  signal in Python (keyroute/_api/spectral.py) and calls the default overload; the `.center`
  overload pads inside.
- `istft` (CompositeImplicitAutograd): _fft_c2r / _fft_c2c per frame, window, overlap-add by
  `unfold_backward`, divided by the overlap-added squared window.
- `unfold_backward`: the adjoint of Tensor.unfold (its own operator with a CPU kernel, as in
  PyTorch; unfold's derivative calls it).
- `hann_window`, `hamming_window`, `blackman_window`, `bartlett_window`, `kaiser_window`
  (CompositeExplicitAutograd, so a mode sees one call) computed with PyTorch's in-place steps
  in the window's dtype.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import get_default_dtype, to_dtype
from ._define import composite, composite_explicit, meta
from ._meta_util import check, new_meta
from ._variants import out_variant, same_dtype
from .linalg import op

__all__: list[str] = []

_WARNED: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    # TORCH_WARN_ONCE: once per process.
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(message, UserWarning, stacklevel=4)


def _opt(v: Any) -> str:
    return "None" if v is None else str(int(v))


def _window_repr(window: Tensor | None) -> str:
    if window is None:
        return "None"
    return f"torch.{window._dtype._short}Tensor{{{list(window.shape)}}}"


# ----------------------------------------------------------------------------- unfold_backward


@meta(
    "unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> Tensor"
)
def unfold_backward(grad_in, input_sizes, dim, size, step):
    # at::zeros(input_sizes, grad.options()): contiguous, the gradient's dtype.
    return new_meta([int(s) for s in input_sizes], grad_in._dtype)


out_variant(
    "unfold_backward.out(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    "unfold_backward",
    check=same_dtype,
)


# ----------------------------------------------------------------------------- stft

_RETURN_COMPLEX_MSG = (
    "stft requires the return_complex parameter be given for real inputs, and will further "
    "require that return_complex=True in a future PyTorch release."
)
_RETURN_REAL_WARNING = (
    "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
    "return complex tensors for all inputs, and return_complex=False will raise an error.\n"
    "Note: you can still call torch.view_as_real on the complex output to recover the old "
    "return format."
)
_STFT_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied,which is known to cause "
    "spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
    "recommended to reduce spectral leakage.To suppress this warning and use a rectangular "
    "window, explicitly set `window=torch.ones(n_fft, device=<device>)`."
)
_ISTFT_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied.Please provide the same "
    "window used by stft to make the inversion lossless.To suppress this warning and use a "
    "rectangular window, explicitly set `window=torch.ones(n_fft, device=<device>)`."
)
_STFT_ARGS = (
    "Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None"
)
_STFT_TAIL = (
    "bool normalized=False, bool? onesided=None, bool? return_complex=None, "
    "bool? align_to_window=None"
)


def _stft(
    self: Tensor,
    n_fft: int,
    hop_length: int | None,
    win_length: int | None,
    window: Tensor | None,
    center: bool,
    pad_mode: str,
    normalized: bool,
    onesided: bool | None,
    return_complex: bool | None,
    align_to_window: bool | None,
) -> Tensor:
    n_fft = int(n_fft)
    if window is None:
        _warn_once("stft-window", _STFT_NO_WINDOW)
    hop = n_fft >> 2 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    dt = self._dtype
    complex_default = dt.is_complex or (window is not None and window._dtype.is_complex)
    rc = complex_default if return_complex is None else bool(return_complex)
    if not rc:
        check(return_complex is not None, _RETURN_COMPLEX_MSG)
        _warn_once("stft-real", _RETURN_REAL_WARNING)

    def fail(msg: str) -> None:
        raise RuntimeError(
            f"stft(torch.{dt._short}Tensor{list(self.shape)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_repr(window)}, normalized={int(normalized)}, "
            f"onesided={_opt(onesided)}, return_complex={_opt(return_complex)}, "
            f"align_to_window={_opt(align_to_window)}) : {msg}"
        )

    if not (dt.is_floating_point or dt.is_complex):
        fail("expected a tensor of floating point or complex values")
    if self.dim() not in (1, 2):
        fail("expected a 1D or 2D tensor")
    x = op("unsqueeze")(self, 0) if self.dim() == 1 else self
    if center:
        # at::pad over a (1, batch, len) view: reflect and replicate need a 3-d input.
        pad = n_fft // 2
        extended = op("view")(x, [1, *x.shape])
        x = op("pad")(extended, [pad, pad], pad_mode, None)
        x = op("view")(x, list(x.shape[1:]))
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        fail(f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        fail(f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        fail(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        fail(
            f"expected a 1D window tensor of size equal to win_length={win}, but got window "
            f"with size {list(window.shape)}"
        )
    win_ = window
    left = (n_fft - win) // 2
    if win < n_fft:
        # The window centred in n_fft zeros (a rectangular one where none is given).
        like = window if window is not None else self
        win_ = op("zeros")([n_fft], dtype=like._dtype, layout=None, device=like.device)
        inner = op("slice.Tensor")(win_, 0, left, left + win, 1)
        if window is not None:
            op("copy_")(inner, window)
        else:
            op("fill_.Scalar")(inner, 1)
    frames_len = length
    if align_to_window and win < n_fft:
        # Frames start where the window does: PyTorch pads `left` zeros on each side but
        # counts frames over length + n_fft - win_length (its as_strided then fails for an
        # odd difference, as here).
        x = op("constant_pad_nd")(x, [left, left], 0.0)
        frames_len = length + n_fft - win
    n_frames = 1 + (frames_len - n_fft) // hop
    st = x.stride()
    frames = op("as_strided")(x, [x.shape[0], n_frames, n_fft], [st[0], hop * st[1], st[1]])
    if win_ is not None:
        frames = op("mul.Tensor")(frames, win_)
    complex_fft = frames._dtype.is_complex
    sided = (not complex_fft) if onesided is None else bool(onesided)
    norm = 1 if normalized else 0
    if complex_fft:
        check(not sided, "Cannot have onesided output if window or input is complex")
        out = op("_fft_c2c")(frames, [frames.dim() - 1], norm, True)
    else:
        out = op("_fft_r2c")(frames, [frames.dim() - 1], norm, sided)
    op("transpose_")(out, 1, 2)
    if self.dim() == 1:
        op("squeeze_.dim")(out, 0)
    return out if rc else op("view_as_real")(out)


@composite(f"stft({_STFT_ARGS}, {_STFT_TAIL}) -> Tensor")
def stft(
    self,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    normalized=False,
    onesided=None,
    return_complex=None,
    align_to_window=None,
):
    return _stft(
        self,
        n_fft,
        hop_length,
        win_length,
        window,
        False,
        "constant",
        normalized,
        onesided,
        return_complex,
        align_to_window,
    )


@composite(
    f'stft.center({_STFT_ARGS}, bool center=True, str pad_mode="reflect", {_STFT_TAIL}) -> Tensor'
)
def stft_center(
    self,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    pad_mode="reflect",
    normalized=False,
    onesided=None,
    return_complex=None,
    align_to_window=None,
):
    check(
        not (center and align_to_window is not None),
        "stft align_to_window should only be set when center = false.",
    )
    return _stft(
        self,
        n_fft,
        hop_length,
        win_length,
        window,
        center,
        pad_mode,
        normalized,
        onesided,
        return_complex,
        align_to_window,
    )


# ----------------------------------------------------------------------------- istft


@composite(
    f"istft({_STFT_ARGS}, bool center=True, bool normalized=False, bool? onesided=None, "
    "int? length=None, bool return_complex=False) -> Tensor"
)
def istft(
    self,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    normalized=False,
    onesided=None,
    length=None,
    return_complex=False,
):
    n_fft = int(n_fft)
    if window is None:
        _warn_once("istft-window", _ISTFT_NO_WINDOW)
    hop = n_fft >> 2 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    check(
        self._dtype.is_complex,
        "istft requires a complex-valued input tensor matching the output from stft with "
        "return_complex=True.",
    )

    def fail(msg: str) -> None:
        raise RuntimeError(
            f"istft(CPU{self._dtype._short}Type{list(self.shape)}, n_fft={n_fft}, "
            f"hop_length={hop}, win_length={win}, window={_window_repr(window)}, "
            f"center={int(center)}, normalized={int(normalized)}, onesided={_opt(onesided)}, "
            f"length={_opt(length)}, return_complex={int(return_complex)}) {msg}"
        )

    x = op("view_as_real")(op("resolve_conj")(self))
    input_dim = x.dim()
    n_frames = x.shape[-2 if input_dim >= 2 else 0]
    if input_dim < 3:
        from ._shape import wrap_dim

        wrap_dim(-3, input_dim)  # IndexError: "Dimension out of range ..." as input.size(-3)
    fft_size = x.shape[-3]
    expected_len = n_fft + hop * (n_frames - 1)
    if x.numel() == 0:
        fail(": input tensor cannot be empty.")
    if input_dim not in (3, 4):
        fail(f": expected a tensor with 3 or 4 dimensions of complex dtype, but got {input_dim}")
    sided = (fft_size != n_fft) if onesided is None else bool(onesided)
    if sided:
        if n_fft // 2 + 1 != fft_size:
            fail(
                ": expected the frequency dimension (3rd to the last) of the input tensor to "
                f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}"
            )
    elif n_fft != fft_size:
        fail(
            ": expected the frequency dimension (3rd to the last) of the input tensor to match "
            f"n_fft when onesided=False, but got {fft_size}"
        )
    if not (0 < hop <= win):
        fail(": expected 0 < hop_length <= win_length")
    if not (0 < win <= n_fft):
        fail(": expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        fail(": Invalid window shape. window has to be 1D and length of `win_length`")
    if window is None:
        win_ = op("ones")([win], dtype=x._dtype, device=x.device)
    else:
        win_ = window
    if win != n_fft:
        left = (n_fft - win) // 2
        win_ = op("constant_pad_nd")(win_, [left, n_fft - win - left], 0)
    if input_dim == 3:
        x = op("unsqueeze")(x, 0)
    x = op("view_as_complex")(op("transpose.int")(x, 1, 2))  # (channel, n_frames, fft_size)
    norm = 1 if normalized else 2
    if return_complex:
        check(not sided, "Cannot have onesided output if window or input is complex")
        x = op("_fft_c2c")(x, [x.dim() - 1], norm, False)
    else:
        check(
            window is None or not window._dtype.is_complex,
            "Complex windows are incompatible with return_complex=False",
        )
        if not sided:
            x = op("slice.Tensor")(x, -1, 0, n_fft // 2 + 1, 1)
        x = op("_fft_c2r")(x, [x.dim() - 1], norm, n_fft)
    frames = op("mul.Tensor")(x, op("view")(win_, [1, 1, n_fft]))
    y = op("unfold_backward")(frames, [frames.shape[0], expected_len], 1, n_fft, hop)
    sq = op("expand")(op("pow.Tensor_Scalar")(win_, 2), [1, n_frames, n_fft])
    envelope = op("unfold_backward")(sq, [1, expected_len], 1, n_fft, hop)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + int(length)
    elif center:
        end = -(n_fft // 2)
    else:
        end = expected_len
    y = op("slice.Tensor")(y, 1, start, end, 1)
    envelope = op("slice.Tensor")(envelope, 1, start, end, 1)
    lowest = op("lt.Scalar")(op("min")(op("abs")(envelope)), 1e-11)
    if op("equal")(lowest, op("new_ones")(lowest, [], dtype=lowest._dtype, device=lowest.device)):
        fail(f"window overlap add min: {int(bool(lowest.item()))}")
    y = op("div.Tensor")(y, envelope)
    if input_dim == 3:
        y = op("squeeze.dim")(y, 0)
    if end > expected_len:
        _warn_once(
            "istft-length",
            "The length of signal is shorter than the length parameter. Result is being padded "
            "with zeros in the tail. Please check your center and hop_length settings.",
        )
        y = op("constant_pad_nd")(y, [0, end - expected_len], 0)
    return y


# ----------------------------------------------------------------------------- windows

_FACTORY = (
    "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"
)

_OPTIONS_DTYPE = {
    "bool": "bool",
    "uint8": "unsigned char",
    "int8": "signed char",
    "int16": "short int",
    "int32": "int",
    "int64": "long int",
}


def _window_start(name: str, n: int, dtype: Any, device: Any) -> tuple[Any, Any]:
    """window_function_checks, then (dtype, device) of the window."""
    dt = get_default_dtype() if dtype is None else to_dtype(dtype)
    if not (dt.is_floating_point or dt.is_complex):
        ctype = _OPTIONS_DTYPE.get(dt.name, dt.name)
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={ctype}, "
            "device=cpu (default), layout=Strided (default), requires_grad=false (default), "
            "pinned_memory=false (default), memory_format=(nullopt))"
        )
    check(n >= 0, f"{name} requires non-negative window_length, got window_length={n}")
    return dt, device


def _trivial(n: int, dt: Any, device: Any) -> Tensor | None:
    if n == 0:
        return op("empty.memory_format")([0], dtype=dt, device=device)
    if n == 1:
        return op("ones")([1], dtype=dt, device=device)
    return None


def _arange(n: int, dt: Any, device: Any) -> Tensor:
    return op("arange.start_step")(0, n, 1, dtype=dt, device=device)


def _periodic_end(window: Tensor, periodic: bool, n: int) -> Tensor:
    return op("slice.Tensor")(window, 0, 0, n - 1, 1) if periodic else window


def _hamming(name, n, periodic, alpha, beta, dtype, device) -> Tensor:
    dt, device = _window_start(name, n, dtype, device)
    t = _trivial(n, dt, device)
    if t is not None:
        return t
    n = n + 1 if periodic else n
    w = _arange(n, dt, device)
    op("mul_.Scalar")(w, math.pi * 2.0 / (n - 1))
    op("add_.Scalar")(op("mul_.Scalar")(op("cos_")(w), -beta), alpha)
    return _periodic_end(w, periodic, n)


def _blackman(n, periodic, dtype, device) -> Tensor:
    dt, device = _window_start("blackman_window", n, dtype, device)
    t = _trivial(n, dt, device)
    if t is not None:
        return t
    n = n + 1 if periodic else n
    w = op("mul_.Scalar")(_arange(n, dt, device), math.pi / (n - 1))
    a = op("mul_.Scalar")(op("cos_")(op("mul.Scalar")(w, 4)), 0.08)
    b = op("mul_.Scalar")(op("cos_")(op("mul.Scalar")(w, 2)), 0.5)
    w = op("add.Scalar")(op("sub.Tensor")(a, b), 0.42)
    return _periodic_end(w, periodic, n)


def _bartlett(n, periodic, dtype, device) -> Tensor:
    dt, device = _window_start("bartlett_window", n, dtype, device)
    t = _trivial(n, dt, device)
    if t is not None:
        return t
    n = n + 1 if periodic else n
    w = op("mul_.Scalar")(_arange(n, dt, device), 2.0 / (n - 1))
    half = ((n - 1) >> 1) + 1
    tail = op("slice.Tensor")(w, 0, half, n, 1)
    op("add_.Scalar")(op("mul_.Scalar")(tail, -1), 2)
    return _periodic_end(w, periodic, n)


def _kaiser(n, periodic, beta, dtype, device) -> Tensor:
    dt, device = _window_start("kaiser_window", n, dtype, device)
    t = _trivial(n, dt, device)
    if t is not None:
        return t
    n = n + 1 if periodic else n
    # kaiser_window_stub: i0(beta * sqrt(|1 - ((k - alpha) / alpha)^2|)) / i0(beta), each step
    # rounded to the window's dtype.
    alpha = (n - 1) / 2.0
    w = op("div.Scalar")(op("sub.Scalar")(_arange(n, dt, device), alpha), alpha)
    w = op("abs")(op("rsub.Scalar")(op("mul.Tensor")(w, w), 1))
    w = op("i0")(op("mul.Scalar")(op("sqrt")(w), float(beta)))
    beta_t = op("i0")(op("full")([], float(beta), dtype=dt, device=device))
    w = op("div.Tensor")(w, beta_t)
    return _periodic_end(w, periodic, n)


def _define_window(name: str, extra: Sequence[tuple[str, str]], fn: Any) -> None:
    """`name`, `name.periodic`, and the extra overloads [(overload, args)], each with an out
    form. `fn(n, periodic, *extras, dtype, device)`."""
    forms = [("", "int window_length"), ("periodic", "int window_length, bool periodic")]
    forms += list(extra)
    for overload, args in forms:
        qual = f"{name}.{overload}" if overload else name

        def impl(window_length, *rest, dtype=None, layout=None, device=None, pin_memory=None):
            periodic = rest[0] if rest else True
            return fn(int(window_length), bool(periodic), *rest[1:], dtype=dtype, device=device)

        impl.__name__ = qual.replace(".", "_")
        composite_explicit(f"{qual}({args}, {_FACTORY}) -> Tensor")(impl)
        out_name = f"{overload}_out" if overload else "out"
        out_variant(
            f"{name}.{out_name}({args}, *, Tensor(a!) out) -> Tensor(a!)",
            qual,
            check=same_dtype,
            before=_out_options,
        )


def _out_options(targets: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
    # A factory's out= form builds the result with out's dtype and device.
    kwargs["dtype"] = targets[0]._dtype
    kwargs["device"] = targets[0].device


_define_window(
    "hann_window",
    (),
    lambda n, p, dtype, device: _hamming("hann_window", n, p, 0.5, 0.5, dtype, device),
)
_define_window(
    "hamming_window",
    (
        ("periodic_alpha", "int window_length, bool periodic, float alpha"),
        ("periodic_alpha_beta", "int window_length, bool periodic, float alpha, float beta"),
    ),
    lambda n, p, alpha=0.54, beta=0.46, *, dtype, device: _hamming(
        "hamming_window", n, p, alpha, beta, dtype, device
    ),
)
_define_window("blackman_window", (), _blackman)
_define_window("bartlett_window", (), _bartlett)
_define_window(
    "kaiser_window",
    (("beta", "int window_length, bool periodic, float beta"),),
    lambda n, p, beta=12.0, *, dtype, device: _kaiser(n, p, beta, dtype, device),
)
