"""aten operator definitions: each operator's schema, meta function and decomposition.

One module per family; `_define` holds the registration helpers. Importing this package defines
every aten operator (backends register their kernels afterwards).
"""

from . import (
    core,  # noqa: F401
    elementwise,  # noqa: F401
)
