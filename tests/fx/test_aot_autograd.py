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
