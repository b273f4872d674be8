"""Gradient cases: one or more per differentiable aten operator (float64 inputs).

`CASES[name] = make` where `make(M, rng)` returns `(op_name, args, kwargs)` with leaf tensors
of module M (torch or keyroute) built from the NumPy rng; differentiable float inputs require
grad. Shared by tools/record_grads.py (PyTorch's gradients, recorded) and
tests/autograd/test_gradients.py (gradcheck + comparison with the recording). No torch or
keyroute import here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Make = Callable[[Any, np.random.Generator], tuple[str, tuple[Any, ...], dict[str, Any]]]
CASES: dict[str, Make] = {}


def t(
    M: Any,
    rng: np.random.Generator,
    *shape: int,
    low: float = -2,
    high: float = 2,
    grad: bool = True,
    positive: bool = False,
) -> Any:
    a = rng.uniform(0.5 if positive else low, high, shape)
    out = M.from_numpy(a.astype(np.float64))
    return out.requires_grad_(True) if grad else out


def ints(M: Any, values: Any) -> Any:
    return M.from_numpy(np.asarray(values, dtype=np.int64))


def mask(M: Any, rng: np.random.Generator, *shape: int) -> Any:
    return M.from_numpy(rng.random(shape) < 0.5)


def case(name: str, op: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        def make(M: Any, rng: np.random.Generator) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
            args, kwargs = fn(M, rng)
            return (op or name), args, kwargs

        CASES[name] = make
        return fn

    return deco


def _simple(
    name: str,
    *shapes: tuple[int, ...],
    extra: tuple[Any, ...] = (),
    kwargs: Any = None,
    positive: bool = False,
    op: str | None = None,
) -> None:
    def fn(M: Any, rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return tuple(t(M, rng, *s, positive=positive) for s in shapes) + tuple(extra), dict(
            kwargs or {}
        )

    case(name, op)(fn)


# elementwise
_simple("add.Tensor", (3, 4), (4,), kwargs={"alpha": 2})
_simple("add.Scalar", (3,), extra=(1.5, 2))
_simple("sub.Tensor", (2, 3), (2, 3), kwargs={"alpha": 0.5})
_simple("sub.Scalar", (3,), extra=(2,))
_simple("rsub.Tensor", (3,), (3,), kwargs={"alpha": 3})
_simple("rsub.Scalar", (3,), extra=(2.0, 2))
_simple("mul.Tensor", (2, 3), (1, 3))
_simple("mul.Scalar", (3,), extra=(3.0,))
_simple("div.Tensor", (2, 3), (3,), positive=True)
_simple("div.Scalar", (3,), extra=(4.0,))
_simple("neg", (2, 2))
_simple("pow.Tensor_Scalar", (3,), extra=(3,), positive=True)
_simple("pow.Tensor_Tensor", (3,), (3,), positive=True)
_simple("lerp.Scalar", (3,), (3,), extra=(0.3,))
_simple("lerp.Tensor", (3,), (3,), (3,))
_simple("addcmul", (3,), (3,), (3,), kwargs={"value": 0.5})
_simple("addcdiv", (3,), (3,), (3,), kwargs={"value": 0.5}, positive=True)
_simple("maximum", (4,), (4,))
_simple("minimum", (4,), (4,))
_simple("atan2", (3,), (3,), positive=True)
_simple("hypot", (3,), (3,), positive=True)
_simple("xlogy.Tensor", (3,), (3,), positive=True)
_simple("fmax", (4,), (4,))
_simple("fmin", (4,), (4,))
_simple("clamp", (5,), extra=(-0.5, 0.5))
_simple("clamp_min", (5,), extra=(0.0,))
_simple("clamp_max", (5,), extra=(0.0,))
_simple("clamp.Tensor", (5,), (5,), (5,))
for _n in (
    "exp",
    "exp2",
    "expm1",
    "sin",
    "cos",
    "tanh",
    "sigmoid",
    "erf",
    "erfc",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "abs",
    "frac",
    "relu",
    "silu",
    "mish",
    "hardsigmoid",
    "hardswish",
    "softplus",
    "leaky_relu",
    "hardtanh",
    "elu",
    "celu",
    "nan_to_num",
):
    _simple(_n, (2, 3))
for _n in ("log", "log1p", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "tan"):
    _simple(_n, (2, 3), positive=True)
case("acosh")(lambda M, rng: ((t(M, rng, 2, 3, low=1.2, high=3),), {}))
for _n in ("ceil", "floor", "round", "trunc", "sign", "sgn"):
    _simple(_n, (2, 3))
case("round.decimals")(lambda M, rng: ((t(M, rng, 4),), {"decimals": 2}))
case("div.Tensor_mode")(
    lambda M, rng: ((t(M, rng, 4), t(M, rng, 4, positive=True)), {"rounding_mode": "floor"})
)
case("div.Scalar_mode")(lambda M, rng: ((t(M, rng, 4), 2.0), {"rounding_mode": "trunc"}))
case("remainder.Tensor")(lambda M, rng: ((t(M, rng, 4), t(M, rng, 4, positive=True)), {}))
case("remainder.Scalar")(lambda M, rng: ((t(M, rng, 4), 1.5), {}))
case("fmod.Tensor")(lambda M, rng: ((t(M, rng, 4), t(M, rng, 4, positive=True)), {}))
case("fmod.Scalar")(lambda M, rng: ((t(M, rng, 4), 1.5), {}))
case("pow.Scalar")(lambda M, rng: ((2.5, t(M, rng, 4)), {}))
case("clamp_min.Tensor")(lambda M, rng: ((t(M, rng, 5), t(M, rng, 5)), {}))
case("clamp_max.Tensor")(lambda M, rng: ((t(M, rng, 5), t(M, rng, 5)), {}))
case("copysign.Tensor")(lambda M, rng: ((t(M, rng, 5), t(M, rng, 5)), {}))
for _n in ("asin", "acos", "atanh"):
    case(_n)(lambda M, rng: ((t(M, rng, 2, 3, low=-0.8, high=0.8),), {}))
_simple("gelu", (2, 3))
CASES["gelu_tanh"] = lambda M, rng: ("gelu", (t(M, rng, 2, 3),), {"approximate": "tanh"})
case("logit")(lambda M, rng: ((t(M, rng, 4, low=0.1, high=0.9),), {}))
case("threshold")(lambda M, rng: ((t(M, rng, 5), 0.1, 2.0), {}))


@case("where.self")
def _where(M, rng):  # noqa: ANN001, ANN202
    return (mask(M, rng, 3, 4), t(M, rng, 3, 4), t(M, rng, 4)), {}


@case("masked_fill.Tensor")
def _masked_fill_t(M, rng):  # noqa: ANN001, ANN202
    return (t(M, rng, 3, 4), mask(M, rng, 3, 4), t(M, rng)), {}


@case("copy_")
def _copy(M, rng):  # noqa: ANN001, ANN202
    return (t(M, rng, 3, 4) * 1, t(M, rng, 4)), {}


case("fill_.Scalar")(lambda M, rng: ((t(M, rng, 3) * 1, 2.0), {}))
case("fill_.Tensor")(lambda M, rng: ((t(M, rng, 3) * 1, t(M, rng)), {}))
case("zero_")(lambda M, rng: ((t(M, rng, 3) * 1,), {}))


@case("masked_fill.Scalar")
def _masked_fill(M, rng):  # noqa: ANN001, ANN202
    return (t(M, rng, 3, 4), mask(M, rng, 3, 4), 2.0), {}


# copies and views
_simple("clone", (2, 3))
_simple("alias", (2, 3))
case("_to_copy")(lambda M, rng: ((t(M, rng, 2, 3).t(),), {"memory_format": M.contiguous_format}))
CASES["_to_copy_float32"] = lambda M, rng: ("_to_copy", (t(M, rng, 2, 3),), {"dtype": M.float32})
case("view")(lambda M, rng: ((t(M, rng, 2, 6), [3, 4]), {}))
case("_unsafe_view")(lambda M, rng: ((t(M, rng, 2, 6), [12]), {}))
case("_reshape_alias")(lambda M, rng: ((t(M, rng, 2, 6), [3, 4], [4, 1]), {}))
case("expand")(lambda M, rng: ((t(M, rng, 3, 1), [2, 3, 4]), {}))
case("as_strided")(lambda M, rng: ((t(M, rng, 4, 4), [2, 2], [4, 1], 1), {}))
case("t")(lambda M, rng: ((t(M, rng, 2, 3),), {}))
case("transpose.int")(lambda M, rng: ((t(M, rng, 2, 3, 4), 0, 2), {}))
case("permute")(lambda M, rng: ((t(M, rng, 2, 3, 4), [2, 0, 1]), {}))
case("unsqueeze")(lambda M, rng: ((t(M, rng, 2, 3), 1), {}))
case("squeeze.dim")(lambda M, rng: ((t(M, rng, 2, 1, 3), 1), {}))
case("squeeze")(lambda M, rng: ((t(M, rng, 2, 1, 3),), {}))
case("select.int")(lambda M, rng: ((t(M, rng, 3, 4), 1, 2), {}))
case("slice.Tensor")(lambda M, rng: ((t(M, rng, 5, 4), 0, 1, 5, 2), {}))
case("diagonal")(lambda M, rng: ((t(M, rng, 3, 4), 1), {}))
case("split.Tensor")(lambda M, rng: ((t(M, rng, 5, 2), 2), {}))
case("split_with_sizes")(lambda M, rng: ((t(M, rng, 5, 2), [1, 4]), {}))
case("unbind.int")(lambda M, rng: ((t(M, rng, 3, 2), 0), {}))
case("unfold")(lambda M, rng: ((t(M, rng, 2, 7), 1, 3, 2), {}))
case("squeeze.dims")(lambda M, rng: ((t(M, rng, 1, 3, 1), [0, 2]), {}))

# reductions
_simple("sum", (3, 4))
case("sum.dim_IntList")(lambda M, rng: ((t(M, rng, 3, 4), [1]), {}))
_simple("mean", (3, 4))
case("mean.dim")(lambda M, rng: ((t(M, rng, 3, 4, 2), [0, 2], True), {}))
_simple("prod", (2, 3))
case("prod.dim_int")(lambda M, rng: ((t(M, rng, 3, 4), 1), {}))
case("amax")(lambda M, rng: ((t(M, rng, 3, 4), [1]), {}))
case("amin")(lambda M, rng: ((t(M, rng, 3, 4), [0], True), {}))
_simple("max", (3, 4))
_simple("min", (3, 4))
case("max.dim")(lambda M, rng: ((t(M, rng, 3, 4), 1), {}))
case("min.dim")(lambda M, rng: ((t(M, rng, 3, 4), 0, True), {}))
case("var.correction")(lambda M, rng: ((t(M, rng, 3, 4), [1]), {"correction": 1}))
case("std.correction")(lambda M, rng: ((t(M, rng, 3, 4), [0]), {"correction": 0, "keepdim": True}))
case("var_mean.correction")(lambda M, rng: ((t(M, rng, 3, 4), [1]), {}))
case("std_mean.correction")(lambda M, rng: ((t(M, rng, 3, 4), [1]), {}))
case("logsumexp")(lambda M, rng: ((t(M, rng, 3, 4), [1]), {}))
case("_softmax")(lambda M, rng: ((t(M, rng, 3, 4), 1, False), {}))
case("_log_softmax")(lambda M, rng: ((t(M, rng, 3, 4), 0, False), {}))
case("cumsum")(lambda M, rng: ((t(M, rng, 3, 4), 1), {}))
case("cumprod")(lambda M, rng: ((t(M, rng, 3, 4, positive=True), 1), {}))
case("linalg_vector_norm")(lambda M, rng: ((t(M, rng, 3, 4),), {}))
CASES["linalg_vector_norm_p3"] = lambda M, rng: (
    "linalg_vector_norm",
    (t(M, rng, 3, 4), 3, [1]),
    {},
)
CASES["linalg_vector_norm_p1"] = lambda M, rng: ("linalg_vector_norm", (t(M, rng, 3, 4), 1), {})
case("norm.Scalar")(lambda M, rng: ((t(M, rng, 3, 4),), {}))
case("nansum")(lambda M, rng: ((t(M, rng, 3, 4), [1]), {}))
case("topk")(lambda M, rng: ((t(M, rng, 3, 5), 2), {}))
case("sort")(lambda M, rng: ((t(M, rng, 3, 5),), {}))
case("median")(lambda M, rng: ((t(M, rng, 3, 5),), {}))
case("median.dim")(lambda M, rng: ((t(M, rng, 3, 5), 1), {}))
case("sort.stable")(lambda M, rng: ((t(M, rng, 3, 5),), {"stable": True, "dim": 0}))
case("aminmax")(lambda M, rng: ((t(M, rng, 3, 5),), {"dim": 1}))
case("norm.ScalarOpt_dim")(lambda M, rng: ((t(M, rng, 3, 4), 3, [1]), {}))
case("_safe_softmax")(lambda M, rng: ((t(M, rng, 3, 4), 1), {}))

# linear algebra
case("mm")(lambda M, rng: ((t(M, rng, 2, 3), t(M, rng, 3, 4)), {}))
case("bmm")(lambda M, rng: ((t(M, rng, 2, 2, 3), t(M, rng, 2, 3, 2)), {}))
case("addmm")(
    lambda M, rng: ((t(M, rng, 4), t(M, rng, 2, 3), t(M, rng, 3, 4)), {"beta": 0.5, "alpha": 2})
)
case("baddbmm")(lambda M, rng: ((t(M, rng, 2, 2, 2), t(M, rng, 2, 2, 3), t(M, rng, 2, 3, 2)), {}))
case("dot")(lambda M, rng: ((t(M, rng, 4), t(M, rng, 4)), {}))
case("vdot")(lambda M, rng: ((t(M, rng, 4), t(M, rng, 4)), {}))
case("mv")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 4)), {}))
case("addmv")(lambda M, rng: ((t(M, rng, 3), t(M, rng, 3, 4), t(M, rng, 4)), {"alpha": 0.5}))

# indexing and assembly
case("index.Tensor")(lambda M, rng: ((t(M, rng, 4, 3), [ints(M, [0, 2, 2])]), {}))
case("index_select")(lambda M, rng: ((t(M, rng, 4, 3), 0, ints(M, [3, 1, 3])), {}))
case("gather")(lambda M, rng: ((t(M, rng, 3, 4), 1, ints(M, [[0, 1], [2, 2], [3, 0]])), {}))
case("scatter.src")(
    lambda M, rng: ((t(M, rng, 3, 4), 1, ints(M, [[0, 1], [2, 3], [3, 0]]), t(M, rng, 3, 2)), {})
)
case("scatter_add")(
    lambda M, rng: ((t(M, rng, 3, 4), 1, ints(M, [[0, 0], [2, 3], [1, 1]]), t(M, rng, 3, 2)), {})
)
case("index_add")(
    lambda M, rng: ((t(M, rng, 4, 3), 0, ints(M, [0, 2, 0]), t(M, rng, 3, 3)), {"alpha": 2})
)
case("index_copy")(lambda M, rng: ((t(M, rng, 4, 3), 0, ints(M, [1, 3]), t(M, rng, 2, 3)), {}))
case("index_put")(lambda M, rng: ((t(M, rng, 4, 3), [ints(M, [0, 2])], t(M, rng, 2, 3)), {}))
case("masked_select")(lambda M, rng: ((t(M, rng, 3, 4), mask(M, rng, 3, 4)), {}))
case("take")(lambda M, rng: ((t(M, rng, 3, 4), ints(M, [0, 5, 5, 11])), {}))
case("put")(lambda M, rng: ((t(M, rng, 3, 4), ints(M, [0, 5, 11]), t(M, rng, 3)), {}))
case("index_fill.int_Scalar")(lambda M, rng: ((t(M, rng, 4, 3), 0, ints(M, [1, 3]), 2.0), {}))
case("scatter.value")(
    lambda M, rng: ((t(M, rng, 3, 4), 1, ints(M, [[0, 1], [2, 3], [3, 0]]), 1.5), {})
)
case("scatter_reduce.two")(
    lambda M, rng: (
        (t(M, rng, 3, 4), 1, ints(M, [[0, 1], [2, 2], [3, 0]]), t(M, rng, 3, 2), "sum"),
        {},
    )
)
CASES["scatter_reduce_mean"] = lambda M, rng: (
    "scatter_reduce.two",
    (t(M, rng, 3, 4), 1, ints(M, [[0, 1], [2, 2], [3, 0]]), t(M, rng, 3, 2), "mean"),
    {"include_self": False},
)
case("rot90")(lambda M, rng: ((t(M, rng, 3, 4), 1, [0, 1]), {}))
case("cat")(lambda M, rng: (([t(M, rng, 2, 3), t(M, rng, 1, 3)], 0), {}))
case("stack")(lambda M, rng: (([t(M, rng, 2, 3), t(M, rng, 2, 3)], 1), {}))
case("flip")(lambda M, rng: ((t(M, rng, 3, 4), [0, 1]), {}))
case("roll")(lambda M, rng: ((t(M, rng, 3, 4), [1], [1]), {}))
case("tril")(lambda M, rng: ((t(M, rng, 3, 4),), {}))
case("triu")(lambda M, rng: ((t(M, rng, 3, 4), 1), {}))
case("repeat")(lambda M, rng: ((t(M, rng, 2, 3), [2, 1, 2]), {}))
case("constant_pad_nd")(lambda M, rng: ((t(M, rng, 2, 3), [1, 2]), {}))
case("reflection_pad1d")(lambda M, rng: ((t(M, rng, 1, 2, 5), [2, 1]), {}))
case("replication_pad2d")(lambda M, rng: ((t(M, rng, 1, 1, 3, 3), [1, 1, 2, 0]), {}))
case("reflection_pad2d")(lambda M, rng: ((t(M, rng, 1, 1, 4, 4), [1, 2, 2, 1]), {}))
case("reflection_pad3d")(lambda M, rng: ((t(M, rng, 1, 1, 3, 3, 3), [1, 1, 1, 1, 1, 1]), {}))
case("replication_pad1d")(lambda M, rng: ((t(M, rng, 1, 2, 4), [2, 1]), {}))
case("replication_pad3d")(lambda M, rng: ((t(M, rng, 1, 1, 3, 3, 3), [1, 0, 1, 0, 0, 1]), {}))

# nn
case("native_layer_norm")(
    lambda M, rng: ((t(M, rng, 2, 3, 4), [4], t(M, rng, 4), t(M, rng, 4), 1e-5), {})
)
case("native_batch_norm")(
    lambda M, rng: (
        (
            t(M, rng, 4, 3, 2),
            t(M, rng, 3),
            t(M, rng, 3),
            t(M, rng, 3, grad=False),
            t(M, rng, 3, positive=True, grad=False),
            True,
            0.1,
            1e-5,
        ),
        {},
    )
)
case("native_batch_norm_eval", "native_batch_norm")(
    lambda M, rng: (
        (
            t(M, rng, 4, 3),
            t(M, rng, 3),
            t(M, rng, 3),
            t(M, rng, 3, grad=False),
            t(M, rng, 3, positive=True, grad=False),
            False,
            0.1,
            1e-5,
        ),
        {},
    )
)
case("_native_batch_norm_legit")(
    lambda M, rng: (
        (
            t(M, rng, 4, 3, 2),
            t(M, rng, 3),
            t(M, rng, 3),
            t(M, rng, 3, grad=False),
            t(M, rng, 3, positive=True, grad=False),
            True,
            0.1,
            1e-5,
        ),
        {},
    )
)
case("_native_batch_norm_legit.no_stats")(
    lambda M, rng: ((t(M, rng, 4, 3, 2), t(M, rng, 3), t(M, rng, 3), True, 0.1, 1e-5), {})
)
case("_native_batch_norm_legit_no_training")(
    lambda M, rng: (
        (
            t(M, rng, 4, 3),
            t(M, rng, 3),
            t(M, rng, 3),
            t(M, rng, 3, grad=False),
            t(M, rng, 3, positive=True, grad=False),
            0.1,
            1e-5,
        ),
        {},
    )
)
case("native_group_norm")(
    lambda M, rng: ((t(M, rng, 2, 4, 3), t(M, rng, 4), t(M, rng, 4), 2, 4, 3, 2, 1e-5), {})
)
case("embedding")(lambda M, rng: ((t(M, rng, 5, 3), ints(M, [[0, 2], [2, 4]])), {}))
case("mse_loss")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4)), {}))
case("binary_cross_entropy")(
    lambda M, rng: ((t(M, rng, 3, 4, low=0.1, high=0.9), t(M, rng, 3, 4, low=0.1, high=0.9)), {})
)
case("binary_cross_entropy_with_logits")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4, low=0, high=1)), {})
)
case("nll_loss_forward")(lambda M, rng: ((t(M, rng, 3, 4), ints(M, [0, 3, 1]), None, 1, -100), {}))
CASES["nll_loss_weight_ignore"] = lambda M, rng: (
    "nll_loss_forward",
    (t(M, rng, 4, 3), ints(M, [0, 2, 1, 2]), t(M, rng, 3, positive=True, grad=False), 1, 1),
    {},
)
case("nll_loss2d_forward")(
    lambda M, rng: (
        (t(M, rng, 2, 3, 2, 2), ints(M, [[[0, 1], [2, 0]], [[1, 1], [0, 2]]]), None, 2, -100),
        {},
    )
)
case("native_dropout")(lambda M, rng: ((t(M, rng, 3, 4), 0.0, True), {}))
case("_scaled_dot_product_flash_attention_for_cpu")(
    lambda M, rng: ((t(M, rng, 1, 2, 3, 4), t(M, rng, 1, 2, 5, 4), t(M, rng, 1, 2, 5, 4)), {})
)
CASES["sdpa_causal"] = lambda M, rng: (
    "_scaled_dot_product_flash_attention_for_cpu",
    (t(M, rng, 1, 2, 4, 4), t(M, rng, 1, 2, 4, 4), t(M, rng, 1, 2, 4, 4), 0.0, True),
    {},
)
CASES["sdpa_causal_wide"] = lambda M, rng: (  # L < S: the causal mask is top-left aligned
    "_scaled_dot_product_flash_attention_for_cpu",
    (t(M, rng, 2, 2, 3, 4), t(M, rng, 2, 2, 5, 4), t(M, rng, 2, 2, 5, 4), 0.0, True),
    {},
)
CASES["sdpa_mask_scale"] = lambda M, rng: (
    "_scaled_dot_product_flash_attention_for_cpu",
    (t(M, rng, 1, 2, 3, 4), t(M, rng, 1, 2, 5, 4), t(M, rng, 1, 2, 5, 4)),
    {"attn_mask": t(M, rng, 1, 2, 3, 5, grad=False), "scale": 0.7},
)
CASES["sdpa_gqa_causal"] = lambda M, rng: (  # 4 query heads over 2 key/value heads
    "_scaled_dot_product_flash_attention_for_cpu",
    (t(M, rng, 1, 4, 5, 4), t(M, rng, 1, 2, 5, 4), t(M, rng, 1, 2, 5, 4), 0.0, True),
    {"attn_mask": t(M, rng, 5, 5, grad=False)},
)
case("max_pool2d_with_indices")(lambda M, rng: ((t(M, rng, 1, 2, 4, 4), [2, 2]), {}))
case("avg_pool2d")(lambda M, rng: ((t(M, rng, 1, 2, 5, 5), [3, 3], [2, 2], [1, 1]), {}))
case("_adaptive_avg_pool2d")(lambda M, rng: ((t(M, rng, 1, 2, 5, 4), [2, 3]), {}))
case("convolution")(
    lambda M, rng: (
        (
            t(M, rng, 1, 2, 5, 5),
            t(M, rng, 3, 2, 3, 3),
            t(M, rng, 3),
            [1, 1],
            [1, 1],
            [1, 1],
            False,
            [0, 0],
            1,
        ),
        {},
    )
)
# transposed convolution: stride, padding, output_padding, dilation, groups; 1-d without bias
CASES["convolution_transposed"] = lambda M, rng: (
    "convolution",
    (
        t(M, rng, 2, 4, 3, 3),
        t(M, rng, 4, 2, 3, 2),
        t(M, rng, 4),
        [2, 1],
        [1, 0],
        [1, 2],
        True,
        [1, 1],
        2,
    ),
    {},
)
CASES["convolution_transposed_1d"] = lambda M, rng: (
    "convolution",
    (t(M, rng, 2, 3, 4), t(M, rng, 3, 2, 3), None, [2], [1], [1], True, [1], 1),
    {},
)
# backward operators (double backward)
case("threshold_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4), 0.25), {}))
case("sigmoid_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4, low=0.1, high=0.9)), {}))
case("tanh_backward")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4, low=-0.9, high=0.9)), {}))
case("_log_softmax_backward_data")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4, low=-3, high=-0.1), 1, M.float64), {})
)
case("_softmax_backward_data")(
    lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3, 4, low=0.05, high=0.5), 1, M.float64), {})
)
case("nll_loss_backward")(
    lambda M, rng: (
        (
            t(M, rng),
            t(M, rng, 3, 4),
            ints(M, [0, 3, 1]),
            None,
            1,
            -100,
            M.tensor(3.0, dtype=M.float64),
        ),
        {},
    )
)
# the views' backward operators (their gradients: the view of grad), and the views' edge forms
_I64_MAX = 2**63 - 1
case("select_backward")(lambda M, rng: ((t(M, rng, 3), [2, 3], -2, 1), {}))
case("select_backward_neg", "select_backward")(
    lambda M, rng: ((t(M, rng, 2, 4), [2, 3, 4], 1, -1), {})
)
case("slice_backward")(lambda M, rng: ((t(M, rng, 2, 2), [2, 5], 1, 1, _I64_MAX, 2), {}))
case("slice_backward_neg", "slice_backward")(
    lambda M, rng: ((t(M, rng, 3, 2), [3, 4], -1, -3, -1, 1), {})
)
case("diagonal_backward")(lambda M, rng: ((t(M, rng, 4, 2), [3, 4, 5], 1, -1, 0), {}))
case("diagonal_backward_neg_offset", "diagonal_backward")(
    lambda M, rng: ((t(M, rng, 2), [3, 4], -1, 0, 1), {})
)
case("select_neg", "select.int")(lambda M, rng: ((t(M, rng, 2, 3, 4), -1, -2), {}))
case("slice_open", "slice.Tensor")(lambda M, rng: ((t(M, rng, 4, 5), -1, None, None, 2), {}))
case("slice_neg_start", "slice.Tensor")(lambda M, rng: ((t(M, rng, 4, 5), 0, -3, None, 1), {}))
case("diagonal_3d", "diagonal")(lambda M, rng: ((t(M, rng, 2, 3, 4), -1, 2, 0), {}))
# conv double backward: grad_output, input, weight (bias_sizes given, every output computed)
case("convolution_backward")(
    lambda M, rng: (
        (
            t(M, rng, 1, 3, 3, 3),
            t(M, rng, 1, 2, 5, 5),
            t(M, rng, 3, 2, 3, 3),
            [3],
            [1, 1],
            [0, 0],
            [1, 1],
            False,
            [0, 0],
            1,
            [True, True, True],
        ),
        {},
    )
)
CASES["convolution_backward_transposed_groups"] = lambda M, rng: (
    "convolution_backward",
    (
        t(M, rng, 2, 4, 6, 6),
        t(M, rng, 2, 4, 3, 3),
        t(M, rng, 4, 2, 3, 2),
        [4],
        [2, 1],
        [1, 0],
        [1, 2],
        True,
        [1, 1],
        2,
        [True, True, True],
    ),
    {},
)

# formulas PyTorch has for other overloads of an operator
case("copysign.Scalar")(lambda M, rng: ((t(M, rng, 5), -1.5), {}))
case("xlogy.Scalar_Self")(lambda M, rng: ((2.5, t(M, rng, 4, positive=True)), {}))
case("xlogy.Scalar_Other")(lambda M, rng: ((t(M, rng, 4), 3.0), {}))
CASES["xlogy.Scalar_Other_nonpositive"] = lambda M, rng: (
    "xlogy.Scalar_Other",
    (t(M, rng, 4), 0.5),
    {},
)
case("index_fill.int_Tensor")(
    lambda M, rng: ((t(M, rng, 4, 3), 0, ints(M, [1, 3, 1]), t(M, rng)), {})
)
case("mode")(lambda M, rng: ((t(M, rng, 3, 5), 1), {}))
case("nanmedian")(lambda M, rng: ((t(M, rng, 3, 5),), {}))
case("nanmedian.dim")(lambda M, rng: ((t(M, rng, 3, 5), 1, True), {}))
case("norm.ScalarOpt_dtype")(lambda M, rng: ((t(M, rng, 3, 4), 3), {"dtype": M.float64}))
case("norm.ScalarOpt_dim_dtype")(
    lambda M, rng: ((t(M, rng, 3, 4), 2, [1], False), {"dtype": M.float64})
)

# in-place forms with their own node
for _n in ("celu_", "elu_", "leaky_relu_"):
    case(_n)(lambda M, rng: ((t(M, rng, 2, 3) * 1,), {}))
case("threshold_")(lambda M, rng: ((t(M, rng, 5) * 1, 0.1, 2.0), {}))
case("t_")(lambda M, rng: ((t(M, rng, 2, 3) * 1,), {}))
case("transpose_")(lambda M, rng: ((t(M, rng, 2, 3, 4) * 1, 0, 2), {}))
case("squeeze_")(lambda M, rng: ((t(M, rng, 2, 1, 3) * 1,), {}))
case("squeeze_.dim")(lambda M, rng: ((t(M, rng, 2, 1, 3) * 1, 1), {}))
case("squeeze_.dims")(lambda M, rng: ((t(M, rng, 1, 2, 1, 3) * 1, [0, 2]), {}))
case("unsqueeze_")(lambda M, rng: ((t(M, rng, 2, 3) * 1, 1), {}))
case("as_strided_")(lambda M, rng: ((t(M, rng, 4, 4) * 1, [2, 2], [4, 1], 1), {}))
case("_index_put_impl_")(
    lambda M, rng: ((t(M, rng, 4, 3) * 1, [ints(M, [0, 2])], t(M, rng, 2, 3), False), {})
)
CASES["_index_put_impl__accumulate"] = lambda M, rng: (
    "_index_put_impl_",
    (t(M, rng, 4, 3) * 1, [ints(M, [0, 2, 0])], t(M, rng, 3, 3), True),
    {},
)
for _n in ("eq", "ne", "lt", "le", "gt", "ge"):
    case(f"{_n}_.Scalar")(lambda M, rng: ((t(M, rng, 5) * 1, 0.25), {}))
    case(f"{_n}_.Tensor")(lambda M, rng: ((t(M, rng, 5) * 1, t(M, rng, 5)), {}))
# random fills, with parameters that make them deterministic (finite differences need that)
case("uniform_")(lambda M, rng: ((t(M, rng, 4) * 1, 0.5, 0.5), {}))
case("normal_")(lambda M, rng: ((t(M, rng, 4) * 1, 1.5, 0.0), {}))
case("random_.from")(lambda M, rng: ((t(M, rng, 4) * 1, 2, 3), {}))
case("random_.to")(lambda M, rng: ((t(M, rng, 4) * 1, 1), {}))
case("bernoulli_.float")(lambda M, rng: ((t(M, rng, 4) * 1, 1.0), {}))
case("lift_fresh")(lambda M, rng: ((t(M, rng, 2, 3),), {}))


# functional variants (functionalization's rewrites): the *_copy forms take their view's case
for _view, _copy in (("view", "view_copy"), ("t", "t_copy"),
                     ("transpose.int", "transpose_copy.int"), ("permute", "permute_copy"),
                     ("select.int", "select_copy.int"),
                     ("slice.Tensor", "slice_copy.Tensor"), ("unsqueeze", "unsqueeze_copy"),
                     ("squeeze", "squeeze_copy"), ("squeeze.dim", "squeeze_copy.dim"),
                     ("squeeze.dims", "squeeze_copy.dims"), ("expand", "expand_copy"),
                     ("alias", "alias_copy"), ("diagonal", "diagonal_copy"),
                     ("as_strided", "as_strided_copy"), ("split.Tensor", "split_copy.Tensor"),
                     ("split_with_sizes", "split_with_sizes_copy"),
                     ("unbind.int", "unbind_copy.int")):  # fmt: skip
    CASES[_copy] = (lambda view, copy: lambda M, rng: (copy,) + CASES[view](M, rng)[1:])(
        _view, _copy
    )
case("fill.Scalar")(lambda M, rng: ((t(M, rng, 3), 2.0), {}))
case("fill.Tensor")(lambda M, rng: ((t(M, rng, 3), t(M, rng)), {}))
case("zero")(lambda M, rng: ((t(M, rng, 3),), {}))
case("select_scatter")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3), 1, 2), {}))
case("slice_scatter")(lambda M, rng: ((t(M, rng, 5, 4), t(M, rng, 2, 4), 0, 1, 5, 2), {}))
case("diagonal_scatter")(lambda M, rng: ((t(M, rng, 3, 4), t(M, rng, 3), 1), {}))
case("as_strided_scatter")(
    lambda M, rng: ((t(M, rng, 4, 4), t(M, rng, 2, 2), [2, 2], [4, 1], 1), {})
)

# torch.linalg factorizations, special functions and assorted operators; the nn backward
# operators (double backward: aten/nn_backward_ops.py); angle, polar, complex and abs of
# complex inputs.
from tests.autograd import grad_cases_complex as _grad_cases_complex  # noqa: E402, F401
from tests.autograd import grad_cases_nn_backward as _grad_cases_nn_backward  # noqa: E402, F401
from tests.autograd import grad_cases_ops as _grad_cases_ops  # noqa: E402, F401

# embedding_bag, 3-d and adaptive max pooling.
from tests.autograd import grad_cases_pooling as _grad_cases_pooling  # noqa: E402, F401

# The smooth losses and their backward operators, trace, addr, _trilinear, renorm.
from tests.autograd import grad_cases_products as _grad_cases_products  # noqa: E402, F401

# torch.fft and the image operators of aten/nn/.
from tests.autograd import grad_cases_spectral as _grad_cases_spectral  # noqa: E402, F401
