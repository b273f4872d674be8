"""keyroute.library's functional API (torch.library.define / impl / register_* / custom_op /
infer_schema / opcheck): the names, and what a user can do with them."""

from __future__ import annotations

import pytest

import keyroute
import keyroute.library as L
from keyroute import Tensor


def test_module_level_names() -> None:
    from keyroute._library.custom_ops import custom_op
    from keyroute.dispatcher.infer_schema import infer_schema
    from keyroute.testing import opcheck

    assert L.custom_op is custom_op and L.infer_schema is infer_schema and L.opcheck is opcheck
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        L.nope  # noqa: B018


def test_infer_schema_as_pytorch_prints_the_seed() -> None:
    def rms_norm(x: Tensor, w: Tensor, eps: float) -> Tensor:
        return x

    def store_kv(cache: Tensor, slots: Tensor, value: Tensor) -> None:
        return None

    assert L.infer_schema(rms_norm, mutates_args=()) == "(Tensor x, Tensor w, float eps) -> Tensor"
    assert L.infer_schema(store_kv, mutates_args=("cache",)) == (
        "(Tensor(a0!) cache, Tensor slots, Tensor value) -> ()"
    )


def test_define_impl_fake_autograd_kernel_on_one_operator() -> None:
    lib = L.Library("kx_functional_tests", "FRAGMENT")
    try:
        L.define("kx_functional_tests::cube", "(Tensor x) -> Tensor", lib=lib)
        L.impl("kx_functional_tests::cube", "cpu", lambda x: x * x * x, lib=lib)
        op = keyroute.ops.kx_functional_tests.cube.default
        with pytest.raises(NotImplementedError, match="no fake impl or Meta kernel registered"):
            op(keyroute.empty(2, device="meta"))  # no Meta kernel before register_fake
        L.register_fake(op, lambda x: None, lib=lib)
        with pytest.raises(RuntimeError, match="Unable to cast None to Tensor: the fake impl"):
            op(keyroute.empty(2, device="meta"))
        L.register_fake("kx_functional_tests::cube", lambda x: keyroute.empty_like(x), lib=lib)
        assert tuple(op(keyroute.empty(2, 3, device="meta")).shape) == (2, 3)
        L.register_autograd(
            op,
            lambda ctx, g: g * 3 * ctx.x * ctx.x,
            setup_context=lambda ctx, inputs, output: setattr(ctx, "x", inputs[0]),
            lib=lib,
        )
        x = keyroute.tensor([1.0, 2.0], requires_grad=True)
        op(x).sum().backward()
        assert x.grad.tolist() == [3.0, 12.0]
        L.register_kernel(op, "cpu", lambda x: x * 0, lib=lib)
        assert op(keyroute.ones(2)).tolist() == [0.0, 0.0]
    finally:
        lib._destroy()
    assert not hasattr(keyroute.ops.kx_functional_tests, "cube")


def test_impl_of_an_undefined_operator_is_refused() -> None:
    with pytest.raises(ValueError, match="does not exist"):
        L.impl("kx_functional_tests::missing", "cpu", lambda x: x)
