"""Where dask-backed tensors compute: a `dask.distributed` client when one is set, else dask's
local threaded scheduler.

A client is set with `keyroute.dask.use(client)` (or `use("tcp://host:8786")`, or as a context
manager: `with keyroute.dask.use(client): ...`), or by the `DASK_SCHEDULER_ADDRESS`
environment variable, read when the first computation needs a scheduler. A client merely
existing (dask's own global default) does not redirect keyroute: the choice is explicit, so a
test's or a notebook's stray client cannot move work elsewhere.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["use", "current_client", "compute"]

_state: dict[str, Any] = {"client": None, "env": None}


class _Use:
    """The handle `use` returns: the setting is already in effect; leaving a `with` block
    restores the previous client."""

    def __init__(self, previous: Any) -> None:
        self._previous = previous

    def __enter__(self) -> Any:
        return _state["client"]

    def __exit__(self, *exc: object) -> None:
        _state["client"] = self._previous


def use(client: Any) -> _Use:
    """Compute dask-backed tensors on `client` (a `distributed.Client`, a scheduler address, or
    None for the local threaded scheduler)."""
    previous = _state["client"]
    if isinstance(client, str):
        from distributed import Client

        client = Client(client)
    elif client is not None and not hasattr(client, "compute"):
        raise TypeError(
            f"keyroute.dask.use() expects a distributed.Client, a scheduler address or None, "
            f"got {type(client).__name__}"
        )
    _state["client"] = client
    return _Use(previous)


def current_client() -> Any:
    """The client computations go to, or None (local threaded scheduler)."""
    client = _state["client"]
    if client is not None:
        return client
    address = os.environ.get("DASK_SCHEDULER_ADDRESS")
    if not address:
        return None
    cached = _state["env"]
    if cached is None or cached[0] != address:
        from distributed import Client

        cached = _state["env"] = (address, Client(address, set_as_default=False))
    return cached[1]


def compute(*arrays: Any) -> list[Any]:
    """The NumPy values of dask arrays, computed together (shared work done once)."""
    import dask

    client = current_client()
    if client is not None:
        return list(client.compute(list(arrays), sync=True))
    return list(dask.compute(*arrays, scheduler="threads"))
