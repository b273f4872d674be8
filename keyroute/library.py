"""The public `torch.library` face: `Library`, `fallthrough_kernel` and the functional API
(`define`, `impl`, `register_fake`, `register_autograd`, `register_kernel`; `custom_op`,
`infer_schema` and `opcheck` load on first use). The registration machinery itself is the
dispatcher's: keyroute/dispatcher/registration.py.

>>> from keyroute.library import Library
>>> lib = Library("demo_doc", "FRAGMENT")
>>> lib.define("twice(Tensor x) -> Tensor")
'twice'
>>> lib.impl("twice", lambda x: x + x, "CompositeExplicitAutograd")
>>> lib._destroy()  # every registration of the library is undone
"""

from __future__ import annotations

from typing import Any

from .dispatcher.operator import OpOverload, find_op
from .dispatcher.registration import (
    Library,
    fallthrough_kernel,
    register_helper_file,
    registration_site,
)

__all__ = [
    "Library",
    "cpu_fallback",
    "define",
    "fallthrough_kernel",
    "impl",
    "register_autocast",
    "register_autograd",
    "register_fake",
    "register_kernel",
    "registration_site",
]

from ._library.cpu_fallback import cpu_fallback  # noqa: E402  (PyTorch's at::native one)

# The functional API registers through Library: its frames are registration code too.
register_helper_file(__file__)


# -- the functional API (torch.library.define / impl / register_fake / register_autograd) ------


def _opdef_for(op: Any) -> Any:
    """The CustomOpDef managing registrations of `op` (a name, OpOverload or CustomOpDef)."""
    from ._library.custom_ops import OPDEFS, CustomOpDef

    if isinstance(op, CustomOpDef):
        return op
    if isinstance(op, OpOverload):
        qual = op.qualified_name()
        target = op
    else:
        qual = str(op)
        target = find_op(qual)
        if target is None or target._schema is None:
            raise ValueError(f"register: operator {qual} does not exist; define it first")
    opdef = OPDEFS.get(qual)
    if opdef is None:
        ns, _, name = qual.partition("::")
        opdef = CustomOpDef(ns, name.partition(".")[0], None, None, existing=target)
        OPDEFS[qual] = opdef
    return opdef


_FUNCTIONAL_LIBS: list[Library] = []


def define(qualname: str, schema: str, *, lib: Library | None = None, tags: Any = ()) -> None:
    """Define an operator `ns::name` with `schema` ("(Tensor x) -> Tensor")."""
    ns, _, name = qualname.partition("::")
    if not name:
        raise ValueError(f"define(): expected a qualified name like 'ns::name', got {qualname!r}")
    if lib is None:
        lib = Library(ns, "FRAGMENT")
        _FUNCTIONAL_LIBS.append(lib)
    lib.define(name + schema, tags=tags)


def impl(qualname: Any, types: Any, func: Any = None, *, lib: Library | None = None) -> Any:
    """Register `func` as the kernel of `qualname` for device types or dispatch-key names."""

    def register(fn: Any) -> Any:
        op = qualname if isinstance(qualname, OpOverload) else find_op(str(qualname))
        if op is None:
            raise ValueError(f"impl(): operator {qualname} does not exist")
        target = lib
        if target is None:
            target = Library(op.namespace, "FRAGMENT")
            _FUNCTIONAL_LIBS.append(target)
        keys = [types] if isinstance(types, str) or types is None else list(types)
        from ._library.custom_ops import device_key

        for t in keys:
            # "default": every device (PyTorch's _device_type_to_key).
            key = "CompositeExplicitAutograd" if t == "default" else device_key(t)
            if t is not None and t[:1].isupper():
                key = t
            target.impl(op, fn, key)
        return fn

    return register(func) if func is not None else register


def register_fake(
    op: Any, func: Any = None, /, *, lib: Library | None = None, _stacklevel: int = 1
) -> Any:
    """Register the fake (meta) implementation of an operator."""

    def register(fn: Any) -> Any:
        return _opdef_for(op).register_fake(fn)

    return register(func) if func is not None else register


def register_autograd(
    op: Any, backward: Any, /, *, setup_context: Any = None, lib: Library | None = None
) -> None:
    """Register the backward formula of an operator."""
    _opdef_for(op).register_autograd(backward, setup_context=setup_context)


def register_kernel(
    op: Any, device_types: Any, func: Any = None, /, *, lib: Library | None = None
) -> Any:
    """Register a device kernel of an operator."""
    return _opdef_for(op).register_kernel(device_types, func)


def register_vmap(op: Any, func: Any = None, /, *, lib: Library | None = None) -> Any:
    """Register a vmap rule func(info, in_dims, *args, **kwargs) -> (output, out_dims)."""

    def register(fn: Any) -> Any:
        from .layers.functorch import register_vmap_rule

        target = getattr(op, "_opoverload", op)
        name = target if isinstance(target, str) else target.qualified_name()
        if "::" not in name:
            raise ValueError(f"register_vmap: expected 'namespace::name', got {name!r}")
        register_vmap_rule(name.removesuffix(".default"), fn)
        return fn

    return register(func) if func is not None else register


def register_autocast(
    op: Any, device_type: str, cast_inputs: Any, /, *, lib: Library | None = None
) -> Any:
    """Register an autocast rule: inside an autocast region of `device_type`, the operator's
    floating inputs are cast to `cast_inputs` (keyroute/_library/autocast.py)."""
    from ._library.autocast import register_on_op
    from ._library.custom_ops import OPDEFS, CustomOpDef

    if not isinstance(op, (str, OpOverload, CustomOpDef)):
        raise ValueError(f"register_autocast({op}): got unexpected type for op: {type(op)}")
    if isinstance(op, OpOverload):
        op = op.qualified_name()
    if isinstance(op, str) and op in OPDEFS and not OPDEFS[op]._existing:
        op = OPDEFS[op]  # a custom_op: its own registration (first one per device wins)
    if isinstance(op, CustomOpDef):
        return op.register_autocast(device_type, cast_inputs)
    target = find_op(op)
    if target is None or target._schema is None:
        raise ValueError(
            f"Could not find the operator {op}. Please make sure you have already registered "
            "the operator and (if registered from C++) loaded it via torch.ops.load_library."
        )
    return register_on_op(target, device_type, cast_inputs, lib)


def __getattr__(name: str) -> Any:
    if name == "custom_op":
        from ._library.custom_ops import custom_op

        return custom_op
    if name == "infer_schema":
        from .dispatcher.infer_schema import infer_schema

        return infer_schema
    if name == "opcheck":
        from .testing._opcheck import opcheck

        return opcheck
    raise AttributeError(f"module 'keyroute.library' has no attribute '{name}'")
