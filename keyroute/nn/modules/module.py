"""Module: the base class of neural-network layers (torch.nn.Module).

Parameters, buffers and submodules assigned as attributes are registered; `parameters()`,
`named_modules()`, `state_dict()`/`load_state_dict()`, `train()`/`eval()`, `to()`,
`to_empty()`, `apply()`, `zero_grad()`, forward (pre-)hooks and `repr` behave as PyTorch's.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from ...tensor._tensor import Tensor
from ..parameter import Buffer, Parameter

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook"]

# Hooks run around every module's forward (torch.nn.modules.module's global hooks).
_global_forward_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
#: Bumped by every Module.__setattr__: compiled modules re-read their state when it moved.
_SETATTR_EPOCH = [0]
#: Module.compile's implementation, set by keyroute._dynamo.api.
_COMPILE_IN_PLACE: list[Callable[..., Any]] = [lambda *a, **k: None]
_global_forward_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()


class _RemovableHandle:
    _next_id = 0

    def __init__(self, store: dict[int, Any]) -> None:
        self.store = store
        self.id = _RemovableHandle._next_id
        _RemovableHandle._next_id += 1

    def remove(self) -> None:
        self.store.pop(self.id, None)

    def __enter__(self) -> _RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


class _IncompatibleKeys:
    def __init__(self, missing_keys: list[str], unexpected_keys: list[str]) -> None:
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __iter__(self) -> Iterator[list[str]]:
        return iter((self.missing_keys, self.unexpected_keys))

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (
            f"_IncompatibleKeys(missing_keys={self.missing_keys}, "
            f"unexpected_keys={self.unexpected_keys})"
        )


class Module:
    """Base class for all neural network modules."""

    training: bool
    _version = 1

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments beyond self")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks_with_kwargs", set())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks_with_kwargs", set())

    forward: Callable[..., Any]

    def forward(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[no-redef]
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    # -- calling ---------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _global_forward_pre_hooks or _global_forward_hooks:
            return self._call_with_global_hooks(args, kwargs)
        return self._call_impl(args, kwargs)

    def _call_with_global_hooks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        for hook in list(_global_forward_pre_hooks.values()):
            res = hook(self, args)
            if res is not None:
                args = res if isinstance(res, tuple) else (res,)
        out = self._call_impl(args, kwargs)
        for hook in list(_global_forward_hooks.values()):
            res = hook(self, args, out)
            if res is not None:
                out = res
        return out

    def _call_impl(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._forward_pre_hooks:
            for hid, hook in list(self._forward_pre_hooks.items()):
                if hid in self._forward_pre_hooks_with_kwargs:
                    res = hook(self, args, kwargs)
                    if res is not None:
                        args, kwargs = res
                else:
                    res = hook(self, args)
                    if res is not None:
                        args = res if isinstance(res, tuple) else (res,)
        out = self.forward(*args, **kwargs)
        if self._forward_hooks:
            for hid, hook in list(self._forward_hooks.items()):
                if hid in self._forward_hooks_with_kwargs:
                    res = hook(self, args, kwargs, out)
                else:
                    res = hook(self, args, out)
                if res is not None:
                    out = res
        return out

    def register_forward_hook(
        self,
        hook: Callable[..., Any],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> _RemovableHandle:
        handle = _RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs.add(handle.id)
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_pre_hook(
        self, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False
    ) -> _RemovableHandle:
        handle = _RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs.add(handle.id)
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """Compile this module's forward in place (torch.nn.Module.compile): later calls run
        through keyroute.compile with the given arguments."""
        # keyroute._dynamo installs the implementation (a lazy import would close a circle).
        _COMPILE_IN_PLACE[0](self, *args, **kwargs)

    # -- attributes --------------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        _SETATTR_EPOCH[0] += 1  # compiled modules re-read their state (keyroute._dynamo guards)
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._remove_from(name)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                    f"(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._remove_from(name)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as child module '{name}' "
                    f"(torch.nn.Module or None expected)"
                )
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Buffer) or (buffers is not None and name in buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                    f"(torch.Tensor or None expected)"
                )
            if isinstance(value, Buffer):
                persistent = value.persistent
                self._remove_from(name)
                self.register_buffer(name, value, persistent=persistent)
            else:
                buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _remove_from(self, name: str) -> None:
        for store in ("_parameters", "_buffers", "_modules"):
            d = self.__dict__.get(store)
            if d is not None and name in d:
                del d[name]
        self.__dict__.pop(name, None)
        self.__dict__.get("_non_persistent_buffers_set", set()).discard(name)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in ("_parameters", "_buffers", "_modules"):
            s = self.__dict__.get(store)
            if s is not None and name in s:
                del s[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return sorted(
            set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules)
        )

    # -- registration ------------------------------------------------------------------------
    def register_parameter(self, name: str, param: Parameter | None) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                f"(torch.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                f"compute the value in the forward() method."
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                f"(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {type(name).__name__}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target: str) -> Module:
        mod = self
        if target == "":
            return mod
        for item in target.split("."):
            if item not in mod._modules:
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = mod._modules[item]
        return mod

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if name not in mod._parameters:
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        return mod._parameters[name]

    # -- iteration -------------------------------------------------------------------------
    def named_modules(
        self, memo: set[int] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self) -> Iterator[Module]:
        for _, m in self.named_children():
            yield m

    def _named_members(
        self, store: str, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Any]]:
        seen: set[int] = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for mod_prefix, mod in modules:
            for name, value in getattr(mod, store).items():
                if value is None:
                    continue
                if remove_duplicate:
                    if id(value) in seen:
                        continue
                    seen.add(id(value))
                yield (mod_prefix + ("." if mod_prefix else "") + name), value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    # -- state -----------------------------------------------------------------------------
    def state_dict(
        self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> dict[str, Any]:
        if destination is None:
            destination = OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        return destination

    def load_state_dict(
        self, state_dict: dict[str, Any], strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        from ...autograd.grad_mode import no_grad

        missing: list[str] = []
        errors: list[str] = []
        expected: set[str] = set()
        for mod_prefix, mod in self.named_modules():
            pre = mod_prefix + "." if mod_prefix else ""
            local = list(mod._parameters.items()) + [
                (n, b) for n, b in mod._buffers.items() if n not in mod._non_persistent_buffers_set
            ]
            for name, current in local:
                if current is None:
                    continue
                key = pre + name
                expected.add(key)
                if key not in state_dict:
                    missing.append(key)
                    continue
                value = state_dict[key]
                if not isinstance(value, Tensor):
                    errors.append(
                        f'While copying the parameter named "{key}", expected torch.Tensor or '
                        f"Tensor-like object from checkpoint but received {type(value)}"
                    )
                    continue
                if tuple(value.shape) != tuple(current.shape):
                    errors.append(
                        f"size mismatch for {key}: copying a param with shape {value.shape} from "
                        f"checkpoint, the shape in current model is {current.shape}."
                    )
                    continue
                if assign:
                    # The module takes the checkpoint's tensor itself (its storage, dtype and
                    # device): how a meta-built model gets real weights without a copy.
                    if name in mod._parameters:
                        if isinstance(value, Parameter):
                            value.requires_grad_(current.requires_grad)
                        else:
                            value = Parameter(value, requires_grad=current.requires_grad)
                        mod._parameters[name] = value
                    else:
                        mod._buffers[name] = value
                else:
                    if current.is_meta and not value.is_meta:
                        import warnings

                        warnings.warn(
                            f"for {key}: copying from a non-meta parameter in the checkpoint to a "
                            f"meta parameter in the current model, which is a no-op. (Did you "
                            f"mean to pass `assign=True` to assign items in the state dictionary "
                            f"to their corresponding key in the module instead of copying them "
                            f"in place?)",
                            UserWarning,
                            stacklevel=2,
                        )
                    with no_grad():
                        current.copy_(value)
        unexpected = [k for k in state_dict if k not in expected]
        if strict:
            if unexpected:
                errors.insert(
                    0,
                    "Unexpected key(s) in state_dict: "
                    + ", ".join(f'"{k}"' for k in unexpected)
                    + ". ",
                )
            if missing:
                errors.insert(
                    0,
                    "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ",
                )
        if errors:
            raise RuntimeError(
                f"Error(s) in loading state_dict for {self._get_name()}:\n\t" + "\n\t".join(errors)
            )
        return _IncompatibleKeys(missing, unexpected)

    # -- modes and conversion ------------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    g = p.grad
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def _apply(self, fn: Callable[[Tensor], Tensor]) -> Module:
        """Apply fn to every parameter, gradient and buffer. As PyTorch's default, a converted
        parameter keeps its identity (its `.data` is replaced, so optimizers holding it stay
        valid); `torch.__future__.set_overwrite_module_params_on_conversion(True)` makes new
        Parameter objects instead, and `set_swap_module_params_on_conversion(True)` swaps the
        new tensors' contents into the old objects (utils.swap_tensors)."""
        from ... import __future__ as future
        from ...autograd.grad_mode import no_grad
        from ...utils import swap_tensors

        overwrite = future.get_overwrite_module_params_on_conversion()
        swap = future.get_swap_module_params_on_conversion()
        for m in self.children():
            m._apply(fn)
        for name, p in self._parameters.items():
            if p is None:
                continue
            with no_grad():
                new = fn(p)
            if new is p:
                continue
            grad = p.grad
            if swap:
                p.grad = None
                try:
                    swap_tensors(p, Parameter(new, requires_grad=p.requires_grad))
                except RuntimeError:
                    # keyroute's autograd holds a weakref to a leaf that has had a gradient
                    # (PyTorch's holds it in C++): replace its data instead, same result.
                    p.data = new
                param = p
            elif not overwrite:
                p.data = new
                param = p
            else:
                param = Parameter(new, requires_grad=p.requires_grad)
                self._parameters[name] = param
            if grad is not None:
                with no_grad():
                    new_grad = fn(grad)
                if not overwrite and not swap:
                    grad.data = new_grad
                    param.grad = grad
                else:
                    param.grad = new_grad.requires_grad_(grad.requires_grad)
        for name, b in self._buffers.items():
            if b is not None:
                self._buffers[name] = fn(b)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        from ..._api.core import _parse_to

        dtype, device, non_blocking, _copy, _mf = _parse_to(args, dict(kwargs))
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}"
            )

        def convert(t: Tensor) -> Tensor:
            dt = (
                dtype if (dtype is not None and (t.is_floating_point() or t.is_complex())) else None
            )
            if device is not None and t.is_meta and str(device) != "meta":
                raise NotImplementedError(
                    "Cannot copy out of meta tensor; no data! Please use "
                    "torch.nn.Module.to_empty() "
                    "instead of torch.nn.Module.to() when moving module from meta to a different "
                    "device."
                )
            return t.to(device=device, dtype=dt, non_blocking=non_blocking)

        return self._apply(convert)

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Move parameters and buffers to `device` without copying their data (uninitialised
        storage of the same shape, dtype and strides; `requires_grad` kept): how a model built
        under `keyroute.device("meta")` gets memory. `recurse=False`: this module's own only."""
        from ..._api.creation import empty_like

        def fn(t: Tensor) -> Tensor:
            return empty_like(t, device=device)

        if recurse:
            return self._apply(fn)
        children = self._modules
        object.__setattr__(self, "_modules", OrderedDict())
        try:
            self._apply(fn)
        finally:
            object.__setattr__(self, "_modules", children)
        return self

    def cpu(self) -> Module:
        return self.to("cpu")

    def float(self) -> Module:  # noqa: A003
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> Module:
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def type(self, dst_type: Any) -> Module:  # noqa: A003
        return self._apply(lambda t: t.type(dst_type))

    # -- printing --------------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        for name, m in self._modules.items():
            text = repr(m)
            text = _addindent(text, 2)
            lines.append(f"({name}): {text}")
        main = self._get_name() + "("
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()


def register_module_forward_pre_hook(hook: Callable[..., Any]) -> _RemovableHandle:
    """hook(module, args) before every module's forward."""
    handle = _RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook: Callable[..., Any]) -> _RemovableHandle:
    """hook(module, args, output) after every module's forward."""
    handle = _RemovableHandle(_global_forward_hooks)
    _global_forward_hooks[handle.id] = hook
    return handle


def _addindent(s: str, n: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * n + line for line in lines)
