"""`keyroute.library.custom_op`: Python functions as dispatcher operators (torch.library).

    @custom_op("demo::rms_norm", mutates_args=())
    def rms_norm(x: Tensor, w: Tensor, eps: float) -> Tensor: ...

    @rms_norm.register_fake
    def _(x, w, eps):
        return keyroute.empty_like(x)

The schema is inferred from the annotations (`demo::rms_norm(Tensor x, Tensor w, float eps) ->
Tensor`). Registrations follow PyTorch's keys: the kernel on CompositeExplicitAutograd (or the
given device keys), the fake implementation on Meta (fake tensors use it too), the autograd
kernel on the Autograd alias (an autograd.Function named GeneratedBackwardFor_<ns>_<name>_default
whose backward is the registered formula, or raises), and, for an operator that writes its
inputs, an ADInplaceOrView kernel bumping the versions of the arguments in `mutates_args`.

Everything is checked before anything is registered: a failing definition leaves no operator.
Defining a name again replaces the earlier definition (PyTorch's behaviour).
"""

from __future__ import annotations

import contextlib
import inspect
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..dispatcher.boxing import normalize_args
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, DispatchKeySet, full_after_bits, key_bits
from ..dispatcher.operator import LayerKernel, OpOverload, fast_call, find_op
from ..dispatcher.registration import Library, register_helper_file
from ..dispatcher.schema import OPT_TENSOR_LIST, OTHER, TENSOR, TENSOR_LIST
from ..dispatcher.tls import AUTOGRAD_KEYSET
from ..dispatcher.tls import state as _tls

__all__ = ["custom_op", "CustomOpDef", "OPDEFS", "device_key"]

register_helper_file(__file__)  # registration sites name the user's line, not this file

_AFTER_AUTOGRAD = full_after_bits(DispatchKey.AutogradOther)
_AFTER_ADINPLACE = full_after_bits(DispatchKey.ADInplaceOrView)
#: qualified name -> CustomOpDef (keeps their libraries alive, as PyTorch's OPDEF_TO_LIB).
OPDEFS: dict[str, CustomOpDef] = {}


def device_key(device_type: str | None) -> str:
    """The dispatch key a kernel for `device_type` goes on (None: every device)."""
    if device_type is None:
        return "CompositeExplicitAutograd"
    from ..tensor.device import Device

    dt = Device(device_type).type
    return {
        "cpu": "CPU",
        "cuda": "CUDA",
        "meta": "Meta",
        "xpu": "XPU",
        "mps": "MPS",
        "privateuseone": "PrivateUse1",
    }.get(dt, dt.upper())


def _parse_name(qualname: str) -> tuple[str, str]:
    if "::" not in qualname:
        # PyTorch fails here unpacking `name.split("::")`; keyroute says what it expected.
        raise ValueError(
            f"Expected there to be a namespace in {qualname}, i.e. The operator name should look "
            f"something like ns::foo"
        )
    ns, name = qualname.split("::", 1)
    return ns, name


def _mutable_or_view(schema: Any) -> tuple[bool, bool]:
    is_view = any(r.alias_info is not None and not r.alias_info.is_write for r in schema.returns)
    return schema.is_mutable, is_view


def _is_functional(schema: Any) -> bool:
    """PyTorch's is_functional_schema(allow_valid_view=True)."""
    if schema.is_mutable:
        return False
    if any(r.alias_info is not None and not r.alias_info.is_write for r in schema.returns):
        n_in = sum(1 for a in schema.arguments if a.kind == TENSOR)
        n_out = sum(1 for r in schema.returns if r.kind == TENSOR)
        return n_in == 1 and n_out == 1
    return bool(schema.returns)


class CustomOpDef:
    """A custom operator: callable, with register_fake / register_autograd / register_kernel."""

    def __init__(
        self,
        namespace: str,
        name: str,
        schema: str | None,
        fn: Callable[..., Any] | None,
        tags: Any = None,
        *,
        existing: OpOverload | None = None,
    ) -> None:
        self._namespace = namespace
        self._name = name
        self._schema = schema
        self._tags = tags
        self._init_fn = fn
        self._abstract_fn: Callable[..., Any] | None = None
        self._backward_fn: Callable[..., Any] | None = None
        self._setup_context_fn: Callable[..., Any] | None = None
        self._backend_fns: dict[str | None, Callable[..., Any]] = {}
        self._disabled_kernel: set[str | None] = set()
        self._fn_cls: Any = None
        # An operator defined elsewhere (the functional API): kernels are added on demand.
        self._existing = existing is not None
        self._fake_registered = self._autograd_registered = not self._existing
        lib = Library(namespace, "FRAGMENT")
        lib._boxed = False  # kernels below normalize arguments themselves (cheaper)
        self._lib = lib
        try:
            if existing is None:
                assert schema is not None
                lib.define(f"{name}{schema}" if schema.startswith("(") else schema)
                op = find_op(self._qualname)
                assert op is not None
            else:
                op = existing
            self._opoverload: OpOverload = op
            if existing is None:
                self._register_to_dispatcher()
        except BaseException:
            lib._destroy()
            raise
        self.__name__ = name
        self.__doc__ = getattr(fn, "__doc__", None)
        self._call = fast_call(op)

    @property
    def _qualname(self) -> str:
        return f"{self._namespace}::{self._name}"

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(*args, **kwargs)

    # -- registrations -----------------------------------------------------------------------
    def register_kernel(
        self, device_types: str | Sequence[str] | None, fn: Callable[..., Any] | None = None, /
    ) -> Any:
        """Register `fn` as the implementation for these device types (None: all devices)."""

        def inner(fn: Callable[..., Any]) -> Callable[..., Any]:
            types: list[str | None]
            if device_types is None or isinstance(device_types, str):
                types = [device_types]
            else:
                types = list(device_types)
            for dt in types:
                if dt not in self._backend_fns:
                    self._lib.impl(self._opoverload, _backend_kernel(self, dt), device_key(dt))
                self._backend_fns[dt] = fn  # the registered kernel reads the table
            return fn

        if device_types is not None and not any(
            a.kind != OTHER for a in self._opoverload._schema.arguments
        ):
            index = _device_arg_index(self._opoverload._schema)
            if index is None:
                raise ValueError(
                    "Functions without tensor inputs are required to have a `device: "
                    "torch.device` argument"
                )
            self._register_backend_select(index)
        return inner(fn) if fn is not None else inner

    def _register_backend_select(self, index: int) -> None:
        if getattr(self, "_backend_select", False):
            return
        op = self._opoverload

        def backend_select(keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
            from ..tensor.device import Device

            name = op._schema.arguments[index].name
            device = Device(args[index] if index < len(args) else kwargs[name]).type
            if device not in self._backend_fns:
                raise RuntimeError(
                    f"{self._name} does not have a kernel registered for {device}. Please use "
                    f"register_kernel to do so."
                )
            key = getattr(DispatchKey, device_key(device))
            return op._redispatch(key_bits(key), *args, **kwargs)

        self._lib.impl(op, backend_select, "BackendSelect", with_keyset=True)
        self._backend_select = True

    @contextlib.contextmanager
    def set_kernel_enabled(self, device_type: str, enabled: bool = True) -> Iterator[None]:
        """Within the block, run the function given to custom_op instead of the kernel
        registered for `device_type` (enabled=False), or the kernel again (enabled=True)."""
        before = device_type in self._disabled_kernel
        if device_type not in self._backend_fns:
            warnings.warn(
                f"Attempted to set kernel for device type {device_type} but no kernel is "
                f"registered for it",
                stacklevel=3,
            )
        if enabled:
            self._disabled_kernel.discard(device_type)
        else:
            self._disabled_kernel.add(device_type)
        try:
            yield
        finally:
            if before:
                self._disabled_kernel.add(device_type)
            else:
                self._disabled_kernel.discard(device_type)

    def register_fake(self, fn: Callable[..., Any], /) -> Callable[..., Any]:
        """Register the fake (meta) implementation: output metadata from input metadata."""
        if not self._fake_registered:
            self._lib.impl(self._opoverload, _FakeKernel(self), "Meta")
            self._fake_registered = True
        self._abstract_fn = fn
        return fn

    def register_vmap(self, func: Callable[..., Any] | None = None, /) -> Any:
        """Register the operator's vmap rule (torch.library.register_vmap):
        func(info, in_dims, *args, **kwargs) -> (output, out_dims)."""
        from ..layers.functorch import register_vmap_rule

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            register_vmap_rule(self._qualname.removesuffix(".default"), fn)
            return fn

        return register(func) if func is not None else register

    def register_autocast(self, device_type: str, cast_inputs: Any) -> Any:
        """Cast floating inputs on `device_type` to `cast_inputs` inside autocast regions
        (keyroute/_library/autocast.py)."""
        from .autocast import register_on_opdef

        return register_on_opdef(self, device_type, cast_inputs)

    def register_autograd(
        self, backward: Callable[..., Any], /, *, setup_context: Callable[..., Any] | None = None
    ) -> None:
        """Register backward(ctx, *grads) and setup_context(ctx, inputs, output)."""
        schema = self._opoverload._schema
        if not _is_functional(schema):
            raise RuntimeError(
                f"Cannot register autograd formula for non-functional operator {self} with "
                f"schema {schema}. Please create a functional operator and register an autograd "
                f"formula for that."
            )
        if not self._autograd_registered:
            self._lib.impl(
                self._opoverload, _CustomAutogradKernel(self), "Autograd", with_keyset=True
            )
            self._autograd_registered = True
        self._backward_fn = backward
        self._setup_context_fn = setup_context

    def _register_to_dispatcher(self) -> None:
        lib = self._lib
        op = self._opoverload
        schema = op._schema
        lib.impl(op, _FakeKernel(self), "Meta")
        lib.impl(op, _CustomAutogradKernel(self), "Autograd", with_keyset=True)
        mutable, view = _mutable_or_view(schema)
        if view:
            from ..layers.inplace_or_view import register_for

            register_for(op, lib)  # view tracking, as PyTorch's ADInplaceOrView fallback
        elif mutable:
            lib.impl(op, _adinplace_passthrough(op), "ADInplaceOrView", with_keyset=True)
        if mutable:
            # PyTorch installs its ADInplaceOrView fallback kernel first, then the version-
            # bumping kernel over it: the dump shows both.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lib.impl(op, _version_bump_kernel(op), "ADInplaceOrView", with_keyset=True)

    def _autograd_function(self) -> Any:
        if self._fn_cls is None:
            self._fn_cls = _make_autograd_function(self)
        return self._fn_cls


def _device_arg_index(schema: Any) -> int | None:
    for i, a in enumerate(schema.arguments):
        if a.name == "device" and str(a.type) == "Device":
            return i
    return None


def _version_bump_kernel(op: OpOverload) -> Callable[..., Any]:
    """Bump the version of every argument the schema writes, then run the op below
    ADInplaceOrView (the kernel's own in-place ops still bump too, as in PyTorch)."""
    from ..autograd._meta import bump_version

    schema = op._schema
    written = [(i, schema.arguments[i].name) for i in schema.mutated_arg_indices]

    def kernel(ks: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        n = len(args)
        for i, name in written:
            value = args[i] if i < n else kwargs.get(name)
            for t in value if isinstance(value, (list, tuple)) else (value,):
                if hasattr(t, "_key_set"):
                    bump_version(t)
        return op._redispatch(ks.repr_ & _AFTER_ADINPLACE, *args, **kwargs)

    return kernel


def _adinplace_passthrough(op: OpOverload) -> Callable[..., Any]:
    def kernel(ks: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        return op._redispatch(ks.repr_ & _AFTER_ADINPLACE, *args, **kwargs)

    return kernel


# -- kernels -----------------------------------------------------------------------------------


def _normalizer(schema: Any) -> Callable[[tuple[Any, ...], dict[str, Any]], Any] | None:
    """How to turn a call's (args, kwargs) into PyTorch's boxed form for this schema, or None
    when positional calls need no change (no defaults, no keyword-only parameters)."""
    from ..dispatcher.boxing import normalize_args

    if all(not a.kwarg_only and not a.has_default_value() for a in schema.arguments):
        return None
    return lambda args, kwargs: normalize_args(schema, args, kwargs)


def _backend_kernel(opdef: CustomOpDef, device_type: str | None) -> Callable[..., Any]:
    """The device kernel: the user's function for this device type (looked up per call, so a
    later register_kernel replaces it), with PyTorch's checks: the number of outputs, and no
    output aliasing an input. A closure: the dispatcher calls it directly on every call."""
    from ..tensor._tensor import Tensor

    schema = opdef._opoverload._schema
    normalize = _normalizer(schema)
    n_args = len(schema.arguments)
    fns = opdef._backend_fns
    disabled = opdef._disabled_kernel
    # One tensor out and no list arguments: the aliasing check is written out below.
    simple = (
        len(schema.returns) == 1
        and schema.returns[0].kind == TENSOR
        and not any(a.kind in (TENSOR_LIST, OPT_TENSOR_LIST) for a in schema.arguments)
    )

    # A declared view may alias its input: no aliasing check at all (decided once, not per call).
    declared_view = any(
        r.alias_info is not None and not r.alias_info.is_write for r in schema.returns
    )

    def kernel(*args: Any, **kwargs: Any) -> Any:
        if normalize is not None and (kwargs or len(args) != n_args):
            args, kwargs = normalize(args, kwargs)
        if disabled and device_type in disabled:
            fn = opdef._init_fn
        else:
            fn = fns[device_type]
        result = fn(*args, **kwargs)
        if simple and isinstance(result, Tensor) and not kwargs:
            data = result._data
            base = getattr(data, "base", None)
            for a in args:
                if isinstance(a, Tensor):
                    ad = a._data
                    if (
                        a is result
                        or ad is data
                        or (
                            (base is not None or getattr(ad, "base", None) is not None)
                            and _storage_of(ad) is _storage_of(data)
                        )
                    ):
                        _raise_alias(opdef, fn)
            return result
        _check_outputs(opdef, "kernel", result)
        if result is not None and not declared_view:
            _check_aliasing(opdef, fn, args, kwargs, result)
        return result

    return kernel


def _storage_of(arr: Any) -> Any:
    """The array owning `arr`'s memory. An array with no base owns itself, so the common case
    costs one attribute read; `_root_array` is imported once (not per call: it sat on the path
    of every custom-op call)."""
    base = getattr(arr, "base", None)
    if base is None:
        return arr
    global _root_array
    if _root_array is None:
        from ..tensor._tensor import _root_array as root

        _root_array = root
    try:
        return _root_array(arr)
    except Exception:  # noqa: BLE001 - metadata-only arrays have no storage to share
        return arr


_root_array: Callable[[Any], Any] | None = None


def _raise_alias(opdef: CustomOpDef, fn: Callable[..., Any]) -> None:
    raise RuntimeError(
        f"{opdef._name} (with implementation in {inspect.getmodule(fn)}): The output of this "
        f"custom operator (1) must not also be an input to this custom operator and (2) may "
        f"not alias any inputs to this custom operator or other returns. The most common way to "
        f"trigger this error is if we have y = custom_op(x) and y and x are the same Tensor. "
        f"Please instead return a clone of the offending output tensor(s) (e.g. return "
        f"x.clone()) or refactor the custom operator to not return y."
    )


def _flat_tensors(values: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if isinstance(v, list):
            out.extend(x for x in v if hasattr(x, "_key_set"))
        elif hasattr(v, "_key_set"):
            out.append(v)
    return out


def _check_aliasing(
    opdef: CustomOpDef, fn: Callable[..., Any], args: Any, kwargs: Any, result: Any
) -> None:
    outs = _flat_tensors(result if isinstance(result, tuple) else (result,))
    if not outs:
        return
    schema = opdef._opoverload._schema
    if any(r.alias_info is not None and not r.alias_info.is_write for r in schema.returns):
        return  # a declared view may alias its input
    ins = _flat_tensors(list(args) + list(kwargs.values()))
    # Storages of the inputs once (not once per output); identity tests in plain loops (no
    # generator per output: this runs on every call of a multi-output op).
    in_storages = [_storage_of(t._data) for t in ins]
    seen: list[Any] = []
    for o in outs:
        storage = _storage_of(o._data)
        for t, s in zip(ins, in_storages):
            if o is t or s is storage:
                _raise_alias(opdef, fn)
        for s in seen:
            if s is storage:
                _raise_alias(opdef, fn)
        seen.append(storage)


def _check_outputs(opdef: CustomOpDef, what: str, out: Any) -> None:
    """The number (and kind) of outputs against the schema; PyTorch fails here converting the
    result (TypeError for a missing tuple, RuntimeError for a wrong element)."""
    schema = opdef._opoverload._schema
    returns = schema.returns
    n = len(returns)
    impl = "fake implementation" if what == "fake" else "implementation"
    if n == 0:
        if out is not None:
            raise RuntimeError(
                f"The {impl} of {opdef._qualname} returned {_describe(out)}, but its schema "
                f"({schema}) returns nothing: return None."
            )
        return
    if n == 1:
        if returns[0].kind == TENSOR_LIST:
            if not isinstance(out, (list, tuple)):
                raise TypeError(
                    f"The {impl} of {opdef._qualname} returned {_describe(out)}, but its schema "
                    f"({schema}) returns a list of tensors."
                )
            return
        if returns[0].kind == TENSOR and not hasattr(out, "_key_set"):
            raise RuntimeError(
                f"Unable to cast {out!r} to Tensor: the {impl} of {opdef._qualname} returned "
                f"{_describe(out)}, but its schema ({schema}) declares one tensor output."
            )
        return
    if not isinstance(out, (tuple, list)):
        raise TypeError(
            f"Object of type '{type(out).__name__}' is not an instance of 'sequence': the {impl} "
            f"of {opdef._qualname} returned {_describe(out)}, but its schema ({schema}) declares "
            f"{n} outputs: return a tuple of {n}."
        )
    if len(out) != n:
        raise RuntimeError(
            f"The {impl} of {opdef._qualname} returned {len(out)} outputs but its schema "
            f"({schema}) declares {n}: return one value per declared output."
        )


def _describe(out: Any) -> str:
    if isinstance(out, (tuple, list)):
        return f"a {type(out).__name__} of {len(out)} values"
    return "None" if out is None else f"a {type(out).__name__}"


class _FakeKernel:
    """Meta (and fake-tensor) kernel: the registered fake implementation, output-checked."""

    __slots__ = ("opdef",)

    def __init__(self, opdef: CustomOpDef) -> None:
        self.opdef = opdef

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        opdef = self.opdef
        fn = opdef._abstract_fn
        normalize = _normalizer(opdef._opoverload._schema)
        if normalize is not None:
            args, kwargs = normalize(args, kwargs)
        if fn is None:
            schema = opdef._opoverload._schema
            if schema.is_mutable and not schema.returns:
                return None  # PyTorch's trivial fake implementation
            name = getattr(opdef._init_fn, "__name__", opdef._name)
            raise RuntimeError(
                f"There was no fake impl registered for {opdef}. This is necessary for "
                f"torch.compile/export/fx tracing to work. Please use `{name}.register_fake` "
                f"to add an fake impl."
            )
        out = fn(*args, **kwargs)
        _check_outputs(opdef, "fake", out)
        return out


class _CustomAutogradKernel(LayerKernel):
    """Autograd kernel: below autograd when nothing needs a gradient (a pure passthrough, so
    the dispatcher skips it), else the op's autograd.Function."""

    def __init__(self, opdef: CustomOpDef) -> None:
        self.opdef = opdef

    def passthrough(self, ks: int) -> int | None:
        return ks & _AFTER_AUTOGRAD if not ks & REQUIRES_GRAD_BIT else None

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        opdef = self.opdef
        op = opdef._opoverload
        schema = op._schema
        ks = keyset.repr_
        if _tls.thread_state.grad_enabled and any(
            t._key_set & REQUIRES_GRAD_BIT
            for t in _flat_tensors(list(args) + list(kwargs.values()))
        ):
            # Boxed as PyTorch's dispatcher passes them: the Function's inputs (and so
            # ctx.needs_input_grad) are the positional arguments left after trailing defaults.
            args, kwargs = normalize_args(schema, args, kwargs)
            return opdef._autograd_function().run(ks, args, kwargs)
        return _below_autograd(op, ks, args, kwargs)


def _below_autograd(op: OpOverload, ks: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """op below autograd, with the autograd keys excluded meanwhile (AutoDispatchBelowAutograd)."""
    state = _tls.thread_state
    added = AUTOGRAD_KEYSET & ~state.exclude
    if not added:
        return op._redispatch(ks & _AFTER_AUTOGRAD, *args, **kwargs)
    state.exclude |= added
    state.refresh()
    try:
        return op._redispatch(ks & _AFTER_AUTOGRAD, *args, **kwargs)
    finally:
        state.exclude &= ~added
        state.refresh()


class _Metadata:
    """The last input of the generated Function: what the forward needs besides tensors."""

    __slots__ = ("keyset", "kwargs", "spec")

    def __init__(self, keyset: int, kwargs: dict[str, Any], spec: list[int | None]) -> None:
        self.keyset = keyset
        self.kwargs = kwargs
        self.spec = spec  # per argument: the length of a flattened tensor list, else None


def _flatten(args: tuple[Any, ...]) -> tuple[list[Any], list[int | None]]:
    flat: list[Any] = []
    spec: list[int | None] = []
    for a in args:
        if isinstance(a, (list, tuple)) and a and all(hasattr(x, "_key_set") for x in a):
            flat.extend(a)
            spec.append(len(a))
        else:
            flat.append(a)
            spec.append(None)
    return flat, spec


def _unflatten(flat: Sequence[Any], spec: list[int | None]) -> list[Any]:
    out: list[Any] = []
    i = 0
    for n in spec:
        if n is None:
            out.append(flat[i])
            i += 1
        else:
            out.append(list(flat[i : i + n]))
            i += n
    return out


def _make_autograd_function(opdef: CustomOpDef) -> Any:
    """PyTorch's generated autograd.Function: forward runs the op below autograd (and the user's
    setup_context), backward is the registered formula or raises."""
    from ..autograd.function import Function

    op = opdef._opoverload
    schema = op._schema
    has_kwarg_only = any(a.kwarg_only for a in schema.arguments)
    positional = [a for a in schema.arguments if not a.kwarg_only]

    def forward(ctx: Any, *flat: Any) -> Any:
        meta: _Metadata = flat[-1]
        args = _unflatten(flat[:-1], meta.spec)
        result = _below_autograd(op, meta.keyset, tuple(args), meta.kwargs)
        if opdef._setup_context_fn is not None:
            # Arguments left at their defaults are filled in for the user, as PyTorch does.
            full = list(args) + [
                p.default_value for p in positional[len(args) :] if p.has_default_value()
            ]
            kwargs = dict(meta.kwargs)
            for p in schema.arguments:
                if p.kwarg_only and p.name not in kwargs and p.has_default_value():
                    kwargs[p.name] = p.default_value
            if has_kwarg_only:
                opdef._setup_context_fn(
                    ctx=ctx, inputs=tuple(full), keyword_only_inputs=kwargs, output=result
                )
            else:
                opdef._setup_context_fn(ctx=ctx, inputs=tuple(full), output=result)
        ctx._custom_spec = meta.spec
        return result

    def backward(ctx: Any, *grads: Any) -> Any:
        if opdef._backward_fn is None:
            raise RuntimeError(
                f"Trying to backward through {op} but no autograd formula was registered. "
                f"Please use register_autograd to add one."
            )
        prev = ctx.needs_input_grad
        spec = ctx._custom_spec
        try:
            needs = prev[:-1]
            if any(n is not None for n in spec):
                needs = tuple(_unflatten(needs, spec))
            ctx.needs_input_grad = needs
            result = opdef._backward_fn(ctx, *grads)
        finally:
            ctx.needs_input_grad = prev
        if not isinstance(result, tuple):
            result = (result,)
        flat: list[Any] = []
        for g, n in zip(result, spec + [None] * (len(result) - len(spec))):
            if n is not None and isinstance(g, (list, tuple)):
                flat.extend(g)
            elif n is not None and g is None:
                flat.extend([None] * n)
            else:
                flat.append(g)
        return (*flat, None)

    name = f"GeneratedBackwardFor_{op.namespace}_{op._opname}_{op._overloadname}"
    cls = type(
        name, (Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    )

    def run(ks: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        flat, spec = _flatten(args)
        return cls.apply(*flat, _Metadata(ks, kwargs, spec))

    cls.run = staticmethod(run)
    return cls


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
        # Everything PyTorch checks after defining is checked first: a failing definition
        # leaves nothing registered (and an earlier definition of the name in place).
        text = f"{opname}{schema_str}" if schema_str.startswith("(") else schema_str
        parsed = parse_schema(text)
        if any(a.kwarg_only and a.kind != OTHER for a in parsed.arguments):
            raise NotImplementedError(
                f"custom_op with kwarg-only Tensor args. Please make your tensors not "
                f"kwarg-only. Got: {opname}{schema_str}"
            )
        if schema is not None:
            expected = {a.name for a in parsed.arguments if a.is_write}
            if expected != set(mutates_args):
                raise ValueError(
                    f"Attempted to create a custom op with `mutates_args={mutates_args}` and "
                    f"`schema={schema}. The schema suggests that the op mutates {expected}which "
                    f"is different from what was provided to us in `mutates_args`. Please make "
                    f"these consistent."
                )
        if device_types is not None and not any(a.kind != OTHER for a in parsed.arguments):
            if _device_arg_index(parsed) is None:
                raise ValueError(
                    "Functions without tensor inputs are required to have a `device: "
                    "torch.device` argument"
                )
        qual = f"{ns}::{opname}"
        previous = OPDEFS.pop(qual, None)
        if previous is not None:  # PyTorch replaces an earlier custom_op of the same name
            previous._lib._destroy()
        result = CustomOpDef(ns, opname, schema_str, fn, tags)
        try:
            result.register_kernel(device_types, fn)
        except BaseException:
            result._lib._destroy()
            raise
        OPDEFS[qual] = result
        return result

    return inner(fn) if fn is not None else inner
