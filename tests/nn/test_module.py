"""nn.Module behaviour as PyTorch's: registration, iteration, state dicts, modes, hooks, repr."""

from __future__ import annotations

import numpy as np
import pytest

import keyroute as kr
from keyroute import nn


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 2, bias=False)
        self.register_buffer("steps", kr.zeros(1))
        self.register_buffer("scratch", kr.zeros(2), persistent=False)

    def forward(self, x):  # noqa: ANN001, ANN201
        return self.fc2(self.act(self.fc1(x)))


def test_registration_and_iteration() -> None:
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "fc2.weight"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "fc2"]
    assert [type(m).__name__ for m in net.children()] == ["Linear", "ReLU", "Linear"]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in net.parameters())
    assert sum(p.numel() for p in net.parameters()) == 4 * 3 + 3 + 3 * 2


def test_state_dict_round_trip_and_strict_errors() -> None:
    a, b = Net(), Net()
    sd = a.state_dict()
    assert list(sd) == ["steps", "fc1.weight", "fc1.bias", "fc2.weight"]  # own, then children
    assert not any(t.requires_grad for t in sd.values())
    b.load_state_dict(sd)
    for (_, p), (_, q) in zip(a.named_parameters(), b.named_parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    bad = dict(sd)
    bad.pop("fc1.bias")
    bad["extra"] = kr.ones(1)
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "fc1.bias"'):
        b.load_state_dict(bad)
    res = b.load_state_dict(bad, strict=False)
    assert res.missing_keys == ["fc1.bias"] and res.unexpected_keys == ["extra"]
    wrong = dict(sd)
    wrong["fc1.weight"] = kr.ones(2, 2)
    with pytest.raises(RuntimeError, match="size mismatch for fc1.weight"):
        b.load_state_dict(wrong)


def test_load_state_dict_assign() -> None:
    with kr.device("meta"):
        m = nn.Linear(3, 2)
    assert m.weight.is_meta
    sd = nn.Linear(3, 2).state_dict()
    m.load_state_dict(sd, assign=True)
    assert not m.weight.is_meta and isinstance(m.weight, nn.Parameter)
    np.testing.assert_array_equal(m.weight.detach().numpy(), sd["weight"].numpy())


def test_train_eval_apply_zero_grad() -> None:
    net = Net()
    assert net.training and net.fc1.training
    net.eval()
    assert not net.training and not net.fc1.training
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "Net"]
    net(kr.ones(2, 4)).sum().backward()
    assert net.fc1.weight.grad is not None
    net.zero_grad()
    assert net.fc1.weight.grad is None


def test_to_dtype_and_to_empty() -> None:
    net = Net().to(kr.float64)
    assert net.fc1.weight.dtype is kr.float64 and isinstance(net.fc1.weight, nn.Parameter)
    with kr.device("meta"):
        m = nn.Linear(1000, 1000)
    m.to_empty(device="cpu")
    assert m.weight.device.type == "cpu" and tuple(m.weight.shape) == (1000, 1000)
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
        with kr.device("meta"):
            nn.Linear(2, 2).to("cpu")


def test_forward_hooks() -> None:
    net = Net()
    calls = []
    h1 = net.fc1.register_forward_pre_hook(lambda m, args: calls.append("pre"))
    h2 = net.fc1.register_forward_hook(lambda m, args, out: out * 0)
    out = net.fc1(kr.ones(1, 4))
    assert calls == ["pre"] and out.abs().sum().item() == 0
    h1.remove()
    h2.remove()
    assert net.fc1(kr.ones(1, 4)).abs().sum().item() != 0


def test_repr() -> None:
    assert repr(nn.Linear(3, 2)) == "Linear(in_features=3, out_features=2, bias=True)"
    seq = nn.Sequential(nn.Linear(3, 2), nn.GELU())
    assert repr(seq) == (
        "Sequential(\n  (0): Linear(in_features=3, out_features=2, bias=True)\n"
        "  (1): GELU(approximate='none')\n)"
    )
    assert repr(nn.LayerNorm(4)) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True)"
    assert repr(nn.Embedding(10, 3)) == "Embedding(10, 3)"


def test_containers() -> None:
    seq = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[1], nn.Tanh) and len(seq[:2]) == 2
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    ml.append(nn.ReLU())
    assert len(ml) == 4 and len(list(ml.parameters())) == 6
    md = nn.ModuleDict({"a": nn.Linear(1, 1)})
    md["b"] = nn.ReLU()
    assert list(md.keys()) == ["a", "b"]
    with pytest.raises(TypeError):
        ml.append(3)  # type: ignore[arg-type]


def test_parameter_assignment_errors() -> None:
    m = nn.Linear(2, 2)
    with pytest.raises(TypeError, match="cannot assign 'Tensor' as parameter 'weight'"):
        m.weight = kr.ones(2, 2)
    m.weight = nn.Parameter(kr.ones(2, 2))
    assert m.weight.sum().item() == 4


def test_init_functions() -> None:
    w = kr.empty(64, 32)
    nn.init.kaiming_uniform_(w, a=5**0.5)
    bound = 1 / (32**0.5)
    assert w.abs().max().item() <= bound + 1e-6
    nn.init.zeros_(w)
    assert w.abs().sum().item() == 0
    nn.init.xavier_normal_(w)
    assert 0.1 < w.std().item() < 0.3
    assert nn.init.calculate_gain("relu") == pytest.approx(2**0.5)
