"""torch.overrides: `__torch_function__` on tensor subclasses and TorchFunctionModes.

PyTorch checks every public function and Tensor method for `__torch_function__` overrides
(tensor subclasses, tensor-like objects, an active TorchFunctionMode) before it runs. keyroute
keeps its plain path free of that check (Note [torch function install]): the public functions
(`keyroute.add`, `keyroute.nn.functional.relu`) and the Tensor methods are replaced by checking
wrappers only once a subclass with a `__torch_function__` is defined or a mode is entered, and
the originals come back when the last mode exits (if no such subclass exists). Tensor-like
classes that are not Tensor subclasses (a class with a `__torch_function__` classmethod) are
seen when they are created (Note [tensor-like classes]).

Note [torch function install]: a wrapper is `if state: handle(...) else orig(...)` where the
state test reads two module globals; it is installed by rebinding the module attribute or the
Tensor class attribute, so calls made inside keyroute (which bind their callees directly) are
not seen, as PyTorch's handlers see only the outermost public call. A reference to a function
or method taken before the wrappers went in (`add = torch.add` at import time) keeps calling
the original. The mode stack is global to the process (keyroute's runtime is single-threaded),
PyTorch's is per thread.

Note [tensor-like classes]: PyTorch checks every argument of every call for a
`__torch_function__`; keyroute instead learns of such classes when they are created:
`builtins.__build_class__` is wrapped (after importing keyroute) to look for a
`__torch_function__` in each new class's namespace, and installs the wrappers on the first.
Creating a class costs one dict lookup more; operator calls cost nothing.
"""

from __future__ import annotations

import contextlib
import functools
import types
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from . import _C, _naming
from .tensor._tensor import Tensor

__all__ = [
    "TorchFunctionMode",
    "BaseTorchFunctionMode",
    "handle_torch_function",
    "has_torch_function",
    "has_torch_function_unary",
    "has_torch_function_variadic",
    "resolve_name",
    "get_ignored_functions",
    "get_overridable_functions",
    "get_testing_overrides",
    "is_tensor_like",
    "is_tensor_method_or_property",
    "wrap_torch_function",
    "enable_reentrant_dispatch",
]

_disabled_torch_function_impl = _C._disabled_torch_function_impl

#: Active TorchFunctionModes, innermost last.
_mode_stack: list[TorchFunctionMode] = []
#: Tensor subclasses (and tensor-like types) whose __torch_function__ is live; non-empty
#: means the wrappers stay installed.
_tf_types: set[type] = set()
_subclass_disabled = 0  # DisableTorchFunctionSubclass depth
_all_disabled = 0  # DisableTorchFunction depth
_tf_cache: dict[type, bool] = {}

# -- which functions are overridable ----------------------------------------------------------

#: Tensor methods that stay unwrapped: construction, Python protocols and pickling (as
#: PyTorch's C-level slots, which do not consult __torch_function__).
_METHOD_SKIP = frozenset(
    {
        "__init__",
        "__array__",
        "__dlpack__",
        "__dlpack_device__",
        "__reduce_ex__",
        "__deepcopy__",
        "__iter__",
        "__hash__",
        "as_subclass",
        "__torch_function__",
    }
)

#: Operator dunders that PyTorch reports as the method they bind to (`a + b` is seen as
#: `Tensor.add`); the others report themselves (`Tensor.__rsub__`). Recorded by
#: tools/record_torch_function.py into tests/data/torch_function/dunders.json.
DUNDER_AS = {
    "__neg__": "neg",
    "__pos__": "positive",
    "__abs__": "abs",
    "__add__": "add",
    "__radd__": "add",
    "__sub__": "sub",
    "__mul__": "mul",
    "__rmul__": "mul",
    "__truediv__": "div",
    "__div__": "div",
    "__rdiv__": "__rtruediv__",
    "__mod__": "remainder",
    "__iadd__": "add_",
    "__isub__": "sub_",
    "__imul__": "mul_",
    "__itruediv__": "div_",
    "__idiv__": "div_",
    "__ifloordiv__": "floor_divide_",
    "__imod__": "remainder_",
    "__ne__": "ne",
    "__lt__": "lt",
    "__le__": "le",
    "__gt__": "gt",
    "__ge__": "ge",
    "__rand__": "bitwise_and",
    "__ror__": "bitwise_or",
    "__rxor__": "bitwise_xor",
    "__matmul__": "matmul",
}

#: (namespace object, attribute name) -> (the original callable, its qualified name).
_originals: dict[tuple[Any, str], tuple[Callable[..., Any], str]] = {}
#: public callable (original or wrapper) -> its name under the namespace ("Tensor.add").
_names: dict[int, str] = {}
_installed = False


def _namespaces() -> list[tuple[Any, str, list[str]]]:
    import keyroute

    from . import _api
    from .nn import functional as F

    top = [n for n in _api.FUNCTIONS if callable(getattr(keyroute, n, None))]
    top += [
        n
        for n in (
            "tensor",
            "zeros",
            "ones",
            "empty",
            "full",
            "arange",
            "linspace",
            "eye",
            "rand",
            "randn",
            "randint",
            "randperm",
            "zeros_like",
            "ones_like",
            "empty_like",
            "full_like",
            "rand_like",
            "randn_like",
            "as_tensor",
            "from_numpy",
            "scalar_tensor",
            "empty_strided",
        )
        if hasattr(keyroute, n)
    ]
    fn = [
        n for n, v in vars(F).items() if not n.startswith("_") and isinstance(v, types.FunctionType)
    ]
    methods = [
        n
        for n, v in vars(Tensor).items()
        if isinstance(v, types.FunctionType)
        and n not in _METHOD_SKIP
        and (not n.startswith("_") or (n.startswith("__") and n.endswith("__")))
    ]
    return [
        (keyroute, "", sorted(set(top))),
        (F, "nn.functional.", fn),
        (Tensor, "Tensor.", methods),
    ]


def _record_names() -> None:
    if _names:
        return
    for ns, prefix, attrs in _namespaces():
        for attr in attrs:
            fn = vars(ns).get(attr)
            if fn is not None:
                _originals[(ns, attr)] = (fn, prefix + attr)
                _names.setdefault(id(fn), prefix + attr)


#: Binary operator dunders: a TypeError from the handlers becomes NotImplemented, so Python
#: tries the reflected operator and then raises its own "unsupported operand type(s)" (as
#: PyTorch's _handle_torch_function_and_wrap_type_error_to_not_implemented).
_BINARY = frozenset(
    f"__{p}{n}__"
    for n in ("add sub mul truediv floordiv mod pow matmul and or xor lshift rshift div".split())
    for p in ("", "r", "i")
) | frozenset({"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"})


def _make_wrapper(
    orig: Callable[..., Any], qualname: str, reported: str | None = None
) -> Callable[..., Any]:
    """The checking wrapper; `reported` names the Tensor method handlers see instead."""
    binary = qualname.removeprefix("Tensor.") in _BINARY

    @functools.wraps(orig)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _mode_stack or _tf_types:
            overloaded = _overloaded_args(args, kwargs)
            if overloaded or (_mode_stack and not _all_disabled):
                public = wrapper if reported is None else getattr(Tensor, reported, wrapper)
                if not binary:
                    return _dispatch(public, overloaded, args, kwargs)
                try:
                    return _dispatch(public, overloaded, args, kwargs)
                except TypeError:
                    return NotImplemented
        return orig(*args, **kwargs)

    _names[id(wrapper)] = qualname
    return wrapper


def _install() -> None:
    global _installed
    if _installed:
        return
    _record_names()
    for (ns, attr), (orig, qualname) in _originals.items():
        reported = DUNDER_AS.get(attr) if ns is Tensor else None
        setattr(ns, attr, _make_wrapper(orig, qualname, reported))
    _installed = True


def _uninstall() -> None:
    global _installed
    if not _installed or _tf_types or _mode_stack:
        return
    for (ns, attr), (orig, _qualname) in _originals.items():
        setattr(ns, attr, orig)
    _installed = False


# -- finding overloaded arguments ---------------------------------------------------------------


def _has_tf(t: type) -> bool:
    hit = _tf_cache.get(t)
    if hit is None:
        f = getattr(t, "__torch_function__", None)
        f = getattr(f, "__func__", f)
        hit = f is not None and f is not _disabled_torch_function_impl and t is not Tensor
        if t in (int, float, bool, str, type(None), list, tuple, dict):
            hit = False
        _tf_cache[t] = hit
    return hit


def _collect(a: Any, out: list[Any]) -> None:
    t = a.__class__
    if t is Tensor:
        return
    if t is list or t is tuple:
        for b in a:
            if b.__class__ is not Tensor and _has_tf(b.__class__):
                _add(b, out)
        return
    if _has_tf(t):
        _add(a, out)


def _add(a: Any, out: list[Any]) -> None:
    """PyTorch's order: one argument per type, subclasses before their superclasses, else
    left to right."""
    t = type(a)
    if any(type(o) is t for o in out):
        return
    for i, o in enumerate(out):
        if issubclass(t, type(o)):
            out.insert(i, a)
            return
    out.append(a)


def _overloaded_args(args: Iterable[Any], kwargs: dict[str, Any] | None = None) -> list[Any]:
    if _subclass_disabled or _all_disabled:
        return []
    out: list[Any] = []
    for a in args:
        _collect(a, out)
    if kwargs:
        for a in kwargs.values():
            _collect(a, out)
    return out


def _dispatch(
    public: Any, overloaded: list[Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    types_ = tuple(type(a) for a in overloaded)
    if _mode_stack and not _all_disabled:
        mode = _mode_stack.pop()
        try:
            ret = mode.__torch_function__(public, types_, args, kwargs)
        finally:
            _mode_stack.append(mode)
        if ret is not NotImplemented:
            return ret
    for a in overloaded:
        ret = type(a).__torch_function__(public, types_, args, kwargs)
        if ret is not NotImplemented:
            return ret
    name = resolve_name(public) or getattr(public, "__name__", repr(public))
    # PyTorch 2.13's wording (torch/csrc/utils/python_arg_parser.cpp).
    lines = [f"  - tensor subclass {type(a)}" for a in overloaded]
    if _mode_stack and not _all_disabled:
        lines.insert(0, f"  - mode object {_mode_stack[-1]!r}")
    raise TypeError(
        f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers returned "
        "NotImplemented:\n\n" + "\n".join(lines) + "\n\nFor more information, try re-running "
        "with TORCH_LOGS=not_implemented"
    )


# -- the public API ---------------------------------------------------------------------------


def has_torch_function(relevant_args: Iterable[Any]) -> bool:
    """Whether a mode is active or an argument overrides __torch_function__."""
    if _mode_stack and not _all_disabled:
        return True
    return bool(_overloaded_args(relevant_args))


def has_torch_function_unary(a: Any) -> bool:
    return has_torch_function((a,))


def has_torch_function_variadic(*args: Any) -> bool:
    return has_torch_function(args)


def handle_torch_function(
    public_api: Callable[..., Any], relevant_args: Iterable[Any], *args: Any, **kwargs: Any
) -> Any:
    """Call the overriding __torch_function__ (the innermost mode first, then the overloaded
    arguments' types) for `public_api(*args, **kwargs)`."""
    return _dispatch(public_api, _overloaded_args(relevant_args), args, kwargs)


def resolve_name(f: Any) -> str | None:
    """The public name of an overridable function ("torch.add", "torch.Tensor.add"), or None."""
    _record_names()
    name = _names.get(id(f))
    if name is None:
        return None
    return f"{_naming.NAME}.{name}"


def is_tensor_like(inp: Any) -> bool:
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_tensor_method_or_property(func: Callable[..., Any]) -> bool:
    _record_names()
    return _names.get(id(func), "").startswith("Tensor.")


def get_overridable_functions() -> dict[Any, list[Callable[..., Any]]]:
    """Namespace -> the public callables there that honour __torch_function__."""
    out: dict[Any, list[Callable[..., Any]]] = {}
    for ns, _prefix, attrs in _namespaces():
        out[ns] = [getattr(ns, a) for a in attrs if hasattr(ns, a)]
    return out


def get_ignored_functions() -> set[Callable[..., Any]]:
    """keyroute's public callables that do not honour __torch_function__."""
    import keyroute

    overridable = {id(f) for fs in get_overridable_functions().values() for f in fs}
    return {
        v
        for n, v in vars(keyroute).items()
        if not n.startswith("_")
        and isinstance(v, (types.FunctionType, types.BuiltinFunctionType))
        and id(v) not in overridable
    }


def get_testing_overrides() -> dict[Callable[..., Any], Callable[..., Any]]:
    """A dummy override (returning -1) for every overridable function."""
    return {
        f: (lambda *args, **kwargs: -1) for fs in get_overridable_functions().values() for f in fs
    }


def wrap_torch_function(dispatcher: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a function so that it honours __torch_function__ on the arguments that
    `dispatcher(*args, **kwargs)` returns."""

    def inner(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)

        return wrapped

    return inner


@contextlib.contextmanager
def enable_reentrant_dispatch() -> Iterator[None]:
    """PyTorch re-enables dispatch for the body; keyroute's layers are always re-entrant."""
    yield


# -- modes ------------------------------------------------------------------------------------


class TorchFunctionMode:
    """A context manager whose `__torch_function__(func, types, args, kwargs)` sees every
    public keyroute function and Tensor method called in its scope (with itself popped
    while it runs, so calling `func` inside runs the function)."""

    inner: TorchFunctionMode

    def __init__(self) -> None:
        pass

    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None
    ) -> Any:
        raise NotImplementedError

    def __enter__(self) -> TorchFunctionMode:
        _push_mode(self)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        _pop_mode()

    @classmethod
    def push(cls, *args: Any, **kwargs: Any) -> TorchFunctionMode:
        warnings.warn(
            "`Mode.push()` is no longer necessary and can be replaced with just `with Mode()`",
            stacklevel=2,
        )
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None
    ) -> Any:
        return func(*args, **(kwargs or {}))


def _push_mode(mode: TorchFunctionMode) -> None:
    _install()
    _mode_stack.append(mode)


def _pop_mode() -> TorchFunctionMode:
    if not _mode_stack:
        raise RuntimeError("Trying to pop from an empty mode stack")
    mode = _mode_stack.pop()
    if not _mode_stack:
        _uninstall()
    return mode


@contextlib.contextmanager
def _pop_mode_temporarily() -> Iterator[TorchFunctionMode]:
    mode = _mode_stack.pop()
    try:
        yield mode
    finally:
        _mode_stack.append(mode)


def _get_current_function_mode() -> TorchFunctionMode | None:
    return _mode_stack[-1] if _mode_stack else None


def _get_current_function_mode_stack() -> list[TorchFunctionMode]:
    return list(_mode_stack)


def _is_torch_function_mode_enabled() -> bool:
    return bool(_mode_stack) and not _all_disabled


class DisableTorchFunctionSubclass:
    """Within it, subclasses' __torch_function__ is not consulted (modes still are)."""

    def __enter__(self) -> None:
        global _subclass_disabled
        _subclass_disabled += 1

    def __exit__(self, *exc: object) -> None:
        global _subclass_disabled
        _subclass_disabled -= 1


class DisableTorchFunction:
    """Within it, neither subclasses nor modes are consulted."""

    def __enter__(self) -> None:
        global _all_disabled
        _all_disabled += 1

    def __exit__(self, *exc: object) -> None:
        global _all_disabled
        _all_disabled -= 1


# -- Tensor's own __torch_function__ and the subclass hook -------------------------------------


def _convert(ret: Any, cls: type) -> Any:
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        return ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)) and not hasattr(ret, "_fields"):
        return type(ret)(_convert(r, cls) for r in ret)
    return ret


def _tensor_torch_function(
    cls: type, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None
) -> Any:
    """Tensor.__torch_function__: run func with subclass handling off, and give Tensor
    results the subclass's type (as_subclass), so that subclasses survive operators."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        ret = func(*args, **kwargs)
    return _convert(ret, cls)


def _as_subclass(self: Tensor, cls: type) -> Tensor:
    """A `cls` instance aliasing self's data, attached to its autograd graph (aten.alias)."""
    from ._ops import ops

    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(
            f"as_subclass(): argument 'cls' must be a subclass of {_naming.NAME}.Tensor "
            f"(got {cls!r})"
        )
    with DisableTorchFunction():
        out = ops.aten.alias.default(self)
    out.__class__ = cls
    return out


def _on_subclass(cls: type, **kwargs: Any) -> None:
    super(Tensor, cls).__init_subclass__(**kwargs)
    _opt_out_if_internal(cls)
    _tf_cache.clear()
    if _has_tf(cls):
        _tf_types.add(cls)
        _install()


Tensor.__torch_function__ = classmethod(_tensor_torch_function)  # type: ignore[attr-defined]
Tensor.as_subclass = _as_subclass  # type: ignore[attr-defined]
Tensor.__init_subclass__ = classmethod(_on_subclass)  # type: ignore[assignment]


def _watch_class_creation() -> None:
    """Install the wrappers when a class defining __torch_function__ is created (Note
    [tensor-like classes]); Tensor subclasses are also caught by __init_subclass__."""
    import builtins

    original = builtins.__build_class__
    if getattr(original, "_keyroute_watch", False):
        return

    def build_class(func: Any, name: str, *bases: Any, **kwargs: Any) -> Any:
        cls = original(func, name, *bases, **kwargs)
        if (
            isinstance(cls, type)
            and "__torch_function__" in cls.__dict__
            and _has_tf(cls)
            and not _of_pytorch(cls)
        ):
            _tf_types.add(cls)
            _install()
        return cls

    build_class._keyroute_watch = True  # type: ignore[attr-defined]
    builtins.__build_class__ = build_class


def _of_pytorch(cls: type) -> bool:
    """A class of PyTorch itself, imported beside keyroute (to compare with it, as the tests
    and benchmarks do): torch.Tensor and its kin define `__torch_function__`, but their
    instances never reach keyroute's functions, so they must not switch keyroute's checking
    wrappers on for the rest of the process. (Under `keyroute run`, `torch` is keyroute and
    its classes live in keyroute.*.)"""
    module = getattr(cls, "__module__", None) or ""
    return (module == "torch" or module.startswith(("torch.", "functorch"))) and not issubclass(
        cls, Tensor
    )


def _opt_out_if_internal(cls: type) -> None:
    """keyroute's own Tensor subclasses (Parameter, Buffer, FakeTensor, the functorch and
    functionalization wrappers) opt out of __torch_function__: PyTorch's are C++ tensors or
    set `_disabled_torch_function_impl` themselves."""
    if cls.__module__.startswith("keyroute.") and "__torch_function__" not in vars(cls):
        cls.__torch_function__ = _disabled_torch_function_impl  # type: ignore[attr-defined]


def _opt_out_builtin_subclasses() -> None:
    todo = list(Tensor.__subclasses__())
    while todo:
        cls = todo.pop()
        _opt_out_if_internal(cls)
        todo.extend(cls.__subclasses__())


_opt_out_builtin_subclasses()
_watch_class_creation()
_C.DisableTorchFunctionSubclass = DisableTorchFunctionSubclass  # type: ignore[attr-defined]
_C.DisableTorchFunction = DisableTorchFunction  # type: ignore[attr-defined]
_C._is_torch_function_mode_enabled = _is_torch_function_mode_enabled  # type: ignore[attr-defined]
_C._len_torch_function_stack = lambda: len(_mode_stack)  # type: ignore[attr-defined]
