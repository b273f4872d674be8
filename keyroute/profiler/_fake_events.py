"""The events PyTorch's FakeTensorMode records inside its handler, for keyroute's FakeTensorMode.

PyTorch's FakeTensorMode (torch/_subclasses/fake_tensor.py) handles a call in Python, and the
operators it dispatches on the way are profiler events under the handler's PythonDispatchMode
event: it runs the operator's meta kernel on meta tensors (the operator's event, with the calls
its meta implementation makes: `mm`'s Python meta calls `new_empty`, elementwise refs call
prims and `empty_permuted`), wraps the meta result as a FakeTensor (`_make_subclass` detaches:
`aten::detach`), and on a cache miss rebuilds the output from the new cache entry to validate
it (`empty_strided` on meta, `set_` onto the input's storage for a view operator, and the
FakeTensor wrap's `detach`); a hit only rebuilds; a bypassed or in-place call only runs. `view`
runs torch._refs' `_reshape_view_helper` (prims `collapse_view` / `split_dim`, or `as_strided`,
each dispatched to the FakeTensor subclass and back to the mode), `_unsafe_view` decomposes into
`view` and bypasses the cache ("unsafe view").

keyroute's FakeTensorMode runs the meta kernel directly, so while a profile records it adds
these events itself (synthesized, like _internal_calls.py's) from the rules below. Operators
whose PyTorch meta implementation calls others not listed in META_CHILDREN get the operator's
event without children.
"""

from __future__ import annotations

from typing import Any

from . import _state

__all__ = ["META_CHILDREN", "record", "view_trees"]

Tree = tuple[str, tuple[Any, ...]]


def _leaf(name: str) -> Tree:
    return (name, ())


_DETACH = _leaf("aten::detach")
_AS_STRIDED = _leaf("aten::as_strided")
#: the output rebuilt from a cache entry: a fresh meta tensor, or for a view one set onto the
#: input's storage, wrapped as a FakeTensor
_REBUILD = (_leaf("aten::empty_strided"), _DETACH)
_REBUILD_VIEW = (_leaf("aten::empty_strided"), _leaf("aten::set_"), _DETACH)
_PERMUTED = ("aten::empty_permuted", (_leaf("aten::empty"), _AS_STRIDED))


def _prim_elementwise(name: str) -> tuple[Tree, ...]:
    return ((f"prims::{name}", (_PERMUTED,)),)


#: "aten::<name>" -> the events under the meta kernel's own event (PyTorch's meta path).
META_CHILDREN: dict[str, tuple[Tree, ...]] = {
    "aten::mm": (("aten::new_empty", (_leaf("aten::empty"),)),),
    "aten::silu": (("aten::empty_like", (_PERMUTED,)),),
    "aten::t": (("aten::transpose", (_AS_STRIDED,)),),
    "aten::clone": (("aten::empty_like", (_leaf("aten::empty"),)), _leaf("aten::copy_")),
    **{f"aten::{n}": _prim_elementwise(n) for n in ("add", "mul", "exp")},
    # relu's decomposition: where(le(a, 0), 0, a)
    "aten::relu": (
        ("aten::le", _prim_elementwise("le")),
        (
            "aten::where",
            (
                ("aten::scalar_tensor", (_leaf("aten::empty"),)),
                _leaf("aten::to"),
                ("aten::where", (("aten::expand", (_AS_STRIDED,)), *_prim_elementwise("where"))),
            ),
        ),
    ),
}

#: operators whose full-reduction overload decomposes into its dim overload, a fake call of
#: its own (the meta kernel's event nests under a second PythonDispatchMode)
_DIM_DECOMPOSED = frozenset({"aten::sum"})

#: a fake as_strided call handled by the mode: meta kernel, wrap, cache miss rebuild
_AS_STRIDED_FAKE = (
    "aten::as_strided",
    (("PythonDispatchMode", (_AS_STRIDED, _DETACH, *_REBUILD_VIEW)),),
)


def _through_subclass(name: str, inner: tuple[Tree, ...]) -> Tree:
    """A call made on FakeTensors with the mode off the stack: the subclass's handler re-enters
    the mode and calls again."""
    return (name, (("PythonSubclass", ((name, (("PythonDispatchMode", inner),)),)),))


def _prim_view(name: str) -> Tree:
    # the prim's meta implementation restrides with as_strided (a fake call of its own)
    return _through_subclass(f"prims::{name}", (_AS_STRIDED_FAKE, *_REBUILD_VIEW))


def view_trees(shape: tuple[int, ...], contiguous: bool, target: list[int]) -> Any:
    """The events of torch._refs' `_reshape_view_helper(a, target)` for a of `shape`, or None
    for the paths not mirrored (empty, 0-d, squeezes, 1-d to 2-d)."""
    numel = 1
    for s in shape:
        numel *= s
    if -1 in target:
        known = 1
        for s in target:
            known *= s if s != -1 else 1
        target = [numel // known if s == -1 else s for s in target]
    if numel == 0 or not shape or not target:
        return None
    if contiguous and len(target) == 1 and len(shape) > 1:
        return ((_AS_STRIDED[0], (("PythonSubclass", (_AS_STRIDED_FAKE,)),)),)
    if contiguous and len(target) == 2 and len(shape) == 1:
        return None
    trees: list[Tree] = []
    cur = list(shape)
    idx = 0
    for length in target:
        if idx >= len(cur) or length == cur[idx]:
            if idx >= len(cur):
                return None
            idx += 1
            continue
        accum, end = cur[idx], idx
        while accum % length != 0:
            end += 1
            accum *= cur[end]
        if end != idx:
            trees.append(_prim_view("collapse_view"))
            cur[idx : end + 1] = [accum]
        if accum != length:
            trees.append(_prim_view("split_dim"))
            cur[idx : idx + 1] = [length, accum // length]
        idx += 1
    if idx < len(cur) or not trees:
        return None
    return tuple(trees)


def _contiguous(t: Any) -> bool:
    try:
        return bool(t.is_contiguous())
    except (AttributeError, TypeError):
        return False


def _view_impl(args: tuple[Any, ...]) -> Any:
    a = args[0]
    return view_trees(tuple(a.shape), _contiguous(a), [int(s) for s in args[1]])


def record(mode: Any, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
    """Run `mode`'s handler for one call and log the events PyTorch's FakeTensorMode records."""
    cls = type(mode)
    before = (cls.cache_hits, cls.cache_misses, sum(cls.cache_bypasses.values()))
    out = mode._torch_dispatch(func, types, args, kwargs)
    c = _state.collector
    if c is None or func.namespace != "aten":
        return out
    name = func.qualified_name().partition(".")[0]  # events carry no overload name
    hit = cls.cache_hits > before[0]
    miss = cls.cache_misses > before[1]
    try:
        if name == "aten::_unsafe_view":
            impl = _view_impl(args)
            if impl is None:
                return out
            trees: tuple[Tree, ...] = (
                ("aten::view", (("PythonDispatchMode", (*impl, *_REBUILD_VIEW)),)),
            )
        else:
            view = any(r.alias_info is not None for r in func._schema.returns)
            rebuild = _REBUILD_VIEW if view else _REBUILD
            if name == "aten::view":
                impl = _view_impl(args)
                if impl is None:
                    return out
            elif name in _DIM_DECOMPOSED and func._overloadname == "default":
                reduce = (name, ((f"prims::{name[6:]}", (_leaf("aten::empty_strided"),)),))
                impl = ((name, (("PythonDispatchMode", (reduce, _DETACH, *_REBUILD)),)),)
            elif any(out is a for a in args):  # in place: the argument comes back
                impl, rebuild = ((name, ()),), ()
            else:
                impl = ((name, META_CHILDREN.get(name, ())), _DETACH)
            if hit:
                impl = ()
            trees = (*impl, *rebuild) if (hit or miss) else impl
    except (AttributeError, TypeError, IndexError, ValueError):
        return out
    c.log.append(_state.synthesized(_state._now(), trees))
    return out
