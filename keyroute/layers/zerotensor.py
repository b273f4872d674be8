"""The ZeroTensor layer: tensors known to be all zeros (`torch._efficientzerotensor`).

A zero tensor carries the ZeroTensor key; the fallback, as PyTorch's ZeroTensorFallback:
writing to one raises "ZeroTensors are immutable"; views keep the key (they fall through);
`mul` with a zero factor gives a zero tensor of the result's shape and dtype, `add`/`sub` of
two zero tensors a zero tensor; every other operator sees each zero input materialized as
`zeros([]).expand(size)`. Tensors without the key never reach this layer.
"""

from __future__ import annotations

from typing import Any

from ..aten._promotion import result_type
from ..aten._shape import broadcast_shapes
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import full_after_bits
from ..dispatcher.registration import Library, fallthrough_kernel
from ..tensor._tensor import Tensor

__all__ = ["zero_lib"]

_KEY = DispatchKey.ZeroTensor
_BELOW = full_after_bits(int(_KEY))
_IMMUTABLE = (
    "ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() "
    "if you want a mutable tensor."
)
_COPY_IMMUTABLE = (
    "ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a "
    "mutable zero tensor."
)


def _is_zero(t: Any) -> bool:
    from ..aten.mathbits import ZERO_BIT

    return isinstance(t, Tensor) and bool(t._key_set & ZERO_BIT)


def _materialize(t: Any) -> Any:
    from .._ops import ops

    a = ops.aten
    z = a.zeros.default([], dtype=t.dtype, device=t.device)
    return a.expand.default(z, list(t.shape))


def _zero_result(args: tuple[Any, ...]) -> Any:
    from .._ops import ops

    shape = broadcast_shapes(*[tuple(x.shape) for x in args[:2] if isinstance(x, Tensor)])
    dt = result_type(args[0], args[1])
    return ops.aten._efficientzerotensor.default(list(shape), dtype=dt, device=args[0].device)


def fallback(ks: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    below = int(ks.repr_ if hasattr(ks, "repr_") else ks) & _BELOW
    schema = op._schema
    for i, a in enumerate(schema.arguments):
        if a.alias_info is not None and a.is_write:
            value = args[i] if i < len(args) else kwargs.get(a.name)
            if _is_zero(value):
                raise RuntimeError(
                    _COPY_IMMUTABLE if op.qualified_name() == "aten::copy_" else _IMMUTABLE
                )
    if any(a.alias_info is not None and not a.is_write for a in schema.arguments):
        return op.redispatch(below, *args, **kwargs)  # a view: stays a zero tensor
    name = op.qualified_name()  # "aten::mul.Tensor"
    if name in ("aten::mul.Tensor", "aten::mul.Scalar"):
        return _zero_result(args)
    if name in ("aten::add.Tensor", "aten::sub.Tensor") and all(_is_zero(x) for x in args[:2]):
        return _zero_result(args)
    args = tuple(_materialize(x) if _is_zero(x) else x for x in args)
    args = tuple(
        type(x)(_materialize(t) if _is_zero(t) else t for t in x)
        if isinstance(x, (list, tuple)) and any(_is_zero(t) for t in x)
        else x
        for x in args
    )
    kwargs = {k: _materialize(v) if _is_zero(v) else v for k, v in kwargs.items()}
    return op.redispatch(below, *args, **kwargs)


zero_lib = Library._internal("_", "IMPL")
zero_lib.fallback(fallback, "ZeroTensor", with_keyset=True, replace_builtin=True)
# clone copies a zero tensor's zeros into a tensor of its own (no key), as PyTorch's.
_aten_lib = Library._internal("aten", "IMPL")
_aten_lib.impl("clone", fallthrough_kernel, "ZeroTensor")
for _name in ("_is_zerotensor", "is_conj", "is_neg"):
    _aten_lib.impl(_name, fallthrough_kernel, "ZeroTensor")
