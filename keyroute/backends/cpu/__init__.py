"""The CPU backend: NumPy kernels registered on the CPU key, one module per operator family."""

from . import (
    core,  # noqa: F401
    elementwise,  # noqa: F401
)
