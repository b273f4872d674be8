"""opcheck: test that a (custom) operator is registered honestly (torch.library.opcheck).

    opcheck(op, args, kwargs=None) -> {"test_schema": "SUCCESS", ...}

The tests, PyTorch's names and order:

- test_schema: runs the op (on copies of the inputs) under SchemaCheckMode: inputs mutated or
  aliased only as the schema declares.
- test_autograd_registration: when an input requires grad, the op must have a kernel on an
  autograd key (AutogradCPU, Autograd) or CompositeImplicitAutograd, or else none of its outputs
  may require grad (a formula registered on a backend key would be silently wrong).
- test_faketensor: the op on FakeTensors gives the real outputs' shapes, dtypes, strides and
  devices (PyTorch's CrossRefFakeMode message).
- test_aot_dispatch_dynamic / test_aot_dispatch_static: PyTorch compares eager outputs and
  gradients with AOTAutograd's. keyroute has no compiler; its stand-in runs the eager forward
  and backward (sum of |outputs|, as PyTorch's check), which raises what PyTorch raises there
  (e.g. no autograd formula), repeats them on FakeTensors (the traced run), and compares the
  eager gradients with finite differences (float64) where PyTorch compares them with the
  compiled ones.

A failing test raises OpCheckError("opcheck(op, ...): <test> failed with <error> (scroll up for
stack trace)") chained to the error, or with raise_exception=False stores the error itself in
the returned dict.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.operator import OpOverload
from ..tensor._tensor import Tensor

__all__ = [
    "opcheck",
    "OpCheckError",
    "DEFAULT_TEST_UTILS",
    "ALL_TEST_UTILS",
    "MetadataMismatchError",
]

DEFAULT_TEST_UTILS = (
    "test_schema",
    "test_autograd_registration",
    "test_faketensor",
    "test_aot_dispatch_dynamic",
)


class OpCheckError(Exception):
    """An opcheck test failed (the message says which; the cause says why)."""


class MetadataMismatchError(RuntimeError):
    """The fake implementation's outputs differ from the real ones (PyTorch's class name)."""


def _resolve(op: Any) -> OpOverload:
    from .._library.custom_ops import CustomOpDef
    from ..dispatcher.operator import OpOverloadPacket

    if isinstance(op, CustomOpDef):
        return op._opoverload
    if isinstance(op, OpOverloadPacket):
        names = op.overloads()
        if len(names) != 1:
            raise RuntimeError(
                f"opcheck can only test operators without overloads. Got the following "
                f"overloads for {op._qualified_op_name}: "
                f"{['' if n == 'default' else n for n in names]}"
            )
        return getattr(op, names[0])
    if isinstance(op, OpOverload):
        return op
    raise ValueError(
        f"opcheck(op, ...): op must be instance of torch._ops.OpOverload, e.g. "
        f"torch.ops.aten.sin.default, got {type(op)}"
    )


def _copy(v: Any) -> Any:
    """A deep copy of the tensors in v (same requires_grad; leaves again)."""
    if isinstance(v, Tensor):
        out = v.detach().clone()
        if v.requires_grad:
            out.requires_grad_(True)
        return out
    if isinstance(v, (list, tuple)):
        return type(v)(_copy(x) for x in v)
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v


def _flat(v: Any) -> list[Tensor]:
    if isinstance(v, Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in _flat(x)]
    if isinstance(v, dict):
        return [t for x in v.values() for t in _flat(x)]
    return []


def _is_abstract(t: Tensor) -> bool:
    from ..subclasses.fake_tensor import FakeTensor

    return isinstance(t, FakeTensor) or t.is_meta


# -- test_schema -------------------------------------------------------------------------------


def schema_check(op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from ..utils.schema_check import SchemaCheckMode

    args, kwargs = _copy((args, kwargs))
    if any(_is_abstract(t) for t in _flat((args, kwargs))):
        return None
    with SchemaCheckMode():
        return op(*args, **kwargs)


# -- test_autograd_registration ----------------------------------------------------------------


def autograd_registration_check(
    op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    tensors = _flat((args, kwargs))
    if any(_is_abstract(t) for t in tensors):
        return
    args, kwargs = _copy((args, kwargs))
    tensors = _flat((args, kwargs))
    if not any(t.requires_grad for t in tensors):
        return
    devices = {t.device.type for t in tensors}
    if not devices.issubset({"cpu", "cuda", "xpu"}):
        raise NotImplementedError(
            f"autograd_registration_check: NYI devices other than CPU/CUDA/XPU, got {devices}"
        )
    key = {"cuda": DispatchKey.AutogradCUDA, "xpu": DispatchKey.AutogradXPU}.get(
        next((d for d in ("cuda", "cpu", "xpu") if d in devices), "cpu"), DispatchKey.AutogradCPU
    )
    for k in (key, DispatchKey.Autograd, DispatchKey.CompositeImplicitAutograd):
        if op.has_kernel_for_dispatch_key(k):
            return
    from ..autograd.grad_mode import no_grad  # noqa: F401  (keeps the import cost out of the loop)

    outs = op(*args, **kwargs)
    ids = {id(t) for t in tensors}
    if any(t.requires_grad and id(t) not in ids for t in _flat(outs)):
        raise AssertionError(
            f"{op.name()}: at least one output of this operator has requires_grad=True but the "
            f"operator does not have an autograd kernel defined at an autograd key (e.g. "
            f"DispatchKey::Autograd). This could mean that you have incorrectly registered an "
            f"autograd kernel to a non-Autograd DispatchKey, which may lead to silently "
            f"incorrect results. If your operator consists of regular PyTorch operations, "
            f"consider not using an operator at all or registering your operator as "
            f"CompositeImplicitAutograd. If you have an autograd.Function registered to a "
            f"backend (CPU/CUDA/XPU) key, the correct location for it is the Autograd key."
        )


# -- test_faketensor ---------------------------------------------------------------------------


def _describe_mismatch(real: Tensor, fake: Tensor) -> str | None:
    if tuple(real.shape) != tuple(fake.shape):
        return f"Shapes {real.shape} and {fake.shape} are not equal!"
    if real.dtype != fake.dtype:
        return f"Dtypes {real.dtype} and {fake.dtype} are not equal!"
    if real.device != fake.device:
        return f"Devices {real.device} and {fake.device} are not equal!"
    rs, fs = real.stride(), fake.stride()
    for i, (a, b) in enumerate(zip(rs, fs)):
        if a != b and real.shape[i] > 1:
            return f"Stride mismatch! Strides are {rs} and {fs} (mismatched at {i})!"
    if real.storage_offset() != fake.storage_offset():
        return (
            f"Storage offset mismatch! Storage offsets are {real.storage_offset()} and "
            f"{fake.storage_offset()}!"
        )
    return None


def _fake(mode: Any, v: Any) -> Any:
    if isinstance(v, Tensor):
        return mode.from_tensor(v)
    if isinstance(v, (list, tuple)):
        return type(v)(_fake(mode, x) for x in v)
    if isinstance(v, dict):
        return {k: _fake(mode, x) for k, x in v.items()}
    return v


def fake_check(op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from ..subclasses.fake_tensor import FakeTensorMode

    if any(_is_abstract(t) for t in _flat((args, kwargs))):
        return
    args, kwargs = _copy((args, kwargs))
    mode = FakeTensorMode()
    fargs, fkwargs = _fake(mode, (args, kwargs))
    with mode:
        fake = op(*fargs, **fkwargs)
    real = op(*args, **kwargs)
    reals = real if isinstance(real, (tuple, list)) else (real,)
    fakes = fake if isinstance(fake, (tuple, list)) else (fake,)
    if len(reals) != len(fakes):
        raise MetadataMismatchError(
            f"When comparing the output of {op} on FakeTensor and concrete Tensors, found "
            f"{len(fakes)} fake outputs and {len(reals)} real ones"
        )
    for r, f in zip(reals, fakes):
        if isinstance(r, Tensor) and isinstance(f, Tensor):
            problem = _describe_mismatch(r, f)
            if problem is not None:
                raise MetadataMismatchError(
                    f"When comparing the output of {op} on FakeTensor and concrete Tensors, "
                    f"found mismatched tensor metadata: {problem}"
                )


# -- test_aot_dispatch_* (no compiler: eager, fake and finite-difference stand-in) -------------


def _forwards_backwards(op: OpOverload, args: Any, kwargs: Any) -> tuple[Any, Any]:
    from ..autograd import grad as autograd_grad

    diff = [t for t in _flat((args, kwargs)) if t.requires_grad]
    out = op(*args, **kwargs)
    total: Any = None
    for t in _flat(out):
        s = t.sum().abs()
        total = s if total is None else total + s
    if not diff or total is None or not total.requires_grad:
        return out, None
    return out, autograd_grad(total, diff, allow_unused=True)


def aot_dispatch_check(
    op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any], dynamic: bool = True
) -> None:
    from ..subclasses.fake_tensor import FakeTensorMode

    if any(_is_abstract(t) for t in _flat((args, kwargs))):
        return
    eager_args, eager_kwargs = _copy((args, kwargs))
    _out, grads = _forwards_backwards(op, eager_args, eager_kwargs)
    # The traced run: forward and backward must work on FakeTensors (as tracing needs). The
    # metadata of its outputs is test_faketensor's business, as in PyTorch.
    mode = FakeTensorMode()
    fargs, fkwargs = _fake(mode, _copy((args, kwargs)))
    with mode:
        _forwards_backwards(op, fargs, fkwargs)
    if grads is not None:
        _gradients_against_finite_differences(op, args, kwargs)


def _gradients_against_finite_differences(op: OpOverload, args: Any, kwargs: Any) -> None:
    from ..autograd.gradcheck import GradcheckError, gradcheck
    from ..tensor.dtype import float64

    def to64(v: Any) -> Any:
        if isinstance(v, Tensor):
            out = v.detach()
            if out._dtype.is_floating_point:
                out = out.to(float64)
            else:
                out = out.clone()
            if v.requires_grad:
                out.requires_grad_(True)
            return out
        if isinstance(v, (list, tuple)):
            return type(v)(to64(x) for x in v)
        return v

    args64 = [to64(a) for a in args]
    kwargs64 = {k: to64(v) for k, v in kwargs.items()}
    where = [i for i, a in enumerate(args64) if isinstance(a, Tensor) and a.requires_grad]
    if not where:
        return

    def fn(*diff: Any) -> Any:
        full = list(args64)
        for i, t in zip(where, diff):
            full[i] = t
        return op(*full, **kwargs64)

    try:
        gradcheck(fn, tuple(args64[i] for i in where), atol=1e-4, rtol=1e-3)
    except GradcheckError as e:
        raise AssertionError(
            f"Gradients of the operator are different from finite differences (keyroute's "
            f"stand-in for PyTorch's eager-vs-AOTDispatcher comparison): {e} This means the "
            f"operator's backward is incorrectly registered: check the formula given to "
            f"register_autograd (one gradient per input, in order)."
        ) from e


ALL_TEST_UTILS = {
    "test_schema": schema_check,
    "test_autograd_registration": autograd_registration_check,
    "test_faketensor": fake_check,
    "test_aot_dispatch_static": lambda op, a, k: aot_dispatch_check(op, a, k, dynamic=False),
    "test_aot_dispatch_dynamic": lambda op, a, k: aot_dispatch_check(op, a, k, dynamic=True),
}


def opcheck(
    op: Any,
    args: Sequence[Any],
    kwargs: dict[str, Any] | None = None,
    *,
    test_utils: str | Sequence[str] = DEFAULT_TEST_UTILS,
    raise_exception: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
) -> dict[str, Any]:
    """Run opcheck's tests on `op(*args, **kwargs)`; returns {test: "SUCCESS" | error}."""
    if (rtol is None) ^ (atol is None):
        raise ValueError("opcheck(op, ...): if you specify one of rtol/atol, you must specify both")
    kwargs = dict(kwargs or {})
    target = _resolve(op)
    if test_utils == "ALL":
        test_utils = tuple(ALL_TEST_UTILS)
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    if not isinstance(test_utils, (tuple, list)) or not set(test_utils).issubset(ALL_TEST_UTILS):
        raise ValueError(
            f"opcheck(op, ..., test_utils={test_utils}), expected test_utils to be subset of "
            f"{tuple(ALL_TEST_UTILS)} but it was not"
        )
    args = tuple(args)
    results: dict[str, Any] = {}
    for name in test_utils:
        try:
            ALL_TEST_UTILS[name](target, args, kwargs)
            results[name] = "SUCCESS"
        except Exception as ex:  # noqa: BLE001 - every failure is a test result
            if raise_exception:
                # PyTorch's words first; keyroute's context (which operator, what to change)
                # after them where the error carries one.
                core, context = getattr(ex, "message", ex), getattr(ex, "context", "")
                raise OpCheckError(
                    f"opcheck(op, ...): {name} failed with {core} (scroll up for stack trace)"
                    + (f"; {context}" if context else "")
                ) from ex
            results[name] = ex
    return results
