"""The Autocast layer: automatic mixed precision (AutocastCPU, and AutocastCUDA's state).

Every CPU tensor carries the AutocastCPU key, and the thread's default exclude set holds every
Autocast key, so autocast costs nothing while it is off: `set_autocast_enabled("cpu", True)`
only removes AutocastCPU from the exclude set (PyTorch's `tls_set_dispatch_key_excluded`).
Operators on PyTorch 2.13's CPU lists (aten/src/ATen/autocast_mode.cpp) then reach a kernel on
AutocastCPU that casts their floating-point CPU inputs and calls the operator again with every
Autocast key excluded, so the casts are recorded by autograd (`ToCopyBackward0`) and seen by
dispatch modes (`aten._to_copy`) as in PyTorch. The other operators fall through the key.

Policies: `lower_precision_fp` casts to the autocast dtype (bfloat16 by default), `fp32` to
float32, `promote` to the widest floating type among the inputs (float32 over the low type).
float64 inputs and non-floating inputs are never cast. The weight cache keeps the low-precision
copy of float32 leaves that require grad (not views), and is cleared when the outermost
autocast region exits.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import key_bits
from ..dispatcher.operator import fast_call, find_op
from ..dispatcher.registration import Library
from ..dispatcher.tls import state as _tls
from ..tensor import dtype as _dt
from ..tensor._tensor import Tensor
from .autocast_cuda import (
    CUDA_FP32,
    CUDA_FP32_APPEND_DTYPE,
    CUDA_FP32_SET_OPT_DTYPE,
    CUDA_LOWER_PRECISION_FP,
    CUDA_PROMOTE,
)

__all__ = [
    "CPU_LOWER_PRECISION_FP",
    "CPU_FP32",
    "CPU_PROMOTE",
    "is_autocast_enabled",
    "set_autocast_enabled",
    "get_autocast_dtype",
    "set_autocast_dtype",
    "is_autocast_cache_enabled",
    "set_autocast_cache_enabled",
    "clear_autocast_cache",
    "autocast_increment_nesting",
    "autocast_decrement_nesting",
]

DK = DispatchKey

# PyTorch 2.13's AutocastCPU registrations ("op" or "op.overload"), by policy.
CPU_LOWER_PRECISION_FP = (
    "conv1d conv1d.padding conv2d conv2d.padding conv3d conv3d.padding bmm mm linalg_vecdot "
    "baddbmm addmm _addmm_activation addbmm linear _convolution.deprecated matmul conv_tbc "
    "mkldnn_rnn_layer conv_transpose1d conv_transpose2d.input conv_transpose3d.input prelu "
    "scaled_dot_product_attention _native_multi_head_attention"
).split()
CPU_FP32 = (
    "avg_pool3d binary_cross_entropy grid_sampler polar prod prod.dim_int prod.dim_Dimname "
    "quantile quantile.scalar nanquantile nanquantile.scalar stft stft.center cdist "
    "grid_sampler_2d _grid_sampler_2d_cpu_fallback grid_sampler_3d trace view_as_complex "
    "cholesky cholesky_inverse cholesky_solve inverse lu_solve orgqr ormqr pinverse max_pool3d "
    "max_unpool2d max_unpool3d adaptive_avg_pool3d reflection_pad1d reflection_pad2d "
    "replication_pad1d replication_pad2d replication_pad3d mse_loss cosine_embedding_loss "
    "nll_loss nll_loss2d hinge_embedding_loss poisson_nll_loss smooth_l1_loss "
    "cross_entropy_loss l1_loss huber_loss margin_ranking_loss soft_margin_loss "
    "triplet_margin_loss multi_margin_loss ctc_loss.IntList ctc_loss.Tensor kl_div "
    "multilabel_margin_loss binary_cross_entropy_with_logits fft_fft fft_ifft fft_fft2 "
    "fft_ifft2 fft_fftn fft_ifftn fft_rfft fft_irfft fft_rfft2 fft_irfft2 fft_rfftn fft_irfftn "
    "fft_hfft fft_ihfft linalg_cond linalg_cond.p_str linalg_matrix_rank "
    "linalg_matrix_rank.tol_tensor linalg_matrix_rank.atol_rtol_tensor "
    "linalg_matrix_rank.atol_rtol_float linalg_solve linalg_cholesky linalg_svdvals "
    "linalg_eigvals linalg_eigvalsh linalg_inv linalg_householder_product linalg_tensorinv "
    "linalg_tensorsolve fake_quantize_per_tensor_affine geqrf _lu_with_info qr svd "
    "triangular_solve fractional_max_pool2d fractional_max_pool3d adaptive_max_pool3d "
    "multilabel_margin_loss_forward linalg_qr linalg_cholesky_ex linalg_svd linalg_eig "
    "linalg_eigh linalg_lstsq linalg_inv_ex"
).split()
CPU_PROMOTE = "stack cat index_copy index_copy.dimname".split()

# The autocast dtype each device type starts with (PyTorch's autocast_dtype table).
_DEFAULT_DTYPES = {
    "cpu": "bfloat16",
    "cuda": "float16",
    "xpu": "float16",
    "mps": "float16",
    "hpu": "bfloat16",
    "xla": "bfloat16",
    "ipu": "float16",
    "mtia": "float16",
    "maia": "float16",
    "privateuseone": "float16",
}
_KEYS = {
    "cpu": DK.AutocastCPU,
    "cuda": DK.AutocastCUDA,
    "xpu": DK.AutocastXPU,
    "mps": DK.AutocastMPS,
    "hpu": DK.AutocastHPU,
    "xla": DK.AutocastXLA,
    "ipu": DK.AutocastIPU,
    "mtia": DK.AutocastMTIA,
    "maia": DK.AutocastMAIA,
    "privateuseone": DK.AutocastPrivateUse1,
}
_KNOWN_DEVICE_TYPES = (
    "cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, "
    "mps, meta, hpu, mtia, privateuseone"
)


#: Device types autocast learnt at run time (register_backend, rename_privateuse1_backend).
ADDED_DEVICE_TYPES: set[str] = set()


def add_device_type(name: str, like: str, key: Any = None) -> None:
    """Autocast for a new device type: a renamed PrivateUse1 (`like` "privateuseone") or a
    run-time backend (its Autocast key), with `like`'s default lower-precision dtype."""
    ADDED_DEVICE_TYPES.add(name)
    _KEYS[name] = _KEYS[like] if key is None else key
    _DEFAULT_DTYPES[name] = _DEFAULT_DTYPES[like]
    _local.dtypes.setdefault(name, getattr(_dt, _DEFAULT_DTYPES[like]))


class _Local(threading.local):
    def __init__(self) -> None:
        self.dtypes = {k: getattr(_dt, v) for k, v in _DEFAULT_DTYPES.items()}
        self.cache_enabled = True
        self.nesting = 0


_local = _Local()
# The cast cache: id(source) -> (weakref to source, cast tensor). Process-wide, as PyTorch's.
_cache: dict[int, tuple[Any, Tensor]] = {}
_cache_lock = threading.Lock()


def _device_type(device_type: Any) -> str:
    name = str(device_type)
    if name in _KEYS:
        return name
    if name in _KNOWN_DEVICE_TYPES.split(", "):
        raise RuntimeError(
            "unknown device type for autocast in get_autocast_dispatch_key_from_device_type"
        )
    raise RuntimeError(
        f"Expected one of {_KNOWN_DEVICE_TYPES} device type at start of device string: {name}"
    )


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """torch.is_autocast_enabled: without an argument, the CUDA state (PyTorch's default)."""
    key = _KEYS[_device_type("cuda" if device_type is None else device_type)]
    bits = key_bits(key)
    return not _tls.thread_state.exclude & bits


def set_autocast_enabled(device_type: str, enabled: bool | None = None) -> None:
    if enabled is None:  # torch.set_autocast_enabled(bool): the CUDA state
        device_type, enabled = "cuda", bool(device_type)
    key = _KEYS[_device_type(device_type)]
    if enabled and device_type in ("cpu", "cuda"):
        _register(device_type)
    bits = key_bits(key)
    st = _tls.thread_state
    st.exclude = st.exclude & ~bits if enabled else st.exclude | bits
    st.refresh()


def get_autocast_dtype(device_type: str) -> Any:
    return _local.dtypes[_device_type(device_type)]


def set_autocast_dtype(device_type: str, dtype: Any) -> None:
    _local.dtypes[_device_type(device_type)] = dtype


def is_autocast_cache_enabled() -> bool:
    return _local.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    _local.cache_enabled = bool(enabled)


def clear_autocast_cache() -> None:
    with _cache_lock:
        _cache.clear()


def autocast_increment_nesting() -> int:
    _local.nesting += 1
    return _local.nesting


def autocast_decrement_nesting() -> int:
    _local.nesting -= 1
    return _local.nesting


# -- the kernels ------------------------------------------------------------------------------


def _eligible(t: Any, device: str) -> bool:
    """is_autocast_eligible: a floating-point tensor on the region's device type."""
    return isinstance(t, Tensor) and t._dtype.is_floating_point and t.device.type == device


def _eligible_cpu(t: Any) -> bool:
    return _eligible(t, "cpu")


def _cast(arg: Tensor, to_type: Any) -> Tensor:
    """One cast as PyTorch's cached_cast makes it (`arg.to(dtype)`: aten::to.dtype, which
    decomposes to `_to_copy`), called positionally: the dispatcher's fast path, without
    Tensor.to's argument parsing."""
    global _to_dtype
    if _to_dtype is None:
        _to_dtype = fast_call(find_op("aten::to.dtype"))
    return _to_dtype(arg, to_type)


_to_dtype: Any = None


def _cached_cast(to_type: Any, arg: Any, device: str = "cpu") -> Any:
    if isinstance(arg, (list, tuple)):
        return type(arg)(_cached_cast(to_type, a, device) for a in arg)
    if not _eligible(arg, device) or arg._dtype is _dt.float64 or arg._dtype is to_type:
        return arg
    return _cast_eligible(to_type, arg, device)


def _cast_eligible(to_type: Any, arg: Tensor, device: str) -> Tensor:
    """cached_cast of an argument known to need the cast: through the weight cache for the
    float32 leaves that require grad (not views), when casting to the autocast dtype."""
    if (
        arg.requires_grad
        and arg._dtype is _dt.float32
        and to_type is _local.dtypes[device]
        and arg.is_leaf
        and arg._base is None
        and _local.cache_enabled
    ):
        with _cache_lock:
            hit = _cache.get(id(arg))
            if hit is not None and hit[0]() is arg:
                return hit[1]
            cast = _cast(arg, to_type)
            _cache[id(arg)] = (weakref.ref(arg), cast)
            return cast
    return _cast(arg, to_type)


def _cast_args(args: tuple[Any, ...], to_type: Any, device: str) -> tuple[Any, ...]:
    """The arguments with every eligible one cast (cached_cast over each), in order; the tuple
    itself when none needs a cast (the common case for a model already in the low type)."""
    out = None
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            dt = a._dtype
            if dt is to_type or dt is _dt.float64 or not dt.is_floating_point:
                continue
            if a.device.type != device:
                continue
            cast = _cast_eligible(to_type, a, device)
        elif isinstance(a, (list, tuple)) and _needs_cast(a, to_type, device):
            cast = _cached_cast(to_type, a, device)
        else:
            continue
        if out is None:
            out = list(args)
        out[i] = cast
    return args if out is None else tuple(out)


def _promote_type(args: Any, current: Any, device: str = "cpu") -> Any:
    low = _local.dtypes[device]
    for a in args:
        if isinstance(a, (list, tuple)):
            current = _promote_type(a, current, device)
            continue
        if not _eligible(a, device):
            continue
        nxt = a._dtype
        if nxt is _dt.float64:
            continue
        if current is _dt.float32 or nxt is _dt.float32:
            current = _dt.float32
        elif current is low and nxt is low:
            current = low
        else:
            raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return current


def _needs_cast(a: Any, to_type: Any, device: str) -> bool:
    if isinstance(a, Tensor):
        return a._dtype is not to_type and a._dtype is not _dt.float64 and _eligible(a, device)
    if isinstance(a, (list, tuple)):
        return any(_needs_cast(x, to_type, device) for x in a)
    return False


def _first_is_eligible(args: tuple[Any, ...], kwargs: dict[str, Any], device: str) -> bool:
    """firstarg_is_eligible: the first argument (`self`/`input`) is a floating tensor on the
    device, not float64."""
    first = args[0] if args else next(iter(kwargs.values()), None)
    return _eligible(first, device) and first._dtype is not _dt.float64


def _call_below(op: Any, device: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """ExcludeDispatchKeyGuard(the device's Autocast key), written out as the autograd layer's
    guard is: the operator is called again from the top, below that key."""
    bits = _DEVICE_BITS[device]
    st = _tls.thread_state
    exclude, mask, include_and_mask = st.exclude, st.mask, st.include_and_mask
    st.exclude = exclude | bits
    st.mask = new_mask = mask & ~bits
    st.include_and_mask = (include_and_mask[0], new_mask)
    try:
        return op(*args, **kwargs)
    finally:
        st.exclude, st.mask, st.include_and_mask = exclude, mask, include_and_mask


def _make_kernel(op: Any, policy: str, device: str = "cpu") -> Any:
    if policy == "fp32_set_opt_dtype":
        return _set_opt_dtype_kernel(op, device)
    if policy == "banned":
        return _banned_kernel(op)
    if policy == "fp32_append_dtype":
        return _append_dtype_kernel(op, device)

    local, f32 = _local, _dt.float32

    def _kwargs(kwargs: dict[str, Any], to_type: Any) -> dict[str, Any]:
        if any(_needs_cast(v, to_type, device) for v in kwargs.values()):
            return {k: _cached_cast(to_type, v, device) for k, v in kwargs.items()}
        return kwargs

    # One closure per policy: the per-call work is the cast loop and the call below.
    if policy == "lower_precision_fp":

        def kernel(*args: Any, **kwargs: Any) -> Any:
            to_type = local.dtypes[device]
            args = _cast_args(args, to_type, device)
            return _call_below(op, device, args, _kwargs(kwargs, to_type) if kwargs else kwargs)

    elif policy == "fp32":

        def kernel(*args: Any, **kwargs: Any) -> Any:
            args = _cast_args(args, f32, device)
            return _call_below(op, device, args, _kwargs(kwargs, f32) if kwargs else kwargs)

    else:

        def kernel(*args: Any, **kwargs: Any) -> Any:
            to_type = _promote_type(args, local.dtypes[device], device)
            if kwargs:
                to_type = _promote_type(tuple(kwargs.values()), to_type, device)
            args = _cast_args(args, to_type, device)
            return _call_below(op, device, args, _kwargs(kwargs, to_type) if kwargs else kwargs)

    kernel.__name__ = f"autocast_{device}_{policy}_{op._name.split('::')[-1]}"
    return kernel


def _set_opt_dtype_kernel(op: Any, device: str) -> Any:
    """fp32_set_opt_dtype (sum, softmax, cumsum, norms on CUDA): no cast; when the first
    argument is eligible and the caller gave no dtype, the call gets dtype=float32."""
    names = [a.name for a in op._schema.arguments]
    pos = names.index("dtype")

    def kernel(*args: Any, **kwargs: Any) -> Any:
        if _first_is_eligible(args, kwargs, device):
            if len(args) > pos:
                if args[pos] is None:
                    args = (*args[:pos], _dt.float32, *args[pos + 1 :])
            elif kwargs.get("dtype") is None:
                kwargs = {**kwargs, "dtype": _dt.float32}
        return _call_below(op, device, args, kwargs)

    kernel.__name__ = f"autocast_{device}_fp32_set_opt_dtype_{op._name.split('::')[-1]}"
    return kernel


def _append_dtype_kernel(op: Any, device: str) -> Any:
    """fp32_append_dtype (norm.Scalar, norm.ScalarOpt_dim on CUDA): call the dtype-taking
    overload with float32 when the first argument is eligible, else with the first argument's
    own dtype (type_from_firstarg); the registered overload's defaults are filled in, since the
    target has none."""
    ov = op._schema.overload_name
    name = op._schema.name.split("::")[-1] + (f".{ov}" if ov else "")
    target = find_op("aten::" + CUDA_FP32_APPEND_DTYPE[name])
    names, defaults = (
        (("p",), (2,)) if name == "norm.Scalar" else (("p", "dim", "keepdim"), (None, None, False))
    )

    def kernel(self: Any, *args: Any, **kwargs: Any) -> Any:
        out_type = _dt.float32 if _first_is_eligible((self,), {}, device) else self._dtype
        n = len(args)
        full = [*args, *(kwargs.pop(k, d) for k, d in zip(names[n:], defaults[n:]))]
        return _call_below(target, device, (self, *full), {**kwargs, "dtype": out_type})

    kernel.__name__ = f"autocast_{device}_fp32_append_dtype_{name}"
    return kernel


def _banned_kernel(op: Any) -> Any:
    def kernel(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to "
            "autocast.\nMany models use a sigmoid layer right before the binary cross entropy "
            "layer.\nIn this case, combine the two layers using "
            "torch.nn.functional.binary_cross_entropy_with_logits\nor torch.nn.BCEWithLogitsLoss."
            "  binary_cross_entropy_with_logits and BCEWithLogits are\nsafe to autocast."
        )

    kernel.__name__ = "autocast_binary_cross_entropy_banned"
    return kernel


_DEVICE_BITS = {dev: key_bits(key) for dev, key in _KEYS.items()}
_lib: dict[str, Any] = {}
_registered: set[tuple[str, str]] = set()
# Per device type, the policy lists (device -> ((policy, names), ...)): CPU's above, CUDA's in
# layers/autocast_cuda.py; the kernels here serve them all.
POLICIES: dict[str, tuple[tuple[str, list[str]], ...]] = {
    "cpu": (
        ("lower_precision_fp", CPU_LOWER_PRECISION_FP),
        ("fp32", CPU_FP32),
        ("promote", CPU_PROMOTE),
    ),
    "cuda": (
        ("lower_precision_fp", CUDA_LOWER_PRECISION_FP),
        ("fp32", CUDA_FP32),
        ("fp32_set_opt_dtype", CUDA_FP32_SET_OPT_DTYPE),
        ("promote", CUDA_PROMOTE),
        ("banned", ["binary_cross_entropy"]),
        ("fp32_append_dtype", list(CUDA_FP32_APPEND_DTYPE)),
    ),
}


def _register(device: str = "cpu") -> None:
    """Register the Autocast kernels of every listed operator keyroute defines for a device type
    (on first enable, so operators defined after import are covered and import pays
    nothing)."""
    todo = [
        (name, policy)
        for policy, names in POLICIES.get(device, ())
        for name in names
        if (device, name) not in _registered
    ]
    if not todo:
        return
    if device not in _lib:
        _lib[device] = Library._internal("aten", "IMPL")
    key = _KEYS[device].name
    for name, policy in todo:
        op = find_op("aten::" + name)
        if op is None:
            continue
        kernel = _make_kernel(op, policy, device)
        _lib[device].impl(name, kernel, key)
        _registered.add((device, name))


def register_policy(device: str, name: str, kernel: Any) -> None:
    """Register one Autocast kernel for a device type outside the lists (norm's
    fp32_append_dtype, custom ops' register_autocast), once."""
    if (device, name) in _registered:
        return
    if device not in _lib:
        _lib[device] = Library._internal("aten", "IMPL")
    _lib[device].impl(name, kernel, _KEYS[device].name)
    _registered.add((device, name))


def policy_of(name: str, device: str = "cpu") -> str | None:
    """The policy PyTorch gives an operator ("op" or "op.overload") on a device type, or
    None."""
    for policy, names in POLICIES.get(device, ()):
        if name in names:
            return policy
    return None
