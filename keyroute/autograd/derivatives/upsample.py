"""Derivatives of the interpolation operators (aten/nn/upsample.py): derivatives.yaml's
entries. The forward's gradient is its _backward operator; that operator is linear in
grad_output, so its own gradient (double backward) is the forward again."""

from __future__ import annotations

from ...aten.nn.upsample import _SCALE_NAMES, UPSAMPLE_OPS
from ...aten.nn.upsample_aa import AA_OPS
from ._registry import _shape, aten, derivative


def _node(name: str) -> str:
    # PyTorch's node names: UpsampleBilinear2DBackward0, UpsampleNearestExact1DBackward0, ...
    base = name.lstrip("_").replace("upsample_", "")
    parts = base.split("_")
    word = "".join(p[:1].upper() + p[1:] for p in parts)
    return "Upsample" + word.replace("1d", "1D").replace("2d", "2D").replace("3d", "3D")


def _register(name: str, nd: int, align: bool) -> None:
    scales = _SCALE_NAMES[nd]
    fwd_save = ("output_size", *(("align_corners",) if align else ()), *scales)
    fwd = getattr(aten, name).default
    bwd = getattr(aten, name + "_backward").default

    def forward_formula(grad, **saved):  # noqa: ANN001, ANN003, ANN202
        rest = [saved[n] for n in fwd_save[1:]]
        return (bwd(grad, saved["output_size"], list(saved["s"]), *rest),)

    derivative(name, _node(name) + "Backward0", save=fwd_save, computed={"s": _shape("self")})(
        forward_formula
    )

    def backward_formula(grad, **saved):  # noqa: ANN001, ANN003, ANN202
        return (fwd(grad, *[saved[n] for n in fwd_save]),)

    derivative(
        name + "_backward",
        _node(name) + "BackwardBackward0",
        save=fwd_save,
        inputs=("grad_output",),
    )(backward_formula)


for _name, (_nd, _kind, _align) in UPSAMPLE_OPS.items():
    _register(_name, _nd, _align)

# The anti-aliased forms (aten/nn/upsample_aa.py): the same pair of entries.
for _name in AA_OPS:
    _register(_name, 2, True)
