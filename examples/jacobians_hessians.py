"""Jacobians, Hessians, hvp and more (PyTorch's torch.func "Jacobians, Hessians, hvp, vhp, and
more: composing function transforms" tutorial, on keyroute).

    python examples/jacobians_hessians.py
"""

from __future__ import annotations

import keyroute as torch
import keyroute.nn.functional as F  # noqa: N812
from keyroute.func import hessian, jacfwd, jacrev, jvp, vjp, vmap


def predict(weight: torch.Tensor, bias: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return F.linear(x, weight, bias).tanh()


def hvp(f, primals: tuple, tangents: tuple):  # noqa: ANN001, ANN201
    """Hessian-vector product: forward-mode over reverse-mode."""
    return jvp(lambda *p: torch.func.grad(f)(*p), primals, tangents)[1]


def compute(d: int = 16, seed: int = 0) -> dict:
    torch.manual_seed(seed)
    weight = torch.randn(d, d)
    bias = torch.randn(d)
    x = torch.randn(d)

    # Jacobian of predict w.r.t. x, three ways.
    unit_vectors = torch.eye(d)
    _, vjp_fn = vjp(lambda xx: predict(weight, bias, xx), x)
    (jac_rows,) = vmap(vjp_fn)(unit_vectors)
    jac_rev = jacrev(predict, argnums=2)(weight, bias, x)
    jac_fwd = jacfwd(predict, argnums=2)(weight, bias, x)

    # Jacobians w.r.t. the weight and bias at once, and batched over inputs.
    jac_w, jac_b = jacrev(predict, argnums=(0, 1))(weight, bias, x)
    xs = torch.randn(4, d)
    batched = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, xs)

    # Hessian of a scalar function, and a Hessian-vector product.
    def scalar(xx: torch.Tensor) -> torch.Tensor:
        return predict(weight, bias, xx).sum()

    hess = hessian(scalar)(x)
    v = torch.randn(d)
    hv = hvp(scalar, (x,), (v,))
    return {
        "jac_rows": jac_rows,
        "jac_rev": jac_rev,
        "jac_fwd": jac_fwd,
        "jac_w": jac_w,
        "jac_b": jac_b,
        "batched": batched,
        "hessian": hess,
        "hvp": hv,
        "v": v,
        "weight": weight,
        "bias": bias,
        "x": x,
        "xs": xs,
    }


if __name__ == "__main__":
    r = compute()
    print("jacrev == vmap(vjp):", bool((r["jac_rev"] - r["jac_rows"]).abs().max() < 1e-5))
    print("jacfwd == jacrev:   ", bool((r["jac_fwd"] - r["jac_rev"]).abs().max() < 1e-5))
    print("jacobian w.r.t. weight:", tuple(r["jac_w"].shape), "bias:", tuple(r["jac_b"].shape))
    print("batched jacobians:", tuple(r["batched"].shape))
    print("hessian:", tuple(r["hessian"].shape))
    print("hvp == hessian @ v:", bool((r["hvp"] - r["hessian"] @ r["v"]).abs().max() < 1e-4))
