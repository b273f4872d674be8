"""Materialising a meta-built model from a safetensors file, one tensor at a time.

Build the model under `keyroute.device("meta")` (nothing allocated), then
`load_safetensors_into(model, path)` reads each tensor from the file and puts it in place of the
meta parameter or buffer it names: at any moment at most one tensor has been read but not yet
installed, so the weights are never held twice (peak: the model plus its largest tensor).

>>> with keyroute.device("meta"):                                          # doctest: +SKIP
...     model = Llama(cfg, dtype=keyroute.bfloat16)
>>> load_safetensors_into(model, "model.safetensors")                     # doctest: +SKIP

The `safetensors` library (an optional extra) reads the tensors NumPy can hold; tensors in
dtypes NumPy lacks (BF16) and every tensor when the library is absent are read by the
small reader below, straight into their final array (`numpy.fromfile`). Everything about the
file is checked before the model changes: names, shapes, dtypes.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["load_safetensors_into", "read_safetensors_header"]

# safetensors dtype names -> NumPy dtypes (ml_dtypes provides the ones NumPy lacks)
_NUMPY_NATIVE = {
    "F64": "float64",
    "F32": "float32",
    "F16": "float16",
    "I64": "int64",
    "I32": "int32",
    "I16": "int16",
    "I8": "int8",
    "U8": "uint8",
    "U16": "uint16",
    "U32": "uint32",
    "U64": "uint64",
    "BOOL": "bool",
    "C64": "complex64",
    "C128": "complex128",
}
_EXTRA = {"BF16": "bfloat16"}


def _np_dtype(name: str) -> np.dtype:
    if name in _NUMPY_NATIVE:
        return np.dtype(_NUMPY_NATIVE[name])
    if name in _EXTRA:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, _EXTRA[name]))
    raise RuntimeError(f"safetensors dtype {name} is not supported by keyroute")


def read_safetensors_header(path: str | Path) -> tuple[dict[str, Any], int]:
    """The file's header (name -> {"dtype", "shape", "data_offsets"}, plus "__metadata__")
    and the byte offset where tensor data starts."""
    # Validated whole before any tensor is read: a corrupt file never half-loads a model.
    from .safetensors_header import read_header

    return read_header(path)


def _owner(model: Any, name: str) -> tuple[Any, str]:
    module_path, _, leaf = name.rpartition(".")
    return model.get_submodule(module_path), leaf


def _slots(model: Any) -> tuple[dict[str, list[tuple[Any, str, bool]]], dict[str, str]]:
    """Every place a parameter or persistent buffer lives, grouped by tensor (tied weights:
    one tensor, several names): canonical name -> [(module, attribute, is_param)], and each
    name -> its canonical name."""
    places: dict[int, list[tuple[Any, str, bool]]] = {}
    canonical: dict[int, str] = {}
    names: dict[str, str] = {}
    for prefix, mod in model.named_modules(remove_duplicate=False):
        pre = prefix + "." if prefix else ""
        for leaf, t in mod._parameters.items():
            if t is not None:
                places.setdefault(id(t), []).append((mod, leaf, True))
                names[pre + leaf] = canonical.setdefault(id(t), pre + leaf)
        for leaf, t in mod._buffers.items():
            if t is not None and leaf not in mod._non_persistent_buffers_set:
                places.setdefault(id(t), []).append((mod, leaf, False))
                names[pre + leaf] = canonical.setdefault(id(t), pre + leaf)
    slots = {canonical[k]: list(dict.fromkeys(v)) for k, v in places.items()}
    return slots, names


def load_safetensors_into(
    model: Any, path: str | Path, *, strict: bool = True, skip: tuple[str, ...] = ()
) -> list[str]:
    """Fill `model`'s parameters and persistent buffers from the safetensors file `path`, one
    tensor at a time, converting each to the dtype the model declares; returns the names
    loaded. Tied weights (one tensor under several names) are filled once, everywhere.

    strict: every parameter and persistent buffer must be in the file, and every tensor in
    the file (except names starting with a prefix in `skip`) must name one. Errors are raised
    before anything is loaded, so a failed call leaves the model as it was."""
    from ..nn.parameter import Parameter
    from ..tensor._tensor import wrap_cpu
    from ..tensor.dtype import to_dtype

    header, data_start = read_safetensors_header(path)
    slots, names = _slots(model)
    entries = {k: v for k, v in header.items() if k != "__metadata__" and not k.startswith(skip)}
    unexpected = sorted(k for k in entries if k not in names)
    covered = {names[k] for k in entries if k in names}
    missing = sorted(k for k in slots if k not in covered)
    errors = []
    for key, info in entries.items():
        if key not in names:
            continue
        module, leaf, is_param = slots[names[key]][0]
        current = (module._parameters if is_param else module._buffers)[leaf]
        if tuple(info["shape"]) != tuple(current.shape):
            errors.append(
                f"size mismatch for {key}: the file has shape {tuple(info['shape'])}, the "
                f"model expects {tuple(current.shape)}"
            )
        to_dtype(_np_dtype(info["dtype"]))  # an unsupported dtype fails here, before any load
    if strict and (missing or unexpected):
        errors.insert(0, f"missing keys {missing}, unexpected keys {unexpected}")
    if errors:
        raise RuntimeError(
            f"Error(s) in loading {path} into {type(model).__name__}:\n\t" + "\n\t".join(errors)
        )

    try:
        from safetensors import safe_open
    except ImportError:  # the optional extra is absent: the reader below does it all
        safe_open = None
    loaded: list[str] = []
    with contextlib.ExitStack() as stack:
        handle = None
        if safe_open is not None:
            handle = stack.enter_context(safe_open(str(path), framework="numpy"))
        raw = stack.enter_context(open(path, "rb"))
        for key, info in entries.items():
            if key not in names or names[key] in loaded:
                continue
            places = slots[names[key]]
            module, leaf, is_param = places[0]
            current = (module._parameters if is_param else module._buffers)[leaf]
            if handle is not None and info["dtype"] in _NUMPY_NATIVE:
                arr = handle.get_tensor(key)
            else:
                begin, end = info["data_offsets"]
                dt = _np_dtype(info["dtype"])
                raw.seek(data_start + begin)
                arr = np.fromfile(raw, dtype=dt, count=(end - begin) // dt.itemsize)
                arr = arr.reshape(info["shape"])
            # the array becomes the tensor's storage (bfloat16 included, which from_numpy refuses)
            value = wrap_cpu(np.ascontiguousarray(arr))
            del arr
            if value.dtype is not current.dtype:
                value = value.to(current.dtype)  # the model's declared dtype
            new = Parameter(value, requires_grad=current.requires_grad) if is_param else value
            for mod, name, param in places:  # every name of a tied tensor
                (mod._parameters if param else mod._buffers)[name] = new
            del value, new, current
            loaded.append(names[key])
    return loaded
