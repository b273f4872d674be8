"""Tensors a compiled function reaches without taking them as arguments: through its closure,
the globals it names, the object a bound method belongs to (`opt.step`: the optimizer's
param_groups and state), and the attributes of non-tensor arguments. As Dynamo does, they are
graph inputs, not constants, so `keyroute.compile(opt.step)` updates the real parameters.

Note [lifting by walk]: no bytecode is read, so the sources are found by walking the roots
(closure cells, globals, `__self__`, object arguments) through dicts, lists, tuples, object
`__dict__`s and each tensor's `.grad`, in a fixed order, depth- and size-bounded. The walk gives
(1) a fingerprint, part of the guard key: container types and lengths, scalar values, each
tensor's metadata and its first-seen index (so aliasing is guarded, and a parameter reached
twice, once in param_groups and once as a state key, is one input), and (2) the tensors, in
walk order. A variant keeps the walk indices of the tensors its trace used; each call re-walks
and passes the tensors found at those places, so a new `.grad` object after `zero_grad()` needs
no recompile, while a structural change (a state entry created, a grad gone) does.

Note [trace-time stores]: a tensor the trace creates and stores into a walked structure (SGD's
first momentum buffer, Adam's state) is found by walking again after the trace (a FakeTensor
where the walk reaches it); it becomes an extra graph output, and after each run the real
output is stored at that place, as Dynamo replays its side effects. A store that cannot be
replayed puts the structure back as it was before the trace and runs the call eagerly.
"""

from __future__ import annotations

import itertools
import types
from typing import Any

from ..tensor._tensor import Tensor
from .guards import leaf_key

_SCALARS = (int, float, bool, str, complex, type(None), bytes)
_OPAQUE = (
    types.ModuleType,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.BuiltinMethodType,
    types.CodeType,
)
MAX_DEPTH = 8
MAX_ENTRIES = 4000


class Walk:
    """One walk of the roots: fingerprint, tensors (walk order), their paths."""

    __slots__ = ("fp", "tensors", "paths", "fakes", "snapshots", "_seen", "_objs", "_snap")

    def __init__(self, snapshot: bool = False) -> None:
        self.fp: list[Any] = []
        self.tensors: list[Tensor] = []
        self.paths: list[tuple[Any, ...]] = []
        self.fakes: list[tuple[tuple[Any, ...], Tensor]] = []
        self.snapshots: list[tuple[Any, Any]] = []
        self._seen: dict[int, int] = {}
        self._objs: set[int] = set()
        self._snap = snapshot

    def visit(self, v: Any, path: tuple[Any, ...], depth: int) -> bool:
        """Walk `v`; True when a tensor lies under it. A part with no tensor is guarded by its
        identity only (its scalars are not read at each call: a list the function appends to
        as a trace-time side effect does not recompile it)."""
        fp = self.fp
        if isinstance(v, Tensor):
            i = self._seen.get(id(v))
            if i is not None:
                fp.append(("t", i))
                return True
            if _is_fake(v):
                self.fakes.append((path, v))
                fp.append("fake")
                return True
            self._seen[id(v)] = len(self.tensors)
            self.tensors.append(v)
            self.paths.append(path)
            fp.append(leaf_key(v))
            ag = v._autograd_meta  # not .grad: a non-leaf's .grad warns
            g = None if ag is None else ag.grad
            if g is None:
                fp.append(None)
            else:
                self.visit(g, (*path, ("attr", "grad")), depth + 1)
            return True
        if isinstance(v, _SCALARS):
            fp.append((type(v), v))
            return False
        if isinstance(v, _OPAQUE) or depth > MAX_DEPTH or len(fp) > MAX_ENTRIES:
            fp.append(("id", id(v)))
            return False
        t = type(v)
        if id(v) in self._objs:
            fp.append(("seen", id(v)))
            return False
        start = len(fp)
        found = False
        if isinstance(v, _module_type()):
            self._objs.add(id(v))
            found = self._module(v, path, depth)
        elif isinstance(v, dict):
            self._objs.add(id(v))
            fp.append((t, len(v)))
            if self._snap:
                self.snapshots.append((v, dict(v)))
            for j, (k, x) in enumerate(list(v.items())):
                if isinstance(k, Tensor):
                    found = self.visit(k, (*path, ("key", j)), depth + 1) or found
                else:
                    fp.append(k if isinstance(k, _SCALARS) else ("id", id(k)))
                found = self.visit(x, (*path, ("item", k)), depth + 1) or found
        elif isinstance(v, (list, tuple)):
            self._objs.add(id(v))
            fp.append((t, len(v)))
            if self._snap and isinstance(v, list):
                self.snapshots.append((v, list(v)))
            for i, x in enumerate(v):
                found = self.visit(x, (*path, ("item", i)), depth + 1) or found
        else:
            d = getattr(v, "__dict__", None)
            if type(d) is not dict:
                fp.append((t, id(v)))
                return False
            self._objs.add(id(v))
            self._objs.add(id(d))
            fp.append((t, len(d)))
            if self._snap:
                self.snapshots.append((d, dict(d)))
            items = list(d.items())
            if "param_groups" in d:  # an optimizer: its parameters are named by their group
                items.sort(key=lambda kv: kv[0] != "param_groups")
            for k, x in items:
                fp.append(k)
                found = self.visit(x, (*path, ("attr", k)), depth + 1) or found
        if not found:
            del fp[start:]
            fp.append(("id", id(v)))
        return found

    def _module(self, m: Any, path: tuple[Any, ...], depth: int) -> bool:
        """An nn.Module: its parameters, buffers, submodules and plain attribute values
        (not its hook dicts and other internals: a module is walked at every call)."""
        fp = self.fp
        d = m.__dict__
        fp.append(type(m))
        if self._snap:
            self.snapshots += [(d, dict(d)), (d["_parameters"], dict(d["_parameters"]))]
            self.snapshots.append((d["_buffers"], dict(d["_buffers"])))
        for k, x in d.items():
            if isinstance(x, _SCALARS):
                fp.append((k, x))
            elif isinstance(x, Tensor):
                self.visit(x, (*path, ("attr", k)), depth + 1)
        for store in ("_parameters", "_buffers"):
            for k, x in d[store].items():
                fp.append(k)
                self.visit(x, (*path, ("attr", store), ("item", k)), depth + 1)
        for k, sub in d["_modules"].items():
            fp.append(k)
            if sub is None or id(sub) in self._objs:
                fp.append(("id", id(sub)))
                continue
            self._objs.add(id(sub))
            self._module(sub, (*path, ("attr", "_modules"), ("item", k)), depth + 1)
        return True


_CLASSES: list[Any] = []


def _module_type() -> Any:
    if not _CLASSES:
        from ..nn.modules.module import Module
        from ..subclasses.fake_tensor import FakeTensor

        _CLASSES.extend((Module, FakeTensor))
    return _CLASSES[0]


def _is_fake(t: Tensor) -> bool:
    if not _CLASSES:
        _module_type()
    return isinstance(t, _CLASSES[1])


def roots_of(fn: Any, module: Any, leaves: list[Any] | None) -> list[tuple[Any, str, Any]]:
    """(holder, kind, key) of each root: `kind` "attr" (holder.key) or "item" (holder[key])."""
    out: list[tuple[Any, str, Any]] = []
    f = getattr(fn, "__func__", fn)
    owner = getattr(fn, "__self__", None)
    if owner is not None and owner is not module and not isinstance(owner, _OPAQUE):
        out.append((fn, "attr", "__self__"))
    code = getattr(f, "__code__", None)
    cells = getattr(f, "__closure__", None)
    if code is not None and cells:
        for cell in cells:
            out.append((cell, "attr", "cell_contents"))
    g = getattr(f, "__globals__", None)
    if code is not None and g is not None:
        for n in code.co_names:
            v = g.get(n, _ABSENT)
            if v is _ABSENT or isinstance(v, _OPAQUE) or isinstance(v, _SCALARS):
                continue
            if isinstance(v, Tensor):
                continue  # global tensors: guarded by identity (CompiledFunction._globals_key)
            out.append((g, "item", n))
    if leaves:
        for i, a in enumerate(leaves):
            if not isinstance(a, (Tensor, *_SCALARS, *_OPAQUE)):
                out.append((leaves, "item", i))
    return out


_ABSENT = object()


def _read(holder: Any, kind: str, key: Any) -> Any:
    if kind == "attr":
        try:
            return getattr(holder, key)
        except ValueError:  # an empty closure cell
            return None
    return holder[key]


def walk(roots: list[tuple[Any, str, Any]], snapshot: bool = False) -> Walk:
    w = Walk(snapshot)
    for r, (holder, kind, key) in enumerate(roots):
        w.visit(_read(holder, kind, key), (r,), 0)
    return w


def store(roots: list[tuple[Any, str, Any]], path: tuple[Any, ...], value: Any) -> bool:
    """Put `value` at `path` (a walk path); False where that place cannot be written."""
    holder, kind, key = roots[path[0]]
    steps = [(kind, key), *path[1:]]
    obj = holder
    for i, (k, name) in enumerate(steps):
        last = i == len(steps) - 1
        if k == "key":
            if last:
                return False  # replacing a dict's key
            obj = next(itertools.islice(iter(obj), name, None))  # the name-th key
            continue
        if last:
            if k == "attr":
                setattr(obj, name, value)
                return True
            if isinstance(obj, tuple):
                return False
            obj[name] = value
            return True
        obj = getattr(obj, name) if k == "attr" else obj[name]
    return False


def restore(w: Walk) -> None:
    """Put every dict and list the snapshot walk saw back as it was (the trace's stores)."""
    for obj, saved in reversed(w.snapshots):
        if isinstance(obj, dict):
            obj.clear()
            obj.update(saved)
        else:
            obj[:] = saved


def placeholder_name(roots: list[tuple[Any, str, Any]], path: tuple[Any, ...]) -> str:
    """Dynamo-like names: L_self_param_groups_0_params_0_, G_model_..._, L_arg_..."""
    holder, kind, key = roots[path[0]]
    if key == "__self__":
        parts = ["L", "self"]
    elif key == "cell_contents":
        parts = ["L", "closure"]
    elif kind == "item" and isinstance(key, str):
        parts = ["G", key]
    else:
        parts = ["L", f"arg{key}"]
    for k, name in path[1:]:
        if k == "key":
            parts.append("key")
        elif k == "attr" and name == "grad":
            parts.append("grad")
        elif isinstance(name, Tensor):
            parts.append("param")  # a state dict keyed by its parameter
        else:
            s = str(name)
            parts.append(s if s.isidentifier() or s.isdigit() else "x")
    return "_".join(parts) + "_"


def unique(name: str, taken: set[str]) -> str:
    out, k = name, 0
    while out in taken:
        k += 1
        out = f"{name}{k}"
    taken.add(out)
    return out


class Lifter:
    """During a trace: real tensors found by the walk become placeholders on first use (the
    proxy mode calls it on each aten call's arguments; proxy_tensor._Tracking.lift)."""

    def __init__(self, w: Walk, roots: list[tuple[Any, str, Any]], mode: Any) -> None:
        self.index = {id(t): i for i, t in enumerate(w.tensors)}
        self.walk = w
        self.roots = roots
        self.mode = mode
        self.fakes: dict[int, Tensor] = {}
        #: The walk indices lifted, in placeholder order.
        self.order: list[int] = []
        self.tracking: Any = None

    def _lift(self, t: Tensor) -> Tensor:
        f = self.fakes.get(id(t))
        if f is not None:
            return f
        i = self.index[id(t)]
        f = self.mode.from_tensor(t.detach())
        if t.requires_grad:
            f.requires_grad_(True)
        tr = self.tracking
        g = tr.graph
        phs = [n for n in g.nodes if n.op == "placeholder"]
        taken = {n.name for n in phs} | {str(n.target) for n in phs}
        name = unique(placeholder_name(self.roots, self.walk.paths[i]), taken)
        if phs:
            with g.inserting_after(phs[-1]):
                ph = g.placeholder(name)
        else:
            first = next(iter(g.nodes), None)
            with g.inserting_before(first):
                ph = g.placeholder(name)
        ph.meta["val"] = f
        tr.bind(f, ph)
        self.fakes[id(t)] = f
        self.order.append(i)
        return f

    def __call__(self, args: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        return self._map(args), ({k: self._map(v) for k, v in kwargs.items()} if kwargs else {})

    def _map(self, a: Any) -> Any:
        if isinstance(a, Tensor):
            if id(a) in self.index:
                return self._lift(a)
            return a
        t = type(a)
        if t is list or t is tuple:
            return t(self._map(x) for x in a)
        return a
