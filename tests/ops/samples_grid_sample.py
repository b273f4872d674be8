"""Samples of the spatial transformer operators (aten/nn/grid_sample.py; see
tests/ops/harness.py): grid_sampler_2d in each mode / padding / align_corners (grid points
inside and outside [-1, 1]), the grid_sampler front end, its backward operator, and
affine_grid_generator for 2-d and 3-d sizes, with their errors. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

from tests.ops.harness import Sample, rand

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32", lo: float = -3, hi: float = 3) -> Any:
    return lambda M, r: rand(M, r, shape, dt, lo, hi)


def GRID(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return T(shape, dt, -1.3, 1.3)


def mk(*specs: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return tuple(s(M, r) if callable(s) else s for s in specs), {}

    return make


_X, _G = (2, 3, 5, 6), (2, 4, 7, 2)
for _mode, _mname in ((0, "bilinear"), (1, "nearest")):
    for _pad, _pname in ((0, "zeros"), (1, "border"), (2, "reflection")):
        for _ac in (False, True):
            sid = f"{_mname}-{_pname}-{'align' if _ac else 'noalign'}"
            _add(f"grid_sampler_2d-{sid}", "grid_sampler_2d", mk(T(_X), GRID(_G), _mode, _pad, _ac))
            _add(
                f"grid_sampler_2d_backward-{sid}",
                "grid_sampler_2d_backward",
                mk(T((2, 3, 4, 7)), T(_X), GRID(_G), _mode, _pad, _ac, [True, True]),
                atol=1e-4,
                rtol=1e-4,
            )
_add(
    "grid_sampler_2d-float64",
    "grid_sampler_2d",
    mk(T(_X, "float64"), GRID(_G, "float64"), 0, 0, False),
)
_add("grid_sampler_2d-dtypes", "grid_sampler_2d", mk(T(_X), GRID(_G, "float64"), 0, 0, False))
_add("grid_sampler_2d-batch", "grid_sampler_2d", mk(T(_X), GRID((3, 4, 7, 2)), 0, 0, False))
_add("grid_sampler_2d-last", "grid_sampler_2d", mk(T(_X), GRID((2, 4, 7, 3)), 0, 0, False))
_add("grid_sampler_2d-rank", "grid_sampler_2d", mk(T(_X), GRID((2, 4, 2)), 0, 0, False))
_add("grid_sampler_2d-empty", "grid_sampler_2d", mk(T((2, 3, 0, 6)), GRID(_G), 0, 0, False))
_add(
    "grid_sampler_2d-one-pixel",
    "grid_sampler_2d",
    mk(T((1, 2, 1, 1)), GRID((1, 3, 3, 2)), 0, 2, True),
)
_add("grid_sampler-2d", "grid_sampler", mk(T(_X), GRID(_G), 0, 1, False))
_add(
    "grid_sampler_2d_backward-input-only",
    "grid_sampler_2d_backward",
    mk(T((2, 3, 4, 7)), T(_X), GRID(_G), 0, 0, False, [True, False]),
    atol=1e-4,
    rtol=1e-4,
)
_add(
    "grid_sampler_2d_backward-grid-only",
    "grid_sampler_2d_backward",
    mk(T((2, 3, 4, 7)), T(_X), GRID(_G), 0, 0, False, [False, True]),
    atol=1e-4,
    rtol=1e-4,
)
for _ac in (False, True):
    _add(
        f"affine_grid_generator-2d-{_ac}",
        "affine_grid_generator",
        mk(T((2, 2, 3)), [2, 3, 4, 5], _ac),
    )
    _add(
        f"affine_grid_generator-3d-{_ac}",
        "affine_grid_generator",
        mk(T((1, 3, 4)), [1, 2, 3, 4, 2], _ac),
    )
    _add(
        f"affine_grid_generator-unit-{_ac}",
        "affine_grid_generator",
        mk(T((1, 2, 3)), [1, 1, 1, 3], _ac),
    )
_add(
    "affine_grid_generator-float64",
    "affine_grid_generator",
    mk(T((2, 2, 3), "float64"), [2, 1, 3, 3], False),
)
_add("affine_grid_generator-bad-size", "affine_grid_generator", mk(T((2, 2, 3)), [2, 3, 4], False))
_add(
    "affine_grid_generator_backward",
    "affine_grid_generator_backward",
    mk(T((2, 4, 5, 2)), [2, 3, 4, 5], False),
)
