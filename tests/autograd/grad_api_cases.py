"""Programs around torch.autograd.grad's Python surface (keyroute/autograd/grad_api.py): what a
TorchFunctionMode and a tensor subclass see of the call, GradientEdge inputs and outputs, dict
inputs, and the argument errors. Run on torch by tools/record_autograd_grad_api.py (into
tests/data/autograd_grad_api.json) and on keyroute by tests/autograd/test_grad_api.py. No torch
or keyroute import here.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

PROGRAMS: dict[str, Callable[[Any], Any]] = {}


def program(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    PROGRAMS[fn.__name__] = fn
    return fn


def _name(func: Any) -> str:
    return getattr(func, "__name__", str(func))


def _values(ts: Any) -> Any:
    if isinstance(ts, dict):
        return {k: _values(v) for k, v in ts.items()}
    if isinstance(ts, (list, tuple)):
        return [_values(t) for t in ts]
    if ts is None:
        return None
    return [type(ts).__name__, ts.detach().reshape(-1).tolist()]


def _logging_subclass(M: Any, seen: list[str]) -> type:
    class Sub(M.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN206
            seen.append(_name(func))
            return super().__torch_function__(func, types, args, kwargs or {})

    return Sub


def _graph(M: Any) -> tuple[Any, Any, Any]:
    x = M.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * x
    y = (h * 3).sum()
    return x, h, y


@program
def mode_sees_one_call(M: Any) -> Any:
    seen: list[str] = []

    class Mode(M.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
            seen.append(_name(func))
            return func(*args, **(kwargs or {}))

    x, _h, y = _graph(M)
    with Mode():
        g = M.autograd.grad(y, x)
    return {"seen": seen, "grads": _values(g)}


@program
def subclass_input(M: Any) -> Any:
    seen: list[str] = []
    Sub = _logging_subclass(M, seen)
    x = M.tensor([1.0, 2.0]).as_subclass(Sub).requires_grad_()
    y = (x * x).sum()
    seen.clear()
    g = M.autograd.grad(y, x)
    return {"seen": seen, "result": type(g).__name__, "grads": _values(g)}


@program
def subclass_output(M: Any) -> Any:
    seen: list[str] = []
    Sub = _logging_subclass(M, seen)
    x = M.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum().as_subclass(Sub)
    seen.clear()
    g = M.autograd.grad(y, [x])
    return {"seen": seen, "grads": _values(g)}


@program
def subclass_grad_output(M: Any) -> Any:
    seen: list[str] = []
    Sub = _logging_subclass(M, seen)
    x, _h, y = _graph(M)
    go = M.ones(()).as_subclass(Sub)
    seen.clear()
    g = M.autograd.grad(y, x, go)
    # (PyTorch's _make_grads reads go.size() and go.dtype: see the known gaps for dtype)
    return {"seen": [s for s in seen if s != "__get__"], "grads": _values(g)}


@program
def edge_input_interior(M: Any) -> Any:
    x, h, y = _graph(M)
    e = M.autograd.graph.get_gradient_edge(h)
    return _values(M.autograd.grad(y, e))


@program
def edge_input_leaf(M: Any) -> Any:
    x, h, y = _graph(M)
    e = M.autograd.graph.get_gradient_edge(x)
    return _values(M.autograd.grad(y, [e, h]))


@program
def edge_output(M: Any) -> Any:
    x, h, y = _graph(M)
    e = M.autograd.graph.get_gradient_edge(h)
    return _values(M.autograd.grad(e, x, M.tensor([1.0, 0.5, 2.0])))


@program
def edge_output_implicit_scalar(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad(M.autograd.graph.get_gradient_edge(y), x))


@program
def edge_output_implicit_nonscalar(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad(M.autograd.graph.get_gradient_edge(h), x))


@program
def edge_output_shape_mismatch(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad(M.autograd.graph.get_gradient_edge(h), x, M.ones(2)))


@program
def dict_inputs(M: Any) -> Any:
    x, h, y = _graph(M)
    g = M.autograd.grad(y, {"leaf": x, "mid": h})
    return {"type": type(g).__name__, "grads": _values(g)}


@program
def mapping_inputs(M: Any) -> Any:
    import types

    x, h, y = _graph(M)
    return _values(M.autograd.grad(y, types.MappingProxyType({"leaf": x})))


@program
def materialize_refuses_allow_unused_false(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad(y, x, materialize_grads=True, allow_unused=False))


@program
def materialize_unused_edge(M: Any) -> Any:
    x, h, y = _graph(M)
    z = M.ones(2, requires_grad=True)
    e = M.autograd.graph.get_gradient_edge(z * 2)
    return _values(M.autograd.grad(y, [x, e], materialize_grads=True))


@program
def materialize_unused_tensor(M: Any) -> Any:
    x, h, y = _graph(M)
    z = M.ones(2, requires_grad=True)
    return _values(M.autograd.grad(y, [x, z], materialize_grads=True))


@program
def only_inputs_false_warns(M: Any) -> Any:
    x, h, y = _graph(M)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = M.autograd.grad(y, x, only_inputs=False)
    return {
        "warnings": [f"{w.category.__name__}: {w.message}" for w in caught],
        "grads": _values(g),
    }


@program
def grad_output_shape_mismatch(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad(h, x, M.ones(2)))


@program
def grad_output_complex_mismatch(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad(h, x, M.ones(3, dtype=M.complex64)))


@program
def more_grad_outputs_than_outputs(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad([y], x, [M.ones(()), M.ones(())]))


@program
def fewer_grad_outputs_than_outputs(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad([y, h], x, [M.ones(())]))


@program
def grad_output_not_a_tensor(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad([y], x, [1.0]))


@program
def unused_tensor_input(M: Any) -> Any:
    x, h, y = _graph(M)
    return _values(M.autograd.grad(y, [x, M.ones(1, requires_grad=True)]))


def run(name: str, M: Any) -> Any:
    try:
        return {"ok": PROGRAMS[name](M)}
    except Exception as e:  # noqa: BLE001 - errors are results too
        msg = str(e).strip().splitlines()
        return {"error": f"{type(e).__name__}: {msg[0] if msg else ''}"}
