"""torch.onnx: importable; exporting raises NotImplementedError (keyroute has no ONNX exporter)."""

from __future__ import annotations

from ._absent import absent, absent_getattr

__all__ = ["export", "dynamo_export", "is_in_onnx_export"]

_WHY = " (keyroute has no ONNX exporter)"
export = absent("torch.onnx.export", _WHY)
dynamo_export = absent("torch.onnx.dynamo_export", _WHY)


def is_in_onnx_export() -> bool:
    return False


__getattr__ = absent_getattr(
    "torch.onnx",
    {"select_model_mode_for_export", "register_custom_op_symbolic", "ONNXProgram"},
    _WHY,
)
