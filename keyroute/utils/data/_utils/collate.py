"""`default_collate` and `default_convert` (torch.utils.data._utils.collate).

default_collate turns a list of samples into a batch, recursively: tensors are stacked on a
new first dimension, NumPy arrays become tensors and are stacked, Python floats become a
float64 tensor, ints an int64 tensor (bools a bool tensor), strings and bytes stay a list;
mappings, named tuples and sequences are collated field by field (a tuple of fields comes back
as a list, as PyTorch's). `collate(batch, collate_fn_map=...)` takes a per-type table.

>>> import keyroute
>>> default_collate([{"x": 1.0, "y": "a"}, {"x": 2.0, "y": "b"}])
{'x': tensor([1., 2.], dtype=keyroute.float64), 'y': ['a', 'b']}
"""

from __future__ import annotations

import collections.abc
import copy
import re
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["default_collate", "default_convert", "collate", "default_collate_fn_map"]

np_str_obj_array_pattern = re.compile(r"[SaUO]")
default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def _kr() -> Any:
    import keyroute

    return keyroute


def default_convert(data: Any) -> Any:
    """Convert NumPy arrays and scalars to tensors, recursively (no batching)."""
    kr = _kr()
    elem_type = type(data)
    if isinstance(data, kr.Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if elem_type.__name__ == "ndarray" and np_str_obj_array_pattern.search(data.dtype.str):
            return data
        return kr.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update({k: default_convert(data[k]) for k in data})
                return clone
            return elem_type({k: default_convert(data[k]) for k in data})
        except TypeError:
            return {k: default_convert(data[k]) for k in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a named tuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, d in enumerate(data):
                    clone[i] = default_convert(d)
                return clone
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def collate(batch: Any, *, collate_fn_map: dict[Any, Callable[..., Any]] | None = None) -> Any:
    """Collate `batch` with `collate_fn_map` (exact type first, then isinstance in order)."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for kind in collate_fn_map:
            if isinstance(elem, kind):
                return collate_fn_map[kind](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        fields = {k: collate([d[k] for d in batch], collate_fn_map=collate_fn_map) for k in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a named tuple
        return elem_type(*(collate(s, collate_fn_map=collate_fn_map) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        size = len(next(it))
        if not all(len(e) == size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [collate(s, collate_fn_map=collate_fn_map) for s in transposed]
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                for i, s in enumerate(transposed):
                    clone[i] = collate(s, collate_fn_map=collate_fn_map)
                return clone
            return elem_type([collate(s, collate_fn_map=collate_fn_map) for s in transposed])
        except TypeError:
            return [collate(s, collate_fn_map=collate_fn_map) for s in transposed]
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def collate_tensor_fn(batch: Any, *, collate_fn_map: Any = None) -> Any:
    return _kr().stack(list(batch), 0)


def collate_numpy_array_fn(batch: Any, *, collate_fn_map: Any = None) -> Any:
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    kr = _kr()
    return collate([kr.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch: Any, *, collate_fn_map: Any = None) -> Any:
    return _kr().as_tensor(np.array(batch))


def collate_float_fn(batch: Any, *, collate_fn_map: Any = None) -> Any:
    kr = _kr()
    return kr.tensor(list(batch), dtype=kr.float64)


def collate_int_fn(batch: Any, *, collate_fn_map: Any = None) -> Any:
    return _kr().tensor(list(batch))


def collate_str_fn(batch: Any, *, collate_fn_map: Any = None) -> Any:
    return batch


def _default_map() -> dict[Any, Callable[..., Any]]:
    kr = _kr()
    return {
        kr.Tensor: collate_tensor_fn,
        np.ndarray: collate_numpy_array_fn,
        (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
        float: collate_float_fn,
        int: collate_int_fn,
        str: collate_str_fn,
        bytes: collate_str_fn,
    }


class _LazyMap(dict):  # type: ignore[type-arg]
    """default_collate_fn_map, filled on first use (keyroute.Tensor is not importable here at
    import time: keyroute/__init__ may still be running)."""

    def _fill(self) -> None:
        if not self:
            self.update(_default_map())

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def __getitem__(self, key: Any) -> Any:
        self._fill()
        return dict.__getitem__(self, key)

    def __iter__(self) -> Any:
        self._fill()
        return dict.__iter__(self)


default_collate_fn_map: dict[Any, Callable[..., Any]] = _LazyMap()


def default_collate(batch: Any) -> Any:
    """Stack a list of samples into a batch (see the module docstring for the rules)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)
