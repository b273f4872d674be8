"""opcheck: test that a (custom) operator is registered honestly.

    opcheck(op, args, kwargs=None) -> {"test_schema": "SUCCESS", ...}

- test_schema: runs the op under SchemaCheckMode (mutation and aliasing as declared).
- test_autograd_registration: if a floating input requires grad, the op must have an autograd
  formula (registered, or a CompositeImplicitAutograd decomposition); its gradients are checked
  against finite differences in float64.
- test_faketensor: the fake (meta) implementation gives the real outputs' shapes, dtypes,
  strides and device.

With raise_exception=True (default) the first failure raises OpCheckError naming the test,
the operator, what is wrong and how to fix it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.operator import OpOverload
from ..tensor._tensor import Tensor

__all__ = ["opcheck", "OpCheckError", "DEFAULT_TEST_UTILS"]

DEFAULT_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor")


class OpCheckError(Exception):
    """An opcheck test failed (the message says which, why, and what to do)."""


def _resolve(op: Any) -> OpOverload:
    from .._library.custom_ops import CustomOpDef
    from ..dispatcher.operator import OpOverloadPacket

    if isinstance(op, CustomOpDef):
        return op._opoverload
    if isinstance(op, OpOverloadPacket):
        return op.default
    if isinstance(op, OpOverload):
        return op
    raise ValueError(
        f"opcheck(op, ...): op must be an OpOverload, OpOverloadPacket or a CustomOpDef, got "
        f"{type(op).__name__}"
    )


def _clone_args(v: Any) -> Any:
    if isinstance(v, Tensor):
        out = v.detach().clone()
        if v.requires_grad:
            out.requires_grad_(True)
        return out
    if isinstance(v, (list, tuple)):
        return type(v)(_clone_args(x) for x in v)
    if isinstance(v, dict):
        return {k: _clone_args(x) for k, x in v.items()}
    return v


def _flat(v: Any) -> list[Tensor]:
    if isinstance(v, Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in _flat(x)]
    return []


def check_schema(op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from ..utils.schema_check import SchemaCheckError, SchemaCheckMode

    try:
        with SchemaCheckMode():
            op(*_clone_args(args), **_clone_args(kwargs))
    except SchemaCheckError as e:
        raise OpCheckError(
            f"opcheck(op, ...): test_schema failed: {e}. If the operator mutates an input, add it "
            f"to mutates_args (custom_op) or declare it Tensor(a!) in the schema; if it returns "
            f"an input or a view of one, return a copy instead."
        ) from e


def check_autograd_registration(op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    tensors = _flat(args) + _flat(list(kwargs.values()))
    if not any(t.requires_grad for t in tensors):
        return
    has_formula = (
        op.has_kernel_for_dispatch_key(DispatchKey.Autograd)
        or op.has_kernel_for_dispatch_key(DispatchKey.AutogradCPU)
        or op.has_kernel_for_dispatch_key(DispatchKey.CompositeImplicitAutograd)
    )
    from .._library.custom_ops import OPDEFS

    opdef = OPDEFS.get(op.qualified_name()) or OPDEFS.get(op._name)
    if opdef is not None and opdef._backward_fn is None:
        has_formula = False
    if not has_formula:
        raise OpCheckError(
            f"opcheck(op, ...): test_autograd_registration failed: {op.name()} has no autograd "
            f"formula, but an input requires grad, so a backward pass through it would fail. "
            f"Register one with register_autograd(backward, setup_context=...) (or "
            f"keyroute.library.register_autograd), or call it on inputs that do not require grad."
        )
    _check_gradients(op, args, kwargs)


def _check_gradients(op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from .. import float64
    from ..autograd.gradcheck import GradcheckError, gradcheck

    def to64(v: Any) -> Any:
        if isinstance(v, Tensor):
            if v._dtype.is_floating_point:
                out = v.detach().to(float64)
                if v.requires_grad:
                    out.requires_grad_(True)
                return out
            return v
        if isinstance(v, (list, tuple)):
            return type(v)(to64(x) for x in v)
        return v

    args64 = tuple(to64(a) for a in args)
    kwargs64 = {k: to64(v) for k, v in kwargs.items()}
    positions = [i for i, a in enumerate(args64) if isinstance(a, Tensor) and a.requires_grad]

    def fn(*diff: Any) -> Any:
        full = list(args64)
        for i, t in zip(positions, diff):
            full[i] = t
        return op(*full, **kwargs64)

    try:
        gradcheck(fn, tuple(args64[i] for i in positions), atol=1e-4, rtol=1e-3)
    except GradcheckError as e:
        raise OpCheckError(
            f"opcheck(op, ...): test_autograd_registration failed: the registered backward of "
            f"{op.name()} disagrees with finite differences: {e}Check the formula passed to "
            f"register_autograd (one gradient per input, in order)."
        ) from e


def _meta_of(v: Any) -> Any:
    if isinstance(v, Tensor):
        return (tuple(v.shape), v.stride(), v.dtype, str(v.device))
    if isinstance(v, (list, tuple)):
        return [_meta_of(x) for x in v]
    return None


def check_faketensor(op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from ..subclasses.fake_tensor import FakeTensorMode

    real = op(*_clone_args(args), **_clone_args(kwargs))
    mode = FakeTensorMode()
    fargs = [_fake(mode, a) for a in args]
    fkwargs = {k: _fake(mode, v) for k, v in kwargs.items()}
    try:
        with mode:
            fake = op(*fargs, **fkwargs)
    except Exception as e:  # noqa: BLE001
        raise OpCheckError(
            f"opcheck(op, ...): test_faketensor failed: running {op.name()} on FakeTensors "
            f"raised {type(e).__name__}: {e}. Register a fake implementation with "
            f"register_fake that computes the outputs' metadata from the inputs'."
        ) from e
    if _meta_of(real) != _meta_of(fake):
        raise OpCheckError(
            f"opcheck(op, ...): test_faketensor failed: the fake implementation of {op.name()} "
            f"returns {_meta_of(fake)} (shape, stride, dtype, device) but the real kernel "
            f"returns {_meta_of(real)}. Make the fake implementation produce the same metadata "
            f"(e.g. keyroute.empty_like(x) for an elementwise op)."
        )


def _fake(mode: Any, v: Any) -> Any:
    if isinstance(v, Tensor):
        return mode.from_tensor(v)
    if isinstance(v, (list, tuple)):
        return type(v)(_fake(mode, x) for x in v)
    return v


_TESTS = {
    "test_schema": check_schema,
    "test_autograd_registration": check_autograd_registration,
    "test_faketensor": check_faketensor,
}


def opcheck(
    op: Any,
    args: Sequence[Any],
    kwargs: dict[str, Any] | None = None,
    *,
    test_utils: str | Sequence[str] = DEFAULT_TEST_UTILS,
    raise_exception: bool = True,
    atol: float | None = None,
    rtol: float | None = None,
) -> dict[str, str]:
    """Run opcheck's tests on `op(*args, **kwargs)`; returns {test: "SUCCESS" | error}."""
    target = _resolve(op)
    args = tuple(args)
    kwargs = dict(kwargs or {})
    names = [test_utils] if isinstance(test_utils, str) else list(test_utils)
    results: dict[str, Any] = {}
    for name in names:
        if name not in _TESTS:
            raise ValueError(
                f"opcheck(op, ..., test_utils={test_utils}), expected test_utils to be subset of "
                f"{tuple(_TESTS)} but it was not"
            )
        try:
            _TESTS[name](target, args, kwargs)
            results[name] = "SUCCESS"
        except OpCheckError as e:
            if raise_exception:
                raise
            results[name] = e
    return results
