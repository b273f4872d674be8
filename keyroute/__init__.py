"""keyroute: PyTorch's dispatcher and the tensor system around it, in Python on NumPy.

>>> import keyroute
>>> x = keyroute.ones(3)
>>> keyroute.dispatch_keys(x)
DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)
"""

from __future__ import annotations

# The dispatcher core and the tensor type come first: everything registers against them.
from .dispatcher.keys import DispatchKey
from .dispatcher.keyset import DispatchKeySet
from .dispatcher.schema import FunctionSchema, parse_schema
from .dispatcher.trace import show_dispatch_trace
from .tensor._tensor import Size, Tensor
from .tensor.device import Device, device
from .tensor.dtype import (
    bfloat16,
    bool_,
    can_cast,
    complex64,
    complex128,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    get_default_dtype,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    uint8,
)
from .tensor.dtype import set_default_dtype as _set_default_dtype
from .tensor.layout import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    layout,
    memory_format,
    preserve_format,
    strided,
)
from . import library  # noqa: E402
from .layers import fallbacks as _builtin_fallbacks  # noqa: E402, F401
from . import aten as _aten_defs  # noqa: E402, F401  (defines the aten operators)
from .kernels import cpu as _cpu_backend  # noqa: E402, F401
from .kernels import meta as _meta_backend  # noqa: E402
from . import autograd  # noqa: E402
from .layers import autograd as _autograd_layer  # noqa: E402, F401
from .layers import inference as _inference_layer  # noqa: E402, F401
from .layers import python as _python_layer  # noqa: E402, F401
from .layers import functionalize as _functionalize_layer  # noqa: E402, F401
from .layers import mathbits as _mathbits_layer  # noqa: E402, F401
from .layers import zerotensor as _zerotensor_layer  # noqa: E402, F401
from .autograd.grad_mode import (  # noqa: E402
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._ops import ops  # noqa: E402
from .random import (  # noqa: E402
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from ._api.creation import (
    arange,
    as_tensor,
    asarray,
    empty,
    empty_like,
    empty_strided,
    eye,
    from_dlpack,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    scalar_tensor,
    tensor,
    zeros,
    zeros_like,
)  # noqa: E402
from . import _api  # noqa: E402
from ._api import core as _api_core  # noqa: E402, F401
from ._api import elementwise as _api_elementwise  # noqa: E402, F401
from ._api import views as _api_views  # noqa: E402, F401
from ._api import reductions as _api_reductions  # noqa: E402, F401
from ._api import indexing as _api_indexing  # noqa: E402, F401
from ._api import assembly as _api_assembly  # noqa: E402, F401
from ._api import linalg as _api_linalg  # noqa: E402, F401
from ._api import nn as _api_nn  # noqa: E402, F401
from ._api import norms as _api_norms  # noqa: E402, F401
from ._api import foreach as _api_foreach  # noqa: E402, F401
from ._api import foreach_ops as _api_foreach_ops  # noqa: E402, F401
from ._api import random as _api_random  # noqa: E402, F401
from ._api import closeness as _api_closeness  # noqa: E402, F401
from ._api import mathbits as _api_mathbits  # noqa: E402, F401
from ._api import amp as _api_amp  # noqa: E402, F401
from ._api import complex_ops as _api_complex_ops  # noqa: E402, F401
from ._api import linalg_ops as _api_linalg_ops, special as _api_special  # noqa: E402, F401
from ._api import misc_ops as _api_misc_ops  # noqa: E402, F401
from ._api import image as _api_image  # noqa: E402, F401
from ._api import pooling as _api_pooling  # noqa: E402, F401
from ._api import promotion as _api_promotion  # noqa: E402, F401
from ._api import spectral as _api_spectral  # noqa: E402, F401
from ._api import products as _api_products  # noqa: E402, F401
from ._api.creation_permuted import empty_permuted  # noqa: E402
from . import linalg, special  # noqa: E402
from . import fft  # noqa: E402
from . import nn  # noqa: E402
from . import optim  # noqa: E402
from .utils import python_dispatch as _utils_python_dispatch  # noqa: E402, F401
from .tensor import subclass as _tensor_subclass  # noqa: E402, F401
from . import subclasses  # noqa: E402
from . import _C  # noqa: E402
from . import profiler  # noqa: E402
from .autograd import profiler as _autograd_profiler  # noqa: E402  (torch.autograd.profiler)

bool = bool_  # noqa: A001  (keyroute.bool, as torch.bool)
float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16
cfloat = complex64
cdouble = complex128

_meta_backend.register_all()
autograd._register_aten_layers()
from ._api._keywords import function_forms as _function_forms  # noqa: E402

globals().update({k: v for k, v in _function_forms(_api.FUNCTIONS).items() if k not in globals()})


def set_default_dtype(d: dtype) -> None:
    """Set the dtype of float factories and of Python floats in promotion (float32 default)."""
    _set_default_dtype(d)


def dispatch_keys(t: Tensor) -> DispatchKeySet:
    """The tensor's own dispatch key set, as torch._C._dispatch_keys prints it."""
    return _C._dispatch_keys(t)


def is_tensor(obj: object) -> bool:
    return isinstance(obj, Tensor)


def numel(t: Tensor) -> int:
    return t.numel()


__version__ = "0.1.0"

# Messages and reprs name the class as PyTorch's do ("keyroute.Tensor", like "torch.Tensor").
Tensor.__module__ = "keyroute"


# torch.save / torch.load in PyTorch's checkpoint format (keyroute/serialization.py), loaded on
# first use: zipfile and the unpickler are not worth paying for at `import keyroute`.
def save(obj: object, f: object, *args: object, **kwargs: object) -> None:
    """Save `obj` in PyTorch's checkpoint format (keyroute.serialization.save)."""
    from .serialization import save as _save

    _save(obj, f, *args, **kwargs)  # type: ignore[arg-type]


def load(f: object, *args: object, **kwargs: object) -> object:
    """Load a checkpoint written by keyroute.save or torch.save (keyroute.serialization.load)."""
    from .serialization import load as _load

    return _load(f, *args, **kwargs)  # type: ignore[arg-type]


def __getattr__(name: str) -> object:
    if name in ("serialization", "storage"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    from ._missing import missing

    raise missing("torch", name, "module 'keyroute'")


# The runtime modules programs import (torch.cuda, torch.backends, torch.testing, ...).
from ._tags import Tag  # noqa: E402
from . import amp, backends, cuda, mps, accelerator  # noqa: E402, F401
from . import onnx, jit, distributed  # noqa: E402, F401
from . import testing, overrides  # noqa: E402, F401
from .utils import _pytree as _utils_pytree, weak as _utils_weak  # noqa: E402, F401
from .amp import autocast  # noqa: E402
from .amp import GradScaler  # noqa: E402, F401

# Graph capture (keyroute.fx, make_fx, functionalization) and functionalization's private API.
from . import fx  # noqa: E402
from .fx.experimental import proxy_tensor as _proxy_tensor  # noqa: E402, F401  (PreDispatch)
from .layers.functionalize import from_functional as _from_functional_tensor  # noqa: E402
from .layers.functionalize import is_functional as _is_functional_tensor  # noqa: E402
from .layers.functionalize import sync as _sync  # noqa: E402
from .layers.functionalize import to_functional as _to_functional_tensor  # noqa: E402

_C._to_functional_tensor = _to_functional_tensor
_C._from_functional_tensor = _from_functional_tensor
_C._functionalize_sync = _sync
_C._is_functional_tensor = _is_functional_tensor

from . import func  # noqa: E402  (torch.func: vmap, grad, ... on the functorch layers)
from .func import vmap  # noqa: E402
from ._higher_order_ops import cond  # noqa: E402
from . import export  # noqa: E402, F401
from ._dispatch import python as _dispatch_python  # noqa: E402, F401  (OpOverload.py_impl)

# keyroute.compile (torch.compile): capture on fake tensors, guards, graph breaks, backends.
from . import _dynamo, compiler  # noqa: E402
from ._dynamo.api import compile  # noqa: E402

# Anomaly mode's torch.* names (keyroute/autograd/anomaly_mode.py).
from .autograd.engine import is_anomaly_check_nan_enabled, is_anomaly_enabled  # noqa: E402
from .autograd.engine import set_anomaly_enabled  # noqa: E402

# Autocast's torch.* state functions (keyroute/layers/autocast.py) and torch.cpu.
from . import cpu  # noqa: E402, F401
from .layers.autocast import (  # noqa: E402
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    get_autocast_dtype,
    is_autocast_cache_enabled,
    is_autocast_enabled,
    set_autocast_cache_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)

# Out-of-tree backends: PyTorch's PrivateUse1 route (keyroute/utils/backend_registration.py).
from .utils.backend_registration import register_device_module as _register_device_module  # noqa: E402

# ATen/Parallel's thread counts (keyroute/_parallel.py: the intra-op count goes to NumPy's BLAS).
from ._parallel import get_num_interop_threads, get_num_threads, init_num_threads  # noqa: E402
from ._parallel import set_num_interop_threads, set_num_threads  # noqa: E402

# torch.to_dlpack (torch.utils.dlpack.to_dlpack): the raw memory as a DLPack capsule.
from .utils.dlpack import to_dlpack  # noqa: E402
