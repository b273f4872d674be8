"""Stand-ins for PyTorch features keyroute does not have: importable, failing on use.

A program that imports `torch.onnx` or `torch.distributed` at the top but only calls them on
some paths must still run; a call reaches a NotImplementedError that names what is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

__all__ = ["absent", "absent_getattr"]


def absent(qualname: str, why: str = "") -> Callable[..., NoReturn]:
    """A function that raises NotImplementedError naming `qualname` when called."""

    def missing(*args: Any, **kwargs: Any) -> NoReturn:
        raise NotImplementedError(f"{qualname} is not implemented in keyroute{why}")

    missing.__name__ = qualname.rsplit(".", 1)[-1]
    missing.__qualname__ = missing.__name__
    return missing


def absent_getattr(module: str, names: set[str], why: str = "") -> Callable[[str], Any]:
    """A module __getattr__ serving `names` as absent functions (others: AttributeError, so
    that `hasattr` answers as for a module without them)."""

    def __getattr__(name: str) -> Any:
        if name in names:
            return absent(f"{module}.{name}", why)
        raise AttributeError(f"module '{module}' has no attribute '{name}'")

    return __getattr__
