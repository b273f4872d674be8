"""Python API (functions, Tensor methods) of the linalg operators.

`a @ b` calls `aten.matmul` (CompositeImplicitAutograd: it decomposes into mm/bmm/mv/dot and
views as PyTorch's does). `keyroute.einsum` and `keyroute.tensordot` parse their arguments as
torch.functional's Python wrappers do, then call the aten operator.
"""

from __future__ import annotations

import itertools
from typing import Any

from .._ops import ops
from ..aten.linalg import op as _op
from ..dispatcher.operator import fast_call
from ..tensor._tensor import Tensor
from . import function, method
from ._keywords import renamed

aten = ops.aten
# The plain-function form (fast_call: same behaviour as calling the OpOverload, one frame less).
_mm = fast_call(aten.mm.default)


def _no_cpu_dtype_overload(name: str) -> None:
    # PyTorch 2.13 has `<op>.dtype` (out_dtype=) kernels for CUDA only; on CPU it raises this.
    raise NotImplementedError(
        f"Could not run 'aten::{name}.dtype' with arguments from the 'CPU' backend. This could "
        "be because the operator doesn't exist for this backend."
    )


_matmul = aten.matmul.default


@function
@method
def mm(self: Tensor, mat2: Tensor, out_dtype: Any = None, *, out: Tensor | None = None) -> Tensor:
    """Matrix product of two 2-D tensors (aten::mm)."""
    if out_dtype is not None:
        _no_cpu_dtype_overload("mm")
    return _mm(self, mat2) if out is None else _op("mm.out")(self, mat2, out=out)


@function
@method
def bmm(self: Tensor, mat2: Tensor, out_dtype: Any = None, *, out: Tensor | None = None) -> Tensor:
    """Batched matrix product of two 3-D tensors (aten::bmm)."""
    if out_dtype is not None:
        _no_cpu_dtype_overload("bmm")
    return _op("bmm")(self, mat2) if out is None else _op("bmm.out")(self, mat2, out=out)


@function
@method
def matmul(self: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """torch.matmul: the rank-dependent product (aten::matmul)."""
    return _matmul(self, other) if out is None else _op("matmul.out")(self, other, out=out)


def __matmul__(self: Tensor, other: Any) -> Any:  # noqa: N807
    if not isinstance(other, Tensor):
        return NotImplemented
    return _matmul(self, other)


def __rmatmul__(self: Tensor, other: Any) -> Any:  # noqa: N807
    if not isinstance(other, Tensor):
        return NotImplemented
    return _matmul(other, self)


Tensor.__matmul__ = __matmul__  # type: ignore[method-assign]
Tensor.__rmatmul__ = __rmatmul__  # type: ignore[attr-defined]


def _addmm_like(name: str, doc: str, first: str, second: str, has_dtype: bool) -> None:
    functional = getattr(aten, name).default
    out_op = getattr(aten, name).out
    inplace = getattr(aten, name + "_").default

    def fn(
        self: Tensor,
        a: Tensor,
        b: Tensor,
        *,
        beta: Any = 1,
        alpha: Any = 1,
        out_dtype: Any = None,
        out: Tensor | None = None,
    ) -> Tensor:
        if out_dtype is not None:
            if not has_dtype:  # addmv has no out_dtype overload
                raise TypeError(f"{name}() got an unexpected keyword argument 'out_dtype'")
            _no_cpu_dtype_overload(name)
        if out is not None:
            return out_op(self, a, b, beta=beta, alpha=alpha, out=out)
        return functional(self, a, b, beta=beta, alpha=alpha)

    def fn_(self: Tensor, a: Tensor, b: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return inplace(self, a, b, beta=beta, alpha=alpha)

    # the operands under PyTorch's names (mat1/mat2, mat/vec, batch1/batch2): same code
    names = {"a": first, "b": second}
    fn = renamed(fn, names)
    fn_ = renamed(fn_, names)
    fn.__name__, fn.__doc__ = name, doc
    fn_.__name__, fn_.__doc__ = name + "_", doc + " In place."
    function(method(fn))
    method(fn_)


_addmm_like("addmm", "beta * self + alpha * (mat1 @ mat2) (aten::addmm).", "mat1", "mat2", True)
_addmm_like("addmv", "beta * self + alpha * (mat @ vec) (aten::addmv).", "mat", "vec", False)
_addmm_like(
    "baddbmm",
    "beta * self + alpha * bmm(batch1, batch2) (aten::baddbmm).",
    "batch1",
    "batch2",
    True,
)


def _binary(name: str, doc: str, second: str) -> None:
    functional = getattr(aten, name).default
    out_op = getattr(aten, name).out

    def fn(self: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
        return functional(self, other) if out is None else out_op(self, other, out=out)

    fn = renamed(fn, {"other": second})  # PyTorch's name of the second operand
    fn.__name__, fn.__doc__ = name, doc
    function(method(fn))


_binary("dot", "Inner product of two 1-D tensors (aten::dot).", "tensor")
_binary("vdot", "Inner product, the first argument conjugated (aten::vdot).", "other")
_binary("mv", "Matrix-vector product (aten::mv).", "vec")


@function
@method
def outer(self: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Outer product of two 1-D tensors (aten::outer)."""
    return _op("outer")(self, vec2) if out is None else _op("outer.out")(self, vec2, out=out)


@function
@method
def ger(self: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Alias of outer (aten::ger)."""
    return _op("ger")(self, vec2) if out is None else _op("ger.out")(self, vec2, out=out)


_LETTER_BASE = 26


def _subscript(n: Any) -> str:
    if n is Ellipsis:
        return "..."
    if 0 <= n < _LETTER_BASE:
        return chr(ord("A") + n)
    if _LETTER_BASE <= n < 2 * _LETTER_BASE:
        return chr(ord("a") + n - _LETTER_BASE)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


@function
def einsum(*args: Any) -> Tensor:
    """torch.einsum(equation, *operands) or the sublist form (operand, subscripts, ...)."""
    if len(args) < 2:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, or at least one "
            "operand and its subscripts list"
        )
    if isinstance(args[0], Tensor):
        equation = ",".join("".join(_subscript(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(_subscript(s) for s in args[-1])
            operands = list(args[:-1:2])
        else:
            operands = list(args[::2])
    else:
        equation = args[0]
        operands = list(args[1:])
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])
    path = _opt_einsum_path(equation, operands) if len(operands) > 2 else None
    if path is None:
        return _op("einsum")(equation, operands)
    return _op("einsum")(equation, operands, path=path)


def _opt_einsum_path(equation: str, operands: list[Tensor]) -> list[int] | None:
    """The contraction path opt_einsum picks when it is installed (as torch.backends does)."""
    try:
        import opt_einsum  # type: ignore[import-not-found]
    except ImportError:
        return None
    shapes = [tuple(t.shape) for t in operands]
    path = opt_einsum.contract_path(equation, *shapes, shapes=True, optimize="auto")[0]
    return [*itertools.chain.from_iterable(path)]


@function
def tensordot(a: Tensor, b: Tensor, dims: Any = 2, out: Tensor | None = None) -> Tensor:
    """torch.tensordot: contract dims of a with dims of b (an int n: the last n of a, the
    first n of b)."""
    if not isinstance(dims, (tuple, list, Tensor, int)):
        raise RuntimeError(
            "tensordot expects dims to be int or tuple[list[int], list[int]] or "
            f"list[list[int]] containing two lists, but got dims={dims}"
        )
    dims_a: list[int] = []
    dims_b: list[int] = []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            if dims.size()[0] != 2:
                raise AssertionError(
                    f"dims tensor must have size 2 in first dimension, got {dims.size()[0]}"
                )
            dims_a, dims_b = dims[0].tolist(), dims[1].tolist()
        else:
            n = int(dims.item())
            if n < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims_a, dims_b = list(range(-n, 0)), list(range(n))
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    dims_a, dims_b = [int(d) for d in dims_a], [int(d) for d in dims_b]
    result = _op("tensordot")(a, b, dims_a, dims_b)
    if out is None:
        return result
    from ..aten._variants import resize_output

    resize_output(out, result.shape)
    return out.copy_(result)
