"""The CPU backend: NumPy kernels registered on the CPU key, one module per operator family."""

# Dependency order: each family may use the ones before it.
from . import core, elementwise, views, reductions, indexing, assembly, linalg, nn  # noqa: F401
from . import backward_ops, conv_backward  # noqa: F401
from . import dynamic_shape  # noqa: F401
