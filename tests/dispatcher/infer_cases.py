"""A catalogue of functions for schema inference, shared by the recorder and the tests.

Imports nothing from torch: every case is a function of ``M``, the tensor module (``torch``, or a
keyroute namespace with ``Tensor``, ``dtype``, ``device``, ``float32``, ``types.Number`` and
``Tag.inplace``/``Tag.out``), returning ``(fn, mutates_args, extra_kwargs)`` for
``infer_schema(fn, mutates_args=mutates_args, **extra_kwargs)``.

Annotations are evaluated when the case runs (no ``from __future__ import annotations`` here).
"""

import collections.abc
import typing
from collections.abc import Callable
from typing import List, Optional, Sequence, Tuple, Union  # noqa: UP035

CASES: dict[str, Callable] = {}


def case(fn: Callable) -> Callable:
    assert fn.__name__ not in CASES, fn.__name__
    CASES[fn.__name__] = fn
    return fn


def _exec(src: str, ns: dict) -> Callable:
    """Define a function from source in namespace ``ns`` (for string annotations)."""
    exec(src, ns)
    return ns["f"]


# ----------------------------------------------------------------------------- parameter types


@case
def tensor_basic(M):
    def f(x: M.Tensor) -> M.Tensor: ...

    return f, (), {}


@case
def two_tensors(M):
    def f(x: M.Tensor, y: M.Tensor) -> M.Tensor: ...

    return f, (), {}


@case
def scalars(M):
    def f(x: M.Tensor, n: int, a: float, b: bool, s: str) -> M.Tensor: ...

    return f, (), {}


@case
def number_param(M):
    def f(x: M.Tensor, alpha: M.types.Number) -> M.Tensor: ...

    return f, (), {}


@case
def dtype_device_params(M):
    def f(x: M.Tensor, dtype: M.dtype, device: M.device) -> M.Tensor: ...

    return f, (), {}


@case
def optional_tensor(M):
    def f(x: Optional[M.Tensor]) -> M.Tensor: ...  # noqa: UP045

    return f, (), {}


@case
def optional_scalars(M):
    def f(
        n: Optional[int],  # noqa: UP045
        a: Optional[float],  # noqa: UP045
        b: Optional[bool],  # noqa: UP045
        s: Optional[str],  # noqa: UP045
    ) -> None: ...

    return f, (), {}


@case
def optional_number_dtype_device(M):
    def f(
        a: Optional[M.types.Number],  # noqa: UP045
        dt: Optional[M.dtype],  # noqa: UP045
        dev: Optional[M.device],  # noqa: UP045
    ) -> None: ...

    return f, (), {}


@case
def union_tensor_none(M):
    def f(x: Union[M.Tensor, None]) -> M.Tensor: ...  # noqa: UP007

    return f, (), {}


@case
def pep604_optional_tensor(M):
    def f(x: M.Tensor | None, n: int | None) -> M.Tensor: ...

    return f, (), {}


@case
def list_tensor_builtin(M):
    def f(xs: list[M.Tensor]) -> M.Tensor: ...

    return f, (), {}


@case
def list_tensor_typing(M):
    def f(xs: List[M.Tensor]) -> M.Tensor: ...  # noqa: UP006

    return f, (), {}


@case
def sequence_tensor_typing(M):
    def f(xs: Sequence[M.Tensor]) -> M.Tensor: ...

    return f, (), {}


@case
def sequence_tensor_abc(M):
    def f(xs: collections.abc.Sequence[M.Tensor]) -> M.Tensor: ...

    return f, (), {}


@case
def list_scalars(M):
    def f(
        a: list[int],
        b: List[float],  # noqa: UP006
        c: Sequence[bool],
        d: list[M.types.Number],
    ) -> None: ...

    return f, (), {}


@case
def optional_lists(M):
    def f(
        a: Optional[list[int]],  # noqa: UP045
        b: Optional[Sequence[float]],  # noqa: UP045
        c: Optional[List[bool]],  # noqa: UP006, UP045
    ) -> None: ...

    return f, (), {}


@case
def list_optional_tensor(M):
    def f(xs: list[Optional[M.Tensor]], ys: Sequence[Optional[M.Tensor]]) -> None: ...  # noqa: UP045

    return f, (), {}


@case
def int_bool_order(M):
    def f(b: bool, i: int, x: M.Tensor) -> M.Tensor: ...

    return f, (), {}


# ----------------------------------------------------------------------------- refused params


@case
def refuse_optional_list_tensor(M):
    def f(xs: Optional[list[M.Tensor]]) -> None: ...  # noqa: UP045

    return f, (), {}


@case
def refuse_list_optional_int(M):
    def f(xs: list[Optional[int]]) -> None: ...  # noqa: UP045

    return f, (), {}


@case
def refuse_union(M):
    def f(x: Union[int, float]) -> None: ...  # noqa: UP007

    return f, (), {}


@case
def refuse_union_tensor_int(M):
    def f(x: M.Tensor | int) -> None: ...

    return f, (), {}


@case
def refuse_tuple_int(M):
    def f(x: tuple[int, int]) -> None: ...

    return f, (), {}


@case
def refuse_tuple_tensor_ellipsis(M):
    def f(x: tuple[M.Tensor, ...]) -> None: ...

    return f, (), {}


@case
def refuse_typing_tuple_single(M):
    def f(x: Tuple[float]) -> None: ...  # noqa: UP006

    return f, (), {}


@case
def refuse_tuple_mixed(M):
    def f(x: tuple[int, str]) -> None: ...

    return f, (), {}


@case
def refuse_bare_tuple(M):
    def f(x: tuple) -> None: ...

    return f, (), {}


@case
def refuse_dict(M):
    def f(x: dict[str, M.Tensor]) -> None: ...

    return f, (), {}


@case
def refuse_list_str(M):
    def f(x: list[str]) -> None: ...

    return f, (), {}


@case
def refuse_list_dtype(M):
    def f(x: list[M.dtype]) -> None: ...

    return f, (), {}


@case
def refuse_complex(M):
    def f(x: complex) -> None: ...

    return f, (), {}


@case
def refuse_object(M):
    def f(x: object) -> None: ...

    return f, (), {}


@case
def refuse_nested_list(M):
    def f(x: list[list[int]]) -> None: ...

    return f, (), {}


@case
def refuse_no_annotation(M):
    def f(x, y: int) -> None: ...

    return f, (), {}


@case
def refuse_varargs(M):
    def f(x: M.Tensor, *args: M.Tensor) -> None: ...

    return f, (), {}


@case
def refuse_varkwargs(M):
    def f(x: M.Tensor, **kwargs: int) -> None: ...

    return f, (), {}


@case
def refuse_positional_only(M):
    def f(x: M.Tensor, /, y: int) -> None: ...

    return f, (), {}


@case
def refuse_method_self(M):
    class C:
        def f(self, x: M.Tensor) -> M.Tensor: ...

    return C.f, (), {}


# ----------------------------------------------------------------------------- keyword-only


@case
def kwarg_only(M):
    def f(x: M.Tensor, *, alpha: float = 1.0, beta: int) -> M.Tensor: ...

    return f, (), {}


@case
def kwarg_only_all(M):
    def f(*, x: M.Tensor, y: M.Tensor) -> M.Tensor: ...

    return f, (), {}


# ----------------------------------------------------------------------------- defaults


@case
def defaults_scalars(M):
    def f(
        x: M.Tensor,
        n: int = 2,
        m: int = -1,
        a: float = 0.5,
        e: float = 1e-5,
        big: float = 1e20,
        b: bool = True,
        c: bool = False,
    ) -> M.Tensor: ...

    return f, (), {}


@case
def default_none(M):
    def f(
        x: Optional[M.Tensor] = None,  # noqa: UP045
        n: Optional[int] = None,  # noqa: UP045
        l: Optional[list[int]] = None,  # noqa: UP045
    ) -> None: ...

    return f, (), {}


@case
def default_str(M):
    def f(x: M.Tensor, reduction: str = "mean") -> M.Tensor: ...

    return f, (), {}


@case
def default_str_with_quote(M):
    def f(x: M.Tensor, s: str = 'a"b') -> M.Tensor: ...

    return f, (), {}


@case
def default_str_empty(M):
    def f(x: M.Tensor, s: str = "") -> M.Tensor: ...

    return f, (), {}


@case
def default_device(M):
    def f(x: M.Tensor, device: M.device = M.device("cpu")) -> M.Tensor: ...  # noqa: B008

    return f, (), {}


@case
def default_device_as_str(M):
    def f(x: M.Tensor, device: Optional[M.device] = "cpu") -> M.Tensor: ...  # noqa: UP045

    return f, (), {}


@case
def default_dtype(M):
    def f(x: M.Tensor, dtype: M.dtype = M.float32) -> M.Tensor: ...

    return f, (), {}


@case
def default_inf(M):
    def f(x: M.Tensor, a: float = float("inf"), b: float = float("-inf")) -> M.Tensor: ...

    return f, (), {}


@case
def default_bool_for_int(M):
    def f(x: M.Tensor, n: int = True, a: float = 3) -> M.Tensor: ...

    return f, (), {}


@case
def refuse_default_list(M):
    def f(x: M.Tensor, dims: list[int] = [0, 1]) -> M.Tensor: ...  # noqa: B006

    return f, (), {}


@case
def refuse_default_tuple(M):
    def f(x: M.Tensor, dims: list[int] = (0, 1)) -> M.Tensor: ...

    return f, (), {}


@case
def refuse_default_complex(M):
    def f(x: M.Tensor, n: int = 1j) -> M.Tensor: ...

    return f, (), {}


@case
def refuse_default_bytes(M):
    def f(x: M.Tensor, s: str = b"ab") -> M.Tensor: ...

    return f, (), {}


# ----------------------------------------------------------------------------- returns


@case
def return_none(M):
    def f(x: M.Tensor) -> None: ...

    return f, (), {}


@case
def return_list_tensor(M):
    def f(x: M.Tensor) -> list[M.Tensor]: ...

    return f, (), {}


@case
def return_typing_list_tensor(M):
    def f(x: M.Tensor) -> List[M.Tensor]: ...  # noqa: UP006

    return f, (), {}


@case
def return_int(M):
    def f(x: M.Tensor) -> int: ...

    return f, (), {}


@case
def return_float(M):
    def f(x: M.Tensor) -> float: ...

    return f, (), {}


@case
def return_bool(M):
    def f(x: M.Tensor) -> bool: ...

    return f, (), {}


@case
def return_number(M):
    def f(x: M.Tensor) -> M.types.Number: ...

    return f, (), {}


@case
def return_tuple(M):
    def f(x: M.Tensor) -> tuple[M.Tensor, M.Tensor]: ...

    return f, (), {}


@case
def return_tuple_single(M):
    def f(x: M.Tensor) -> tuple[M.Tensor]: ...

    return f, (), {}


@case
def return_typing_tuple_mixed(M):
    def f(x: M.Tensor) -> Tuple[M.Tensor, int, float, list[M.Tensor]]: ...  # noqa: UP006

    return f, (), {}


@case
def return_empty_tuple(M):
    def f(x: M.Tensor) -> tuple[()]: ...

    return f, (), {}


@case
def refuse_return_optional(M):
    def f(x: M.Tensor) -> Optional[M.Tensor]: ...  # noqa: UP045

    return f, (), {}


@case
def refuse_return_list_int(M):
    def f(x: M.Tensor) -> list[int]: ...

    return f, (), {}


@case
def refuse_return_str(M):
    def f(x: M.Tensor) -> str: ...

    return f, (), {}


@case
def refuse_return_dtype(M):
    def f(x: M.Tensor) -> M.dtype: ...

    return f, (), {}


@case
def refuse_return_tuple_optional(M):
    def f(x: M.Tensor) -> tuple[M.Tensor, Optional[M.Tensor]]: ...  # noqa: UP045

    return f, (), {}


@case
def refuse_no_return_annotation(M):
    def f(x: M.Tensor): ...

    return f, (), {}


# ----------------------------------------------------------------------------- mutates_args


@case
def mutates_first(M):
    def f(x: M.Tensor, y: M.Tensor) -> None: ...

    return f, ("x",), {}


@case
def mutates_second_counts_all_params(M):
    def f(n: int, y: M.Tensor, z: M.Tensor) -> None: ...

    return f, ["y"], {}


@case
def mutates_kwarg_only(M):
    def f(x: M.Tensor, *, out: M.Tensor) -> None: ...

    return f, {"out"}, {}


@case
def mutates_list_tensor(M):
    def f(xs: list[M.Tensor]) -> None: ...

    return f, ("xs",), {}


@case
def mutates_optional_tensor(M):
    def f(x: Optional[M.Tensor] = None) -> None: ...  # noqa: UP045

    return f, ("x",), {}


@case
def mutates_list_optional_tensor(M):
    def f(xs: list[Optional[M.Tensor]]) -> None: ...  # noqa: UP045

    return f, ("xs",), {}


@case
def mutates_unknown(M):
    def f(x: M.Tensor, n: int, ys: list[M.Tensor], z: Optional[M.Tensor]) -> None: ...  # noqa: UP045

    return f, "unknown", {}


@case
def mutates_empty_dict(M):
    def f(x: M.Tensor) -> M.Tensor: ...

    return f, {}, {}


@case
def refuse_mutates_non_tensor(M):
    def f(x: M.Tensor, n: int) -> None: ...

    return f, ("n",), {}


@case
def refuse_mutates_missing_name(M):
    def f(x: M.Tensor) -> None: ...

    return f, ("z",), {}


@case
def refuse_mutates_bad_string(M):
    def f(x: M.Tensor) -> None: ...

    return f, "x", {}


# ----------------------------------------------------------------------------- op_name


@case
def op_name_qualified(M):
    def f(x: M.Tensor, y: M.Tensor) -> M.Tensor: ...

    return f, (), {"op_name": "mylib::foo"}


@case
def op_name_overload(M):
    def f(x: M.Tensor) -> M.Tensor: ...

    return f, ("x",), {"op_name": "foo.out"}


# ----------------------------------------------------------------------------- tags


@case
def tag_inplace(M):
    def f(x: M.Tensor, other: M.Tensor, alpha: float = 1.0) -> M.Tensor: ...

    return f, ("x",), {"tags": M.Tag.inplace}


@case
def refuse_tag_inplace_not_tensor(M):
    def f(n: int, x: M.Tensor) -> M.Tensor: ...

    return f, ("x",), {"tags": (M.Tag.inplace,)}


@case
def refuse_tag_inplace_wrong_mutates(M):
    def f(x: M.Tensor, y: M.Tensor) -> M.Tensor: ...

    return f, ("y",), {"tags": [M.Tag.inplace]}


@case
def tag_out_single(M):
    def f(x: M.Tensor, *, out: M.Tensor) -> M.Tensor: ...

    return f, ("out",), {"tags": M.Tag.out}


@case
def tag_out_multi(M):
    def f(x: M.Tensor, *, values: M.Tensor, indices: M.Tensor) -> tuple[M.Tensor, M.Tensor]: ...

    return f, ("values", "indices"), {"tags": (M.Tag.out,)}


@case
def refuse_tag_out_positional(M):
    def f(x: M.Tensor, out: M.Tensor) -> M.Tensor: ...

    return f, ("out",), {"tags": M.Tag.out}


@case
def refuse_tag_out_return(M):
    def f(x: M.Tensor, *, out: M.Tensor) -> None: ...

    return f, ("out",), {"tags": M.Tag.out}


@case
def refuse_tag_both(M):
    def f(x: M.Tensor) -> M.Tensor: ...

    return f, ("x",), {"tags": (M.Tag.inplace, M.Tag.out)}


# ----------------------------------------------------------------------------- string annotations


@case
def string_annotations(M):
    src = (
        "def f(x: 'torch.Tensor', y: 'typing.Optional[torch.Tensor]', n: 'int' = 3)"
        " -> 'torch.Tensor': ...\n"
    )
    return _exec(src, {"torch": M, "typing": typing}), (), {}


@case
def string_inside_builtin_generic(M):
    src = "def f(xs: list['torch.Tensor']) -> tuple['torch.Tensor', 'int']: ...\n"
    return _exec(src, {"torch": M}), (), {}


@case
def future_annotations(M):
    src = (
        "from __future__ import annotations\n"
        "def f(x: torch.Tensor, xs: list[torch.Tensor], d: torch.dtype | None = None,"
        " *, k: int = 1) -> tuple[torch.Tensor, torch.Tensor]: ...\n"
    )
    return _exec(src, {"torch": M}), ("x",), {}


@case
def refuse_string_unknown_name(M):
    src = "def f(x: 'nonexistent.Tensor') -> None: ...\n"
    return _exec(src, {}), (), {}


@case
def refuse_string_syntax_error(M):
    src = "def f(x: 'torch.Tensor[') -> None: ...\n"
    return _exec(src, {"torch": M}), (), {}


@case
def refuse_string_forward_ref_in_typing_generic(M):
    src = "def f(x: typing.Optional['torch.Tensor']) -> None: ...\n"
    return _exec(src, {"torch": M, "typing": typing}), (), {}


@case
def string_return_unknown(M):
    src = "def f(x: 'torch.Tensor') -> 'Foo': ...\n"
    return _exec(src, {"torch": M}), (), {}
