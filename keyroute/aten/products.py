"""Products and norms PyTorch has as operators of their own: trace (and trace_backward's
decomposition), addr (outer product added to self), _trilinear with bilinear's decomposition
over it (Linear.cpp), renorm, and cosine_similarity's decomposition (Distance.cpp). A
dispatch mode and autocast's lists (addr, bilinear, renorm, cosine_similarity on CUDA; trace on
CPU) see them as PyTorch's do. Kernels in kernels/cpu/products.py, derivatives in
autograd/derivatives/products.py."""

from __future__ import annotations

from collections.abc import Sequence

from ..tensor import dtype as _dt
from ._define import composite, meta
from ._meta_util import check, new_meta, shape_of
from ._promotion import result_type
from ._shape import broadcast_shapes, wrap_dim
from .linalg import op

__all__ = ["trilinear_shape", "check_addr_scalar", "renorm_meta_checks"]


@meta("trace(Tensor self) -> Tensor")
def trace(self):
    check(self.dim() == 2, f"trace: expected a matrix, but got tensor with dim {self.dim()}")
    if self._dtype is _dt.bool_:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    dt = _dt.int64 if not (self._dtype.is_floating_point or self._dtype.is_complex) else self._dtype
    return new_meta((), dt)


@composite("trace_backward(Tensor grad, SymInt[] sizes) -> Tensor")
def trace_backward(grad, sizes):
    check(len(sizes) == 2, "expected matrix input")
    rows, cols = int(sizes[0]), int(sizes[1])
    flat = op("zeros")([rows * cols], dtype=grad.dtype, layout=grad.layout, device=grad.device)
    step = cols + 1
    index = op("arange.start_step")(
        0, min(rows, cols) * step, step, dtype=_dt.int64, layout=grad.layout, device=grad.device
    )
    return op("view")(op("index_fill.int_Tensor")(flat, 0, index, grad), [rows, cols])


@meta("addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor")
def addr(self, vec1, vec2, *, beta=1, alpha=1):
    check(vec1.dim() == 1, f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D")
    check(vec2.dim() == 1, f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    shape = (shape_of(vec1)[0], shape_of(vec2)[0])
    _expand_check(shape_of(self), shape)
    dt = result_type(self, vec1, vec2)
    check_addr_scalar(dt, beta, "beta")
    check_addr_scalar(dt, alpha, "alpha")
    return new_meta(shape, dt)


def check_addr_scalar(dt: _dt.dtype, scalar: object, name: str) -> None:
    """LinearAlgebra.cpp's check_addr_scalar, against the iterator's common dtype: a bool
    scalar only for a bool result; for an integral (or bool) result, only integral scalars."""
    check(
        not isinstance(scalar, bool) or dt is _dt.bool_,
        f"Boolean {name} only supported for Boolean results.",
    )
    check(
        dt.is_floating_point or dt.is_complex or isinstance(scalar, int),
        f"For integral input tensors, argument {name} must not be a floating point number.",
    )


def _expand_check(size: Sequence[int], target: Sequence[int]) -> None:
    """self.expand(target)'s check, with its message."""
    size, target = tuple(size), tuple(target)
    ok = len(size) <= len(target)
    for i in range(1, len(size) + 1):
        if ok and size[-i] != 1 and size[-i] != target[-i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[-i]}) must match the existing size "
                f"({size[-i]}) at non-singleton dimension {len(target) - i}.  Target sizes: "
                f"{list(target)}.  Tensor sizes: {list(size)}"
            )
    check(ok, f"expand: the number of sizes provided ({len(target)}) must be greater or equal")


def trilinear_shape(
    shapes: Sequence[Sequence[int]],
    expands: Sequence[Sequence[int]],
    sumdim: Sequence[int],
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Each input's shape with size-1 dims inserted at its `expand` dims, and the output shape:
    the broadcast of those with the `sumdim` dims removed."""
    total = len(shapes[0]) + len(expands[0])
    full = []
    for s, e in zip(shapes, expands):
        check(len(s) + len(e) == total, "number of dimensions must match")
        it = iter(s)
        full.append(tuple(1 if d in e else next(it) for d in range(total)))
    out = broadcast_shapes(*full)
    return tuple(full), tuple(n for d, n in enumerate(out) if d not in sumdim)


@meta(
    "_trilinear(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, int[] expand3, "
    "int[] sumdim, int unroll_dim=1) -> Tensor"
)
def _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    shapes = (shape_of(i1), shape_of(i2), shape_of(i3))
    _, out = trilinear_shape(shapes, (expand1, expand2, expand3), sumdim)
    return new_meta(out, i1._dtype)


@composite("bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor")
def bilinear(input1, input2, weight, bias=None):
    names = (("input1", input1), ("input2", input2), ("weight", weight))
    if bias is not None:
        names += (("bias", bias),)
    same = all(t._dtype is input1._dtype for _, t in names)
    check(
        same,
        "All tensors must have the same dtype, got "
        + ", ".join(f"{n}: {t._dtype._cpp}" for n, t in names),
    )
    s1, s2, sw = shape_of(input1), shape_of(input2), shape_of(weight)
    check(
        len(s1) == len(s2),
        f"bilinear(): input dimensions do not match: got {len(s1)} and {len(s2)}",
    )
    for i in range(len(s1) - 1):
        check(
            s1[i] == s2[i],
            f"bilinear(): input batch dimensions do not match at dim {i}: got {s1[i]} and {s2[i]}",
        )
    check(
        s1[-1] == sw[1],
        f"bilinear(): input1 size does not match weight size: got {s1[-1]} but expected {sw[1]}",
    )
    check(
        s2[-1] == sw[2],
        f"bilinear(): input2 size does not match weight size: got {s2[-1]} but expected {sw[2]}",
    )
    if bias is not None:
        sb = shape_of(bias)[0]
        check(
            sb == sw[0],
            f"bilinear(): bias size does not match weight size: got {sb} but expected {sw[0]}",
        )
    out_size = [*s1[:-1], sw[0]]
    x1 = op("reshape")(input1, [-1, s1[-1]])
    x2 = op("reshape")(input2, [-1, s2[-1]])
    out = op("_trilinear")(x1, weight, x2, [1, 3], [0], [1, 2], [2, 3])
    out = op("reshape")(out, out_size)
    return out if bias is None else op("add.Tensor")(out, bias)


@meta("renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor")
def renorm(self, p, dim, maxnorm):
    renorm_meta_checks(self, p, maxnorm)
    # renorm_impl's own: the dim, and linalg_vector_norm's dtype check (the norms are taken
    # with it); renorm.out checks out's dtype between the two (set_output).
    wrap_dim(dim, self.dim())
    check(
        self._dtype.is_floating_point or self._dtype.is_complex,
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
        f"{self._dtype._short}",
    )
    return new_meta(shape_of(self), self._dtype)


def renorm_meta_checks(self, p, maxnorm) -> None:
    """TORCH_META_FUNC(renorm)'s checks, in its order."""
    check(not isinstance(p, complex), "renorm: p must be real-valued")
    check(p > 0, "renorm: non-positive-norm not supported")
    check(not isinstance(maxnorm, complex), "renorm: maxnorm must be real-valued")
    # (the message prints maxnorm.toDouble() as a C++ stream does: 6 significant digits)
    check(maxnorm >= 0, f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm):g}")
    ndim = self.dim()
    check(ndim > 1, f"renorm: input needs at least 2 dimensions, got {ndim} dimensions")


@composite("cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor")
def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    common = result_type(x1, x2)
    check(
        common.is_floating_point,
        f"expected common dtype to be floating point, yet common dtype is {common._short}",
    )
    # vector_norm takes no integers: those inputs are converted to the common dtype first.
    if not (x1._dtype.is_floating_point or x1._dtype.is_complex):
        x1 = op("_to_copy")(x1, dtype=common)
    if not (x2._dtype.is_floating_point or x2._dtype.is_complex):
        x2 = op("_to_copy")(x2, dtype=common)
    s1, s2 = shape_of(x1), shape_of(x2)
    if s1 != s2:  # expand_outplace: only when the shapes differ
        shape = list(broadcast_shapes(s1, s2))
        x1, x2 = op("expand")(x1, shape), op("expand")(x2, shape)
    # Each divided by its norm first (numerically stabler); the norms are cloned and clamped
    # in place without grad, so the gradient flows as through the unclamped norms.
    n1 = op("clone")(op("linalg_vector_norm")(x1, 2, [dim], True))
    n2 = op("clone")(op("linalg_vector_norm")(x2, 2, [dim], True))
    from ..autograd.grad_mode import no_grad  # autograd imports aten: at call time

    with no_grad():
        eps_t = op("scalar_tensor")(eps, dtype=n1.dtype, device=n1.device)
        op("clamp_min_.Tensor")(n1, eps_t)
        op("clamp_min_.Tensor")(n2, eps_t)
    prod = op("mul.Tensor")(op("div.Tensor")(x1, n1), op("div.Tensor")(x2, n2))
    return op("sum.dim_IntList")(prod, [dim])


# ----------------------------------------------------------------------------- inner
# CompositeImplicitAutograd as PyTorch's (LinearAlgebra.cpp): a 0-dim operand is a mul, else a
# tensordot over the last dims; so a dispatch mode logs mul or permute/view/mm.


def _inner_check(self, other) -> None:
    s1, s2 = shape_of(self), shape_of(other)
    check(
        s1[-1] == s2[-1],
        f"inner() the last dimension must match on both input tensors but got shapes "
        f"{list(s1)} and {list(s2)}",
    )


@composite("inner(Tensor self, Tensor other) -> Tensor")
def inner(self, other):
    if self.dim() == 0 or other.dim() == 0:
        return op("mul.Tensor")(self, other)
    _inner_check(self, other)
    return op("tensordot")(self, other, [-1], [-1])


@composite("inner.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
def inner_out(self, other, *, out):
    if self.dim() == 0 or other.dim() == 0:
        return op("mul.out")(self, other, out=out)
    _inner_check(self, other)
    # tensordot.out's steps: the result's dtype must be out's, then resize_output and copy_.
    result = op("tensordot")(self, other, [-1], [-1])
    check(
        result._dtype is out._dtype,
        f"tensordot: Expected the output tensor to have dtype {result._dtype._short}, but got "
        f"an output tensor with dtype {out._dtype._short}",
    )
    from ._variants import resize_output

    resize_output(out, shape_of(result))
    return op("copy_")(out, result)
