"""Infer an operator schema from a Python function's annotations (``torch.library.infer_schema``).

Behaves like PyTorch 2.13's ``torch.library.infer_schema``: the same output strings, the same
refusals (``ValueError("infer_schema(func): ... Got func with signature ...)")``) and the same
quirks. Which Python classes stand for ``Tensor``, ``ScalarType`` (dtype) and ``Device`` is
looked up in a :class:`TypeRegistry`; the default one learns keyroute's classes lazily
(``keyroute.Tensor``, ``keyroute.dtype``, ``keyroute.device``, when they exist) and anything
registered with :func:`register_tensor_type` / :func:`register_type_name`.

Example::

    >>> class T: pass
    >>> reg = TypeRegistry(); reg.register_tensor_type(T)
    >>> def f(x: T, n: int, *, alpha: float = 1.0) -> T: ...
    >>> infer_schema(f, mutates_args=(), op_name="mylib::f", registry=reg)
    'mylib::f(Tensor x, SymInt n, *, float alpha=1.0) -> Tensor'
"""

from __future__ import annotations

import collections.abc
import inspect
import typing
from collections.abc import Callable, Iterable
from types import GenericAlias

__all__ = [
    "Number",
    "TypeRegistry",
    "default_registry",
    "infer_schema",
    "register_tensor_type",
    "register_type_name",
]

#: ``torch.types.Number``: annotate a parameter with it to get a ``Scalar``.
Number = int | float | bool

_UNKNOWN_MUTATES = "unknown"


class TypeRegistry:
    """Which Python types map to which schema types, for :func:`infer_schema`.

    Tensor classes map to ``Tensor`` (with ``Tensor?``, ``Tensor[]``, ``Tensor?[]`` variants).
    ``int``/``float``/``bool``/``str``/:data:`Number` are built in. Other types are registered
    by schema name: ``"ScalarType"`` for a dtype class, ``"Device"`` for a device class (their
    instances are then accepted as defaults), or any other name (``"str"``, ...), each with an
    ``Optional`` variant. The order of registration is the order PyTorch lists types in its
    error messages (Tensor; int, float, bool, str, Number; then named types).

    Example::

        >>> class MyTensor: pass
        >>> class MyDtype: pass
        >>> reg = TypeRegistry()
        >>> reg.register_tensor_type(MyTensor); reg.register_type_name(MyDtype, "ScalarType")
        >>> def f(x: MyTensor, dt: MyDtype) -> MyTensor: ...
        >>> infer_schema(f, mutates_args=(), registry=reg)
        '(Tensor x, ScalarType dt) -> Tensor'
    """

    def __init__(self) -> None:
        self.tensor_types: list[type] = []
        self.type_names: dict[object, str] = {}
        self._param_types: dict | None = None
        self._return_types: dict | None = None

    def register_tensor_type(self, cls: type) -> None:
        """Make annotations with ``cls`` infer as ``Tensor``."""
        if cls not in self.tensor_types:
            self.tensor_types.append(cls)
            self._param_types = self._return_types = None

    def register_type_name(self, py_type: object, schema_type_name: str) -> None:
        """Make annotations with ``py_type`` infer as ``schema_type_name`` (e.g. ``"Device"``)."""
        if self.type_names.get(py_type) != schema_type_name:
            self.type_names[py_type] = schema_type_name
            self._param_types = self._return_types = None

    def types_named(self, schema_type_name: str) -> tuple:
        """The registered Python types that infer as ``schema_type_name``."""
        return tuple(t for t, n in self.type_names.items() if n == schema_type_name)

    def param_types(self) -> dict:
        """Python annotation -> schema type string, in PyTorch's order."""
        if self._param_types is None:
            rows: list[tuple[object, str, bool, bool, bool]] = [
                (t, "Tensor", True, True, False) for t in self.tensor_types
            ]
            rows += [
                (int, "SymInt", True, False, True),
                (float, "float", True, False, True),
                (bool, "bool", True, False, True),
                (str, "str", False, False, False),
                (Number, "Scalar", True, False, False),
            ]
            rows += [(t, n, False, False, False) for t, n in self.type_names.items()]
            result: list[tuple[object, str]] = []
            for row in rows:
                result.extend(_derived_types(*row))
            self._param_types = dict(result)
        return self._param_types

    def return_types(self) -> dict:
        """Python return annotation -> schema type string, in PyTorch's order."""
        if self._return_types is None:
            d: dict[object, str] = {}
            for t in self.tensor_types:
                d[t] = "Tensor"
                d[typing.List[t]] = "Tensor[]"  # noqa: UP006
                d[list[t]] = "Tensor[]"
            d.update({int: "SymInt", float: "float", bool: "bool", Number: "Scalar"})
            self._return_types = d
        return self._return_types


def _derived_types(
    base: object, name: str, list_base: bool, optional_base_list: bool, optional_list_base: bool
) -> list[tuple[object, str]]:
    def seqs(t: object) -> tuple:
        return (
            typing.Sequence[t],  # noqa: UP006
            typing.List[t],  # noqa: UP006
            GenericAlias(collections.abc.Sequence, (t,)),
            GenericAlias(list, (t,)),
        )

    out: list[tuple[object, str]] = [(base, name), (typing.Optional[base], f"{name}?")]  # noqa: UP045
    if list_base:
        out += [(s, f"{name}[]") for s in seqs(base)]
    if optional_base_list:
        out += [(s, f"{name}?[]") for s in seqs(typing.Optional[base])]  # noqa: UP045
    if optional_list_base:
        out += [(typing.Optional[s], f"{name}[]?") for s in seqs(base)]  # noqa: UP045
    return out


_DEFAULT_REGISTRY = TypeRegistry()


def default_registry() -> TypeRegistry:
    """The registry :func:`infer_schema` uses by default (keyroute's types, found lazily).

    Example::

        >>> reg = default_registry()
        >>> isinstance(reg, TypeRegistry)
        True
    """
    reg = _DEFAULT_REGISTRY
    try:
        import keyroute
    except ImportError:  # pragma: no cover
        return reg
    t = getattr(keyroute, "Tensor", None)
    if isinstance(t, type) and t not in reg.tensor_types:
        reg.register_tensor_type(t)
    for attr, name in (("dtype", "ScalarType"), ("device", "Device")):
        t = getattr(keyroute, attr, None)
        if isinstance(t, type) and t not in reg.type_names:
            reg.register_type_name(t, name)
    return reg


def register_tensor_type(cls: type) -> None:
    """Register a tensor class with the default registry (see :class:`TypeRegistry`).

    Example::

        >>> class MyTensor: pass
        >>> register_tensor_type(MyTensor)
    """
    _DEFAULT_REGISTRY.register_tensor_type(cls)


def register_type_name(py_type: object, schema_type_name: str) -> None:
    """Register ``py_type`` as ``schema_type_name`` with the default registry.

    Example::

        >>> class MyDevice: pass
        >>> register_type_name(MyDevice, "Device")
    """
    _DEFAULT_REGISTRY.register_type_name(py_type, schema_type_name)


def _tag_names(tags: object) -> tuple[str, ...]:
    if tags is None:
        return ()
    if isinstance(tags, str) or hasattr(tags, "name"):
        tags = (tags,)
    return tuple(t if isinstance(t, str) else getattr(t, "name", str(t)) for t in tags)


def _tuple_to_list(tuple_type: object) -> object:
    args = typing.get_args(tuple_type)
    if tuple_type is typing.Tuple or tuple_type is tuple or not args:  # noqa: UP006
        return list
    if len(args) == 1:
        return list[args[0]]
    if len(args) == 2 and args[1] is Ellipsis:
        return list[args[0]]
    return list[typing.Union[tuple(args)]]  # noqa: UP007


def infer_schema(
    prototype_function: Callable,
    /,
    *,
    mutates_args: str | Iterable[str],
    op_name: str | None = None,
    tags: object = (),
    registry: TypeRegistry | None = None,
) -> str:
    """The schema string of ``prototype_function``, inferred from its annotations.

    Like ``torch.library.infer_schema``: ``op_name`` prefixes the name (else the result starts
    at ``(``); ``mutates_args`` names the mutated Tensor arguments (or is ``"unknown"``: every
    Tensor argument); ``tags`` may hold ``"inplace"``/``"out"`` (or objects with such a
    ``.name``, like ``torch.Tag``). ``registry`` says which classes are Tensor/dtype/device
    (default: :func:`default_registry`). Refusals raise ``ValueError`` worded like PyTorch's.

    Example::

        >>> class T: pass
        >>> reg = TypeRegistry(); reg.register_tensor_type(T)
        >>> def f(x: T, y: T) -> tuple[T, T]: ...
        >>> infer_schema(f, mutates_args={"y"}, registry=reg)
        '(Tensor x, Tensor(a1!) y) -> (Tensor, Tensor)'
    """
    reg = default_registry() if registry is None else registry
    param_types = reg.param_types()
    tensor_types = tuple(reg.tensor_types)
    device_types = reg.types_named("Device")
    dtype_types = reg.types_named("ScalarType")

    pf_globals = prototype_function.__globals__
    pf_locals = None
    sig = inspect.signature(prototype_function)
    tag_names = _tag_names(tags)
    is_inplace = "inplace" in tag_names
    is_out = "out" in tag_names
    if is_inplace and is_out:
        raise AssertionError("torch.Tag.inplace and torch.Tag.out are mutually exclusive")
    if type(mutates_args) is not str:
        mutates_args = tuple(mutates_args)

    def error_fn(what: str) -> typing.NoReturn:
        raise ValueError(f"infer_schema(func): {what} Got func with signature {sig})")

    def convert_type_string(annotation_type: str) -> object:
        try:
            return eval(annotation_type, pf_globals, pf_locals)
        except NameError as e:
            error_fn(
                f"Unsupported type annotation {annotation_type}. It is not a type. "
                f"({e}). "
                f"If you are using 'from __future__ import annotations', note that "
                f"annotations are evaluated lazily as strings; make sure all types "
                f"referenced in annotations are importable at module scope, not only "
                f"inside a local function."
            )
        except Exception as e:
            error_fn(
                f"Unsupported type annotation {annotation_type}. It is not a type. "
                f"({type(e).__name__}: {e})"
            )

    def unstringify(ty: object) -> tuple[object, bool]:
        if isinstance(ty, str):
            return convert_type_string(ty), True
        origin = typing.get_origin(ty)
        if origin:
            args = typing.get_args(ty)
            new_args = []
            changed = False
            for a in args:
                na, c = unstringify(a)
                new_args.append(na)
                changed |= c
            if changed:
                return GenericAlias(origin, tuple(new_args)), True
        return ty, False

    params: list[str] = []
    seen_args: set[str] = set()
    saw_kwarg_only = False
    first_pos_name = None
    first_pos_type = None
    first_pos_alias = None
    out_aliases: list[str] = []
    out_names: list[str] = []
    for idx, (name, param) in enumerate(sig.parameters.items()):
        if param.kind not in (
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            inspect.Parameter.KEYWORD_ONLY,
        ):
            error_fn("We do not support positional-only args, varargs, or varkwargs.")
        if param.kind == inspect.Parameter.KEYWORD_ONLY and not saw_kwarg_only:
            params.append("*")
            saw_kwarg_only = True
        if param.annotation is inspect.Parameter.empty:
            error_fn(f"Parameter {name} must have a type annotation.")
        annotation_type, _ = unstringify(param.annotation)

        if annotation_type not in param_types:
            if getattr(annotation_type, "__origin__", None) is tuple:
                list_type = _tuple_to_list(annotation_type)
                example = "\n\n"
                if list_type in param_types:
                    example = f"For example, {list_type}.\n\n"
                error_fn(
                    f"Parameter {name} has unsupported type {param.annotation}. "
                    f"We do not support Tuple inputs in schema. As a workaround, please try to "
                    f"use List instead. {example}"
                    f"The valid types are: {param_types.keys()}."
                )
            error_fn(
                f"Parameter {name} has unsupported type {param.annotation}. "
                f"The valid types are: {param_types.keys()}."
            )
        schema_type = param_types[annotation_type]

        if param.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD and first_pos_name is None:
            first_pos_name = name
            first_pos_type = schema_type
            first_pos_alias = f"a{idx}"

        is_mutated = False
        if type(mutates_args) is str:
            if mutates_args != _UNKNOWN_MUTATES:
                raise ValueError(
                    "mutates_args must either be a sequence of the names of "
                    "the arguments that are mutated or the string 'unknown'. "
                )
            if schema_type.startswith("Tensor"):
                is_mutated = True
                schema_type = f"Tensor(a{idx}!){schema_type[len('Tensor') :]}"
        elif name in mutates_args:
            is_mutated = True
            if not schema_type.startswith("Tensor"):
                error_fn(
                    f"Parameter {name} is in mutable_args but only Tensors or collections of "
                    "Tensors can be mutated"
                )
            schema_type = f"Tensor(a{idx}!){schema_type[len('Tensor') :]}"
        if is_out and is_mutated:
            if param.kind != inspect.Parameter.KEYWORD_ONLY:
                error_fn("torch.Tag.out requires mutable arguments to be keyword-only.")
            if schema_type != f"Tensor(a{idx}!)":
                error_fn("torch.Tag.out only supports mutable keyword-only Tensor arguments.")
            out_aliases.append(f"a{idx}")
            out_names.append(name)
        seen_args.add(name)
        default = param.default
        if default is inspect.Parameter.empty:
            params.append(f"{schema_type} {name}")
            continue
        if default is None or isinstance(default, (int, float, bool)):
            default_repr = str(default)
        elif isinstance(default, (str, *device_types)):
            default_repr = f'"{default}"'
        elif dtype_types and isinstance(default, dtype_types):
            dtype_repr = str(default)
            if "." not in dtype_repr:
                raise AssertionError(f"dtype repr {dtype_repr!r} must start with 'torch.'")
            default_repr = dtype_repr.rsplit(".", 1)[1]
        else:
            error_fn(
                f"Parameter {name} has an unsupported default value type {type(default)}. "
                f"Please file an issue on GitHub so we can prioritize this."
            )
        params.append(f"{schema_type} {name}={default_repr}")

    if mutates_args != _UNKNOWN_MUTATES:
        not_seen = set(mutates_args) - seen_args
        if len(not_seen) > 0:
            error_fn(
                f"{not_seen} in mutates_args were not found in "
                f"the custom op's signature. "
                f"mutates_args should contain the names of all args that the "
                f"custom op mutates, or just the string 'unknown' if you don't know."
            )
    if is_inplace:
        if first_pos_name is None:
            error_fn("torch.Tag.inplace requires a positional Tensor argument.")
        if first_pos_type != "Tensor":
            error_fn("torch.Tag.inplace requires the first positional argument to be a Tensor.")
        if type(mutates_args) is str or set(mutates_args) != {first_pos_name}:
            error_fn(
                "torch.Tag.inplace requires mutates_args to contain exactly "
                f"the first positional argument, got {mutates_args}."
            )
    if is_out and len(out_aliases) == 0:
        error_fn("torch.Tag.out requires at least one mutable keyword-only Tensor argument.")
    return_annotation, _ = unstringify(sig.return_annotation)
    if is_out:
        ret = _out_return(return_annotation, out_aliases, out_names, tensor_types, error_fn)
    else:
        ret = _parse_return(return_annotation, reg.return_types(), error_fn)
    if is_inplace:
        if ret != "Tensor":
            error_fn("torch.Tag.inplace requires the return annotation to be torch.Tensor.")
        ret = f"Tensor({first_pos_alias}!)"
    if op_name is not None:
        return f"{op_name}({', '.join(params)}) -> {ret}"
    return f"({', '.join(params)}) -> {ret}"


def _parse_return(annotation: object, return_types: dict, error_fn: Callable) -> str:
    if annotation is None:
        return "()"
    if annotation is inspect.Parameter.empty:
        error_fn("No return type annotation was provided. Please add one.")
    if typing.get_origin(annotation) is not tuple:
        if annotation not in return_types:
            error_fn(
                f"Return has unsupported type {annotation}. The valid types are: {return_types}."
            )
        return return_types[annotation]
    args = typing.get_args(annotation)
    for arg in args:
        if arg not in return_types:
            error_fn(
                f"Return has unsupported type {annotation}. The valid types are: {return_types}."
            )
    output = ", ".join(return_types[a] for a in args)
    if len(args) == 1:  # a one-element tuple is spelt ((T))
        output = "(" + output + ")"
    return "(" + output + ")"


def _out_return(
    annotation: object,
    out_aliases: list[str],
    out_names: list[str],
    tensor_types: tuple,
    error_fn: Callable,
) -> str:
    if len(out_aliases) == 1:
        matches = annotation in tensor_types
    else:
        args = typing.get_args(annotation)
        matches = (
            typing.get_origin(annotation) is tuple
            and len(args) == len(out_aliases)
            and all(a in tensor_types for a in args)
        )
    if not matches:
        error_fn(
            "torch.Tag.out requires the return annotation to match the "
            f"mutable keyword-only Tensor arguments {tuple(out_names)}."
        )
    rets = [f"Tensor({a}!)" for a in out_aliases]
    if len(rets) == 1:
        return rets[0]
    return f"({', '.join(rets)})"
