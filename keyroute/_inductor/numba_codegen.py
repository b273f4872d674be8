"""numba kernels for fusion groups (fusion.Group): the loop nest's source, its on-disk cache and
the line of the NumPy-level kernel that calls it.

Each group becomes one function `kernel(R, N, in0, ..., out0, ...)` over 2-d views of its full
inputs and outputs (R rows of N), 1-d views of row / col inputs and 1-element views of scalars.
Compiled with `fastmath={"reassoc", "contract"}` (so sums vectorize; no `nnan`/`ninf`:
NaN and inf propagate as in eager), `error_model="numpy"` (x / 0 is inf, not an exception),
`cache=True` and no `parallel` (the issue's settings).

Note [numba cache]: numba caches a function by its source file, so each kernel's source is
written to `<cache dir>/k_<sha1 of the source>.py` (written once, never rewritten: numba
checks the file's timestamp) and imported from there; the same group in a later process loads
its machine code from numba's cache (`__pycache__` next to the file) instead of compiling.
"""

from __future__ import annotations

import getpass
import hashlib
import importlib.util
import os
import sys
import tempfile
from typing import Any

from ..fx.node import Node
from . import config
from .fusion import REDUCTIONS, Group, _meta, _opname

_LOADED: dict[str, Any] = {}
_FASTMATH = '{"reassoc", "contract"}'


def cache_dir() -> str:
    d = config.cache_dir or os.environ.get("KEYROUTE_CACHE_DIR")
    if not d:
        try:
            user = getpass.getuser()
        except Exception:  # noqa: BLE001 - no user name (containers): a shared folder
            user = "user"
        d = os.path.join(tempfile.gettempdir(), f"keyroute_inductor_{user}")
    return d


class _Writer:
    """Scalar expressions of one group's members, per level, as numba source."""

    def __init__(self, g: Group) -> None:
        self.g = g
        self.dt = _meta(g.members[0]).dtype.name
        self.consts: dict[str, str] = {}
        self.arg: dict[Node, str] = {}
        for i, (a, _kind) in enumerate(g.inputs):
            self.arg[a] = f"in{i}"
        self.kind = dict(g.inputs)
        self.var = {m: f"v{i}" for i, m in enumerate(g.members)}

    def const(self, v: Any) -> str:
        text = repr(float(v))
        if text in ("inf", "-inf", "nan"):
            text = f"np.{text.lstrip('-')}" if not text.startswith("-") else "-np.inf"
        name = self.consts.setdefault(text, f"K{len(self.consts)}")
        return name

    def load(self, a: Any) -> str:
        if not isinstance(a, Node):
            return self.const(a)
        if a in self.var:
            return self.var[a]
        kind, name = self.kind[a], self.arg[a]
        return {"full": f"{name}[r, j]", "row": f"{name}[r]", "col": f"{name}[j]"}.get(
            kind, f"{name}[0]"
        )

    def expr(self, m: Node) -> str:
        name = _opname(m)
        shared = _shared_expr(self, m, name, "np.sqrt({0})", "{0} ** {1}")
        if shared is not None:
            return shared
        a = [self.load(x) if isinstance(x, (Node, int, float)) else "" for x in m.args]
        if name == "mul":
            return f"{a[0]} * {a[1]}"
        if name == "div":
            return f"{a[0]} / {a[1]}"
        if name == "neg":
            return f"-{a[0]}"
        if name == "rsqrt":
            return f"{self.const(1)} / np.sqrt({a[0]})"
        if name == "sqrt":
            return f"np.sqrt({a[0]})"
        if name == "reciprocal":
            return f"{self.const(1)} / {a[0]}"
        if name == "square":
            return f"{a[0]} * {a[0]}"
        if name == "abs":
            return f"abs({a[0]})"
        # NaN-propagating max/min as PyTorch's (a NaN on either side wins).
        if name == "relu":
            return f"({a[0]} if not {a[0]} < {self.const(0)} else {self.const(0)})"
        if name == "clamp_min":
            return f"({a[0]} if not {a[0]} < {a[1]} else {a[1]})"
        if name == "clamp_max":
            return f"({a[0]} if not {a[0]} > {a[1]} else {a[1]})"
        if name == "clamp":
            x = a[0]
            lo = m.args[1] if len(m.args) > 1 else m.kwargs.get("min")
            hi = m.args[2] if len(m.args) > 2 else m.kwargs.get("max")
            if lo is not None:
                lo_s = self.load(lo)
                x = f"({x} if not {x} < {lo_s} else {lo_s})"
            if hi is not None:
                hi_s = self.load(hi)
                x = f"({x} if not {x} > {hi_s} else {hi_s})"
            return x
        if name == "maximum":
            return f"({a[0]} if ({a[0]} > {a[1]} or {a[0]} != {a[0]}) else {a[1]})"
        if name == "minimum":
            return f"({a[0]} if ({a[0]} < {a[1]} or {a[0]} != {a[0]}) else {a[1]})"
        if name == "threshold_backward":
            return f"({self.const(0)} if {a[1]} <= {a[2]} else {a[0]})"
        if name == "where":
            return f"({a[1]} if {a[0]} else {a[2]})"
        raise NotImplementedError(name)  # pragma: no cover - fusion.POINTWISE lists these


def _schedule(g: Group) -> tuple[dict[Node, int], dict[Node, int]]:
    """(pass of each full member, pass before which each row member is ready)."""
    full_pass: dict[Node, int] = {}
    row_avail: dict[Node, int] = {}
    for m in g.members:
        if _opname(m) in REDUCTIONS:
            row_avail[m] = full_pass.get(m.args[0], 0) + 1
            continue
        p = 0
        for a in m.all_input_nodes:
            if a in full_pass:
                p = max(p, full_pass[a])
            elif a in row_avail:
                p = max(p, row_avail[a])
        if g.level[m] == "full":
            full_pass[m] = p
        else:
            row_avail[m] = p
    return full_pass, row_avail


def source(g: Group) -> tuple[str, list[str]]:
    """The module source of g's kernel and the names of its members, for the comment."""
    w = _Writer(g)
    full_pass, row_avail = _schedule(g)
    reds = [m for m in g.members if _opname(m) in REDUCTIONS]
    red_pass = {m: full_pass.get(m.args[0], 0) for m in reds}
    outs = {m: f"out{i}" for i, m in enumerate(g.outputs)}
    n_pass = 1 + max([*full_pass.values(), *red_pass.values(), 0])
    body = ["for r in range(R):"]

    def row_nodes_ready(k: int) -> list[str]:
        lines = []
        for m in g.members:
            if g.level[m] != "row" or row_avail.get(m, 0) != k:
                continue
            if _opname(m) in REDUCTIONS:
                continue
            lines.append(f"{w.var[m]} = {w.expr(m)}")
            if m in outs:
                lines.append(f"{outs[m]}[r] = {w.var[m]}")
        return lines

    for k in range(n_pass):
        body += ["    " + ln for ln in row_nodes_ready(k)]
        my_reds = [m for m in reds if red_pass[m] == k]
        my_outs = [m for m in g.outputs if g.level[m] == "full" and full_pass[m] == k]
        if not my_reds and not my_outs:
            continue
        need: set[Node] = set()
        stack = [m.args[0] for m in my_reds if m.args[0] in full_pass] + my_outs
        while stack:
            x = stack.pop()
            if x in need:
                continue
            need.add(x)
            stack.extend(a for a in x.all_input_nodes if a in full_pass)
        for m in my_reds:
            init = {"sum": 0, "mean": 0, "amax": float("-inf"), "amin": float("inf")}
            body.append(f"    {w.var[m]} = {w.const(init[_opname(m)])}")
        body.append("    for j in range(N):")
        for m in g.members:
            if m in need:
                body.append(f"        {w.var[m]} = {w.expr(m)}")
        for m in my_reds:
            v, x = w.var[m], w.load(m.args[0])
            op = _opname(m)
            if op in ("sum", "mean"):
                body.append(f"        {v} += {x}")
            elif op == "amax":
                body.append(f"        {v} = {x} if ({x} > {v} or {x} != {x}) else {v}")
            else:
                body.append(f"        {v} = {x} if ({x} < {v} or {x} != {x}) else {v}")
        for m in my_outs:
            body.append(f"        {outs[m]}[r, j] = {w.var[m]}")
        for m in my_reds:
            if _opname(m) == "mean":
                body.append(f"    {w.var[m]} = {w.var[m]} / DT(N)")
            if m in outs:
                body.append(f"    {outs[m]}[r] = {w.var[m]}")
    body += ["    " + ln for ln in row_nodes_ready(n_pass)]
    params = ["R", "N"] + [f"in{i}" for i in range(len(g.inputs))] + list(outs.values())
    head = [
        "import numpy as np",
        "from numba import njit",
        "",
        f"DT = np.{w.dt}",
    ]
    head += [f"{name} = DT({text})" for text, name in w.consts.items()]
    head += [
        "",
        "",
        f'@njit(fastmath={_FASTMATH}, error_model="numpy", cache=True)',
        f"def kernel({', '.join(params)}):",
    ]
    return "\n".join(head + ["    " + ln for ln in body]) + "\n", [m.name for m in g.members]


def load(src: str) -> Any:
    """The numba dispatcher for kernel source `src` (Note [numba cache])."""
    key = hashlib.sha1(src.encode()).hexdigest()[:20]
    fn = _LOADED.get(key)
    if fn is not None:
        return fn
    d = cache_dir()
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, f"k_{key}.py")
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(src)
        os.replace(tmp, path)
    name = f"keyroute_inductor_k_{key}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    # numba's cache finds the function's module by name when it loads the machine code.
    sys.modules[name] = mod
    from ..kernels.cpu._jit import _unhooked_print

    with _unhooked_print():  # its `from numba import njit` may be numba's first import
        spec.loader.exec_module(mod)
    fn = mod.kernel
    fn.keyroute_path = path
    _LOADED[key] = fn
    return fn


def emit_group(k: Any, g: Group) -> list[str]:
    """The NumPy-level lines that run group `g` (codegen.Kernel.build): allocate its outputs,
    call its numba kernel on 2-d / 1-d views."""
    src, names = source(g)
    fn = load(src)
    idx = len(k.numba_sources)
    k.numba_sources.append(src)
    kname = f"_k_numba{idx}"
    k.globals[kname] = fn
    s = g.shape
    rows = 1
    for d in s[:-1]:
        rows *= d
    n = s[-1]
    view = {"full": f".reshape({rows}, {n})", "row": f".reshape({rows})", "col": f".reshape({n})"}
    lines = [f"# fused {', '.join(names)}: numba kernel {os.path.basename(fn.keyroute_path)}"]
    args = [str(rows), str(n)]
    for a, kind in g.inputs:
        args.append(f"{k.names[a]}{view.get(kind, '.reshape(1)')}")
    for m in g.outputs:
        name = m.name
        k.names[m] = name
        k._owning.add(m)
        shape = tuple(_meta(m).shape)
        lines.append(f"{name} = np.empty({shape!r}, dtype={k.np_dtype(m)})")
        args.append(f"{name}{view['full' if g.level[m] == 'full' else 'row']}")
    lines.append(f"{kname}({', '.join(args)})")
    return lines


def check_compiled(k: Any, example: list[Any] | None) -> bool:
    """Compile (or load from the cache) the kernel's numba functions by running the built source
    once on the probe inputs; False when numba refused one (the caller rebuilds without
    fusion, so a typing gap costs speed, never a wrong answer)."""
    import logging
    import time

    import numpy as np

    if example is None:
        return True
    ns = dict(k.globals)
    t0 = time.perf_counter()
    try:
        exec(compile(k.src, "<inductor-numba-check>", "exec"), ns)
        with np.errstate(all="ignore"):
            ns["kernel"](*example)
    except Exception as e:  # noqa: BLE001 - any numba failure falls back to the NumPy path
        logging.getLogger("keyroute._inductor").warning(
            "numba kernel failed to compile (%s: %s); using the NumPy path for this graph",
            type(e).__name__,
            e,
        )
        k.groups = []
        return False
    k.numba_compile_s = time.perf_counter() - t0
    return True


def _shared_expr(cg: Any, m: Node, name: str, sqrt: str, power: str) -> str | None:
    """The expression both element-loop back ends (this one and cupy_codegen's CUDA C) write
    alike, in the target's spelling of sqrt and power; None for the rest. The operands are
    loaded in the same order as the back ends' own cases (numba numbers its constants so)."""
    if name in ("expand", "detach", "alias", "clone"):
        return cg.load(m.args[0])
    if name == "pow":
        x, e = cg.load(m.args[0]), m.args[1]
        if e in (1, 2, 3):
            return " * ".join([x] * int(e))
        if e == 0.5:
            return sqrt.format(x)
        if e == 0:
            return cg.const(1)
        return power.format(x, cg.const(e))
    if name in ("add", "sub"):
        a = [cg.load(x) if isinstance(x, (Node, int, float)) else "" for x in m.args]
        alpha = m.kwargs.get("alpha", 1)
        b = a[1] if alpha == 1 else f"({a[1]} * {cg.const(alpha)})"
        return f"{a[0]} {'+' if name == 'add' else '-'} {b}"
    return None
