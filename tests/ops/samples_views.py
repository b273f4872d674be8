"""Operator samples of the views family (see harness.py): permute, transpose, t, squeeze,
unsqueeze, select, slice, split, unbind, diagonal, unfold, the view backwards (select_backward,
slice_backward, diagonal_backward), and the composite views (flatten, unflatten, narrow, chunk,
movedim, swapaxes, T/mT/mH/H, tensor_split, hsplit/vsplit/dsplit)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import ALL_DTYPES, Sample, noncontig, rand, tensor

SAMPLES: list[Sample] = []


def add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def _t(shape, dtype="float32", nc=False):
    """A maker of one tensor argument (contiguous or not)."""

    def make(M, rng):
        return (noncontig if nc else rand)(M, rng, shape, dtype)

    return make


def _unary(
    op: str,
    sid: str,
    shape,
    *args: Any,
    dtype: str = "float32",
    nc: bool = False,
    kwargs: dict | None = None,
    **kw: Any,
) -> None:
    mk = _t(shape, dtype, nc)
    add(sid, op, lambda M, rng: ((mk(M, rng), *args), dict(kwargs or {})), **kw)


def _expanded(M, rng, shape=(3, 1), target=(3, 4)):
    return rand(M, rng, shape).expand(*target)


# ----------------------------------------------------------------------------- permute / transpose

_unary("permute", "permute_3d", (2, 3, 4), [2, 0, 1])
_unary("permute", "permute_neg_dims", (2, 3, 4), [-1, 0, -2])
_unary("permute", "permute_nc", (3, 4, 2), [1, 2, 0], nc=True)
_unary("permute", "permute_identity", (2, 3), [0, 1])
_unary("permute", "permute_0d", (), [])
_unary("permute", "permute_1d", (5,), [0])
_unary("permute", "permute_zero_size", (0, 3, 2), [2, 0, 1])
_unary("permute", "permute_size1", (1, 3, 1), [2, 1, 0])
for _dt in (*ALL_DTYPES, "complex64"):
    _unary("permute", f"permute_dtype_{_dt}", (2, 3), [1, 0], dtype=_dt)
_unary("permute", "permute_err_len", (2, 3, 4), [0, 1])
_unary("permute", "permute_err_dup", (2, 3, 4), [0, 1, 1])
_unary("permute", "permute_err_range", (2, 3, 4), [0, 1, 3])
_unary("permute", "permute_err_0d", (), [0])
add("permute_expanded", "permute", lambda M, rng: ((_expanded(M, rng), [1, 0]), {}))

_unary("transpose.int", "transpose_01", (2, 3, 4), 0, 1)
_unary("transpose.int", "transpose_neg", (2, 3, 4), -1, -3)
_unary("transpose.int", "transpose_same", (2, 3, 4), 1, 1)
_unary("transpose.int", "transpose_nc", (3, 4), 0, 1, nc=True)
_unary("transpose.int", "transpose_0d", (), 0, -1)
_unary("transpose.int", "transpose_1d", (4,), 0, -1)
_unary("transpose.int", "transpose_int64", (2, 3), 0, 1, dtype="int64")
_unary("transpose.int", "transpose_bool", (2, 3), 1, 0, dtype="bool")
_unary("transpose.int", "transpose_err_dim", (2, 3, 4), 0, 3)
_unary("transpose.int", "transpose_err_0d", (), 0, 1)
_unary("transpose_", "transpose__01", (2, 3, 4), 0, 2)
_unary("transpose_", "transpose__nc", (3, 4), 0, 1, nc=True)
_unary("transpose_", "transpose__0d", (), 0, 0)
_unary("transpose_", "transpose__err", (2, 3), 0, 2)

_unary("t", "t_2d", (2, 3))
_unary("t", "t_1d", (4,))
_unary("t", "t_0d", ())
_unary("t", "t_nc", (3, 4), nc=True)
_unary("t", "t_float16", (2, 3), dtype="float16")
_unary("t", "t_err_3d", (2, 3, 4))
_unary("t_", "t__2d", (2, 3))
_unary("t_", "t__1d", (4,))
_unary("t_", "t__err", (2, 3, 4))

# ----------------------------------------------------------------------------- squeeze / unsqueeze

_unary("squeeze", "squeeze_all", (1, 3, 1, 2))
_unary("squeeze", "squeeze_none", (2, 3))
_unary("squeeze", "squeeze_0d", ())
_unary("squeeze", "squeeze_all_ones", (1, 1))
_unary("squeeze", "squeeze_zero_size", (1, 0, 1))
add("squeeze_nc", "squeeze", lambda M, rng: ((rand(M, rng, (3, 1, 4)).transpose(0, 2),), {}))
_unary("squeeze.dim", "squeeze_dim_1", (1, 3, 1, 2), 2)
_unary("squeeze.dim", "squeeze_dim_not1", (1, 3, 1, 2), 1)
_unary("squeeze.dim", "squeeze_dim_neg", (1, 3, 1), -1)
_unary("squeeze.dim", "squeeze_dim_0d", (), 0)
_unary("squeeze.dim", "squeeze_dim_0d_neg", (), -1)
_unary("squeeze.dim", "squeeze_dim_err", (1, 3), 2)
_unary("squeeze.dims", "squeeze_dims", (1, 3, 1, 2), [0, 2])
_unary("squeeze.dims", "squeeze_dims_mixed", (1, 3, 1, 2), [1, -2])
_unary("squeeze.dims", "squeeze_dims_empty", (1, 3), [])
_unary("squeeze.dims", "squeeze_dims_0d", (), [0])
_unary("squeeze.dims", "squeeze_dims_err_dup", (1, 3, 1), [0, 0])
_unary("squeeze.dims", "squeeze_dims_err_range", (1, 3, 1), [3])
_unary("squeeze_", "squeeze__all", (1, 3, 1))
_unary("squeeze_.dim", "squeeze__dim", (1, 3, 1), 0)
_unary("squeeze_.dims", "squeeze__dims", (1, 3, 1), [0, 2])

for _d in (-4, -3, -1, 0, 1, 2, 3):
    _unary("unsqueeze", f"unsqueeze_{_d}".replace("-", "m"), (2, 3, 1), _d)
_unary("unsqueeze", "unsqueeze_0d", (), 0)
_unary("unsqueeze", "unsqueeze_0d_neg", (), -1)
_unary("unsqueeze", "unsqueeze_nc", (3, 4), 1, nc=True)
_unary("unsqueeze", "unsqueeze_nc_end", (3, 4), 2, nc=True)
add(
    "unsqueeze_nc_size1",
    "unsqueeze",
    lambda M, rng: ((rand(M, rng, (3, 1, 4)).transpose(0, 2), 2), {}),
)
add(
    "unsqueeze_nc_size1_end", "unsqueeze", lambda M, rng: ((rand(M, rng, (4, 3, 1))[:, ::2], 3), {})
)
add("unsqueeze_expanded", "unsqueeze", lambda M, rng: ((_expanded(M, rng), 1), {}))
_unary("unsqueeze", "unsqueeze_zero_size", (0, 2), 1)
_unary("unsqueeze", "unsqueeze_int8", (2, 3), 0, dtype="int8")
_unary("unsqueeze", "unsqueeze_err", (2, 3), 3)
_unary("unsqueeze", "unsqueeze_err_neg", (2, 3), -4)
_unary("unsqueeze_", "unsqueeze__1", (2, 3), 1)
_unary("unsqueeze_", "unsqueeze__nc", (3, 4), -1, nc=True)
_unary("unsqueeze_", "unsqueeze__err", (2, 3), 5)

# ----------------------------------------------------------------------------- select / slice

_unary("select.int", "select_0", (2, 3, 4), 0, 1)
_unary("select.int", "select_mid", (2, 3, 4), 1, 2)
_unary("select.int", "select_last", (2, 3, 4), -1, -1)
_unary("select.int", "select_neg_index", (2, 3, 4), 1, -3)
_unary("select.int", "select_1d", (5,), 0, 4)
_unary("select.int", "select_nc", (3, 4), 1, 2, nc=True)
_unary("select.int", "select_size1", (1, 3), 0, 0)
for _dt in (*ALL_DTYPES, "complex64"):
    _unary("select.int", f"select_dtype_{_dt}", (2, 3), 1, 1, dtype=_dt)
_unary("select.int", "select_err_index", (2, 3, 4), 0, 2)
_unary("select.int", "select_err_neg_index", (2, 3, 4), 1, -4)
_unary("select.int", "select_err_0d", (), 0, 0)
_unary("select.int", "select_err_dim", (2, 3), 2, 0)
_unary("select.int", "select_err_zero_size", (0, 3), 0, 0)

_SLICES = {
    "full": (0, None, None, 1),
    "start": (0, 1, None, 1),
    "stop": (1, None, 2, 1),
    "neg_start": (2, -3, None, 1),
    "neg_stop": (2, 0, -1, 1),
    "step2": (2, 0, None, 2),
    "step3_mid": (1, 1, 3, 3),
    "past_end": (0, 1, 100, 1),
    "huge_stop": (1, 0, 9223372036854775807, 1),
    "empty_reversed": (2, 3, 1, 1),
    "empty_step": (1, 3, 3, 2),
    "start_past_end": (1, 5, None, 2),
    "very_negative": (2, -10, -7, 1),
    "neg_dim": (-1, 1, 3, 1),
}
for _name, (_dim, _s, _e, _st) in _SLICES.items():
    _unary("slice.Tensor", f"slice_{_name}", (2, 3, 4), _dim, _s, _e, _st)
_unary("slice.Tensor", "slice_defaults", (3, 2))
add(
    "slice_kwargs",
    "slice.Tensor",
    lambda M, rng: ((rand(M, rng, (4, 3)),), {"dim": 1, "start": 1, "step": 2}),
)
_unary("slice.Tensor", "slice_nc", (3, 4), 1, 1, None, 2, nc=True)
_unary("slice.Tensor", "slice_1d", (6,), 0, 1, 5, 2)
_unary("slice.Tensor", "slice_zero_size", (0, 4), 0, 0, 2, 1)
add("slice_expanded", "slice.Tensor", lambda M, rng: ((_expanded(M, rng), 1, 1, 3), {}))
for _dt in ("bool", "uint8", "int32", "float16", "bfloat16", "float64"):
    _unary("slice.Tensor", f"slice_dtype_{_dt}", (3, 4), 1, 1, 3, 1, dtype=_dt)
_unary("slice.Tensor", "slice_err_step0", (2, 3), 0, 0, 2, 0)
_unary("slice.Tensor", "slice_err_step_neg", (2, 3), 0, 0, 2, -1)
_unary("slice.Tensor", "slice_err_0d", (), 0, 0, 1, 1)
_unary("slice.Tensor", "slice_err_dim", (2, 3), 2, 0, 1, 1)

# ----------------------------------------------------------------------------- split / unbind

_unary("split.Tensor", "split_even", (4, 3), 2)
_unary("split.Tensor", "split_uneven", (5, 3), 2)
_unary("split.Tensor", "split_dim1", (2, 5), 2, 1)
_unary("split.Tensor", "split_big", (2, 3), 5)
_unary("split.Tensor", "split_neg_dim", (2, 3, 4), 3, -1)
_unary("split.Tensor", "split_nc", (4, 3), 1, 1, nc=True)
_unary("split.Tensor", "split_zero_dim_size0", (0, 3), 0)
_unary("split.Tensor", "split_zero_dim_size_other", (3, 0), 0, 1)
_unary("split.Tensor", "split_int64", (5,), 2, dtype="int64")
_unary("split.Tensor", "split_err_zero", (2, 3), 0)
_unary("split.Tensor", "split_err_negative", (2, 3), -1)
_unary("split.Tensor", "split_err_0d", (), 1)
_unary("split.Tensor", "split_err_dim", (2, 3), 1, 2)
_unary("split_with_sizes", "split_with_sizes_basic", (5, 2), [2, 3])
_unary("split_with_sizes", "split_with_sizes_zero_part", (3, 2), [0, 3, 0])
_unary("split_with_sizes", "split_with_sizes_dim", (2, 6), [1, 2, 3], -1)
_unary("split_with_sizes", "split_with_sizes_nc", (3, 4), [1, 3], 1, nc=True)
_unary("split_with_sizes", "split_with_sizes_err_sum", (5, 2), [2, 2])
_unary("split_with_sizes", "split_with_sizes_err_neg", (3, 2), [4, -1])
_unary("split_with_sizes", "split_with_sizes_err_0d", (), [1])
_unary("split.sizes", "split_sizes_basic", (5, 2), [1, 4])
_unary("split.sizes", "split_sizes_dim", (2, 5), [2, 3], 1)

_unary("unbind.int", "unbind_0", (3, 2))
_unary("unbind.int", "unbind_1", (2, 3, 2), 1)
_unary("unbind.int", "unbind_neg", (2, 3), -1)
_unary("unbind.int", "unbind_nc", (3, 4), 1, nc=True)
_unary("unbind.int", "unbind_1d", (4,))
_unary("unbind.int", "unbind_zero_size", (0, 3))
_unary("unbind.int", "unbind_err_0d", ())
_unary("unbind.int", "unbind_err_dim", (2, 3), 2)

# ----------------------------------------------------------------------------- diagonal / unfold

_unary("diagonal", "diagonal_default", (3, 4))
_unary("diagonal", "diagonal_offset_pos", (3, 4), 1)
_unary("diagonal", "diagonal_offset_neg", (3, 4), -2)
_unary("diagonal", "diagonal_offset_out", (3, 4), 5)
_unary("diagonal", "diagonal_offset_out_neg", (3, 4), -3)
_unary("diagonal", "diagonal_3d", (2, 3, 4), 0, 1, 2)
_unary("diagonal", "diagonal_3d_swapped", (2, 3, 4), -1, 2, 0)
_unary("diagonal", "diagonal_nc", (3, 4), 1, nc=True)
_unary("diagonal", "diagonal_int32", (3, 3), dtype="int32")
add(
    "diagonal_kwargs",
    "diagonal",
    lambda M, rng: ((rand(M, rng, (2, 3, 3)),), {"offset": 1, "dim1": -1, "dim2": -2}),
)
_unary("diagonal", "diagonal_err_same", (3, 3), 0, 1, 1)
_unary("diagonal", "diagonal_err_1d", (3,))
_unary("diagonal", "diagonal_err_dim", (3, 3), 0, 0, 2)

_unary("unfold", "unfold_basic", (2, 5), 1, 2, 1)
_unary("unfold", "unfold_step", (6, 2), 0, 2, 2)
_unary("unfold", "unfold_step_big", (7,), 0, 3, 3)
_unary("unfold", "unfold_size0", (2, 3), 1, 0, 1)
_unary("unfold", "unfold_full", (2, 3), 1, 3, 1)
_unary("unfold", "unfold_nc", (4, 5), 0, 2, 1, nc=True)
_unary("unfold", "unfold_0d", (), 0, 1, 1)
_unary("unfold", "unfold_err_size", (2, 3), 1, 4, 1)
_unary("unfold", "unfold_err_step", (2, 3), 1, 2, 0)
_unary("unfold", "unfold_err_0d", (), 0, 2, 1)
_unary("unfold", "unfold_err_dim", (2, 3), 2, 1, 1)

# ----------------------------------------------------------------------------- view backwards
# select_backward / slice_backward / diagonal_backward: (grad_output, input_sizes, view args).

_BACKWARDS = {
    # id: (op, grad shape, input_sizes, view args)
    "select_backward_0": ("select_backward", (3, 4), [2, 3, 4], (0, 1)),
    "select_backward_neg": ("select_backward", (2, 4), [2, 3, 4], (-2, -1)),
    "select_backward_1d": ("select_backward", (), [5], (0, 4)),
    "select_backward_bcast": ("select_backward", (1, 4), [2, 3, 4], (1, 2)),
    "select_backward_zero_size": ("select_backward", (0, 4), [0, 3, 4], (1, 0)),
    "select_backward_err_index": ("select_backward", (2, 4), [2, 3, 4], (1, 3)),
    "select_backward_err_neg_index": ("select_backward", (2, 4), [2, 3, 4], (1, -4)),
    "select_backward_err_dim": ("select_backward", (2, 3), [2, 3], (2, 0)),
    "select_backward_err_0d": ("select_backward", (), [], (0, 0)),
    "select_backward_err_shape": ("select_backward", (2, 3), [2, 3, 4], (1, 0)),
    "select_backward_err_rank": ("select_backward", (5, 2, 4), [2, 3, 4], (1, 0)),
    "select_backward_err_neg_size": ("select_backward", (3,), [3, -1], (1, 0)),
    "slice_backward_start": ("slice_backward", (2, 2, 4), [2, 3, 4], (1, 1, 2**63 - 1, 1)),
    "slice_backward_step": ("slice_backward", (2, 3, 2), [2, 3, 4], (-1, 0, 2**63 - 1, 2)),
    "slice_backward_neg": ("slice_backward", (2, 3, 1), [2, 3, 4], (2, -3, -1, 2)),
    "slice_backward_clamped": ("slice_backward", (2, 3, 2), [2, 3, 4], (-1, -100, 100, 3)),
    "slice_backward_empty": ("slice_backward", (2, 0, 4), [2, 3, 4], (1, 0, -10, 1)),
    "slice_backward_reversed": ("slice_backward", (2, 0), [2, 5], (1, 4, 1, 1)),
    "slice_backward_bcast": ("slice_backward", (1,), [4, 3], (0, 1, 3, 1)),
    "slice_backward_err_step0": ("slice_backward", (2, 3), [2, 3], (0, 0, 2, 0)),
    "slice_backward_err_step_neg": ("slice_backward", (2, 3), [2, 3], (0, 0, 2, -1)),
    "slice_backward_err_dim": ("slice_backward", (2, 3), [2, 3], (2, 0, 1, 1)),
    "slice_backward_err_0d": ("slice_backward", (), [], (0, 0, 1, 1)),
    "slice_backward_err_shape": ("slice_backward", (2, 3), [4, 3], (0, 1, 2, 1)),
    "diagonal_backward_default": ("diagonal_backward", (3,), [3, 4], (0, 0, 1)),
    "diagonal_backward_offset": ("diagonal_backward", (4, 2), [3, 4, 5], (1, -1, 0)),
    "diagonal_backward_offset_neg": ("diagonal_backward", (2,), [3, 4], (-1, 0, 1)),
    "diagonal_backward_swapped": ("diagonal_backward", (4, 2), [2, 4, 3], (-1, 2, 0)),
    "diagonal_backward_offset_out": ("diagonal_backward", (4, 0), [3, 4, 5], (10, -1, 0)),
    "diagonal_backward_bcast": ("diagonal_backward", (1,), [4, 4], (0, 1, 0)),
    "diagonal_backward_err_same": ("diagonal_backward", (3,), [3, 3], (0, 1, 1)),
    "diagonal_backward_err_dim": ("diagonal_backward", (3,), [3, 3], (0, 0, 2)),
    "diagonal_backward_err_1d": ("diagonal_backward", (3,), [3], (0, 0, 1)),
    "diagonal_backward_err_shape": ("diagonal_backward", (4, 3), [3, 4, 5], (1, -1, 0)),
}


def _backward_sample(sid: str, op: str, grad, sizes, view, dtype="float32", nc=False) -> None:
    mk = _t(grad, dtype, nc)
    add(sid, op, lambda M, rng: ((mk(M, rng), list(sizes), *view), {}))


for _sid, (_op, _g, _sizes, _view) in _BACKWARDS.items():
    _backward_sample(_sid, _op, _g, _sizes, _view)
for _dt in (*ALL_DTYPES, "complex64"):
    _backward_sample(f"select_backward_dtype_{_dt}", "select_backward", (3,), [2, 3], (0, 1), _dt)
for _dt in ("bool", "int32", "float16", "bfloat16", "float64", "complex64"):
    _backward_sample(
        f"slice_backward_dtype_{_dt}", "slice_backward", (3, 2), [3, 4], (1, 1, 4, 2), _dt
    )
    _backward_sample(
        f"diagonal_backward_dtype_{_dt}", "diagonal_backward", (2, 3), [2, 3, 4], (0, 1, 2), _dt
    )
_backward_sample("select_backward_nc", "select_backward", (3, 4), [3, 2, 4], (1, 1), nc=True)
_backward_sample("slice_backward_nc", "slice_backward", (4, 2), [4, 5], (1, 1, 5, 2), nc=True)
_backward_sample("diagonal_backward_nc", "diagonal_backward", (5, 3), [3, 4, 5], (0, 0, 1), nc=True)
# The generated out= forms: the right size, a resize from empty, a dtype mismatch.
for _sid, _op, _g, _sizes, _view, _out, _odt in (
    ("select_backward_out", "select_backward.out", (3, 4), [2, 3, 4], (0, 1), (2, 3, 4), "float32"),
    ("slice_backward_out_resize", "slice_backward.out", (2,), [4], (0, 1, 3, 1), (0,), "float32"),
    (
        "diagonal_backward_out_dtype",
        "diagonal_backward.out",
        (3,),
        [3, 3],
        (0, 0, 1),
        (3, 3),
        "int64",
    ),
):
    add(
        _sid,
        _op,
        lambda M, rng, g=_g, sz=_sizes, v=_view, o=_out, odt=_odt: (
            (_t(g, "float32", False)(M, rng), list(sz), *v),
            {"out": M.zeros(*o, dtype=getattr(M, odt))},
        ),
    )

# ----------------------------------------------------------------------------- composite views

_unary("flatten.using_ints", "flatten_all", (2, 3, 4))
_unary("flatten.using_ints", "flatten_mid", (2, 3, 4), 1, 2)
_unary("flatten.using_ints", "flatten_same", (2, 3, 4), 1, 1)
_unary("flatten.using_ints", "flatten_neg", (2, 3, 4), -2, -1)
_unary("flatten.using_ints", "flatten_0d", ())
_unary("flatten.using_ints", "flatten_1d", (4,))
_unary("flatten.using_ints", "flatten_nc_copy", (3, 4), nc=True)
_unary("flatten.using_ints", "flatten_nc_view", (2, 3, 4), 0, 1, nc=True)
_unary("flatten.using_ints", "flatten_zero_size", (2, 0, 3))
_unary("flatten.using_ints", "flatten_err_order", (2, 3, 4), 2, 1)
_unary("flatten.using_ints", "flatten_err_dim", (2, 3), 0, 2)

_unary("unflatten.int", "unflatten_basic", (2, 6), 1, [2, 3])
_unary("unflatten.int", "unflatten_infer", (2, 6), -1, [-1, 2])
_unary("unflatten.int", "unflatten_one", (2, 6), 0, [2])
_unary("unflatten.int", "unflatten_nc", (4, 6), 1, [2, 2], nc=True)
_unary("unflatten.int", "unflatten_err_product", (2, 6), 1, [4, 2])
_unary("unflatten.int", "unflatten_err_empty", (2, 6), 1, [])
_unary("unflatten.int", "unflatten_err_two_infer", (2, 6), 1, [-1, -1])
_unary("unflatten.int", "unflatten_err_0d", (), 0, [1])

_unary("narrow", "narrow_basic", (4, 3), 0, 1, 2)
_unary("narrow", "narrow_neg_start", (4, 3), 1, -2, 2)
_unary("narrow", "narrow_empty", (4, 3), 0, 4, 0)
_unary("narrow", "narrow_nc", (4, 3), 1, 0, 2, nc=True)
_unary("narrow", "narrow_err_start", (4, 3), 0, 5, 0)
_unary("narrow", "narrow_err_neg_start", (4, 3), 0, -5, 0)
_unary("narrow", "narrow_err_length", (4, 3), 0, 2, 3)
_unary("narrow", "narrow_err_neg_length", (4, 3), 0, 0, -1)
_unary("narrow", "narrow_err_0d", (), 0, 0, 1)
add(
    "narrow_tensor",
    "narrow.Tensor",
    lambda M, rng: ((rand(M, rng, (4, 3)), 0, tensor(M, np.array(1)), 2), {}),
    tags=("no_meta",),
)

_unary("chunk", "chunk_even", (4, 3), 2)
_unary("chunk", "chunk_uneven", (5, 3), 3)
_unary("chunk", "chunk_more_than_size", (3, 2), 5)
_unary("chunk", "chunk_dim", (2, 6), 4, 1)
_unary("chunk", "chunk_zero_size", (0, 3), 3)
_unary("chunk", "chunk_err_zero", (4, 3), 0)
_unary("chunk", "chunk_err_0d", (), 1)

_unary("movedim.int", "movedim_int", (2, 3, 4), 0, 2)
_unary("movedim.int", "movedim_int_neg", (2, 3, 4), -1, 0)
_unary("movedim.int", "movedim_int_same", (2, 3, 4), 1, 1)
_unary("movedim.int", "movedim_int_0d", (), 0, 0)
_unary("movedim.int", "movedim_err_dim", (2, 3), 2, 0)
_unary("movedim.intlist", "movedim_list", (2, 3, 4), [0, 1], [2, 0])
_unary("movedim.intlist", "movedim_list_nc", (2, 3, 4), [2], [0], nc=True)
_unary("movedim.intlist", "movedim_err_len", (2, 3, 4), [0, 1], [1])
_unary("movedim.intlist", "movedim_err_dup_src", (2, 3, 4), [0, 0], [1, 2])
_unary("movedim.intlist", "movedim_err_dup_dst", (2, 3, 4), [0, 1], [2, 2])
_unary("moveaxis.int", "moveaxis_int", (2, 3, 4), 2, 0)
_unary("moveaxis.intlist", "moveaxis_list", (2, 3, 4), [0, 2], [1, 0])
_unary("swapaxes", "swapaxes_basic", (2, 3, 4), 0, 2)
_unary("swapdims", "swapdims_basic", (2, 3, 4), -1, 1)
_unary("swapaxes_", "swapaxes__basic", (2, 3), 0, 1)
_unary("swapdims_", "swapdims__basic", (2, 3, 4), 0, 1)

add(
    "expand_as_basic",
    "expand_as",
    lambda M, rng: ((rand(M, rng, (3, 1)), rand(M, rng, (2, 3, 4))), {}),
)
add("expand_as_err", "expand_as", lambda M, rng: ((rand(M, rng, (3, 2)), rand(M, rng, (3, 4))), {}))
add("view_as_basic", "view_as", lambda M, rng: ((rand(M, rng, (2, 6)), rand(M, rng, (3, 4))), {}))
add("view_as_err", "view_as", lambda M, rng: ((noncontig(M, rng, (3, 4)), rand(M, rng, (12,))), {}))

_unary("numpy_T", "numpy_T_2d", (2, 3))
_unary("numpy_T", "numpy_T_3d", (2, 3, 4))
_unary("numpy_T", "numpy_T_1d", (3,))
_unary("numpy_T", "numpy_T_0d", ())
_unary("mT", "mT_3d", (2, 3, 4))
_unary("mT", "mT_2d_nc", (3, 4), nc=True)
_unary("mT", "mT_0d", ())
_unary("mT", "mT_err_1d", (3,))
_unary("mH", "mH_real", (2, 3, 4))
_unary("mH", "mH_err_1d", (3,))
_unary("adjoint", "adjoint_real", (2, 3))
_unary("adjoint", "adjoint_err_1d", (3,))
_unary("matrix_H", "matrix_H_real", (2, 3))
_unary("matrix_H", "matrix_H_0d", ())
_unary("matrix_H", "matrix_H_err_3d", (2, 3, 4))
_unary("matrix_H", "matrix_H_err_1d", (3,))
_unary("ravel", "ravel_contig", (2, 3))
_unary("ravel", "ravel_nc", (3, 4), nc=True)
_unary("ravel", "ravel_0d", ())

_unary("tensor_split.sections", "tensor_split_sections", (7, 2), 3)
_unary("tensor_split.sections", "tensor_split_sections_more", (2, 3), 4, 1)
_unary("tensor_split.sections", "tensor_split_err_zero", (2, 3), 0)
_unary("tensor_split.sections", "tensor_split_err_0d", (), 2)
_unary("tensor_split.indices", "tensor_split_indices", (2, 6), [1, 4], 1)
_unary("tensor_split.indices", "tensor_split_indices_unsorted", (5, 2), [3, 1])
_unary("tensor_split.indices", "tensor_split_indices_beyond", (5, 2), [2, 9])
_unary("tensor_split.indices", "tensor_split_indices_empty", (3, 2), [])
add(
    "tensor_split_tensor_1d",
    "tensor_split.tensor_indices_or_sections",
    lambda M, rng: ((rand(M, rng, (6, 2)), tensor(M, np.array([1, 3]))), {}),
    tags=("no_meta",),
)
add(
    "tensor_split_tensor_0d",
    "tensor_split.tensor_indices_or_sections",
    lambda M, rng: ((rand(M, rng, (6, 2)), tensor(M, np.array(4)), 0), {}),
    tags=("no_meta",),
)
add(
    "tensor_split_tensor_err_dtype",
    "tensor_split.tensor_indices_or_sections",
    lambda M, rng: ((rand(M, rng, (6, 2)), tensor(M, np.array([1.0]))), {}),
)
add(
    "tensor_split_tensor_err_2d",
    "tensor_split.tensor_indices_or_sections",
    lambda M, rng: ((rand(M, rng, (6, 2)), tensor(M, np.array([[1]]))), {}),
)
_unary("hsplit.int", "hsplit_int_2d", (2, 4), 2)
_unary("hsplit.int", "hsplit_int_1d", (6,), 3)
_unary("hsplit.int", "hsplit_err_divisible", (2, 3), 2)
_unary("hsplit.int", "hsplit_err_0d", (), 1)
_unary("hsplit.array", "hsplit_array", (2, 5), [1, 3])
_unary("vsplit.int", "vsplit_int", (4, 2), 2)
_unary("vsplit.int", "vsplit_err_1d", (4,), 2)
_unary("vsplit.array", "vsplit_array", (5, 2), [2])
_unary("dsplit.int", "dsplit_int", (2, 2, 4), 2)
_unary("dsplit.array", "dsplit_array", (2, 2, 4), [1, 2])
_unary("dsplit.int", "dsplit_err_2d", (2, 4), 2)
