"""The min-cut recompute partitioner gives eager's gradients and saves no more bytes than the
default partitioner (it recomputes cheap pointwise values in the backward)."""

from __future__ import annotations

import keyroute as torch
from keyroute._functorch.aot_autograd import aot_function, default_partition
from keyroute._functorch.partitioners import min_cut_rematerialization_partition


def _saved_bytes(fw_gm, n_out):
    outs = list(fw_gm.graph.nodes)[-1].args[0][n_out:]
    return sum(o.meta["val"].numel() * o.meta["val"].dtype.itemsize for o in outs)


def _check(f, args):
    graphs = {}
    for name, part in [
        ("default", default_partition),
        ("min_cut", min_cut_rematerialization_partition),
    ]:  # noqa: E501
        fws = []

        def keep(gm, ex, fws=fws):
            fws.append(gm)
            return gm

        inputs = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
        out = aot_function(f, keep, keep, partition_fn=part)(*inputs)
        out.sum().backward()
        graphs[name] = (fws[0], [a.grad for a in inputs])
    ref = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    f(*ref).sum().backward()
    for _fw, grads in graphs.values():
        for g, r in zip(grads, ref):
            assert (g is None) == (r.grad is None)
            if g is not None:
                assert torch.allclose(g, r.grad, atol=1e-5)
    return _saved_bytes(graphs["default"][0], 1), _saved_bytes(graphs["min_cut"][0], 1)


def test_pointwise_chain_recomputes_instead_of_saving():
    def f(x):
        return (x.sin() * x.cos()).exp().tanh()

    d, m = _check(f, (torch.randn(64, requires_grad=True),))
    assert m < d


def test_mlp_gradients_and_no_more_bytes():
    F = torch.nn.functional

    def f(x, w1, w2):
        return F.linear(torch.relu(F.linear(x, w1)) * 2 + 1, w2)

    d, m = _check(
        f,
        (
            torch.randn(4, 8),
            torch.randn(16, 8, requires_grad=True),
            torch.randn(3, 16, requires_grad=True),
        ),  # noqa: E501
    )
    assert m <= d


def test_rmsnorm_silu():
    def f(x, g):
        h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g
        return torch.nn.functional.silu(h)

    d, m = _check(f, (torch.randn(4, 32, requires_grad=True), torch.randn(32, requires_grad=True)))
    assert m <= d
