"""Autograd as dispatcher layers: graph nodes, backward/grad, hooks, modes, errors, views."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import keyroute as kr


def leaf(*shape, dtype=kr.float64):  # noqa: ANN001, ANN201
    return kr.randn(*shape, dtype=dtype, requires_grad=True)


def test_node_names_and_next_functions() -> None:
    x, y = leaf(3), leaf(3)
    z = x * y + x.exp()
    assert z.grad_fn.name() == "AddBackward0"
    names = [fn.name() for fn, _ in z.grad_fn.next_functions]
    assert names == ["MulBackward0", "ExpBackward0"]
    mul = z.grad_fn.next_functions[0][0]
    assert [type(fn).__name__ for fn, _ in mul.next_functions] == [
        "AccumulateGrad",
        "AccumulateGrad",
    ]
    assert mul.next_functions[0][0].variable is x


def test_leaf_and_requires_grad() -> None:
    x = leaf(2)
    y = x * 2
    assert x.is_leaf and not y.is_leaf and y.requires_grad
    assert kr.ones(2).is_leaf and not kr.ones(2).requires_grad
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        kr.ones(2, dtype=kr.int64).requires_grad_()
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf"):
        y.requires_grad_(False)


def test_backward_accumulates() -> None:
    x = leaf(3)
    (x * x).sum().backward()
    first = x.grad.numpy().copy()
    np.testing.assert_allclose(first, 2 * x.detach().numpy())
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first)


def test_broadcast_gradients_are_reduced() -> None:
    x, b = leaf(4, 3), leaf(3)
    (x * b).sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), x.detach().numpy().sum(0))
    assert tuple(b.grad.shape) == (3,)


def test_grad_function_and_create_graph() -> None:
    x = leaf(3)
    y = (x**3).sum()
    (g,) = kr.autograd.grad(y, x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 3 * x.detach().numpy() ** 2)
    (gg,) = kr.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(gg.numpy(), 6 * x.detach().numpy())
    assert x.grad is None  # grad() does not accumulate


def test_retain_graph_and_second_backward_error() -> None:
    x = leaf(3)
    y = (x.exp() * 2).sum()
    y.backward(retain_graph=True)
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_backward_errors() -> None:
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        kr.ones(2).sum().backward()
    x = leaf(3)
    with pytest.raises(
        RuntimeError, match="grad can be implicitly created only for scalar outputs"
    ):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        (x * 2).backward(kr.ones(2, dtype=kr.float64))


def test_unused_input() -> None:
    x, y = leaf(2), leaf(2)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        kr.autograd.grad((x * 2).sum(), [x, y])
    gx, gy = kr.autograd.grad((x * 2).sum(), [x, y], allow_unused=True)
    assert gy is None and gx is not None


def test_tensor_hooks_and_retain_grad() -> None:
    x = leaf(3)
    seen = []
    x.register_hook(lambda g: seen.append(g.numpy().copy()) or g * 10)
    y = x * 2
    y.retain_grad()
    y.sum().backward()
    np.testing.assert_allclose(seen[0], 2 * np.ones(3))
    np.testing.assert_allclose(x.grad.numpy(), 20 * np.ones(3))
    np.testing.assert_allclose(y.grad.numpy(), np.ones(3))
    with pytest.raises(
        RuntimeError, match="cannot register a hook on a tensor that doesn't require"
    ):
        kr.ones(2).register_hook(lambda g: g)


def test_no_grad_and_enable_grad_and_set_grad_enabled() -> None:
    x = leaf(2)
    with kr.no_grad():
        y = x * 2
        with kr.enable_grad():
            z = x * 2
    assert not y.requires_grad and z.requires_grad
    kr.set_grad_enabled(False)
    try:
        assert not (x * 2).requires_grad
    finally:
        kr.set_grad_enabled(True)
    assert kr.is_grad_enabled()

    @kr.no_grad()
    def f(t):  # noqa: ANN001, ANN202
        return t * 2

    assert not f(x).requires_grad


def test_grad_mode_is_per_thread() -> None:
    """The recording kernels are cached per operator and shared by threads; each call must
    read its own thread's grad mode (a no_grad block in one thread records nothing there and
    changes nothing in another)."""
    import threading

    x = leaf(2)
    x * 2  # bind the recording kernel in this thread first
    in_block = threading.Event()
    other_done = threading.Event()
    seen: dict[str, bool] = {}

    def other() -> None:
        in_block.wait(5)
        seen["other"] = (x * 2).requires_grad  # grad mode on in this thread
        with kr.no_grad():
            seen["other_no_grad"] = (x * 2).requires_grad
        other_done.set()

    t = threading.Thread(target=other)
    t.start()
    with kr.no_grad():
        in_block.set()
        other_done.wait(5)
        seen["main_no_grad"] = (x * 2).requires_grad
    t.join()
    seen["main"] = (x * 2).requires_grad
    assert seen == {"other": True, "other_no_grad": False, "main_no_grad": False, "main": True}


def test_inference_mode() -> None:
    with kr.inference_mode():
        t = kr.ones(3)
        assert kr.is_inference_mode_enabled()
        u = leaf(2) * 2
        assert not u.requires_grad
    assert t.is_inference()
    assert str(kr._C._dispatch_keys(t)) == "DispatchKeySet(CPU, AutocastCPU)"
    with pytest.raises(
        RuntimeError, match="Inplace update to inference tensor outside InferenceMode"
    ):
        t.add_(1)
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter"):
        _ = t._version
    with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor"):
        t.requires_grad_()


def test_version_counter_and_modified_error() -> None:
    x = leaf(3)
    a = x * 1
    b = a * a  # saves a
    assert a._version == 0
    a.add_(1)
    assert a._version == 1
    with pytest.raises(RuntimeError, match=r"is at version 1; expected version 0 instead"):
        b.sum().backward()


def test_views_share_version_counter() -> None:
    base = kr.zeros(4)
    v = base.view(2, 2)
    v.add_(1)
    assert base._version == 1 and v._version == 1
    assert v._base is base


def test_inplace_on_leaf_error() -> None:
    x = leaf(3)
    with pytest.raises(
        RuntimeError,
        match="a leaf Variable that requires grad is being used in an in-place operation",
    ):
        x.add_(1)
    with kr.no_grad():
        x.add_(1)  # allowed without grad mode


def test_inplace_on_view_rebases_history() -> None:
    x = leaf(4)
    y = x * 1
    v = y[1:3]
    v.mul_(3)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1, 3, 3, 1])


def test_out_variant_refuses_requires_grad() -> None:
    x = leaf(2)
    out = kr.empty(2, dtype=kr.float64)
    with pytest.raises(
        RuntimeError,
        match="functions with out=... arguments don't support automatic differentiation",
    ):
        kr.ops.aten.add.out(x, x, out=out)


def test_custom_function() -> None:
    class Square(kr.autograd.Function):
        @staticmethod
        def forward(ctx, a):  # noqa: ANN001, ANN205
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            (a,) = ctx.saved_tensors
            return 2 * a * g

    x = leaf(3)
    y = Square.apply(x)
    assert y.grad_fn.name() == "SquareBackward"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())


def test_function_needs_input_grad_and_non_differentiable() -> None:
    seen = {}

    class F(kr.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):  # noqa: ANN001, ANN205
            idx = (a > 0).to(kr.float64)
            ctx.mark_non_differentiable(idx)
            return a * b, idx

        @staticmethod
        def backward(ctx, g, g_idx):  # noqa: ANN001, ANN205
            seen["needs"] = ctx.needs_input_grad
            return g, None

    a, b = leaf(2), kr.ones(2, dtype=kr.float64)
    out, idx = F.apply(a, b)
    assert not idx.requires_grad
    out.sum().backward()
    assert seen["needs"] == (True, False)


def test_once_differentiable() -> None:
    class F(kr.autograd.Function):
        @staticmethod
        def forward(ctx, a):  # noqa: ANN001, ANN205
            return a * 2

        @staticmethod
        @kr.autograd.once_differentiable
        def backward(ctx, g):  # noqa: ANN001, ANN205
            return g * 2

    x = leaf(2)
    y = F.apply(x)
    (g,) = kr.autograd.grad((y * y).sum(), x, create_graph=True)
    with pytest.raises(RuntimeError, match="marked with @once_differentiable"):
        g.sum().backward()


def test_gradcheck_and_gradgradcheck() -> None:
    x = leaf(3)
    assert kr.autograd.gradcheck(lambda t: (t * t).sin() * t.exp(), (x,))
    assert kr.autograd.gradgradcheck(lambda t: (t * t).sin() * t.exp(), (x,))
    with pytest.raises(kr.autograd.GradcheckError):

        class Wrong(kr.autograd.Function):
            @staticmethod
            def forward(ctx, a):  # noqa: ANN001, ANN205
                return a * 2

            @staticmethod
            def backward(ctx, g):  # noqa: ANN001, ANN205
                return g * 3

        kr.autograd.gradcheck(Wrong.apply, (x,))


def test_autograd_fallback_warns_at_backward() -> None:
    lib = kr.library.Library("kr_agfallback", "FRAGMENT")
    try:
        lib.define("foo(Tensor x) -> Tensor")
        lib.impl("foo", lambda x: x * 2, "CPU")
        x = leaf(3)
        y = kr.ops.kr_agfallback.foo(x)
        assert y.requires_grad
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y.sum().backward()
        assert any("an autograd kernel was not registered" in str(m.message) for m in w)
        np.testing.assert_allclose(x.grad.numpy(), 2 * np.ones(3))
    finally:
        lib._destroy()


def test_detach_and_data() -> None:
    x = leaf(2)
    d = x.detach()
    assert not d.requires_grad and d._base is None
    d.add_(1)  # shares the data
    np.testing.assert_allclose(x.detach().numpy(), d.numpy())
    assert not x.data.requires_grad
