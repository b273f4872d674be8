"""Direct kernel calls for the code generator: a custom operator's CPU kernel (and the CPU
attention kernel) resolved once, when the code is generated, and called on arrays wrapped
as cheaply as the kernel's calling convention (tensors in, tensors out) needs.

The generic fallback (codegen._fallback) converts every argument by walking it and its
recorded dtypes and goes through the dispatcher; for a decode step's ~150 custom-op and
attention nodes that walk cost as much as the kernels. Here the wrapping is decided per
argument at generation time: a graph value becomes `wrap_cpu(array, dtype)` with its meta
dtype bound, a constant is passed as it is, and a single-tensor result is unwrapped with
`._data` (Inductor's extern kernels likewise call the op's kernel, never the dispatcher).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dispatcher.schema import TENSOR
from ..fx.node import Node
from ..tensor._tensor import Tensor, wrap_cpu

__all__ = ["direct_kernel", "direct_inplace", "GLOBALS"]

# aten operators whose CPU kernel the generated code calls directly: the attention kernel
# reads only its tensors' arrays and dtypes, and has no lowering.
_DIRECT_ATEN = frozenset({"_scaled_dot_product_flash_attention_for_cpu"})


def _user_fn(op: Any, entry_fn: Any) -> Any:
    """A `custom_op`'s own CPU function, without the per-call wrapper that normalizes
    arguments and checks output aliasing (the probe run, which calls the wrapper, checks
    aliasing once; the graph's calls are positional, as the schema), else `entry_fn`."""
    from .._library.custom_ops import OPDEFS

    name = getattr(op, "_opname", None)
    ns = getattr(op, "namespace", None)
    opdef = OPDEFS.get(f"{ns}::{name}") if ns and name else None
    if opdef is None or getattr(opdef, "_opoverload", None) is not op:
        return entry_fn
    # A kernel registered for device type None serves every device, "cpu" among them.
    dev = "cpu" if "cpu" in opdef._backend_fns else None
    if dev in opdef._disabled_kernel or dev not in opdef._backend_fns:
        return entry_fn
    return opdef._backend_fns[dev]


def _resolve(op: Any) -> Any:
    """The plain function behind `op`'s CPU dispatch entry, or None."""
    if not hasattr(op, "_get_table"):
        return None
    ns = getattr(op, "namespace", None)
    if ns in (None, "prims", "prim"):
        return None
    if ns == "aten" and getattr(op, "_opname", None) not in _DIRECT_ATEN:
        return None
    from ..dispatcher.keys import DispatchKey

    entry = op._get_table().get(int(DispatchKey.CPU))
    if entry is None or entry[0].with_keyset or entry[0].fn is None:
        return None
    return entry[0].fn


def _wrap0(x: Any, dt: Any) -> Tensor:
    """A 0-d value: NumPy may hand a scalar (np.generic) where the graph has a tensor."""
    return wrap_cpu(x if isinstance(x, np.ndarray) else np.asarray(x), dt)


def direct_kernel(kernel: Any, n: Node) -> str | None:
    """The source of a direct call for node `n` (positional arguments only), or None."""
    op = n.target
    probe = kernel._probing
    fn = _resolve(op)
    schema = getattr(op, "_schema", None)
    if fn is None or schema is None:
        return None
    if op.namespace != "aten":
        # the graph calls a custom op positionally, as its schema (else the wrapper normalizes)
        if n.kwargs or len(n.args) != len(schema.arguments):
            return None
        if not probe:
            fn = _user_fn(op, fn)
    parts = []
    items = [(None, a) for a in n.args] + list(n.kwargs.items())
    for key, a in items:
        pre = "" if key is None else f"{key}="
        if isinstance(a, Node):
            m = a.meta.get("val")
            if not isinstance(m, Tensor):
                return None
            src = kernel._src_arg(a)
            w = "_k_w0" if m.dim() == 0 else "_k_w"
            parts.append(f"{pre}{w}({src}, {kernel._src_arg(m.dtype)})")
        elif isinstance(a, (list, tuple)) and any(isinstance(x, Node) for x in a):
            return None  # tensor lists: the generic path
        else:
            parts.append(pre + kernel._src_arg(a))
    call = f"{kernel._src_arg(fn)}({', '.join(parts)})"
    kernel._direct.add(n)
    rets = schema.returns
    if len(rets) == 1 and rets[0].kind == TENSOR and isinstance(n.meta.get("val"), Tensor):
        return f"{call}._data"
    return f"_k_from({call})"


def direct_inplace(
    kernel: Any, n: Node, op: Any, kw: dict[str, Any], bases: list[Any]
) -> str | None:
    """The source of a re-inplaced auto_functionalized_v2 node calling the custom op's CPU
    kernel directly on the base buffers (codegen._inplace_custom without its per-call
    lookups), or None where the generic path is needed."""
    from .._higher_order_ops.auto_functionalize import mutated_args_of

    fn = _resolve(op)
    schema = getattr(op, "_schema", None)
    if fn is None or schema is None or len(schema.returns) > 1:
        return None
    if schema.returns and schema.returns[0].kind != TENSOR:
        return None
    if not kernel._probing:
        fn = _user_fn(op, fn)
    parts = []
    for name, b in zip(mutated_args_of(op), bases):
        parts.append((name, b))
    parts.extend(kw.items())
    srcs = []
    for name, v in parts:
        if isinstance(v, Node):
            m = v.meta.get("val")
            if not isinstance(m, Tensor):
                return None
            w = "_k_w0" if m.dim() == 0 else "_k_w"
            srcs.append(f"{name}={w}({kernel._src_arg(v)}, {kernel._src_arg(m.dtype)})")
        elif isinstance(v, (list, tuple)) and any(isinstance(x, Node) for x in v):
            return None
        else:
            srcs.append(f"{name}={kernel._src_arg(v)}")
    bs = "".join(kernel._src_arg(b) + ", " for b in bases)
    call = f"{kernel._src_arg(fn)}({', '.join(srcs)})"
    kernel._direct.add(n)
    if schema.returns:
        return f"_k_ret1({call}, {bs})"
    return f"_k_ret0({call}, {bs})"


def _ret0(_: Any, *bases: Any) -> tuple[Any, ...]:
    return bases


def _ret1(out: Any, *bases: Any) -> tuple[Any, ...]:
    return (out._data if isinstance(out, Tensor) else out, *bases)


GLOBALS = {"_k_w": wrap_cpu, "_k_w0": _wrap0, "_k_ret0": _ret0, "_k_ret1": _ret1}
