"""The Conjugate and Negative layers: lazy conjugation (`z.conj()`) and lazy negation
(`z.conj().imag`) as bits in a tensor's key set, with PyTorch's MathOpFallback.

A tensor with a bit stores the conjugate (negation) of its values; its key set holds the
Conjugate (Negative) key, so only such tensors reach these layers. The fallback, per operator:
  - views (every aliased argument read-only) pass the bit on: they redispatch below the key;
  - the bit-aware operators PyTorch lets through (`copy_`, `clone`, `mm`, `dot`, `vdot`,
    `addmm`, `bmm`, `baddbmm`, `resolve_conj`, `resolve_neg`, `conj_physical_`, the empty_*
    and size/stride utilities) fall through to kernels that read the bit
    (keyroute/kernels/cpu/mathbits.py);
  - everything else gets each bit-carrying input materialized by `clone`; a written argument
    with the bit is cloned, the operator writes the clone, and `copy_` writes it back.
Tensors without a bit never see these keys: the plain path is unchanged.
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import full_after_bits, key_bits
from ..dispatcher.registration import Library, fallthrough_kernel
from ..tensor._tensor import Tensor

__all__ = ["conjugate_lib", "negative_lib"]


def _below(key: DispatchKey) -> int:
    return full_after_bits(int(key))


def _make_fallback(key: DispatchKey, name: str) -> Any:
    bit = key_bits(key)

    def has_bit(t: Any) -> bool:
        return isinstance(t, Tensor) and bool(t._key_set & bit)

    def fallback(ks: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
        from .._ops import ops

        below = int(ks.repr_ if hasattr(ks, "repr_") else ks) & _below(key)
        schema = op._schema
        arguments = schema.arguments
        is_write = None
        for a in arguments:
            if a.alias_info is not None:
                w = bool(a.is_write)
                if is_write is not None and is_write != w:
                    raise RuntimeError(
                        f"Unsupported operator for {name} fallback: {schema.name}{name} fallback "
                        "doesn't work for operators with a mix mutable and non-mutable inputs "
                        "that alias with outputs, this must be implemented manually.  If you got "
                        "this error on a core op, please report a bug to PyTorch."
                    )
                is_write = w
        if is_write is False:  # a view: the bit travels with the key set
            return op.redispatch(below, *args, **kwargs)
        clone = ops.aten.clone.default
        mutable: list[tuple[Any, Any]] = []
        args = list(args)
        n = len(args)
        for i, a in enumerate(arguments):
            in_args = i < n and not a.kwarg_only
            value = args[i] if in_args else kwargs.get(a.name)
            if isinstance(value, Tensor):
                if not value._key_set & bit:
                    continue
                resolved = clone(value)
                if a.alias_info is not None:
                    if mutable:
                        raise RuntimeError(
                            f"{name} fallback does not support operators with more than one "
                            f"mutable tensors with {name}bit set to true."
                        )
                    mutable.append((value, resolved))
            elif isinstance(value, (list, tuple)) and any(has_bit(t) for t in value):
                if a.alias_info is not None:
                    raise RuntimeError(
                        f" fallback doesn't currently support mutable TensorLists with {name} "
                        f"inputs. Please materialize all the {name} input tensor(s) in the "
                        f"mutable TensorList inputs before calling {schema.name}"
                    )
                resolved = type(value)(clone(t) if has_bit(t) else t for t in value)
            else:
                continue
            if in_args:
                args[i] = resolved
            else:
                kwargs[a.name] = resolved
        out = op.redispatch(below, *args, **kwargs)
        for original, _cloned in mutable:
            original.copy_(out)
            out = original
        return out

    return fallback


# PyTorch's fallthroughs on both keys (ConjugateFallback.cpp, NegateFallback.cpp and
# MathBitFallThroughLists.h); view operators need none (the fallback passes views through).
_FALLTHROUGH = (
    "copy_",
    "clone",
    "conj_physical_",
    "resolve_conj",
    "resolve_neg",
    "empty_like",
    "empty.memory_format",
    "empty_strided",
    "full_like",
    "is_complex",
    "is_floating_point",
    "requires_grad_",
    "_has_same_storage_numel",
    "is_conj",
    "is_neg",
)
_CONJ_LINALG = ("dot", "vdot", "mm", "addmm", "bmm", "baddbmm")


def _register(key: DispatchKey, name: str, extra: tuple[str, ...]) -> Any:
    from ..dispatcher.operator import find_op

    lib = Library._internal("_", "IMPL")
    lib.fallback(_make_fallback(key, name), key.name, with_keyset=True, replace_builtin=True)
    aten = Library._internal("aten", "IMPL")
    for op_name in _FALLTHROUGH + extra:
        if find_op("aten::" + op_name) is not None:
            aten.impl(op_name, fallthrough_kernel, key.name)
    return lib, aten


conjugate_lib = _register(DispatchKey.Conjugate, "Conjugate", _CONJ_LINALG)
negative_lib = _register(DispatchKey.Negative, "negation", _CONJ_LINALG)


def _install_readers() -> None:
    from ..kernels.cpu.mathbits import _register_readers

    _register_readers()


_install_readers()
