"""The public functions (keyroute.<name>) by attribute, resolved on first use: the utils
modules are imported while keyroute itself is still importing."""

from __future__ import annotations

from typing import Any

from ... import _api
from ..._api import creation as _creation


class _Functions:
    def __getattr__(self, name: str) -> Any:
        fn = _api.FUNCTIONS.get(name) or getattr(_creation, name)
        setattr(self, name, fn)
        return fn


fns = _Functions()
