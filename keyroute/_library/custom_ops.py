"""`keyroute.library.custom_op`: Python functions as dispatcher operators (torch.library).

    @custom_op("demo::rms_norm", mutates_args=())
    def rms_norm(x: Tensor, w: Tensor, eps: float) -> Tensor: ...

    @rms_norm.register_fake
    def _(x, w, eps):
        return keyroute.empty_like(x)

The schema is inferred from the annotations (`demo::rms_norm(Tensor x, Tensor w, float eps) ->
Tensor`). Registrations follow PyTorch's keys: the kernel on CompositeExplicitAutograd (or the
given device keys), the fake implementation on Meta (fake tensors use it too), the autograd
formula on the Autograd alias, and an ADInplaceOrView kernel bumping the versions of the
arguments declared in `mutates_args`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, DispatchKeySet, full_after_bits
from ..dispatcher.operator import LayerKernel, OpOverload, find_op
from ..dispatcher.tls import AUTOGRAD_WITH_INPLACE_OR_VIEW
from ..dispatcher.tls import state as _tls
from ..library import Library

__all__ = ["custom_op", "CustomOpDef", "OPDEFS", "device_key"]

_AFTER_AUTOGRAD = full_after_bits(DispatchKey.AutogradOther)
#: qualified name -> CustomOpDef (keeps their libraries alive).
OPDEFS: dict[str, CustomOpDef] = {}


def device_key(device_type: str | None) -> str:
    """The dispatch key a kernel for `device_type` goes on (None: every device)."""
    if device_type is None:
        return "CompositeExplicitAutograd"
    from ..tensor.device import Device

    dt = Device(device_type).type
    return {"cpu": "CPU", "cuda": "CUDA", "meta": "Meta", "xpu": "XPU", "mps": "MPS",
            "privateuseone": "PrivateUse1"}.get(dt, dt.upper())  # fmt: skip


def _parse_name(qualname: str) -> tuple[str, str]:
    if "::" not in qualname:
        raise ValueError(
            f"Expected there to be a namespace in {qualname}, i.e. The operator name should look "
            f"something like ns::foo"
        )
    ns, name = qualname.split("::", 1)
    if "." in name:
        raise ValueError(
            f"The torch.custom_ops APIs do not handle overloads, i.e. operator names with '.' in "
            f"them. Please name your operator something like {ns}::{name.replace('.', '_')}. "
            f"Got: {qualname}"
        )
    return ns, name


def _count_returns(schema: Any) -> int:
    return len(schema.returns)


class CustomOpDef:
    """A custom operator: callable, with register_fake / register_autograd / register_kernel."""

    def __init__(
        self,
        namespace: str,
        name: str,
        schema: str | None,
        fn: Callable[..., Any] | None,
        existing: OpOverload | None = None,
    ) -> None:
        self._namespace = namespace
        self._name = name
        self._qualname = f"{namespace}::{name}"
        self._init_fn = fn
        self._abstract_fn: Callable[..., Any] | None = None
        self._backward_fn: Callable[..., Any] | None = None
        self._setup_context_fn: Callable[..., Any] | None = None
        self._backend_fns: dict[str | None, Callable[..., Any]] = {}
        self._lib = Library(namespace, "FRAGMENT")
        if existing is None:
            assert schema is not None
            self._lib.define(f"{name}{schema}" if schema.startswith("(") else schema)
            op = find_op(self._qualname)
        else:
            op = existing
            self._qualname = op.qualified_name()
        assert op is not None
        self._opoverload: OpOverload = op
        self.__name__ = name
        self.__doc__ = getattr(fn, "__doc__", None)
        self._register_to_dispatcher()

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._opoverload(*args, **kwargs)

    # -- registrations -----------------------------------------------------------------------
    def register_kernel(
        self, device_types: str | Sequence[str] | None, fn: Callable[..., Any] | None = None
    ) -> Any:
        """Register `fn` as the implementation for these device types (None: all devices)."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            types: list[str | None]
            if device_types is None or isinstance(device_types, str):
                types = [device_types]
            else:
                types = list(device_types)
            for dt in types:
                if dt in self._backend_fns:
                    self._backend_fns[dt] = fn  # the registered kernel reads the table
                    continue
                self._backend_fns[dt] = fn
                key = device_key(dt)
                self._lib.impl(self._name, _BackendKernel(self, dt), key)
            return fn

        return register(fn) if fn is not None else register

    def register_fake(self, fn: Callable[..., Any], /) -> Callable[..., Any]:
        """Register the fake (meta) implementation: output metadata from input metadata."""
        self._abstract_fn = fn
        return fn

    def register_autograd(
        self, backward: Callable[..., Any], /, *, setup_context: Callable[..., Any] | None = None
    ) -> None:
        """Register backward(ctx, *grads) and setup_context(ctx, inputs, output)."""
        schema = self._opoverload._schema
        if any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments):
            raise RuntimeError(
                f"Cannot use register_autograd on operator {self._qualname} because it mutates "
                f"its inputs (schema: {schema}). register_autograd only supports functional "
                f"operators."
            )
        self._backward_fn = backward
        self._setup_context_fn = setup_context

    def _register_to_dispatcher(self) -> None:
        lib = self._lib
        op = self._opoverload
        lib.impl(self._name, _FakeKernel(self), "Meta")
        lib._boxed = False  # keyroute's own layer kernels below take raw arguments
        lib.impl(self._name, _CustomAutogradKernel(self), "Autograd", with_keyset=True)
        from ..autograd.inplace_or_view import register_for

        register_for(op, lib)
        lib._boxed = True


class _BackendKernel:
    """The device kernel: calls the user's function registered for this device type."""

    __slots__ = ("opdef", "device_type")

    def __init__(self, opdef: CustomOpDef, device_type: str | None) -> None:
        self.opdef = opdef
        self.device_type = device_type

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.opdef._backend_fns[self.device_type](*args, **kwargs)


class _FakeKernel:
    """Meta (and fake-tensor) kernel: the registered fake implementation, output-checked."""

    __slots__ = ("opdef",)

    def __init__(self, opdef: CustomOpDef) -> None:
        self.opdef = opdef

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self.opdef._abstract_fn
        if fn is None:
            raise RuntimeError(
                f"There was no fake impl registered for {self.opdef!r}. This is necessary for "
                f"torch.compile/export/fx tracing to work. Please use "
                f"`{self.opdef._name}.register_fake` to add an fake impl."
            )
        out = fn(*args, **kwargs)
        _check_fake_output(self.opdef, out)
        return out


def _check_fake_output(opdef: CustomOpDef, out: Any) -> None:
    schema = opdef._opoverload._schema
    n = len(schema.returns)
    if n == 0:
        if out is not None:
            raise RuntimeError(
                f"The fake implementation of {opdef._qualname} returned {type(out).__name__}, "
                f"but the operator returns nothing (schema: {schema}): return None."
            )
        return
    got = len(out) if isinstance(out, (tuple, list)) and n > 1 else 1
    if n > 1 and not isinstance(out, (tuple, list)):
        got = 1
    if n == 1 and isinstance(out, (tuple, list)) and str(schema.returns[0].type) != "List[Tensor]":
        got = len(out)
    if got != n:
        raise RuntimeError(
            f"The fake implementation of {opdef._qualname} returned {got} output(s) but the "
            f"operator's schema declares {n} ({schema}). Return one tensor per declared output, "
            f"with the shape, dtype and device the real kernel would produce."
        )


def _below_autograd(op: OpOverload, ks: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    state = _tls
    added = AUTOGRAD_WITH_INPLACE_OR_VIEW & ~state.exclude
    state.exclude |= added
    state.refresh()
    try:
        return op._redispatch(ks & _AFTER_AUTOGRAD, *args, **kwargs)
    finally:
        state.exclude &= ~added
        state.refresh()


class _CustomAutogradKernel(LayerKernel):
    """Autograd kernel of a custom op: register_autograd's formula, or a node that raises."""

    def __init__(self, opdef: CustomOpDef) -> None:
        self.opdef = opdef
        self._fn_cls: Any = None

    def passthrough(self, ks: int) -> int | None:
        return ks & _AFTER_AUTOGRAD if not ks & REQUIRES_GRAD_BIT else None

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        op = self.opdef._opoverload
        ks = keyset.repr_
        tensors = _flat_tensors(args, kwargs)
        if not _tls.grad_enabled or not any(t._ks & REQUIRES_GRAD_BIT for t in tensors):
            return _below_autograd(op, ks, args, kwargs)
        if self.opdef._backward_fn is None:
            out = _below_autograd(op, ks, args, kwargs)
            _attach_missing_backward(op, tensors, out)
            return out
        return self._function().apply_op(ks, args, kwargs)

    def _function(self) -> Any:
        if self._fn_cls is None:
            self._fn_cls = _make_function(self.opdef)
        return self._fn_cls


def _flat_tensors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    out = []
    for v in list(args) + list(kwargs.values()):
        if isinstance(v, (list, tuple)):
            out.extend(x for x in v if hasattr(x, "_ks"))
        elif hasattr(v, "_ks"):
            out.append(v)
    return out


def _attach_missing_backward(op: OpOverload, inputs: list[Any], out: Any) -> None:
    from ..autograd.graph import Node, collect_next_edges, set_history

    class _NoFormula(Node):
        _name = f"GeneratedBackwardFor_{op.namespace}_{op._opname}_defaultBackward"

        def apply(self, grads: list[Any]) -> tuple[Any, ...]:
            raise RuntimeError(
                f"Trying to backward through {op} but no autograd formula was registered. "
                f"Please use register_autograd to add one."
            )

    node = _NoFormula(collect_next_edges(*inputs))
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for i, t in enumerate(outs):
        if hasattr(t, "_ks") and t._dtype.category >= 2 and not any(t is x for x in inputs):
            set_history(t, node, i)


def _make_function(opdef: CustomOpDef) -> Any:
    """An autograd.Function whose forward runs the op below autograd and whose backward is
    the registered formula (PyTorch's GeneratedBackwardFor_<ns>_<name>_default)."""
    from ..autograd.function import Function

    op = opdef._opoverload
    schema = op._schema
    names = [a.name for a in schema.arguments]

    class _Fn(Function):
        @staticmethod
        def forward(ctx: Any, ks: Any, kwargs: Any, *args: Any) -> Any:
            return _below_autograd(op, ks, args, kwargs)

        @staticmethod
        def backward(ctx: Any, *grads: Any) -> Any:
            result = opdef._backward_fn(ctx, *grads)  # type: ignore[misc]
            if not isinstance(result, tuple):
                result = (result,)
            n_inputs = len(ctx._custom_arg_count)
            if len(result) != n_inputs:
                raise RuntimeError(
                    f"Expected the backward of {opdef._qualname} to return {n_inputs} gradients "
                    f"(one per input of its schema {schema}); got {len(result)}."
                )
            return (None, None, *result)

        @classmethod
        def apply_op(cls, ks: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            return cls.apply(ks, kwargs, *args)

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
            ks, kwargs, *args = inputs
            ctx._custom_arg_count = names
            full = list(args) + [kwargs[n] for n in names[len(args):] if n in kwargs]
            if opdef._setup_context_fn is not None:
                opdef._setup_context_fn(ctx, tuple(full), output)

    _Fn.__name__ = f"GeneratedBackwardFor_{op.namespace}_{op._opname}_default"
    _Fn._backward_cls._name = _Fn.__name__ + "Backward"
    return _Fn


# -- the decorator ---------------------------------------------------------------------------


def custom_op(
    name: str,
    fn: Callable[..., Any] | None = None,
    /,
    *,
    mutates_args: str | Iterable[str],
    device_types: str | Sequence[str] | None = None,
    schema: str | None = None,
    tags: Any = None,
) -> Any:
    """Wrap a Python function into a dispatcher operator `ns::name` (torch.library.custom_op)."""
    from ..dispatcher.infer_schema import infer_schema
    from ..dispatcher.schema import parse_schema

    def inner(fn: Callable[..., Any]) -> CustomOpDef:
        ns, opname = _parse_name(name)
        if schema is None:
            schema_str = infer_schema(fn, mutates_args=mutates_args)
        else:
            schema_str = schema
            parsed = parse_schema(f"{opname}{schema}" if schema.startswith("(") else schema)
            declared = {a.name for a in parsed.arguments if a.alias_info is not None and a.alias_info.is_write}
            if mutates_args != "unknown":
                wanted = set(mutates_args) if not isinstance(mutates_args, str) else None
                if wanted is None:
                    raise ValueError(
                        "mutates_args must either be a sequence of the names of the arguments "
                        "that are mutated or the string 'unknown'. "
                    )
                if wanted != declared:
                    raise ValueError(
                        f"Attempted to create a custom op with `mutates_args={sorted(wanted)}` "
                        f"and `schema={schema}`. The schema suggests that the op mutates "
                        f"{sorted(declared)} which is different from what was provided to "
                        f"`mutates_args`. Please make these consistent."
                    )
        sig_params = _kwonly_tensor_params(fn)
        if sig_params:
            raise ValueError(
                f"custom_op with kwarg-only Tensor args. Please make your tensors not kwarg-only. "
                f"Got: {schema_str}"
            )
        if name in OPDEFS:
            raise RuntimeError(
                f"Tried to register an operator ({name}{schema_str}) with the same name and "
                f"overload name multiple times."
            )
        opdef = CustomOpDef(ns, opname, schema_str, fn)
        opdef.register_kernel(device_types, fn)
        OPDEFS[name] = opdef
        return opdef

    return inner(fn) if fn is not None else inner


def _kwonly_tensor_params(fn: Callable[..., Any]) -> list[str]:
    import inspect

    from ..tensor._tensor import Tensor

    out = []
    for p in inspect.signature(fn).parameters.values():
        ann = p.annotation
        if p.kind is inspect.Parameter.KEYWORD_ONLY and (ann is Tensor or ann == "Tensor"):
            out.append(p.name)
    return out
