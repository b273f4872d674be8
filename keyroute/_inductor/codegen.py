"""The code generator: a functional aten graph -> a Python function calling NumPy directly.

`Kernel(gm).build()` writes one function whose arguments and results are NumPy arrays: each
node becomes a line from lowering.LOWERINGS (or a dispatcher call on wrapped arrays where no
lowering exists); a pointwise op whose input buffer dies there writes into it (`out=`), so a
pointwise chain reuses one buffer; views are NumPy views; matmuls are np.matmul (BLAS).

Note [probe]: NumPy's dtype and 0-d rules differ from PyTorch's in places (int / int, a
reduction's scalar result). The first build is run once on the example inputs, recording
every value; a value whose dtype differs from the graph's meta dtype gets a cast, one whose
shape differs (or a line that raised) falls back to the dispatcher, and the source is rebuilt.

The source is registered with linecache under `<inductor-kernel-N>`, so tracebacks and pdb
show it; KEYROUTE_LOGS=output_code prints it (torch's TORCH_LOGS=output_code).
"""

from __future__ import annotations

import linecache
import operator
from typing import Any

import numpy as np

from ..fx.node import Node
from ..tensor._tensor import Tensor, wrap_cpu
from . import direct, lowering

_COUNTER = [0]


def _sigmoid(x: Any) -> Any:
    e = np.exp(np.negative(x))
    e += 1
    return np.reciprocal(e, out=e) if isinstance(e, np.ndarray) else 1 / e


def _silu(x: Any) -> Any:
    s = _sigmoid(x)
    return np.multiply(x, s, out=s) if isinstance(s, np.ndarray) else x * s


def _softmax(x: Any, dim: int) -> Any:
    e = np.subtract(x, np.maximum.reduce(x, axis=dim, keepdims=True))
    np.exp(e, out=e)
    e /= np.add.reduce(e, axis=dim, keepdims=True)
    return e


def _log_softmax(x: Any, dim: int) -> Any:
    s = np.subtract(x, np.max(x, axis=dim, keepdims=True))
    s -= np.log(np.sum(np.exp(s), axis=dim, keepdims=True))
    return s


def _copy(dst: Any, src: Any) -> Any:
    out = np.empty_like(dst)
    out[...] = src
    return out


def _index_copy(a: Any, dim: int, i: Any, v: Any) -> Any:
    out = np.array(a, copy=True)
    idx = (slice(None),) * dim + (i,)
    out[idx] = v
    return out


def _index_copy_(a: Any, dim: int, i: Any, v: Any) -> Any:
    a[(slice(None),) * dim + (i,)] = v
    return a


def _copy_(dst: Any, src: Any) -> Any:
    np.copyto(dst, src)
    return dst


def _inplace_custom(op: Any, dtypes: Any, bases: list[Any], kwargs: dict[str, Any]) -> Any:
    """auto_functionalized_v2 re-inplaced: the custom op writes the input buffers themselves
    (no clones), as Inductor's reinplacing pass does when nothing reads the old values."""
    from .._higher_order_ops.auto_functionalize import _returns, mutated_args_of

    names = mutated_args_of(op)
    call = {k: _to_tensor(v, dtypes.get(k)) for k, v in kwargs.items()}
    for name, b, dt in zip(names, bases, dtypes["_all_bases"]):
        call[name] = _to_tensor(b, dt)
    kernel = _cpu_kernel(op) or op
    out = kernel(**call)
    return (*_from(_returns(op, out)), *bases)


def _cpu_kernel(op: Any) -> Any:
    """A custom (non-aten) operator's CPU kernel as a plain function, else None."""
    ns = getattr(op, "namespace", None)
    if ns in (None, "aten", "prims", "prim") or not hasattr(op, "_get_table"):
        return None
    from ..dispatcher.keys import DispatchKey

    entry = op._get_table().get(int(DispatchKey.CPU))
    if entry is None or entry[0].with_keyset or entry[0].fn is None:
        return None
    return entry[0].fn


def _to_tensor(x: Any, dt: Any) -> Any:
    if isinstance(x, np.ndarray):
        return wrap_cpu(x, dt) if dt is not None else wrap_cpu(x)
    if isinstance(x, np.generic):
        return wrap_cpu(np.asarray(x), dt) if dt is not None else wrap_cpu(np.asarray(x))
    return x


def _from(x: Any) -> Any:
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, (tuple, list)):
        return type(x)(_from(v) for v in x)
    return x


def _fallback(op: Any, dtypes: Any, args: Any, kwargs: Any) -> Any:
    """Run `op` through the dispatcher on the arrays wrapped as tensors (no lowering)."""

    def conv(v: Any, dt: Any) -> Any:
        if isinstance(v, (list, tuple)):
            dts = dt if isinstance(dt, (list, tuple)) else [None] * len(v)
            return type(v)(conv(x, d) for x, d in zip(v, dts))
        return _to_tensor(v, dt)

    a = tuple(conv(v, d) for v, d in zip(args, dtypes[0]))
    k = {n: conv(v, dtypes[1].get(n)) for n, v in kwargs.items()}
    return _from(op(*a, **k))


_GLOBALS = {
    "np": np,
    "_k_sigmoid": _sigmoid,
    "_k_silu": _silu,
    "_k_softmax": _softmax,
    "_k_log_softmax": _log_softmax,
    "_k_copy": _copy,
    "_k_index_copy": _index_copy,
    "_k_fallback": _fallback,
    "_k_index_copy_": _index_copy_,
    "_k_copy_": _copy_,
    "_k_inplace_custom": _inplace_custom,
    "_k_from": _from,
    **direct.GLOBALS,
}


# Operators whose result may alias their input (a buffer they read is never overwritten by a
# later `out=` while the alias may still be read).
_VIEWS = {
    "view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "unsqueeze",
    "squeeze", "slice", "select", "alias", "detach", "lift_fresh", "as_strided", "diagonal",
    "unbind", "split", "split_with_sizes", "chunk", "unfold", "narrow", "view_as_real",
    "view_as_complex", "flatten", "unflatten", "movedim", "swapaxes", "_reshape_alias",
}  # fmt: skip


def _group_inputs(g: Any) -> list[Node]:
    return [a for a, _kind in g.inputs]


def _is_view(n: Any) -> bool:
    t = n.target
    if t is operator.getitem:
        return True
    name = getattr(t, "_opname", None)
    return name is None or name in _VIEWS or getattr(t, "namespace", "aten") != "aten"


def _meta(n: Any) -> Any:
    return n.meta.get("val") if isinstance(n, Node) else None


class Kernel:
    """One graph's generated function (see the module docstring)."""

    def __init__(
        self, gm: Any, *, copy_back: dict[Any, Any] | None = None, cpu_backend: str = "numpy"
    ) -> None:
        self.gm = gm
        self.nodes = list(gm.graph.nodes)
        self.fallback: set[Node] = set()
        self.casts: dict[Node, Any] = {}
        self.names: dict[Node, str] = {}
        #: Output value node -> the placeholder it is written back into (the runner's
        #: epilogue): such a node may write the input's buffer directly (re-inplacing).
        self.copy_back = copy_back or {}
        self.globals: dict[str, Any] = dict(_GLOBALS)
        self.src = ""
        self.fn: Any = None
        self.lowered = 0
        self.fused = 0
        #: "numba": fusion groups become numba loop nests; "numpy": every node a NumPy call.
        self.cpu_backend = cpu_backend
        self.groups: list[Any] = []
        #: Seconds spent compiling (or loading from numba's cache) this graph's numba kernels.
        self.numba_compile_s = 0.0
        self.numba_sources: list[str] = []

    # -- helpers for lowerings -------------------------------------------------------------
    def shape(self, n: Node) -> tuple[int, ...]:
        return tuple(_meta(n).shape)

    def ndim(self, n: Node) -> int:
        v = _meta(n)
        return len(v.shape) if isinstance(v, Tensor) else 0

    def np_dtype(self, n: Node) -> str:
        v = _meta(n)
        dt = v.dtype.np
        name = f"dt_{dt.name}"
        self.globals[name] = dt
        return name

    def reuse(self, n: Node) -> str | None:
        """A dying input buffer `n` may write into: a temporary of this kernel with n's shape
        and dtype whose last use is n (Note: never a graph input, never a view)."""
        v = _meta(n)
        if not isinstance(v, Tensor) or not v.shape:
            return None
        for a in n.args:
            if not isinstance(a, Node) or a not in self._owning or a in self.fallback:
                continue
            av = _meta(a)
            if (
                isinstance(av, Tensor)
                and tuple(av.shape) == tuple(v.shape)
                and av.dtype == v.dtype
                and self._last_use.get(a) is n
                and list(n.args).count(a) == 1
                and not any(_is_view(u) for u in a.users)
            ):
                self.fused += 1
                return self.names[a]
        return None

    # -- building --------------------------------------------------------------------------
    def _src_arg(self, v: Any) -> str:
        if isinstance(v, Node):
            return self.names[v]
        if isinstance(v, (list, tuple)):
            inner = ", ".join(self._src_arg(x) for x in v)
            return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
        if isinstance(v, float):
            if v != v or v in (float("inf"), float("-inf")):
                return f"float('{v}')"
            return repr(v)
        if isinstance(v, (int, bool, str, type(None))):
            return repr(v)
        name = f"_c{len(self.globals)}"
        self.globals[name] = v
        return name

    def _dtypes_of(self, v: Any) -> Any:
        if isinstance(v, Node):
            m = _meta(v)
            return m.dtype if isinstance(m, Tensor) else None
        if isinstance(v, (list, tuple)):
            return [self._dtypes_of(x) for x in v]
        return None

    def build(self, probe: bool = False, fuse: bool = False) -> str:
        nodes: list[Any] = self.nodes
        self.names = {}
        self._last_use: dict[Node, Any] = {}
        self.groups = []
        self.numba_sources = []
        if fuse:  # the numba path: fusion groups become one item each (numba_codegen.py)
            from .fusion import emission_order, find_groups

            self.groups = find_groups(self.nodes, self.fallback | set(self.casts))
            if self.groups:
                nodes = emission_order(self.nodes, self.groups)
        for n in nodes:
            for a in n.all_input_nodes if isinstance(n, Node) else _group_inputs(n):
                self._last_use[a] = n
        # Buffers this kernel owns (fresh results of lowered pointwise / reduction lines).
        self._owning: set[Node] = set()
        self.fused = 0
        self.lowered = 0
        self._probing = probe  # direct.py: the probe calls custom ops' checked kernels
        self._direct: set[Node] = set()  # nodes calling a kernel directly (direct.py)
        params = []
        body: list[str] = []
        for n in nodes:
            if not isinstance(n, Node):
                from .numba_codegen import emit_group

                body.extend(emit_group(self, n))
                continue
            name = n.name
            self.names[n] = name
            if n.op == "placeholder":
                params.append(name)
                sym = _meta(n)
                if getattr(sym, "_kr_symint", False) and sym.expr != name:
                    body.append(f"{sym.expr} = {name}")  # a symbolic size, read at run time
                continue
            if n.op == "get_attr":
                self.globals[name] = _from(getattr(self.gm, n.target))
                continue
            if n.op == "output":
                outs = n.args[0]
                body.append(f"return ({''.join(self._src_arg(o) + ', ' for o in outs)})")
                continue
            expr = self._inplace(n) or self._expr(n)
            if n in self._direct:
                body.append(f"# {n.target}: no lowering, called through its CPU kernel, directly")
            elif expr.startswith("_k_fallback("):
                how = "its CPU kernel" if _cpu_kernel(n.target) else "the dispatcher"
                body.append(f"# {n.target}: no lowering, called through {how}")
            body.append(f"{name} = {expr}")
            if probe:
                body.append(f"_probe[{name!r}] = {name}")
        sig = ", ".join(params)
        lines = [f"def kernel({sig}):"] + ["    " + ln for ln in body]
        return "\n".join(lines) + "\n"

    def _inplace(self, n: Node) -> str | None:
        """The in-place form of `n` when its value goes back into an input nobody else reads."""
        if n in self.fallback:
            return None
        t = n.target
        name = getattr(t, "_opname", None) or getattr(t, "__name__", None) or str(t)
        if name == "auto_functionalized_v2":
            bases = n.kwargs.get("_all_bases", [])
            targets = set()
            for u in n.users:
                if u.target is operator.getitem and u in self.copy_back:
                    targets.add(self.copy_back[u])
            if not bases or not all(
                isinstance(b, Node) and b.op == "placeholder" and b in targets and len(b.users) == 1
                for b in bases
            ):
                return None
            kw = {k: v for k, v in n.kwargs.items() if k != "_all_bases"}
            fast = direct.direct_inplace(self, n, n.args[0], kw, list(bases))
            if fast is not None:
                return fast
            op = self._src_arg(n.args[0])
            dts = {k: self._dtypes_of(v) for k, v in kw.items()}
            dts["_all_bases"] = self._dtypes_of(list(bases))
            dname = f"_c{len(self.globals)}"
            self.globals[dname] = dts
            kws = ", ".join(f"{k!r}: {self._src_arg(v)}" for k, v in kw.items())
            bs = ", ".join(self._src_arg(b) for b in bases)
            return f"_k_inplace_custom({op}, {dname}, [{bs}], {{{kws}}})"
        target = self.copy_back.get(n)
        if target is None or not n.args or n.args[0] is not target:
            return None
        if len(target.users) != 1:
            from .lowering_loss import inplace_update

            return inplace_update(self, n, name, target)
        args = [self._src_arg(a) for a in n.args]
        if name == "index_copy":
            return f"_k_index_copy_({', '.join(args)})"
        if name == "copy":
            return f"_k_copy_({args[0]}, {args[1]})"
        return None

    def _expr(self, n: Node) -> str:
        t = n.target
        if t is operator.getitem:
            return f"{self._src_arg(n.args[0])}[{n.args[1]}]"
        name = getattr(t, "_opname", None)
        low = lowering.LOWERINGS.get(name) if name and n not in self.fallback else None
        if low is not None and getattr(t, "namespace", "aten") == "aten":
            try:
                args = [self._src_arg(a) for a in n.args]
                kwargs = {k: self._src_arg(v) for k, v in n.kwargs.items()}
                expr = low(self, n, *args, **kwargs)
            except TypeError:
                expr = None
            if expr is not None:
                self.lowered += 1
                if name in lowering.POINTWISE or name in ("sum", "mean", "mm", "matmul", "bmm"):
                    self._owning.add(n)
                cast = self.casts.get(n)
                if cast is not None:
                    self.globals[f"dt_{cast.name}"] = cast
                    expr = f"np.asarray({expr}).astype(dt_{cast.name})"
                return expr
        fast = direct.direct_kernel(self, n) if n not in self.fallback else None
        if fast is not None:
            return fast
        kern = _cpu_kernel(t)
        if kern is not None:
            t = kern  # a custom operator: its registered CPU kernel, called directly
        op = self._src_arg(t) if not isinstance(t, str) else repr(t)
        dts = (
            [self._dtypes_of(a) for a in n.args],
            {k: self._dtypes_of(v) for k, v in n.kwargs.items()},
        )  # noqa: E501
        dname = f"_c{len(self.globals)}"
        self.globals[dname] = dts
        args = ", ".join(self._src_arg(a) for a in n.args)
        kwargs = ", ".join(f"{k!r}: {self._src_arg(v)}" for k, v in n.kwargs.items())
        return (
            f"_k_fallback({op}, {dname}, ({args}{',' if len(n.args) == 1 else ''}), {{{kwargs}}})"
        )

    def compile(self, example: list[Any] | None) -> Any:
        """Build, probe on `example` (arrays) and fix up (Note [probe]); the function."""
        for _ in range(8):
            if example is None:
                break
            probe: dict[str, Any] = {}
            src = self.build(probe=True)
            ns = dict(self.globals, _probe=probe)
            exec(compile(src, "<inductor-probe>", "exec"), ns)
            try:
                ns["kernel"](*example)
                failed = None
            except Exception:  # noqa: BLE001 - the failing line falls back to the dispatcher
                failed = next(
                    (n for n in self.nodes if n.op == "call_function" and n.name not in probe),
                    None,
                )
            changed = False
            for n in self.nodes:
                if n.op != "call_function" or n.name not in probe:
                    continue
                want, got = _meta(n), probe[n.name]
                if not isinstance(want, Tensor):
                    continue
                gshape = tuple(np.shape(got))
                if gshape != tuple(want.shape):
                    if n not in self.fallback:
                        self.fallback.add(n)
                        changed = True
                    continue
                gdt = getattr(got, "dtype", None)
                if gdt is not None and gdt != want.dtype.np and n not in self.casts:
                    self.casts[n] = want.dtype.np
                    changed = True
            if failed is not None and failed not in self.fallback:
                self.fallback.add(failed)
                changed = True
            if not changed:
                break
        self.src = self.build(fuse=self.cpu_backend == "numba")
        if self.groups:
            from .numba_codegen import check_compiled

            if not check_compiled(self, example):
                self.src = self.build()
        _COUNTER[0] += 1
        filename = f"<inductor-kernel-{_COUNTER[0]}>"
        linecache.cache[filename] = (len(self.src), None, self.src.splitlines(True), filename)
        ns = dict(self.globals)
        exec(compile(self.src, filename, "exec"), ns)
        self.fn = ns["kernel"]
        self.filename = filename
        return self.fn
