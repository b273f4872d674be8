"""`repr(tensor)` as PyTorch prints it (torch/_tensor_str.py), and the print options.

The layout rules are PyTorch's: one formatter per tensor (two for complex: real and
imaginary parts) fixes the element width and the mode (integer-valued floats print as `1.`,
scientific notation when the nonzero finite magnitudes span more than 1000x, exceed 1e8 or go
below 1e-4), rows wrap at `linewidth`, tensors over `threshold` elements are summarised with
`...` keeping `edgeitems` at each end of each dimension, and suffixes (`device=`, `size=`,
`dtype=`, `grad_fn=`/`requires_grad=`) follow the same rules. It reads the NumPy data directly,
so printing dispatches no operator.

>>> import keyroute
>>> keyroute.tensor([1.5, 2.0, -3.25])
tensor([ 1.5000,  2.0000, -3.2500])
>>> keyroute.tensor([1e-5, 1.0])
tensor([1.0000e-05, 1.0000e+00])
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import _naming
from .dtype import bool_, complex64, complex128, float64, get_default_dtype, int64
from .meta_array import MetaArray

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "tensor_repr", "PRINT_OPTS"]


@dataclasses.dataclass
class _PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


#: Process-wide, as in PyTorch (not thread-local).
PRINT_OPTS = _PrinterOptions()

_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set how tensors print (torch.set_printoptions). `sci_mode` is always set: None restores
    the automatic choice."""
    if profile is not None and profile in _PROFILES:
        (PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth) = (
            _PROFILES[profile]
        )
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options, as keyword arguments for set_printoptions."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Change the print options inside the block."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# ----------------------------------------------------------------------------- formatting


class _Formatter:
    """Width and notation shared by every element of one tensor (PyTorch's _Formatter)."""

    def __init__(self, values: np.ndarray, floating: bool) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not floating:
            if flat.size:
                self.max_width = max(1, max(len(str(v)) for v in flat.tolist()))
            return
        # float64 holds every float16/bfloat16/float32 value exactly, so the checks below
        # (integrality, magnitudes) answer as they would in the tensor's own dtype.
        f = flat.astype(np.float64)
        with np.errstate(invalid="ignore"):
            vals = f[np.isfinite(f) & (f != 0)]
        if vals.size == 0:
            return
        mags = np.abs(vals)
        lo, hi = float(mags.min()), float(mags.max())
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        p = PRINT_OPTS.precision
        if PRINT_OPTS.sci_mode is None:
            with np.errstate(over="ignore"):
                ratio = float(np.float64(hi) / np.float64(lo))
            self.sci_mode = ratio > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = bool(PRINT_OPTS.sci_mode)
        items = vals.tolist()
        if self.sci_mode:
            width = max(len(f"{v:.{p}e}") for v in items)
        elif self.int_mode:
            width = max(len(f"{v:.0f}") for v in items) + 1  # room for the trailing "."
        else:
            width = max(len(f"{v:.{p}f}") for v in items)
        self.max_width = max(self.max_width, width)

    def format(self, value: Any) -> str:
        if self.floating:
            p = PRINT_OPTS.precision
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{p}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _py_values(a: np.ndarray) -> Any:
    """Python scalars of `a` (floats exactly as doubles, as Tensor.tolist gives them)."""
    kind = a.dtype.kind
    if kind == "c":
        return a.astype(np.complex128).tolist()
    if kind == "f" or a.dtype.name == "bfloat16":
        return a.astype(np.float64).tolist()
    return a.tolist()


def _complex_str(val: complex, f1: _Formatter, f2: _Formatter) -> str:
    real = f1.format(val.real)
    imag = (f2.format(val.imag) + "j").lstrip()
    # A sign already separates the parts (negative numbers, -0.0); otherwise add "+".
    if imag[0] in "+-":
        return real + imag
    return real + "+" + imag


def _scalar_str(a: np.ndarray, f1: _Formatter, f2: _Formatter | None) -> str:
    value = _py_values(a)
    if f2 is not None:
        return _complex_str(complex(value), f1, f2)
    return f1.format(value)


def _vector_str(
    a: np.ndarray, indent: int, summarize: bool, f1: _Formatter, f2: _Formatter | None
) -> str:
    element_length = f1.max_width + 2
    if f2 is not None:
        element_length += f2.max_width + 1  # the imaginary part and its "j"
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))

    def fmt(vals: list[Any]) -> list[str]:
        if f2 is not None:
            return [_complex_str(v, f1, f2) for v in vals]
        return [f1.format(v) for v in vals]

    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * edge:
        data = fmt(_py_values(a[:edge])) + [" ..."] + fmt(_py_values(a[-edge:]))
    else:
        data = fmt(_py_values(a))
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nd_str(
    a: np.ndarray, indent: int, summarize: bool, f1: _Formatter, f2: _Formatter | None
) -> str:
    dim = a.ndim
    if dim == 0:
        return _scalar_str(a, f1, f2)
    if dim == 1:
        return _vector_str(a, indent, summarize, f1, f2)
    edge = PRINT_OPTS.edgeitems
    n = a.shape[0]
    if summarize and n > 2 * edge:
        slices = (
            [_nd_str(a[i], indent + 1, summarize, f1, f2) for i in range(edge)]
            + ["..."]
            + [_nd_str(a[i], indent + 1, summarize, f1, f2) for i in range(n - edge, n)]
        )
    else:
        slices = [_nd_str(a[i], indent + 1, summarize, f1, f2) for i in range(n)]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized(a: np.ndarray) -> np.ndarray:
    """The elements a summarised print shows (what its formatter must fit)."""
    edge = PRINT_OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        if a.shape[0] > 2 * edge:
            return np.concatenate((a[:edge], a[-edge:]))
        return a
    if not edge:
        return a[(slice(0, 0),) * a.ndim]
    if a.shape[0] > 2 * edge:
        rows = [a[i] for i in range(edge)] + [a[i] for i in range(a.shape[0] - edge, a.shape[0])]
    else:
        rows = [a[i] for i in range(a.shape[0])]
    return np.stack([_summarized(r) for r in rows])


def _data_str(a: np.ndarray, indent: int) -> str:
    if a.size == 0:
        return "[]"
    summarize = a.size > PRINT_OPTS.threshold
    shown = _summarized(a) if summarize else a
    if a.dtype.kind == "c":
        f1 = _Formatter(shown.real, True)
        f2 = _Formatter(shown.imag, True)
        return _nd_str(a, indent, summarize, f1, f2)
    floating = a.dtype.kind == "f" or a.dtype.name == "bfloat16"
    return _nd_str(a, indent, summarize, _Formatter(shown, floating), None)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        # Measured as PyTorch spells it ("torch.float64"), so that lines break where
        # PyTorch's do: the dtype's module name is the only difference allowed.
        n = len(suffix.replace(f"{_naming.NAME}.", "torch."))
        if last_line_len + n + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + n
        else:
            parts.append(", " + suffix)
            last_line_len += n + 2
    parts.append(")")
    return "".join(parts)


def _is_plain(t: Any) -> bool:
    from ._tensor import Tensor

    cls = type(t)
    if cls is Tensor:
        return True
    nn = sys.modules.get(__package__.rpartition(".")[0] + ".nn")
    return cls is getattr(nn, "Parameter", None)


def _grad_fn_name(t: Any) -> str | None:
    try:
        grad_fn = getattr(t, "grad_fn", None)
    except RuntimeError:
        # Reading grad_fn can fail (a no-grad view modified in place): PyTorch prints this.
        return "Invalid"
    if grad_fn is None:
        return None
    name = type(grad_fn).__name__
    if name == "CppFunction":
        name = grad_fn.name().rsplit("::", 1)[-1]
    return name


def tensor_repr(t: Any, tensor_contents: str | None = None) -> str:
    """PyTorch's repr of tensor `t` (torch._tensor_str._str)."""
    prefix = "tensor(" if _is_plain(t) else f"{type(t).__name__}("
    indent = len(prefix)
    suffixes: list[str] = []
    device = t.device
    # PyTorch prints the device unless it is the default tensor type's (always cpu here:
    # `with device(...)` and set_default_device do not change it).
    if device.type != "cpu":
        suffixes.append(f"device='{device}'")
    dt = t._dtype
    default = get_default_dtype()
    default_complex = complex128 if default is float64 else complex64
    has_default_dtype = dt in (default, default_complex, int64, bool_)
    data = t._data
    shape = tuple(data.shape)
    if data.__class__ is not MetaArray and not isinstance(data, np.ndarray):
        from .host import host_array

        data = host_array(data) if tensor_contents is None else data  # a device's values
        data = t._data if data is None else data
    if data.__class__ is MetaArray or not isinstance(data, np.ndarray):
        suffixes.append(f"size={shape}")
        if dt is not default:
            suffixes.append(f"dtype={dt}")
        text = "..."
    elif data.size == 0:
        if len(shape) != 1:
            suffixes.append(f"size={shape}")
        if dt is not default:
            suffixes.append(f"dtype={dt}")
        text = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={shape}")
        if not has_default_dtype:
            suffixes.append(f"dtype={dt}")
        text = None
        if tensor_contents is None:
            text = _data_str(data, indent)
    if tensor_contents is not None:
        text = tensor_contents
    name = _grad_fn_name(t)
    if name is not None:
        suffixes.append(f"grad_fn=<{name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + text, suffixes, indent)
