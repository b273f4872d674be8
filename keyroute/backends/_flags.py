"""The `flags(...)` context manager the backend modules share: set flags, restore on exit."""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def set_flags(module: types.ModuleType, **values: Any) -> Iterator[None]:
    """Set the module's attributes given (None: leave as is), restore them afterwards."""
    given = {k: v for k, v in values.items() if v is not None}
    old = {k: getattr(module, k) for k in given}
    for k, v in given.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)
