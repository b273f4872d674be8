"""The functorch layers: the dynamic layer stack, batched tensors and vmap's fallback.

functorch's design (aten/src/ATen/functorch/): every transform that is running is a *level*
on a thread-local stack of interpreters (a vmap level knows its batch size and randomness
mode; a grad level its nesting). A `BatchedTensor` wraps a tensor (its *value*, the physical
tensor with the batch dimension in it) and records which dimension of the value is the batch
dimension of which level; its key set carries `FuncTorchBatched`, so every operator on it
reaches this module's fallback. The fallback takes the highest level among the arguments,
unwraps the arguments batched at that level, runs the operator's *batching rule* on the
physical values with the stack cut below that level (so the values' own operators are handled
by the lower levels, as `FuncTorchDynamicLayerBackMode` does in PyTorch) and wraps the
results again. Operators without a rule run PyTorch's boxed per-sample fallback: one call per
sample on `select`ed slices, then `stack` (with PyTorch's performance warning).

While a vmap level is on the stack, `FuncTorchDynamicLayerFrontMode` is in the TLS include set:
random operators are routed through the front fallback, which applies the level's randomness
mode ("error" / "same" / "different") even when no argument is batched. A bind hook binds every
other operator straight past that key, so only random operators pay for it (Note [plain path]).
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from .._C import _disabled_torch_function_impl
from ..dispatcher.boxing import normalize_args
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import full_after_bits, key_bits
from ..dispatcher.operator import BIND_HOOKS
from ..dispatcher.registration import Library
from ..dispatcher.tls import state as _tls
from ..tensor._tensor import BACKEND_BITS, Tensor, make_tensor
from ..tensor.meta_array import MetaArray, MetaStorage
from ..tensor.subclass import keys_for_device

__all__ = [
    "BatchedTensor",
    "VmapInterpreter",
    "GradInterpreter",
    "layer_stack",
    "push_layer",
    "pop_layer",
    "add_batch_dim",
    "remove_batch_dim",
    "unwrap_at",
    "is_batchedtensor",
    "RULES",
    "DECOMPS",
    "register_rule",
    "loop_fallback",
    "RANDOM_OPS",
]

DK = DispatchKey
_BATCHED_BIT = key_bits(DK.FuncTorchBatched)
_FRONT_BIT = key_bits(DK.FuncTorchDynamicLayerFrontMode)
_AFTER_FRONT = full_after_bits(DK.FuncTorchDynamicLayerFrontMode)


# ----------------------------------------------------------------------------- the stack
class VmapInterpreter:
    """One vmap level: its batch size and randomness mode."""

    __slots__ = ("level", "batch_size", "randomness")
    kind = "vmap"

    def __init__(self, level: int, batch_size: int, randomness: str) -> None:
        self.level = level
        self.batch_size = batch_size
        self.randomness = randomness

    def __repr__(self) -> str:
        return f"VmapInterpreter(level={self.level}, batch_size={self.batch_size})"


class GradInterpreter:
    """One grad (reverse-mode) level: tensors are lifted into it as fresh autograd inputs."""

    __slots__ = ("level", "prev_grad_mode")
    kind = "grad"

    def __init__(self, level: int, prev_grad_mode: bool) -> None:
        self.level = level
        self.prev_grad_mode = prev_grad_mode

    def __repr__(self) -> str:
        return f"GradInterpreter(level={self.level})"


class _Local(threading.local):
    def __init__(self) -> None:
        self.stack: list[Any] = []


_local = _Local()


def layer_stack() -> list[Any]:
    """This thread's dynamic layer stack (innermost transform last)."""
    return _local.stack


def _sync_front_key(stack: list[Any]) -> None:
    st = _tls.thread_state
    want = False
    for i in stack:
        if i.kind == "vmap":
            want = True
            break
    if want != bool(st.include & _FRONT_BIT):
        st.include = (st.include | _FRONT_BIT) if want else (st.include & ~_FRONT_BIT)
        st.refresh()


def push_layer(kind: str, **info: Any) -> Any:
    """Push a new level, numbered as PyTorch numbers them (the stack depth, from 1)."""
    stack = _local.stack
    level = len(stack) + 1
    interp = VmapInterpreter(level, **info) if kind == "vmap" else GradInterpreter(level, **info)
    stack.append(interp)
    _sync_front_key(stack)
    return interp


def pop_layer(interp: Any) -> None:
    stack = _local.stack
    if not stack or stack[-1] is not interp:
        raise RuntimeError("functorch: the dynamic layer stack was corrupted (levels out of order)")
    stack.pop()
    _sync_front_key(stack)


@contextlib.contextmanager
def _below(level: int) -> Iterator[None]:
    """Run with the levels >= `level` removed (PyTorch's DynamicLayerBackMode handoff)."""
    stack = _local.stack
    cut = len(stack)
    while cut and stack[cut - 1].level >= level:
        cut -= 1
    if cut == len(stack):
        yield
        return
    saved = stack[cut:]
    del stack[cut:]
    _sync_front_key(stack)
    try:
        yield
    finally:
        stack.extend(saved)
        _sync_front_key(stack)


def _cut(level: int) -> list[Any] | None:
    """Remove the levels >= `level` (the hot paths' _below, without a context manager or a
    front-key flip: see batched_fallback); hand the result to `_uncut` in a finally."""
    stack = _local.stack
    cut = len(stack)
    while cut and stack[cut - 1].level >= level:
        cut -= 1
    if cut == len(stack):
        return None
    saved = stack[cut:]
    del stack[cut:]
    return saved


def _uncut(saved: list[Any] | None) -> None:
    if saved is not None:
        _local.stack.extend(saved)


def _interpreter(level: int) -> Any:
    for interp in _local.stack:
        if interp.level == level:
            return interp
    return None


def top_vmap() -> Any:
    for interp in reversed(_local.stack):
        if interp.kind == "vmap":
            return interp
    return None


# ----------------------------------------------------------------------------- BatchedTensor
class BatchedTensor(Tensor):
    """A tensor batched at one vmap level: `_value` holds the batch dimension at `_bdim`.

    Its metadata (shape, strides, dtype) is the per-sample one; it has no data of its own.
    Like PyTorch's (a C++ TensorImpl there) it has no `__torch_function__` of its own."""

    __torch_function__ = staticmethod(_disabled_torch_function_impl)

    # PyTorch's BatchedTensor is a C++ tensor with no __torch_function__: opting out keeps the
    # __torch_function__ wrappers (keyroute/overrides.py) off the hot path of every call.
    __torch_function__ = _disabled_torch_function_impl

    def __repr__(self, *, tensor_contents: Any = None) -> str:  # type: ignore[override]
        d = self.__dict__
        value = "\n".join("    " + line for line in repr(d["_value"]).split("\n"))
        return f"BatchedTensor(lvl={d['_level']}, bdim={d['_bdim']}, value=\n{value}\n)"

    def __bool__(self) -> bool:
        raise RuntimeError(
            "vmap: It looks like you're attempting to use a Tensor in some data-dependent "
            "control flow. We don't support that yet, please file an issue at "
            "https://github.com/pytorch/pytorch/issues ."
        )

    @property
    def requires_grad(self) -> bool:  # type: ignore[override]
        return self.__dict__["_value"].requires_grad


def is_batchedtensor(t: Any) -> bool:
    return type(t) is BatchedTensor


_KEYS_BY_BACKEND: dict[int, int] = {}


def _keys(value: Tensor) -> int:
    """A BatchedTensor's key set: FuncTorchBatched plus its value's device keys (cached)."""
    backend = value._key_set & BACKEND_BITS
    ks = _KEYS_BY_BACKEND.get(backend)
    if ks is None:
        ks = _KEYS_BY_BACKEND[backend] = keys_for_device(value.device) | _BATCHED_BIT
    return ks


_NO_STORAGE = MetaStorage(0)


def add_batch_dim(value: Tensor, bdim: int, level: int) -> BatchedTensor:
    """Wrap `value` as batched at `level` over its dimension `bdim` (PyTorch's _add_batch_dim)."""
    data = value._data
    shape = data.shape
    if data.__class__ is MetaArray:
        strides = data.stride
    else:
        item = data.itemsize
        strides = tuple(s // item for s in data.strides)
    # The logical geometry only (no data): the storage size is never read through a
    # BatchedTensor, so it is not computed (this runs for every batched operator's output).
    meta = MetaArray(
        shape[:bdim] + shape[bdim + 1 :], strides[:bdim] + strides[bdim + 1 :], value._dtype.np,
        0, 0, _NO_STORAGE,
    )  # fmt: skip
    t = make_tensor(meta, value._dtype, _keys(value), BatchedTensor)
    d = t.__dict__
    d["_value"] = value
    d["_bdim"] = bdim
    d["_level"] = level
    return t  # type: ignore[return-value]


def _relogical(t: BatchedTensor, value: Tensor, bdim: int) -> None:
    """Point `t` at `value` batched over `bdim` (after an in-place view op changed them)."""
    shape = tuple(value.shape)
    strides = tuple(value.stride())
    t._data = MetaArray(shape[:bdim] + shape[bdim + 1 :], strides[:bdim] + strides[bdim + 1 :],
                        value._dtype.np)  # fmt: skip
    d = t.__dict__
    d["_value"] = value
    d["_bdim"] = bdim


def unwrap_at(t: Any, level: int) -> tuple[Any, int | None]:
    """(value, batch dim) when `t` is batched at `level`, else (t, None)."""
    if type(t) is BatchedTensor:
        d = t.__dict__
        if d["_level"] == level:
            return d["_value"], d["_bdim"]
    return t, None


def remove_batch_dim(t: Any, level: int, batch_size: int, out_dim: int) -> Tensor:
    """The physical tensor for `t` with level's batch dimension at `out_dim` (an unbatched `t`
    is expanded, as PyTorch's _remove_batch_dim)."""
    value, bdim = unwrap_at(t, level)
    if bdim is None:
        out_dim = _wrap(out_dim, t.dim() + 1)
        shape = list(t.shape)
        shape.insert(out_dim, batch_size)
        return t.unsqueeze(out_dim).expand(shape)
    out_dim = _wrap(out_dim, value.dim())
    return value if bdim == out_dim else value.movedim(bdim, out_dim)


def _wrap(dim: int, n: int) -> int:
    if not -n <= dim < max(n, 1):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n if n else 0


def _max_level(values: Any) -> int:
    level = 0
    for v in values:
        if type(v) is BatchedTensor:
            lv = v.__dict__["_level"]
            if lv > level:
                level = lv
        elif isinstance(v, (list, tuple)):
            lv = _max_level(v)
            if lv > level:
                level = lv
    return level


# ----------------------------------------------------------------------------- rules
class RuleInfo:
    """What a batching rule knows about its level (PyTorch's VmapInfo for custom ops)."""

    __slots__ = ("level", "batch_size", "randomness")

    def __init__(self, level: int, batch_size: int, randomness: str) -> None:
        self.level = level
        self.batch_size = batch_size
        self.randomness = randomness


#: qualified operator name -> rule(op, info, args, kwargs). Rules run with the stack cut below
#: their level and see BatchedTensors of that level (unwrap them with `unwrap_at`).
RULES: dict[str, Callable[..., Any]] = {}
#: Decompositions at a level (like PyTorch's FuncTorchBatchedDecomposition kernels): called
#: with the operator's own arguments, the stack not cut, their parts meeting the rules.
DECOMPS: dict[str, Callable[..., Any]] = {}
#: Random operators (PyTorch's nondeterministic_seeded tag), filled by the rule tables.
RANDOM_OPS: set[str] = set()


def register_rule(name: str, rule: Callable[..., Any]) -> None:
    RULES[name] = rule


def _cia_kernel(op: Any) -> Any:
    reg = op._active(int(DK.CompositeImplicitAutograd))
    return None if reg is None else reg.fn


#: op -> how many leading positional parameters it has: a call passing only positional
#: arguments, none past the required ones but Tensors (never equal to a default), is already
#: in the normalized form (normalize_args would return it unchanged).
#: Keyed by id (an OpOverload's __hash__ is a Python method), the op kept to check identity.
_POSITIONAL: dict[int, tuple[Any, int, int]] = {}


def _positional_counts(op: Any) -> tuple[int, int]:
    entry = _POSITIONAL.get(id(op))
    if entry is not None and entry[0] is op:
        return entry[1], entry[2]
    arguments = op._schema.arguments if op._schema is not None else ()
    required = positional = 0
    for a in arguments:
        if a.kwarg_only:
            break
        positional += 1
        if not a.has_default_value() and required == positional - 1:
            required += 1
    _POSITIONAL[id(op)] = (op, required, positional)
    return required, positional


def _normalized(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if not kwargs and op._schema is not None:
        required, positional = _positional_counts(op)
        n = len(args)
        if n == required or (
            required < n <= positional and all(hasattr(a, "_key_set") for a in args[required:])
        ):
            return args, kwargs
    return normalize_args(op._schema, args, kwargs)


def batched_fallback(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    """The FuncTorchBatched kernel of every operator: the rule of the highest level."""
    args, kwargs = _normalized(op, args, kwargs)
    level = _max_level(args)
    lk = _max_level(kwargs.values())
    if lk > level:
        level = lk
    name = op.qualified_name()
    rule = RULES.get(name)
    if rule is None:
        decomp = DECOMPS.get(name)
        if decomp is not None:
            return decomp(*args, **kwargs)
        cia = _cia_kernel(op)
        if cia is not None:
            # A composite operator decomposes at its level (PyTorch registers them as
            # FuncTorchBatchedDecomposition kernels): its parts meet the batching rules.
            return cia(*args, **kwargs)
        rule = loop_fallback
    interp = _interpreter(level)
    if interp is None:
        raise RuntimeError(
            f"vmap: a BatchedTensor of level {level} was used after its vmap returned "
            f"(it escaped through a side channel); operator {name}"
        )
    info = RuleInfo(level, interp.batch_size, interp.randomness)
    # The stack cut below `level` (as _below does, inlined: this runs for every batched op).
    # The front-mode key is left as it is: with the cut stack, front_fallback sends a random
    # operator on to the level that remains (or past, when none does), which is what
    # dropping the key would do, and the key set flips twice less per batched operator.
    saved = _cut(level)
    if saved is None:
        return rule(op, info, args, kwargs)
    try:
        return rule(op, info, args, kwargs)
    finally:
        _local.stack.extend(saved)


# ----------------------------------------------------------------------------- loop fallback
def _is_inplace(schema: Any) -> bool:
    args = schema.arguments
    return bool(args) and args[0].alias_info is not None and args[0].alias_info.is_write


def _fallback_checks(op: Any) -> None:
    schema = op._schema
    if any(a.is_out for a in schema.arguments) or (
        not _is_inplace(schema) and any(r.alias_info is not None for r in schema.returns)
    ):
        raise RuntimeError(
            f"Batching rule not implemented for {op.qualified_name()}; the fallback path "
            f"doesn't work on out= or view ops."
        )
    if not schema.returns or any(
        str(r.type) not in ("Tensor", "Tensor(a!)") for r in schema.returns
    ):
        if not _is_inplace(schema):
            raise RuntimeError(
                f"Batching rule not implemented for {op.qualified_name()}. "
                f"We could not generate a fallback."
            )


def _perf_warning(op: Any) -> None:
    warnings.warn(
        f"There is a performance drop because we have not yet implemented the batching rule "
        f"for {op.qualified_name()}. Please file us an issue on GitHub so that we can "
        f"prioritize its implementation.",
        UserWarning,
        stacklevel=4,
    )


def _slice(v: Any, level: int, i: int) -> Any:
    if type(v) is BatchedTensor:
        value, bdim = unwrap_at(v, level)
        if bdim is not None:
            return value.select(bdim, i)
        return v
    if isinstance(v, (list, tuple)) and any(type(x) is BatchedTensor for x in v):
        return type(v)(_slice(x, level, i) for x in v)
    return v


def _any_batched(v: Any, level: int) -> bool:
    if type(v) is BatchedTensor:
        return unwrap_at(v, level)[1] is not None
    if isinstance(v, (list, tuple)):
        return any(_any_batched(x, level) for x in v)
    return False


def loop_fallback(op: Any, info: RuleInfo, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """PyTorch's batchedTensorForLoopFallback: run the operator once per sample on `select`ed
    slices and `stack` the results along dimension 0."""
    from .._ops import ops

    level = info.level
    _fallback_checks(op)
    _perf_warning(op)
    inplace = _is_inplace(op._schema)
    if inplace and not _any_batched(args[0], level):
        if any(_any_batched(a, level) for a in args[1:]) or any(
            _any_batched(v, level) for v in kwargs.values()
        ):
            raise RuntimeError(
                f"vmap: {op.qualified_name()}(self, *extra_args) is not possible because there "
                f"exists a Tensor `other` in extra_args that has more elements than `self`. This "
                f"happened due to `other` being vmapped over but `self` not being vmapped over in "
                f"a vmap. Please try to use out-of-place operators instead of "
                f"{op.qualified_name()}. If said operator is being called inside the PyTorch "
                f"framework, please file a bug report instead."
            )
    results = []
    for i in range(info.batch_size):
        a_i = tuple(_slice(a, level, i) for a in args)
        k_i = {k: _slice(v, level, i) for k, v in kwargs.items()}
        results.append(op(*a_i, **k_i))
    if inplace:
        return args[0]
    if isinstance(results[0], tuple):
        return tuple(
            add_batch_dim(ops.aten.stack.default([r[j] for r in results]), 0, level)
            for j in range(len(results[0]))
        )
    return add_batch_dim(ops.aten.stack.default(results), 0, level)


# ----------------------------------------------------------------------------- front mode
_RANDOM_ERROR = (
    "vmap: called random operation while in randomness error mode. Please either use the "
    "'same' or 'different' randomness flags on vmap or perform the randomness operation out "
    "of vmap"
)
_INPLACE_DIFFERENT = (
    "vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will appear "
    "like same randomness. If this is necessary for your usage, please file an issue with "
    "functorch."
)


def random_rule(op: Any, interp: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A random operator at a vmap level (`args` possibly batched at it); the stack is cut."""
    from .._ops import ops

    level = interp.level
    mode = interp.randomness
    if mode == "error":
        raise RuntimeError(_RANDOM_ERROR)
    batched = any(_any_batched(a, level) for a in args) or any(
        _any_batched(v, level) for v in kwargs.values()
    )
    inplace = _is_inplace(op._schema)
    if mode == "same":
        if not batched:
            return op(*args, **kwargs)
        if inplace:
            # The same draws for every sample: one draw of the per-sample shape, copied in.
            self_v, bdim = unwrap_at(args[0], level)
            if bdim is not None and len([a for a in args if _any_batched(a, level)]) == 1:
                sample = op(self_v.select(bdim, 0).clone(), *args[1:], **kwargs)
                self_v.copy_(sample.unsqueeze(bdim).expand_as(self_v))
                return args[0]
        # Same randomness over batched data: replay the generator state for every sample.
        from .. import random as _random

        state = _random.get_rng_state()
        outs = []
        for i in range(interp.batch_size):
            _random.set_rng_state(state)
            outs.append(
                op(
                    *(_slice(a, level, i) for a in args),
                    **{k: _slice(v, level, i) for k, v in kwargs.items()},
                )
            )
        if inplace:
            return args[0]
        if isinstance(outs[0], tuple):
            return tuple(
                add_batch_dim(ops.aten.stack.default([o[j] for o in outs]), 0, level)
                for j in range(len(outs[0]))
            )
        return add_batch_dim(ops.aten.stack.default(outs), 0, level)
    # "different"
    if inplace:
        self_v, bdim = unwrap_at(args[0], level)
        if bdim is None:
            raise RuntimeError(_INPLACE_DIFFERENT)
        rest = [
            remove_batch_dim(a, level, interp.batch_size, bdim) if isinstance(a, Tensor) else a
            for a in args[1:]
        ]
        op(self_v, *rest, **kwargs)
        return args[0]
    schema = op._schema
    names = [a.name for a in schema.arguments]
    if "size" in names and not batched:
        i = names.index("size")
        al = list(args)
        if i < len(al):
            al[i] = [interp.batch_size, *al[i]]
            return add_batch_dim(op(*al, **kwargs), 0, level)
        kwargs = dict(kwargs)
        kwargs["size"] = [interp.batch_size, *kwargs["size"]]
        return add_batch_dim(op(*args, **kwargs), 0, level)
    if args and isinstance(args[0], Tensor) and len(schema.returns) == 1:
        # *_like and data-driven draws: every tensor argument with the batch dimension first.
        al = [
            remove_batch_dim(a, level, interp.batch_size, 0) if isinstance(a, Tensor) else a
            for a in args
        ]
        if op.qualified_name().endswith("_like") or all(
            isinstance(a, Tensor) is False or a.dim() > 0 for a in al
        ):
            return add_batch_dim(op(*al, **kwargs), 0, level)
    outs = [op(*args, **kwargs) for _ in range(interp.batch_size)]
    if isinstance(outs[0], tuple):
        return tuple(
            add_batch_dim(ops.aten.stack.default([o[j] for o in outs]), 0, level)
            for j in range(len(outs[0]))
        )
    return add_batch_dim(ops.aten.stack.default(outs), 0, level)


def _random_batched_rule(op: Any, info: RuleInfo, args: Any, kwargs: Any) -> Any:
    return random_rule(op, info, args, kwargs)


def front_fallback(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    """FuncTorchDynamicLayerFrontMode: random operators without a batched argument meet the
    innermost vmap level's randomness mode here."""
    args, kwargs = normalize_args(op._schema, args, kwargs)
    interp = top_vmap()
    if interp is None or _max_level(args) or _max_level(kwargs.values()):
        return op._redispatch(keyset.repr_ & _AFTER_FRONT, *args, **kwargs)
    with _below(interp.level):
        return random_rule(op, interp, args, kwargs)


def _bind_front(op: Any, ks: int, key: int, reg: Any, bound: Any) -> Any:
    """Bind hook: the front mode only looks at random operators; the others bind below it."""
    if reg.fn is not front_fallback or op.qualified_name() in RANDOM_OPS:
        return bound
    return op._resolve(ks & _AFTER_FRONT, True)


functorch_lib = Library._internal("_", "IMPL")
functorch_lib.fallback(batched_fallback, "FuncTorchBatched", with_keyset=True)
functorch_lib.fallback(front_fallback, "FuncTorchDynamicLayerFrontMode", with_keyset=True)
BIND_HOOKS.append(_bind_front)


# ----------------------------------------------------------------------------- register_vmap
class VmapInfo:
    """What a user's vmap rule is told (PyTorch's torch._functorch.autograd_function.VmapInfo)."""

    __slots__ = ("batch_size", "randomness")

    def __init__(self, batch_size: int, randomness: str) -> None:
        self.batch_size = batch_size
        self.randomness = randomness

    def __repr__(self) -> str:
        return f"VmapInfo(batch_size={self.batch_size}, randomness='{self.randomness}')"


def register_vmap_rule(qualname: str, func: Callable[..., Any]) -> None:
    """Install a user's rule func(info, in_dims, *args, **kwargs) -> (output, out_dims) for an
    operator (torch.library.register_vmap): it sees the unwrapped values and their batch dims."""

    def rule(op: Any, info: RuleInfo, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        level = info.level

        def split(a: Any) -> tuple[Any, Any]:
            if isinstance(a, (list, tuple)) and any(isinstance(x, Tensor) for x in a):
                parts = [split(x) for x in a]
                return type(a)(p[0] for p in parts), type(a)(p[1] for p in parts)
            if isinstance(a, Tensor):
                return unwrap_at(a, level)
            return a, None

        pairs = [split(a) for a in args]
        values = tuple(p[0] for p in pairs)
        in_dims = tuple(p[1] for p in pairs)
        kw = {k: split(v)[0] for k, v in kwargs.items()}
        out, out_dims = func(VmapInfo(info.batch_size, info.randomness), in_dims, *values, **kw)
        return _wrap_user(out, out_dims, level)

    RULES[qualname] = rule


def _wrap_user(out: Any, out_dims: Any, level: int) -> Any:
    if isinstance(out, Tensor):
        if isinstance(out_dims, tuple) and len(out_dims) == 1:
            out_dims = out_dims[0]
        return out if out_dims is None else add_batch_dim(out, out_dims % max(out.dim(), 1), level)
    if isinstance(out, (tuple, list)):
        dims = out_dims if isinstance(out_dims, (tuple, list)) else [out_dims] * len(out)
        return type(out)(_wrap_user(o, d, level) for o, d in zip(out, dims))
    return out
