"""keyroute.compiler (torch.compiler): reset, disable, is_compiling and set_stance."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .._dynamo import disable, reset
from .._dynamo import is_compiling as _is_compiling
from .._dynamo.eval_frame import _stance

__all__ = ["reset", "disable", "is_compiling", "is_dynamo_compiling", "set_stance", "compile"]


def is_compiling() -> bool:
    return _is_compiling()


is_dynamo_compiling = is_compiling


def compile(*args: Any, **kwargs: Any) -> Any:  # noqa: A001
    from .._dynamo import compile as _compile

    return _compile(*args, **kwargs)


class set_stance(contextlib.ContextDecorator):  # noqa: N801 - PyTorch's name
    """torch.compiler.set_stance("force_eager" | "default" | ...): how compiled calls run."""

    def __init__(
        self,
        stance: str = "default",
        *,
        skip_guard_eval_unsafe: bool = False,
        force_backend: Any = None,
    ) -> None:
        if stance not in ("default", "force_eager", "eager_on_recompile", "fail_on_recompile"):
            raise RuntimeError(f"invalid torch.compile stance '{stance}'")
        self.prev = _stance[0]
        self.stance = stance
        _stance[0] = stance

    def __enter__(self) -> None:
        _stance[0] = self.stance

    def __exit__(self, *exc: Any) -> Iterator[None] | None:
        _stance[0] = self.prev
        return None
