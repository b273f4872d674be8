"""Operator samples of the assembly family (see harness.py): cat/stack and the *stack
composites, tril/triu, flip, roll, rot90, repeat/tile, repeat_interleave, meshgrid,
broadcast_to/broadcast_tensors, atleast_nd."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import ALL_DTYPES, Sample, noncontig, rand, tensor

SAMPLES: list[Sample] = []
NO_META = ("no_meta",)


def add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def ts(*specs: Any):
    """A maker of a tensor list: each spec is a shape or (shape, dtype) or (shape, dtype, nc)."""

    def make(M, rng):
        out = []
        for spec in specs:
            if isinstance(spec, tuple) and spec and isinstance(spec[0], tuple):
                shape, dtype, *nc = spec
                out.append((noncontig if nc and nc[0] else rand)(M, rng, shape, dtype))
            else:
                out.append(rand(M, rng, spec))
        return out

    return make


def _list_op(
    op: str,
    sid: str,
    specs: tuple,
    *args: Any,
    kwargs: dict | None = None,
    out: tuple | None = None,
    **kw: Any,
) -> None:
    mk = ts(*specs)

    def make(M, rng):
        kws = dict(kwargs or {})
        if out is not None:
            kws["out"] = rand(M, rng, out[0], out[1] if len(out) > 1 else "float32")
        return (mk(M, rng), *args), kws

    add(sid, op, make, **kw)


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
    def make(M, rng):
        return ((noncontig if nc else rand)(M, rng, shape, dtype), *args), dict(kwargs or {})

    add(sid, op, make, **kw)


def _channels_last(M, rng, shape=(2, 3, 2, 2)):
    n, c, h, w = shape
    return rand(M, rng, (n, h, w, c)).permute(0, 3, 1, 2)


# ----------------------------------------------------------------------------- cat

_list_op("cat", "cat_dim0", ((2, 3), (1, 3)))
_list_op("cat", "cat_dim1", ((2, 3), (2, 1), (2, 2)), 1)
_list_op("cat", "cat_neg_dim", ((2, 3, 2), (2, 3, 1)), -1)
_list_op("cat", "cat_single", ((2, 3),))
_list_op("cat", "cat_1d", ((3,), (2,)))
_list_op("cat", "cat_nc", (((3, 4), "float32", True), ((3, 4), "float32", True)), 1)
_list_op("cat", "cat_skip_empty_1d", ((2, 3), (0,), (1, 3)))
_list_op("cat", "cat_skip_empty_first", ((0,), (2, 3)), 1)
_list_op("cat", "cat_all_empty_1d", ((0,), (0,)))
_list_op("cat", "cat_zero_size_2d", ((0, 3), (2, 3)))
_list_op("cat", "cat_zero_size_dim", ((2, 0), (2, 3)), 1)
_list_op("cat", "cat_promote_int_float", (((2,), "int64"), ((2,), "float32")))
_list_op("cat", "cat_promote_bool_uint8", (((2,), "bool"), ((3,), "uint8")))
_list_op("cat", "cat_promote_int8_uint8", (((2,), "int8"), ((1,), "uint8")))
_list_op("cat", "cat_promote_half_bf16", (((2,), "float16"), ((2,), "bfloat16")))
_list_op("cat", "cat_promote_via_skipped", (((0,), "float64"), ((2,), "int32")))
_list_op("cat", "cat_promote_complex", (((2,), "complex64"), ((2,), "float64")))
for _dt in (*ALL_DTYPES, "complex64"):
    _list_op("cat", f"cat_dtype_{_dt}", (((2, 2), _dt), ((1, 2), _dt)))
add(
    "cat_channels_last",
    "cat",
    lambda M, rng: (([_channels_last(M, rng), _channels_last(M, rng)], 1), {}),
)
add(
    "cat_channels_last_mixed",
    "cat",
    lambda M, rng: (([_channels_last(M, rng), rand(M, rng, (2, 3, 2, 2))],), {}),
)
add(
    "cat_expanded",
    "cat",
    lambda M, rng: (([rand(M, rng, (2, 1)).expand(2, 3), rand(M, rng, (1, 3))],), {}),
)
_list_op("cat", "cat_err_empty", ())
_list_op("cat", "cat_err_ndim", ((2, 3), (3,)))
_list_op("cat", "cat_err_size", ((2, 3), (2, 2)))
_list_op("cat", "cat_err_size_dim1", ((2, 3), (3, 3)), 1)
_list_op("cat", "cat_err_0d", ((), ()))
_list_op("cat", "cat_err_dim", ((2, 3), (2, 3)), 2)
_list_op("cat.out", "cat_out", ((2, 3), (1, 3)), out=((3, 3),))
_list_op("cat.out", "cat_out_cast", (((2,), "int32"), ((1,), "int64")), out=((3,), "float64"))
_list_op("cat.out", "cat_out_err_cast", (((2,), "float32"),), out=((2,), "int32"))
_list_op("concat", "concat_basic", ((2, 3), (2, 1)), 1)
_list_op("concat.out", "concat_out", ((2,), (1,)), 0, out=((3,),))
_list_op("concatenate", "concatenate_basic", ((2, 3), (1, 3)))
_list_op("concatenate.out", "concatenate_out", ((2,), (1,)), 0, out=((3,),))

# ----------------------------------------------------------------------------- stack / *stack

_list_op("stack", "stack_dim0", ((2, 3), (2, 3)))
_list_op("stack", "stack_dim1", ((2, 3), (2, 3), (2, 3)), 1)
_list_op("stack", "stack_dim_last", ((2, 3), (2, 3)), 2)
_list_op("stack", "stack_neg", ((2, 3), (2, 3)), -1)
_list_op("stack", "stack_0d", ((), (), ()))
_list_op("stack", "stack_nc", (((3, 4), "float32", True), ((3, 4), "float32")), 1)
_list_op("stack", "stack_promote", (((2,), "int64"), ((2,), "float16")))
_list_op("stack", "stack_zero_size", ((0, 2), (0, 2)), 1)
_list_op("stack", "stack_err_empty", ())
_list_op("stack", "stack_err_shape", ((2,), (3,)))
_list_op("stack", "stack_err_dim", ((2,), (2,)), 2)
_list_op("stack.out", "stack_out", ((2,), (2,)), 1, out=((2, 2),))

for _name in ("hstack", "vstack", "dstack", "column_stack"):
    _list_op(_name, f"{_name}_1d", ((3,), (3,)))
    _list_op(_name, f"{_name}_2d", ((2, 3), (2, 3)))
    _list_op(_name, f"{_name}_0d", ((), ()))
    _list_op(_name, f"{_name}_3d", ((2, 1, 2), (2, 1, 2)))
    _list_op(_name, f"{_name}_err_empty", ())
    _list_op(
        f"{_name}.out",
        f"{_name}_out",
        ((2, 2), (2, 2)),
        out=(
            tuple(
                {"hstack": (2, 4), "vstack": (4, 2), "dstack": (2, 2, 2), "column_stack": (2, 4)}[
                    _name
                ]
            ),
        ),
    )
_list_op("hstack", "hstack_mixed", ((2,), (3,)))
_list_op("vstack", "vstack_mixed", ((3,), (2, 3)))
_list_op("column_stack", "column_stack_mixed", ((2,), (2, 3)))
_list_op("column_stack", "column_stack_err", ((2, 3), ()))

for _n in (1, 2, 3):
    for _shape in ((), (3,), (2, 3), (2, 1, 3)):
        _sh = "x".join(map(str, _shape)) or "0d"
        _unary(f"atleast_{_n}d", f"atleast_{_n}d_{_sh}", _shape)
    _list_op(f"atleast_{_n}d.Sequence", f"atleast_{_n}d_seq", ((), (3,), (2, 2)))

# ----------------------------------------------------------------------------- tril / triu

for _name in ("tril", "triu"):
    _unary(_name, f"{_name}_square", (3, 3))
    _unary(_name, f"{_name}_wide_pos", (3, 5), 1)
    _unary(_name, f"{_name}_tall_neg", (4, 3), -1)
    _unary(_name, f"{_name}_far", (3, 3), 5)
    _unary(_name, f"{_name}_far_neg", (3, 3), -5)
    _unary(_name, f"{_name}_batched", (2, 3, 4), 0)
    _unary(_name, f"{_name}_nc", (3, 4), 1, nc=True)
    _unary(_name, f"{_name}_zero_size", (0, 3))
    for _dt in (*ALL_DTYPES, "complex64"):
        _unary(_name, f"{_name}_dtype_{_dt}", (3, 3), dtype=_dt)
    _unary(_name, f"{_name}_err_1d", (3,))
    _unary(_name, f"{_name}_err_0d", ())
    _unary(f"{_name}_", f"{_name}__basic", (3, 4), 1)
    _unary(f"{_name}_", f"{_name}__nc", (3, 4), -1, nc=True)
    _unary(f"{_name}_", f"{_name}__batched_int", (2, 3, 3), 0, dtype="int32")
    _unary(f"{_name}_", f"{_name}__err", (3,))
    add(
        f"{_name}_out",
        f"{_name}.out",
        lambda M, rng, n=_name: ((rand(M, rng, (3, 3)), 1), {"out": rand(M, rng, (3, 3))}),
    )

# ----------------------------------------------------------------------------- flip / roll / rot90

_unary("flip", "flip_0", (3, 4), [0])
_unary("flip", "flip_all", (2, 3, 4), [0, 1, 2])
_unary("flip", "flip_neg", (2, 3, 4), [-1, 0])
_unary("flip", "flip_none", (2, 3), [])
_unary("flip", "flip_0d", (), [])
_unary("flip", "flip_nc", (3, 4), [1], nc=True)
add("flip_expanded", "flip", lambda M, rng: ((rand(M, rng, (3, 1)).expand(3, 4), [0]), {}))
add("flip_channels_last", "flip", lambda M, rng: ((_channels_last(M, rng), [1, 3]), {}))
for _dt in (*ALL_DTYPES, "complex64"):
    _unary("flip", f"flip_dtype_{_dt}", (2, 3), [1], dtype=_dt)
_unary("flip", "flip_err_dup", (2, 3), [0, 0])
_unary("flip", "flip_err_dim", (2, 3), [2])
add(
    "flip_out",
    "flip.out",
    lambda M, rng: ((rand(M, rng, (2, 3)), [0]), {"out": rand(M, rng, (2, 3))}),
)
_unary("fliplr", "fliplr_basic", (2, 3))
_unary("fliplr", "fliplr_err", (3,))
_unary("flipud", "flipud_basic", (2, 3))
_unary("flipud", "flipud_1d", (3,))
_unary("flipud", "flipud_err", ())

_unary("roll", "roll_flat", (3, 4), [2])
_unary("roll", "roll_flat_neg", (3, 4), [-5])
_unary("roll", "roll_dim", (3, 4), [1], [0])
_unary("roll", "roll_dim_neg_shift", (3, 4), [-1], [1])
_unary("roll", "roll_multi", (2, 3, 4), [1, -2], [0, 2])
_unary("roll", "roll_big_shift", (3, 4), [7], [1])
_unary("roll", "roll_nc", (3, 4), [1], [1], nc=True)
_unary("roll", "roll_nc_flat", (3, 4), [5], nc=True)
_unary("roll", "roll_zero_size", (0, 3), [1], [1])
_unary("roll", "roll_0d", (), [1])
_unary("roll", "roll_int8", (5,), [2], dtype="int8")
_unary("roll", "roll_err_align", (3, 4), [1, 2], [0])
_unary("roll", "roll_err_empty", (3, 4), [], [])
_unary("roll", "roll_err_dim", (3, 4), [1], [2])
add(
    "roll_out",
    "roll.out",
    lambda M, rng: ((rand(M, rng, (2, 3)), [1], [1]), {"out": rand(M, rng, (2, 3))}),
)

for _k in (-1, 0, 1, 2, 3, 5):
    _unary("rot90", f"rot90_k{_k}".replace("-", "m"), (2, 3), _k)
_unary("rot90", "rot90_default", (2, 3))
_unary("rot90", "rot90_dims", (2, 3, 4), 1, [2, 0])
_unary("rot90", "rot90_nc", (3, 4), 1, nc=True)
_unary("rot90", "rot90_err_ndims", (2, 3), 1, [0])
_unary("rot90", "rot90_err_same", (2, 3), 1, [1, 1])
_unary("rot90", "rot90_err_1d", (3,))
_unary("rot90", "rot90_err_range", (2, 3), 1, [0, 2])
add(
    "rot90_out",
    "rot90.out",
    lambda M, rng: ((rand(M, rng, (2, 3)), 1), {"out": rand(M, rng, (3, 2))}),
)

# ----------------------------------------------------------------------------- repeat / tile

_unary("repeat", "repeat_same_ndim", (2, 3), [2, 1])
_unary("repeat", "repeat_more_dims", (2, 3), [2, 1, 3])
_unary("repeat", "repeat_ones", (2, 3), [1, 1])
_unary("repeat", "repeat_zero", (2, 3), [0, 2])
_unary("repeat", "repeat_0d", (), [3, 2])
_unary("repeat", "repeat_0d_empty", (), [])
_unary("repeat", "repeat_nc", (3, 4), [1, 2], nc=True)
for _dt in ALL_DTYPES:
    _unary("repeat", f"repeat_dtype_{_dt}", (2,), [2, 2], dtype=_dt)
_unary("repeat", "repeat_err_few", (2, 3), [2])
_unary("repeat", "repeat_err_negative", (2, 3), [-1, 2])
add(
    "repeat_out",
    "repeat.out",
    lambda M, rng: ((rand(M, rng, (2,)), [2]), {"out": rand(M, rng, (4,))}),
)
_unary("tile", "tile_fewer", (2, 3), [2])
_unary("tile", "tile_same", (2, 3), [2, 2])
_unary("tile", "tile_more", (3,), [2, 1])
_unary("tile", "tile_empty", (2, 3), [])
_unary("tile", "tile_err_negative", (2, 3), [-1])

# ----------------------------------------------------------------------------- repeat_interleave

add(
    "repeat_interleave_tensor",
    "repeat_interleave.Tensor",
    lambda M, rng: ((tensor(M, np.array([2, 0, 1, 3])),), {}),
    tags=NO_META,
)
add(
    "repeat_interleave_tensor_int32",
    "repeat_interleave.Tensor",
    lambda M, rng: ((tensor(M, np.array([1, 2], np.int32)),), {}),
    tags=NO_META,
)
add(
    "repeat_interleave_tensor_output_size",
    "repeat_interleave.Tensor",
    lambda M, rng: ((tensor(M, np.array([1, 2])),), {"output_size": 3}),
)
add(
    "repeat_interleave_tensor_empty",
    "repeat_interleave.Tensor",
    lambda M, rng: ((tensor(M, np.zeros(0, np.int64)),), {}),
)
add(
    "repeat_interleave_tensor_err_2d",
    "repeat_interleave.Tensor",
    lambda M, rng: ((tensor(M, np.array([[1]])),), {}),
)
add(
    "repeat_interleave_tensor_err_neg",
    "repeat_interleave.Tensor",
    lambda M, rng: ((tensor(M, np.array([1, -1])),), {}),
    tags=NO_META,
)
add(
    "repeat_interleave_tensor_out",
    "repeat_interleave.Tensor_out",
    lambda M, rng: (
        (tensor(M, np.array([1, 2])),),
        {"output_size": 3, "out": tensor(M, np.zeros(3, np.int64))},
    ),
)
_unary("repeat_interleave.self_int", "repeat_interleave_int_flat", (2, 3), 2)
_unary("repeat_interleave.self_int", "repeat_interleave_int_dim0", (2, 3), 2, 0)
_unary("repeat_interleave.self_int", "repeat_interleave_int_dim1", (2, 3), 3, 1)
_unary("repeat_interleave.self_int", "repeat_interleave_int_neg_dim", (2, 3), 2, -1)
_unary("repeat_interleave.self_int", "repeat_interleave_int_zero", (2, 3), 0, 1)
_unary("repeat_interleave.self_int", "repeat_interleave_int_0d", (), 3)
_unary("repeat_interleave.self_int", "repeat_interleave_int_nc", (3, 4), 2, 0, nc=True)
_unary(
    "repeat_interleave.self_int",
    "repeat_interleave_int_output_size",
    (2, 3),
    2,
    0,
    kwargs={"output_size": 4},
)
_unary("repeat_interleave.self_int", "repeat_interleave_int_err_neg", (2, 3), -1)
_unary(
    "repeat_interleave.self_int",
    "repeat_interleave_int_err_output_size",
    (2, 3),
    2,
    0,
    kwargs={"output_size": 5},
)
add(
    "repeat_interleave_self_tensor",
    "repeat_interleave.self_Tensor",
    lambda M, rng: ((rand(M, rng, (2, 3)), tensor(M, np.array([1, 2])), 0), {}),
    tags=NO_META,
)
add(
    "repeat_interleave_self_tensor_flat",
    "repeat_interleave.self_Tensor",
    lambda M, rng: ((rand(M, rng, (2, 2)), tensor(M, np.array([1, 0, 2, 1]))), {}),
    tags=NO_META,
)
add(
    "repeat_interleave_self_tensor_scalar",
    "repeat_interleave.self_Tensor",
    lambda M, rng: ((rand(M, rng, (2, 3)), tensor(M, np.array(2)), 1), {}),
    tags=NO_META,
)
add(
    "repeat_interleave_self_tensor_output_size",
    "repeat_interleave.self_Tensor",
    lambda M, rng: ((rand(M, rng, (2, 3)), tensor(M, np.array([2, 1])), 0), {"output_size": 3}),
)
add(
    "repeat_interleave_self_tensor_err_len",
    "repeat_interleave.self_Tensor",
    lambda M, rng: ((rand(M, rng, (2, 3)), tensor(M, np.array([1, 2, 3])), 0), {}),
)
add(
    "repeat_interleave_self_tensor_err_2d",
    "repeat_interleave.self_Tensor",
    lambda M, rng: ((rand(M, rng, (2, 3)), tensor(M, np.array([[1]])), 0), {}),
)

# ----------------------------------------------------------------------------- meshgrid / broadcast

_list_op("meshgrid", "meshgrid_default", ((3,), (2,)))
_list_op("meshgrid.indexing", "meshgrid_ij", ((3,), (2,), (4,)), kwargs={"indexing": "ij"})
_list_op("meshgrid.indexing", "meshgrid_xy", ((3,), (2,)), kwargs={"indexing": "xy"})
_list_op("meshgrid.indexing", "meshgrid_xy_three", ((3,), (2,), (1,)), kwargs={"indexing": "xy"})
_list_op("meshgrid.indexing", "meshgrid_0d", ((), (3,)), kwargs={"indexing": "xy"})
_list_op("meshgrid.indexing", "meshgrid_single", ((3,),), kwargs={"indexing": "xy"})
_list_op("meshgrid.indexing", "meshgrid_err_empty", (), kwargs={"indexing": "ij"})
_list_op(
    "meshgrid.indexing",
    "meshgrid_err_dtype",
    (((2,), "float32"), ((2,), "float64")),
    kwargs={"indexing": "ij"},
)
_list_op("meshgrid.indexing", "meshgrid_err_indexing", ((2,), (2,)), kwargs={"indexing": "xx"})
_list_op(
    "meshgrid.indexing",
    "meshgrid_err_2d",
    ((2,), (2, 2)),
    kwargs={"indexing": "ij"},
    tags=("errmsg",),
)

_unary("broadcast_to", "broadcast_to_basic", (3, 1), [2, 3, 4])
_unary("broadcast_to", "broadcast_to_minus1", (3, 1), [-1, 5])
_unary("broadcast_to", "broadcast_to_same", (2, 3), [2, 3])
_unary("broadcast_to", "broadcast_to_nc", (3, 1), [2, 3, 1], nc=True)
_unary("broadcast_to", "broadcast_to_err", (2, 3), [3, 3])
_list_op("broadcast_tensors", "broadcast_tensors_basic", ((3, 1), (4,), ()))
_list_op("broadcast_tensors", "broadcast_tensors_same", ((2, 3), (2, 3)))
_list_op("broadcast_tensors", "broadcast_tensors_single", ((2, 3),))
_list_op("broadcast_tensors", "broadcast_tensors_err", ((2, 3), (4,)))
