"""Samples of the interpolation operators (aten/nn/upsample.py; see tests/ops/harness.py):
every upsample_* operator up and down, with explicit scales, align_corners, float64 and
channels-last inputs, the .vec overloads (output_size or scale_factors), the _backward
operators, and their errors. Sample ids are `<op>-<case>`.
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


def mk(*specs: Any, **kwspecs: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            return s(M, r) if callable(s) else s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


_SHAPES = {1: (2, 3, 5), 2: (2, 3, 4, 5), 3: (1, 2, 3, 4, 5)}
_UP = {1: [11], 2: [7, 9], 3: [5, 6, 7]}
_DOWN = {1: [3], 2: [3, 2], 3: [2, 3, 2]}
_TWICE = {1: [10], 2: [8, 10], 3: [6, 8, 10]}
_OPS = {
    "upsample_nearest1d": (1, False),
    "upsample_nearest2d": (2, False),
    "upsample_nearest3d": (3, False),
    "_upsample_nearest_exact1d": (1, False),
    "_upsample_nearest_exact2d": (2, False),
    "_upsample_nearest_exact3d": (3, False),
    "upsample_linear1d": (1, True),
    "upsample_bilinear2d": (2, True),
    "upsample_trilinear3d": (3, True),
    "upsample_bicubic2d": (2, True),
}

for _op, (_nd, _align) in _OPS.items():
    x = _SHAPES[_nd]
    ac: tuple[Any, ...] = (False,) if _align else ()
    _add(f"{_op}-up", _op, mk(T(x), _UP[_nd], *ac))
    _add(f"{_op}-down", _op, mk(T(x), _DOWN[_nd], *ac))
    _add(f"{_op}-same", _op, mk(T(x), list(x[2:]), *ac))
    _add(f"{_op}-float64", _op, mk(T(x, "float64"), _UP[_nd], *ac))
    _add(f"{_op}-scales", _op, mk(T(x), _TWICE[_nd], *ac, *([2.0] * _nd)))
    _add(f"{_op}-odd-scales", _op, mk(T(x), _UP[_nd], *ac, *([1.7] * _nd)))
    _add(f"{_op}-int", _op, mk(T(x, "int64"), _UP[_nd], *ac))
    _add(f"{_op}-zero-out", _op, mk(T(x), [0] * _nd, *ac))
    _add(f"{_op}-bad-size", _op, mk(T(x), [4] * (_nd + 1), *ac))
    _add(f"{_op}-bad-rank", _op, mk(T(x[1:]), _UP[_nd], *ac))
    _add(f"{_op}-empty-batch", _op, mk(T((0, *x[1:])), _UP[_nd], *ac))
    _add(f"{_op}-empty-channels", _op, mk(T((1, 0, *x[2:])), _UP[_nd], *ac))
    if _align:
        _add(f"{_op}-align", _op, mk(T(x), _UP[_nd], True))
        _add(f"{_op}-align-down", _op, mk(T(x), _DOWN[_nd], True))
        _add(f"{_op}-align-one", _op, mk(T(x), [1] * _nd, True))
    if _nd == 2:
        _add(f"{_op}-channels-last", _op, mk(CL(x), _UP[_nd], *ac))
    # .vec: output_size or scale_factors (one of them)
    _add(f"{_op}.vec-size", f"{_op}.vec", mk(T(x), _UP[_nd], *ac, None))
    _add(f"{_op}.vec-scale", f"{_op}.vec", mk(T(x), None, *ac, [1.5] * _nd))
    _add(f"{_op}.vec-scale-down", f"{_op}.vec", mk(T(x), None, *ac, [0.6] * _nd))
    _add(f"{_op}.vec-both", f"{_op}.vec", mk(T(x), _UP[_nd], *ac, [2.0] * _nd))
    _add(f"{_op}.vec-neither", f"{_op}.vec", mk(T(x), None, *ac, None))
    _add(f"{_op}.vec-bad-len", f"{_op}.vec", mk(T(x), None, *ac, [2.0] * (_nd + 1)))
    # backward operators
    gshape = (*x[:2], *_UP[_nd])
    _add(f"{_op}_backward", f"{_op}_backward", mk(T(gshape), _UP[_nd], list(x), *ac))
    _add(
        f"{_op}_backward-down",
        f"{_op}_backward",
        mk(T((*x[:2], *_DOWN[_nd])), _DOWN[_nd], list(x), *ac),
    )
    _add(
        f"{_op}_backward-float64-scales",
        f"{_op}_backward",
        mk(T((*x[:2], *_UP[_nd]), "float64"), _UP[_nd], list(x), *ac, *([1.7] * _nd)),
    )
    if _align:
        _add(f"{_op}_backward-align", f"{_op}_backward", mk(T(gshape), _UP[_nd], list(x), True))
    _add(
        f"{_op}_backward-bad-grad",
        f"{_op}_backward",
        mk(T((*x[:2], *_DOWN[_nd])), _UP[_nd], list(x), *ac),
    )
