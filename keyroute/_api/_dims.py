"""PyTorch's argument parser on a `dim` argument: `int dim` and `int[] dim` (a tuple of ints).

The words depend on the function's Python signatures. A function with one signature names the
argument ("amax(): argument 'dim' (position 1) must be tuple of ints, not float"); a function
with several (`sum`, `mean`, `std`, `all`, ...) cannot tell which was meant and lists the
types it got ("sum() received an invalid combination of arguments - got (float), but expected
one of:"). A sequence is matched on its first element only; a later bad element fails while
unpacking ("failed to unpack the object at pos 2 with error ..."). Positions count from the
first argument after `self` for a method and from `input` for a function, which is why the
API families build their method and their function separately.

The valid cases cost one class check: `dim.__class__ is int`.
"""

from __future__ import annotations

from typing import Any

from ..tensor.new import _tp_name
from ._args import _index_like, _invalid_combination

__all__ = ["int_dim", "int_list_dim"]


def _combination(fn: str, input: Any, dim: Any, as_method: bool) -> TypeError:  # noqa: A002
    return _invalid_combination(fn, (dim,) if as_method else (input, dim), {})


def _pos(as_method: bool) -> int:
    return 1 if as_method else 2


def int_dim(
    fn: str,
    input: Any,  # noqa: A002
    dim: Any,
    *,
    as_method: bool,
    overloaded: bool = False,
) -> int:
    """An `int dim` argument as an int, or PyTorch's TypeError."""
    if dim.__class__ is int:
        return dim
    n = _index_like(dim)
    if n is not None:
        return n
    if overloaded:
        raise _combination(fn, input, dim, as_method)
    raise TypeError(
        f"{fn}(): argument 'dim' (position {_pos(as_method)}) must be int, not {_tp_name(dim)}"
    )


def int_list_dim(
    fn: str,
    input: Any,  # noqa: A002
    dim: Any,
    *,
    as_method: bool,
    overloaded: bool = False,
) -> list[int] | None:
    """An `int[1]? dim` argument (None, an int, or a sequence of ints) as a list, or PyTorch's
    TypeError."""
    if dim is None:
        return None
    if dim.__class__ is int:
        return [dim]
    n = _index_like(dim)
    if n is not None:
        return [n]
    if isinstance(dim, (tuple, list)):
        out = []
        for i, d in enumerate(dim):
            k = _index_like(d)
            if k is None:
                if i == 0:  # the signature does not match
                    if overloaded:
                        raise _combination(fn, input, dim, as_method)
                    raise TypeError(
                        f"{fn}(): argument 'dim' (position {_pos(as_method)}) must be tuple of "
                        f"ints, but found element of type {_tp_name(d)} at pos 0"
                    )
                raise TypeError(
                    f"{fn}(): argument 'dim' failed to unpack the object at pos {i + 1} with "
                    f'error "type must be tuple of ints,but got {_tp_name(d)}"'
                )
            out.append(k)
        return out
    if overloaded:
        raise _combination(fn, input, dim, as_method)
    raise TypeError(
        f"{fn}(): argument 'dim' (position {_pos(as_method)}) must be tuple of ints, not "
        f"{_tp_name(dim)}"
    )
