"""CuPy kernels for fusion groups (fusion.Group): `cupy.ElementwiseKernel` / `ReductionKernel`
sources for the "cuda" device, the GPU counterpart of numba_codegen.py.

A group over the domain S = (R..., N) runs as a short sequence of stages, in the passes
numba_codegen's schedule gives (a full value that reads a reduction waits for it):

- a *reduction* stage per last-dimension reduction: one `ReductionKernel` over the (R, N) view,
  `axis=1`, whose map expression is a `__device__` function computing the reduced value from the
  group's inputs (so `x * rsqrt(mean(x*x) + eps) * w` reads x twice, never writes x*x);
- a *row* stage for values computed from reductions alone (mean + eps, its rsqrt): one
  `ElementwiseKernel` over (R,);
- a *full* stage for the full-level outputs of a pass: one `ElementwiseKernel` over (R, N).

Inputs are broadcast views ((R, N), (R, 1), (N,), ()) so a kernel reads a weight or a row value
without materializing it. Float math is the group's dtype (float32 stays float32, as PyTorch's
CUDA kernels accumulate float in float); max/min/clamp/relu propagate NaN as PyTorch's do.

Note [one source, two runners]: every piece of generated code is written in the subset of C++
that is also Python (infix arithmetic and comparisons, calls, `(float)(1.5)` casts) plus one
statement form per line (`float v0 = expr;`, `v0 = expr;`, `return expr;`), with the helpers
(`_maximum`, `_where`, ...) in a fixed C++ preamble (HELPERS). So the suite runs the very
source CuPy would compile through a NumPy stand-in (tests/cuda/cupy_standin.py, which defines
the helpers in NumPy); tools/gpu_check.py runs it with CuPy against the CPU results.

Compiled graphs on cuda tensors call `GroupKernels.run` for each group (cuda_graph.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..fx.node import Node
from .fusion import REDUCTIONS, Group, _meta, _opname
from .numba_codegen import _schedule, _shared_expr

__all__ = ["HELPERS", "Stage", "GroupKernels", "build"]

#: C types and CuPy parameter types of the dtypes a group may hold.
_CTYPE = {"float32": "float", "float64": "double", "bool": "bool"}

#: The fixed device helpers every kernel's preamble starts with (NaN-propagating as PyTorch).
HELPERS = """\
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
template <typename T> __device__ T _maximum(T a, T b) { return (a > b || a != a) ? a : b; }
template <typename T> __device__ T _minimum(T a, T b) { return (a < b || a != a) ? a : b; }
template <typename T> __device__ T _clamp_min(T x, T lo) { return x < lo ? lo : x; }
template <typename T> __device__ T _clamp_max(T x, T hi) { return x > hi ? hi : x; }
template <typename T> __device__ T _relu(T x) { return x < (T)0 ? (T)0 : x; }
template <typename T> __device__ T _where(bool c, T a, T b) { return c ? a : b; }
__device__ float _rsqrt(float x) { return rsqrtf(x); }
__device__ double _rsqrt(double x) { return rsqrt(x); }
"""

_IDENTITY = {"sum": "0", "mean": "0", "amax": "-INFINITY", "amin": "INFINITY"}
_REDUCE = {"sum": "a + b", "mean": "a + b", "amax": "_maximum(a, b)", "amin": "_minimum(a, b)"}


@dataclass
class Stage:
    """One CuPy kernel of a group: its constructor arguments and the values it reads / writes.

    `domain` "full" runs over (R, N), "row" over (R,); a "reduction" stage reduces (R, N) to
    (R,) along axis 1. `inputs` / `outputs` name values: `in<i>` (group inputs), `v<i>` (row
    values a stage materializes), `out<i>` (the group's full outputs)."""

    kind: str  # "elementwise" or "reduction"
    name: str
    domain: str
    in_params: str
    out_params: str
    inputs: list[str]
    outputs: list[str]
    operation: str = ""
    map_expr: str = ""
    reduce_expr: str = ""
    post_map_expr: str = ""
    identity: str = ""
    preamble: str = HELPERS

    def source(self) -> str:
        """The kernel as text: what CuPy compiles (for reading and for tests)."""
        head = f"// {self.kind} {self.name} ({self.in_params}) -> ({self.out_params})"
        if self.kind == "elementwise":
            return f"{head}\n{self.preamble[len(HELPERS) :]}{self.operation}"
        return (
            f"{head}\n{self.preamble[len(HELPERS) :]}map: {self.map_expr}\n"
            f"reduce: {self.reduce_expr}\npost_map: {self.post_map_expr}\n"
            f"identity: {self.identity}"
        )


@dataclass
class GroupKernels:
    """A group's CuPy stages and how to call them: `run(cp, inputs)` takes the group inputs (any
    shape holding the right number of elements, as numba_codegen's views) and returns the
    group's outputs as (R, N) or (R,) arrays, in `Group.outputs` order."""

    stages: list[Stage]
    rows: int
    n: int
    input_kinds: list[str]
    outputs: list[str]  # value name of each group output
    _built: dict[int, Any] = field(default_factory=dict)

    def source(self) -> str:
        return "\n\n".join(s.source() for s in self.stages)

    def _kernel(self, cp: Any, i: int) -> Any:
        key = id(cp) * 1000 + i
        k = self._built.get(key)
        if k is None:
            s = self.stages[i]
            if s.kind == "elementwise":
                k = cp.ElementwiseKernel(
                    s.in_params, s.out_params, s.operation, s.name, preamble=s.preamble
                )
            else:
                k = cp.ReductionKernel(
                    s.in_params,
                    s.out_params,
                    s.map_expr,
                    s.reduce_expr,
                    s.post_map_expr,
                    s.identity,
                    s.name,
                    preamble=s.preamble,
                )
            self._built[key] = k
        return k

    def run(self, cp: Any, inputs: list[Any]) -> list[Any]:
        r, n = self.rows, self.n
        view = {"full": (r, n), "row": (r, 1), "col": (n,), "scalar": ()}
        env: dict[str, Any] = {
            f"in{i}": x.reshape(view[kind])
            for i, (x, kind) in enumerate(zip(inputs, self.input_kinds))
        }
        for i, s in enumerate(self.stages):
            k = self._kernel(cp, i)
            shape = (r,) if s.domain == "row" else (r, n)
            args = []
            for name in s.inputs:
                a = env[name]
                if s.domain == "row":
                    a = a.reshape(()) if a.ndim == 0 else a.reshape(r)
                elif name.startswith("v"):  # a row value read by a full kernel
                    a = a.reshape(r, 1)
                args.append(cp.broadcast_to(a, shape))
            if s.kind == "reduction":
                res: Any = k(*args, axis=1)
            elif args:
                res = k(*args)
            else:
                res = k(size=r * (1 if s.domain == "row" else n))
            res = res if isinstance(res, tuple) else (res,)
            for name, value in zip(s.outputs, res):
                env[name] = value.reshape(shape) if s.kind == "elementwise" else value
        return [env[o] for o in self.outputs]


class _Writer:
    """C (and Python) expressions of one group's members (Note [one source, two runners])."""

    def __init__(self, g: Group) -> None:
        self.g = g
        dt = _meta(g.members[0]).dtype.name
        if dt not in ("float32", "float64"):
            raise NotImplementedError(f"cupy fusion: dtype {dt}")
        self.dt = dt
        self.ct = _CTYPE[dt]
        self.arg = {a: f"in{i}" for i, (a, _kind) in enumerate(g.inputs)}
        self.var = {m: f"v{i}" for i, m in enumerate(g.members)}

    def const(self, v: Any) -> str:
        text = repr(float(v))
        text = {"inf": "INFINITY", "-inf": "-INFINITY", "nan": "NAN"}.get(text, text)
        return f"({self.ct})({text})"

    def load(self, a: Any) -> str:
        if not isinstance(a, Node):
            return self.const(a)
        return self.var[a] if a in self.var else self.arg[a]

    def expr(self, m: Node) -> str:
        name = _opname(m)
        shared = _shared_expr(self, m, name, "sqrt({0})", "pow({0}, {1})")
        if shared is not None:
            return shared
        a = [self.load(x) if isinstance(x, (Node, int, float)) else "" for x in m.args]
        simple = {
            "mul": "{0} * {1}",
            "div": "{0} / {1}",
            "neg": "-{0}",
            "rsqrt": "_rsqrt({0})",
            "sqrt": "sqrt({0})",
            "reciprocal": self.const(1) + " / {0}",
            "square": "{0} * {0}",
            "abs": "fabs({0})",
            "relu": "_relu({0})",
            "clamp_min": "_clamp_min({0}, {1})",
            "clamp_max": "_clamp_max({0}, {1})",
            "maximum": "_maximum({0}, {1})",
            "minimum": "_minimum({0}, {1})",
            "threshold_backward": "_where({1} <= {2}, " + self.const(0) + ", {0})",
            "where": "_where({0}, {1}, {2})",
        }
        if name in simple:
            return simple[name].format(*a)
        if name == "clamp":
            x = a[0]
            lo = m.args[1] if len(m.args) > 1 else m.kwargs.get("min")
            hi = m.args[2] if len(m.args) > 2 else m.kwargs.get("max")
            if lo is not None:
                x = f"_clamp_min({x}, {self.load(lo)})"
            if hi is not None:
                x = f"_clamp_max({x}, {self.load(hi)})"
            return x
        raise NotImplementedError(name)  # pragma: no cover - fusion.POINTWISE lists these

    def ptype(self, name: str) -> str:
        """CuPy's parameter type of value `name`."""
        if name.startswith("in"):
            node = self.g.inputs[int(name[2:])][0]
            dt = _meta(node).dtype.name
            if dt not in _CTYPE:
                raise NotImplementedError(f"cupy fusion: input dtype {dt}")
            return dt
        return self.dt


def _reads(w: _Writer, members: list[Node]) -> list[str]:
    """Values from outside `members` that they read (group inputs and materialized row values),
    in first-use order."""
    inside = set(members)
    out: list[str] = []
    for m in members:
        for a in m.all_input_nodes:
            if a not in inside:
                name = w.load(a)
                if name not in out:
                    out.append(name)
    return out


def _closure(g: Group, roots: list[Node], full_pass: dict[Node, int]) -> list[Node]:
    """The full members `roots` need (themselves included), in group order."""
    need: set[Node] = set()
    stack = [r for r in roots if r in full_pass]
    while stack:
        x = stack.pop()
        if x in need:
            continue
        need.add(x)
        stack.extend(a for a in x.all_input_nodes if a in full_pass)
    return [m for m in g.members if m in need]


def build(g: Group, name: str = "kr_fused") -> GroupKernels:
    """The CuPy stages of fusion group `g` (raises NotImplementedError for a dtype or op the
    emitter does not write; the caller keeps the unfused path then)."""
    w = _Writer(g)
    ct = w.ct
    full_pass, row_avail = _schedule(g)
    reds = [m for m in g.members if _opname(m) in REDUCTIONS]
    red_pass = {m: full_pass.get(m.args[0], 0) for m in reds}
    outs = {m: f"out{i}" for i, m in enumerate(g.outputs) if g.level[m] == "full"}
    n_pass = 1 + max([*full_pass.values(), *red_pass.values(), 0])
    stages: list[Stage] = []
    s = g.shape
    rows = 1
    for d in s[:-1]:
        rows *= d

    def params(names: list[str], out: bool = False) -> str:
        return ", ".join(f"{w.ptype(x) if not out else w.dt} {x}" for x in names)

    def row_stage(k: int) -> None:
        members = [
            m
            for m in g.members
            if g.level[m] == "row" and row_avail.get(m, 0) == k and _opname(m) not in REDUCTIONS
        ]
        if not members:
            return
        names = [w.var[m] for m in members]
        body = [f"{w.var[m]} = {w.expr(m)};" for m in members]
        ins = _reads(w, members)
        stages.append(
            Stage(
                "elementwise",
                f"{name}_{len(stages)}",
                "row",
                params(ins),
                params(names, out=True),
                ins,
                names,
                operation="\n".join(body),
            )
        )

    for k in range(n_pass):
        row_stage(k)
        for m in [m for m in reds if red_pass[m] == k]:
            src = m.args[0]
            chain = _closure(g, [src], full_pass)
            ins = _reads(w, chain) if chain else [w.load(src)]
            fn = f"_map_{w.var[m]}"
            body = [f"    {ct} {w.var[x]} = {w.expr(x)};" for x in chain]
            args = ", ".join(f"{_CTYPE[w.ptype(x)]} {x}" for x in ins)
            pre = (
                HELPERS
                + f"__device__ {ct} {fn}({args}) {{\n"
                + "\n".join([*body, f"    return {w.load(src)};"])
                + "\n}\n"
            )
            op = _opname(m)
            post = f"{w.var[m]} = a" + (f" / {w.const(s[-1])}" if op == "mean" else "")
            stages.append(
                Stage(
                    "reduction",
                    f"{name}_{len(stages)}",
                    "full",
                    params(ins),
                    params([w.var[m]], out=True),
                    ins,
                    [w.var[m]],
                    map_expr=f"{fn}({', '.join(ins)})",
                    reduce_expr=_REDUCE[op],
                    post_map_expr=post,
                    identity=_IDENTITY[op],
                    preamble=pre,
                )
            )
        my_outs = [m for m in g.outputs if g.level[m] == "full" and full_pass[m] == k]
        if my_outs:
            chain = _closure(g, my_outs, full_pass)
            body = [f"{ct} {w.var[x]} = {w.expr(x)};" for x in chain]
            body += [f"{outs[m]} = {w.var[m]};" for m in my_outs]
            ins = _reads(w, chain)
            names = [outs[m] for m in my_outs]
            stages.append(
                Stage(
                    "elementwise",
                    f"{name}_{len(stages)}",
                    "full",
                    params(ins),
                    params(names, out=True),
                    ins,
                    names,
                    operation="\n".join(body),
                )
            )
    row_stage(n_pass)
    return GroupKernels(
        stages,
        rows,
        s[-1],
        [kind for _a, kind in g.inputs],
        [outs.get(m, w.var[m]) for m in g.outputs],
    )
