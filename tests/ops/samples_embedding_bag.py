"""Samples of embedding_bag (aten/nn/embedding_bag.py; see tests/ops/harness.py): the backend
operators _embedding_bag / _embedding_bag_forward_only in each mode (all four results:
offset2bag empty on the fast sum path, bag sizes, max indices), per-sample weights, padding,
include_last_offset, empty bags, int32 / mixed index dtypes, float64 and bfloat16 weights, the
public embedding_bag overloads, the backward operators, and the errors. Sample ids are
`<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

from tests.ops.harness import Sample, rand

SAMPLES: list[Sample] = []
# errors found in the index and offset values: the CPU kernel's, not the meta function's
_VALUES = ("no_meta",)


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: rand(M, r, shape, dt)


def L(values: list[int], dt: str = "int64") -> Any:
    return lambda M, r: M.tensor(values, dtype=getattr(M, dt))


def mk(*specs: Any, **kw: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args = tuple(s(M, r) if callable(s) else s for s in specs)
        return args, {k: (v(M, r) if callable(v) else v) for k, v in kw.items()}

    return make


_W = T((6, 3))
_I = L([0, 2, 2, 5, 1, 3, 3])
_O = L([0, 2, 2, 5])
for _op in ("_embedding_bag", "_embedding_bag_forward_only"):
    for _mode, _mname in ((0, "sum"), (1, "mean"), (2, "max")):
        _add(f"{_op}-{_mname}", _op, mk(_W, _I, _O, False, _mode))
        _add(f"{_op}-{_mname}-pad", _op, mk(_W, _I, _O, False, _mode, False, None, False, 2))
        _add(
            f"{_op}-{_mname}-last",
            _op,
            mk(_W, _I, L([0, 2, 5, 7]), False, _mode, False, None, True),
        )
        _add(
            f"{_op}-{_mname}-last-short", _op,
            mk(_W, _I, L([0, 2, 5]), False, _mode, False, None, True),
        )  # fmt: skip
        _add(f"{_op}-{_mname}-f64", _op, mk(T((6, 3), "float64"), _I, _O, False, _mode))
        _add(f"{_op}-{_mname}-bf16", _op, mk(T((6, 3), "bfloat16"), _I, _O, False, _mode))
        _add(
            f"{_op}-{_mname}-int32",
            _op,
            mk(_W, L([0, 2, 2, 5], "int32"), L([0, 1], "int32"), False, _mode),
        )
        _add(
            f"{_op}-{_mname}-mixed", _op, mk(_W, L([0, 2, 2, 5], "int32"), L([0, 1]), False, _mode)
        )
        _add(f"{_op}-{_mname}-empty", _op, mk(_W, L([]), L([0, 0]), False, _mode))
        if _mode == 0:  # PyTorch crashes (SIGSEGV) without offsets: in max mode, and in
            # mean mode's backward
            _add(f"{_op}-{_mname}-no-bags", _op, mk(_W, _I, L([]), False, _mode))
    _add(f"{_op}-psw", _op, mk(_W, _I, _O, False, 0, False, T((7,))))
    _add(f"{_op}-psw-pad", _op, mk(_W, _I, _O, False, 0, False, T((7,)), False, 3))
    _add(
        f"{_op}-psw-f64", _op, mk(T((6, 3), "float64"), _I, _O, False, 0, False, T((7,), "float64"))
    )
    _add(f"{_op}-psw-mean", _op, mk(_W, _I, _O, False, 1, False, T((7,))))
    _add(f"{_op}-psw-dtype", _op, mk(_W, _I, _O, False, 0, False, T((7,), "float64")))
    _add(f"{_op}-psw-numel", _op, mk(_W, _I, _O, False, 0, False, T((6,))))
    _add(f"{_op}-strided-weight", _op, mk(lambda M, r: rand(M, r, (3, 6)).t(), _I, _O, False, 0))
    _add(f"{_op}-err-offset0", _op, mk(_W, _I, L([1, 3]), False, 0), tags=_VALUES)
    _add(f"{_op}-err-offset-last", _op, mk(_W, _I, L([0, 9]), False, 1), tags=_VALUES)
    _add(f"{_op}-err-index", _op, mk(_W, L([0, 6]), L([0]), False, 1), tags=_VALUES)
    _add(f"{_op}-err-index-fast", _op, mk(_W, L([0, 7]), L([0]), False, 0), tags=_VALUES)
    _add(f"{_op}-err-index-neg", _op, mk(_W, L([0, -1]), L([0]), False, 2), tags=_VALUES)
    _add(f"{_op}-err-float-index", _op, mk(_W, T((3,)), _O, False, 0))
    _add(f"{_op}-err-int-weight", _op, mk(T((6, 3), "int64"), _I, _O, False, 0))
    _add(f"{_op}-err-3d-index", _op, mk(_W, L([[[0]]]), _O, False, 0))
    _add(f"{_op}-err-2d-offsets", _op, mk(_W, _I, L([[0, 2]]), False, 0))
    _add(f"{_op}-err-last-empty", _op, mk(_W, _I, L([]), False, 0, False, None, True))
_add("embedding_bag-default", "embedding_bag", mk(_W, _I, _O))
_add("embedding_bag-mean", "embedding_bag", mk(_W, _I, _O, False, 1))
_add(
    "embedding_bag.padding_idx-neg",
    "embedding_bag.padding_idx",
    mk(_W, _I, _O, False, 1, False, None, False, -4),
)
_add(
    "embedding_bag.padding_idx-none",
    "embedding_bag.padding_idx",
    mk(_W, _I, _O, False, 2, False, None, False, None),
)
_add(
    "embedding_bag.padding_idx-bad",
    "embedding_bag.padding_idx",
    mk(_W, _I, _O, False, 0, False, None, False, 6),
)
_add(
    "embedding_bag.padding_idx-bad-neg",
    "embedding_bag.padding_idx",
    mk(_W, _I, _O, False, 0, False, None, False, -7),
)

# The backward operators, fed with the forward's own bookkeeping (as autograd does).
_O2B = L([0, 0, 2, 2, 2, 3, 3])
_SIZES = L([2, 0, 3, 2])
_add(
    "_embedding_bag_dense_backward-sum",
    "_embedding_bag_dense_backward",
    mk(T((4, 3)), _I, _O2B, _SIZES, _SIZES, 6, False, 0, None),
)
_add(
    "_embedding_bag_dense_backward-mean",
    "_embedding_bag_dense_backward",
    mk(T((4, 3)), _I, _O2B, _SIZES, _SIZES, 6, False, 1, None),
)
_add(
    "_embedding_bag_dense_backward-freq",
    "_embedding_bag_dense_backward",
    mk(T((4, 3)), _I, _O2B, _SIZES, _SIZES, 6, True, 0, None),
)
_add(
    "_embedding_bag_dense_backward-freq-mean",
    "_embedding_bag_dense_backward",
    mk(T((4, 3), "float64"), _I, _O2B, _SIZES, _SIZES, 7, True, 1, None, 3),
)
_add(
    "_embedding_bag_dense_backward-psw",
    "_embedding_bag_dense_backward",
    mk(T((4, 3)), _I, _O2B, _SIZES, _SIZES, 6, False, 0, T((7,)), 2),
)
_add(
    "_embedding_bag_dense_backward-max",
    "_embedding_bag_dense_backward",
    mk(
        T((4, 3)),
        _I,
        _O2B,
        _SIZES,
        L([[0, 2, 0], [0, 0, 0], [5, 1, 2], [3, 3, 3]]),
        6,
        False,
        2,
        None,
    ),
)
_add(
    "_embedding_bag_dense_backward-int",
    "_embedding_bag_dense_backward",
    mk(T((4, 3), "int64"), _I, _O2B, _SIZES, _SIZES, 6, False, 0, None),
)
_add(
    "_embedding_bag_backward-rebuild",
    "_embedding_bag_backward",
    mk(T((4, 3)), _I, _O, L([]), _SIZES, _SIZES, 6, False, 0, False, None),
)
_add(
    "_embedding_bag_backward-mean",
    "_embedding_bag_backward",
    mk(T((4, 3)), _I, _O, _O2B, _SIZES, _SIZES, 6, False, 1, False, None, 5),
)
_add(
    "_embedding_bag_per_sample_weights_backward-basic",
    "_embedding_bag_per_sample_weights_backward",
    mk(T((4, 3)), _W, _I, _O, _O2B, 0),
)
_add(
    "_embedding_bag_per_sample_weights_backward-rebuild",
    "_embedding_bag_per_sample_weights_backward",
    mk(T((4, 3)), _W, _I, _O, L([]), 0, 3),
)
_add(
    "_embedding_bag_per_sample_weights_backward-mean",
    "_embedding_bag_per_sample_weights_backward",
    mk(T((4, 3)), _W, _I, _O, _O2B, 1),
)
