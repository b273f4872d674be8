"""Operator samples of the indexing family (see harness.py): advanced indexing (index.Tensor,
index_put_), index_select, gather, scatter*, masked_select, nonzero, index_copy/fill/add, take,
put, take_along_dim.

Samples whose output shape depends on the data (boolean masks, nonzero, masked_select) or whose
error is a data-dependent bounds check are tagged no_meta: a meta tensor has no data to look at.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import ALL_DTYPES, Sample, noncontig, rand, tensor

SAMPLES: list[Sample] = []
NO_META = ("no_meta",)


def add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def idx(M, values, dtype="int64"):
    return tensor(M, np.array(values, dtype=dtype))


def mask(M, rng, shape, p=0.5):
    return tensor(M, rng.random(shape) < p)


def perm(rng, n, k=None):
    """k distinct indices in [0, n) (no duplicates: non-accumulating writes stay deterministic)."""
    return rng.permutation(n)[: n if k is None else k]


# ----------------------------------------------------------------------------- index.Tensor

_INDEX_CASES = {
    "first": ((2, 3, 4), lambda M, rng: [idx(M, [1, 0, 1])]),
    "middle": ((2, 3, 4), lambda M, rng: [None, idx(M, [2, 0])]),
    "last": ((2, 3, 4), lambda M, rng: [None, None, idx(M, [3, 1, 1])]),
    "two_adjacent": ((2, 3, 4), lambda M, rng: [None, idx(M, [0, 2]), idx(M, [1, 3])]),
    "two_separated": ((2, 3, 4), lambda M, rng: [idx(M, [0, 1]), None, idx(M, [1, 3])]),
    "broadcast": ((2, 3, 4), lambda M, rng: [idx(M, [[0], [1]]), idx(M, [0, 2, 1])]),
    "broadcast_sep": ((2, 3, 4), lambda M, rng: [idx(M, [[1], [0]]), None, idx(M, [0, 3])]),
    "2d_index": ((3, 4), lambda M, rng: [idx(M, [[0, 2], [1, 1]])]),
    "2d_index_mid": ((2, 3, 4), lambda M, rng: [None, idx(M, [[0, 2], [1, 0]])]),
    "2d_index_t": ((2, 3, 4), lambda M, rng: [None, idx(M, [[0, 1], [1, 2]]).t()]),
    "negative": ((2, 3, 4), lambda M, rng: [idx(M, [-1, -2]), None, idx(M, [-4, 3])]),
    "int32": ((3, 4), lambda M, rng: [idx(M, [2, 0], "int32")]),
    "int32_broadcast": ((3, 4), lambda M, rng: [idx(M, [[2], [0]], "int32"), idx(M, [1, 3])]),
    "scalar_index": ((3, 4), lambda M, rng: [idx(M, 1)]),
    "scalar_and_vec": ((2, 3, 4), lambda M, rng: [idx(M, 1), None, idx(M, [0, 2])]),
    "empty_index": ((3, 4), lambda M, rng: [idx(M, np.zeros(0, np.int64))]),
    "all_dims": ((2, 3), lambda M, rng: [idx(M, [1, 0]), idx(M, [2, 2])]),
    "zero_size_self": ((0, 3), lambda M, rng: [None, idx(M, [1])]),
}
for _name, (_shape, _mk) in _INDEX_CASES.items():
    add(
        f"index_{_name}",
        "index.Tensor",
        lambda M, rng, s=_shape, f=_mk: ((rand(M, rng, s), f(M, rng)), {}),
    )
add(
    "index_nc_self",
    "index.Tensor",
    lambda M, rng: ((noncontig(M, rng, (3, 4, 2)), [None, idx(M, [0, 3])]), {}),
)
add(
    "index_nc_self_front",
    "index.Tensor",
    lambda M, rng: ((noncontig(M, rng, (3, 4, 2)), [idx(M, [2, 0])]), {}),
)
add(
    "index_nc_self_last",
    "index.Tensor",
    lambda M, rng: ((noncontig(M, rng, (3, 4, 2)), [None, None, idx(M, [1, 0, 1])]), {}),
)
add(
    "index_expanded_self",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 1)).expand(3, 4), [None, idx(M, [0, 2])]), {}),
)
for _dt in (*ALL_DTYPES, "complex64"):
    add(
        f"index_dtype_{_dt}",
        "index.Tensor",
        lambda M, rng, d=_dt: ((rand(M, rng, (3, 4), d), [None, idx(M, [3, 0])]), {}),
    )
add(
    "index_mask_full",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (2, 3)), [mask(M, rng, (2, 3))]), {}),
    tags=NO_META,
)
add(
    "index_mask_leading",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 4)), [mask(M, rng, (3,))]), {}),
    tags=NO_META,
)
add(
    "index_mask_middle",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (2, 3, 4)), [None, mask(M, rng, (3, 4))]), {}),
    tags=NO_META,
)
add(
    "index_mask_and_int",
    "index.Tensor",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), [tensor(M, np.array([True, False, True])), idx(M, [0, 3])]),
        {},
    ),
    tags=NO_META,
)
add(
    "index_mask_uint8",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 2)), [idx(M, [1, 0, 1], "uint8")]), {}),
    tags=NO_META,
)
add(
    "index_mask_none_true",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 2)), [tensor(M, np.zeros(3, bool))]), {}),
    tags=NO_META,
)
add(
    "index_err_float",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 2)), [rand(M, rng, (2,))]), {}),
)
add(
    "index_err_too_many",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3,)), [idx(M, [0]), idx(M, [0])]), {}),
)
add(
    "index_err_broadcast",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 4)), [idx(M, [0, 1]), idx(M, [0, 1, 2])]), {}),
)
add(
    "index_err_bounds",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 4)), [None, idx(M, [0, 4])]), {}),
    tags=NO_META,
)
add(
    "index_err_bounds_neg",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 4)), [idx(M, [-4])]), {}),
    tags=NO_META,
)
add(
    "index_err_mask_shape",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (3, 4)), [tensor(M, np.ones(2, bool))]), {}),
    tags=NO_META,
)
add(
    "index_err_zero_size_dim",
    "index.Tensor",
    lambda M, rng: ((rand(M, rng, (0, 3)), [idx(M, [0])]), {}),
)
add(
    "index_out",
    "index.Tensor_out",
    lambda M, rng: ((rand(M, rng, (3, 4)), [None, idx(M, [1, 2])]), {"out": rand(M, rng, (3, 2))}),
)
add(
    "index_out_int",
    "index.Tensor_out",
    lambda M, rng: (
        (rand(M, rng, (3, 4), "int64"), [idx(M, [1])]),
        {"out": rand(M, rng, (1, 4), "int64")},
    ),
)

# ----------------------------------------------------------------------------- index_put_


def _put_case(sid, shape, mk_indices, mk_values, accumulate=None, op="index_put_", **kw):
    def make(M, rng):
        args = [rand(M, rng, shape), mk_indices(M, rng), mk_values(M, rng)]
        if accumulate is not None:
            args.append(accumulate)
        return tuple(args), {}

    add(sid, op, make, **kw)


_put_case(
    "index_put__basic", (3, 4), lambda M, r: [idx(M, [2, 0])], lambda M, r: rand(M, r, (2, 4))
)
_put_case(
    "index_put__broadcast_value",
    (3, 4),
    lambda M, r: [None, idx(M, [1, 3])],
    lambda M, r: rand(M, r, (2,)),
)
_put_case(
    "index_put__scalar_value",
    (3, 4),
    lambda M, r: [idx(M, [1]), idx(M, [2])],
    lambda M, r: tensor(M, np.array(7.0, np.float32)),
)
_put_case(
    "index_put__separated",
    (2, 3, 4),
    lambda M, r: [idx(M, [0, 1]), None, idx(M, [3, 0])],
    lambda M, r: rand(M, r, (2, 3)),
)
_put_case(
    "index_put__accumulate",
    (3, 4),
    lambda M, r: [idx(M, [0, 2, 0])],
    lambda M, r: rand(M, r, (3, 4)),
    True,
)
_put_case(
    "index_put__accumulate_int",
    (5,),
    lambda M, r: [idx(M, [1, 1, 3, 1])],
    lambda M, r: idx(M, [1, 2, 3, 4]),
    True,
)
_put_case(
    "index_put__negative", (3, 4), lambda M, r: [idx(M, [-1])], lambda M, r: rand(M, r, (1, 4))
)
_put_case(
    "index_put__mask_scalar",
    (3, 4),
    lambda M, r: [mask(M, r, (3, 4))],
    lambda M, r: tensor(M, np.array(2.5, np.float32)),
    tags=NO_META,
)
_put_case(
    "index_put__mask_leading",
    (3, 4),
    lambda M, r: [mask(M, r, (3,))],
    lambda M, r: tensor(M, np.array(-1.0, np.float32)),
    tags=NO_META,
)
_put_case(
    "index_put__mask_other_dtype",
    (3, 4),
    lambda M, r: [mask(M, r, (3, 4))],
    lambda M, r: idx(M, 5),
    tags=NO_META,
)
_put_case(
    "index_put__mask_values",
    (2, 3),
    lambda M, r: [tensor(M, np.array([[1, 0, 1], [0, 1, 0]], bool))],
    lambda M, r: rand(M, r, (3,)),
    tags=NO_META,
)
_put_case(
    "index_put__mask_accumulate",
    (2, 3),
    lambda M, r: [tensor(M, np.array([True, False]))],
    lambda M, r: rand(M, r, (3,)),
    True,
    tags=NO_META,
)
_put_case(
    "index_put__int32_index",
    (4,),
    lambda M, r: [idx(M, [3, 1], "int32")],
    lambda M, r: rand(M, r, (2,)),
)
_put_case(
    "index_put__err_dtype", (3, 4), lambda M, r: [idx(M, [0])], lambda M, r: idx(M, [[1, 2, 3, 4]])
)
_put_case(
    "index_put__err_shape", (3, 4), lambda M, r: [idx(M, [0, 1])], lambda M, r: rand(M, r, (3,))
)
_put_case(
    "index_put__err_too_many",
    (3,),
    lambda M, r: [idx(M, [0]), idx(M, [0])],
    lambda M, r: rand(M, r, (1,)),
)
_put_case(
    "index_put__err_bounds",
    (3,),
    lambda M, r: [idx(M, [3])],
    lambda M, r: rand(M, r, (1,)),
    tags=NO_META,
)
for _dt in ALL_DTYPES:
    add(
        f"index_put__dtype_{_dt}",
        "index_put_",
        lambda M, rng, d=_dt: (
            (rand(M, rng, (3, 2), d), [idx(M, [2, 0])], rand(M, rng, (2, 2), d)),
            {},
        ),
    )
_put_case(
    "index_put_functional",
    (3, 4),
    lambda M, r: [None, idx(M, [0, 2])],
    lambda M, r: rand(M, r, (3, 2)),
    op="index_put",
)
_put_case(
    "index_put_functional_acc",
    (3, 4),
    lambda M, r: [idx(M, [0, 0])],
    lambda M, r: rand(M, r, (4,)),
    True,
    op="index_put",
)
add(
    "index_put_functional_nc",
    "index_put",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), [idx(M, [1])], rand(M, rng, (4,))), {}),
)
add(
    "index_put_out",
    "index_put.out",
    lambda M, rng: (
        (rand(M, rng, (3, 2)), [idx(M, [1])], rand(M, rng, (2,))),
        {"out": rand(M, rng, (3, 2))},
    ),
)
_put_case(
    "_index_put_impl__basic",
    (3, 4),
    lambda M, r: [idx(M, [1, 2])],
    lambda M, r: rand(M, r, (4,)),
    op="_index_put_impl_",
)
add(
    "_index_put_impl__acc_unsafe",
    "_index_put_impl_",
    lambda M, rng: ((rand(M, rng, (4,)), [idx(M, [1, 1])], rand(M, rng, (2,)), True, True), {}),
)

# ----------------------------------------------------------------------------- index_select

add(
    "index_select_dim0",
    "index_select",
    lambda M, rng: ((rand(M, rng, (4, 3)), 0, idx(M, [3, 0, 3])), {}),
)
add(
    "index_select_dim1",
    "index_select",
    lambda M, rng: ((rand(M, rng, (2, 4, 3)), 1, idx(M, [1, 2])), {}),
)
add(
    "index_select_neg_dim",
    "index_select",
    lambda M, rng: ((rand(M, rng, (2, 4)), -1, idx(M, [0, 3], "int32")), {}),
)
add(
    "index_select_scalar_index",
    "index_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, 2)), {}),
)
add("index_select_0d_self", "index_select", lambda M, rng: ((rand(M, rng, ()), 0, idx(M, [0])), {}))
add(
    "index_select_empty",
    "index_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, np.zeros(0, np.int64))), {}),
)
add(
    "index_select_nc",
    "index_select",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), 1, idx(M, [3, 1])), {}),
)
for _dt in (*ALL_DTYPES, "complex64"):
    add(
        f"index_select_dtype_{_dt}",
        "index_select",
        lambda M, rng, d=_dt: ((rand(M, rng, (3, 2), d), 0, idx(M, [2, 0])), {}),
    )
add(
    "index_select_out",
    "index_select.out",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [1])), {"out": rand(M, rng, (1, 4))}),
)
add(
    "index_select_err_2d_index",
    "index_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [[1]])), {}),
)
add(
    "index_select_err_dtype",
    "index_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [1], "int16")), {}),
)
add(
    "index_select_err_bounds",
    "index_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [3])), {}),
    tags=NO_META,
)
add(
    "index_select_err_negative",
    "index_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [-1])), {}),
    tags=NO_META,
)
add(
    "index_select_err_scalar_many",
    "index_select",
    lambda M, rng: ((rand(M, rng, ()), 0, idx(M, [0, 0])), {}),
)
add(
    "index_select_err_dim",
    "index_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), 2, idx(M, [0])), {}),
)

# ----------------------------------------------------------------------------- gather


def _gather_index(rng, shape, size):
    return rng.integers(0, size, shape)


add(
    "gather_dim0",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, _gather_index(rng, (2, 4), 3))), {}),
)
add(
    "gather_dim1_smaller",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, _gather_index(rng, (2, 6), 4))), {}),
)
add(
    "gather_neg_dim_3d",
    "gather",
    lambda M, rng: ((rand(M, rng, (2, 3, 4)), -1, idx(M, _gather_index(rng, (2, 3, 2), 4))), {}),
)
add(
    "gather_int32",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, _gather_index(rng, (3, 2), 4), "int32")), {}),
)
add(
    "gather_nc",
    "gather",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), 0, idx(M, _gather_index(rng, (3, 4), 3))), {}),
)
add(
    "gather_nc_index",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, _gather_index(rng, (4, 3), 4)).t()), {}),
)
add("gather_0d", "gather", lambda M, rng: ((rand(M, rng, ()), 0, idx(M, 0)), {}))
add(
    "gather_empty_index",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, np.zeros((0, 4), np.int64))), {}),
)
for _dt in ALL_DTYPES:
    add(
        f"gather_dtype_{_dt}",
        "gather",
        lambda M, rng, d=_dt: ((rand(M, rng, (3, 2), d), 0, idx(M, [[2, 0], [1, 1]])), {}),
    )
add(
    "gather_sparse_grad_kw",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 2)), 1, idx(M, [[1], [0], [1]])), {"sparse_grad": False}),
)
add(
    "gather_out",
    "gather.out",
    lambda M, rng: (
        (rand(M, rng, (3, 2)), 1, idx(M, [[1], [0], [1]])),
        {"out": rand(M, rng, (3, 1))},
    ),
)
add(
    "gather_err_dtype",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 2)), 1, idx(M, [[1]], "int16")), {}),
)
add("gather_err_ndim", "gather", lambda M, rng: ((rand(M, rng, (3, 2)), 1, idx(M, [1])), {}))
add(
    "gather_err_size",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 2)), 1, idx(M, [[0], [0], [0], [0]])), {}),
)
add(
    "gather_err_bounds",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 2)), 1, idx(M, [[0], [2], [0]])), {}),
    tags=NO_META,
)
add(
    "gather_err_negative",
    "gather",
    lambda M, rng: ((rand(M, rng, (3, 2)), 0, idx(M, [[-1, 0]])), {}),
    tags=NO_META,
)

# ----------------------------------------------------------------------------- scatter


def _scatter_index(rng, self_shape, index_shape, dim):
    """An index of index_shape whose entries along dim are distinct (deterministic writes)."""
    out = np.empty(index_shape, np.int64)
    moved = np.moveaxis(out, dim, -1)
    for pos in np.ndindex(moved.shape[:-1]):
        moved[pos] = rng.permutation(self_shape[dim])[: index_shape[dim]]
    return out


def _sc(M, rng, shape=(3, 4), ishape=(2, 3), dim=0, dtype="float32", nc=False):
    self = (noncontig if nc else rand)(M, rng, shape, dtype)
    return self, dim, idx(M, _scatter_index(rng, shape, ishape, dim))


add("scatter_src_dim0", "scatter.src", lambda M, rng: ((*_sc(M, rng), rand(M, rng, (2, 4))), {}))
add(
    "scatter_src_dim1",
    "scatter.src",
    lambda M, rng: ((*_sc(M, rng, ishape=(3, 2), dim=1), rand(M, rng, (3, 3))), {}),
)
add(
    "scatter_src_nc_self",
    "scatter.src",
    lambda M, rng: ((*_sc(M, rng, nc=True), rand(M, rng, (2, 3))), {}),
)
add(
    "scatter_src_neg_dim",
    "scatter.src",
    lambda M, rng: ((*_sc(M, rng, (2, 3, 4), (2, 2, 2), 2), rand(M, rng, (2, 2, 2))), {}),
)
add(
    "scatter_src_empty_index",
    "scatter.src",
    lambda M, rng: ((rand(M, rng, (3,)), 0, idx(M, np.zeros(0, np.int64)), rand(M, rng, (2,))), {}),
)
add(
    "scatter_src_0d",
    "scatter.src",
    lambda M, rng: ((rand(M, rng, ()), 0, idx(M, 0), rand(M, rng, ())), {}),
)
add("scatter_value", "scatter.value", lambda M, rng: ((*_sc(M, rng), 2.5), {}))
add(
    "scatter_value_int_self", "scatter.value", lambda M, rng: ((*_sc(M, rng, dtype="int64"), 7), {})
)
add(
    "scatter_value_float_into_int",
    "scatter.value",
    lambda M, rng: ((*_sc(M, rng, dtype="int32"), 2.7), {}),
)
add("scatter_value_bool", "scatter.value", lambda M, rng: ((*_sc(M, rng, dtype="bool"), True), {}))
for _dt in ALL_DTYPES:
    add(
        f"scatter_src_dtype_{_dt}",
        "scatter.src",
        lambda M, rng, d=_dt: ((*_sc(M, rng, dtype=d), rand(M, rng, (2, 3), d)), {}),
    )
add(
    "scatter_reduce_add",
    "scatter.reduce",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 0, idx(M, [[0, 1, 0, 0], [0, 2, 2, 1]]), rand(M, rng, (2, 4))),
        {"reduce": "add"},
    ),
)
add(
    "scatter_reduce_multiply",
    "scatter.reduce",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 1, idx(M, [[0, 0], [3, 3], [1, 2]]), rand(M, rng, (3, 2))),
        {"reduce": "multiply"},
    ),
)
add(
    "scatter_value_reduce_add",
    "scatter.value_reduce",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 0, idx(M, [[0, 0, 1, 2], [0, 1, 1, 2]]), 1.5),
        {"reduce": "add"},
    ),
)
add(
    "scatter_value_reduce_multiply",
    "scatter.value_reduce",
    lambda M, rng: (
        (rand(M, rng, (3, 4), "int64"), 1, idx(M, [[0, 0], [1, 3], [2, 2]]), 3),
        {"reduce": "multiply"},
    ),
)
add(
    "scatter_err_reduce_name",
    "scatter.reduce",
    lambda M, rng: ((*_sc(M, rng), rand(M, rng, (2, 3))), {"reduce": "mean"}),
)
add(
    "scatter_err_dtype_src",
    "scatter.src",
    lambda M, rng: ((*_sc(M, rng), rand(M, rng, (2, 3), "float64")), {}),
)
add(
    "scatter_err_index_dtype",
    "scatter.src",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [[0]], "int16"), rand(M, rng, (2, 3))), {}),
)
add(
    "scatter_err_ndim",
    "scatter.src",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [0]), rand(M, rng, (2, 3))), {}),
)
add(
    "scatter_err_index_larger_than_self",
    "scatter.src",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [[0] * 5]), rand(M, rng, (2, 5))), {}),
)
add(
    "scatter_err_index_larger_than_src",
    "scatter.src",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [[0, 1, 2]]), rand(M, rng, (2, 2))), {}),
)
add(
    "scatter_value_err_index_larger",
    "scatter.value",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, [[0]] * 4), 1.0), {}),
)
add(
    "scatter_err_bounds",
    "scatter.src",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [[3]]), rand(M, rng, (2, 3))), {}),
    tags=NO_META,
)
add(
    "scatter_err_negative",
    "scatter.value",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, [[-1]]), 1.0), {}),
    tags=NO_META,
)
add("scatter__src", "scatter_.src", lambda M, rng: ((*_sc(M, rng), rand(M, rng, (2, 3))), {}))
add(
    "scatter__src_nc",
    "scatter_.src",
    lambda M, rng: ((*_sc(M, rng, nc=True), rand(M, rng, (2, 3))), {}),
)
add("scatter__value", "scatter_.value", lambda M, rng: ((*_sc(M, rng), -1.0), {}))
add(
    "scatter__reduce",
    "scatter_.reduce",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 0, idx(M, [[0, 0, 0, 0]]), rand(M, rng, (1, 4))),
        {"reduce": "multiply"},
    ),
)
add(
    "scatter__value_reduce",
    "scatter_.value_reduce",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [[0, 2], [0, 2]]), 2.0), {"reduce": "add"}),
)
add(
    "scatter__err_dtype",
    "scatter_.src",
    lambda M, rng: ((*_sc(M, rng), rand(M, rng, (2, 3), "int64")), {}),
)
add(
    "scatter_src_out",
    "scatter.src_out",
    lambda M, rng: ((*_sc(M, rng), rand(M, rng, (2, 3))), {"out": rand(M, rng, (3, 4))}),
)
add(
    "scatter_value_out",
    "scatter.value_out",
    lambda M, rng: ((*_sc(M, rng), 1.0), {"out": rand(M, rng, (3, 4))}),
)
add(
    "scatter_reduce_out",
    "scatter.reduce_out",
    lambda M, rng: (
        (*_sc(M, rng), rand(M, rng, (2, 3))),
        {"reduce": "add", "out": rand(M, rng, (3, 4))},
    ),
)
add(
    "scatter_value_reduce_out",
    "scatter.value_reduce_out",
    lambda M, rng: ((*_sc(M, rng), 2.0), {"reduce": "multiply", "out": rand(M, rng, (3, 4))}),
)

add(
    "scatter_add_basic",
    "scatter_add",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 0, idx(M, [[0, 1, 0, 2], [0, 1, 1, 2]]), rand(M, rng, (2, 4))),
        {},
    ),
)
add(
    "scatter_add_dim1_small",
    "scatter_add",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 1, idx(M, [[3, 3, 0], [1, 1, 1]]), rand(M, rng, (2, 5))),
        {},
    ),
)
add(
    "scatter_add_int",
    "scatter_add",
    lambda M, rng: (
        (rand(M, rng, (5,), "int64"), 0, idx(M, [4, 4, 0]), rand(M, rng, (3,), "int64")),
        {},
    ),
)
add(
    "scatter_add_nc",
    "scatter_add",
    lambda M, rng: (
        (noncontig(M, rng, (3, 4)), 0, idx(M, [[0, 0, 0, 0]]), rand(M, rng, (1, 4))),
        {},
    ),
)
add(
    "scatter_add_float16",
    "scatter_add",
    lambda M, rng: (
        (rand(M, rng, (4,), "float16"), 0, idx(M, [1, 1]), rand(M, rng, (2,), "float16")),
        {},
    ),
)
add(
    "scatter_add_err_dtype",
    "scatter_add",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [1]), rand(M, rng, (1,), "float64")), {}),
)
add(
    "scatter_add__basic",
    "scatter_add_",
    lambda M, rng: ((rand(M, rng, (3, 2)), 1, idx(M, [[1, 1], [0, 1]]), rand(M, rng, (2, 2))), {}),
)
add(
    "scatter_add_out",
    "scatter_add.out",
    lambda M, rng: (
        (rand(M, rng, (3, 2)), 1, idx(M, [[1, 1]]), rand(M, rng, (1, 2))),
        {"out": rand(M, rng, (3, 2))},
    ),
)

for _red in ("sum", "prod", "mean", "amax", "amin"):
    for _inc in (True, False):
        _sfx = f"{_red}_{'incl' if _inc else 'excl'}"
        add(
            f"scatter_reduce_two_{_sfx}",
            "scatter_reduce.two",
            lambda M, rng, r=_red, i=_inc: (
                (
                    rand(M, rng, (3, 4)),
                    0,
                    idx(M, [[0, 1, 0, 0], [0, 1, 1, 0]]),
                    rand(M, rng, (2, 4)),
                    r,
                ),
                {"include_self": i},
            ),
        )
    add(
        f"scatter_reduce_two_int_{_red}",
        "scatter_reduce.two",
        lambda M, rng, r=_red: (
            (
                rand(M, rng, (4,), "int64", -5, 5),
                0,
                idx(M, [1, 1, 3]),
                rand(M, rng, (3,), "int64", -5, 5),
                r,
            ),
            {"include_self": False},
        ),
    )
add(
    "scatter_reduce_two_err_reduce",
    "scatter_reduce.two",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [1]), rand(M, rng, (1,)), "add"), {}),
)
add(
    "scatter_reduce__two",
    "scatter_reduce_.two",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [1, 1]), rand(M, rng, (2,)), "amax"), {}),
)
add(
    "scatter_reduce_two_out",
    "scatter_reduce.two_out",
    lambda M, rng: (
        (rand(M, rng, (4,)), 0, idx(M, [1, 1]), rand(M, rng, (2,)), "sum"),
        {"include_self": False, "out": rand(M, rng, (4,))},
    ),
)

# ------------------------------------------------------------------------- masked_select / nonzero

add(
    "masked_select_basic",
    "masked_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), mask(M, rng, (3, 4))), {}),
    tags=NO_META,
)
add(
    "masked_select_broadcast_mask",
    "masked_select",
    lambda M, rng: ((rand(M, rng, (3, 4)), mask(M, rng, (4,))), {}),
    tags=NO_META,
)
add(
    "masked_select_broadcast_self",
    "masked_select",
    lambda M, rng: ((rand(M, rng, (4,)), mask(M, rng, (3, 4))), {}),
    tags=NO_META,
)
add(
    "masked_select_nc",
    "masked_select",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), mask(M, rng, (3, 4))), {}),
    tags=NO_META,
)
add(
    "masked_select_0d",
    "masked_select",
    lambda M, rng: ((rand(M, rng, ()), tensor(M, np.array(True))), {}),
    tags=NO_META,
)
add(
    "masked_select_int",
    "masked_select",
    lambda M, rng: ((rand(M, rng, (5,), "int16"), mask(M, rng, (5,))), {}),
    tags=NO_META,
)
add(
    "masked_select_err_uint8",
    "masked_select",
    lambda M, rng: ((rand(M, rng, (2,)), idx(M, [1, 0], "uint8")), {}),
)
add(
    "masked_select_err_shape",
    "masked_select",
    lambda M, rng: ((rand(M, rng, (2, 3)), mask(M, rng, (2,))), {}),
)


def _masked_select_out(M, rng):
    m = rng.random((2, 3)) < 0.5
    return (rand(M, rng, (2, 3)), tensor(M, m)), {"out": rand(M, rng, (int(m.sum()),))}


add("masked_select_out", "masked_select.out", _masked_select_out, tags=NO_META)

for _dt in (*ALL_DTYPES, "complex64"):
    add(
        f"nonzero_dtype_{_dt}",
        "nonzero",
        lambda M, rng, d=_dt: ((rand(M, rng, (3, 4), d, -1, 1),), {}),
        tags=NO_META,
    )
add(
    "nonzero_1d", "nonzero", lambda M, rng: ((rand(M, rng, (6,), "int64", 0, 1),), {}), tags=NO_META
)
add("nonzero_3d", "nonzero", lambda M, rng: ((mask(M, rng, (2, 3, 2)),), {}), tags=NO_META)
add("nonzero_none", "nonzero", lambda M, rng: ((tensor(M, np.zeros((2, 3))),), {}), tags=NO_META)
add("nonzero_0d_true", "nonzero", lambda M, rng: ((tensor(M, np.array(2.0)),), {}), tags=NO_META)
add("nonzero_0d_false", "nonzero", lambda M, rng: ((tensor(M, np.array(0)),), {}), tags=NO_META)
add(
    "nonzero_nc",
    "nonzero",
    lambda M, rng: ((noncontig(M, rng, (3, 4), "int64", 0, 1),), {}),
    tags=NO_META,
)


def _nonzero_out(M, rng):
    m = rng.random((2, 3)) < 0.5
    return (tensor(M, m),), {"out": idx(M, np.zeros((int(m.sum()), 2), np.int64))}


add("nonzero_out", "nonzero.out", _nonzero_out, tags=NO_META)
add("nonzero_numpy_2d", "nonzero_numpy", lambda M, rng: ((mask(M, rng, (3, 4)),), {}), tags=NO_META)
add(
    "nonzero_numpy_0d",
    "nonzero_numpy",
    lambda M, rng: ((tensor(M, np.array(1.0)),), {}),
    tags=NO_META,
)
add("argwhere_basic", "argwhere", lambda M, rng: ((mask(M, rng, (3, 2)),), {}), tags=NO_META)

# ------------------------------------------------------------------------- index_copy / fill / add

add(
    "index_copy_dim0",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4, 3)), 0, idx(M, [3, 0]), rand(M, rng, (2, 3))), {}),
)
add(
    "index_copy_dim1",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (2, 4)), 1, idx(M, [1, 2, 0]), rand(M, rng, (2, 3))), {}),
)
add(
    "index_copy_nc",
    "index_copy",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), 1, idx(M, [2]), rand(M, rng, (3, 1))), {}),
)
add(
    "index_copy_scalar_index",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (3, 2)), 0, idx(M, 1), rand(M, rng, (1, 2))), {}),
)
add(
    "index_copy_0d",
    "index_copy",
    lambda M, rng: ((rand(M, rng, ()), 0, idx(M, [0]), rand(M, rng, ())), {}),
)
add(
    "index_copy_int",
    "index_copy",
    lambda M, rng: (
        (rand(M, rng, (4,), "int32"), 0, idx(M, [1, 3]), rand(M, rng, (2,), "int32")),
        {},
    ),
)
add(
    "index_copy_err_dtype",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [1]), rand(M, rng, (1,), "float64")), {}),
    # the CPU kernel's check: PyTorch's meta index_copy makes none (a meta run returns)
    tags=("no_meta",),
)
add(
    "index_copy_err_index_dtype",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [1], "int32"), rand(M, rng, (1,))), {}),
)
add(
    "index_copy_err_index_2d",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [[1]]), rand(M, rng, (1,))), {}),
)
add(
    "index_copy_err_count",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4, 2)), 0, idx(M, [1, 2]), rand(M, rng, (3, 2))), {}),
)
add(
    "index_copy_err_slice_shape",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4, 2)), 0, idx(M, [1]), rand(M, rng, (1, 3))), {}),
)
add(
    "index_copy_err_ndim",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4, 2)), 0, idx(M, [1]), rand(M, rng, (2,))), {}),
)
add(
    "index_copy_err_bounds",
    "index_copy",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [4]), rand(M, rng, (1,))), {}),
    tags=NO_META,
)
add(
    "index_copy__basic",
    "index_copy_",
    lambda M, rng: ((rand(M, rng, (4, 3)), 0, idx(M, [2, 1]), rand(M, rng, (2, 3))), {}),
)
add(
    "index_copy_out",
    "index_copy.out",
    lambda M, rng: (
        (rand(M, rng, (4,)), 0, idx(M, [2]), rand(M, rng, (1,))),
        {"out": rand(M, rng, (4,))},
    ),
)

add(
    "index_fill_scalar",
    "index_fill.int_Scalar",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, [0, 2]), -2.0), {}),
)
add(
    "index_fill_scalar_neg_index",
    "index_fill.int_Scalar",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [-1]), 1.5), {}),
)
add(
    "index_fill_scalar_nc",
    "index_fill.int_Scalar",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), 0, idx(M, [1]), 0.0), {}),
)
add(
    "index_fill_scalar_int_self",
    "index_fill.int_Scalar",
    lambda M, rng: ((rand(M, rng, (3, 4), "int64"), 1, idx(M, [3]), 9), {}),
)
add(
    "index_fill_scalar_0d",
    "index_fill.int_Scalar",
    lambda M, rng: ((rand(M, rng, ()), 0, idx(M, [0]), 4.0), {}),
)
add(
    "index_fill_tensor",
    "index_fill.int_Tensor",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 1, idx(M, [1, 3]), tensor(M, np.array(5.0, np.float32))),
        {},
    ),
)
add(
    "index_fill_err_value_dim",
    "index_fill.int_Tensor",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, [1]), rand(M, rng, (1,))), {}),
)
add(
    "index_fill_err_index_dtype",
    "index_fill.int_Scalar",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, [1], "int32"), 1.0), {}),
)
add(
    "index_fill_err_bounds",
    "index_fill.int_Scalar",
    lambda M, rng: ((rand(M, rng, (3, 4)), 1, idx(M, [4]), 1.0), {}),
    tags=NO_META,
)
add(
    "index_fill__scalar",
    "index_fill_.int_Scalar",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [0, 2]), 3.0), {}),
)
add(
    "index_fill__tensor",
    "index_fill_.int_Tensor",
    lambda M, rng: ((rand(M, rng, (3, 4), "int32"), -1, idx(M, [0]), idx(M, 7, "int32")), {}),
)
add(
    "index_fill_scalar_out",
    "index_fill.int_Scalar_out",
    lambda M, rng: ((rand(M, rng, (3, 4)), 0, idx(M, [0]), 3.0), {"out": rand(M, rng, (3, 4))}),
)
add(
    "index_fill_tensor_out",
    "index_fill.int_Tensor_out",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 0, idx(M, [0]), tensor(M, np.array(1.0, np.float32))),
        {"out": rand(M, rng, (3, 4))},
    ),
)

add(
    "index_add_basic",
    "index_add",
    lambda M, rng: ((rand(M, rng, (4, 3)), 0, idx(M, [0, 2, 0]), rand(M, rng, (3, 3))), {}),
)
add(
    "index_add_alpha",
    "index_add",
    lambda M, rng: (
        (rand(M, rng, (3, 4)), 1, idx(M, [3, 1]), rand(M, rng, (3, 2))),
        {"alpha": 2.0},
    ),
)
add(
    "index_add_int32_index",
    "index_add",
    lambda M, rng: (
        (rand(M, rng, (4,), "int64"), 0, idx(M, [1, 1], "int32"), rand(M, rng, (2,), "int64")),
        {"alpha": 3},
    ),
)
add(
    "index_add_nc",
    "index_add",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), 0, idx(M, [1]), rand(M, rng, (1, 4))), {}),
)
add(
    "index_add_err_dtype",
    "index_add",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [1]), rand(M, rng, (1,), "float64")), {}),
)
add(
    "index_add_err_count",
    "index_add",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [1, 2]), rand(M, rng, (3,))), {}),
)
add(
    "index_add_err_shape",
    "index_add",
    lambda M, rng: ((rand(M, rng, (4, 2)), 0, idx(M, [1]), rand(M, rng, (1, 3))), {}),
)
add(
    "index_add_err_bounds",
    "index_add",
    lambda M, rng: ((rand(M, rng, (4,)), 0, idx(M, [4]), rand(M, rng, (1,))), {}),
    tags=NO_META,
)
add(
    "index_add__basic",
    "index_add_",
    lambda M, rng: ((rand(M, rng, (4, 3)), 1, idx(M, [2, 2]), rand(M, rng, (4, 2))), {}),
)
add(
    "index_add_out",
    "index_add.out",
    lambda M, rng: (
        (rand(M, rng, (4,)), 0, idx(M, [2]), rand(M, rng, (1,))),
        {"out": rand(M, rng, (4,))},
    ),
)

# ----------------------------------------------------------------------------- take / put

add("take_basic", "take", lambda M, rng: ((rand(M, rng, (3, 4)), idx(M, [[0, 11], [5, -1]])), {}))
add("take_nc", "take", lambda M, rng: ((noncontig(M, rng, (3, 4)), idx(M, [1, 4, 7])), {}))
add("take_0d_index", "take", lambda M, rng: ((rand(M, rng, (3,)), idx(M, 2)), {}))
add(
    "take_empty_index",
    "take",
    lambda M, rng: ((rand(M, rng, (3,)), idx(M, np.zeros(0, np.int64))), {}),
)
add("take_err_dtype", "take", lambda M, rng: ((rand(M, rng, (3,)), idx(M, [1], "int32")), {}))
add("take_err_bounds", "take", lambda M, rng: ((rand(M, rng, (3,)), idx(M, [3])), {}), tags=NO_META)
add("take_err_empty_self", "take", lambda M, rng: ((rand(M, rng, (0,)), idx(M, [0])), {}))
add(
    "take_out",
    "take.out",
    lambda M, rng: ((rand(M, rng, (3,)), idx(M, [2, 0])), {"out": rand(M, rng, (2,))}),
)

add(
    "put__basic",
    "put_",
    lambda M, rng: ((rand(M, rng, (3, 4)), idx(M, [0, 11, -1, 5]), rand(M, rng, (4,))), {}),
)
add(
    "put__accumulate",
    "put_",
    lambda M, rng: (
        (rand(M, rng, (2, 3)), idx(M, [[1, 1], [4, 1]]), rand(M, rng, (2, 2)), True),
        {},
    ),
)
add(
    "put__nc",
    "put_",
    lambda M, rng: ((noncontig(M, rng, (3, 4)), idx(M, [1, 6]), rand(M, rng, (2,))), {}),
)
add(
    "put__err_numel",
    "put_",
    lambda M, rng: ((rand(M, rng, (3,)), idx(M, [1, 2]), rand(M, rng, (3,))), {}),
)
add(
    "put__err_bounds",
    "put_",
    lambda M, rng: ((rand(M, rng, (3,)), idx(M, [3]), rand(M, rng, (1,))), {}),
    tags=NO_META,
)
add(
    "put__err_dtype",
    "put_",
    lambda M, rng: ((rand(M, rng, (3,)), idx(M, [1]), rand(M, rng, (1,), "float64")), {}),
)
add(
    "put_functional",
    "put",
    lambda M, rng: ((rand(M, rng, (2, 3)), idx(M, [5, 0]), rand(M, rng, (2,))), {}),
)

# ----------------------------------------------------------------------------- take_along_dim

add(
    "take_along_dim_dim1",
    "take_along_dim",
    lambda M, rng: ((rand(M, rng, (3, 4)), idx(M, [[0], [3], [-1]]), 1), {}),
)
add(
    "take_along_dim_broadcast",
    "take_along_dim",
    lambda M, rng: ((rand(M, rng, (3, 4)), idx(M, [[1, 0, 2, 2]]), 0), {}),
)
add(
    "take_along_dim_wrap",
    "take_along_dim",
    lambda M, rng: ((rand(M, rng, (2, 3)), idx(M, [[5], [-4]]), -1), {}),
)
add(
    "take_along_dim_flat",
    "take_along_dim",
    lambda M, rng: ((rand(M, rng, (2, 3)), idx(M, [5, 0, 2])), {}),
)
add(
    "take_along_dim_err_dtype",
    "take_along_dim",
    lambda M, rng: ((rand(M, rng, (2, 3)), idx(M, [[0]], "int32"), 1), {}),
)
add(
    "take_along_dim_err_ndim",
    "take_along_dim",
    lambda M, rng: ((rand(M, rng, (2, 3)), idx(M, [0]), 1), {}),
)
add(
    "take_along_dim_out",
    "take_along_dim.out",
    lambda M, rng: ((rand(M, rng, (2, 3)), idx(M, [[0], [2]]), 1), {"out": rand(M, rng, (2, 1))}),
)

# ------------------------------------------------------- nonzero_static / unique / bincount / equal
# nonzero_static's shape is (size, ndim) whatever the data: it runs on meta. The unique family,
# bincount and equal have no meta kernel in PyTorch (the meta device raises): their samples that
# succeed on CPU are tagged no_meta; their error samples also raise on meta.

_NP_INT = ("uint8", "int8", "int16", "int32", "int64")


def _few(M, rng, shape, dt, lo=-2, hi=2):
    """Values with repeats (small integers) as dtype dt."""
    a = rng.integers(0 if dt == "uint8" else lo, hi + 1, shape)
    if dt == "bool":
        return tensor(M, a > 0)
    return tensor(M, a.astype(np.int64 if dt in _NP_INT else np.float64), dt)


def _vals(M, values, dt="float32"):
    return tensor(M, np.array(values, dtype=np.float64 if dt != "int64" else np.int64), dt)


def _scalar(M, value, dt):
    """A 0-d tensor (harness.tensor would give shape (1,): np.ascontiguousarray is >= 1-d)."""
    return M.tensor(value, dtype=getattr(M, dt))


def _long_out(M, *shape):
    return M.empty(*shape, dtype=M.int64)


# nonzero_static
for _dt in (*ALL_DTYPES, "complex64"):
    add(
        f"nonzero_static_dtype_{_dt}",
        "nonzero_static",
        lambda M, rng, d=_dt: ((_few(M, rng, (3, 4), d, -1, 1),), {"size": 6}),
    )
add(
    "nonzero_static_truncate",
    "nonzero_static",
    lambda M, rng: ((_few(M, rng, (3, 4), "int64", 1, 3),), {"size": 5}),
)
add(
    "nonzero_static_pad_fill",
    "nonzero_static",
    lambda M, rng: ((_few(M, rng, (2, 3), "float32", -1, 1),), {"size": 8, "fill_value": 7}),
)
add(
    "nonzero_static_fill_min",
    "nonzero_static",
    lambda M, rng: ((_vals(M, [0.0, 1.0]),), {"size": 3, "fill_value": -(2**63)}),
)
add(
    "nonzero_static_size0",
    "nonzero_static",
    lambda M, rng: ((_few(M, rng, (3, 4), "int64"),), {"size": 0}),
)
add(
    "nonzero_static_1d",
    "nonzero_static",
    lambda M, rng: ((_few(M, rng, (7,), "bool"),), {"size": 4}),
)
add(
    "nonzero_static_3d",
    "nonzero_static",
    lambda M, rng: ((_few(M, rng, (2, 3, 2), "int32", -1, 1),), {"size": 9}),
)
add(
    "nonzero_static_0d_true",
    "nonzero_static",
    lambda M, rng: ((_scalar(M, 2.0, "float32"),), {"size": 3}),
)
add(
    "nonzero_static_0d_false",
    "nonzero_static",
    lambda M, rng: ((_scalar(M, 0, "int64"),), {"size": 2, "fill_value": 5}),
)
add(
    "nonzero_static_empty",
    "nonzero_static",
    lambda M, rng: ((tensor(M, np.zeros((0, 3))),), {"size": 2}),
)
add(
    "nonzero_static_nc",
    "nonzero_static",
    lambda M, rng: ((noncontig(M, rng, (3, 4), "int64", 0, 1),), {"size": 7}),
)
add(
    "nonzero_static_err_size",
    "nonzero_static",
    lambda M, rng: ((_few(M, rng, (3,), "int64"),), {"size": -1}),
)
add(
    "nonzero_static_out",
    "nonzero_static.out",
    lambda M, rng: ((_few(M, rng, (3, 4), "int64", -1, 1),), {"size": 5, "out": _long_out(M, 0)}),
)
add(
    "nonzero_static_out_resize",
    "nonzero_static.out",
    lambda M, rng: ((_few(M, rng, (2, 3), "bool"),), {"size": 3, "out": _long_out(M, 2, 2)}),
)
add(
    "nonzero_static_out_nc",
    "nonzero_static.out",
    lambda M, rng: (
        (_few(M, rng, (2, 3), "float32", -1, 1),),
        {"size": 4, "fill_value": 0, "out": _long_out(M, 2, 4).t()},
    ),
)
add(
    "nonzero_static_out_err_dtype",
    "nonzero_static.out",
    lambda M, rng: ((_few(M, rng, (3,), "int64"),), {"size": 2, "out": M.empty(0, dtype=M.int32)}),
)
add(
    "nonzero_static_out_err_size",
    "nonzero_static.out",
    lambda M, rng: ((_few(M, rng, (3,), "int64"),), {"size": -2, "out": M.empty(0)}),
)

# _unique2 (torch.unique without dim) and _unique
for _dt in ALL_DTYPES:
    add(
        f"_unique2_dtype_{_dt}",
        "_unique2",
        lambda M, rng, d=_dt: ((_few(M, rng, (3, 4), d), True, True, True), {}),
        tags=NO_META,
    )
for _inv, _cnt in ((False, False), (True, False), (False, True)):
    add(
        f"_unique2_flags_{int(_inv)}{int(_cnt)}",
        "_unique2",
        lambda M, rng, i=_inv, c=_cnt: ((_few(M, rng, (4, 3), "int64"), True, i, c), {}),
        tags=NO_META,
    )
add(
    "_unique2_unsorted",
    "_unique2",
    lambda M, rng: (
        (_few(M, rng, (9,), "int32", -4, 4),),
        {"sorted": False, "return_counts": True},
    ),
    tags=NO_META,
)
add(
    "_unique2_nan_negzero",
    "_unique2",
    lambda M, rng: (
        (_vals(M, [3.0, np.nan, 1.0, np.nan, -0.0, 0.0, 3.0, -np.inf]), True, True, True),
        {},
    ),
    tags=NO_META,
)
add(
    "_unique2_zero_first",
    "_unique2",
    lambda M, rng: ((_vals(M, [0.0, -0.0, 1.0], "float64"), True, True, True), {}),
    tags=NO_META,
)
add(
    "_unique2_empty",
    "_unique2",
    lambda M, rng: ((tensor(M, np.zeros((0, 3), np.float32)), True, True, True), {}),
    tags=NO_META,
)
add(
    "_unique2_empty_noinv",
    "_unique2",
    lambda M, rng: ((tensor(M, np.zeros((2, 0), np.int64)), True, False, True), {}),
    tags=NO_META,
)
add(
    "_unique2_empty_bool",
    "_unique2",
    lambda M, rng: ((tensor(M, np.zeros((0, 2), np.bool_)), True, True, True), {}),
    tags=NO_META,
)
add(
    "_unique2_0d",
    "_unique2",
    lambda M, rng: ((_scalar(M, 2.5, "float64"), True, True, True), {}),
    tags=NO_META,
)
add(
    "_unique2_bool_one_value",
    "_unique2",
    lambda M, rng: ((tensor(M, np.ones((2, 2), np.bool_)), True, True, True), {}),
    tags=NO_META,
)
add(
    "_unique2_nc",
    "_unique2",
    lambda M, rng: ((noncontig(M, rng, (3, 4), "int64", -2, 2), True, True, True), {}),
    tags=NO_META,
)
add(
    "_unique2_err_complex",
    "_unique2",
    lambda M, rng: ((rand(M, rng, (3,), "complex64"),), {}),
)
add(
    "_unique2_out",
    "_unique2.out",
    lambda M, rng: (
        (_few(M, rng, (2, 5), "float32"), True, True, True),
        {"out0": M.empty(0), "out1": _long_out(M, 0), "out2": _long_out(M, 0)},
    ),
    tags=NO_META,
)
add(
    "_unique2_out_err_dtype",
    "_unique2.out",
    lambda M, rng: (
        (_few(M, rng, (5,), "float32"), True, True, True),
        {"out0": M.empty(0), "out1": M.empty(0), "out2": _long_out(M, 0)},
    ),
    tags=NO_META,
)
add(
    "_unique_inverse",
    "_unique",
    lambda M, rng: ((_few(M, rng, (3, 3), "int16"), True, True), {}),
    tags=NO_META,
)
add(
    "_unique_plain",
    "_unique",
    lambda M, rng: ((_few(M, rng, (6,), "float64"),), {}),
    tags=NO_META,
)
add(
    "_unique_bool_0d",
    "_unique",
    lambda M, rng: ((_scalar(M, True, "bool"), True, True), {}),
    tags=NO_META,
)

# unique_dim (torch.unique with dim=)
for _d in (0, 1, 2, -1):
    add(
        f"unique_dim_{_d}",
        "unique_dim",
        lambda M, rng, d=_d: ((_few(M, rng, (5, 3, 4), "int64", 0, 1), d, True, True, True), {}),
        tags=NO_META,
    )
add(
    "unique_dim_flags_false",
    "unique_dim",
    lambda M, rng: ((_few(M, rng, (6, 2), "int32", 0, 1), 0, True, False, False), {}),
    tags=NO_META,
)
for _dt in ("bool", "uint8", "float32", "float16", "bfloat16"):
    add(
        f"unique_dim_dtype_{_dt}",
        "unique_dim",
        lambda M, rng, d=_dt: ((_few(M, rng, (4, 6), d, -1, 1), 1, True, True, True), {}),
        tags=NO_META,
    )
add(
    "unique_dim_1d",
    "unique_dim",
    lambda M, rng: ((_few(M, rng, (8,), "int64"), 0), {}),
    tags=NO_META,
)
add(
    "unique_dim_nc",
    "unique_dim",
    lambda M, rng: ((noncontig(M, rng, (4, 3), "int64", 0, 1), 1, True, True, True), {}),
    tags=NO_META,
)
add(
    "unique_dim_zero_selected",
    "unique_dim",
    lambda M, rng: ((tensor(M, np.zeros((0, 3), np.float32)), 0, True, True, True), {}),
    tags=NO_META,
)
add(
    "unique_dim_zero_selected_last",
    "unique_dim",
    lambda M, rng: ((tensor(M, np.zeros((3, 0), np.int64)), -1, True, True, True), {}),
    tags=NO_META,
)
add(
    "unique_dim_err_zero_unselected",
    "unique_dim",
    lambda M, rng: ((tensor(M, np.zeros((0, 3), np.float32)), 1), {}),
)
add(
    "unique_dim_err_two_zero",
    "unique_dim",
    lambda M, rng: ((tensor(M, np.zeros((0, 0), np.float32)), 0), {}),
)
add("unique_dim_err_0d", "unique_dim", lambda M, rng: ((_scalar(M, 3, "int64"), 0), {}))
add("unique_dim_err_range", "unique_dim", lambda M, rng: ((_few(M, rng, (2, 2), "int64"), 2), {}))
add(
    "unique_dim_err_complex",
    "unique_dim",
    lambda M, rng: ((rand(M, rng, (2, 2), "complex64"), 0), {}),
)
add(
    "unique_dim_out",
    "unique_dim.out",
    lambda M, rng: (
        (_few(M, rng, (3, 4), "int64", 0, 1), 1, True, True, True),
        {"out0": _long_out(M, 0), "out1": _long_out(M, 0), "out2": _long_out(M, 0)},
    ),
    tags=NO_META,
)

# unique_consecutive / unique_dim_consecutive
for _inv, _cnt in ((False, False), (True, False), (False, True), (True, True)):
    add(
        f"unique_consecutive_flags_{int(_inv)}{int(_cnt)}",
        "unique_consecutive",
        lambda M, rng, i=_inv, c=_cnt: ((_few(M, rng, (3, 4), "int64", 0, 1), i, c), {}),
        tags=NO_META,
    )
for _dt in ("bool", "uint8", "int8", "float16", "bfloat16", "float64"):
    add(
        f"unique_consecutive_dtype_{_dt}",
        "unique_consecutive",
        lambda M, rng, d=_dt: ((_few(M, rng, (10,), d, 0, 1), True, True), {}),
        tags=NO_META,
    )
add(
    "unique_consecutive_nan",
    "unique_consecutive",
    lambda M, rng: ((_vals(M, [np.nan, np.nan, 1.0, 1.0, -0.0, 0.0]), True, True), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_empty",
    "unique_consecutive",
    lambda M, rng: ((tensor(M, np.zeros((0, 3), np.float32)), True, True), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_0d",
    "unique_consecutive",
    lambda M, rng: ((_scalar(M, 4.0, "float32"), True, True), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_nc",
    "unique_consecutive",
    lambda M, rng: ((noncontig(M, rng, (4, 3), "int64", 0, 1), True, True), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_dim0_1d",
    "unique_consecutive",
    lambda M, rng: ((_vals(M, [1, 1, 2, 2, 1], "int64"), False, False, 0), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_dim_neg_1d",
    "unique_consecutive",
    lambda M, rng: ((_vals(M, [1, 1, 2, 2, 1], "int64"), False, False, -1), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_dim0_2d",
    "unique_consecutive",
    lambda M, rng: ((_vals(M, [[1, 1], [1, 1], [2, 2], [1, 1]]), True, True, 0), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_dim1_3d",
    "unique_consecutive",
    lambda M, rng: ((_few(M, rng, (2, 6, 2), "int64", 0, 1), True, True, 1), {}),
    tags=NO_META,
)
add(
    "unique_consecutive_err_complex",
    "unique_consecutive",
    lambda M, rng: ((rand(M, rng, (3,), "complex64"),), {}),
)
add(
    "unique_consecutive_err_dim",
    "unique_consecutive",
    lambda M, rng: ((_few(M, rng, (2, 3), "int64"), False, False, 2), {}),
)
add(
    "unique_consecutive_out",
    "unique_consecutive.out",
    lambda M, rng: (
        (_few(M, rng, (8,), "int64", 0, 1), True, True),
        {"out0": _long_out(M, 0), "out1": _long_out(M, 0), "out2": _long_out(M, 0)},
    ),
    tags=NO_META,
)
add(
    "unique_dim_consecutive_basic",
    "unique_dim_consecutive",
    lambda M, rng: ((_vals(M, [[1, 2], [1, 2], [0, 0], [1, 2]], "int64"), 0, True, True), {}),
    tags=NO_META,
)
add(
    "unique_dim_consecutive_dim1",
    "unique_dim_consecutive",
    lambda M, rng: ((_few(M, rng, (2, 7), "float32", 0, 1), 1), {}),
    tags=NO_META,
)

# bincount
for _dt in _NP_INT:
    add(
        f"bincount_dtype_{_dt}",
        "bincount",
        lambda M, rng, d=_dt: ((_few(M, rng, (12,), d, 0, 6),), {}),
        tags=NO_META,
    )
for _dt in (*ALL_DTYPES, "complex64"):
    add(
        f"bincount_weights_{_dt}",
        "bincount",
        lambda M, rng, d=_dt: (
            (
                _few(M, rng, (10,), "int64", 0, 5),
                rand(M, rng, (10,), d, -2, 2) if d != "bool" else _few(M, rng, (10,), d),
            ),
            {},
        ),
        tags=NO_META,
    )
add(
    "bincount_minlength",
    "bincount",
    lambda M, rng: ((_few(M, rng, (6,), "int64", 0, 3), None, 9), {}),
    tags=NO_META,
)
add(
    "bincount_minlength_small",
    "bincount",
    lambda M, rng: ((_few(M, rng, (6,), "int64", 0, 5),), {"minlength": 2}),
    tags=NO_META,
)
add(
    "bincount_nc",
    "bincount",
    lambda M, rng: ((noncontig(M, rng, (7,), "int32", 0, 4), noncontig(M, rng, (7,))), {}),
    tags=NO_META,
)
add(
    "bincount_empty",
    "bincount",
    lambda M, rng: ((tensor(M, np.zeros(0, np.int64)),), {"minlength": 3}),
    tags=NO_META,
)
add(
    "bincount_empty_weights",
    "bincount",
    lambda M, rng: ((tensor(M, np.zeros(0, np.int64)), tensor(M, np.zeros(0)), 2), {}),
    tags=NO_META,
)
add(
    "bincount_empty_nominlength",
    "bincount",
    lambda M, rng: ((tensor(M, np.zeros(0, np.uint8)),), {}),
    tags=NO_META,
)
add(
    "bincount_err_minlength",
    "bincount",
    lambda M, rng: ((_few(M, rng, (4,), "int64", 0, 3),), {"minlength": -1}),
)
add(
    "bincount_err_negative",
    "bincount",
    lambda M, rng: ((_vals(M, [1, -1, 2], "int64"),), {}),
)
add(
    "bincount_err_negative_int8",
    "bincount",
    lambda M, rng: ((_vals(M, [1, 0, -3], "int8"),), {}),
)
add("bincount_err_2d", "bincount", lambda M, rng: ((_few(M, rng, (2, 3), "int64", 0, 3),), {}))
add("bincount_err_0d", "bincount", lambda M, rng: ((_scalar(M, 2, "int64"),), {}))
add(
    "bincount_err_empty_2d",
    "bincount",
    lambda M, rng: ((tensor(M, np.zeros((0, 2), np.int64)),), {}),
)
add("bincount_err_float", "bincount", lambda M, rng: ((rand(M, rng, (3,), "float32", 0, 3),), {}))
add("bincount_err_bool", "bincount", lambda M, rng: ((_few(M, rng, (3,), "bool"),), {}))
add(
    "bincount_err_weights_len",
    "bincount",
    lambda M, rng: ((_few(M, rng, (4,), "int64", 0, 3), rand(M, rng, (3,))), {}),
)
add(
    "bincount_err_weights_2d",
    "bincount",
    lambda M, rng: ((_few(M, rng, (2,), "int64", 0, 3), rand(M, rng, (1, 2))), {}),
)
add(
    "bincount_err_overflow",
    "bincount",
    lambda M, rng: ((_vals(M, [0, 2**63 - 1], "int64"),), {}),
)
add(
    "bincount_out",
    "bincount.out",
    lambda M, rng: ((_few(M, rng, (8,), "int64", 0, 4),), {"out": _long_out(M, 0)}),
    tags=NO_META,
)
add(
    "bincount_out_weights",
    "bincount.out",
    lambda M, rng: (
        (_few(M, rng, (5,), "int64", 0, 4), rand(M, rng, (5,))),
        {"out": M.empty(0)},
    ),
    tags=NO_META,
)
add(
    "bincount_out_err_dtype",
    "bincount.out",
    lambda M, rng: ((_few(M, rng, (5,), "int64", 0, 4),), {"out": M.empty(0)}),
    tags=NO_META,
)

# equal
_EQUAL_CASES = {
    "same": lambda M, rng, a: (a, a.clone()),
    "alias": lambda M, rng, a: (a, a),
    "differ": lambda M, rng, a: (a, a + 1),
    "shape": lambda M, rng, a: (a, a.reshape(4, 3)),
    "promote": lambda M, rng, a: (a, a.to(M.float64)),
    "nc": lambda M, rng, a: (a.t().contiguous().t(), a),
}
for _name, _mk in _EQUAL_CASES.items():
    add(
        f"equal_{_name}",
        "equal",
        lambda M, rng, f=_mk: (f(M, rng, _few(M, rng, (3, 4), "int64")), {}),
        tags=NO_META,
    )
for _dt in (*ALL_DTYPES, "complex64"):
    add(
        f"equal_dtype_{_dt}",
        "equal",
        lambda M, rng, d=_dt: ((lambda a: (a, a.clone()))(_few(M, rng, (5,), d, -1, 1)), {}),
        tags=NO_META,
    )
add(
    "equal_nan",
    "equal",
    lambda M, rng: ((_vals(M, [1.0, np.nan]), _vals(M, [1.0, np.nan])), {}),
    tags=NO_META,
)
add(
    "equal_nan_alias",
    "equal",
    lambda M, rng: ((lambda a: (a, a))(_vals(M, [1.0, np.nan])), {}),
    tags=NO_META,
)
add(
    "equal_negzero",
    "equal",
    lambda M, rng: ((_vals(M, [0.0, 1.0]), _vals(M, [-0.0, 1.0])), {}),
    tags=NO_META,
)
add(
    "equal_empty",
    "equal",
    lambda M, rng: ((tensor(M, np.zeros((0, 2))), tensor(M, np.zeros((0, 2), np.float32))), {}),
    tags=NO_META,
)
add(
    "equal_empty_shapes",
    "equal",
    lambda M, rng: ((tensor(M, np.zeros((0, 2))), tensor(M, np.zeros((2, 0)))), {}),
    tags=NO_META,
)
add(
    "equal_0d",
    "equal",
    lambda M, rng: ((_scalar(M, 3, "int64"), _scalar(M, 3.0, "float64")), {}),
    tags=NO_META,
)
add(
    "equal_no_broadcast",
    "equal",
    lambda M, rng: ((_vals(M, [1.0, 1.0]), _scalar(M, 1.0, "float32")), {}),
    tags=NO_META,
)
add(
    "equal_bool_int",
    "equal",
    lambda M, rng: ((tensor(M, np.array([True, False])), _vals(M, [1, 0], "int64")), {}),
    tags=NO_META,
)
add(
    "equal_uint8_int8",
    "equal",
    lambda M, rng: ((_vals(M, [255, 1], "uint8"), _vals(M, [-1, 1], "int8")), {}),
    tags=NO_META,
)
add(
    "equal_int_float_rounding",
    "equal",
    lambda M, rng: ((_vals(M, [16777217], "int64"), _vals(M, [16777216.0], "float32")), {}),
    tags=NO_META,
)
