"""Samples of the anti-aliased interpolation operators (aten/nn/upsample_aa.py; see
tests/ops/harness.py): _upsample_bilinear2d_aa and _upsample_bicubic2d_aa down and up, with
align_corners both ways, explicit scales, float64 and channels-last inputs, the .vec
overloads, the _backward operators, and their errors. Sample ids are `<op>-<case>`.
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


X = (2, 3, 12, 17)
for _op in ("_upsample_bilinear2d_aa", "_upsample_bicubic2d_aa"):
    for _ac in (False, True):
        a = "align" if _ac else "noalign"
        _add(f"{_op}-down-{a}", _op, mk(T(X), [5, 6], _ac))
        _add(f"{_op}-down-odd-{a}", _op, mk(T(X), [7, 4], _ac))
        _add(f"{_op}-up-{a}", _op, mk(T((1, 2, 4, 5)), [9, 11], _ac))
        _add(f"{_op}-mixed-{a}", _op, mk(T(X), [20, 5], _ac))
        _add(f"{_op}-one-{a}", _op, mk(T(X), [1, 1], _ac))
        _add(f"{_op}-same-{a}", _op, mk(T(X), [12, 17], _ac))
        _add(f"{_op}-scales-{a}", _op, mk(T(X), [4, 5], _ac, 1 / 3, 0.3))
        _add(f"{_op}-float64-{a}", _op, mk(T(X, "float64"), [5, 6], _ac))
        _add(f"{_op}-channels-last-{a}", _op, mk(CL(X), [5, 6], _ac))
        bw = f"{_op}_backward"
        _add(f"{bw}-down-{a}", bw, mk(T((2, 3, 5, 6)), [5, 6], list(X), _ac))
        _add(f"{bw}-up-{a}", bw, mk(T((1, 2, 9, 11)), [9, 11], [1, 2, 4, 5], _ac))
        _add(f"{bw}-mixed-{a}", bw, mk(T((2, 3, 20, 5)), [20, 5], list(X), _ac))
        _add(f"{bw}-float64-{a}", bw, mk(T((2, 3, 5, 6), "float64"), [5, 6], list(X), _ac))
        _add(f"{bw}-scales-{a}", bw, mk(T((2, 3, 4, 5)), [4, 5], list(X), _ac, 1 / 3, 0.3))
    _add(f"{_op}.vec-size", f"{_op}.vec", mk(T(X), [5, 6], False, None))
    _add(f"{_op}.vec-scale", f"{_op}.vec", mk(T(X), None, False, [0.4, 0.3]))
    _add(f"{_op}.vec-scale-align", f"{_op}.vec", mk(T(X), None, True, [0.4, 0.3]))
    # errors and edges
    _add(f"{_op}-int", _op, mk(T(X, "int64"), [5, 6], False))
    _add(f"{_op}-uint8", _op, mk(T(X, "uint8"), [5, 6], False))
    _add(f"{_op}-zero-out", _op, mk(T(X), [0, 3], False))
    _add(f"{_op}-bad-size", _op, mk(T(X), [4, 4, 4], False))
    _add(f"{_op}-bad-rank", _op, mk(T(X[1:]), [4, 4], False))
    _add(f"{_op}-empty-batch", _op, mk(T((0, 3, 12, 17)), [5, 6], False))
    _add(f"{_op}-empty-channels", _op, mk(T((2, 0, 12, 17)), [5, 6], False))
    _add(f"{_op}_backward-bad-grad", f"{_op}_backward",
         mk(T((2, 3, 5, 7)), [5, 6], list(X), False))  # fmt: skip
