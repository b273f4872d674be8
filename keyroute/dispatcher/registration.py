"""Registration, the dispatcher's write side: `Library`, boxed kernels and fallbacks,
`fallthrough_kernel`, and where a registration was made (PyTorch's torch.library.Library over
c10's Library / OperatorEntry registration). The public `torch.library` face is
keyroute/library.py, which re-exports these.

>>> from keyroute.dispatcher.registration import Library
>>> lib = Library("demo_doc", "FRAGMENT")
>>> lib.define("twice(Tensor x) -> Tensor")
'twice'
>>> lib.impl("twice", lambda x: x + x, "CompositeExplicitAutograd")
>>> lib._destroy()  # every registration of the library is undone

A failed registration changes nothing. Destroying a library (or letting it be collected)
removes all its registrations, so an older kernel becomes active again.
"""

from __future__ import annotations

import os
import sys
import weakref
from collections.abc import Callable
from typing import Any

from .alias import ALIAS_EXPANSION
from .boxing import normalize_args
from .keys import TABLE_KEYS, DispatchKey, is_alias_key, key_name, parse_dispatch_key
from .operator import (
    KernelRegistration,
    OpOverload,
    _drop_op_if_empty,
    find_op,
    get_op,
    register_fallback,
)

__all__ = [
    "BoxedFallback",
    "BoxedKernel",
    "Library",
    "fallthrough_kernel",
    "register_helper_file",
    "registration_site",
]

DK = DispatchKey
_RESERVED_NAMESPACES = ("prim",)
_DEF_NAMESPACES: dict[str, str] = {}
_THIS_FILE = os.path.normcase(os.path.abspath(__file__))


def fallthrough_kernel() -> None:
    """A dummy kernel: registering it makes the key a fallthrough (masked out at call time)."""
    raise NotImplementedError("fallthrough_kernel() should never be called.")


#: Files of registration helpers: a registration's site is the first frame outside them.
REGISTRATION_HELPERS: set[str] = {_THIS_FILE}


def register_helper_file(path: str) -> None:
    REGISTRATION_HELPERS.add(os.path.normcase(os.path.abspath(path)))


def registration_site(skip_files: tuple[str, ...] = ()) -> str:
    """'registered at file:line' of the first caller outside keyroute's registration code."""
    frame = sys._getframe(1)
    skip = REGISTRATION_HELPERS.union(skip_files)
    while frame is not None and (
        os.path.normcase(frame.f_code.co_filename) in skip
        or frame.f_code.co_filename.startswith("<frozen")
    ):
        frame = frame.f_back
    if frame is None:  # pragma: no cover
        return "registered at <unknown>"
    return f"registered at {frame.f_code.co_filename}:{frame.f_lineno}"


def _parse_key(dispatch_key: str | DispatchKey) -> int:
    if isinstance(dispatch_key, int):
        return int(dispatch_key)
    if dispatch_key in ("", "Undefined"):
        return int(DK.CompositeImplicitAutograd)
    return int(parse_dispatch_key(dispatch_key))


class Library:
    """A set of registrations in one namespace (PyTorch's torch.library.Library).

    kind: "DEF" (defines the namespace; one per namespace), "FRAGMENT" (defines and
    implements, any number), "IMPL" (implements only). `dispatch_key` is the default key of
    `impl`.
    """

    def __init__(self, ns: str, kind: str, dispatch_key: str = "") -> None:
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        if ns == "_" and kind == "FRAGMENT":
            raise RuntimeError(
                "TORCH_LIBRARY_FRAGMENT: cannot define TORCH_LIBRARY_FRAGMENT with the wildcard "
                "namespace _ (every TORCH_LIBRARY_FRAGMENT defines operators for a distinct "
                "namespace!) Did you mean to use TORCH_LIBRARY_IMPL instead?  (Error occurred "
                f"while processing TORCH_LIBRARY_FRAGMENT block at {registration_site()[14:]})"
            )
        if ns == "_" and kind == "DEF":
            raise RuntimeError("bad optional access")
        if ns in _RESERVED_NAMESPACES and kind in ("DEF", "FRAGMENT"):
            raise ValueError(
                ns, " is a reserved namespace. Please try creating a library with another name."
            )
        site = registration_site()
        if kind == "DEF":
            previous = _DEF_NAMESPACES.get(ns)
            if previous is not None:
                raise RuntimeError(
                    f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; "
                    f"please put all of your definitions in a single TORCH_LIBRARY block.  If you "
                    f"were trying to specify implementations, consider using TORCH_LIBRARY_IMPL "
                    f"(which can be duplicated).  If you really intended to define operators for "
                    f"a single namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT "
                    f"to explicitly indicate this.  Previous registration of TORCH_LIBRARY was "
                    f"{previous}; latest registration was {site}"
                )
            _DEF_NAMESPACES[ns] = site
        self.ns = ns
        self.kind = kind
        self.dispatch_key = dispatch_key
        self._site = site
        self._undo: list[Callable[[], None]] = []
        self._op_defs: set[str] = set()
        self._op_impls: set[str] = set()
        # Kernels of keyroute's own libraries take their arguments as given; a user's get
        # them boxed the way PyTorch passes them (see dispatcher/boxing.py).
        self._boxed = True
        if kind == "DEF":
            self._undo.append(lambda: _DEF_NAMESPACES.pop(ns, None))
        # Collecting the library undoes its registrations, as in PyTorch.
        self._finalizer = weakref.finalize(self, _undo_all, self._undo)

    @classmethod
    def _internal(cls, ns: str, kind: str) -> Library:
        """A library for keyroute's own registrations (kernels get unboxed arguments)."""
        lib = cls(ns, kind)
        lib._boxed = False
        return lib

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def _block(self) -> str:
        return {"DEF": "TORCH_LIBRARY", "FRAGMENT": "TORCH_LIBRARY_FRAGMENT"}.get(
            self.kind, "TORCH_LIBRARY_IMPL"
        )

    def _where(self) -> str:
        return f"(Error occurred while processing {self._block()} block at {self._site[14:]})"

    # -- define
    def define(self, schema: str, alias_analysis: str = "", *, tags: Any = ()) -> str:
        """Define an operator from its schema; returns its name (without the namespace)."""
        from .schema import SchemaParseError, parse_schema

        if alias_analysis not in ("", "FROM_SCHEMA", "CONSERVATIVE"):
            raise RuntimeError(f"Invalid alias_analysis type {alias_analysis}")
        if self.kind == "IMPL":
            raise RuntimeError(
                f'def("{schema.split("(")[0].strip()}"): Cannot define an operator inside of a '
                f"TORCH_LIBRARY_IMPL block.  All def()s should be placed in the (unique) "
                f"TORCH_LIBRARY block for their namespace.  {self._where()}"
            )
        try:
            parse_schema(schema)  # errors name the schema as written
            parsed = parse_schema(
                schema if "::" in schema.split("(")[0] else f"{self.ns}::{schema}"
            )
        except SchemaParseError as exc:
            text = str(exc)
            if text.startswith("Non-default positional argument follows default argument"):
                text = (
                    f'!seen_default_arg || arg.kwarg_only() INTERNAL ASSERT FAILED at "{__file__}"'
                    f":1, please report a bug to PyTorch. {text}"
                )
            raise RuntimeError(text) from None
        ns = parsed.name.split("::", 1)[0]
        if ns != self.ns:
            raise RuntimeError(
                f"Explicitly provided namespace ({ns}) in schema string does not match namespace "
                f"of enclosing {self._block()} block ({self.ns}).  Move this definition to the "
                f"(unique) TORCH_LIBRARY block corresponding to this namespace (and consider "
                f"deleting the namespace from your schema string.)  {self._where()}"
            )
        site = registration_site()
        existing = find_op(_qualname(parsed.name, parsed.overload_name))
        if existing is not None and existing._schema is not None:
            raise RuntimeError(
                f"Tried to register an operator ({parsed}) with the same name and overload name "
                f"multiple times. Each overload's schema should only be registered with a single "
                f"call to def(). Duplicate registration: {site}. Original registration: "
                f"{existing.debug}"
            )
        op = get_op(parsed.name, parsed.overload_name)
        op.set_schema(parsed)
        packet = _packets().get(parsed.name)
        if packet is not None:
            packet._invalidate()
        op.debug = site
        op.alias_analysis = alias_analysis or "FROM_SCHEMA"
        op.tags = tuple(tags) if isinstance(tags, (list, tuple)) else (tags,)
        qual = op.qualified_name()
        self._op_defs.add(qual)

        def undo() -> None:
            op.clear_schema()
            op.debug = ""
            op.alias_analysis = ""
            op._invalidate()
            self._op_defs.discard(qual)
            _drop_op_if_empty(op)

        self._undo.append(undo)
        return parsed.name.split("::", 1)[1]

    # -- impl
    def impl(
        self,
        op_name: str | OpOverload,
        fn: Callable[..., Any],
        dispatch_key: str | DispatchKey = "",
        *,
        with_keyset: bool = False,
        allow_override: bool = True,
    ) -> None:
        """Register `fn` as the kernel of `op_name` for `dispatch_key` (runtime or alias key;
        "" = the library's default key, else CompositeImplicitAutograd)."""
        if not callable(fn):
            raise TypeError(
                f"Input function is required to be a callable but found type {type(fn)}"
            )
        if dispatch_key == "":
            dispatch_key = self.dispatch_key
        key = _parse_key(dispatch_key)
        name, overload = self._resolve_name(op_name)
        if self.dispatch_key and self.kind == "IMPL" and key != _parse_key(self.dispatch_key):
            raise RuntimeError(
                f'impl("{name.split("::", 1)[1]}", ...): Explicitly provided dispatch key '
                f"({key_name(key)}) is inconsistent with the dispatch key of the enclosing "
                f"TORCH_LIBRARY_IMPL block ({self.dispatch_key}).  Please declare a separate "
                f"TORCH_LIBRARY_IMPL block for this dispatch key and move your impl() there.  "
                f"{self._where()}"
            )
        qual = _qualname(name, overload)
        if key == int(DK.Meta):
            existing = find_op(qual)
            if existing is not None and existing.has_kernel_for_dispatch_key(
                DK.CompositeImplicitAutograd
            ):
                given = op_name if isinstance(op_name, str) else qual
                raise RuntimeError(
                    f"We should not register a meta kernel directly to the operator '{given}', "
                    f"because it has a CompositeImplicitAutograd kernel in core. Instead we "
                    f"should let the operator decompose, and ensure that we have meta kernels "
                    f"for the base ops that it decomposes into."
                )
        impl_key = f"{qual}/{key_name(key)}"
        if not allow_override and impl_key in _PYTHON_IMPLS:
            raise RuntimeError(
                f"This is not allowed since there's already a kernel registered from python "
                f"overriding {qual}'s behavior for {key_name(key)} dispatch key and {self.ns} "
                f"namespace."
            )
        op = get_op(name, overload)
        if self._boxed and fn is not fallthrough_kernel:
            fn = BoxedKernel(fn, op, with_keyset)
        reg = KernelRegistration(
            fn,
            key,
            with_keyset=with_keyset,
            fallthrough=fn is fallthrough_kernel,
            debug=registration_site(),
            owner=self,
        )
        remove = op.add_kernel(reg)
        _PYTHON_IMPLS.add(impl_key)
        self._op_impls.add(impl_key)

        def undo() -> None:
            remove()
            _PYTHON_IMPLS.discard(impl_key)
            self._op_impls.discard(impl_key)
            _drop_op_if_empty(op)

        self._undo.append(undo)

    def _resolve_name(self, op_name: str | OpOverload) -> tuple[str, str]:
        if isinstance(op_name, OpOverload):
            return op_name._name, op_name.overload_name
        if not isinstance(op_name, str):
            raise TypeError(
                f"impl should be passed either a name or an OpOverload object, got {op_name!r}"
            )
        if "::" in op_name:
            ns, rest = op_name.split("::", 1)
            if ns != self.ns:
                raise RuntimeError(
                    f'impl("{op_name}", ...): Explicitly provided namespace ({ns}) in operator '
                    f"name does not match namespace of enclosing {self._block()} block "
                    f"({self.ns}).  Move this definition to the {self._block()} block "
                    f"corresponding to this namespace (and consider deleting the namespace from "
                    f"your schema string.)  {self._where()}"
                )
            op_name = rest
        base, _, overload = op_name.partition(".")
        if overload == "default":
            overload = ""
        return f"{self.ns}::{base}", overload

    # -- fallback
    def fallback(
        self,
        fn: Callable[..., Any],
        dispatch_key: str | DispatchKey = "",
        *,
        with_keyset: bool = False,
        replace_builtin: bool = False,
    ) -> None:
        """Register a boxed backend fallback for a key: called as fn(op, *args, **kwargs), or
        fn(keyset, op, *args, **kwargs) with `with_keyset`, for every operator without a
        kernel of its own there. Namespace "_" only.

        A key has one fallback. Where keyroute installs one of its own (layers/fallbacks.py:
        the fallthroughs, and the refusals of layers it does not build), a new layer passes
        `replace_builtin=True` (a keyroute extension) to put its fallback over it; destroying
        the library brings the builtin one back."""
        if dispatch_key == "":
            dispatch_key = self.dispatch_key
        if dispatch_key == "":
            raise AssertionError("dispatch_key must not be empty for fallback")
        if self.ns != "_":
            raise RuntimeError(
                f"Fallback can only be registered using library fragment on the global namespace "
                f'"_" but it is {self.ns}'
            )
        if dispatch_key == "Undefined":
            raise RuntimeError(
                f'dispatch_key.has_value() INTERNAL ASSERT FAILED at "{__file__}":1, please '
                f"report a bug to PyTorch. {self._where()}"
            )
        key = _parse_key(dispatch_key)
        if self._boxed and fn is not fallthrough_kernel:
            fn = BoxedFallback(fn, with_keyset)
        site = registration_site()
        keys = [k for k in TABLE_KEYS if k in ALIAS_EXPANSION[key]] if is_alias_key(key) else [key]
        # Note: like PyTorch, an alias fallback is registered key by key and is not atomic.
        for k in keys:
            reg = KernelRegistration(
                fn,
                k,
                with_keyset=with_keyset,
                fallthrough=fn is fallthrough_kernel,
                debug=site,
                is_fallback=True,
                owner=self,
            )
            self._undo.append(register_fallback(reg, replace_builtin))

    # -- teardown
    def _destroy(self) -> None:
        """Undo every registration this library made (newest first)."""
        _undo_all(self._undo)
        self._finalizer.detach()


_PYTHON_IMPLS: set[str] = set()


class BoxedKernel:
    """A user's kernel: called with the arguments boxed as PyTorch passes them."""

    __slots__ = ("fn", "op", "with_keyset", "__weakref__")

    def __init__(self, fn: Callable[..., Any], op: OpOverload, with_keyset: bool) -> None:
        self.fn = fn
        self.op = op
        self.with_keyset = with_keyset

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.with_keyset:
            keyset, *rest = args
            a, k = normalize_args(self.op._schema, tuple(rest), kwargs)
            return self.fn(keyset, *a, **k)
        a, k = normalize_args(self.op._schema, args, kwargs)
        return self.fn(*a, **k)

    def __repr__(self) -> str:
        return f"BoxedKernel({self.fn!r})"


class BoxedFallback:
    """A user's backend fallback: fn([keyset,] op, *args, **kwargs), arguments boxed."""

    __slots__ = ("fn", "with_keyset")

    def __init__(self, fn: Callable[..., Any], with_keyset: bool) -> None:
        self.fn = fn
        self.with_keyset = with_keyset

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.with_keyset:
            keyset, op, *rest = args
            a, k = normalize_args(op._schema, tuple(rest), kwargs)
            return self.fn(keyset, op, *a, **k)
        op, *rest = args
        a, k = normalize_args(op._schema, tuple(rest), kwargs)
        return self.fn(op, *a, **k)


def _undo_all(undo: list[Callable[[], None]]) -> None:
    while undo:
        undo.pop()()


def _packets() -> dict[str, Any]:
    from .operator import _PACKETS

    return _PACKETS


def _qualname(name: str, overload: str) -> str:
    return f"{name}.{overload}" if overload else name
