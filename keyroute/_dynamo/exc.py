"""keyroute._dynamo.exc (torch._dynamo.exc): the errors compile raises."""

from __future__ import annotations

from typing import Any

__all__ = [
    "TorchDynamoException",
    "Unsupported",
    "BackendCompilerFailed",
    "RecompileError",
    "TorchRuntimeError",
    "InternalTorchDynamoError",
    "UserError",
]


class TorchDynamoException(RuntimeError):
    pass


class InternalTorchDynamoError(TorchDynamoException):
    pass


class Unsupported(TorchDynamoException):
    """A graph break reached with fullgraph=True (or an untraceable construct)."""

    def __init__(self, msg: str, *, gb_type: str = "", real_stack: Any = None) -> None:
        super().__init__(msg)
        self.gb_type = gb_type
        self.real_stack = real_stack


class TorchRuntimeError(TorchDynamoException):
    pass


class UserError(TorchDynamoException):
    """An error in the user's program that compile cannot trace past (PyTorch raises it for a
    branch on a data-dependent value under fullgraph=True)."""

    def __init__(self, error_type: Any, msg: str, case_name: str | None = None) -> None:
        super().__init__(msg)
        self.error_type = error_type
        self.case_name = case_name


class BackendCompilerFailed(TorchDynamoException):
    def __init__(self, backend_fn: Any, inner_exception: BaseException) -> None:
        self.backend_name = getattr(backend_fn, "__name__", "?")
        self.inner_exception = inner_exception
        super().__init__(
            f"backend={self.backend_name!r} raised:\n"
            f"{type(inner_exception).__name__}: {inner_exception}"
        )


class RecompileError(TorchDynamoException):
    pass


class InvalidBackend(TorchDynamoException):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` for available "
            "backends."
        )
