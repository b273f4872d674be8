"""examples/per_sample_grads.py and examples/jacobians_hessians.py: the torch.func tutorials'
computations. The vmapped per-sample gradients must equal a loop of plain backward passes;
the Jacobians and Hessian must equal their closed forms computed in NumPy."""

from __future__ import annotations

import importlib.util
import os

import numpy as np

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def _load(name: str):  # noqa: ANN202
    spec = importlib.util.spec_from_file_location(name, os.path.join(EXAMPLES, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_per_sample_grads_match_a_loop_of_backward_passes() -> None:
    out = _load("per_sample_grads").per_sample_grads(batch_size=4)
    assert len(out["looped"]) == len(out["vmapped"]) == 8
    for name, a, b in zip(out["names"], out["looped"], out["vmapped"]):
        assert tuple(a.shape) == tuple(b.shape), name
        assert tuple(b.shape)[0] == 4, name
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-4, atol=1e-6, err_msg=name)


def test_jacobians_and_hessian_match_closed_forms() -> None:
    r = _load("jacobians_hessians").compute(d=8)
    w, b, x = r["weight"].numpy(), r["bias"].numpy(), r["x"].numpy()
    t = np.tanh(w @ x + b)
    jac = (1 - t**2)[:, None] * w  # d tanh(Wx+b) / dx
    for key in ("jac_rows", "jac_rev", "jac_fwd"):
        np.testing.assert_allclose(r[key].numpy(), jac, rtol=1e-4, atol=1e-5, err_msg=key)
    jac_w = np.einsum("i,ij,k->ijk", 1 - t**2, np.eye(8), x)
    np.testing.assert_allclose(r["jac_w"].numpy(), jac_w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(r["jac_b"].numpy(), np.diag(1 - t**2), rtol=1e-4, atol=1e-5)
    xs = r["xs"].numpy()
    ts = np.tanh(xs @ w.T + b)
    batched = (1 - ts**2)[:, :, None] * w[None]
    np.testing.assert_allclose(r["batched"].numpy(), batched, rtol=1e-4, atol=1e-5)
    hess = w.T @ np.diag(-2 * t * (1 - t**2)) @ w  # of sum(tanh(Wx+b))
    np.testing.assert_allclose(r["hessian"].numpy(), hess, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(r["hvp"].numpy(), hess @ r["v"].numpy(), rtol=1e-4, atol=1e-5)
