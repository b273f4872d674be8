"""Graph nodes for outputs of operators that have no derivative (autograd fallback, warn mode)."""

from __future__ import annotations

from typing import Any

__all__ = ["attach_warning_nodes"]


def attach_warning_nodes(op: Any, args: tuple, kwargs: dict, out: Any) -> None:
    """Give outputs that need a gradient but have no graph node a node that warns on backward."""
    from . import engine

    engine.attach_not_implemented(op, args, kwargs, out)
