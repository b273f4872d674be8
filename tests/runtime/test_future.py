"""torch.__future__'s module-conversion switches and nn.Module._apply, as PyTorch 2.13 behaves
(checked against it: by default a converted parameter keeps its identity and its grad object;
with overwrite, new objects; with swap, same objects holding the new tensors)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import keyroute
import keyroute.__future__ as future


@pytest.fixture
def module() -> Iterator[keyroute.nn.Linear]:
    m = keyroute.nn.Linear(2, 3)
    m(keyroute.ones(1, 2)).sum().backward()
    yield m
    future.set_overwrite_module_params_on_conversion(False)
    future.set_swap_module_params_on_conversion(False)


def test_default_keeps_parameter_and_grad_objects(module: keyroute.nn.Linear) -> None:
    w, g = module.weight, module.weight.grad
    opt = keyroute.optim.SGD(module.parameters(), lr=0.1)
    module.double()
    assert module.weight is w and module.weight.grad is g
    assert w.dtype == keyroute.float64 and g.dtype == keyroute.float64
    assert opt.param_groups[0]["params"][0] is module.weight


def test_overwrite_makes_new_parameters(module: keyroute.nn.Linear) -> None:
    w = module.weight
    future.set_overwrite_module_params_on_conversion(True)
    assert future.get_overwrite_module_params_on_conversion()
    module.double()
    assert module.weight is not w and module.weight.dtype == keyroute.float64
    assert type(module.weight) is keyroute.nn.Parameter
    assert module.weight.grad.dtype == keyroute.float64


def test_swap_keeps_objects_with_new_contents(module: keyroute.nn.Linear) -> None:
    w = module.weight
    future.set_swap_module_params_on_conversion(True)
    module.double()
    assert module.weight is w and w.dtype == keyroute.float64
    assert type(w) is keyroute.nn.Parameter and w.grad.dtype == keyroute.float64


def test_swap_tensors_errors() -> None:
    with pytest.raises(TypeError, match="Expected t1 to be a tensor"):
        keyroute.utils.swap_tensors(1, keyroute.ones(1))
    import weakref

    a, b = keyroute.ones(1), keyroute.zeros(2)
    r = weakref.ref(a)
    with pytest.raises(RuntimeError, match="Cannot swap t1 because it has weakref associated"):
        keyroute.utils.swap_tensors(a, b)
    assert r() is a and a.tolist() == [1.0]
