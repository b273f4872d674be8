"""torch.testing.assert_close: compare tensors, numbers and nested containers of them with
PyTorch's default tolerances per dtype and PyTorch's mismatch messages.

Containers are walked first (sequences by index, mappings by sorted key), then each pair of
leaves is compared: None with None, bools by identity, numbers by |a - b| <= atol + rtol * |b|,
tensor-likes by shape, device, dtype, then values (keyroute.isclose). The first failure raises,
with "The failure occurred for item [i][key]" naming where, as PyTorch's.
"""

from __future__ import annotations

import cmath
import collections.abc
import contextlib
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

__all__ = ["assert_close", "default_tolerances"]


def _precisions() -> dict[Any, tuple[float, float]]:
    import keyroute as kr

    return {
        kr.float16: (0.001, 1e-05),
        kr.bfloat16: (0.016, 1e-05),
        kr.float32: (1.3e-06, 1e-05),
        kr.float64: (1e-07, 1e-07),
        kr.complex64: (1.3e-06, 1e-05),
        kr.complex128: (1e-07, 1e-07),
    }


class _Failure(Exception):
    """A comparison failure: the exception type to raise, its message, and where it is."""

    def __init__(self, type_: type[Exception], msg: str, where: tuple[Any, ...]) -> None:
        super().__init__(msg)
        self.type = type_
        self.msg = msg
        self.where = where

    def to_error(self, msg: str | Callable[[str], str] | None) -> Exception:
        if isinstance(msg, str):
            return self.type(msg)
        text = self.msg
        if self.where:
            text += "\n\nThe failure occurred for item " + "".join(
                str([item]) for item in self.where
            )
        return self.type(msg(text) if callable(msg) else text)


class _Unsupported(Exception):
    pass


def default_tolerances(*inputs: Any) -> tuple[float, float]:
    """(rtol, atol): the loosest of the inputs' dtypes (0, 0 for integral and bool)."""
    from ..tensor._tensor import Tensor
    from ..tensor.dtype import dtype as dtype_type

    table = _precisions()
    rtols, atols = [], []
    for x in inputs:
        if isinstance(x, Tensor):
            x = x.dtype
        elif not isinstance(x, dtype_type):
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(x)} instead.")
        r, a = table.get(x, (0.0, 0.0))
        rtols.append(r)
        atols.append(a)
    return max(rtols), max(atols)


def _tolerances(
    *inputs: Any, rtol: float | None, atol: float | None, where: tuple[Any, ...]
) -> tuple[float, float]:
    if (rtol is None) != (atol is None):
        raise _Failure(
            ValueError,
            "Both 'rtol' and 'atol' must be either specified or omitted, "
            f"but got no {'rtol' if rtol is None else 'atol'}.",
            where,
        )
    if rtol is not None and atol is not None:
        return rtol, atol
    return default_tolerances(*inputs)


def _mismatch(
    what: str,
    *,
    extra: str,
    abs_diff: Any,
    abs_idx: Any,
    atol: float,
    rel_diff: Any,
    rel_idx: Any,
    rtol: float,
) -> str:
    equality = rtol == 0 and atol == 0
    lines = [f"{what} are not {'equal' if equality else 'close'}!", "", extra.strip()]
    for kind, diff, idx, tol in (
        ("absolute", abs_diff, abs_idx, atol),
        ("relative", rel_diff, rel_idx, rtol),
    ):
        line = (
            f"{kind.title()} difference: {diff}"
            if idx is None
            else (f"Greatest {kind} difference: {diff} at index {idx}")
        )
        if not equality:
            line += f" (up to {tol} allowed)"
        lines.append(line)
    return "\n".join(lines).strip()


def _scalar_msg(actual: Any, expected: Any, rtol: float, atol: float) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch(
        "Scalars",
        extra=f"Expected {expected} but got {actual}.",
        abs_diff=abs_diff,
        abs_idx=None,
        atol=atol,
        rel_diff=rel_diff,
        rel_idx=None,
        rtol=rtol,
    )


# -- leaf comparisons --------------------------------------------------------------------------


def _compare_none(actual: Any, expected: Any, where: tuple[Any, ...], **_: Any) -> None:
    if actual is not None and expected is not None:
        raise _Unsupported
    if not (actual is None and expected is None):
        raise _Failure(AssertionError, f"None mismatch: {actual} is not {expected}", where)


def _compare_bool(actual: Any, expected: Any, where: tuple[Any, ...], **_: Any) -> None:
    kinds = (bool, np.bool_)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    a, e = bool(actual), bool(expected)
    if a is not e:
        raise _Failure(AssertionError, f"Booleans mismatch: {a} is not {e}", where)


_NUMBER_DTYPES = {int: "int64", float: "float64", complex: "complex128"}


def _compare_number(
    actual: Any,
    expected: Any,
    where: tuple[Any, ...],
    *,
    rtol: float | None,
    atol: float | None,
    equal_nan: bool,
    check_dtype: bool,
    **_: Any,
) -> None:
    import keyroute as kr

    kinds = (int, float, complex, np.number)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    a = actual.item() if isinstance(actual, np.number) else actual
    e = expected.item() if isinstance(expected, np.number) else expected
    rtol, atol = _tolerances(
        *(getattr(kr, _NUMBER_DTYPES[type(x)]) for x in (a, e)), rtol=rtol, atol=atol, where=where
    )
    if check_dtype and type(a) is not type(e):
        raise _Failure(AssertionError, f"The (d)types do not match: {type(a)} != {type(e)}.", where)
    if a == e or (equal_nan and cmath.isnan(a) and cmath.isnan(e)):
        return
    diff = abs(a - e)
    if cmath.isfinite(diff) and diff <= atol + rtol * abs(e):
        return
    raise _Failure(AssertionError, _scalar_msg(a, e, rtol, atol), where)


def _as_tensor(x: Any) -> Any:
    import keyroute as kr

    if isinstance(x, kr.Tensor):
        return x
    try:
        return kr.as_tensor(x)
    except Exception:
        raise _Unsupported from None


def _compare_tensors(
    actual: Any,
    expected: Any,
    where: tuple[Any, ...],
    *,
    allow_subclasses: bool,
    rtol: float | None,
    atol: float | None,
    equal_nan: bool,
    check_device: bool,
    check_dtype: bool,
    check_layout: bool,
    check_stride: bool,
    **_: Any,
) -> None:
    import keyroute as kr

    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported
    if not allow_subclasses and type(actual) is not type(expected):
        raise _Unsupported
    a, e = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances(a, e, rtol=rtol, atol=atol, where=where)

    def differ(name: str, x: Any, y: Any) -> NoReturn:
        raise _Failure(
            AssertionError, f"The values for attribute '{name}' do not match: {x} != {y}.", where
        )

    if a.shape != e.shape:
        differ("shape", a.shape, e.shape)
    if a.layout != e.layout:
        if check_layout:
            differ("layout", a.layout, e.layout)
    elif check_stride and a.stride() != e.stride():
        differ("stride()", a.stride(), e.stride())
    if check_device and a.device != e.device:
        differ("device", a.device, e.device)
    if check_dtype and a.dtype != e.dtype:
        differ("dtype", a.dtype, e.dtype)
    if "meta" in (a.device.type, e.device.type):
        return
    if a.device != e.device:
        a, e = a.cpu(), e.cpu()
    if a.dtype != e.dtype:
        common = kr.promote_types(a.dtype, e.dtype)
        a, e = a.to(common), e.to(common)
    with kr.no_grad():
        _compare_values(a.detach(), e.detach(), rtol, atol, equal_nan, where)


def _unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    for size in reversed(shape):
        flat, mod = divmod(flat, size)
        out.append(mod)
    return tuple(reversed(out))


def _compare_values(
    a: Any, e: Any, rtol: float, atol: float, equal_nan: bool, where: tuple[Any, ...]
) -> None:
    import keyroute as kr

    matches = kr.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(matches.all()):
        return
    if a.shape == kr.Size([]):
        raise _Failure(AssertionError, _scalar_msg(a.item(), e.item(), rtol, atol), where)
    n = matches.numel()
    wrong = n - int(matches.sum())
    extra = f"Mismatched elements: {wrong} / {n} ({wrong / n:.1%})"
    af, ef, mf = a.flatten(), e.flatten(), matches.flatten()
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        af, ef = af.to(kr.int64), ef.to(kr.int64)
    abs_diff = (af - ef).abs()
    abs_diff[mf] = 0
    max_abs, abs_idx = kr.max(abs_diff, 0)
    rel_diff = abs_diff / ef.abs()
    rel_diff[mf] = 0
    max_rel, rel_idx = kr.max(rel_diff, 0)
    shape = tuple(matches.shape)
    raise _Failure(
        AssertionError,
        _mismatch(
            "Tensor-likes",
            extra=extra,
            abs_diff=max_abs.item(),
            abs_idx=_unravel(int(abs_idx), shape),
            atol=atol,
            rel_diff=max_rel.item(),
            rel_idx=_unravel(int(rel_idx), shape),
            rtol=rtol,
        ),
        where,
    )


_LEAF_COMPARISONS = (_compare_none, _compare_bool, _compare_number, _compare_tensors)


def _pairs(
    actual: Any, expected: Any, where: tuple[Any, ...]
) -> list[tuple[Any, Any, tuple[Any, ...]]]:
    """The leaf pairs to compare, walking sequences (not strings) and mappings together."""
    seq = collections.abc.Sequence
    if (
        isinstance(actual, seq)
        and isinstance(expected, seq)
        and not isinstance(actual, str)
        and not isinstance(expected, str)
    ):
        if len(actual) != len(expected):
            raise _Failure(
                AssertionError,
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                where,
            )
        out = []
        for i in range(len(actual)):
            out += _pairs(actual[i], expected[i], (*where, i))
        return out
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        ka, ke = set(actual.keys()), set(expected.keys())
        if ka != ke:
            raise _Failure(
                AssertionError,
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(ke - ka)}\n"
                f"Additional keys in the actual mapping: {sorted(ka - ke)}",
                where,
            )
        keys: Any = ka
        with contextlib.suppress(Exception):
            keys = sorted(keys)
        out = []
        for k in keys:
            out += _pairs(actual[k], expected[k], (*where, k))
        return out
    return [(actual, expected, where)]


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: str | Callable[[str], str] | None = None,
) -> None:
    """Raise (AssertionError, or TypeError / ValueError for bad input) unless actual and
    expected are close: |actual - expected| <= atol + rtol * |expected| elementwise, with
    PyTorch's defaults per dtype (float32: rtol 1.3e-6, atol 1e-5; float64: 1e-7, 1e-7;
    float16: 1e-3, 1e-5; bfloat16: 1.6e-2, 1e-5; integral and bool: exact)."""
    __tracebackhide__ = True
    options = dict(
        allow_subclasses=allow_subclasses,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_device=check_device,
        check_dtype=check_dtype,
        check_layout=check_layout,
        check_stride=check_stride,
    )
    try:
        pairs = _pairs(actual, expected, ())
        for a, e, where in pairs:
            for compare in _LEAF_COMPARISONS:
                try:
                    compare(a, e, where, **options)
                    break
                except _Unsupported:
                    continue
            else:
                raise _Failure(
                    TypeError,
                    "No comparison pair was able to handle inputs of type "
                    f"{type(a)} and {type(e)}.",
                    where,
                )
    except _Failure as failure:
        raise failure.to_error(msg) from None
