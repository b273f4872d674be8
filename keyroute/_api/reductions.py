"""Python API of the reduction operators: `keyroute.sum`, `Tensor.max`, ... with PyTorch's
overload handling (`x.sum()`, `x.sum(1)`, `x.sum((0, 1), keepdim=True, dtype=...)`, `x.max()`,
`x.max(dim)` -> `return_types.max(values, indices)`, `x.max(other)` -> maximum, `x.var(1,
unbiased=False)` -> var.correction, ...).

Functions returning (values, indices) pairs return the named tuples of `keyroute.return_types`
(torch.return_types): `x.max(1).values`, `x.sort().indices`.
"""

from __future__ import annotations

import collections
import sys
import types
from typing import Any

from .. import _naming
from .._ops import ops
from ..tensor._tensor import Tensor
from . import FUNCTIONS, function, method
from ._dims import int_dim, int_list_dim

aten = ops.aten

# Operators bound once: `ops.aten.<name>` lookups are not free.
_aminmax_default = aten.aminmax.default
_aminmax_out = aten.aminmax.out
_argsort_default = aten.argsort.default
_argsort_stable = aten.argsort.stable
_count_nonzero_default = aten.count_nonzero.default
_count_nonzero_dim_IntList = aten.count_nonzero.dim_IntList
_linalg_vector_norm_default = aten.linalg_vector_norm.default
_linalg_vector_norm_out = aten.linalg_vector_norm.out
_logsumexp_default = aten.logsumexp.default
_logsumexp_out = aten.logsumexp.out
_mode_default = aten.mode.default
_mode_values = aten.mode.values
_nansum_default = aten.nansum.default
_nansum_out = aten.nansum.out
_prod_default = aten.prod.default
_prod_dim_int = aten.prod.dim_int
_prod_int_out = aten.prod.int_out
_prod_out = aten.prod.out
_sort_default = aten.sort.default
_sort_stable = aten.sort.stable
_sort_values = aten.sort.values
_sort_values_stable = aten.sort.values_stable
_topk_default = aten.topk.default
_topk_values = aten.topk.values

# -- return types ------------------------------------------------------------------------------

return_types = types.ModuleType(
    "keyroute.return_types", "Named tuples returned by operators (torch.return_types)."
)
sys.modules.setdefault("keyroute.return_types", return_types)
FUNCTIONS["return_types"] = return_types  # keyroute.return_types


def _return_type(name: str, fields: tuple[str, ...]) -> Any:
    cls = collections.namedtuple(name, fields)  # type: ignore[misc]
    cls.__module__ = "keyroute.return_types"

    def __repr__(self: Any) -> str:  # noqa: N807
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"{_naming.NAME}.return_types.{name}(\n{body})"

    cls.__repr__ = __repr__
    setattr(return_types, name, cls)
    return cls


_VI = ("values", "indices")
RT_MAX = _return_type("max", _VI)
RT_MIN = _return_type("min", _VI)
RT_SORT = _return_type("sort", _VI)
RT_TOPK = _return_type("topk", _VI)
RT_MEDIAN = _return_type("median", _VI)
RT_NANMEDIAN = _return_type("nanmedian", _VI)
RT_MODE = _return_type("mode", _VI)
RT_AMINMAX = _return_type("aminmax", ("min", "max"))

# -- argument helpers --------------------------------------------------------------------------

_NO: Any = type("_NoArg", (), {"__repr__": lambda self: "<no argument>"})()


def _dims(dim: Any) -> Any:
    """A Python `dim` (int, tuple, list, Size or None) as an int[1]? argument."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return [dim]
    return [int(d) for d in dim]


def _pair(result: Any, cls: Any) -> Any:
    return cls(result[0], result[1])


def _out2(out: Any, name: str) -> tuple[Tensor, Tensor]:
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors")
    return out[0], out[1]


# -- sum / mean / prod / nansum ----------------------------------------------------------------


def _sum_family(name: str, as_method: bool = False) -> Any:
    packet = getattr(aten, name)
    default, dim_op, out_op, out_default = (
        packet.default,
        packet.dim_IntList if name == "sum" else packet.dim,
        packet.IntList_out if name == "sum" else packet.out,
        packet.out if name == "sum" else packet.dtype_out,
    )

    def fn(
        input: Tensor,
        dim: Any = _NO,
        keepdim: bool = False,
        *,
        dtype: Any = None,
        out: Tensor | None = None,
        axis: Any = _NO,
        keepdims: Any = _NO,
    ) -> Tensor:
        # PyTorch's argument parser accepts NumPy's names: axis for dim, keepdims for keepdim
        if axis is not _NO:
            dim = axis
        if keepdims is not _NO:
            keepdim = keepdims
        if dim is _NO and not keepdim:
            if out is not None:
                return out_default(input, dtype=dtype, out=out)
            return default(input) if dtype is None else default(input, dtype=dtype)
        d = (
            None
            if dim is _NO
            else int_list_dim(name, input, dim, as_method=as_method, overloaded=True)
        )
        if out is not None:
            return out_op(input, d, keepdim, dtype=dtype, out=out)
        if dtype is None:
            return dim_op(input, d, keepdim)
        return dim_op(input, d, keepdim, dtype=dtype)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, dim=None, keepdim=False, *, dtype=None, out=None) (torch.{name})"
    return fn


# The method and the function are built apart: PyTorch's argument errors count positions
# from `self` for one and from `input` for the other (_api/_dims.py).
sum = function(_sum_family("sum"))  # noqa: A001
mean = function(_sum_family("mean"))
method(_sum_family("sum", as_method=True))
method(_sum_family("mean", as_method=True))


def _prod(as_method: bool) -> Any:
    def prod(
        input: Tensor,
        dim: Any = _NO,
        keepdim: bool = False,
        *,
        dtype: Any = None,
        out: Tensor | None = None,
    ) -> Tensor:
        """torch.prod: over every element, or over one dim."""
        return _prod_impl(input, dim, keepdim, dtype, out, as_method)

    return prod


def _prod_impl(
    input: Tensor, dim: Any, keepdim: bool, dtype: Any, out: Any, as_method: bool
) -> Tensor:  # noqa: A002
    if dim is _NO:
        if out is not None:
            return _prod_out(input, dtype=dtype, out=out)
        return _prod_default(input) if dtype is None else _prod_default(input, dtype=dtype)
    dim = int_dim("prod", input, dim, as_method=as_method, overloaded=True)
    if out is not None:
        return _prod_int_out(input, dim, keepdim, dtype=dtype, out=out)
    if dtype is None:
        return _prod_dim_int(input, dim, keepdim)
    return _prod_dim_int(input, dim, keepdim, dtype=dtype)


prod = function(_prod(False))
method(_prod(True))


def _nansum(as_method: bool) -> Any:
    def nansum(
        input: Tensor,
        dim: Any = None,
        keepdim: bool = False,
        *,
        dtype: Any = None,
        out: Tensor | None = None,
    ) -> Tensor:
        """torch.nansum: sum treating NaN as zero."""
        d = int_list_dim("nansum", input, dim, as_method=as_method)
        if out is not None:
            return _nansum_out(input, d, keepdim, dtype=dtype, out=out)
        return _nansum_default(input, d, keepdim, dtype=dtype)

    return nansum


nansum = function(_nansum(False))
method(_nansum(True))


# -- amax / amin / max / min / argmax / argmin / aminmax ---------------------------------------


def _amax_family(name: str, as_method: bool = False) -> Any:
    op, op_out = getattr(aten, name).default, getattr(aten, name).out

    def fn(
        input: Tensor, dim: Any = (), keepdim: bool = False, *, out: Tensor | None = None
    ) -> Tensor:
        d = int_list_dim(name, input, dim, as_method=as_method)
        if out is not None:
            return op_out(input, d, keepdim, out=out)
        return op(input, d, keepdim)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, dim=(), keepdim=False, *, out=None) (torch.{name})"
    return fn


amax = function(_amax_family("amax"))
amin = function(_amax_family("amin"))
method(_amax_family("amax", as_method=True))
method(_amax_family("amin", as_method=True))


def _max_family(name: str, rt: Any) -> Any:
    packet = getattr(aten, name)
    binary = aten.maximum if name == "max" else aten.minimum
    bin_op, bin_out = binary.default, binary.out
    default, unary_out, dim_op = packet.default, packet.unary_out, packet.dim
    dim_out = packet.dim_max if name == "max" else packet.dim_min
    out_names = ("max", "max_values") if name == "max" else ("min", "min_indices")

    def fn(input: Tensor, *args: Any, **kwargs: Any) -> Any:
        out = kwargs.pop("out", None)
        other = kwargs.pop("other", _NO)
        dim = kwargs.pop("dim", _NO)
        keepdim = kwargs.pop("keepdim", _NO)
        if kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if args:
            if isinstance(args[0], Tensor):
                other = args[0]
            else:
                dim = args[0]
                if len(args) > 1:
                    keepdim = args[1]
        if other is not _NO:
            if out is not None:
                return bin_out(input, other, out=out)
            return bin_op(input, other)
        if dim is _NO:
            if out is not None:
                return unary_out(input, out=out)
            return default(input)
        kd = False if keepdim is _NO else bool(keepdim)
        if out is not None:
            v, i = _out2(out, name)
            return _pair(dim_out(input, dim, kd, **{out_names[0]: v, out_names[1]: i}), rt)
        return _pair(dim_op(input, dim, kd) if kd else dim_op(input, dim), rt)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (
        f"{name}(input) | {name}(input, dim, keepdim=False, *, out=None) -> (values, indices) | "
        f"{name}(input, other, *, out=None) (torch.{name})"
    )
    return fn


max = function(method(_max_family("max", RT_MAX)))  # noqa: A001
min = function(method(_max_family("min", RT_MIN)))  # noqa: A001


def _argmax_family(name: str, as_method: bool = False) -> Any:
    op, op_out = getattr(aten, name).default, getattr(aten, name).out

    def fn(
        input: Tensor, dim: int | None = None, keepdim: bool = False, *, out: Tensor | None = None
    ) -> Tensor:
        if dim is not None:
            dim = int_dim(name, input, dim, as_method=as_method)
        if out is not None:
            return op_out(input, dim, keepdim, out=out)
        if dim is None and not keepdim:
            return op(input)
        return op(input, dim, keepdim)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, dim=None, keepdim=False, *, out=None) (torch.{name})"
    return fn


argmax = function(_argmax_family("argmax"))
argmin = function(_argmax_family("argmin"))
method(_argmax_family("argmax", as_method=True))
method(_argmax_family("argmin", as_method=True))


@function
@method
def aminmax(
    input: Tensor, *, dim: int | None = None, keepdim: bool = False, out: Any = None
) -> Any:
    """torch.aminmax -> return_types.aminmax(min, max)."""
    if out is not None:
        lo, hi = _out2(out, "aminmax")
        return _pair(_aminmax_out(input, dim=dim, keepdim=keepdim, min=lo, max=hi), RT_AMINMAX)
    return _pair(_aminmax_default(input, dim=dim, keepdim=keepdim), RT_AMINMAX)


# -- var / std / var_mean / std_mean -----------------------------------------------------------


def _var_args(
    name: str, input: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], as_method: bool
) -> tuple[Any, Any, bool, str]:  # noqa: A002
    """PyTorch's var/std overloads -> (dim, correction or None, keepdim, overload name):
    (input, dim=None, *, correction=1, keepdim=False), (input, dim, unbiased, keepdim=False),
    (input, unbiased)."""
    dim = kwargs.pop("dim", _NO)
    unbiased = kwargs.pop("unbiased", _NO)
    correction = kwargs.pop("correction", _NO)
    keepdim = kwargs.pop("keepdim", _NO)
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    rest = list(args)
    if rest and isinstance(rest[0], bool):
        unbiased = rest.pop(0)
    elif rest:
        dim = rest.pop(0)
        if rest:
            unbiased = rest.pop(0)
        if rest:
            keepdim = rest.pop(0)
    if unbiased is not _NO and correction is not _NO:
        raise TypeError(f"{name}(): cannot pass both 'unbiased' and 'correction'")
    if unbiased is not _NO:
        corr: Any = 1 if unbiased else 0
    elif correction is not _NO:
        corr = correction
    else:
        # A dim alone matches the legacy (dim, unbiased=True) overload, as in PyTorch.
        corr = None if dim is _NO else 1
    # The overload PyTorch's parser matches: a correction -> .correction; a dim (even None)
    # -> .dim(dim, unbiased, keepdim); unbiased alone -> .default; nothing -> .correction.
    if correction is not _NO:
        which = "correction"
    elif dim is not _NO:
        which = "dim"
    else:
        which = "correction" if unbiased is _NO else "default"
    if dim is not _NO:
        dim = int_list_dim(name, input, dim, as_method=as_method, overloaded=True)
    return (None if dim is _NO else dim), corr, (False if keepdim is _NO else keepdim), which


def _corr_kwargs(corr: Any, keepdim: bool) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    if corr is not None:
        kw["correction"] = corr
    if keepdim:
        kw["keepdim"] = True
    return kw


def _var_family(name: str, as_method: bool = False) -> Any:
    op = getattr(aten, name).correction
    op_out = getattr(aten, name).correction_out
    op_dim, op_default = getattr(aten, name).dim, getattr(aten, name).default

    def fn(input: Tensor, *args: Any, **kwargs: Any) -> Any:
        out = kwargs.pop("out", None)
        dim, corr, keepdim, which = _var_args(name, input, args, kwargs, as_method)
        kw = _corr_kwargs(corr, keepdim)
        if out is not None:
            if name.endswith("_mean"):
                o0, o1 = _out2(out, name)
                return op_out(input, dim, out0=o0, out1=o1, **kw)
            return op_out(input, dim, out=out, **kw)
        if which == "dim":
            return op_dim(input, dim, corr != 0, keepdim)
        if which == "default":
            return op_default(input, corr != 0)
        if dim is None:
            return op(input, **kw)
        return op(input, dim, **kw)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (
        f"{name}(input, dim=None, *, correction=1, keepdim=False, out=None) | "
        f"{name}(input, dim, unbiased, keepdim=False) | {name}(input, unbiased) (torch.{name})"
    )
    return fn


var = function(_var_family("var"))
std = function(_var_family("std"))
method(_var_family("var", as_method=True))
method(_var_family("std", as_method=True))
var_mean = function(_var_family("var_mean"))
std_mean = function(_var_family("std_mean"))


# -- norms -------------------------------------------------------------------------------------


@function
@method
def norm(
    input: Tensor,
    p: Any = "fro",
    dim: Any = None,
    keepdim: bool = False,
    out: Tensor | None = None,
    dtype: Any = None,
) -> Tensor:
    """torch.norm: vector norms through linalg_vector_norm, as torch.functional.norm does
    ('fro' over at most two dims is the 2-norm; 'nuc' and matrix orders need linalg)."""
    _dim = _dims(dim)
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return _vector_norm(input, 2, _dim, keepdim, dtype, out)
        linalg = sys.modules.get("keyroute.linalg")
        matrix_norm = getattr(linalg, "matrix_norm", None)
        if matrix_norm is None:
            raise NotImplementedError(f"norm(p={p!r}) needs keyroute.linalg.matrix_norm")
        if _dim is None:
            _dim = list(range(input.dim()))
        if out is None:
            return matrix_norm(input, p, _dim, keepdim, dtype=dtype)
        return matrix_norm(input, p, _dim, keepdim, dtype=dtype, out=out)
    return _vector_norm(input, 2.0 if p is None else p, _dim, keepdim, dtype, out)


def _vector_norm(
    input: Tensor, ord: Any, dim: Any, keepdim: bool, dtype: Any, out: Tensor | None
) -> Tensor:  # noqa: A002
    if out is not None:
        return _linalg_vector_norm_out(input, ord, dim, keepdim, dtype=dtype, out=out)
    if dtype is None:
        return _linalg_vector_norm_default(input, ord, dim, keepdim)
    return _linalg_vector_norm_default(input, ord, dim, keepdim, dtype=dtype)


def vector_norm(
    x: Tensor,
    ord: Any = 2,
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:  # noqa: A002
    """torch.linalg.vector_norm (for the linalg namespace to export)."""
    return _vector_norm(x, ord, _dims(dim), keepdim, dtype, out)


# -- logsumexp / softmax -----------------------------------------------------------------------


def _logsumexp(as_method: bool) -> Any:
    def logsumexp(
        input: Tensor, dim: Any, keepdim: bool = False, *, out: Tensor | None = None
    ) -> Tensor:
        """torch.logsumexp: log(sum(exp(input))) over dim, computed stably."""
        d = int_list_dim("logsumexp", input, dim, as_method=as_method)
        if out is not None:
            return _logsumexp_out(input, d, keepdim, out=out)
        return _logsumexp_default(input, d, keepdim)

    return logsumexp


logsumexp = function(_logsumexp(False))
method(_logsumexp(True))


def _softmax_api(name: str, as_method: bool = False) -> Any:
    op = getattr(aten, name).int
    out_op = getattr(aten, name).int_out

    def fn(input: Tensor, dim: int, dtype: Any = None, *, out: Tensor | None = None) -> Tensor:
        dim = int_dim(name, input, dim, as_method=as_method)
        if out is not None:
            return out_op(input, dim, dtype, out=out)
        return op(input, dim) if dtype is None else op(input, dim, dtype)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, dim, dtype=None) (torch.{name}; aten.{name}.int)"
    return fn


softmax = function(_softmax_api("softmax"))
log_softmax = function(_softmax_api("log_softmax"))
method(_softmax_api("softmax", as_method=True))
method(_softmax_api("log_softmax", as_method=True))


# -- cumsum / cumprod --------------------------------------------------------------------------


def _scan_api(name: str, as_method: bool = False) -> Any:
    op, op_out = getattr(aten, name).default, getattr(aten, name).out
    inplace = getattr(aten, name + "_").default

    def fn(input: Tensor, dim: int, *, dtype: Any = None, out: Tensor | None = None) -> Tensor:
        dim = int_dim(name, input, dim, as_method=as_method)
        if out is not None:
            return op_out(input, dim, dtype=dtype, out=out)
        return op(input, dim) if dtype is None else op(input, dim, dtype=dtype)

    def fn_(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
        return inplace(self, dim) if dtype is None else inplace(self, dim, dtype=dtype)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, dim, *, dtype=None, out=None) (torch.{name})"
    fn_.__name__ = fn_.__qualname__ = name + "_"
    fn_.__doc__ = f"Tensor.{name}_(dim, dtype=None): in place."
    method(fn_)
    return fn


cumsum = function(_scan_api("cumsum"))
cumprod = function(_scan_api("cumprod"))
method(_scan_api("cumsum", as_method=True))
method(_scan_api("cumprod", as_method=True))


# -- all / any / count_nonzero -----------------------------------------------------------------


def _logical_api(name: str, as_method: bool = False) -> Any:
    packet = getattr(aten, name)
    default, all_out, dim_op, dim_out = packet.default, packet.all_out, packet.dim, packet.out
    dims_op, dims_out = packet.dims, packet.dims_out

    def fn(
        input: Tensor, dim: Any = _NO, keepdim: bool = False, *, out: Tensor | None = None
    ) -> Tensor:
        if dim is _NO:
            if keepdim:
                dim = None
            elif out is not None:
                return all_out(input, out=out)
            else:
                return default(input)
        if isinstance(dim, int):
            if out is not None:
                return dim_out(input, dim, keepdim, out=out)
            return dim_op(input, dim, keepdim)
        d = int_list_dim(name, input, dim, as_method=as_method, overloaded=True)
        if out is not None:
            return dims_out(input, d, keepdim, out=out)
        return dims_op(input, d, keepdim)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, dim=None, keepdim=False, *, out=None) (torch.{name})"
    return fn


all = function(_logical_api("all"))  # noqa: A001
any = function(_logical_api("any"))  # noqa: A001
method(_logical_api("all", as_method=True))
method(_logical_api("any", as_method=True))


@function
@method
def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    """torch.count_nonzero: over every dim, one dim, or a tuple of dims."""
    if dim is None or isinstance(dim, int):
        return _count_nonzero_default(input, dim)
    return _count_nonzero_dim_IntList(input, _dims(dim))


# -- topk / sort / argsort / median / mode -----------------------------------------------------


@function
@method
def topk(
    input: Tensor,
    k: int,
    dim: int = -1,
    largest: bool = True,
    sorted: bool = True,
    *,
    out: Any = None,
) -> Any:  # noqa: A002
    """torch.topk -> return_types.topk(values, indices)."""
    if out is not None:
        v, i = _out2(out, "topk")
        return _pair(_topk_values(input, k, dim, largest, sorted, values=v, indices=i), RT_TOPK)
    return _pair(_topk_default(input, k, dim, largest, sorted), RT_TOPK)


@function
@method
def sort(
    input: Tensor, dim: int = -1, descending: bool = False, *, stable: Any = _NO, out: Any = None
) -> Any:
    """torch.sort -> return_types.sort(values, indices); `stable=` selects sort.stable."""
    if stable is _NO:
        if out is not None:
            v, i = _out2(out, "sort")
            return _pair(_sort_values(input, dim, descending, values=v, indices=i), RT_SORT)
        return _pair(_sort_default(input, dim, descending), RT_SORT)
    if out is not None:
        v, i = _out2(out, "sort")
        return _pair(
            _sort_values_stable(
                input, stable=stable, dim=dim, descending=descending, values=v, indices=i
            ),
            RT_SORT,
        )
    return _pair(_sort_stable(input, stable=stable, dim=dim, descending=descending), RT_SORT)


@function
@method
def argsort(
    input: Tensor,  # noqa: A002
    dim: int = -1,
    descending: bool = False,
    stable: bool = False,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """torch.argsort: the indices that sort input along dim (out= on the stable overload)."""
    if out is not None:
        return aten.argsort.stable_out(
            input, stable=stable, dim=dim, descending=descending, out=out
        )
    if stable:
        return _argsort_stable(input, stable=True, dim=dim, descending=descending)
    return _argsort_default(input, dim, descending)


def _median_api(name: str, rt: Any) -> Any:
    packet = getattr(aten, name)
    default, out_op, dim_op, dim_values = packet.default, packet.out, packet.dim, packet.dim_values

    def fn(input: Tensor, dim: Any = _NO, keepdim: bool = False, *, out: Any = None) -> Any:
        if dim is _NO:
            if out is not None:
                return out_op(input, out=out)
            return default(input)
        if out is not None:
            v, i = _out2(out, name)
            return _pair(dim_values(input, dim, keepdim, values=v, indices=i), rt)
        return _pair(dim_op(input, dim, keepdim), rt)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input) | {name}(input, dim, keepdim=False, *, out=None) (torch.{name})"
    return fn


median = function(method(_median_api("median", RT_MEDIAN)))
nanmedian = function(method(_median_api("nanmedian", RT_NANMEDIAN)))


@function
@method
def mode(input: Tensor, dim: int = -1, keepdim: bool = False, *, out: Any = None) -> Any:
    """torch.mode -> return_types.mode(values, indices): the most frequent value."""
    if out is not None:
        v, i = _out2(out, "mode")
        return _pair(_mode_values(input, dim, keepdim, values=v, indices=i), RT_MODE)
    return _pair(_mode_default(input, dim, keepdim), RT_MODE)
