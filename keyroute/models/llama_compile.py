"""The compiled decode step (`keyroute generate --compile`): the model under
keyroute.compile(mode="reduce-overhead"), called with the position as a tensor so that the
step's shapes do not change from one token to the next (the whole cache is read, masked): one
graph, captured once and replayed for every decode step. The custom operators stay single
nodes of the graph, and `keyroute::store_kv`'s declared write to the cache is kept."""

from __future__ import annotations

from typing import Any

from .._api import creation as _creation

__all__ = ["compiled_decode_step"]


def compiled_decode_step(model: Any, backend: Any = "inductor") -> Any:
    """A function (ids, pos) -> logits running `model`'s decode step compiled."""
    import keyroute

    compile_fn = getattr(keyroute, "compile", None)
    if compile_fn is None:
        raise NotImplementedError(
            "--compile needs keyroute.compile, which this keyroute does not have; run without "
            "--compile (eager)"
        )
    if isinstance(backend, str) and backend == "inductor":
        compiled = compile_fn(model, mode="reduce-overhead")
    else:
        compiled = compile_fn(model, backend=backend)

    def step(ids: Any, pos: int) -> Any:
        positions = _creation.tensor([pos])
        return compiled(ids, start_pos=positions, last_only=True)

    return step
