"""Samples of the sliding-block and pixel-shuffle operators (aten/nn/fold.py; see
tests/ops/harness.py): im2col / col2im with kernel, dilation, padding and stride (overlapping
blocks sum), unbatched inputs, their shape errors; max_unpool2d / 3d (aten/nn/unpool.py);
pixel_shuffle / pixel_unshuffle with batch dims, channels-last inputs and their errors.
Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

from tests.ops.harness import Sample, rand

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: rand(M, r, shape, dt)


def CL(shape: tuple[int, ...]) -> Any:
    return lambda M, r: rand(M, r, shape).contiguous(memory_format=M.channels_last)


def mk(*specs: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return tuple(s(M, r) if callable(s) else s for s in specs), {}

    return make


_I = [1, 1]
_Z = [0, 0]
_add("im2col-basic", "im2col", mk(T((2, 3, 4, 5)), [2, 2], _I, _Z, _I))
_add("im2col-all", "im2col", mk(T((2, 3, 5, 6)), [2, 3], [2, 1], [1, 2], [2, 1]))
_add("im2col-unbatched", "im2col", mk(T((3, 4, 4)), [3, 3], _I, [1, 1], [2, 2]))
_add("im2col-float64", "im2col", mk(T((1, 2, 4, 4), "float64"), [2, 2], _I, _Z, [2, 2]))
_add("im2col-int", "im2col", mk(T((1, 2, 3, 3), "int64"), [2, 2], _I, _Z, _I))
_add("im2col-empty-batch", "im2col", mk(T((0, 2, 3, 3)), [2, 2], _I, _Z, _I))
_add("im2col-too-big", "im2col", mk(T((1, 2, 3, 3)), [4, 4], _I, _Z, _I))
_add("im2col-bad-kernel", "im2col", mk(T((1, 2, 3, 3)), [0, 2], _I, _Z, _I))
_add("im2col-bad-dilation", "im2col", mk(T((1, 2, 3, 3)), [2, 2], [0, 1], _Z, _I))
_add("im2col-bad-padding", "im2col", mk(T((1, 2, 3, 3)), [2, 2], _I, [-1, 0], _I))
_add("im2col-bad-stride", "im2col", mk(T((1, 2, 3, 3)), [2, 2], _I, _Z, [0, 1]))
_add("im2col-bad-rank", "im2col", mk(T((2, 3)), [2, 2], _I, _Z, _I))
_add("im2col-bad-len", "im2col", mk(T((1, 2, 3, 3)), [2], _I, _Z, _I))
_add("col2im-basic", "col2im", mk(T((2, 12, 12)), [4, 5], [2, 2], _I, _Z, _I))
_add("col2im-all", "col2im", mk(T((2, 18, 24)), [5, 6], [2, 3], [2, 1], [1, 2], [2, 1]))
_add("col2im-unbatched", "col2im", mk(T((27, 4)), [4, 4], [3, 3], _I, [1, 1], [2, 2]))
_add("col2im-float64", "col2im", mk(T((1, 8, 4), "float64"), [4, 4], [2, 2], _I, _Z, [2, 2]))
_add("col2im-empty-batch", "col2im", mk(T((0, 8, 4)), [3, 3], [2, 2], _I, _Z, _I))
_add("col2im-bad-planes", "col2im", mk(T((1, 7, 4)), [3, 3], [2, 2], _I, _Z, _I))
_add("col2im-bad-length", "col2im", mk(T((1, 8, 5)), [3, 3], [2, 2], _I, _Z, _I))
_add("col2im-bad-stride", "col2im", mk(T((1, 8, 4)), [3, 3], [2, 2], _I, _Z, [0, 1]))
_add("col2im-bad-rank", "col2im", mk(T((8,)), [3, 3], [2, 2], _I, _Z, _I))
_add("col2im-bad-kernel", "col2im", mk(T((1, 8, 4)), [3, 3], [0, 2], _I, _Z, _I))
_add("col2im-small", "col2im", mk(T((1, 8, 4)), [1, 1], [2, 2], _I, _Z, _I))
for _op, _x, _r in (("pixel_shuffle", (2, 8, 2, 3), 2), ("pixel_unshuffle", (2, 2, 4, 6), 2)):
    _add(f"{_op}-basic", _op, mk(T(_x), _r))
    _add(f"{_op}-batch-dims", _op, mk(T((2, *_x)), _r))
    _add(f"{_op}-3d", _op, mk(T(_x[1:]), _r))
    _add(f"{_op}-int", _op, mk(T(_x, "int64"), _r))
    _add(f"{_op}-channels-last", _op, mk(CL(_x), _r))
    _add(f"{_op}-one", _op, mk(T(_x), 1))
    _add(f"{_op}-zero", _op, mk(T(_x), 0))
    _add(f"{_op}-2d", _op, mk(T((4, 4)), 2))
_add("pixel_shuffle-bad-channels", "pixel_shuffle", mk(T((1, 6, 2, 2)), 2))
_add("pixel_unshuffle-bad-height", "pixel_unshuffle", mk(T((1, 2, 3, 4)), 2))
_add("pixel_unshuffle-bad-width", "pixel_unshuffle", mk(T((1, 2, 4, 3)), 2))


# ----------------------------------------------------------------------------- max unpooling
def IDX(shape: tuple[int, ...], n_out: int) -> Any:
    """Distinct flat indices per plane into an output of n_out positions."""

    def make(M: Any, r: Any) -> Any:
        import numpy as np

        per = int(np.prod(shape[-2:])) if len(shape) >= 2 else shape[-1]
        planes = int(np.prod(shape)) // per
        rows = [r.permutation(n_out)[:per] for _ in range(planes)]
        if not rows:
            return M.from_numpy(np.zeros(shape, np.int64))
        return M.from_numpy(np.stack(rows).reshape(shape).astype(np.int64))

    return make


def IDX3(shape: tuple[int, ...], n_out: int) -> Any:
    def make(M: Any, r: Any) -> Any:
        import numpy as np

        per = int(np.prod(shape[-3:]))
        planes = int(np.prod(shape)) // per
        rows = [r.permutation(n_out)[:per] for _ in range(planes)]
        if not rows:
            return M.from_numpy(np.zeros(shape, np.int64))
        return M.from_numpy(np.stack(rows).reshape(shape).astype(np.int64))

    return make


_add("max_unpool2d-basic", "max_unpool2d", mk(T((2, 3, 2, 3)), IDX((2, 3, 2, 3), 24), [4, 6]))
_add("max_unpool2d-3d", "max_unpool2d", mk(T((3, 2, 2)), IDX((3, 2, 2), 9), [3, 3]))
_add(
    "max_unpool2d-float64",
    "max_unpool2d",
    mk(T((1, 2, 2, 2), "float64"), IDX((1, 2, 2, 2), 16), [4, 4]),
)
_add(
    "max_unpool2d-channels-last",
    "max_unpool2d",
    mk(CL((1, 3, 2, 2)), IDX((1, 3, 2, 2), 16), [4, 4]),
)
# Which invalid index PyTorch names depends on its parallel loop: the message is not compared;
# the index check reads data, which a meta tensor has not.
_add(
    "max_unpool2d-bad-index",
    "max_unpool2d",
    mk(T((1, 1, 2, 2)), IDX((1, 1, 2, 2), 16), [2, 2]),
    tags=("errmsg", "no_meta"),
)
_add("max_unpool2d-float-indices", "max_unpool2d", mk(T((1, 1, 2, 2)), T((1, 1, 2, 2)), [4, 4]))
_add("max_unpool2d-shape", "max_unpool2d", mk(T((1, 2, 2, 2)), IDX((1, 1, 2, 2), 16), [4, 4]))
_add("max_unpool2d-size-len", "max_unpool2d", mk(T((1, 1, 2, 2)), IDX((1, 1, 2, 2), 16), [4]))
_add("max_unpool2d-rank", "max_unpool2d", mk(T((2, 2)), IDX((2, 2), 4), [4, 4]))
_add("max_unpool2d-empty", "max_unpool2d", mk(T((1, 0, 2, 2)), IDX((1, 0, 2, 2), 16), [4, 4]))
_add(
    "max_unpool3d-basic",
    "max_unpool3d",
    mk(T((1, 2, 2, 2, 2)), IDX3((1, 2, 2, 2, 2), 64), [4, 4, 4], [2, 2, 2], [0, 0, 0]),
)
_add(
    "max_unpool3d-4d",
    "max_unpool3d",
    mk(T((2, 1, 2, 3)), IDX3((2, 1, 2, 3), 24), [2, 3, 4], [1, 1, 1], [0, 0, 0]),
)
_add(
    "max_unpool3d-bad-index",
    "max_unpool3d",
    mk(T((1, 1, 2, 2, 2)), IDX3((1, 1, 2, 2, 2), 64), [2, 2, 2], [1, 1, 1], [0, 0, 0]),
    tags=("errmsg", "no_meta"),
)
_add(
    "max_unpool3d-bad-stride",
    "max_unpool3d",
    mk(T((1, 1, 2, 2, 2)), IDX3((1, 1, 2, 2, 2), 8), [2, 2, 2], [0, 1, 1], [0, 0, 0]),
)
_add(
    "max_unpool3d-rank",
    "max_unpool3d",
    mk(T((2, 2, 2)), IDX((2, 2, 2), 8), [2, 2, 2], [1, 1, 1], [0, 0, 0]),
)
