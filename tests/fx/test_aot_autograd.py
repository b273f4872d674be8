"""AOT Autograd: joint graph traced on fake tensors, default partition, compiled training step
gives eager's gradients."""

import keyroute as torch
from keyroute._functorch.aot_autograd import aot_function, aot_module

F = torch.nn.functional


def mlp(x, w1, b1, w2):
    return (F.linear(torch.relu(F.linear(x, w1, b1)), w2) ** 2).mean()


def _params():
    torch.manual_seed(0)
    return (
        torch.randn(4, 6),
        torch.randn(8, 6, requires_grad=True),
        torch.randn(8, requires_grad=True),
        torch.randn(3, 8, requires_grad=True),
    )


def test_aot_function_gradients_match_eager():
    graphs = []

    def keep(gm, _):
        graphs.append(gm)
        return gm

    x, w1, b1, w2 = _params()
    aot_function(mlp, keep, keep)(x, w1, b1, w2).backward()
    got = [p.grad.clone() for p in (w1, b1, w2)]
    for p in (w1, b1, w2):
        p.grad = None
    mlp(x, w1, b1, w2).backward()
    for g, p in zip(got, (w1, b1, w2)):
        assert bool(((g - p.grad).abs() <= 1e-5).all())
    fw, bw = graphs
    fw_ph = [n.name for n in fw.graph.nodes if n.op == "placeholder"]
    assert fw_ph == ["primals_1", "primals_2", "primals_3", "primals_4"]
    bw_ph = [n.name for n in bw.graph.nodes if n.op == "placeholder"]
    assert bw_ph[-1] == "tangents_1"
    fw_out = list(fw.graph.nodes)[-1].args[0]
    # the user output first, then the activations the backward reads (its placeholders)
    assert [n.name for n in fw_out[1:]] == bw_ph[:-1]
    assert not any(n.name.startswith("tangents") for n in fw.graph.nodes)
    bw_out = list(bw.graph.nodes)[-1].args[0]
    assert bw_out[0] is None  # x does not require grad


def test_aot_module_lifts_parameters():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    seen = []

    def keep(gm, _):
        seen.append([n.name for n in gm.graph.nodes if n.op == "placeholder"])
        return gm

    x = torch.randn(3, 5)
    aot_module(m, keep, keep)(x).sum().backward()
    got = [p.grad.clone() for p in m.parameters()]
    for p in m.parameters():
        p.grad = None
    m(x).sum().backward()
    for g, p in zip(got, m.parameters()):
        assert bool(((g - p.grad).abs() <= 1e-5).all())
    assert seen[0] == [f"primals_{i}" for i in range(1, 6)]  # 4 parameters, then x


class _RunningMean(torch.nn.Module):
    """A buffer updated in place during training (BatchNorm's running statistics, in small)."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(5, 5)
        self.register_buffer("running", torch.zeros(5))

    def forward(self, x):
        h = self.lin(x)
        self.running.mul_(0.9).add_(h.detach().mean(0), alpha=0.1)
        return (h * self.running).sum()


def _train_once(m, x):
    m.zero_grad()
    m(x).backward()
    return [p.grad.clone() for p in m.parameters()], m.running.clone()


def test_training_input_mutations_are_functionalized_with_an_epilogue():
    graphs = []

    def keep(gm, _):
        graphs.append(gm)
        return gm

    torch.manual_seed(0)
    ref, x = _RunningMean(), torch.randn(4, 5)
    m = _RunningMean()
    m.load_state_dict(ref.state_dict())
    aot = aot_module(m, keep, keep)
    for _ in range(2):  # the second call reads the buffer the first call's epilogue wrote
        m.zero_grad()
        aot(x).backward()
        want_g, want_r = _train_once(ref, x)
        for p, w in zip(m.parameters(), want_g):
            assert bool(((p.grad - w).abs() <= 1e-5).all())
        assert bool(((m.running - want_r).abs() <= 1e-6).all())
    fw = graphs[0]
    ops = [str(n.target) for n in fw.graph.nodes if n.op == "call_function"]
    assert not any(o.split(".")[1].endswith("_") for o in ops), ops  # no in-place node left
    assert list(fw.graph.nodes)[-1].args[0][0].name == "add"  # the buffer's new value first


def test_compiled_training_with_a_mutated_buffer_matches_eager():
    for backend in ("aot_eager", "inductor"):
        torch._dynamo.reset()
        torch.manual_seed(0)
        ref, x = _RunningMean(), torch.randn(4, 5)
        m = _RunningMean()
        m.load_state_dict(ref.state_dict())
        cm = torch.compile(m, backend=backend)
        for _ in range(2):
            m.zero_grad()
            cm(x).backward()
            want_g, want_r = _train_once(ref, x)
            for p, w in zip(m.parameters(), want_g):
                assert bool(((p.grad - w).abs() <= 1e-5).all()), backend
            assert bool(((m.running - want_r).abs() <= 1e-6).all()), backend


def test_a_written_view_of_an_input_keeps_its_inplace_node_and_eager_values():
    def f(x, buf):
        buf[1:].add_(x.detach().sum(0)[:2])
        return (x * buf).sum()

    graphs = []

    def keep(gm, _):
        graphs.append(gm)
        return gm

    x = torch.randn(3, 3, requires_grad=True)
    buf, buf_ref = torch.zeros(3), torch.zeros(3)
    aot_function(f, keep, keep)(x, buf).backward()
    g = x.grad.clone()
    x.grad = None
    f(x, buf_ref).backward()
    assert bool((buf == buf_ref).all()) and bool(((g - x.grad).abs() <= 1e-6).all())
    ops = [str(n.target) for n in graphs[0].graph.nodes if n.op == "call_function"]
    assert "aten.add_.Tensor" in ops  # outside the functionalized scope: unchanged
