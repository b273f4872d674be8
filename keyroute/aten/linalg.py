"""aten linalg operators: schemas, meta functions, decompositions.

Backend operators (mm, bmm, addmm, addmv, baddbmm, dot, vdot, mv) have meta functions with
PyTorch's checks in PyTorch's order; the CPU kernels (kernels/cpu/linalg.py) run their fast
path first and call these meta functions only to word an error.

matmul, linear, einsum, tensordot, outer and ger are CompositeImplicitAutograd: they
decompose into the same aten calls as PyTorch's C++ (`_matmul_impl`, `linear`, `einsum`,
`sumproduct_pair`, `tensordot`), so a TorchDispatchMode logs the same sequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..dispatcher.tls import state as _tls
from ..tensor._tensor import Tensor
from . import _shape
from ._define import aten, aten_lib, composite, composite_explicit, defop, meta
from ._meta_util import check, new_meta, shape_of
from ._variants import dot_dtype, out_variant, resize_output, same_dtype

__all__ = [
    "mm_meta",
    "bmm_meta",
    "addmm_meta",
    "addmv_meta",
    "baddbmm_meta",
    "dot_meta",
    "subclass_like",
    "op",
    "H",
]

# ----------------------------------------------------------------------------- helpers

_OPS: dict[str, Any] = {}


def op(name: str) -> Any:
    """The aten operator `name` ("view", "squeeze_.dim"), resolved once: decompositions call
    operators of other families, which may be defined after this module."""
    o = _OPS.get(name)
    if o is None:
        o = _OPS[name] = aten(name)
    return o


class _Hot:
    """Operators the hot composites call, as attributes resolved on first access (then plain
    instance attributes: no lookup cost per call)."""

    def __getattr__(self, name: str) -> Any:
        # Dunders (inspect's __wrapped__, copy's __deepcopy__...) and unknown operators are
        # missing attributes, not lookup errors, so hasattr() and doctest collection work.
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            value = op(name)
        except KeyError:
            raise AttributeError(f"aten has no operator {name!r}") from None
        setattr(self, name, value)
        return value


H = _Hot()


def subclass_like(*tensors: Any) -> bool:
    """at::isTensorSubclassLike: a dispatch mode is active, or a tensor carries the Python key
    (PyTorch's composites then pick out-of-place ops, which a mode sees)."""
    from ..dispatcher.keys import DispatchKey
    from ..dispatcher.keyset import key_bits
    from ..layers.python import mode_stack

    if mode_stack():
        return True
    python = key_bits(DispatchKey.Python)
    return any(t is not None and t._key_set & python for t in tensors)


def _not_implemented(kernel_name: str, dt: Any) -> None:
    raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{dt._short}'")


def _expand_check(self: Tensor, sizes: Sequence[int]) -> None:
    """expand_size(self, sizes): PyTorch's expand errors when self does not broadcast."""
    from .core import expand_geometry

    shape = shape_of(self)
    check(
        len(sizes) >= len(shape),
        f"expand(torch.{self._dtype._short}Tensor{{{list(shape)}}}, size={list(sizes)}): the "
        f"number of sizes provided ({len(sizes)}) must be greater or equal to the number of "
        f"dimensions in the tensor ({len(shape)})",
    )
    expand_geometry(shape, self.stride(), sizes)


# ----------------------------------------------------------------------------- mm / bmm


@meta("mm(Tensor self, Tensor mat2) -> Tensor")
def mm_meta(self, mat2):
    check(self.dim() == 2, "self must be a matrix")
    check(mat2.dim() == 2, "mat2 must be a matrix")
    (n, k1), (k2, m) = shape_of(self), shape_of(mat2)
    check(k1 == k2, f"mat1 and mat2 shapes cannot be multiplied ({n}x{k1} and {k2}x{m})")
    check(
        self._dtype is mat2._dtype,
        f"expected m1 and m2 to have the same dtype, but got: {self._dtype._cpp} != "
        f"{mat2._dtype._cpp}",
    )
    if self._dtype.category == 0:
        _not_implemented("addmm_impl_cpu_", self._dtype)
    return new_meta((n, m), self._dtype)


def _bmm_common(batch1: Tensor, batch2: Tensor) -> tuple[int, int, int]:
    check(batch1.dim() == 3, "batch1 must be a 3D tensor")
    check(batch2.dim() == 3, "batch2 must be a 3D tensor")
    bs, n, k = shape_of(batch1)
    b2, k2, m = shape_of(batch2)
    check(
        b2 == bs and k2 == k,
        f"Expected size for first two dimensions of batch2 tensor to be: [{bs}, {k}] but got: "
        f"[{b2}, {k2}].",
    )
    return bs, n, m


def _bmm_dtype_check(name: str, batch1: Tensor, batch2: Tensor) -> None:
    if batch1._dtype.category == 0:
        _not_implemented(name, batch1._dtype)
    check(
        batch1._dtype is batch2._dtype,
        f"expected scalar type {batch1._dtype._short} but found {batch2._dtype._short}",
    )


@meta("bmm(Tensor self, Tensor mat2) -> Tensor")
def bmm_meta(self, mat2):
    bs, n, m = _bmm_common(self, mat2)
    _bmm_dtype_check("bmm", self, mat2)
    return new_meta((bs, n, m), mat2._dtype)


out_variant(
    "mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", "mm", check=same_dtype
)
out_variant(
    "bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", "bmm", check=same_dtype
)


# ----------------------------------------------------------------------------- addmm & co


@meta("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor")
def addmm_meta(self, mat1, mat2, *, beta=1, alpha=1):
    check(
        self._dtype is mat2._dtype,
        f"self and mat2 must have the same dtype, but got {self._dtype._short} and "
        f"{mat2._dtype._short}",
    )
    check(
        mat1._dtype is mat2._dtype,
        f"mat1 and mat2 must have the same dtype, but got {mat1._dtype._short} and "
        f"{mat2._dtype._short}",
    )
    check(mat1.dim() == 2, f"mat1 must be a matrix, got {mat1.dim()}-D tensor")
    check(mat2.dim() == 2, f"mat2 must be a matrix, got {mat2.dim()}-D tensor")
    (n, k1), (k2, m) = shape_of(mat1), shape_of(mat2)
    check(k1 == k2, f"mat1 and mat2 shapes cannot be multiplied ({n}x{k1} and {k2}x{m})")
    _expand_check(self, (n, m))
    if mat1._dtype.category == 0:
        _not_implemented("addmm_impl_cpu_", mat1._dtype)
    return new_meta((n, m), mat1._dtype)


@meta("addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor")
def addmv_meta(self, mat, vec, *, beta=1, alpha=1):
    check(
        mat.dim() == 2 and vec.dim() == 1 and self.dim() <= 1,
        f"vector + matrix @ vector expected, got {self.dim()}, {mat.dim()}, {vec.dim()}",
    )
    (n, k), (k2,) = shape_of(mat), shape_of(vec)
    self_n = self.numel()
    check(
        k == k2 and (n == self_n or self_n == 1),
        f"size mismatch, got input ({shape_of(self)[0] if self.dim() else self_n}), mat "
        f"({n}x{k}), vec ({k2})",
    )
    check(
        self._dtype is mat._dtype and mat._dtype is vec._dtype,
        f"addmv input tensors must have the same dtype, but got {self._dtype._short}, "
        f"{mat._dtype._short}, and {vec._dtype._short}",
    )
    if mat._dtype.category == 0:
        _not_implemented("addmv_impl_cpu", mat._dtype)
    return new_meta((n,), vec._dtype)


@meta(
    "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"
)
def baddbmm_meta(self, batch1, batch2, *, beta=1, alpha=1):
    s1, s2 = shape_of(batch1), shape_of(batch2)
    if len(s1) >= 2 and len(s2) >= 3:
        _expand_check(self, (s1[0], s1[1], s2[2]))
    check(
        self._dtype is batch1._dtype,
        f"Input dtypes must be the same, got: input {self._dtype._cpp}, batch1: "
        f"{batch1._dtype._cpp}, batch2: {batch2._dtype._cpp}",
    )
    bs, n, m = _bmm_common(batch1, batch2)
    _bmm_dtype_check("baddbmm", batch1, batch2)
    return new_meta((bs, n, m), batch2._dtype)


def _inplace_bad_shape(self: Tensor, out_shape: Sequence[int]) -> None:
    check(
        tuple(shape_of(self)) == tuple(out_shape),
        f"Bad in-place call: input tensor size {list(shape_of(self))} and output tensor size "
        f"{list(out_shape)} should match",
    )


def _addmm_like_inplace(schema: str, functional: str) -> None:
    """In-place form (`self` written): PyTorch's structured in-place shape check, then copy."""
    inplace_op = defop(schema)
    fn = aten(functional)
    copy_ = aten("copy_")

    def inplace(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        result = fn(self, *args, **kwargs)
        _inplace_bad_shape(self, shape_of(result))
        copy_(self, result)
        return self

    inplace.__name__ = inplace_op.__name__
    aten_lib.impl(inplace_op, inplace, "CompositeExplicitAutograd")


_addmm_like_inplace(
    "addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> "
    "Tensor(a!)",
    "addmm",
)
_addmm_like_inplace(
    "addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> "
    "Tensor(a!)",
    "addmv",
)
_addmm_like_inplace(
    "baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) "
    "-> Tensor(a!)",
    "baddbmm",
)
out_variant(
    "addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, "
    "Tensor(a!) out) -> Tensor(a!)",
    "addmm",
    check=same_dtype,
)
out_variant(
    "addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, "
    "Tensor(a!) out) -> Tensor(a!)",
    "addmv",
    check=same_dtype,
)
out_variant(
    "baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, "
    "Tensor(a!) out) -> Tensor(a!)",
    "baddbmm",
    check=same_dtype,
)


# ----------------------------------------------------------------------------- vectors


def _dot_check(self: Tensor, other: Tensor, name: str) -> None:
    check(
        self.dim() == 1 and other.dim() == 1,
        f"1D tensors expected, but got {self.dim()}D and {other.dim()}D tensors",
    )
    check(
        self._dtype is other._dtype,
        f"dot : expected both vectors to have same dtype, but found {self._dtype._short} and "
        f"{other._dtype._short}",
    )
    n1, n2 = self.numel(), other.numel()
    check(
        n1 == n2,
        f"inconsistent tensor size, expected tensor [{n1}] and src [{n2}] to have the same number "
        f"of elements, but got {n1} and {n2} elements respectively",
    )
    if self._dtype.category == 0:
        _not_implemented(name, self._dtype)


@meta("dot(Tensor self, Tensor tensor) -> Tensor")
def dot_meta(self, tensor):
    _dot_check(self, tensor, "dot")
    return new_meta((), self._dtype)


@meta("vdot(Tensor self, Tensor other) -> Tensor")
def vdot_meta(self, other):
    _dot_check(self, other, "dot")
    return new_meta((), self._dtype)


@meta("mv(Tensor self, Tensor vec) -> Tensor")
def mv_meta(self, vec):
    # PyTorch: addmv_(empty({self.size(0)}, vec.options()), self, vec, 0, 1).
    result = new_meta((shape_of(self)[0] if self.dim() else 1,), vec._dtype)
    return addmv_meta(result, self, vec)


out_variant(
    "dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)", "dot", check=dot_dtype
)
out_variant(
    "vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "vdot", check=dot_dtype
)
out_variant(
    "mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)", "mv", check=same_dtype
)


def _check_1d(t: Tensor, arg: str, fn: str) -> None:
    check(t.dim() == 1, f"{fn}: Expected 1-D argument {arg}, but got {t.dim()}-D")


@composite("outer(Tensor self, Tensor vec2) -> Tensor")
def outer(self, vec2):
    _check_1d(self, "self", "outer")
    _check_1d(vec2, "vec2", "outer")
    return op("mul.Tensor")(op("reshape")(self, [shape_of(self)[0], 1]), vec2)


@composite("ger(Tensor self, Tensor vec2) -> Tensor")
def ger(self, vec2):
    return outer(self, vec2)


@composite("outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)")
def outer_out(self, vec2, *, out):
    _check_1d(self, "self", "outer")
    _check_1d(vec2, "vec2", "outer")
    return op("mul.out")(op("reshape")(self, [shape_of(self)[0], 1]), vec2, out=out)


@composite("ger.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)")
def ger_out(self, vec2, *, out):
    return outer_out(self, vec2, out=out)


# ----------------------------------------------------------------------------- matmul


def _requires_grad(t: Tensor) -> bool:
    return bool(t.requires_grad)


def _should_fold(t1: Tensor, t2: Tensor, has_out: bool) -> bool:
    larger = t1.dim() >= t2.dim()
    big = t1 if larger else op("transpose.int")(t2, -2, -1)
    dim_big = big.dim()
    dim_small = t2.dim() if larger else t1.dim()
    if not (dim_big >= 3 and dim_small <= 2):
        return False
    small_rg = _requires_grad(t2) if larger else _requires_grad(t1)
    if small_rg and not has_out:
        return True
    if t1.dim() == 2:
        return False
    if big.numel() == 0:
        return True
    shape, stride = shape_of(big), big.stride()
    for i in range(dim_big - 2):
        if stride[i] != stride[i + 1] * shape[i + 1]:
            return False
    return True


def _views(t: Tensor, shape: Sequence[int]) -> bool:
    """Whether t.reshape(shape) is a view of t (else reshape copies)."""
    return _shape.compute_view_stride(shape_of(t), t.stride(), shape) is not None


def _matmul_impl(out: Tensor | None, t1: Tensor, t2: Tensor) -> Tensor:
    d1, d2 = len(t1._data.shape), len(t2._data.shape)
    if out is None and d1 == 2 and d2 == 2:  # the common case first: one mm
        return H.mm(t1, t2)
    if d1 == 0 or d2 == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D"
        )
    has_out = out is not None
    if d1 == 1 and d2 == 1:
        return op("dot.out")(t1, t2, out=out) if has_out else op("dot")(t1, t2)
    if d1 == 2 and d2 == 1:
        return op("mv.out")(t1, t2, out=out) if has_out else op("mv")(t1, t2)
    if d1 == 1 and d2 == 2:
        u = op("unsqueeze")(t1, 0)
        r = op("mm.out")(u, t2, out=out) if has_out else op("mm")(u, t2)
        return op("squeeze_.dim")(r, 0)
    if d1 == 2 and d2 == 2:
        return op("mm.out")(t1, t2, out=out) if has_out else op("mm")(t1, t2)
    if _should_fold(t1, t2, has_out):
        return _matmul_fold(out, t1, t2)
    return _matmul_batched(out, t1, t2)


def _matmul_fold(out: Tensor | None, t1: Tensor, t2: Tensor) -> Tensor:
    transpose = t2.dim() > t1.dim()
    if transpose:
        a = op("transpose.int")(t2, -2, -1)
        b = op("t")(t1) if t1.dim() == 2 else t1
    else:
        a, b = t1, t2
    sizes = shape_of(a)
    output_shape = list(sizes[:-1])
    folded = _shape.numel(output_shape)
    b_matrix = b.dim() == 2
    if b_matrix:
        output_shape.append(shape_of(b)[1])
    a_folded = op("reshape")(a, [folded, sizes[-1]])
    if out is None:
        if b_matrix:
            output = op("_unsafe_view")(op("mm")(a_folded, b), output_shape)
            if transpose:
                return op("contiguous")(op("transpose.int")(output, -2, -1))
            return output
        return op("_unsafe_view")(op("mv")(a_folded, b), output_shape)

    resize_output(out, output_shape)
    flat_shape = [folded, shape_of(b)[-1]] if b_matrix else [folded]
    aliased = _views(out, flat_shape)
    reshaped = op("reshape")(out, flat_shape)
    if b_matrix:
        op("mm.out")(a_folded, b, out=reshaped)
    else:
        op("mv.out")(a_folded, b, out=reshaped)
    if not aliased:
        op("copy_")(out, reshaped)
    return out


def _matmul_batched(out: Tensor | None, t1: Tensor, t2: Tensor) -> Tensor:
    d1, d2 = t1.dim(), t2.dim()
    s1, s2 = shape_of(t1), shape_of(t2)
    n = s1[-2] if d1 > 1 else 1
    m1 = s1[-1]
    batch1 = s1[: max(d1 - 2, 0)]
    m2 = s2[-2] if d2 > 1 else s2[0]
    p = s2[-1] if d2 > 1 else 1
    batch2 = s2[: max(d2 - 2, 0)]
    if d1 == 3 and d2 == 3 and batch1[0] != batch2[0]:
        if batch1[0] == 1 and (_requires_grad(t1) or subclass_like(t1)):
            return _matmul_impl(out, op("squeeze.dim")(t1, 0), t2)
        if batch2[0] == 1 and (_requires_grad(t2) or subclass_like(t2)):
            return _matmul_impl(out, t1, op("squeeze.dim")(t2, 0))
    output_shape = list(_shape.broadcast_shapes(batch1, batch2))
    bprod = _shape.numel(output_shape)
    t1e = op("reshape")(op("expand")(t1, [*output_shape, n, m1]), [bprod, n, m1])
    vector_rhs = d2 == 1
    t2e = op("expand")(t2, [*output_shape, m2] if vector_rhs else [*output_shape, m2, p])
    if vector_rhs:
        t2e = op("unsqueeze")(op("reshape")(t2e, [bprod, m2]), 2)
    else:
        t2e = op("reshape")(t2e, [bprod, m2, p])
    if d1 > 1:
        output_shape.append(n)
    if d2 > 1:
        output_shape.append(p)
    if out is None:
        r = op("bmm")(t1e, t2e)
        if vector_rhs:
            r = op("squeeze.dim")(r, -1)
        return op("_unsafe_view")(r, output_shape)

    resize_output(out, output_shape)
    aliased = _views(out, [bprod, n, p])
    reshaped = op("reshape")(out, [bprod, n, p])
    op("bmm.out")(t1e, t2e, out=reshaped)
    if vector_rhs:
        reshaped = op("squeeze.dim")(reshaped, -1)
    if not aliased:
        op("copy_")(out, op("view")(reshaped, list(shape_of(out))))
    return out


@composite("matmul(Tensor self, Tensor other) -> Tensor")
def matmul(self, other):
    return _matmul_impl(None, self, other)


@composite("matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
def matmul_out(self, other, *, out):
    d1, d2 = len(self._data.shape), len(other._data.shape)
    if (
        d1
        and d2
        and _tls.thread_state.grad_enabled
        and any(t._key_set & REQUIRES_GRAD_BIT for t in (self, other, out))
    ):
        # PyTorch's _matmul_impl refuses this itself (matmul.out is composite there too).
        raise RuntimeError(
            "matmul(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    _matmul_impl(out, self, other)
    return out


# ----------------------------------------------------------------------------- linear


def _flatten_nd_linear(input: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
    sizes = shape_of(input)
    rows = _shape.numel(sizes[:-1])
    flat = op("view")(input, [rows, sizes[-1]])  # contiguous: a view, as PyTorch's
    result = op("addmm")(bias, flat, op("t")(weight))
    return op("view")(result, [*sizes[:-1], shape_of(result)[1]])


@composite("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor")
def linear(input, weight, bias=None):
    idim, wdim = len(input._data.shape), len(weight._data.shape)
    if idim == 0 or wdim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are {idim}D and {wdim}D"
        )
    if bias is not None:
        if idim == 2:
            return H.addmm(bias, input, H.t(weight))
        fusable = (bias.dim() == 1 or op("squeeze")(bias).dim() == 1) and bias.is_contiguous()
        if fusable and input.is_contiguous():
            return _flatten_nd_linear(input, weight, bias)
    output = H.matmul(input, H.t(weight))
    if bias is not None:
        if subclass_like(bias):
            output = op("add.Tensor")(output, bias)
        else:
            output = op("add_.Tensor")(output, bias)
    return output


@composite_explicit(  # CompositeExplicitAutograd in PyTorch: its autograd kernel refuses grad
    "linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) -> Tensor(a!)"
)
def linear_out(input, weight, bias=None, *, out):
    if input.dim() == 2 and bias is not None:
        return op("addmm.out")(bias, input, op("t")(weight), out=out)
    op("matmul.out")(input, op("t")(weight), out=out)
    if bias is not None:
        op("add_.Tensor")(out, bias)
    return out


# ----------------------------------------------------------------------------- einsum

_LETTERS = 26
_TOTAL = 52
_ELL = _TOTAL


def _sub(c: str) -> int:
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + _LETTERS


def _label(s: int) -> str:
    return chr(s + ord("A")) if s < _LETTERS else chr(s - _LETTERS + ord("a"))


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list[int]) -> Tensor:
    """(left * right).sum(sum_dims, keepdim=True) by permute + reshape + bmm (PyTorch's)."""
    check(left.dim() == right.dim(), "number of dimensions must match")
    if not sum_dims:
        return op("mul.Tensor")(left, right)
    ndim = left.dim()
    sums = set(sum_dims)
    lro: list[int] = []
    lo: list[int] = []
    ro: list[int] = []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(ndim):
        ls, rs = shape_of(left)[i], shape_of(right)[i]
        sl, sr = ls != 1, rs != 1
        if i in sums:
            if sl and sr:
                check(ls == rs, "non-broadcast dimensions must match")
                sum_size *= ls
            elif sl:
                left = op("sum.dim_IntList")(left, [i], True)
            elif sr:
                right = op("sum.dim_IntList")(right, [i], True)
        elif sl and sr:
            check(ls == rs, "non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= ls
        elif sl:
            lo.append(i)
            lo_size *= ls
        else:
            ro.append(i)
            ro_size *= rs
    lshape, rshape = shape_of(left), shape_of(right)
    out_size = [lshape[d] for d in lro] + [lshape[d] for d in lo]
    out_size += [1] * len(sum_dims) + [rshape[d] for d in ro]
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [-1] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    lmat = op("reshape")(op("permute")(left, lperm), [lro_size, lo_size, sum_size])
    rmat = op("reshape")(op("permute")(right, rperm), [lro_size, sum_size, ro_size])
    result = op("bmm")(lmat, rmat)
    return op("permute")(op("view")(result, out_size), operm)


@composite("einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor")
def einsum(equation, tensors, *, path=None):
    operands = list(tensors)
    check(len(operands) > 0, "einsum(): must provide at least one operand")
    num_ops = len(operands)
    if path is not None:
        path_size = 1 if num_ops == 1 else (num_ops - 1) * 2
        check(
            len(path) == path_size,
            f"einsum(): expected contraction path given in path parameter to have size "
            f"{path_size} but got {len(path)}",
        )
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels: list[list[int]] = [[] for _ in range(num_ops)]
    ell_in_input = False
    cur = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            check(
                not ell_in_input,
                f"einsum(): found '.' for operand {cur} for which an ellipsis was already found",
            )
            ok = i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."
            check(ok, f"einsum(): found '.' for operand {cur} that is not part of any ellipsis")
            i += 2
            op_labels[cur].append(_ELL)
            ell_in_input = True
        elif c == ",":
            cur += 1
            check(
                cur < num_ops,
                "einsum(): fewer operands were provided than specified in the equation",
            )
            ell_in_input = False
        else:
            check(
                c.isascii() and c.isalpha(),
                f"einsum(): invalid subscript given at index {i} in the equation string, "
                f"subscripts must be in [a-zA-Z]",
            )
            op_labels[cur].append(_sub(c))
        i += 1
    check(
        cur == num_ops - 1,
        "einsum(): more operands were provided than specified in the equation",
    )
    label_count = [0] * _TOTAL
    ell_num_dim = 0
    for idx, (operand, labels) in enumerate(zip(operands, op_labels)):
        ndims = operand.dim()
        nlabels = len(labels)
        has_ell = False
        for lab in labels:
            if lab == _ELL:
                nlabels -= 1
                has_ell = True
                ell_num_dim = max(ell_num_dim, ndims - nlabels)
            else:
                label_count[lab] += 1
        if has_ell:
            check(
                nlabels <= ndims,
                f"einsum(): the number of subscripts in the equation ({nlabels}) is more than the "
                f"number of dimensions ({ndims}) for operand {idx}",
            )
        else:
            check(
                nlabels == ndims,
                f"einsum(): the number of subscripts in the equation ({nlabels}) does not match "
                f"the number of dimensions ({ndims}) for operand {idx} and no ellipsis was given",
            )
    label_perm = [-1] * _TOTAL
    perm_index = 0
    ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for lab in range(_TOTAL):
            if label_count[lab] == 1:
                label_perm[lab] = perm_index
                perm_index += 1
    else:
        rhs = equation[arrow + 2 :]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                check(
                    not ell_in_output,
                    "einsum(): found '.' for output but an ellipsis (...) was already found",
                )
                ok = i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."
                check(ok, "einsum(): found '.' for output that is not part of any ellipsis (...)")
                i += 2
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                check(
                    c.isascii() and c.isalpha(),
                    f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the "
                    f"equation string, subscripts must be in [a-zA-Z]",
                )
                lab = _sub(c)
                check(
                    label_count[lab] > 0 and label_perm[lab] == -1,
                    f"einsum(): output subscript {c}"
                    + (
                        " appears more than once in the output"
                        if label_perm[lab] > -1
                        else " does not appear in the equation for any input operand"
                    ),
                )
                label_perm[lab] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for lab in range(_TOTAL):
        if label_count[lab] > 0 and label_perm[lab] == -1:
            label_perm[lab] = perm_index
            perm_index += 1

    label_size = [1] * _TOTAL
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops_list: list[Tensor] = []
    for idx in range(num_ops):
        t = operands[idx]
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[idx]:
            if s == _ELL:
                ndim = operands[idx].dim() - (len(op_labels[idx]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = shape_of(t)[dim]
                    if size != 1:
                        check(
                            ell_sizes[j] == 1 or ell_sizes[j] == size,
                            f"einsum(): dimension {dim} covered by ellipsis in operand {idx}has "
                            f"size {size} which does not broadcast with previously seen ellipsis "
                            f"with size {ell_sizes[j]} for the respective dimension",
                        )
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm[s]] == -1:
                size = shape_of(t)[dim]
                if size != 1:
                    check(
                        label_size[s] == 1 or label_size[s] == size,
                        f"einsum(): subscript {_label(s)} has size {size} for operand {idx} which "
                        f"does not broadcast with previously seen size {label_size[s]}",
                    )
                    label_size[s] = size
                    dim_counts[label_perm[s]] += 1
                permutation[label_perm[s]] = dim
                dim += 1
            else:
                prev = permutation[label_perm[s]]
                size, psize = shape_of(t)[dim], shape_of(t)[prev]
                check(
                    size == psize,
                    f"einsum(): subscript {_label(s)} is repeated for operand {idx} but the "
                    f"sizes don't match, {size} != {psize}",
                )
                t = op("diagonal")(t, 0, prev, dim)
                t = _movedim_last_to(t, prev)
        for k, v in enumerate(permutation):
            if v == -1:
                t = op("unsqueeze")(t, dim)
                permutation[k] = dim
                dim += 1
        ops_list.append(op("permute")(t, permutation))

    path_iter = iter(path) if path is not None else None
    while len(ops_list) > 1:
        i, j = 0, 1
        if path_iter is not None:
            i, j = next(path_iter), next(path_iter)
            if j < i:
                i, j = j, i
            check(
                i != j and i >= 0 and j < len(ops_list),
                f"einsum(): invalid contraction ({i}, {j})"
                + (
                    " cannot contract an operand with itself"
                    if i == j
                    else " operand index is out of bounds"
                ),
            )
        a, b = ops_list[i], ops_list[j]
        del ops_list[j]
        del ops_list[i]
        sum_dims: list[int] = []
        a_sum: list[int] = []
        b_sum: list[int] = []
        sa, sb = shape_of(a), shape_of(b)
        for d in range(out_num_dim, perm_index):
            if sa[d] != 1 and sb[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if sa[d] != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif sb[d] != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = op("sum.dim_IntList")(a, a_sum, True)
        if b_sum:
            b = op("sum.dim_IntList")(b, b_sum, True)
        if path_iter is not None:
            ops_list.append(_sumproduct_pair(a, b, sum_dims))
        else:
            ops_list.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = ops_list[0]
    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            sizes = list(shape_of(result))
            del sizes[out_num_dim:perm_index]
            return op("view")(result, sizes)
        return op("sum.dim_IntList")(result, list(range(out_num_dim, perm_index)))
    return result


def _movedim_last_to(t: Tensor, dst: int) -> Tensor:
    """t.movedim(-1, dst) as movedim decomposes it: one permute."""
    n = t.dim()
    order = list(range(n - 1))
    order.insert(dst, n - 1)
    return op("permute")(t, order)


# ----------------------------------------------------------------------------- tensordot


@composite("tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor")
def tensordot(self, other, dims_self, dims_other):
    dims1, dims2 = list(dims_self), list(dims_other)
    check(len(dims1) == len(dims2), "both dimension lists should have same length")
    check(self._dtype is other._dtype, "both inputs should have same dtype")
    csize = 1
    t1, t2 = self, other
    s1, s2 = shape_of(self), shape_of(other)
    for a, b in zip(dims1, dims2):
        z1 = s1[_shape.wrap_dim(a, len(s1))]
        z2 = s2[_shape.wrap_dim(b, len(s2))]
        if z2 == 1:
            t1 = op("sum.dim_IntList")(t1, [a], True, dtype=t1._dtype)
        elif z1 == 1:
            t2 = op("sum.dim_IntList")(t2, [b], True, dtype=t2._dtype)
        else:
            check(
                z1 == z2,
                f"contracted dimensions need to match, but first has size {z1} in dim {a} and "
                f"second has size {z2} in dim {b}",
            )
            csize *= z1
    c1 = {_shape.wrap_dim(d, len(s1)) for d in dims1}
    c2 = {_shape.wrap_dim(d, len(s2)) for d in dims2}
    p1: list[int] = []
    p2: list[int] = []
    rsizes: list[int] = []
    size1 = size2 = 1
    st1, st2 = shape_of(t1), shape_of(t2)
    for i in range(len(s1)):
        if i not in c1:
            p1.append(i)
            size1 *= st1[i]
            rsizes.append(st1[i])
    p1 += dims1
    p2 += dims2
    for i in range(len(s2)):
        if i not in c2:
            p2.append(i)
            size2 *= st2[i]
            rsizes.append(st2[i])
    m1 = op("reshape")(op("permute")(t1, p1), [size1, csize])
    m2 = op("reshape")(op("permute")(t2, p2), [csize, size2])
    return op("reshape")(op("mm")(m1, m2), rsizes)
