"""PyTorch's errors for reading the elements of a tensor that has none to read (meta tensors).

>>> import keyroute
>>> m = keyroute.ones(2, device="meta")
>>> data_access_error(m, "tolist()")
NotImplementedError('Cannot copy out of meta tensor; no data!')
"""

from __future__ import annotations

from typing import Any

__all__ = ["data_access_error"]


def data_access_error(tensor: Any, what: str) -> Exception:
    """The exception PyTorch raises when `what` (e.g. "numpy()", "tolist()", "item()",
    "__dlpack__") needs the data of `tensor`, which lives on a device without data."""
    device = tensor.device
    if what in ("numpy()", "__array__"):
        return TypeError(
            f"can't convert {device.type} device type tensor to numpy. Use Tensor.cpu() to copy "
            f"the tensor to host memory first."
        )
    if what == "__dlpack__":
        return BufferError(f"Cannot pack tensors on {device}")
    if what == "item()":
        return RuntimeError(f"Tensor.item() cannot be called on {device.type} tensors")
    # tolist(), copies to another device: a copy out of a tensor with no data.
    return NotImplementedError(f"Cannot copy out of {device.type} tensor; no data!")
