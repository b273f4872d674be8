"""Samples of the assorted operators (aten/misc_ops.py; see tests/ops/harness.py): diag and
diag_embed with offsets and dims, kthvalue, cummax/cummin (ties, NaN), searchsorted/bucketize
(sides, sorters, int32 outputs, N-D boundaries), histc, dist, cdist (both of PyTorch's paths),
masked_scatter, tril/triu_indices, cartesian_prod, combinations, and their errors. Sample ids
are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import Sample, noncontig, rand, tensor

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32", lo: float = -3, hi: float = 3) -> Any:
    return lambda M, r: rand(M, r, shape, dt, lo, hi)


def NC(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: noncontig(M, r, shape, dt)


def FIXED(values: Any, dt: str = "float32") -> Any:
    return lambda M, r: tensor(M, np.asarray(values).astype(dt))


def SORTED(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: tensor(M, np.sort(r.uniform(-3, 3, shape), axis=-1).astype(dt))


def PERM(n: int) -> Any:
    """A sorter: the argsort of a fixed shuffled sequence (see SHUFFLED)."""
    return lambda M, r: tensor(M, np.argsort(np.array([3.0, -1.0, 2.0, 0.5, -2.0][:n])))


def MASK(shape: tuple[int, ...]) -> Any:
    return lambda M, r: tensor(M, r.random(shape) < 0.5)


def mk(*specs: Any, **kwspecs: Any) -> Any:
    def make(M: Any, r: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            if callable(s):
                return s(M, r)
            if isinstance(s, list):
                return [build(x) for x in s]
            return s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


NAN = float("nan")

# ----------------------------------------------------------------------------- diag
for _dt in ("float32", "int64", "bool", "float64"):
    _add(f"diag_embed-{_dt}", "diag_embed", mk(T((2, 3), _dt)))
_add("diag_embed-offset", "diag_embed", mk(T((2, 3)), 1))
_add("diag_embed-negoffset", "diag_embed", mk(T((3,)), -2))
_add("diag_embed-dims", "diag_embed", mk(T((2, 3)), 0, 0, 2))
_add("diag_embed-dims-rev", "diag_embed", mk(T((2, 3)), 1, 2, 0))
_add("diag_embed-noncontig", "diag_embed", mk(NC((3, 2))))
_add("diag_embed-same-dims", "diag_embed", mk(T((3,)), 0, 1, 1))
_add("diag_embed-0d", "diag_embed", mk(T(())))
_add("diag-1d", "diag", mk(T((4,))))
_add("diag-1d-offset", "diag", mk(T((3,)), 2))
_add("diag-2d", "diag", mk(T((3, 4)), -1))
_add("diag-2d-offset", "diag", mk(T((3, 4)), 2))
_add("diag-3d", "diag", mk(T((2, 2, 2))))
_add("diagflat", "diagflat", mk(T((2, 2)), -1))

# ----------------------------------------------------------------------------- kthvalue
for _dt in ("float32", "float64", "int64", "int32"):
    _add(f"kthvalue-{_dt}", "kthvalue", mk(FIXED([[3, 1, 2, 5], [0, -1, 7, 4]], _dt), 2))
_add("kthvalue-dim0", "kthvalue", mk(T((5, 3)), 3, 0))
_add("kthvalue-keepdim", "kthvalue", mk(T((2, 5, 3)), 1, 1, True))
_add("kthvalue-0d", "kthvalue", mk(T(()), 1))
_add("kthvalue-range", "kthvalue", mk(T((3, 4)), 5, 1))
_add("kthvalue-zero", "kthvalue", mk(T((3, 4)), 0))
_add("kthvalue-nan", "kthvalue", mk(FIXED([1.0, NAN, 0.5]), 3))

# ----------------------------------------------------------------------------- cummax / cummin
for _op in ("cummax", "cummin"):
    for _dt in ("float32", "int64", "float64"):
        _add(f"{_op}-{_dt}", _op, mk(T((3, 5), _dt), 1))
    _add(f"{_op}-dim0", _op, mk(T((4, 3)), 0))
    _add(f"{_op}-ties", _op, mk(FIXED([1, 1, 0, 2, 2, 0, 2], "float32"), 0))
    _add(f"{_op}-nan", _op, mk(FIXED([1.0, NAN, 3.0, -1.0, NAN], "float32"), 0))
    _add(f"{_op}-bool", _op, mk(FIXED([False, True, False, True], "bool"), 0))
    _add(f"{_op}-0d", _op, mk(T(()), 0))
    _add(f"{_op}-empty", _op, mk(T((0, 3)), 0))
    _add(f"{_op}-noncontig", _op, mk(NC((3, 4)), 0))
    _add(f"{_op}-dim", _op, mk(T((3,)), 1))

# ----------------------------------------------------------------------------- searchsorted
_SEQ = [-2.0, -1.0, 0.5, 0.5, 2.0, 3.0]
_VALS = [[-3.0, 0.5, 2.5], [3.0, 0.0, 10.0]]
for _right in (False, True):
    _add(
        f"searchsorted.Tensor-right{_right}",
        "searchsorted.Tensor",
        mk(FIXED(_SEQ), FIXED(_VALS), right=_right),
    )
_add("searchsorted.Tensor-side", "searchsorted.Tensor", mk(FIXED(_SEQ), FIXED(_VALS), side="right"))
_add(
    "searchsorted.Tensor-int32",
    "searchsorted.Tensor",
    mk(FIXED(_SEQ), FIXED(_VALS), out_int32=True),
)
_add("searchsorted.Tensor-nd", "searchsorted.Tensor", mk(SORTED((2, 5)), T((2, 3))))
_add(
    "searchsorted.Tensor-int",
    "searchsorted.Tensor",
    mk(FIXED([1, 3, 5, 7], "int64"), FIXED([0, 3, 8], "int64")),
)
_add(
    "searchsorted.Tensor-mixed",
    "searchsorted.Tensor",
    mk(FIXED([1, 3, 5, 7], "int64"), FIXED([2.5, 7.0])),
)
_add(
    "searchsorted.Tensor-sorter",
    "searchsorted.Tensor",
    mk(FIXED([3.0, -1.0, 2.0, 0.5, -2.0]), FIXED([0.0, 2.5]), sorter=PERM(5)),
)
_add("searchsorted.Tensor-bad-shape", "searchsorted.Tensor", mk(SORTED((2, 3)), T((3, 3))))
_add(
    "searchsorted.Tensor-bad-side",
    "searchsorted.Tensor",
    mk(FIXED(_SEQ), FIXED(_VALS), side="middle"),
)
_add(
    "searchsorted.Tensor-opposite",
    "searchsorted.Tensor",
    mk(FIXED(_SEQ), FIXED(_VALS), right=True, side="left"),
)
_add("searchsorted.Scalar", "searchsorted.Scalar", mk(FIXED(_SEQ), 0.5))
_add("searchsorted.Scalar-right", "searchsorted.Scalar", mk(FIXED(_SEQ), 0.5, right=True))
for _right in (False, True):
    _add(
        f"bucketize.Tensor-right{_right}",
        "bucketize.Tensor",
        mk(FIXED(_VALS), FIXED(_SEQ), right=_right),
    )
_add("bucketize.Tensor-int32", "bucketize.Tensor", mk(T((5,)), FIXED(_SEQ), out_int32=True))
_add("bucketize.Tensor-2d", "bucketize.Tensor", mk(T((5,)), SORTED((2, 3))))
_add("bucketize.Scalar", "bucketize.Scalar", mk(2.0, FIXED(_SEQ)))

# ----------------------------------------------------------------------------- histc
for _dt in ("float32", "float64"):
    _add(f"histc-{_dt}", "histc", mk(T((50,), _dt), 10))
_add("histc-range", "histc", mk(T((40,)), 4, -1, 1))
_add("histc-equal", "histc", mk(FIXED([2.0, 2.0, 2.0]), 4))
_add("histc-edges", "histc", mk(FIXED([0.0, 1.0, 2.0, 3.0, 4.0]), 4, 0, 4))
_add("histc-2d", "histc", mk(T((4, 5)), 5))
_add("histc-int", "histc", mk(T((5,), "int64"), 3))
_add("histc-bins", "histc", mk(T((5,)), -1))
_add("histc-minmax", "histc", mk(T((5,)), 3, 2, 1))

# ----------------------------------------------------------------------------- dist / cdist
for _p in (2, 1, 3, 0, float("inf"), 0.5):
    _add(f"dist-p{_p}", "dist", mk(T((3, 4)), T((4,)), _p))
_add("dist-float64", "dist", mk(T((5,), "float64"), T((5,), "float64")))
_add("dist-shape", "dist", mk(T((3,)), T((4,))))
for _p in (2.0, 1.0, 0.0, 3.0, 0.5, float("inf")):
    _add(f"_cdist_forward-p{_p}", "_cdist_forward", mk(T((2, 3, 4)), T((2, 5, 4)), _p, None))
_add("_cdist_forward-broadcast", "_cdist_forward", mk(T((3, 4)), T((2, 5, 4)), 2.0, None))
_add("_cdist_forward-negp", "_cdist_forward", mk(T((3, 4)), T((5, 4)), -1.0, None))
_add("_cdist_forward-int", "_cdist_forward", mk(T((3, 4), "int64"), T((5, 4), "int64"), 2.0, None))
_add("cdist", "cdist", mk(T((3, 4)), T((5, 4))))
_add("cdist-mm", "cdist", mk(T((30, 4), "float64"), T((5, 4), "float64")), atol=1e-6)
_add("cdist-mode1", "cdist", mk(T((3, 4), "float64"), T((5, 4), "float64"), 2.0, 1), atol=1e-6)
_add("cdist-mode2", "cdist", mk(T((30, 4)), T((5, 4)), 2.0, 2))
_add("cdist-p1", "cdist", mk(T((30, 4)), T((5, 4)), 1.0))
_add("cdist-1d", "cdist", mk(T((3,)), T((5, 3))))
_add("cdist-cols", "cdist", mk(T((3, 2)), T((5, 3))))
_add("cdist-empty", "cdist", mk(T((0, 3)), T((5, 3))))
_add(
    "_euclidean_dist", "_euclidean_dist", mk(T((4, 3), "float64"), T((5, 3), "float64")), atol=1e-6
)

# ----------------------------------------------------------------------------- masked_scatter
for _dt in ("float32", "int64", "bool"):
    _add(f"masked_scatter-{_dt}", "masked_scatter", mk(T((3, 4), _dt), MASK((3, 4)), T((12,), _dt)))
_add("masked_scatter-broadcast", "masked_scatter", mk(T((3, 4)), MASK((4,)), T((3, 4))))
_add(
    "masked_scatter-short",
    "masked_scatter",
    mk(T((3,)), FIXED([True, True, True], "bool"), T((2,))),
    tags=("no_meta",),  # the count of the mask's ones is data
)
_add("masked_scatter-uint8-mask", "masked_scatter", mk(T((3,)), FIXED([1, 0, 1], "uint8"), T((3,))))
_add("masked_scatter-dtype", "masked_scatter", mk(T((3,)), MASK((3,)), T((3,), "float64")))
_add("masked_scatter_", "masked_scatter_", mk(T((2, 3)), MASK((2, 3)), T((2, 4))))
_add("masked_scatter_-noncontig", "masked_scatter_", mk(NC((3, 2)), MASK((3, 2)), T((6,))))
_add(
    "masked_scatter_backward",
    "masked_scatter_backward",
    mk(T((3, 4)), MASK((3, 4)), [2, 7]),
    tags=("no_meta",),  # masked_select: a data-dependent shape
)

# ----------------------------------------------------------------------------- indices / products
for _op in ("tril_indices", "triu_indices"):
    for _args in ((3, 3), (4, 3, 1), (3, 5, -1), (0, 3), (3, 3, 10), (3, 3, -10)):
        _add(f"{_op}-{'x'.join(map(str, _args))}", _op, mk(*_args))
    _add(f"{_op}-int32", _op, mk(3, 4, dtype=lambda M, r: M.int32))
    _add(f"{_op}-float", _op, mk(3, 4, dtype=lambda M, r: M.float32))
    _add(f"{_op}-neg", _op, mk(-1, 3))
_add("cartesian_prod-2", "cartesian_prod", mk([T((3,)), T((2,))]))
_add(
    "cartesian_prod-3", "cartesian_prod", mk([T((2,), "int64"), T((2,), "int64"), T((3,), "int64")])
)
_add("cartesian_prod-1", "cartesian_prod", mk([T((3,))]))
_add("cartesian_prod-2d", "cartesian_prod", mk([T((2, 2))]))
for _r in (0, 1, 2, 3):
    # masked_select makes r >= 2 data-dependent on meta (PyTorch's meta kernel refuses too).
    _tags = ("no_meta",) if _r >= 2 else ()
    _add(f"combinations-r{_r}", "combinations", mk(T((4,)), _r), tags=_tags)
    _add(f"combinations-rep-r{_r}", "combinations", mk(T((3,), "int64"), _r, True), tags=_tags)
_add("combinations-big-r", "combinations", mk(T((2,)), 3), tags=("no_meta",))
_add("combinations-2d", "combinations", mk(T((2, 2))))
_add("combinations-neg", "combinations", mk(T((3,)), -1))
