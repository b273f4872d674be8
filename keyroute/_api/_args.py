"""PyTorch's Python argument parser, for the factories: each argument checked and converted
as python_arg_parser.cpp does, with its messages (`_dtype_arg`, `_device_arg`, `_size_arg`...),
and the steps every factory shares: run below ADInplaceOrView (`_below`), honour `out=`
(`_check_out`, `_write_out`) and `requires_grad=` (`_finish`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ..dispatcher.tls import AutoDispatchBelowADInplaceOrView
from ..tensor._tensor import Tensor
from ..tensor.device import Device, default_device
from ..tensor.dtype import bool_, complex128, dtype, float64, int64
from ..tensor.new import _tp_name


def _dtype_arg(fn: str, dt: Any) -> dtype | None:
    """A `dtype=` argument: a keyroute dtype or a Python number type (float is float64)."""
    if dt is None or isinstance(dt, dtype):
        return dt
    python_types = {float: float64, int: int64, bool: bool_, complex: complex128}
    if isinstance(dt, type) and dt in python_types:
        return python_types[dt]
    raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {_tp_name(dt)}")


def _device_arg(fn: str, device: Any) -> Device:
    """A `device=` argument (None: the default device)."""
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, bool) or not isinstance(device, (str, int)):
        raise TypeError(f"{fn}(): argument 'device' must be torch.device, not {_tp_name(device)}")
    if isinstance(device, int):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    dev = Device(device)
    if dev.type == "cuda":
        # PyTorch initialises CUDA in the CUDA kernel: a CPU build raises its assertion there,
        # unless a dispatch mode (FakeTensorMode: fake cuda tensors) takes the call first.
        from ..utils.python_dispatch import _len_torch_dispatch_stack

        if not _len_torch_dispatch_stack():
            from ..cuda import _lazy_init

            _lazy_init()
    return dev


def _index_like(v: Any) -> int | None:
    """v as an int if PyTorch's parser takes it for an int (not bool), else None."""
    if v.__class__ is int:
        return v
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, Tensor):
        if v._dtype.category == 1 and v.numel() == 1:
            return int(v.item())
        return None
    try:
        return operator.index(v)
    except TypeError:
        return None


def _size_arg(fn: str, args: tuple[Any, ...], size: Any, position: int = 1) -> list[int]:
    """A size given as varargs (`zeros(2, 3)`), one sequence (`zeros((2, 3))`) or `size=`."""
    if size is not None:
        if args:
            raise TypeError(f"{fn}() got multiple values for argument 'size'")
        args = (size,)
    if not args:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "size"')
    if len(args) == 1:
        arg = args[0]
        if isinstance(arg, (tuple, list)):
            out = []
            for i, v in enumerate(arg):
                n = _index_like(v)
                if n is None:
                    raise TypeError(
                        f"{fn}(): argument 'size' (position {position}) must be tuple of ints, "
                        f"but found element of type {_tp_name(v)} at pos {i}"
                    )
                out.append(n)
            return out
        n = _index_like(arg)
        if n is None:
            raise TypeError(
                f"{fn}(): argument 'size' (position {position}) must be tuple of ints, not "
                f"{_tp_name(arg)}"
            )
        return [n]
    if isinstance(args[0], (tuple, list)):
        raise TypeError(f"{fn}() takes 1 positional argument but {len(args)} were given")
    out = []
    for i, v in enumerate(args):
        n = v if isinstance(v, bool) else _index_like(v)  # varargs take bools as 0/1
        if n is None:
            raise TypeError(
                f"{fn}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                f'"type must be tuple of ints,but got {_tp_name(v)}"'
            )
        out.append(int(n))
    return out


def _int_list_arg(fn: str, name: str, value: Any, position: int) -> list[int]:
    """An int-list argument that must be a sequence (full's size, empty_strided's stride)."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be tuple of ints, not "
            f"{_tp_name(value)}"
        )
    out = []
    for i, v in enumerate(value):
        n = _index_like(v)
        if n is None:
            raise TypeError(
                f"{fn}(): argument '{name}' (position {position}) must be tuple of ints, but "
                f"found element of type {_tp_name(v)} at pos {i}"
            )
        out.append(n)
    return out


def _int_arg(fn: str, name: str, value: Any, position: int) -> int:
    n = _index_like(value)
    if n is None:
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be int, not {_tp_name(value)}"
        )
    return n


def _number_arg(fn: str, name: str, value: Any, position: int) -> Any:
    """A Scalar argument as a Python number (NumPy scalars and 0-dim tensors too)."""
    if value.__class__ in (int, float, bool, complex):
        return value
    if isinstance(value, np.bool_):
        return float(value)  # PyTorch's parser reads a NumPy bool as a float
    if isinstance(value, np.generic) and value.dtype.kind in "iufc":
        return value.item()
    if isinstance(value, (int, float, complex)):
        return value
    if isinstance(value, Tensor) and value.dim() == 0:
        return value.item()
    raise TypeError(
        f"{fn}(): argument '{name}' (position {position}) must be Number, not {_tp_name(value)}"
    )


def _int64_overflow(v: int) -> Exception:
    """A Python int past int64 as a Scalar: PyTorch's parser keeps up to 2**64 - 1 (as uint64)
    and the int64 conversion then fails; past that the parser itself refuses."""
    if v >= 2**64:
        return OverflowError("int too big to convert")
    if v < -(2**63):
        return OverflowError("can't convert negative int to unsigned")
    return RuntimeError("value cannot be converted to type int64_t without overflow")


def _invalid_combination(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
    got = [_tp_name(a) for a in args] + [f"{k}={_tp_name(v)}" for k, v in kwargs.items()]
    return TypeError(
        f"{fn}() received an invalid combination of arguments - got ({', '.join(got)}), but "
        f"expected one of:"
    )


def _tensor_arg(fn: str, value: Any, name: str = "input") -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position 1) must be Tensor, not {_tp_name(value)}"
        )
    return value


def _check_requires_grad(t: Tensor) -> None:
    if not (t._dtype.is_floating_point or t._dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        _check_requires_grad(t)
        t.requires_grad_(True)
    return t


_PIN_MEMORY: dict[Any, bool] = {}  # operator -> whether its schema has pin_memory


def _takes_pin_memory(fn: Any) -> bool:
    schema = getattr(fn, "_schema", None)
    if schema is None:
        return False
    takes = _PIN_MEMORY.get(fn)
    if takes is None:
        takes = _PIN_MEMORY[fn] = any(a.name == "pin_memory" for a in schema.arguments)
    return takes


def _below(fn: Callable[..., Tensor], *args: Any, **kwargs: Any) -> Tensor:
    """Run a factory's aten call below ADInplaceOrView (torch:: factories do). As PyTorch's
    bindings, pass pin_memory=False to operators that take it (a mode sees the keyword)."""
    if "pin_memory" not in kwargs and _takes_pin_memory(fn):
        kwargs["pin_memory"] = False
    with AutoDispatchBelowADInplaceOrView():
        return fn(*args, **kwargs)


def _check_out(fn: str, out: Any, dt: dtype | None, device: Any) -> Tensor:
    """PyTorch's checks of an `out=` tensor against explicit dtype=/device= arguments."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be Tensor, not {_tp_name(out)}")
    if dt is not None and dt is not out._dtype:
        raise RuntimeError(
            f"dtype {dt._short} does not match dtype of out parameter ({out._dtype._short})"
        )
    if device is not None and Device(device).type != out.device.type:
        raise RuntimeError(
            f"device type {Device(device).type} does not match device type of out parameter "
            f"({out.device.type})"
        )
    return out


def _write_out(
    fn: str,
    out: Tensor,
    shape: list[int],
    fill: Callable[[Tensor], Any] | None,
    requires_grad: bool,
) -> Tensor:
    """`factory(..., out=out)`: resize `out` and fill it in place. PyTorch's `<fn>.out`
    kernels resize inside (one write for the version counter: the fill's)."""
    from ..autograd.grad_mode import is_grad_enabled

    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {shape}")
    if fill is None:
        # empty(out=): at::empty_out resizes (no write for the version counter).
        if out.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        if list(out.shape) != shape:
            out.resize_(shape)
        else:
            _below(out.resize_, shape)  # PyTorch calls it anyway; nothing changes
        return _finish(out, requires_grad)
    if out.requires_grad and is_grad_enabled():
        raise RuntimeError(
            f"aten::{fn}(): functions with out=... arguments don't support automatic "
            f"differentiation, but one of the arguments requires grad."
        )
    if list(out.shape) != shape:
        _below(out.resize_, shape)  # silently, as at::zeros_out & co. do
    fill(out)
    return _finish(out, requires_grad)
