"""torch.backends.opt_einsum: einsum contracts in opt_einsum's order when it is installed
(keyroute.einsum asks opt_einsum for the path, as PyTorch does)."""

from __future__ import annotations

import importlib.util

__all__ = ["is_available", "get_opt_einsum"]


def is_available() -> bool:
    return importlib.util.find_spec("opt_einsum") is not None


def get_opt_einsum() -> object:
    if not is_available():
        return None
    import opt_einsum  # type: ignore[import-not-found]

    return opt_einsum


enabled = is_available()
strategy: str | None = "auto" if enabled else None
