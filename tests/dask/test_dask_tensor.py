"""Dask-backed tensors on the local threaded scheduler: operators build the graph and compute
nothing; values, autograd and MiniLM agree with the CPU run."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("dask.array")

import keyroute as torch  # noqa: E402
import keyroute.dask as kd  # noqa: E402
import keyroute.nn.functional as F  # noqa: E402
from keyroute.dask import _client  # noqa: E402
from keyroute.dask._store import DaskStore  # noqa: E402


def _pair(*shape, chunks):
    g = torch.Generator().manual_seed(sum(shape))
    a = torch.randn(*shape, generator=g)
    return a, kd.from_numpy(a, chunks=chunks)


def _close(x, ref, tol=1e-5):
    assert x.device == torch.device("dask:0")
    got = x.cpu()
    assert got.device == torch.device("cpu") and got.dtype == ref.dtype
    assert got.shape == ref.shape
    np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=tol, atol=tol)


def test_device_and_keys():
    _, x = _pair(3, 4, chunks=(2, 2))
    # a register_backend device: index 0, as PyTorch's PrivateUse1 tensors report
    assert x.device == torch.device("dask", 0) and str(x.device) == "dask:0"
    assert isinstance(x._data, DaskStore) and x._data.array.numblocks == (2, 2)
    assert x.shape == (3, 4) and x.stride() == (4, 1) and x.is_contiguous()
    assert repr(torch._C._dispatch_keys(x)) == (
        "DispatchKeySet(Dask, ADInplaceOrView, AutogradDask, AutocastDask)"
    )


def test_operators_are_lazy_and_values_match():
    a, x = _pair(6, 8, chunks=(4, 3))
    b, w = _pair(8, 5, chunks=(3, 5))
    calls = []
    real = _client.compute
    _client.compute = lambda *arrs: calls.append(1) or real(*arrs)
    try:
        y = F.silu(x @ w) * 2 + 1
        s = y.sum()
        assert calls == [] and isinstance(s._data, DaskStore)
        assert s._data.array.npartitions >= 1
    finally:
        _client.compute = real
    _close(y, F.silu(a @ b) * 2 + 1)
    assert s.item() == pytest.approx((F.silu(a @ b) * 2 + 1).sum().item(), rel=1e-5)


@pytest.mark.parametrize(
    "fn",
    [
        lambda t: t.exp().log1p(),
        lambda t: torch.where(t > 0, t, -t) / 3,
        lambda t: t.clamp(-0.5, 0.5) - t.mean(1, keepdim=True),
        lambda t: t.sum(0) + t.amax(0) - t.amin(0),
        lambda t: t.mean(),
        lambda t: t.norm(dim=1),
        lambda t: t.t().contiguous().view(-1)[3:17:2],
        lambda t: t[1:5, ::2].unsqueeze(0).expand(3, 4, 4).reshape(12, 4),
        lambda t: t.permute(1, 0)[2],
        lambda t: t[torch.tensor([0, 5, 2])],
        lambda t: t.argmax(1),
        lambda t: F.softmax(t, -1),
        lambda t: F.log_softmax(t, 0),
        lambda t: F.layer_norm(t, (8,)),
        lambda t: F.gelu(t) + F.silu(t),
        lambda t: t.to(torch.float64) * 2,
        lambda t: (t > 0).sum(1),
        lambda t: torch.cat([t, t * 2], 1),
        lambda t: t.cumsum(0),
    ],
)
def test_operator_matches_cpu(fn):
    a, x = _pair(6, 8, chunks=(4, 3))
    _close(fn(x), fn(a))


def test_broadcasting_over_chunks():
    a, x = _pair(4, 3, 5, chunks=(2, 3, 5))
    b, y = _pair(4, 1, 5, chunks=(4, 1, 5))
    c, z = _pair(5, chunks=(2,))
    _close(x + y * z, a + b * c)


def test_batched_matmul_and_attention():
    q, qd = _pair(2, 3, 6, 4, chunks=(1, 2, 6, 4))
    k, kd_ = _pair(2, 3, 6, 4, chunks=(2, 1, 6, 4))
    _close(qd @ kd_.transpose(-1, -2), q @ k.transpose(-1, -2))
    _close(F.scaled_dot_product_attention(qd, kd_, kd_), F.scaled_dot_product_attention(q, k, k))


def test_in_place_rebinds_the_graph():
    a, x = _pair(4, 4, chunks=(2, 2))
    x.add_(1).mul_(2)
    _close(x, (a + 1) * 2)
    x.zero_()
    assert x.tolist() == [[0.0] * 4] * 4
    cpu = torch.zeros(4, 4)
    cpu.copy_(kd.from_numpy(a, chunks=2))
    assert torch.equal(cpu, a)


def test_autograd_through_dask():
    a, _ = _pair(5, 8, chunks=(2, 8))
    b, _ = _pair(8, 3, chunks=(8, 3))
    x = kd.from_numpy(a, chunks=(2, 4)).requires_grad_()
    w = b.to("dask").requires_grad_()
    loss = F.layer_norm(F.gelu(x @ w), (3,)).pow(2).sum()
    loss.backward()
    ar, br = a.clone().requires_grad_(), b.clone().requires_grad_()
    F.layer_norm(F.gelu(ar @ br), (3,)).pow(2).sum().backward()
    assert x.grad.device == torch.device("dask:0") and w.grad.device == torch.device("dask:0")
    _close(x.grad, ar.grad, 1e-4)
    _close(w.grad, br.grad, 1e-4)


def test_printing_item_tolist_numpy():
    x = torch.arange(4.0).to("dask")
    assert repr(x) == "tensor([0., 1., 2., 3.], device='dask:0')"
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert (x * 2).sum().item() == 12.0
    with pytest.raises(TypeError, match="can't convert dask device type tensor to numpy"):
        x.numpy()


def test_factories_on_the_device():
    z = torch.zeros(2, 3, device="dask")
    assert z.device == torch.device("dask:0") and z.tolist() == [[0.0] * 3] * 2
    torch.manual_seed(0)
    r = torch.randn(3, device="dask")
    torch.manual_seed(0)
    assert r.tolist() == torch.randn(3).tolist()  # drawn at the call, as on CPU


def test_device_mismatch_is_refused():
    x = torch.ones(3).to("dask")
    with pytest.raises(RuntimeError, match="is not on the expected device dask"):
        x + torch.ones(3)
    assert (x + torch.tensor(2.0)).tolist() == [3.0] * 3  # a 0-dim CPU tensor is a scalar


def test_use_refuses_what_is_not_a_client():
    with pytest.raises(TypeError, match="expects a distributed.Client"):
        kd.use(42)
    assert kd.current_client() is None


def test_minilm_forward_on_dask_matches_cpu():
    minilm = pytest.importorskip("keyroute.models.minilm")
    try:
        model = minilm.load_model()
    except ModuleNotFoundError:
        pytest.skip("MiniLM weights not installed")
    import copy

    sents = ["A man is eating food.", "The cat sits on the mat.", "Drums", "A violin."]
    ids, mask = minilm.tokenize(sents)
    with torch.no_grad():
        ref = minilm.embed_batch(model, ids, mask).numpy()
        md = copy.deepcopy(model).to("dask")
        out = minilm.embed_batch(
            md, kd.from_numpy(ids, chunks=(2, -1)), kd.from_numpy(mask, chunks=(2, -1))
        )
        assert out.device == torch.device("dask:0") and out._data.array.numblocks == (2, 1)
        np.testing.assert_allclose(out.cpu().numpy(), ref, atol=1e-5)


def test_without_dask_the_import_says_what_to_install():
    code = (
        "import sys; sys.modules['dask'] = None; sys.modules['dask.array'] = None\n"
        "try:\n    import keyroute.dask\nexcept ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "pip install 'keyroute[dask]'" in done.stdout, done.stderr


def test_known_gap_views_do_not_alias():
    # tests/dask/known_gaps.txt views_do_not_alias: on CPU the write reaches the base.
    x = torch.zeros(4).to("dask")
    v = x[1:3]
    v.fill_(1.0)
    assert x.tolist() == [0.0] * 4  # PyTorch: [0.0, 1.0, 1.0, 0.0]
