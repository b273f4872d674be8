"""torch.nn.utils cases run the same way under PyTorch and keyroute
(tools/record_nn_modules.py records PyTorch's into tests/data/nn_utils.json.gz)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np


def _np(t: Any) -> Any:
    if isinstance(t, (list, tuple)):
        return [_np(x) for x in t]
    return t.detach().numpy().tolist() if hasattr(t, "detach") else t


def _model(lib: Any) -> Any:
    lib.manual_seed(0)
    m = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Tanh(), lib.nn.Linear(3, 2))
    x = lib.tensor(np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32))
    (m(x) ** 2).sum().backward()
    return m


def _clip_norm(norm_type: float, foreach: Any, max_norm: float = 0.3) -> Callable[[Any], Any]:
    def case(lib: Any) -> Any:
        m = _model(lib)
        total = lib.nn.utils.clip_grad_norm_(m.parameters(), max_norm, norm_type, foreach=foreach)
        return [_np(total)] + [_np(p.grad) for p in m.parameters()]

    return case


def _clip_value(foreach: Any) -> Callable[[Any], Any]:
    def case(lib: Any) -> Any:
        m = _model(lib)
        lib.nn.utils.clip_grad_value_(m.parameters(), 0.05, foreach=foreach)
        return [_np(p.grad) for p in m.parameters()]

    return case


def _nonfinite(lib: Any) -> Any:
    m = _model(lib)
    next(m.parameters()).grad[0, 0] = float("inf")
    try:
        lib.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
    except RuntimeError as e:
        return ["RuntimeError", str(e)]
    return ["no error"]


def _vector(lib: Any) -> Any:
    m = _model(lib)
    v = lib.nn.utils.parameters_to_vector(m.parameters())
    lib.nn.utils.vector_to_parameters(v * 2 + 1, m.parameters())
    return [_np(v)] + [_np(p) for p in m.parameters()]


def _packing(lib: Any) -> Any:
    rng = np.random.default_rng(1)
    seqs = [
        lib.tensor(rng.standard_normal((n, 2)).astype(np.float32), requires_grad=True)
        for n in (2, 4, 1)
    ]
    U = lib.nn.utils.rnn
    padded = U.pad_sequence(seqs, batch_first=True, padding_value=-1.0)
    left = U.pad_sequence(seqs, padding_side="left")
    packed = U.pack_padded_sequence(padded, lib.tensor([2, 4, 1]), True, enforce_sorted=False)
    out, lengths = U.pad_packed_sequence(packed, total_length=5)
    (out * lib.arange(out.numel()).reshape(out.shape)).sum().backward()
    seq2 = U.pack_sequence([s.detach() for s in seqs[1:2] + seqs[:1]])
    return [
        _np(padded), _np(left), _np(packed.data), _np(packed.batch_sizes),
        _np(packed.sorted_indices), _np(packed.unsorted_indices), _np(out), _np(lengths),
        [_np(s.grad) for s in seqs], _np(seq2.data), _np(seq2.batch_sizes),
        [_np(s) for s in U.unpack_sequence(seq2)],
    ]  # fmt: skip


def _param_weight_norm(lib: Any) -> Any:
    lib.manual_seed(0)
    m = lib.nn.Linear(3, 4)
    lib.nn.utils.parametrizations.weight_norm(m, dim=0)
    x = lib.ones(2, 3)
    m(x).sum().backward()
    po = m.parametrizations.weight
    return [sorted(m.state_dict()), _np(m.weight), _np(po.original0.grad), _np(po.original1.grad)]


def _param_spectral_norm(lib: Any) -> Any:
    lib.manual_seed(0)
    m = lib.nn.Linear(3, 4)
    lib.nn.utils.parametrizations.spectral_norm(m)
    x = lib.ones(2, 3)
    y = m(x)
    y.sum().backward()
    return [
        sorted(m.state_dict()), _np(m.parametrizations.weight[0]._u), _np(y),
        _np(m.parametrizations.weight.original.grad),
    ]  # fmt: skip


def _old_weight_norm(lib: Any) -> Any:
    lib.manual_seed(0)
    m = lib.nn.Conv1d(2, 3, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.nn.utils.weight_norm(m, dim=1)
    y = m(lib.ones(1, 2, 4))
    y.sum().backward()
    names = sorted(m.state_dict())
    g = _np(m.weight_g.grad)
    lib.nn.utils.remove_weight_norm(m)
    return [names, _np(y), g, sorted(m.state_dict()), _np(m.weight)]


def _old_spectral_norm(lib: Any) -> Any:
    lib.manual_seed(0)
    m = lib.nn.Linear(3, 4)
    lib.nn.utils.spectral_norm(m)
    y = m(lib.ones(2, 3))
    y2 = m(lib.ones(2, 3))
    (y + y2).sum().backward()
    return [sorted(m.state_dict()), _np(y), _np(y2), _np(m.weight_orig.grad), _np(m.weight_u)]


def _parametrize(lib: Any) -> Any:
    P = lib.nn.utils.parametrize

    class Symmetric(lib.nn.Module):
        def forward(self, X: Any) -> Any:
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A: Any) -> Any:
            return A.triu()

    lib.manual_seed(0)
    m = lib.nn.Linear(3, 3)
    P.register_parametrization(m, "weight", Symmetric())
    w = m.weight
    keys = sorted(m.state_dict())
    name = type(m).__name__
    with P.cached():
        same = m.weight is m.weight
    m.weight = lib.eye(3) * 2
    after_set = _np(m.weight)
    orig = _np(m.parametrizations.weight.original)
    P.remove_parametrizations(m, "weight", leave_parametrized=True)
    return [
        _np(w), keys, name, same, after_set, orig, type(m).__name__, sorted(m.state_dict()),
        P.is_parametrized(m),
    ]  # fmt: skip


def _fusion(lib: Any) -> Any:
    lib.manual_seed(0)
    conv = lib.nn.Conv2d(2, 3, 2).eval()
    bn = lib.nn.BatchNorm2d(3).eval()
    bn.running_mean.uniform_()
    bn.running_var.uniform_(0.5, 1.5)
    fused = lib.nn.utils.fuse_conv_bn_eval(conv, bn)
    x = lib.ones(1, 2, 3, 3)
    return [_np(fused(x)), _np(bn(conv(x)))]


def _orthogonal(lib: Any) -> Any:
    lib.manual_seed(0)
    m = lib.nn.Linear(3, 3)
    lib.nn.utils.parametrizations.orthogonal(m)
    w = m.weight
    m(lib.ones(2, 3)).sum().backward()
    return [sorted(m.state_dict()), _np(w), _np(m.parametrizations.weight.original.grad)]


CASES: dict[str, Callable[[Any], Any]] = {
    "parametrizations-orthogonal": _orthogonal,
    "clip_grad_norm-2-foreach": _clip_norm(2.0, None),
    "clip_grad_norm-2-loop": _clip_norm(2.0, False),
    "clip_grad_norm-inf": _clip_norm(float("inf"), True),
    "clip_grad_norm-1-noclip": _clip_norm(1.0, None, max_norm=100.0),
    "clip_grad_value-foreach": _clip_value(None),
    "clip_grad_value-loop": _clip_value(False),
    "clip_grad_norm-nonfinite": _nonfinite,
    "parameters_to_vector": _vector,
    "rnn-packing": _packing,
    "parametrizations-weight_norm": _param_weight_norm,
    "parametrizations-spectral_norm": _param_spectral_norm,
    "weight_norm-hook": _old_weight_norm,
    "spectral_norm-hook": _old_spectral_norm,
    "parametrize-symmetric": _parametrize,
    "fuse_conv_bn_eval": _fusion,
}


def run(lib: Any, name: str) -> Any:
    return CASES[name](lib)
