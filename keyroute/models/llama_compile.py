"""The compiled decode step (`keyroute generate --compile`): keyroute.compile with
mode="reduce-overhead" over one decode step, where keyroute.compile exists."""

from __future__ import annotations

from typing import Any

__all__ = ["compiled_decode_step"]


def compiled_decode_step(model: Any) -> Any:
    """A function (ids, pos) -> logits running `model`'s decode step compiled."""
    import keyroute

    compile_fn = getattr(keyroute, "compile", None)
    if compile_fn is None:
        raise NotImplementedError(
            "--compile needs keyroute.compile, which this keyroute does not have yet; run "
            "without --compile (eager)"
        )

    def step(ids: Any, pos: int) -> Any:
        return model(ids, start_pos=pos, last_only=True)

    compiled = compile_fn(step, mode="reduce-overhead")
    return compiled
