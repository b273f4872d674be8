"""Materialising a meta-built model from a safetensors file, one tensor at a time.

Build the model under `keyroute.device("meta")` (nothing allocated), then
`load_safetensors_into(model, path)` reads each tensor from the file and puts it in place of the
meta parameter or buffer it names: at any moment at most one tensor is read but not yet
installed, so the weights are never held twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..nn.parameter import Parameter

__all__ = ["load_safetensors_into"]


def _owner(model: Any, name: str) -> tuple[Any, str]:
    module_path, _, leaf = name.rpartition(".")
    return model.get_submodule(module_path), leaf


def load_safetensors_into(
    model: Any, path: str | Path, *, strict: bool = True, skip: tuple[str, ...] = ()
) -> list[str]:
    """Fill `model`'s parameters and buffers from `path`; returns the names loaded.

    strict: every parameter and persistent buffer must be in the file, and every tensor in the
    file (except names starting with a prefix in `skip`) must match a parameter or buffer."""
    from safetensors import safe_open

    from .._creation import from_numpy
    from ..tensor.dtype import to_dtype

    expected = {name for name, _ in model.named_parameters()}
    expected |= {
        name
        for name, _ in model.named_buffers()
        if _owner(model, name)[1] not in _owner(model, name)[0]._non_persistent_buffers_set
    }
    loaded: list[str] = []
    unexpected: list[str] = []
    with safe_open(str(path), framework="numpy") as f:
        for key in f.keys():
            if key.startswith(skip):
                continue
            if key not in expected:
                unexpected.append(key)
                continue
            module, leaf = _owner(model, key)
            current = module._parameters.get(leaf)
            is_param = current is not None
            if current is None:
                current = module._buffers.get(leaf)
            arr = np.ascontiguousarray(f.get_tensor(key))
            if tuple(arr.shape) != tuple(current.shape):
                raise RuntimeError(
                    f"size mismatch for {key}: the file has shape {tuple(arr.shape)}, the model "
                    f"expects {tuple(current.shape)}"
                )
            value = from_numpy(arr)
            if to_dtype(arr.dtype) is not current.dtype:
                value = value.to(current.dtype)
            if is_param:
                module._parameters[leaf] = Parameter(value, requires_grad=current.requires_grad)
            else:
                module._buffers[leaf] = value
            del arr, value, current
            loaded.append(key)
    missing = sorted(expected - set(loaded))
    if strict and (missing or unexpected):
        raise RuntimeError(
            f"Error(s) in loading {path}: missing keys {missing}, unexpected keys {unexpected}"
        )
    return loaded
