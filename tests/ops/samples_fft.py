"""Samples of torch.fft's operators (aten/fft.py; see tests/ops/harness.py): the three
transforms with each normalization and layout (contiguous, transposed, batch dims in any
stride order), the fft_* front ends with n / s / dim / norm (padding and truncation, dtype
promotion, lazily conjugated inverse results), fftfreq / rfftfreq and the shifts, and their
errors. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

from tests.ops.harness import Sample, noncontig, rand

SAMPLES: list[Sample] = []


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: rand(M, r, shape, dt)


def NC(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: noncontig(M, r, shape, dt)


def PERM(shape: tuple[int, ...], perm: tuple[int, ...], dt: str = "float32") -> Any:
    """A permuted view: batch dims whose strides are not in dim order."""
    return lambda M, r: rand(M, r, shape, dt).permute(*perm)


def mk(*specs: Any, **kwspecs: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            return s(M, r) if callable(s) else s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


# ----------------------------------------------------------------------------- transforms
for _dt in ("float32", "float64"):
    for _norm in (0, 1, 2):
        _add(f"_fft_r2c-{_dt}-norm{_norm}", "_fft_r2c", mk(T((3, 8), _dt), [1], _norm, True))
        _add(
            f"_fft_c2c-{_dt}-norm{_norm}",
            "_fft_c2c",
            mk(T((3, 5), "complex" + str(2 * int(_dt[5:]))), [1], _norm, True),
        )
        _add(
            f"_fft_c2r-{_dt}-norm{_norm}",
            "_fft_c2r",
            mk(T((3, 5), "complex" + str(2 * int(_dt[5:]))), [1], _norm, 8),
        )
_add("_fft_r2c-twosided", "_fft_r2c", mk(T((4, 6)), [1], 0, False))
_add("_fft_r2c-dim0", "_fft_r2c", mk(T((6, 4)), [0], 0, True))
_add("_fft_r2c-2d", "_fft_r2c", mk(T((2, 4, 6)), [1, 2], 2, True))
_add("_fft_r2c-2d-rev", "_fft_r2c", mk(T((2, 4, 6)), [2, 0], 0, True))
_add("_fft_r2c-noncontig", "_fft_r2c", mk(NC((4, 6)), [1], 0, True))
_add("_fft_r2c-perm-batch", "_fft_r2c", mk(PERM((3, 4, 5), (1, 0, 2)), [2], 0, True))
_add("_fft_r2c-complex", "_fft_r2c", mk(T((4,), "complex64"), [0], 0, True))
_add("_fft_c2c-inverse", "_fft_c2c", mk(T((4, 6), "complex64"), [1], 2, False))
_add("_fft_c2c-dim0", "_fft_c2c", mk(T((6, 4), "complex64"), [0], 0, True))
_add("_fft_c2c-3d", "_fft_c2c", mk(T((2, 3, 4), "complex128"), [0, 1, 2], 1, True))
_add("_fft_c2c-perm-batch", "_fft_c2c", mk(PERM((3, 4, 5), (2, 0, 1), "complex64"), [1], 0, True))
_add("_fft_c2c-nodims", "_fft_c2c", mk(T((3,), "complex64"), [], 0, True))
_add("_fft_c2c-real", "_fft_c2c", mk(T((4,)), [0], 0, True))
_add("_fft_c2r-odd", "_fft_c2r", mk(T((3, 4), "complex64"), [1], 2, 7))
_add("_fft_c2r-dim0", "_fft_c2r", mk(T((5, 3), "complex64"), [0], 2, 8))
_add("_fft_c2r-2d", "_fft_c2r", mk(T((2, 4, 5), "complex64"), [1, 2], 2, 8))
_add("_fft_c2r-2d-rev", "_fft_c2r", mk(T((4, 3, 5), "complex64"), [2, 0], 2, 6))
_add("_fft_c2r-real", "_fft_c2r", mk(T((4,)), [0], 0, 6))

# ----------------------------------------------------------------------------- 1-d front ends
for _name in ("fft", "ifft", "rfft", "ihfft"):
    _add(f"fft_{_name}-float32", f"fft_{_name}", mk(T((3, 8))))
    _add(f"fft_{_name}-float64", f"fft_{_name}", mk(T((8,), "float64")))
    _add(f"fft_{_name}-int64", f"fft_{_name}", mk(T((6,), "int64")))
    _add(f"fft_{_name}-pad", f"fft_{_name}", mk(T((2, 5)), 8))
    _add(f"fft_{_name}-trunc", f"fft_{_name}", mk(T((2, 7)), 4, 1, "ortho"))
    _add(f"fft_{_name}-dim0", f"fft_{_name}", mk(T((6, 3)), None, 0, "forward"))
    _add(f"fft_{_name}-noncontig", f"fft_{_name}", mk(NC((5, 4)), None, -1, "backward"))
    _add(f"fft_{_name}-bad-norm", f"fft_{_name}", mk(T((4,)), None, -1, "sideways"))
    _add(f"fft_{_name}-n0", f"fft_{_name}", mk(T((4,)), 0))
    _add(f"fft_{_name}-half", f"fft_{_name}", mk(T((4,), "float16")))
    _add(f"fft_{_name}-0d", f"fft_{_name}", mk(T(())))
    _add(f"fft_{_name}-baddim", f"fft_{_name}", mk(T((4,)), None, 1))
for _name in ("fft", "ifft"):
    _add(f"fft_{_name}-complex64", f"fft_{_name}", mk(T((3, 6), "complex64")))
    _add(f"fft_{_name}-complex-pad", f"fft_{_name}", mk(T((6,), "complex128"), 9, 0, "ortho"))
    _add(f"fft_{_name}-complex-dim0", f"fft_{_name}", mk(T((5, 2), "complex64"), None, 0))
for _name in ("rfft", "ihfft"):
    _add(f"fft_{_name}-complex", f"fft_{_name}", mk(T((4,), "complex64")))
for _name in ("irfft", "hfft"):
    _add(f"fft_{_name}-complex64", f"fft_{_name}", mk(T((3, 5), "complex64")))
    _add(f"fft_{_name}-complex128", f"fft_{_name}", mk(T((5,), "complex128")))
    _add(f"fft_{_name}-float", f"fft_{_name}", mk(T((5,))))
    _add(f"fft_{_name}-n-odd", f"fft_{_name}", mk(T((2, 5), "complex64"), 7))
    _add(f"fft_{_name}-n-pad", f"fft_{_name}", mk(T((2, 3), "complex64"), 10, -1, "ortho"))
    _add(f"fft_{_name}-dim0", f"fft_{_name}", mk(T((4, 3), "complex64"), None, 0, "forward"))
    _add(f"fft_{_name}-noncontig", f"fft_{_name}", mk(NC((3, 4), "complex64")))
    _add(f"fft_{_name}-len1", f"fft_{_name}", mk(T((1,), "complex64")))
    _add(f"fft_{_name}-bad-norm", f"fft_{_name}", mk(T((3,), "complex64"), None, -1, "x"))

# ----------------------------------------------------------------------------- n-d front ends
for _name in ("fftn", "ifftn", "rfftn", "fft2", "ifft2", "rfft2"):
    _add(f"fft_{_name}-default", f"fft_{_name}", mk(T((2, 4, 6))))
    _add(f"fft_{_name}-float64", f"fft_{_name}", mk(T((3, 4), "float64")))
    _add(f"fft_{_name}-s", f"fft_{_name}", mk(T((2, 4, 6)), [3, 8]))
    _add(f"fft_{_name}-s-dim", f"fft_{_name}", mk(T((2, 4, 6)), [5, -1], [0, 2], "ortho"))
    _add(f"fft_{_name}-dim", f"fft_{_name}", mk(T((2, 4, 6)), None, [2, 0], "forward"))
    _add(f"fft_{_name}-perm", f"fft_{_name}", mk(PERM((3, 4, 5), (2, 0, 1)), None, [1, 2]))
    _add(f"fft_{_name}-dup-dims", f"fft_{_name}", mk(T((3, 4)), None, [1, -1]))
    _add(f"fft_{_name}-s-len", f"fft_{_name}", mk(T((3, 4)), [3], [0, 1]))
    _add(f"fft_{_name}-s-long", f"fft_{_name}", mk(T((3, 4)), [1, 3, 4]))
    _add(f"fft_{_name}-s0", f"fft_{_name}", mk(T((3, 4)), [0, 4]))
    _add(f"fft_{_name}-int", f"fft_{_name}", mk(T((3, 4), "int32")))
for _name in ("fftn", "ifftn", "fft2", "ifft2"):
    _add(f"fft_{_name}-complex", f"fft_{_name}", mk(T((3, 4), "complex64"), [4, 2]))
_add("fft_rfftn-complex", "fft_rfftn", mk(T((3, 4), "complex64")))
_add("fft_rfftn-nodims", "fft_rfftn", mk(T((3, 4)), None, []))
for _name in ("irfftn", "irfft2"):
    _add(f"fft_{_name}-default", f"fft_{_name}", mk(T((2, 4, 5), "complex64")))
    _add(f"fft_{_name}-float64", f"fft_{_name}", mk(T((3, 4), "complex128")))
    _add(f"fft_{_name}-s", f"fft_{_name}", mk(T((2, 4, 5), "complex64"), [3, 7]))
    _add(f"fft_{_name}-s-last-default", f"fft_{_name}", mk(T((2, 4, 5), "complex64"), [6, -1]))
    _add(f"fft_{_name}-dim", f"fft_{_name}", mk(T((4, 3, 5), "complex64"), None, [2, 0], "ortho"))
    _add(f"fft_{_name}-real", f"fft_{_name}", mk(T((3, 4))))
    _add(f"fft_{_name}-last1", f"fft_{_name}", mk(T((3, 1), "complex64")))
for _name in ("hfftn", "hfft2"):
    _add(f"fft_{_name}-default", f"fft_{_name}", mk(T((2, 4, 5), "complex64")))
    _add(f"fft_{_name}-s", f"fft_{_name}", mk(T((2, 4, 5), "complex128"), [3, 7], norm="ortho"))
    _add(f"fft_{_name}-dim", f"fft_{_name}", mk(T((4, 3, 5), "complex64"), None, [2, 0]))
    _add(f"fft_{_name}-real", f"fft_{_name}", mk(T((3, 4)), None, [0, 1], "forward"))
for _name in ("ihfftn", "ihfft2"):
    _add(f"fft_{_name}-default", f"fft_{_name}", mk(T((2, 4, 6))))
    _add(f"fft_{_name}-s", f"fft_{_name}", mk(T((2, 4, 6), "float64"), [3, 7], norm="ortho"))
    _add(f"fft_{_name}-dim", f"fft_{_name}", mk(T((4, 3, 5)), None, [2, 0], "forward"))
    _add(f"fft_{_name}-complex", f"fft_{_name}", mk(T((3, 4), "complex64")))
_add("fft_ihfftn-one", "fft_ihfftn", mk(T((3, 4)), None, [0]))
_add("fft_hfftn-one", "fft_hfftn", mk(T((3, 4), "complex64"), None, [1]))
_add("fft_irfftn-nodims", "fft_irfftn", mk(T((3, 4), "complex64"), None, []))

# ----------------------------------------------------------------------------- helpers
for _n in (1, 4, 5):
    _add(f"fft_fftfreq-{_n}", "fft_fftfreq", mk(_n))
    _add(f"fft_rfftfreq-{_n}", "fft_rfftfreq", mk(_n))
_add("fft_fftfreq-d", "fft_fftfreq", mk(7, 0.3))
_add("fft_fftfreq-float64", "fft_fftfreq", mk(6, 0.1, dtype=lambda M, r: M.float64))
_add("fft_fftfreq-complex", "fft_fftfreq", mk(4, dtype=lambda M, r: M.complex64))
_add("fft_fftfreq-int", "fft_fftfreq", mk(4, dtype=lambda M, r: M.int64))
_add("fft_rfftfreq-d", "fft_rfftfreq", mk(9, 2.5, dtype=lambda M, r: M.float64))
_add("fft_rfftfreq-int", "fft_rfftfreq", mk(4, dtype=lambda M, r: M.int32))
for _name in ("fftshift", "ifftshift"):
    _add(f"fft_{_name}-all", f"fft_{_name}", mk(T((3, 5))))
    _add(f"fft_{_name}-dim", f"fft_{_name}", mk(T((3, 5)), [1]))
    _add(f"fft_{_name}-dims", f"fft_{_name}", mk(T((4, 3, 5)), [-1, 0]))
    _add(f"fft_{_name}-int", f"fft_{_name}", mk(T((7,), "int64")))
    _add(f"fft_{_name}-baddim", f"fft_{_name}", mk(T((3,)), [2]))
