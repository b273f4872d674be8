"""Operator samples of the reductions family (recorded from PyTorch, see harness.py).

Non-contiguous inputs are built with `as_strided` (a transposed layout over a fresh tensor) so
they need no view operator. Values that must tie or hold NaN/inf come from explicit arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, Sample, rand, tensor

SAMPLES: list[Sample] = []
NAN = float("nan")
INF = float("inf")


def S(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def _contig_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(out))


def nc(
    M: Any,
    r: np.random.Generator,
    shape: tuple[int, ...],
    dt: str = "float32",
    low: float = -3,
    high: float = 3,
) -> Any:
    """A non-contiguous tensor of `shape`: every dim's order reversed in memory."""
    if not shape:
        return rand(M, r, (2,), dt, low, high).as_strided((), (), 1)
    if len(shape) == 1:
        return rand(M, r, (shape[0] * 2,), dt, low, high).as_strided(shape, (2,))
    rev = tuple(reversed(shape))
    base = rand(M, r, rev, dt, low, high)
    return base.as_strided(shape, tuple(reversed(_contig_strides(rev))))


def arr(M: Any, values: Any, dt: str = "float32") -> Any:
    a = np.array(values, dtype=np.float32 if dt == "bfloat16" else dt)
    return tensor(M, a, dt)


def dt_of(M: Any, name: str) -> Any:
    return getattr(M, name)


def empty_out(M: Any, shape: tuple[int, ...], dt: str = "float32") -> Any:
    return M.zeros(shape, dtype=dt_of(M, dt))


DTS = ALL_DTYPES  # bool, ints, floats
CDT = ("complex64",)


# ============================================================================ sum / prod / mean

for dt in (*DTS, *CDT):
    S(f"sum_default_{dt}", "sum", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {}))
    S(f"sum_dim1_{dt}", "sum.dim_IntList", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt), [1]), {}))
    S(f"prod_default_{dt}", "prod", lambda M, r, dt=dt: ((rand(M, r, (2, 3), dt, -2, 2),), {}))
    S(
        f"prod_dim_{dt}",
        "prod.dim_int",
        lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, -2, 2), 1), {}),
    )
    S(f"mean_default_{dt}", "mean", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {}))
    S(f"mean_dim_{dt}", "mean.dim", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt), [0]), {}))

S("sum_default_nc", "sum", lambda M, r: ((nc(M, r, (3, 4)),), {}))
S("sum_default_zero_size", "sum", lambda M, r: ((rand(M, r, (0, 4)),), {}))
S("sum_default_zero_dim", "sum", lambda M, r: ((rand(M, r, ()),), {}))
S("sum_default_dtype_f64", "sum", lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.float64}))
S(
    "sum_default_int_dtype_f32",
    "sum",
    lambda M, r: ((rand(M, r, (3, 4), "int32"),), {"dtype": M.float32}),
)
S(
    "sum_default_float_dtype_i32",
    "sum",
    lambda M, r: ((rand(M, r, (3, 4), "float32", -9, 9),), {"dtype": M.int32}),
)
S("sum_default_dtype_bool", "sum", lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.bool}))
S("sum_default_f16_long", "sum", lambda M, r: ((rand(M, r, (60,), "float16", 0, 8),), {}))
S("sum_default_bf16_long", "sum", lambda M, r: ((rand(M, r, (60,), "bfloat16", 0, 8),), {}))
for name, dims, kd in (
    ("d0", [0], False),
    ("dneg", [-1], False),
    ("d01", [0, 1], False),
    ("d01_keep", [0, 1], True),
    ("empty_list", [], False),
    ("empty_list_keep", [], True),
    ("none_keep", None, True),
    ("d1_keep", [1], True),
    ("d20", [2, 0], True),
    ("int_dim", 1, False),
):
    S(
        f"sum_dim_{name}",
        "sum.dim_IntList",
        lambda M, r, dims=dims, kd=kd: ((rand(M, r, (2, 3, 4)), dims, kd), {}),
    )
S("sum_dim_nc", "sum.dim_IntList", lambda M, r: ((nc(M, r, (2, 3, 4)), [0, 2], True), {}))
S("sum_dim_f16", "sum.dim_IntList", lambda M, r: ((rand(M, r, (3, 20), "float16"), [1]), {}))
S("sum_dim_bf16", "sum.dim_IntList", lambda M, r: ((rand(M, r, (3, 20), "bfloat16"), [1]), {}))
S(
    "sum_dim_dtype_kw",
    "sum.dim_IntList",
    lambda M, r: ((rand(M, r, (3, 4), "int8"), [1], True), {"dtype": M.float64}),
)
S("sum_dim_zero_size_reduced", "sum.dim_IntList", lambda M, r: ((rand(M, r, (0, 4)), [0]), {}))
S("sum_dim_zero_size_kept", "sum.dim_IntList", lambda M, r: ((rand(M, r, (0, 4)), [1]), {}))
S(
    "sum_dim_zero_size_keepdim",
    "sum.dim_IntList",
    lambda M, r: ((rand(M, r, (3, 0)), [1], True), {}),
)
S("sum_dim_zero_dim_0", "sum.dim_IntList", lambda M, r: ((rand(M, r, ()), [0]), {}))
S("sum_dim_zero_dim_neg_keep", "sum.dim_IntList", lambda M, r: ((rand(M, r, ()), [-1], True), {}))
S("sum_dim_err_range", "sum.dim_IntList", lambda M, r: ((rand(M, r, (3, 4)), [2]), {}))
S("sum_dim_err_neg_range", "sum.dim_IntList", lambda M, r: ((rand(M, r, (3, 4)), [-3]), {}))
S("sum_dim_err_dup", "sum.dim_IntList", lambda M, r: ((rand(M, r, (3, 4)), [0, -2]), {}))
S("sum_dim_err_zero_dim", "sum.dim_IntList", lambda M, r: ((rand(M, r, ()), [1]), {}))
S(
    "sum_IntList_out",
    "sum.IntList_out",
    lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,))}),
)
S(
    "sum_IntList_out_resize",
    "sum.IntList_out",
    lambda M, r: ((rand(M, r, (3, 4)), [1], True), {"out": empty_out(M, (0,))}),
)
S(
    "sum_IntList_out_infer_int",
    "sum.IntList_out",
    lambda M, r: (
        (rand(M, r, (3, 4), "float32", -9, 9), [1]),
        {"out": empty_out(M, (3,), "int64")},
    ),
)
S(
    "sum_IntList_out_int_to_float",
    "sum.IntList_out",
    lambda M, r: ((rand(M, r, (3, 4), "int32"), [0]), {"out": empty_out(M, (4,))}),
)
S(
    "sum_IntList_out_dtype_mismatch",
    "sum.IntList_out",
    lambda M, r: ((rand(M, r, (3, 4)), [1]), {"dtype": M.float64, "out": empty_out(M, (3,))}),
)
S("sum_out", "sum.out", lambda M, r: ((rand(M, r, (3, 4)),), {"out": empty_out(M, ())}))
S(
    "sum_out_dtype_err",
    "sum.out",
    lambda M, r: ((rand(M, r, (3, 4)),), {"out": empty_out(M, (), "int64")}),
)

S("prod_default_nc", "prod", lambda M, r: ((nc(M, r, (3, 4), "float32", -1.5, 1.5),), {}))
S("prod_default_zero_size", "prod", lambda M, r: ((rand(M, r, (0, 4)),), {}))
S("prod_default_zero_size_int", "prod", lambda M, r: ((rand(M, r, (0,), "int32"),), {}))
S("prod_default_zero_dim", "prod", lambda M, r: ((rand(M, r, ()),), {}))
S(
    "prod_default_dtype",
    "prod",
    lambda M, r: ((rand(M, r, (2, 3), "int16", -3, 3),), {"dtype": M.float64}),
)
S(
    "prod_dim_keep",
    "prod.dim_int",
    lambda M, r: ((rand(M, r, (2, 3, 4), "float32", -2, 2), 0, True), {}),
)
S("prod_dim_neg", "prod.dim_int", lambda M, r: ((rand(M, r, (2, 3, 4), "float32", -2, 2), -2), {}))
S("prod_dim_nc", "prod.dim_int", lambda M, r: ((nc(M, r, (3, 4), "float32", -2, 2), 0), {}))
S("prod_dim_zero_dim", "prod.dim_int", lambda M, r: ((rand(M, r, ()), 0, True), {}))
S("prod_dim_zero_size", "prod.dim_int", lambda M, r: ((rand(M, r, (3, 0)), 1), {}))
S(
    "prod_dim_dtype",
    "prod.dim_int",
    lambda M, r: ((rand(M, r, (3, 4), "float32", -2, 2), 1), {"dtype": M.float64}),
)
S("prod_dim_err", "prod.dim_int", lambda M, r: ((rand(M, r, (3, 4)), 2), {}))
S(
    "prod_int_out",
    "prod.int_out",
    lambda M, r: ((rand(M, r, (3, 4), "float32", -2, 2), 1), {"out": empty_out(M, (3,))}),
)
S(
    "prod_int_out_infer",
    "prod.int_out",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -2, 2), 1), {"out": empty_out(M, (3,), "int32")}),
)
S(
    "prod_out",
    "prod.out",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -2, 2),), {"out": empty_out(M, (), "int64")}),
)
S(
    "prod_out_err",
    "prod.out",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -2, 2),), {"out": empty_out(M, ())}),
)

S("mean_dim_rmsnorm", "mean.dim", lambda M, r: ((rand(M, r, (2, 16)), [-1], True), {}))
S("mean_dim_d02_keep", "mean.dim", lambda M, r: ((rand(M, r, (2, 3, 4)), [0, 2], True), {}))
S("mean_dim_none", "mean.dim", lambda M, r: ((rand(M, r, (2, 3)), None), {}))
S("mean_dim_empty_list", "mean.dim", lambda M, r: ((rand(M, r, (2, 3)), []), {}))
S("mean_dim_nc", "mean.dim", lambda M, r: ((nc(M, r, (3, 4, 2)), [1]), {}))
S("mean_dim_f16", "mean.dim", lambda M, r: ((rand(M, r, (3, 20), "float16", 0, 9), [1]), {}))
S("mean_dim_bf16", "mean.dim", lambda M, r: ((rand(M, r, (3, 20), "bfloat16", 0, 9), [1]), {}))
S("mean_dim_zero_dim", "mean.dim", lambda M, r: ((rand(M, r, ()), [0]), {}))
S("mean_dim_zero_size", "mean.dim", lambda M, r: ((rand(M, r, (0, 3)), [0]), {}))
S("mean_dim_zero_size_kept", "mean.dim", lambda M, r: ((rand(M, r, (0, 3)), [1], True), {}))
S("mean_default_zero_size", "mean", lambda M, r: ((rand(M, r, (0, 3)),), {}))
S("mean_default_nc", "mean", lambda M, r: ((nc(M, r, (4, 5)),), {}))
S("mean_default_dtype_f64", "mean", lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.float64}))
S(
    "mean_default_int_dtype",
    "mean",
    lambda M, r: ((rand(M, r, (3, 4), "int64"),), {"dtype": M.float32}),
)
S("mean_default_err_dtype", "mean", lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.int64}))
S(
    "mean_dim_int_dtype_kw",
    "mean.dim",
    lambda M, r: ((rand(M, r, (3, 4), "int16"), [1], True), {"dtype": M.float64}),
)
S("mean_dim_err_range", "mean.dim", lambda M, r: ((rand(M, r, (3, 4)), [5]), {}))
S("mean_out", "mean.out", lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,))}))
S(
    "mean_out_f64",
    "mean.out",
    lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,), "float64")}),
)
S(
    "mean_out_int_err",
    "mean.out",
    lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,), "int64")}),
)
S(
    "mean_out_int_input_err",
    "mean.out",
    lambda M, r: ((rand(M, r, (3, 4), "int64"), [1]), {"out": empty_out(M, (3,), "float64")}),
)
S(
    "mean_dtype_out",
    "mean.dtype_out",
    lambda M, r: ((rand(M, r, (3, 4)),), {"out": empty_out(M, ())}),
)
S(
    "mean_dtype_out_dtype",
    "mean.dtype_out",
    lambda M, r: (
        (rand(M, r, (3, 4), "int32"),),
        {"dtype": M.float64, "out": empty_out(M, (), "float64")},
    ),
)

# nansum
_NANS = [[1.0, NAN, 3.0, -2.0], [NAN, NAN, 0.5, 4.0], [2.0, 1.0, NAN, -1.0]]
for dt in FLOAT_DTYPES:
    S(f"nansum_default_{dt}", "nansum", lambda M, r, dt=dt: ((arr(M, _NANS, dt),), {}))
    S(f"nansum_dim_{dt}", "nansum", lambda M, r, dt=dt: ((arr(M, _NANS, dt), [1], True), {}))
for dt in ("bool", "uint8", "int32", "int64"):
    S(f"nansum_default_{dt}", "nansum", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {}))
S("nansum_dim0", "nansum", lambda M, r: ((arr(M, _NANS), 0), {}))
S("nansum_dtype", "nansum", lambda M, r: ((arr(M, _NANS), [0]), {"dtype": M.float64}))
S("nansum_zero_size", "nansum", lambda M, r: ((rand(M, r, (0, 3)),), {}))
S("nansum_zero_dim", "nansum", lambda M, r: ((arr(M, NAN),), {}))
S("nansum_complex_err", "nansum", lambda M, r: ((rand(M, r, (3,), "complex64"),), {}))
S("nansum_out", "nansum.out", lambda M, r: ((arr(M, _NANS), [1]), {"out": empty_out(M, (3,))}))

# ======================================================================= amax / amin / max / min

_TIES = [[1, 3, 3, 1], [2, 2, 0, 2], [5, 4, 5, 4]]
_FNAN = [[1.0, NAN, 3.0, NAN], [2.0, -1.0, 0.5, 4.0], [-INF, 1.0, INF, 0.0]]
for dt in DTS:
    for name in ("amax", "amin"):
        S(f"{name}_all_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {}))
        S(f"{name}_dim_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt), [1]), {}))
    for name in ("max", "min"):
        S(f"{name}_default_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {}))
        S(
            f"{name}_dim_{dt}",
            f"{name}.dim",
            lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, -9, 9), 1), {}),
        )
    for name in ("argmax", "argmin"):
        S(f"{name}_all_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, -9, 9),), {}))
        S(f"{name}_dim_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, -9, 9), 0), {}))
    S(f"aminmax_default_{dt}", "aminmax", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {}))
    S(f"aminmax_dim_{dt}", "aminmax", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {"dim": 1}))

for name in ("amax", "amin"):
    S(f"{name}_nan", name, lambda M, r: ((arr(M, _FNAN), [1]), {}))
    S(f"{name}_nan_all", name, lambda M, r: ((arr(M, _FNAN),), {}))
    S(f"{name}_dims_keep", name, lambda M, r: ((rand(M, r, (2, 3, 4)), [0, 2], True), {}))
    S(f"{name}_empty_list_keep", name, lambda M, r: ((rand(M, r, (2, 3)), [], True), {}))
    S(f"{name}_nc", name, lambda M, r: ((nc(M, r, (3, 4, 2)), [1]), {}))
    S(f"{name}_zero_dim", name, lambda M, r: ((rand(M, r, ()), [0]), {}))
    S(f"{name}_zero_size_ok", name, lambda M, r: ((rand(M, r, (0, 4)), [1]), {}))
    S(f"{name}_err_empty_all", name, lambda M, r: ((rand(M, r, (0, 4)),), {}))
    S(f"{name}_err_empty_dim", name, lambda M, r: ((rand(M, r, (0, 4)), [0]), {}))
    S(f"{name}_err_empty_dim_neg", name, lambda M, r: ((rand(M, r, (0, 4)), [-2]), {}))
    S(f"{name}_err_empty_dims", name, lambda M, r: ((rand(M, r, (3, 0)), [0, 1]), {}))
    S(f"{name}_err_range", name, lambda M, r: ((rand(M, r, ()), [1]), {}))
    S(
        f"{name}_err_complex",
        name,
        lambda M, r: ((rand(M, r, (3,), "complex64"),), {}),
        tags=("no_meta",),
    )
    S(
        f"{name}_out",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), [0]), {"out": empty_out(M, (4,))}),
    )
    S(
        f"{name}_out_err_dtype",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), [0]), {"out": empty_out(M, (4,), "float64")}),
    )

for name in ("max", "min"):
    S(f"{name}_default_nan", name, lambda M, r: ((arr(M, _FNAN),), {}))
    S(f"{name}_default_nc", name, lambda M, r: ((nc(M, r, (3, 4)),), {}))
    S(f"{name}_default_zero_dim", name, lambda M, r: ((rand(M, r, ()),), {}))
    S(f"{name}_default_err_empty", name, lambda M, r: ((rand(M, r, (0, 3)),), {}))
    S(
        f"{name}_default_err_complex",
        name,
        lambda M, r: ((rand(M, r, (3,), "complex64"),), {}),
        tags=("no_meta",),
    )
    S(f"{name}_dim_ties", f"{name}.dim", lambda M, r: ((arr(M, _TIES, "int64"), 1), {}))
    S(f"{name}_dim_ties0", f"{name}.dim", lambda M, r: ((arr(M, _TIES, "float32"), 0, True), {}))
    S(f"{name}_dim_nan", f"{name}.dim", lambda M, r: ((arr(M, _FNAN), 1), {}))
    S(f"{name}_dim_keep_neg", f"{name}.dim", lambda M, r: ((rand(M, r, (2, 3, 4)), -2, True), {}))
    S(f"{name}_dim_nc", f"{name}.dim", lambda M, r: ((nc(M, r, (3, 4, 2)), 1), {}))
    S(f"{name}_dim_zero_dim", f"{name}.dim", lambda M, r: ((rand(M, r, ()), -1), {}))
    S(f"{name}_dim_zero_size_ok", f"{name}.dim", lambda M, r: ((rand(M, r, (0, 4)), 1), {}))
    S(f"{name}_dim_err_empty", f"{name}.dim", lambda M, r: ((rand(M, r, (0, 4)), -2), {}))
    S(f"{name}_dim_err_range", f"{name}.dim", lambda M, r: ((rand(M, r, ()), 1), {}))
    S(
        f"{name}_dim_err_complex",
        f"{name}.dim",
        lambda M, r: ((rand(M, r, (3,), "complex64"), 0), {}),
        tags=("no_meta",),
    )
    S(f"{name}_other", f"{name}.other", lambda M, r: ((rand(M, r, (3, 4)), rand(M, r, (4,))), {}))
    S(
        f"{name}_other_promote",
        f"{name}.other",
        lambda M, r: ((rand(M, r, (3, 1), "int32"), rand(M, r, (4,), "float16")), {}),
    )
    S(
        f"{name}_other_out",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), rand(M, r, (3, 4))), {"out": empty_out(M, (3, 4))}),
    )
    S(
        f"{name}_unary_out",
        f"{name}.unary_out",
        lambda M, r: ((rand(M, r, (3, 4), "int32"),), {"out": empty_out(M, (), "float64")}),
    )
    outs = ("max", "max_values") if name == "max" else ("min", "min_indices")
    S(
        f"{name}_dim_out",
        f"{name}.dim_{name}",
        lambda M, r, o=outs: (
            (rand(M, r, (3, 4)), 1, True),
            {o[0]: empty_out(M, (3, 1)), o[1]: empty_out(M, (3, 1), "int64")},
        ),
    )
    S(
        f"{name}_dim_out_err_idx",
        f"{name}.dim_{name}",
        lambda M, r, o=outs: (
            (rand(M, r, (3, 4)), 1),
            {o[0]: empty_out(M, (3,)), o[1]: empty_out(M, (3,), "int32")},
        ),
    )
    S(
        f"{name}_dim_out_err_val",
        f"{name}.dim_{name}",
        lambda M, r, o=outs: (
            (rand(M, r, (3, 4)), 1),
            {o[0]: empty_out(M, (3,), "float64"), o[1]: empty_out(M, (3,), "int64")},
        ),
    )

for name in ("argmax", "argmin"):
    S(f"{name}_ties", name, lambda M, r: ((arr(M, _TIES, "int64"), 1), {}))
    S(f"{name}_ties_all", name, lambda M, r: ((arr(M, _TIES, "int32"),), {}))
    S(f"{name}_nan", name, lambda M, r: ((arr(M, _FNAN), 1, True), {}))
    S(f"{name}_nan_all", name, lambda M, r: ((arr(M, _FNAN),), {}))
    S(f"{name}_keep_none", name, lambda M, r: ((rand(M, r, (3, 4)), None, True), {}))
    S(f"{name}_nc", name, lambda M, r: ((nc(M, r, (3, 4, 2)), 2), {}))
    S(f"{name}_nc_all", name, lambda M, r: ((nc(M, r, (3, 4)),), {}))
    S(f"{name}_zero_dim", name, lambda M, r: ((rand(M, r, ()), 0, True), {}))
    S(f"{name}_zero_dim_none", name, lambda M, r: ((rand(M, r, ()), None, True), {}))
    S(f"{name}_zero_size_ok", name, lambda M, r: ((rand(M, r, (0, 4)), 1), {}))
    S(f"{name}_err_empty_all", name, lambda M, r: ((rand(M, r, (0, 4)),), {}))
    S(f"{name}_err_empty_dim", name, lambda M, r: ((rand(M, r, (0, 4)), -2), {}))
    S(f"{name}_err_range", name, lambda M, r: ((rand(M, r, (3, 4)), 2), {}))
    S(
        f"{name}_err_complex",
        name,
        lambda M, r: ((rand(M, r, (3,), "complex64"),), {}),
        tags=("no_meta",),
    )
    S(
        f"{name}_out",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), 1), {"out": empty_out(M, (3,), "int64")}),
    )
    S(
        f"{name}_out_err",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), 1), {"out": empty_out(M, (3,), "int32")}),
    )

S("aminmax_nan", "aminmax", lambda M, r: ((arr(M, _FNAN),), {"dim": 1}))
S("aminmax_keep_none", "aminmax", lambda M, r: ((rand(M, r, (3, 4)),), {"keepdim": True}))
S("aminmax_keep_dim", "aminmax", lambda M, r: ((rand(M, r, (3, 4)),), {"dim": -2, "keepdim": True}))
S("aminmax_nc", "aminmax", lambda M, r: ((nc(M, r, (3, 4)),), {"dim": 0}))
S("aminmax_zero_dim", "aminmax", lambda M, r: ((rand(M, r, ()),), {"dim": 0}))
S("aminmax_zero_size_ok", "aminmax", lambda M, r: ((rand(M, r, (0, 4)),), {"dim": 1}))
S("aminmax_err_empty", "aminmax", lambda M, r: ((rand(M, r, (0, 4)),), {}))
S("aminmax_err_empty_dim", "aminmax", lambda M, r: ((rand(M, r, (0, 4)),), {"dim": -2}))
S(
    "aminmax_err_complex",
    "aminmax",
    lambda M, r: ((rand(M, r, (3,), "complex64"),), {}),
    tags=("no_meta",),
)
S(
    "aminmax_out",
    "aminmax.out",
    lambda M, r: (
        (rand(M, r, (3, 4)),),
        {"dim": 1, "min": empty_out(M, (3,)), "max": empty_out(M, (3,))},
    ),
)
S(
    "aminmax_out_err",
    "aminmax.out",
    lambda M, r: (
        (rand(M, r, (3, 4)),),
        {"min": empty_out(M, ()), "max": empty_out(M, (), "float64")},
    ),
)

# ============================================================================ var / std

for name in ("var", "std"):
    for dt in (*FLOAT_DTYPES, *CDT):
        S(
            f"{name}_corr_{dt}",
            f"{name}.correction",
            lambda M, r, dt=dt: ((rand(M, r, (3, 5), dt),), {}),
        )
        S(
            f"{name}_corr_dim_{dt}",
            f"{name}.correction",
            lambda M, r, dt=dt: ((rand(M, r, (3, 5), dt), [1]), {}),
        )
    S(
        f"{name}_corr_c0",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 5)), [0]), {"correction": 0}),
    )
    S(
        f"{name}_corr_c2_keep",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (2, 3, 5)), [0, 2]), {"correction": 2, "keepdim": True}),
    )
    S(
        f"{name}_corr_float",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (4, 5)), [0]), {"correction": 2.5}),
    )
    S(
        f"{name}_corr_too_big",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 4)), [0]), {"correction": 3}),
    )
    S(
        f"{name}_corr_beyond",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 4)), [0]), {"correction": 5}),
    )
    S(f"{name}_corr_single", f"{name}.correction", lambda M, r: ((rand(M, r, (1,)),), {}))
    S(f"{name}_corr_empty", f"{name}.correction", lambda M, r: ((rand(M, r, (0, 3)),), {}))
    S(f"{name}_corr_empty_dim", f"{name}.correction", lambda M, r: ((rand(M, r, (0, 3)), [0]), {}))
    S(
        f"{name}_corr_zero_dim",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, ()), [0]), {"correction": 0}),
    )
    S(
        f"{name}_corr_nc",
        f"{name}.correction",
        lambda M, r: ((nc(M, r, (3, 4, 2)), [1]), {"keepdim": True}),
    )
    S(
        f"{name}_corr_none_dim",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 4)), None), {"keepdim": True}),
    )
    S(
        f"{name}_corr_err_int",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 4), "int64"),), {}),
    )
    S(
        f"{name}_corr_err_bool",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 4), "bool"), [0]), {}),
    )
    S(f"{name}_corr_err_dim", f"{name}.correction", lambda M, r: ((rand(M, r, (3, 4)), [2]), {}))
    S(f"{name}_default_unbiased", name, lambda M, r: ((rand(M, r, (3, 4)),), {}))
    S(f"{name}_default_biased", name, lambda M, r: ((rand(M, r, (3, 4)), False), {}))
    S(
        f"{name}_dim_legacy",
        f"{name}.dim",
        lambda M, r: ((rand(M, r, (3, 4)), [1], False, True), {}),
    )
    S(f"{name}_dim_legacy_default", f"{name}.dim", lambda M, r: ((rand(M, r, (3, 4)), 0), {}))
    S(
        f"{name}_out_legacy",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), [1], False), {"out": empty_out(M, (3,))}),
    )
    S(
        f"{name}_corr_out",
        f"{name}.correction_out",
        lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,))}),
    )
    S(
        f"{name}_corr_out_f64",
        f"{name}.correction_out",
        lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,), "float64")}),
    )
    S(
        f"{name}_corr_out_err",
        f"{name}.correction_out",
        lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,), "int64")}),
    )

for name in ("var_mean", "std_mean"):
    for dt in ("float32", "float64", "float16", "bfloat16", "complex64"):
        S(
            f"{name}_corr_{dt}",
            f"{name}.correction",
            lambda M, r, dt=dt: ((rand(M, r, (3, 5), dt), [1]), {}),
        )
    S(f"{name}_corr_all", f"{name}.correction", lambda M, r: ((rand(M, r, (3, 5)),), {}))
    S(
        f"{name}_corr_keep",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 5)), [0]), {"correction": 0, "keepdim": True}),
    )
    S(f"{name}_corr_empty", f"{name}.correction", lambda M, r: ((rand(M, r, (0,)),), {}))
    S(
        f"{name}_corr_err_int",
        f"{name}.correction",
        lambda M, r: ((rand(M, r, (3, 5), "int32"),), {}),
    )
    S(f"{name}_default", name, lambda M, r: ((rand(M, r, (3, 5)), False), {}))
    S(f"{name}_dim", f"{name}.dim", lambda M, r: ((rand(M, r, (3, 5)), [1], True, True), {}))
    S(
        f"{name}_corr_out",
        f"{name}.correction_out",
        lambda M, r: (
            (rand(M, r, (3, 5)), [1]),
            {"out0": empty_out(M, (3,)), "out1": empty_out(M, (3,))},
        ),
    )

# ============================================================================ norms

_ORDS = (
    ("o2", 2),
    ("o1", 1),
    ("o0", 0),
    ("oinf", INF),
    ("oninf", -INF),
    ("o3", 3),
    ("ohalf", 0.5),
    ("oneg1", -1),
    ("o2f", 2.0),
    ("oneg2f", -2.5),
)
for oname, o in _ORDS:
    S(f"vnorm_{oname}", "linalg_vector_norm", lambda M, r, o=o: ((rand(M, r, (3, 4)), o), {}))
    S(
        f"vnorm_{oname}_dim",
        "linalg_vector_norm",
        lambda M, r, o=o: ((rand(M, r, (3, 4)), o, [1], True), {}),
    )
for dt in (*FLOAT_DTYPES, *CDT):
    S(
        f"vnorm_default_{dt}",
        "linalg_vector_norm",
        lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt),), {}),
    )
    S(
        f"vnorm_o1_dim_{dt}",
        "linalg_vector_norm",
        lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt), 1, [0]), {}),
    )
S(
    "vnorm_complex_inf",
    "linalg_vector_norm",
    lambda M, r: ((rand(M, r, (3, 4), "complex64"), INF, [1]), {}),
)
S(
    "vnorm_complex_dtype",
    "linalg_vector_norm",
    lambda M, r: ((rand(M, r, (3, 4), "complex64"),), {"dtype": M.complex128}),
)
S("vnorm_dims", "linalg_vector_norm", lambda M, r: ((rand(M, r, (2, 3, 4)), 2, [0, 2]), {}))
S("vnorm_empty_list", "linalg_vector_norm", lambda M, r: ((rand(M, r, (2, 3)), 2, []), {}))
S("vnorm_nc", "linalg_vector_norm", lambda M, r: ((nc(M, r, (3, 4, 2)), 2, [1]), {}))
S("vnorm_zero_dim", "linalg_vector_norm", lambda M, r: ((rand(M, r, ()), 2, [0]), {}))
S(
    "vnorm_dtype_f64",
    "linalg_vector_norm",
    lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.float64}),
)
S(
    "vnorm_half_dtype_f32",
    "linalg_vector_norm",
    lambda M, r: ((rand(M, r, (3, 4), "float16"), 2, [1]), {"dtype": M.float32}),
)
S("vnorm_nan", "linalg_vector_norm", lambda M, r: ((arr(M, _FNAN), 2, [1]), {}))
S("vnorm_nan_inf", "linalg_vector_norm", lambda M, r: ((arr(M, _FNAN), INF, [1]), {}))
S("vnorm_empty_o2", "linalg_vector_norm", lambda M, r: ((rand(M, r, (0, 3)),), {}))
S("vnorm_empty_o0", "linalg_vector_norm", lambda M, r: ((rand(M, r, (0, 3)), 0), {}))
S("vnorm_empty_ninf_ok", "linalg_vector_norm", lambda M, r: ((rand(M, r, (0, 3)), -INF, [1]), {}))
S("vnorm_err_empty_inf", "linalg_vector_norm", lambda M, r: ((rand(M, r, (0, 3)), INF), {}))
S("vnorm_err_empty_neg", "linalg_vector_norm", lambda M, r: ((rand(M, r, (0, 3)), -1), {}))
S("vnorm_err_empty_negf", "linalg_vector_norm", lambda M, r: ((rand(M, r, (0, 3)), -0.5), {}))
S("vnorm_err_empty_dim", "linalg_vector_norm", lambda M, r: ((rand(M, r, (0, 3)), -2, [-2]), {}))
S("vnorm_err_int", "linalg_vector_norm", lambda M, r: ((rand(M, r, (3, 4), "int64"),), {}))
S("vnorm_err_bool", "linalg_vector_norm", lambda M, r: ((rand(M, r, (3, 4), "bool"),), {}))
S(
    "vnorm_err_dtype_narrow",
    "linalg_vector_norm",
    lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.float16}),
)
S(
    "vnorm_err_dtype_int",
    "linalg_vector_norm",
    lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.int64}),
)
S(
    "vnorm_err_dtype_complex",
    "linalg_vector_norm",
    lambda M, r: ((rand(M, r, (3, 4)),), {"dtype": M.complex64}),
)
S("vnorm_err_dim", "linalg_vector_norm", lambda M, r: ((rand(M, r, (3, 4)), 2, [3]), {}))
S(
    "vnorm_out",
    "linalg_vector_norm.out",
    lambda M, r: ((rand(M, r, (3, 4)), 2, [1]), {"out": empty_out(M, (3,))}),
)
S(
    "vnorm_out_err",
    "linalg_vector_norm.out",
    lambda M, r: ((rand(M, r, (3, 4)), 2, [1]), {"out": empty_out(M, (3,), "float64")}),
)

S("norm_Scalar", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4)),), {}))
S("norm_Scalar_p1", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4)), 1), {}))
S("norm_Scalar_p0", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4)), 0), {}))
S("norm_Scalar_pinf", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4)), INF), {}))
S("norm_Scalar_p3", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4)), 3.0), {}))
S("norm_Scalar_f16", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4), "float16"),), {}))
S("norm_Scalar_bf16", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4), "bfloat16"),), {}))
S("norm_Scalar_c64", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4), "complex64"),), {}))
S("norm_Scalar_err_int", "norm.Scalar", lambda M, r: ((rand(M, r, (3, 4), "int64"),), {}))
S("norm_Scalar_err_empty_inf", "norm.Scalar", lambda M, r: ((rand(M, r, (0, 4)), INF), {}))
S("norm_ScalarOpt_dim", "norm.ScalarOpt_dim", lambda M, r: ((rand(M, r, (3, 4)), 3, [1], True), {}))
S(
    "norm_ScalarOpt_dim_pnone",
    "norm.ScalarOpt_dim",
    lambda M, r: ((rand(M, r, (3, 4)), None, [1]), {}),
)
S("norm_ScalarOpt_dim_empty", "norm.ScalarOpt_dim", lambda M, r: ((rand(M, r, (3, 4)), 2, []), {}))
S(
    "norm_ScalarOpt_dim_err_int",
    "norm.ScalarOpt_dim",
    lambda M, r: ((rand(M, r, (3, 4), "int32"), 2, [1]), {}),
)
S(
    "norm_ScalarOpt_dim_dtype",
    "norm.ScalarOpt_dim_dtype",
    lambda M, r: ((rand(M, r, (3, 4)), 2, [1], False), {"dtype": M.float64}),
)
S(
    "norm_ScalarOpt_dim_dtype_half",
    "norm.ScalarOpt_dim_dtype",
    lambda M, r: ((rand(M, r, (3, 4), "float16"), 2, [1], True), {"dtype": M.float32}),
)
S(
    "norm_ScalarOpt_dim_dtype_err_int",
    "norm.ScalarOpt_dim_dtype",
    lambda M, r: ((rand(M, r, (3, 4)), 2, [1], False), {"dtype": M.int32}),
)
S(
    "norm_ScalarOpt_dim_dtype_err_narrow",
    "norm.ScalarOpt_dim_dtype",
    lambda M, r: ((rand(M, r, (3, 4)), 2, [1], False), {"dtype": M.float16}),
)
S(
    "norm_ScalarOpt_dtype",
    "norm.ScalarOpt_dtype",
    lambda M, r: ((rand(M, r, (3, 4)), 1), {"dtype": M.float64}),
)
S(
    "norm_ScalarOpt_dtype_pnone",
    "norm.ScalarOpt_dtype",
    lambda M, r: ((rand(M, r, (3, 4)), None), {"dtype": M.float32}),
)
S("norm_out", "norm.out", lambda M, r: ((rand(M, r, (3, 4)), 2, [1]), {"out": empty_out(M, (3,))}))
S(
    "norm_dtype_out",
    "norm.dtype_out",
    lambda M, r: (
        (rand(M, r, (3, 4)), 2, [1], False),
        {"dtype": M.float64, "out": empty_out(M, (3,), "float64")},
    ),
)
S(
    "norm_Scalar_out",
    "norm.Scalar_out",
    lambda M, r: ((rand(M, r, (3, 4)), 2), {"out": empty_out(M, ())}),
)
S(
    "norm_ScalarOpt_dtype_out",
    "norm.ScalarOpt_dtype_out",
    lambda M, r: (
        (rand(M, r, (3, 4)), 2),
        {"dtype": M.float64, "out": empty_out(M, (), "float64")},
    ),
)

# ============================================================================ logsumexp

for dt in (*DTS,):
    S(f"logsumexp_{dt}", "logsumexp", lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt), [1]), {}))
S("logsumexp_dims_keep", "logsumexp", lambda M, r: ((rand(M, r, (2, 3, 4)), [0, 2], True), {}))
S("logsumexp_int_dim", "logsumexp", lambda M, r: ((rand(M, r, (2, 3)), 0), {}))
S("logsumexp_large", "logsumexp", lambda M, r: ((rand(M, r, (3, 4), "float32", 80, 100), [1]), {}))
S(
    "logsumexp_inf",
    "logsumexp",
    lambda M, r: ((arr(M, [[INF, 1.0], [-INF, -INF], [-INF, 2.0], [NAN, 1.0]]), [1]), {}),
)
S("logsumexp_nc", "logsumexp", lambda M, r: ((nc(M, r, (3, 4, 2)), [1]), {}))
S("logsumexp_zero_dim", "logsumexp", lambda M, r: ((rand(M, r, ()), [0]), {}))
S("logsumexp_empty_reduced", "logsumexp", lambda M, r: ((rand(M, r, (0, 4)), [0]), {}))
S("logsumexp_empty_kept", "logsumexp", lambda M, r: ((rand(M, r, (0, 4)), [1], True), {}))
S("logsumexp_err_no_dims", "logsumexp", lambda M, r: ((rand(M, r, (3, 4)), []), {}))
S("logsumexp_err_dim", "logsumexp", lambda M, r: ((rand(M, r, (3, 4)), [2]), {}))
S("logsumexp_complex", "logsumexp", lambda M, r: ((rand(M, r, (3, 4), "complex64"), [1]), {}))
S(
    "logsumexp_out",
    "logsumexp.out",
    lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,))}),
)
S(
    "logsumexp_out_f64",
    "logsumexp.out",
    lambda M, r: ((rand(M, r, (3, 4)), [1]), {"out": empty_out(M, (3,), "float64")}),
)
S(
    "logsumexp_out_err_int",
    "logsumexp.out",
    lambda M, r: ((rand(M, r, (3, 4), "int64"), [1]), {"out": empty_out(M, (3,), "int64")}),
)

# ============================================================================ softmax

for name in ("_softmax", "_log_softmax"):
    for dt in FLOAT_DTYPES:
        S(f"{name}_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 5), dt), 1, False), {}))
        S(f"{name}_dim0_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 5), dt), 0, False), {}))
    S(f"{name}_4d_last", name, lambda M, r: ((rand(M, r, (2, 3, 2, 5)), -1, False), {}))
    S(f"{name}_4d_mid", name, lambda M, r: ((rand(M, r, (2, 3, 2, 5)), 1, False), {}))
    S(f"{name}_nc", name, lambda M, r: ((nc(M, r, (3, 4, 2)), 1, False), {}))
    S(f"{name}_nc_last", name, lambda M, r: ((nc(M, r, (4, 5)), -1, False), {}))
    S(f"{name}_large", name, lambda M, r: ((rand(M, r, (3, 4), "float32", 50, 120), 1, False), {}))
    S(
        f"{name}_inf",
        name,
        lambda M, r: ((arr(M, [[INF, 1.0], [-INF, -INF], [-INF, 2.0], [NAN, 1.0]]), 1, False), {}),
    )
    S(f"{name}_zero_dim", name, lambda M, r: ((rand(M, r, ()), 0, False), {}))
    S(f"{name}_zero_dim_neg", name, lambda M, r: ((rand(M, r, ()), -1, False), {}))
    S(f"{name}_zero_size", name, lambda M, r: ((rand(M, r, (0, 4)), 0, False), {}))
    S(f"{name}_err_dim", name, lambda M, r: ((rand(M, r, (3, 4)), 2, False), {}))
    S(
        f"{name}_err_half_to_float",
        name,
        lambda M, r: ((rand(M, r, (3, 4), "float16"), 1, True), {}),
        tags=("no_meta",),
    )
    S(
        f"{name}_err_int_last",
        name,
        lambda M, r: ((rand(M, r, (3, 4), "int64"), 1, False), {}),
        tags=("no_meta",),
    )
    S(
        f"{name}_err_int_mid",
        name,
        lambda M, r: ((rand(M, r, (3, 4), "int32"), 0, False), {}),
        tags=("no_meta",),
    )
    S(
        f"{name}_err_bool",
        name,
        lambda M, r: ((rand(M, r, (3, 4), "bool"), 1, False), {}),
        tags=("no_meta",),
    )
    S(
        f"{name}_out",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), 1, False), {"out": empty_out(M, (3, 4))}),
    )
    S(
        f"{name}_out_err",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4)), 1, False), {"out": empty_out(M, (3, 4), "float64")}),
    )

for name in ("softmax", "log_softmax"):
    S(f"{name}_int", f"{name}.int", lambda M, r: ((rand(M, r, (3, 4)), 1), {}))
    S(f"{name}_int_dtype", f"{name}.int", lambda M, r: ((rand(M, r, (3, 4)), 0, M.float64), {}))
    S(
        f"{name}_int_half_f32",
        f"{name}.int",
        lambda M, r: ((rand(M, r, (3, 4), "float16"), 1, M.float32), {}),
    )
    S(
        f"{name}_int_int_f32",
        f"{name}.int",
        lambda M, r: ((rand(M, r, (3, 4), "int64"), -1, M.float32), {}),
    )
    S(
        f"{name}_int_same_dtype",
        f"{name}.int",
        lambda M, r: ((rand(M, r, (3, 4)), 1, M.float32), {}),
    )
    S(f"{name}_int_nc", f"{name}.int", lambda M, r: ((nc(M, r, (3, 4)), 0), {}))
    S(
        f"{name}_int_err_int",
        f"{name}.int",
        lambda M, r: ((rand(M, r, (3, 4), "int64"), 1), {}),
        tags=("no_meta",),
    )
    S(
        f"{name}_int_out",
        f"{name}.int_out",
        lambda M, r: ((rand(M, r, (3, 4)), 1, M.float64), {"out": empty_out(M, (3, 4), "float64")}),
    )

# ============================================================================ cumsum / cumprod

for name in ("cumsum", "cumprod"):
    for dt in (*DTS, *CDT):
        S(f"{name}_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, -2, 2), 1), {}))
    S(f"{name}_dim0", name, lambda M, r: ((rand(M, r, (3, 4), "float32", -2, 2), 0), {}))
    S(f"{name}_neg", name, lambda M, r: ((rand(M, r, (2, 3, 4), "float32", -2, 2), -2), {}))
    S(f"{name}_nc", name, lambda M, r: ((nc(M, r, (3, 4, 2), "float32", -2, 2), 1), {}))
    S(
        f"{name}_dtype",
        name,
        lambda M, r: ((rand(M, r, (3, 4), "int8", -2, 2), 1), {"dtype": M.float64}),
    )
    S(
        f"{name}_dtype_f16",
        name,
        lambda M, r: ((rand(M, r, (3, 4), "float32", -2, 2), 1), {"dtype": M.float16}),
    )
    S(f"{name}_half_long", name, lambda M, r: ((rand(M, r, (40,), "float16", 0.5, 1.5), 0), {}))
    S(f"{name}_zero_dim", name, lambda M, r: ((rand(M, r, ()), 0), {}))
    S(f"{name}_zero_dim_neg", name, lambda M, r: ((rand(M, r, (), "int32"), -1), {}))
    S(f"{name}_zero_size", name, lambda M, r: ((rand(M, r, (0, 4)), 0), {}))
    S(f"{name}_err_dim", name, lambda M, r: ((rand(M, r, (3, 4)), 2), {}))
    S(
        f"{name}_err_bool_dtype",
        name,
        lambda M, r: ((rand(M, r, (3, 4), "bool"), 0), {"dtype": M.bool}),
        tags=("no_meta",),
    )
    S(f"{name}_inplace", f"{name}_", lambda M, r: ((rand(M, r, (3, 4), "float32", -2, 2), 1), {}))
    S(
        f"{name}_inplace_int32",
        f"{name}_",
        lambda M, r: ((rand(M, r, (3, 4), "int32", -2, 2), 0), {}),
    )
    S(
        f"{name}_inplace_dtype",
        f"{name}_",
        lambda M, r: ((rand(M, r, (3, 4), "float64", -2, 2), 0), {"dtype": M.float64}),
    )
    S(
        f"{name}_inplace_err_dtype",
        f"{name}_",
        lambda M, r: ((rand(M, r, (3, 4), "int32"), 0), {"dtype": M.int64}),
    )
    S(
        f"{name}_inplace_err_bool",
        f"{name}_",
        lambda M, r: ((rand(M, r, (3, 4), "bool"), 0), {}),
        tags=("no_meta",),
    )
    S(f"{name}_inplace_nc", f"{name}_", lambda M, r: ((nc(M, r, (3, 4), "float32", -2, 2), 1), {}))
    S(
        f"{name}_out",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4), "float32", -2, 2), 1), {"out": empty_out(M, (3, 4))}),
    )
    S(
        f"{name}_out_infer_int",
        f"{name}.out",
        lambda M, r: (
            (rand(M, r, (3, 4), "float32", -2, 2), 1),
            {"out": empty_out(M, (3, 4), "int64")},
        ),
    )
    S(
        f"{name}_out_int_to_float",
        f"{name}.out",
        lambda M, r: (
            (rand(M, r, (3, 4), "int32", -2, 2), 1),
            {"out": empty_out(M, (3, 4), "float32")},
        ),
    )

# ======================================================================= all / any / count_nonzero

for name in ("all", "any"):
    for dt in (*DTS, *CDT):
        S(f"{name}_default_{dt}", name, lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, 0, 1),), {}))
        S(
            f"{name}_dim_{dt}",
            f"{name}.dim",
            lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, 0, 1), 1), {}),
        )
    S(f"{name}_default_nan", name, lambda M, r: ((arr(M, [NAN, 1.0]),), {}))
    S(f"{name}_default_zero_size", name, lambda M, r: ((rand(M, r, (0, 3)),), {}))
    S(f"{name}_default_zero_dim", name, lambda M, r: ((rand(M, r, (), "int32", 0, 1),), {}))
    S(f"{name}_default_nc", name, lambda M, r: ((nc(M, r, (3, 4), "int32", 0, 1),), {}))
    S(
        f"{name}_dim_keep",
        f"{name}.dim",
        lambda M, r: ((rand(M, r, (2, 3, 4), "bool"), -2, True), {}),
    )
    S(f"{name}_dim_zero_size", f"{name}.dim", lambda M, r: ((rand(M, r, (0, 3)), 0), {}))
    S(f"{name}_dim_zero_dim", f"{name}.dim", lambda M, r: ((rand(M, r, (), "bool"), 0), {}))
    S(f"{name}_dim_err", f"{name}.dim", lambda M, r: ((rand(M, r, (3, 4)), 2), {}))
    S(f"{name}_dims_none", f"{name}.dims", lambda M, r: ((rand(M, r, (3, 4), "int32", 0, 1),), {}))
    S(
        f"{name}_dims_empty",
        f"{name}.dims",
        lambda M, r: ((rand(M, r, (3, 4), "int32", 0, 1), []), {}),
    )
    S(
        f"{name}_dims_empty_nc",
        f"{name}.dims",
        lambda M, r: ((nc(M, r, (3, 4), "float32", 0, 1), []), {}),
    )
    S(
        f"{name}_dims_01_keep",
        f"{name}.dims",
        lambda M, r: ((rand(M, r, (2, 3, 4), "bool"), [0, 2], True), {}),
    )
    S(
        f"{name}_dims_uint8",
        f"{name}.dims",
        lambda M, r: ((rand(M, r, (3, 4), "uint8", 0, 1), [1]), {}),
    )
    S(f"{name}_dims_zero_dim", f"{name}.dims", lambda M, r: ((rand(M, r, ()), []), {}))
    S(f"{name}_dims_err_dup", f"{name}.dims", lambda M, r: ((rand(M, r, (3, 4)), [1, 1]), {}))
    S(
        f"{name}_out",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4), "bool"), 1), {"out": empty_out(M, (3,), "bool")}),
    )
    S(
        f"{name}_out_uint8",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4), "bool"), 1), {"out": empty_out(M, (3,), "uint8")}),
    )
    S(
        f"{name}_out_err",
        f"{name}.out",
        lambda M, r: ((rand(M, r, (3, 4), "bool"), 1), {"out": empty_out(M, (3,), "float32")}),
    )
    S(
        f"{name}_dims_out",
        f"{name}.dims_out",
        lambda M, r: (
            (rand(M, r, (3, 4), "int32", 0, 1), [0, 1]),
            {"out": empty_out(M, (), "bool")},
        ),
    )
    S(
        f"{name}_all_out",
        f"{name}.all_out",
        lambda M, r: ((rand(M, r, (3, 4), "uint8", 0, 1),), {"out": empty_out(M, (), "bool")}),
    )

for dt in (*DTS, *CDT):
    S(
        f"count_nonzero_{dt}",
        "count_nonzero",
        lambda M, r, dt=dt: ((rand(M, r, (3, 4), dt, -1, 1),), {}),
    )
S("count_nonzero_dim", "count_nonzero", lambda M, r: ((rand(M, r, (3, 4), "int32", -1, 1), 1), {}))
S(
    "count_nonzero_dim_neg",
    "count_nonzero",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -1, 1), -2), {}),
)
S("count_nonzero_nc", "count_nonzero", lambda M, r: ((nc(M, r, (3, 4), "int32", -1, 1), 0), {}))
S("count_nonzero_zero_dim", "count_nonzero", lambda M, r: ((rand(M, r, ()),), {}))
S("count_nonzero_zero_size", "count_nonzero", lambda M, r: ((rand(M, r, (0, 3)), 1), {}))
S("count_nonzero_nan", "count_nonzero", lambda M, r: ((arr(M, [NAN, 0.0, -0.0, 1.0]),), {}))
S("count_nonzero_err_dim", "count_nonzero", lambda M, r: ((rand(M, r, (3, 4)), 2), {}))
S(
    "count_nonzero_dims",
    "count_nonzero.dim_IntList",
    lambda M, r: ((rand(M, r, (2, 3, 4), "int32", -1, 1), [0, 2]), {}),
)
S(
    "count_nonzero_dims_empty",
    "count_nonzero.dim_IntList",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -1, 1), []), {}),
)
S(
    "count_nonzero_dims_err_dup",
    "count_nonzero.dim_IntList",
    lambda M, r: ((rand(M, r, (3, 4)), [0, 0]), {}),
)
S(
    "count_nonzero_out",
    "count_nonzero.out",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -1, 1),), {"out": empty_out(M, (), "int64")}),
)
S(
    "count_nonzero_out_err",
    "count_nonzero.out",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -1, 1),), {"out": empty_out(M, ())}),
)
S(
    "count_nonzero_dims_out",
    "count_nonzero.dim_IntList_out",
    lambda M, r: ((rand(M, r, (3, 4), "int32", -1, 1), [1]), {"out": empty_out(M, (3,), "int64")}),
)

# ============================================================================ topk / sort / argsort

_SORT_NAN = [3.0, NAN, 1.0, NAN, -INF, 2.0, INF, 1.0]
_SORT_TIES = [[1, 0, 1, 0, 1, 2], [2, 2, 0, 1, 1, 2]]


def perm(M: Any, r: np.random.Generator, shape: tuple[int, ...], dt: str = "float32") -> Any:
    """Distinct values 0..n-1 in random order (no ties: tie order is implementation-defined)."""
    n = int(np.prod(shape))
    return M.from_numpy(r.permutation(n).reshape(shape)).to(dt_of(M, dt))


for dt in (*INT_DTYPES, *FLOAT_DTYPES):
    S(f"topk_{dt}", "topk", lambda M, r, dt=dt: ((perm(M, r, (3, 6), dt), 2), {}))
    S(
        f"topk_smallest_{dt}",
        "topk",
        lambda M, r, dt=dt: ((perm(M, r, (3, 6), dt), 3, 1, False), {}),
    )
    S(f"sort_{dt}", "sort", lambda M, r, dt=dt: ((rand(M, r, (3, 6), dt, -20, 20),), {}))
    S(
        f"sort_desc_{dt}",
        "sort",
        lambda M, r, dt=dt: ((rand(M, r, (3, 6), dt, -20, 20), 1, True), {}),
    )
S("sort_bool", "sort", lambda M, r: ((rand(M, r, (3, 6), "bool"),), {}))
S("sort_bool_desc", "sort", lambda M, r: ((rand(M, r, (3, 6), "bool"), -1, True), {}))
for dt in FLOAT_DTYPES:
    S(f"sort_nan_{dt}", "sort", lambda M, r, dt=dt: ((arr(M, _SORT_NAN, dt),), {}))
    S(f"sort_nan_desc_{dt}", "sort", lambda M, r, dt=dt: ((arr(M, _SORT_NAN, dt), 0, True), {}))
S("sort_ties", "sort", lambda M, r: ((arr(M, _SORT_TIES, "int64"),), {}))
S("sort_ties_desc", "sort", lambda M, r: ((arr(M, _SORT_TIES, "int64"), 1, True), {}))
S("sort_dim0", "sort", lambda M, r: ((rand(M, r, (4, 3)), 0), {}))
S("sort_3d_mid", "sort", lambda M, r: ((rand(M, r, (2, 4, 3)), 1, True), {}))
S("sort_nc", "sort", lambda M, r: ((nc(M, r, (3, 4)), 1), {}))
S("sort_nc_dim0", "sort", lambda M, r: ((nc(M, r, (3, 4)), 0, True), {}))
S("sort_nc_3d", "sort", lambda M, r: ((nc(M, r, (2, 3, 4)), 1), {}))
S("sort_zero_dim", "sort", lambda M, r: ((rand(M, r, ()),), {}))
S("sort_zero_size", "sort", lambda M, r: ((rand(M, r, (0, 3)),), {}))
S("sort_err_dim", "sort", lambda M, r: ((rand(M, r, (3, 4)), 2), {}))
S("sort_err_complex", "sort", lambda M, r: ((rand(M, r, (3,), "complex64"),), {}))
S("sort_stable", "sort.stable", lambda M, r: ((arr(M, _SORT_TIES, "int32"),), {"stable": True}))
S(
    "sort_stable_desc_dim0",
    "sort.stable",
    lambda M, r: ((arr(M, _SORT_TIES, "float32"),), {"stable": True, "dim": 0, "descending": True}),
)
S(
    "sort_stable_none",
    "sort.stable",
    lambda M, r: ((arr(M, _SORT_NAN),), {"stable": None, "descending": True}),
)
S("sort_stable_nc", "sort.stable", lambda M, r: ((nc(M, r, (3, 4)),), {"stable": False}))
S(
    "sort_values",
    "sort.values",
    lambda M, r: (
        (rand(M, r, (3, 4)),),
        {"values": empty_out(M, (3, 4)), "indices": empty_out(M, (3, 4), "int64")},
    ),
)
S(
    "sort_values_err",
    "sort.values",
    lambda M, r: (
        (rand(M, r, (3, 4)),),
        {"values": empty_out(M, (3, 4), "float64"), "indices": empty_out(M, (3, 4), "int64")},
    ),
)
S(
    "sort_values_stable",
    "sort.values_stable",
    lambda M, r: (
        (rand(M, r, (3, 4)),),
        {
            "stable": True,
            "dim": 0,
            "values": empty_out(M, (3, 4)),
            "indices": empty_out(M, (3, 4), "int64"),
        },
    ),
)

S("argsort_default", "argsort", lambda M, r: ((rand(M, r, (3, 5)),), {}))
S("argsort_desc", "argsort", lambda M, r: ((arr(M, _SORT_TIES, "int64"), 1, True), {}))
S("argsort_nan", "argsort", lambda M, r: ((arr(M, _SORT_NAN), 0, True), {}))
S("argsort_nc", "argsort", lambda M, r: ((nc(M, r, (3, 4)), 0), {}))
S(
    "argsort_stable",
    "argsort.stable",
    lambda M, r: ((arr(M, _SORT_TIES, "int64"),), {"stable": True, "descending": True}),
)
S(
    "argsort_stable_out",
    "argsort.stable_out",
    lambda M, r: ((rand(M, r, (3, 4)),), {"stable": True, "out": empty_out(M, (3, 4), "int64")}),
)

S("topk_dim0", "topk", lambda M, r: ((rand(M, r, (5, 3)), 3, 0), {}))
S("topk_smallest", "topk", lambda M, r: ((rand(M, r, (3, 6)), 3, -1, False), {}))
S("topk_ties", "topk", lambda M, r: ((arr(M, _SORT_TIES, "int64"), 3), {}))
S("topk_ties_smallest", "topk", lambda M, r: ((arr(M, _SORT_TIES, "int64"), 3, 1, False), {}))
S("topk_nan", "topk", lambda M, r: ((arr(M, _SORT_NAN), 3), {}))
S("topk_nan_smallest", "topk", lambda M, r: ((arr(M, _SORT_NAN), 3, 0, False), {}))
S("topk_k_all", "topk", lambda M, r: ((rand(M, r, (2, 4)), 4), {}))
S("topk_k0", "topk", lambda M, r: ((rand(M, r, (2, 4)), 0), {}))
S("topk_unsorted_k1", "topk", lambda M, r: ((rand(M, r, (3, 5)), 1, -1, True, False), {}))
S("topk_nc", "topk", lambda M, r: ((nc(M, r, (3, 4, 5)), 2, 1), {}))
S("topk_zero_dim", "topk", lambda M, r: ((rand(M, r, ()), 1), {}))
S("topk_zero_dim_k0", "topk", lambda M, r: ((rand(M, r, ()), 0), {}))
S("topk_zero_size", "topk", lambda M, r: ((rand(M, r, (0, 5)), 2), {}))
S("topk_err_k", "topk", lambda M, r: ((rand(M, r, (3, 4)), 5), {}))
S("topk_err_k_neg", "topk", lambda M, r: ((rand(M, r, (3, 4)), -1), {}))
S("topk_err_dim", "topk", lambda M, r: ((rand(M, r, (3, 4)), 1, 2), {}))
S("topk_err_bool", "topk", lambda M, r: ((rand(M, r, (3, 4), "bool"), 1), {}))
S(
    "topk_values",
    "topk.values",
    lambda M, r: (
        (rand(M, r, (3, 4)), 2),
        {"values": empty_out(M, (3, 2)), "indices": empty_out(M, (3, 2), "int64")},
    ),
)
S(
    "topk_values_err",
    "topk.values",
    lambda M, r: (
        (rand(M, r, (3, 4)), 2),
        {"values": empty_out(M, (3, 2), "float64"), "indices": empty_out(M, (3, 2), "int64")},
    ),
)

# ======================================================================= median / nanmedian / mode

for dt in (*INT_DTYPES, *FLOAT_DTYPES):
    S(f"median_{dt}", "median", lambda M, r, dt=dt: ((rand(M, r, (3, 5), dt, -20, 20),), {}))
    S(
        f"median_dim_{dt}",
        "median.dim",
        lambda M, r, dt=dt: (
            (M.from_numpy(r.permutation(15).reshape(3, 5)).to(dt_of(M, dt)), 1),
            {},
        ),
    )
    S(f"mode_{dt}", "mode", lambda M, r, dt=dt: ((rand(M, r, (3, 7), dt, 0, 4),), {}))
S("median_even", "median", lambda M, r: ((arr(M, [4.0, 1.0, 3.0, 2.0]),), {}))
S("median_nan", "median", lambda M, r: ((arr(M, [4.0, NAN, 3.0, 2.0]),), {}))
S("median_nc", "median", lambda M, r: ((nc(M, r, (3, 4)),), {}))
S("median_zero_dim", "median", lambda M, r: ((rand(M, r, ()),), {}))
S("median_empty", "median", lambda M, r: ((rand(M, r, (0, 3)),), {}))
S("median_err_bool", "median", lambda M, r: ((rand(M, r, (3,), "bool"),), {}))
S("median_err_complex", "median", lambda M, r: ((rand(M, r, (3,), "complex64"),), {}))
S("median_dim_even", "median.dim", lambda M, r: ((arr(M, [[4.0, 1.0, 3.0, 2.0]]), 1), {}))
S(
    "median_dim_nan",
    "median.dim",
    lambda M, r: ((arr(M, [[4.0, NAN, 3.0, NAN], [1.0, 2.0, 0.0, 5.0]]), 1), {}),
)
S(
    "median_dim_keep0",
    "median.dim",
    lambda M, r: ((M.from_numpy(r.permutation(12).reshape(3, 4).astype(np.float32)), 0, True), {}),
)
S(
    "median_dim_nc",
    "median.dim",
    lambda M, r: (
        (
            M.from_numpy(r.permutation(24).reshape(2, 3, 4).astype(np.float32)).as_strided(
                (4, 3, 2), (1, 4, 12)
            ),
            1,
        ),
        {},
    ),
)
S("median_dim_zero_dim", "median.dim", lambda M, r: ((rand(M, r, ()), 0), {}))
S("median_dim_zero_size_ok", "median.dim", lambda M, r: ((rand(M, r, (0, 3)), 1), {}))
S("median_dim_err_empty", "median.dim", lambda M, r: ((rand(M, r, (0, 3)), 0), {}))
S("median_dim_err_range", "median.dim", lambda M, r: ((rand(M, r, (3, 4)), -3), {}))
S("median_out", "median.out", lambda M, r: ((rand(M, r, (3, 4)),), {"out": empty_out(M, ())}))
S(
    "median_out_err",
    "median.out",
    lambda M, r: ((rand(M, r, (3, 4)),), {"out": empty_out(M, (), "float64")}),
)
S(
    "median_dim_values",
    "median.dim_values",
    lambda M, r: (
        (M.from_numpy(r.permutation(12).reshape(3, 4).astype(np.float32)), 1),
        {"values": empty_out(M, (3,)), "indices": empty_out(M, (3,), "int64")},
    ),
)
S(
    "median_dim_values_err",
    "median.dim_values",
    lambda M, r: (
        (rand(M, r, (3, 4)), 1),
        {"values": empty_out(M, (3,), "float64"), "indices": empty_out(M, (3,), "int64")},
    ),
)

S("nanmedian_default", "nanmedian", lambda M, r: ((arr(M, [4.0, NAN, 3.0, 2.0, NAN]),), {}))
S("nanmedian_all_nan", "nanmedian", lambda M, r: ((arr(M, [NAN, NAN]),), {}))
S("nanmedian_int", "nanmedian", lambda M, r: ((rand(M, r, (3, 5), "int32"),), {}))
S(
    "nanmedian_dim",
    "nanmedian.dim",
    lambda M, r: (
        (arr(M, [[4.0, NAN, 3.0, NAN], [1.0, 2.0, 0.0, 5.0], [NAN, 7.0, NAN, NAN]]), 1),
        {},
    ),
)
S(
    "nanmedian_dim_keep",
    "nanmedian.dim",
    lambda M, r: ((M.from_numpy(r.permutation(12).reshape(3, 4).astype(np.float64)), 0, True), {}),
)

S("mode_ties", "mode", lambda M, r: ((arr(M, [[1, 2, 2, 1, 3], [5, 4, 4, 5, 5]], "int64"),), {}))
S("mode_nan", "mode", lambda M, r: ((arr(M, [3.0, 1.0, NAN, NAN, 2.0]),), {}))
S("mode_bool", "mode", lambda M, r: ((rand(M, r, (3, 5), "bool"),), {}))
S("mode_dim0_keep", "mode", lambda M, r: ((rand(M, r, (6, 3), "int32", 0, 3), 0, True), {}))
S("mode_nc", "mode", lambda M, r: ((nc(M, r, (3, 6), "int32", 0, 3), 0), {}))
S("mode_zero_dim", "mode", lambda M, r: ((rand(M, r, ()),), {}))
S("mode_err_dim", "mode", lambda M, r: ((rand(M, r, (3, 4)), 2), {}))
S(
    "mode_values",
    "mode.values",
    lambda M, r: (
        (rand(M, r, (3, 6), "int64", 0, 3),),
        {"values": empty_out(M, (3,), "int64"), "indices": empty_out(M, (3,), "int64")},
    ),
)
