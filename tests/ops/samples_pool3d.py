"""Samples of 3-d pooling and adaptive max pooling (aten/nn/pool3d.py; see tests/ops/harness.py):
max_pool3d_with_indices and avg_pool3d with kernel / stride / padding / dilation / ceil mode,
unbatched inputs, count_include_pad and divisor_override, the adaptive 3-d average and 1-3-d max
forms (uneven bins), the backward operators, and the shape and argument errors. Sample ids are
`<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

from tests.ops.harness import Sample, rand

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: rand(M, r, shape, dt)


def mk(*specs: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return tuple(s(M, r) if callable(s) else s for s in specs), {}

    return make


_X = (2, 3, 5, 6, 7)
_MP = "max_pool3d_with_indices"
_add(f"{_MP}-basic", _MP, mk(T(_X), [2, 2, 2]))
_add(f"{_MP}-all", _MP, mk(T(_X), [2, 3, 2], [2, 2, 1], [1, 1, 0], [1, 1, 2], True))
_add(f"{_MP}-ceil", _MP, mk(T(_X), [3, 3, 3], [2, 2, 2], [0, 1, 1], [1, 1, 1], True))
_add(f"{_MP}-unbatched", _MP, mk(T((3, 4, 4, 5)), [2], [1], [1]))
_add(f"{_MP}-f64", _MP, mk(T((1, 2, 4, 4, 4), "float64"), [3, 2, 2], [1, 2, 2]))
_add(f"{_MP}-int", _MP, mk(T((1, 2, 4, 4, 4), "int64"), [2, 2, 2]))
_add(f"{_MP}-bf16", _MP, mk(T((1, 2, 4, 4, 4), "bfloat16"), [2, 2, 2]))
_add(f"{_MP}-empty-batch", _MP, mk(T((0, 2, 4, 4, 4)), [2, 2, 2]))
_add(f"{_MP}-max-pool3d", "max_pool3d", mk(T(_X), [2, 2, 3], [1, 2, 2], [1, 0, 1]))
_add(f"{_MP}-err-rank", _MP, mk(T((4, 4, 4)), [2, 2, 2]))
_add(f"{_MP}-err-kernel-len", _MP, mk(T(_X), [2, 2]))
_add(f"{_MP}-err-stride-len", _MP, mk(T(_X), [2, 2, 2], [1, 1]))
_add(f"{_MP}-err-padding-len", _MP, mk(T(_X), [2, 2, 2], [], [1, 1]))
_add(f"{_MP}-err-dilation-len", _MP, mk(T(_X), [2, 2, 2], [], [0], [1, 1]))
_add(f"{_MP}-err-pad", _MP, mk(T(_X), [2, 2, 2], [], [2, 0, 0]))
_add(f"{_MP}-err-kernel-zero", _MP, mk(T(_X), [0, 2, 2]))
_add(f"{_MP}-err-dilation-zero", _MP, mk(T(_X), [2, 2, 2], [], [0], [1, 0, 1]))
_add(f"{_MP}-err-small", _MP, mk(T((1, 1, 1, 4, 4)), [2, 2, 2]))
_add(f"{_MP}-err-empty-channel", _MP, mk(T((1, 0, 4, 4, 4)), [2, 2, 2]))
_add(f"{_MP}-err-bool", _MP, mk(T((1, 2, 4, 4, 4), "bool"), [2, 2, 2]))

_AP = "avg_pool3d"
_add(f"{_AP}-basic", _AP, mk(T(_X), [2, 2, 2]))
_add(f"{_AP}-pad", _AP, mk(T(_X), [3, 3, 3], [2, 2, 2], [1, 1, 1]))
_add(f"{_AP}-pad-exclude", _AP, mk(T(_X), [3, 3, 3], [2, 2, 2], [1, 1, 1], False, False))
_add(f"{_AP}-ceil", _AP, mk(T(_X), [2, 3, 2], [2, 2, 2], [1, 0, 1], True, True))
_add(f"{_AP}-ceil-exclude", _AP, mk(T(_X), [2, 3, 2], [2, 2, 2], [1, 0, 1], True, False))
_add(f"{_AP}-divisor", _AP, mk(T(_X), [2, 2, 2], [], [0], False, True, 3))
_add(f"{_AP}-unbatched", _AP, mk(T((3, 4, 4, 5)), [2], [1], [1]))
_add(f"{_AP}-f64", _AP, mk(T((1, 2, 4, 4, 4), "float64"), [2, 2, 2], [1, 1, 1]))
_add(f"{_AP}-int", _AP, mk(T((1, 2, 4, 4, 4), "int64"), [2, 2, 2]))
_add(f"{_AP}-bf16", _AP, mk(T((1, 2, 4, 4, 4), "bfloat16"), [2, 2, 2]))
_add(f"{_AP}-err-divisor", _AP, mk(T(_X), [2, 2, 2], [], [0], False, True, 0))
_add(f"{_AP}-err-rank", _AP, mk(T((4, 4, 4)), [2, 2, 2]))
_add(f"{_AP}-err-kernel-len", _AP, mk(T(_X), [2, 2]))
_add(f"{_AP}-err-stride-len", _AP, mk(T(_X), [2, 2, 2], [1, 1]))
_add(f"{_AP}-err-pad", _AP, mk(T(_X), [2, 2, 2], [], [0, 2, 0]))
_add(f"{_AP}-err-too-big", _AP, mk(T((1, 1, 2, 4, 4)), [3, 2, 2], [], [1, 0, 0]))
_add(f"{_AP}-err-bool", _AP, mk(T((1, 2, 4, 4, 4), "bool"), [2, 2, 2]))

_AA = "_adaptive_avg_pool3d"
_add(f"{_AA}-basic", _AA, mk(T(_X), [2, 3, 4]))
_add(f"{_AA}-up", _AA, mk(T((1, 2, 2, 3, 3)), [3, 4, 5]))
_add(f"{_AA}-unbatched", _AA, mk(T((3, 5, 5, 5)), [2, 2, 3]))
_add(f"{_AA}-f64", _AA, mk(T((1, 2, 4, 5, 3), "float64"), [3, 3, 2]))
_add(f"{_AA}-err-len", _AA, mk(T(_X), [2, 2]))
_add(f"{_AA}-err-rank", _AA, mk(T((4, 4, 4)), [2, 2, 2]))
_add(f"{_AA}-err-int", _AA, mk(T(_X, "int64"), [2, 2, 2]))
_add(f"{_AA}-err-empty", _AA, mk(T((1, 2, 0, 4, 4)), [2, 2, 2]))
_add("adaptive_avg_pool3d-ones", "adaptive_avg_pool3d", mk(T(_X), [1, 1, 1]))
_add("adaptive_avg_pool3d-basic", "adaptive_avg_pool3d", mk(T(_X), [3, 2, 2]))
_add("adaptive_avg_pool3d-err-negative", "adaptive_avg_pool3d", mk(T(_X), [3, -1, 2]))

for _nd, _shape, _out in ((2, (2, 3, 7, 5), [3, 4]), (3, (2, 3, 5, 4, 7), [2, 3, 4])):
    _op = f"adaptive_max_pool{_nd}d"
    _add(f"{_op}-basic", _op, mk(T(_shape), _out))
    _add(f"{_op}-up", _op, mk(T((1, 2, *([3] * _nd))), [5] * _nd))
    _add(f"{_op}-unbatched", _op, mk(T(_shape[1:]), _out))
    _add(f"{_op}-f64", _op, mk(T(_shape, "float64"), _out))
    _add(f"{_op}-bf16", _op, mk(T(_shape, "bfloat16"), _out))
    _add(f"{_op}-err-len", _op, mk(T(_shape), [2] * (_nd - 1)))
    _add(f"{_op}-err-rank", _op, mk(T((4,) * (_nd - 1)), [2] * _nd))
    _add(f"{_op}-err-int", _op, mk(T(_shape, "int64"), _out))
    _add(f"{_op}-err-empty", _op, mk(T((1, 0, *([4] * _nd))), _out))
_add("adaptive_max_pool1d-basic", "adaptive_max_pool1d", mk(T((2, 3, 7)), [3]))
_add("adaptive_max_pool1d-unbatched", "adaptive_max_pool1d", mk(T((3, 7)), [4]))
_add("adaptive_max_pool1d-err-rank", "adaptive_max_pool1d", mk(T((7,)), [4]))
_add("adaptive_avg_pool1d-basic", "adaptive_avg_pool1d", mk(T((2, 3, 7)), [3]))
_add("adaptive_avg_pool1d-err-rank", "adaptive_avg_pool1d", mk(T((7,)), [4]))


# The backward operators, with the indices PyTorch's forward gives (argmax of the window).
def _with_indices(op: str, shape: tuple[int, ...], *params: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        x = rand(M, r, shape)
        out, idx = getattr(M.ops.aten, op).default(x, *params)
        g = rand(M, r, tuple(out.shape))
        return (g, x, idx) if op.startswith("adaptive") else (g, x, *params, idx), {}

    return make


_add(
    f"{_MP}_backward-basic",
    f"{_MP}_backward",
    _with_indices(_MP, _X, [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], False),
)
_add(
    f"{_MP}_backward-overlap",
    f"{_MP}_backward",
    _with_indices(_MP, _X, [3, 2, 3], [1, 1, 2], [1, 1, 1], [1, 2, 1], True),
)
_add(
    "adaptive_max_pool2d_backward-basic",
    "adaptive_max_pool2d_backward",
    _with_indices("adaptive_max_pool2d", (2, 3, 7, 5), [3, 4]),
)
_add(
    "adaptive_max_pool3d_backward-basic",
    "adaptive_max_pool3d_backward",
    _with_indices("adaptive_max_pool3d", (1, 2, 5, 4, 3), [2, 3, 2]),
)
_add(
    f"{_AP}_backward-basic",
    f"{_AP}_backward",
    mk(T((2, 3, 2, 3, 3)), T(_X), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, None),
)
_add(
    f"{_AP}_backward-pad",
    f"{_AP}_backward",
    mk(T((2, 3, 3, 4, 4)), T(_X), [3, 3, 3], [2, 2, 2], [1, 1, 1], False, False, None),
)
_add(
    f"{_AP}_backward-ceil",
    f"{_AP}_backward",
    mk(T((2, 3, 3, 3, 4)), T(_X), [2, 3, 2], [2, 2, 2], [1, 0, 1], True, True, 5),
)
_add(
    f"{_AP}_backward-err-grad",
    f"{_AP}_backward",
    mk(T((2, 3, 2, 3, 2)), T(_X), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, None),
)
_add(
    f"{_MP}_backward-err-grad",
    f"{_MP}_backward",
    mk(
        T((2, 3, 2, 3, 2)),
        T(_X),
        [2, 2, 2],
        [2, 2, 2],
        [0, 0, 0],
        [1, 1, 1],
        False,
        lambda M, r: M.zeros((2, 3, 2, 3, 2), dtype=M.int64),
    ),
)
_add(f"{_AA}_backward-basic", f"{_AA}_backward", mk(T((2, 3, 2, 3, 4)), T(_X)))
_add("max_pool1d_with_indices-basic", "max_pool1d_with_indices", mk(T((2, 3, 9)), [3], [2], [1]))
_add("max_pool1d_with_indices-default", "max_pool1d_with_indices", mk(T((3, 8)), [2]))
_add("max_pool1d_with_indices-err-rank", "max_pool1d_with_indices", mk(T((8,)), [2]))
