"""aten operator definitions: each operator's schema, meta function and decomposition.

One module per family; `_define` holds the registration helpers. Importing this package defines
every aten operator (backends register their kernels afterwards).
"""

from . import core, elementwise, views, reductions, indexing, assembly, linalg, nn  # noqa: F401
from . import conv_backward  # noqa: F401
