"""Tools built on the dispatcher: dispatch modes, counters, memory planning."""

from ._swap import swap_tensors  # noqa: E402
from .backend_registration import (  # noqa: E402
    generate_methods_for_privateuse1_backend,
    rename_privateuse1_backend,
)

__all__ = [
    "generate_methods_for_privateuse1_backend",
    "rename_privateuse1_backend",
    "swap_tensors",
]


def __getattr__(name: str) -> object:
    # keyroute.utils.data (torch.utils.data) loads on first use: it pulls in multiprocessing,
    # which `import keyroute` should not pay for.
    if name in ("data", "checkpoint"):
        import importlib

        return importlib.import_module(".data", __name__)
    if name == "dlpack":  # torch.utils.dlpack
        import importlib

        return importlib.import_module(".dlpack", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
