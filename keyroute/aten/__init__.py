"""aten operator definitions: each operator's schema, meta function and decomposition.

One module per family; `_define` holds the registration helpers. Importing this package defines
every aten operator (keyroute.kernels registers the backend kernels afterwards).
"""

# Dependency order: each family may use the ones before it.
from . import core, elementwise, views, reductions, indexing, assembly, linalg, nn  # noqa: F401
from . import inplace_views  # noqa: F401
from . import random, random_sampling  # noqa: F401
from . import linalg_ops, linalg_composites, special, misc_ops  # noqa: F401
from . import norms, foreach, rnn  # noqa: F401
from . import foreach_ops, fused_optim  # noqa: F401
from . import backward_ops, conv_backward  # noqa: F401
from . import nn_backward_ops  # noqa: F401
from . import dynamic_shape  # noqa: F401
from . import functionalization  # noqa: F401
from . import mathbits  # noqa: F401
from . import amp_ops  # noqa: F401
from . import complex_ops  # noqa: F401
from . import fft  # noqa: F401
from . import spectral  # noqa: F401
from . import products  # noqa: F401
from . import products_out  # noqa: F401
from . import empty_permuted  # noqa: F401


def _register_backend_select() -> None:
    """A BackendSelect kernel for every factory (TensorOptions and no tensor argument), as
    PyTorch generates them: the device argument picks the backend kernel."""
    from ..dispatcher.keys import DispatchKey
    from ..dispatcher.operator import all_ops
    from .core import _backend_select

    for op in all_ops():
        schema = op._schema
        if schema is None or op.namespace != "aten":
            continue
        names = {a.name for a in schema.arguments}
        if (
            "device" in names
            and "pin_memory" in names
            and not any(a.kind for a in schema.arguments)
            and not op.has_kernel_for_dispatch_key(DispatchKey.BackendSelect)
        ):
            _backend_select(op.qualified_name().split("::", 1)[1])


_register_backend_select()
