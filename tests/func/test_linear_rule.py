"""linear's one-step decomposition at a vmap level (keyroute/_functorch/linear_rule.py) gives
the same per-sample gradients as linear's composite path and as NumPy by hand."""

from __future__ import annotations

import numpy as np
import pytest

import keyroute
import keyroute.func
import keyroute.nn.functional as F
from keyroute.layers.functorch import DECOMPS


def _data(rows: int | None, bias: bool):  # noqa: ANN202
    rng = np.random.default_rng(0)
    shape = (5, 3) if rows is None else (5, rows, 3)
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32) if bias else None
    return x, w, b


def _per_sample(x, w, b):  # noqa: ANN001, ANN202
    def loss(w_, b_, xs):  # noqa: ANN001, ANN202
        return (F.linear(xs, w_, b_) ** 2).sum()

    kb = None if b is None else keyroute.from_numpy(b)
    argnums = (0,) if b is None else (0, 1)
    fn = keyroute.func.vmap(keyroute.func.grad(loss, argnums=argnums), in_dims=(None, None, 0))
    return [g.numpy() for g in fn(keyroute.from_numpy(w), kb, keyroute.from_numpy(x))]


@pytest.mark.parametrize("rows", [None, 2])
@pytest.mark.parametrize("bias", [True, False])
def test_matches_numpy_and_composite(rows: int | None, bias: bool) -> None:
    x, w, b = _data(rows, bias)
    got = _per_sample(x, w, b)
    x3 = x[:, None, :] if rows is None else x
    out = x3 @ w.T + (0 if b is None else b)
    g = 2 * out  # d(sum(out^2))/d out, (n, rows, m)
    np.testing.assert_allclose(got[0], np.einsum("nrm,nrk->nmk", g, x3), rtol=1e-5, atol=1e-5)
    if bias:
        np.testing.assert_allclose(got[1], g.sum(1), rtol=1e-5, atol=1e-5)
    saved = DECOMPS.pop("aten::linear")
    try:
        composite = _per_sample(x, w, b)
    finally:
        DECOMPS["aten::linear"] = saved
    for a, c in zip(got, composite):
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)


def test_input_gradient_and_second_order() -> None:
    """The input's gradient beside the weight's, and a Hessian through the rule's backward."""
    x, w, b = _data(None, True)
    kw, kb, kx = (keyroute.from_numpy(a) for a in (w, b, x))

    def f(w_, xs):  # noqa: ANN001, ANN202
        return keyroute.tanh(F.linear(xs, w_, kb)).sum()

    gw, gx = keyroute.func.vmap(keyroute.func.grad(f, argnums=(0, 1)), in_dims=(None, 0))(kw, kx)
    h = np.tanh(x @ w.T + b)
    np.testing.assert_allclose(gx.numpy(), (1 - h * h) @ w, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gw.numpy(), np.einsum("nm,nk->nmk", 1 - h * h, x), rtol=1e-5)
    hess = keyroute.func.vmap(keyroute.func.hessian(f), in_dims=(None, 0))(kw, kx).numpy()
    d = -2 * h * (1 - h * h)
    ref = np.einsum("nm,mp,nk,nj->nmkpj", d, np.eye(4, dtype=np.float32), x, x)
    np.testing.assert_allclose(hess, ref, rtol=1e-4, atol=1e-5)


def test_gradient_of_per_sample_gradients_reaches_the_weight() -> None:
    """An outer grad over vmap(grad(f)): the rule's input gradient (g @ W) must stay a
    differentiable function of the weight. Checked against NumPy by hand: for
    f(W, V, x) = sum(V tanh(W x)), the per-sample grad w.r.t. W is
    ((V^T 1) * (1 - h^2)) x^T, and d/dV of sum over samples of that gradient's entries is
    sum_n outer(1, (1 - h_n^2) * sum_k x_nk)."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    w = (rng.standard_normal((5, 3)) * 0.5).astype(np.float32)
    v = (rng.standard_normal((2, 5)) * 0.5).astype(np.float32)
    kx, kw = keyroute.from_numpy(x), keyroute.from_numpy(w)

    def f(w_, v_, xs):  # noqa: ANN001, ANN202
        return F.linear(keyroute.tanh(F.linear(xs, w_)), v_).sum()

    def total(v_):  # noqa: ANN001, ANN202
        # both weights lifted (both take the rule), the first one's gradients summed
        grads = keyroute.func.grad(f, argnums=(0, 1))
        g = keyroute.func.vmap(grads, in_dims=(None, None, 0))(kw, v_, kx)
        return g[0].sum()

    got = keyroute.func.grad(total)(keyroute.from_numpy(v)).numpy()
    h = np.tanh(x @ w.T)  # (n, 5)
    ref = np.ones((2, 1), np.float32) * ((1 - h * h) * x.sum(1, keepdims=True)).sum(0)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
