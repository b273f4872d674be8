"""The CPU backend: NumPy kernels registered on the CPU key, one module per operator family."""

import warnings

# Dependency order: each family may use the ones before it.
from . import core, unary, elementwise, binary, ternary, views, reductions, indexing  # noqa: F401
from . import assembly, linalg, nn  # noqa: F401
from . import random, random_sampling, random_binomial  # noqa: F401
from . import linalg_ops, special, misc_ops  # noqa: F401
from . import norms  # noqa: F401
from . import backward_ops, conv_backward  # noqa: F401
from . import nn_backward_ops  # noqa: F401
from . import dynamic_shape  # noqa: F401
from . import mathbits  # noqa: F401
from . import amp  # noqa: F401
from . import complex_ops  # noqa: F401
from . import fft, upsample, fold, grid_sample, unpool  # noqa: F401
from . import embedding_bag, pool3d, upsample_aa  # noqa: F401
from . import spectral, ctc  # noqa: F401
from . import smooth_loss, products  # noqa: F401

# NumPy reports floating-point special cases (log(0), 0/0, overflow to inf) as RuntimeWarnings;
# PyTorch computes the same inf and NaN silently. The filter covers only warnings raised where
# keyroute's kernels call NumPy, and costs nothing until one is raised (np.errstate would cost
# about 1 µs on every call). A user's own filters, added later, still take precedence.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"keyroute\.kernels\.")
