"""The functorch layer's own contracts: the dynamic layer stack and the TLS front key are
restored after every transform (also when it raises), captured tensors are left unchanged by
a rejected program, the per-sample fallback warns as PyTorch does and is seen by a dispatch
mode as select ... stack, and the plain path keeps no functorch state."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import keyroute as torch
import keyroute.overrides
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.keyset import key_bits
from keyroute.dispatcher.tls import state
from keyroute.func import grad, jacrev, vmap
from keyroute.layers.functorch import BatchedTensor, layer_stack
from keyroute.utils.python_dispatch import TorchDispatchMode

FRONT = key_bits(DispatchKey.FuncTorchDynamicLayerFrontMode)


def _clean() -> bool:
    return not layer_stack() and not state.thread_state.include & FRONT


def test_stack_and_front_key_are_restored_after_success_and_errors() -> None:
    x = torch.ones(3, 4)
    assert _clean()
    seen = []
    vmap(
        lambda t: seen.append((len(layer_stack()), bool(state.thread_state.include & FRONT))) or t
    )(x)
    assert seen == [(1, True)]
    assert _clean()
    with pytest.raises(RuntimeError, match="item"):
        vmap(lambda t: vmap(lambda u: u.sum().item())(t))(torch.ones(2, 3, 4))
    assert _clean()
    with pytest.raises(RuntimeError, match="scalar Tensor"):
        vmap(grad(lambda t: t * 2))(x)
    assert _clean()


def test_nested_levels_are_numbered_from_one() -> None:
    levels = []

    def inner(t):  # noqa: ANN001, ANN202
        levels.append([i.level for i in layer_stack()])
        return t

    vmap(vmap(grad(lambda t: inner(t).sum())))(torch.ones(2, 3, 4))
    assert levels == [[1, 2, 3]]


def test_rejected_inplace_leaves_the_captured_tensor_unchanged() -> None:
    z = torch.zeros(4)
    with pytest.raises(RuntimeError, match=r"output with shape \[4\] doesn't match"):
        vmap(lambda t: z.add_(t))(torch.ones(3, 4))
    assert z.tolist() == [0.0] * 4 and z._version == 0


def test_fallback_warns_and_a_mode_sees_select_then_stack() -> None:
    calls = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
            calls.append(str(func))
            return func(*args, **(kwargs or {}))

    x = torch.arange(6.0).reshape(2, 3)
    idx = torch.tensor([2, 0])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with Log():
            out = vmap(lambda t: torch.take(t, idx))(x)
    assert out.tolist() == [[2.0, 0.0], [5.0, 3.0]]
    assert any("batching rule for aten::take" in str(i.message) for i in w)
    assert calls == [
        "aten.select.int",
        "aten.take.default",
        "aten.select.int",
        "aten.take.default",
        "aten.stack.default",
    ]


def test_batched_tensor_repr_and_metadata() -> None:
    reprs = []

    def f(t):  # noqa: ANN001, ANN202
        assert isinstance(t, BatchedTensor) and tuple(t.shape) == (2,)
        reprs.append(repr(t))
        return t

    vmap(f, in_dims=1)(torch.ones(2, 3))
    assert reprs[0].startswith("BatchedTensor(lvl=1, bdim=1, value=\n    tensor(")


def test_no_override_wrappers_and_no_state_left_by_transforms() -> None:
    vmap(grad(lambda t: t.sin().sum()))(torch.ones(3, 2))
    jacrev(torch.sin)(torch.ones(3))
    assert BatchedTensor not in keyroute.overrides._tf_types
    assert _clean()


def test_grad_is_independent_of_global_grad_mode() -> None:
    x = torch.tensor([1.0, 2.0])
    with torch.no_grad():
        g = grad(lambda t: (t**3).sum())(x)
    np.testing.assert_allclose(g.numpy(), [3.0, 12.0])
    assert not g.requires_grad


def test_random_rules_per_mode() -> None:
    x = torch.zeros(5, 3)
    same = vmap(lambda t: torch.randn_like(t), randomness="same")(x)
    diff = vmap(lambda t: torch.randn_like(t), randomness="different")(x)
    assert bool((same[0] == same[4]).all()) and not bool((diff[0] == diff[4]).all())
    drop = vmap(lambda t: torch.nn.functional.dropout(t + 1, 0.5), randomness="different")(x)
    assert tuple(drop.shape) == (5, 3)


def test_custom_op_register_vmap_method_sees_values_and_in_dims() -> None:
    @torch.library.custom_op("functest::scale_rows", mutates_args=())
    def scale_rows(t: torch.Tensor, s: float) -> torch.Tensor:
        return t * s

    seen = []

    @scale_rows.register_vmap
    def _(info, in_dims, t, s):  # noqa: ANN001, ANN202
        seen.append((info.batch_size, info.randomness, in_dims, tuple(t.shape)))
        return t * s + 1, in_dims[0]

    out = vmap(lambda t: scale_rows(t, 2.0), in_dims=1)(torch.ones(2, 3))
    assert seen == [(3, "error", (1, None), (2, 3))]
    assert tuple(out.shape) == (3, 2) and out.tolist() == [[3.0, 3.0]] * 3
    assert torch.vmap is vmap
