"""out= for the Python functions whose operator keyroute has without an `.out` overload:
resize each given tensor to the result and copy into it, after PyTorch's cast check."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor.dtype import can_cast

__all__ = ["write_out"]


def write_out(result: Any, out: Any) -> Any:
    """Copy result (a tensor or a tuple of them) into out; out itself returned."""
    if out is None:
        return result
    pairs = list(zip(result, out)) if isinstance(result, tuple) else [(result, out)]
    for r, o in pairs:  # check all before writing any: bad input leaves out unchanged
        if not can_cast(r._dtype, o._dtype):
            raise RuntimeError(
                f"result type {r._dtype._short} can't be cast to the desired output type "
                f"{o._dtype._short}"
            )
    for r, o in pairs:
        ops.aten.resize_.default(o, list(r.shape))
        o.copy_(r)
    if isinstance(result, tuple):
        return type(result)(*out) if hasattr(result, "_fields") else tuple(out)
    return out
