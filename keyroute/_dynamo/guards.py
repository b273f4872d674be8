"""Guards: what a compiled variant depended on, as one hashable key per call.

A variant is looked up by its key in a dict, so checking every guard is one tuple build and
one hash (Note [guard key]): per tensor input its shape, strides, dtype and dispatch key set
(device, requires_grad and the other keys, as PyTorch's TENSOR_MATCH guard); per non-tensor
input its type and value; grad mode; and a token for the module state (its parameters'
identities and its submodules' plain attributes, re-read only when some Module.__setattr__
ran since the last call) and the globals the function reads.
"""

from __future__ import annotations

from typing import Any

from numpy import ndarray

from ..autograd.grad_mode import is_grad_enabled
from ..tensor._tensor import Tensor
from ..utils._pytree import tree_flatten

_SCALARS = (int, float, bool, str, type(None), complex)


def leaf_key(a: Any) -> Any:
    if isinstance(a, Tensor):
        d = a._data
        return (d.shape, getattr(d, "strides", None) or a.stride(), a._dtype, a._key_set)
    if isinstance(a, _SCALARS):
        return (type(a), a)
    if isinstance(a, (tuple, list)) and all(isinstance(x, _SCALARS) for x in a):
        return (type(a), tuple(a))
    return ("id", id(a))


def args_key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, list[Any], Any]:
    """(key, flat leaves, treespec or None when args are flat leaves)."""
    if not kwargs:
        out = []
        for a in args:
            if isinstance(a, Tensor):
                d = a._data
                if type(d) is ndarray:  # the common case, inlined (Note [guard key])
                    out.append((d.shape, d.strides, a._dtype, a._key_set))
                else:
                    out.append(leaf_key(a))
            elif isinstance(a, _SCALARS):
                out.append((type(a), a))
            else:
                break
        else:
            return tuple(out), list(args), None
    leaves, spec = tree_flatten((args, kwargs))
    return (str(spec), *(leaf_key(a) for a in leaves)), leaves, spec


def global_state() -> Any:
    return is_grad_enabled()


def _dtype_name(dt: Any) -> str:
    return {
        "float32": "Float",
        "float64": "Double",
        "float16": "Half",
        "bfloat16": "BFloat16",
        "int64": "Long",
        "int32": "Int",
        "int16": "Short",
        "int8": "Char",
        "uint8": "Byte",
        "bool": "Bool",
        "complex64": "ComplexFloat",
        "complex128": "ComplexDouble",
    }.get(str(dt).replace("keyroute.", ""), str(dt))


def failure_reason(old: Any, new: Any, names: list[str], old_state: Any, new_state: Any) -> str:
    """PyTorch's wording of the first guard that fails for `new` against variant `old`."""
    if old_state != new_state:
        return "GLOBAL_STATE changed: grad_mode "
    if isinstance(old, tuple) and isinstance(new, tuple) and len(old) == len(new):
        off = 1 if old and isinstance(old[0], str) else 0
        for i, (o, n) in enumerate(zip(old[off:], new[off:])):
            if o == n:
                continue
            name = names[i] if i < len(names) else f"arg{i}"
            if isinstance(o, tuple) and len(o) == 4 and isinstance(n, tuple) and len(n) == 4:
                (os_, ost, odt, oks), (ns, nst, ndt, nks) = o, n
                if odt != ndt:
                    return (
                        f"tensor '{name}' dtype mismatch. expected {_dtype_name(odt)}, "
                        f"actual {_dtype_name(ndt)}"
                    )
                if len(os_) != len(ns):
                    return f"tensor '{name}' rank mismatch. expected {len(os_)}, actual {len(ns)}"
                for j, (a, b) in enumerate(zip(os_, ns)):
                    if a != b:
                        return (
                            f"tensor '{name}' size mismatch at index {j}. expected {a}, actual {b}"
                        )
                if ost != nst:
                    return f"tensor '{name}' stride mismatch"
                from ..dispatcher.keyset import REQUIRES_GRAD_BIT

                if (oks ^ nks) & REQUIRES_GRAD_BIT:
                    return (
                        f"tensor '{name}' requires_grad mismatch. expected "
                        f"requires_grad={int(bool(oks & REQUIRES_GRAD_BIT))}"
                    )
                return f"tensor '{name}' dispatch key set mismatch"
            if isinstance(o, tuple) and len(o) == 2 and o[0] in _SCALARS:
                return f"{name} == {o[1]!r}"
            return f"{name} changed"
    return "___check_obj_id or module state changed"


def masked(key: Any, dynamic: dict[int, set[int]]) -> Any:
    """`key` with the sizes marked dynamic blanked (for the recompile limit's count: PyTorch
    compiles one dynamic graph where keyroute keeps one variant per size)."""
    if not dynamic or not isinstance(key, tuple):
        return key
    out = list(key)
    for i, dims in dynamic.items():
        if i < len(out) and isinstance(out[i], tuple) and len(out[i]) == 4:
            shape = tuple(-1 if j in dims else s for j, s in enumerate(out[i][0]))
            out[i] = (shape, None, out[i][2], out[i][3])
    return tuple(out)


def new_dynamic_dims(old: Any, new: Any) -> dict[int, set[int]]:
    """Sizes that differ between two keys that differ in nothing else (automatic dynamic)."""
    found: dict[int, set[int]] = {}
    if not (isinstance(old, tuple) and isinstance(new, tuple) and len(old) == len(new)):
        return found
    for i, (o, n) in enumerate(zip(old, new)):
        if o == n:
            continue
        if not (isinstance(o, tuple) and len(o) == 4 and isinstance(n, tuple) and len(n) == 4):
            return {}
        if o[2] != n[2] or o[3] != n[3] or len(o[0]) != len(n[0]):
            return {}
        found[i] = {j for j, (a, b) in enumerate(zip(o[0], n[0])) if a != b}
    return found
