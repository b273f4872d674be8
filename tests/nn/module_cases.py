"""Module cases run the same way under PyTorch and keyroute (tools/record_nn_modules.py records
PyTorch's into tests/data/nn_modules.json.gz; tests/nn/test_nn_modules.py compares).

A case: the module built as `eval(ctor)` with `nn` the library's torch.nn, after
manual_seed(0); its inputs from a NumPy generator (the same for both libraries); `steps`
forward+backward calls in training mode, then one call in eval mode. Recorded: the initial
state_dict (PyTorch's initialisation from its seeds), and, with that state loaded, every
output, the inputs' and parameters' gradients, and the state_dict after the calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# name -> (constructor, inputs, options). An input is a shape (float32 normal values), or
# ("long", shape, high) for integer indices, or ("raw", value) passed as is (a Python value),
# or ("bool", shape) for a random mask.
CASES: dict[str, tuple[str, list[Any], dict[str, Any]]] = {
    "BatchNorm1d-2d": ("nn.BatchNorm1d(3)", [(6, 3)], {"steps": 2}),
    "BatchNorm1d-3d": ("nn.BatchNorm1d(3, momentum=None)", [(4, 3, 5)], {"steps": 2}),
    "BatchNorm2d": ("nn.BatchNorm2d(3)", [(4, 3, 5, 6)], {"steps": 2}),
    "BatchNorm2d-noaffine": (
        "nn.BatchNorm2d(3, affine=False, track_running_stats=False)",
        [(4, 3, 2, 2)],
        {},
    ),
    "BatchNorm3d": ("nn.BatchNorm3d(2, eps=1e-3, momentum=0.3)", [(2, 2, 3, 2, 2)], {}),
    "SyncBatchNorm": ("nn.SyncBatchNorm(3)", [(4, 3, 5)], {}),
    "LazyBatchNorm2d": ("nn.LazyBatchNorm2d()", [(4, 3, 2, 2)], {}),
    "InstanceNorm1d": ("nn.InstanceNorm1d(3)", [(2, 3, 6)], {}),
    "InstanceNorm2d-affine-stats": (
        "nn.InstanceNorm2d(3, affine=True, track_running_stats=True)",
        [(2, 3, 4, 4)],
        {},
    ),
    "InstanceNorm3d-unbatched": ("nn.InstanceNorm3d(2)", [(2, 3, 3, 2)], {}),
    "GroupNorm": ("nn.GroupNorm(2, 4)", [(3, 4, 5)], {}),
    "GroupNorm-4d": ("nn.GroupNorm(3, 6, affine=False)", [(2, 6, 2, 3)], {}),
    "LocalResponseNorm": ("nn.LocalResponseNorm(3)", [(2, 5, 4, 4)], {}),
    "LocalResponseNorm-3d": ("nn.LocalResponseNorm(2, alpha=0.1, k=2.0)", [(2, 4, 6)], {}),
    "CrossMapLRN2d": ("nn.CrossMapLRN2d(3, alpha=0.01)", [(1, 4, 3, 3)], {}),
    # recurrent
    "RNN": ("nn.RNN(3, 4)", [(5, 2, 3)], {"steps": 2}),
    "RNN-relu-2layer-bi": (
        "nn.RNN(3, 4, 2, nonlinearity='relu', bidirectional=True)",
        [(5, 2, 3)],
        {},
    ),
    "RNN-unbatched-hx": ("nn.RNN(3, 4, batch_first=True)", [(5, 3), (1, 4)], {}),
    "LSTM": ("nn.LSTM(3, 5)", [(6, 2, 3)], {"steps": 2}),
    "LSTM-2layer-bi-batch_first": (
        "nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)",
        [(2, 5, 3)],
        {},
    ),
    "LSTM-proj": ("nn.LSTM(3, 5, proj_size=2, num_layers=2)", [(4, 3, 3)], {}),
    "LSTM-nobias-hx": (
        "nn.LSTM(3, 4, bias=False)",
        [(4, 2, 3), ("tuple", [(1, 2, 4), (1, 2, 4)])],
        {},
    ),
    "LSTM-packed": ("nn.LSTM(3, 4, bidirectional=True)", [("packed", (5, 3, 3), [3, 5, 2])], {}),
    "LSTM-dropout-eval": ("nn.LSTM(3, 4, 2, dropout=0.5)", [(4, 2, 3)], {"steps": 0}),
    "GRU": ("nn.GRU(3, 4)", [(5, 2, 3)], {"steps": 2}),
    "GRU-2layer-bi": ("nn.GRU(3, 4, 2, bidirectional=True, batch_first=True)", [(2, 5, 3)], {}),
    "GRU-packed": ("nn.GRU(2, 3, 2)", [("packed", (4, 3, 2), [4, 4, 1])], {}),
    "RNNCell": ("nn.RNNCell(3, 4)", [(2, 3), (2, 4)], {"steps": 2}),
    "RNNCell-relu-unbatched": ("nn.RNNCell(3, 4, nonlinearity='relu')", [(3,)], {}),
    "LSTMCell": ("nn.LSTMCell(3, 4)", [(2, 3), ("tuple", [(2, 4), (2, 4)])], {"steps": 2}),
    "LSTMCell-nohx": ("nn.LSTMCell(3, 4, bias=False)", [(2, 3)], {}),
    "GRUCell": ("nn.GRUCell(3, 4)", [(2, 3), (2, 4)], {"steps": 2}),
    # attention and transformers (dropout 0 in training: the masks' random streams differ)
    "MultiheadAttention-self": ("nn.MultiheadAttention(8, 2)", [(5, 3, 8)], {"self": True}),
    "MultiheadAttention-kv": ("nn.MultiheadAttention(8, 4)", [(5, 3, 8), (4, 3, 8), (4, 3, 8)], {}),
    "MultiheadAttention-kdim-bias_kv-zero": (
        "nn.MultiheadAttention(6, 2, kdim=4, vdim=5, add_bias_kv=True, add_zero_attn=True, "
        "batch_first=True)",
        [(2, 3, 6), (2, 4, 4), (2, 4, 5)],
        {},
    ),
    "MultiheadAttention-masks": (
        "nn.MultiheadAttention(4, 2)",
        [(3, 2, 4), (5, 2, 4), (5, 2, 4), ("bool", (2, 5)), ("raw", True), ("bool", (3, 5))],
        {},
    ),
    "MultiheadAttention-no-average": (
        "nn.MultiheadAttention(4, 2, bias=False)",
        [(3, 4), (2, 4), (2, 4), ("raw", None), ("raw", True), ("raw", None), ("raw", False)],
        {},
    ),
    "TransformerEncoderLayer": (
        "nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)",
        [(5, 3, 8)],
        {},
    ),
    "TransformerEncoderLayer-gelu-normfirst-bf": (
        "nn.TransformerEncoderLayer(8, 2, 12, 0.0, 'gelu', batch_first=True, norm_first=True)",
        [(3, 5, 8)],
        {},
    ),
    "TransformerEncoder-causal": (
        "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0), 2, "
        "norm=nn.LayerNorm(8), enable_nested_tensor=False)",
        [(4, 2, 8), ("raw", "causal4")],
        {},
    ),
    "TransformerDecoderLayer": (
        "nn.TransformerDecoderLayer(8, 2, 16, 0.0)",
        [(4, 2, 8), (5, 2, 8)],
        {},
    ),
    "TransformerDecoder-normfirst": (
        "nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 4, 16, 0.0, norm_first=True), 2)",
        [(4, 2, 8), (5, 2, 8), ("raw", "causal4")],
        {},
    ),
    "Transformer": ("nn.Transformer(8, 2, 2, 2, 16, 0.0)", [(5, 2, 8), (4, 2, 8)], {}),
    # losses and distances
    "SmoothL1Loss": ("nn.SmoothL1Loss(beta=0.5)", [(4, 3), (4, 3)], {}),
    "SmoothL1Loss-sum": ("nn.SmoothL1Loss(reduction='sum')", [(5,), (5,)], {}),
    "HuberLoss": ("nn.HuberLoss(delta=0.7)", [(4, 3), (4, 3)], {}),
    "KLDivLoss-batchmean": ("nn.KLDivLoss(reduction='batchmean')", [(3, 4), ("prob", (3, 4))], {}),
    "KLDivLoss-logtarget-none": (
        "nn.KLDivLoss(reduction='none', log_target=True)",
        [(3, 4), (3, 4)],
        {},
    ),
    "PoissonNLLLoss": ("nn.PoissonNLLLoss()", [(4, 3), ("pos", (4, 3))], {}),
    "PoissonNLLLoss-full": (
        "nn.PoissonNLLLoss(log_input=False, full=True)",
        [("pos", (6,)), ("pos", (6,))],
        {},
    ),
    "GaussianNLLLoss": ("nn.GaussianNLLLoss()", [(4, 3), (4, 3), ("pos", (4, 3))], {}),
    "GaussianNLLLoss-full-var1": (
        "nn.GaussianNLLLoss(full=True, reduction='sum')",
        [(4, 3), (4, 3), ("pos", (4, 1))],
        {},
    ),
    "CosineEmbeddingLoss": (
        "nn.CosineEmbeddingLoss(margin=0.2)",
        [(4, 5), (4, 5), ("sign", (4,))],
        {},
    ),
    "MarginRankingLoss": ("nn.MarginRankingLoss(0.1)", [(6,), (6,), ("sign", (6,))], {}),
    "HingeEmbeddingLoss": ("nn.HingeEmbeddingLoss()", [(3, 4), ("sign", (3, 4))], {}),
    "SoftMarginLoss": ("nn.SoftMarginLoss()", [(3, 4), ("sign", (3, 4))], {}),
    "TripletMarginLoss": (
        "nn.TripletMarginLoss(margin=0.5, swap=True)",
        [(4, 3), (4, 3), (4, 3)],
        {},
    ),
    "TripletMarginLoss-p1": ("nn.TripletMarginLoss(p=1)", [(4, 3), (4, 3), (4, 3)], {}),
    "TripletMarginWithDistanceLoss": (
        "nn.TripletMarginWithDistanceLoss()",
        [(4, 3), (4, 3), (4, 3)],
        {},
    ),
    "MultiLabelSoftMarginLoss": ("nn.MultiLabelSoftMarginLoss()", [(3, 4), ("prob", (3, 4))], {}),
    "MultiMarginLoss": ("nn.MultiMarginLoss()", [(3, 4), ("long", (3,), 4)], {}),
    "MultiMarginLoss-p2-weight": (
        "nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 0.5, 1.5]))",
        [(3, 4), ("long", (3,), 4)],
        {},
    ),
    "MultiLabelMarginLoss": (
        "nn.MultiLabelMarginLoss()",
        [(2, 4), ("raw_long", [[3, 0, -1, 1], [1, 2, 3, -1]])],
        {},
    ),
    "CosineSimilarity": ("nn.CosineSimilarity(dim=1)", [(3, 4), (3, 4)], {}),
    "PairwiseDistance": ("nn.PairwiseDistance(p=3.0, keepdim=True)", [(3, 4), (3, 4)], {}),
    # activations
    "ReLU6": ("nn.ReLU6()", [(3, 4)], {}),
    "SELU": ("nn.SELU()", [(3, 4)], {}),
    "CELU": ("nn.CELU(0.5)", [(3, 4)], {}),
    "GLU": ("nn.GLU(0)", [(4, 3)], {}),
    "Hardshrink": ("nn.Hardshrink(0.3)", [(3, 4)], {}),
    "Softshrink": ("nn.Softshrink()", [(3, 4)], {}),
    "Softsign": ("nn.Softsign()", [(3, 4)], {}),
    "Tanhshrink": ("nn.Tanhshrink()", [(3, 4)], {}),
    "Threshold": ("nn.Threshold(0.1, -2.0)", [(3, 4)], {}),
    "LogSigmoid": ("nn.LogSigmoid()", [(3, 4)], {}),
    "Hardsigmoid": ("nn.Hardsigmoid()", [(3, 4)], {}),
    "Hardswish": ("nn.Hardswish()", [(3, 4)], {}),
    "Softmin": ("nn.Softmin(dim=1)", [(3, 4)], {}),
    "Softmax2d": ("nn.Softmax2d()", [(2, 3, 2, 2)], {}),
    "PReLU": ("nn.PReLU(3, 0.1)", [(2, 3, 4)], {}),
    "RReLU-eval": ("nn.RReLU()", [(3, 4)], {"steps": 0}),
    # padding, pooling, shuffles, 3-d convolution, lazy layers, dropouts (eval / p=0)
    "ZeroPad2d": ("nn.ZeroPad2d((1, 0, 2, 1))", [(1, 2, 3, 3)], {}),
    "ConstantPad1d": ("nn.ConstantPad1d(2, 3.5)", [(2, 3, 4)], {}),
    "ReflectionPad2d": ("nn.ReflectionPad2d(1)", [(1, 2, 3, 3)], {}),
    "ReplicationPad1d": ("nn.ReplicationPad1d((2, 1))", [(2, 3, 4)], {}),
    "CircularPad2d": ("nn.CircularPad2d(1)", [(1, 2, 3, 3)], {}),
    "MaxPool1d": ("nn.MaxPool1d(3, stride=2, padding=1)", [(2, 3, 7)], {}),
    "AvgPool1d": ("nn.AvgPool1d(2)", [(2, 3, 6)], {}),
    "AdaptiveAvgPool1d": ("nn.AdaptiveAvgPool1d(3)", [(2, 3, 7)], {}),
    "AdaptiveMaxPool1d": ("nn.AdaptiveMaxPool1d(3)", [(2, 3, 7)], {}),
    "AdaptiveMaxPool2d": ("nn.AdaptiveMaxPool2d((2, 3))", [(1, 2, 5, 7)], {}),
    "LPPool2d": ("nn.LPPool2d(2, 2)", [(1, 2, 4, 4)], {}),
    "LPPool1d": ("nn.LPPool1d(3, 2)", [("pos", (1, 2, 6))], {}),
    "PixelShuffle": ("nn.PixelShuffle(2)", [(1, 8, 2, 3)], {}),
    "PixelUnshuffle": ("nn.PixelUnshuffle(2)", [(1, 2, 4, 6)], {}),
    "ChannelShuffle": ("nn.ChannelShuffle(2)", [(1, 4, 2, 2)], {}),
    "Conv3d": ("nn.Conv3d(2, 3, 2, stride=(1, 2, 1), padding=1)", [(1, 2, 3, 4, 3)], {}),
    "LazyLinear": ("nn.LazyLinear(3)", [(4, 5)], {"steps": 2}),
    "LazyConv2d": ("nn.LazyConv2d(3, 2)", [(1, 2, 4, 4)], {}),
    "Dropout2d-eval": ("nn.Dropout2d(0.5)", [(2, 3, 2, 2)], {"steps": 0}),
    "Dropout1d-p0": ("nn.Dropout1d(0.0)", [(2, 3, 4)], {}),
    "AlphaDropout-eval": ("nn.AlphaDropout(0.2)", [(3, 4)], {"steps": 0}),
    "DataParallel": ("nn.DataParallel(nn.Linear(3, 2))", [(4, 3)], {}),
    "Transformer-dropout-eval": (
        "nn.Transformer(8, 2, 1, 1, 16, 0.1, batch_first=True)",
        [(2, 5, 8), (2, 4, 8)],
        {"steps": 0},
    ),
    # resampling (F.interpolate over the upsample_* operators)
    "Upsample-nearest": ("nn.Upsample(scale_factor=2)", [(1, 2, 3, 4)], {}),
    "Upsample-bilinear": ("nn.Upsample(size=(5, 7), mode='bilinear')", [(1, 2, 3, 4)], {}),
    "Upsample-bicubic-align": (
        "nn.Upsample(scale_factor=1.5, mode='bicubic', align_corners=True)",
        [(1, 2, 3, 4)],
        {},
    ),
    "Upsample-linear": ("nn.Upsample(scale_factor=2.5, mode='linear')", [(2, 3, 4)], {}),
    "Upsample-trilinear-recompute": (
        "nn.Upsample(scale_factor=(1.5, 2, 1.2), mode='trilinear', recompute_scale_factor=True)",
        [(1, 1, 2, 3, 4)],
        {},
    ),
    "Upsample-nearest-exact": ("nn.Upsample(size=5, mode='nearest-exact')", [(2, 2, 3)], {}),
    "Upsample-area": ("nn.Upsample(scale_factor=0.5, mode='area')", [(1, 2, 6, 4)], {}),
    "UpsamplingNearest2d": ("nn.UpsamplingNearest2d(scale_factor=3)", [(1, 2, 2, 3)], {}),
    "UpsamplingBilinear2d": ("nn.UpsamplingBilinear2d(size=(4, 5))", [(1, 2, 2, 3)], {}),
    "Unfold": (
        "nn.Unfold(kernel_size=(2, 3), dilation=1, padding=1, stride=2)",
        [(2, 3, 5, 6)],
        {},
    ),
    "Fold": ("nn.Fold(output_size=(4, 5), kernel_size=2)", [(2, 12, 12)], {}),
    "EmbeddingBag-sum": ("nn.EmbeddingBag(10, 3, mode='sum')", [("long", (4, 3), 10)], {}),
    "EmbeddingBag-mean": ("nn.EmbeddingBag(10, 3, padding_idx=2)", [("long", (4, 5), 10)], {}),
    "EmbeddingBag-max": (
        "nn.EmbeddingBag(10, 3, mode='max', max_norm=1.0)",
        [("long", (3, 4), 10)],
        {"steps": 2},
    ),
    "EmbeddingBag-offsets": (
        "nn.EmbeddingBag(8, 3, mode='sum', include_last_offset=True)",
        [("raw_long", [0, 2, 2, 5, 1, 3]), ("raw_long", [0, 2, 3, 6]), (6,)],
        {},
    ),
    "MaxPool3d": ("nn.MaxPool3d(3, stride=2, padding=1)", [(2, 2, 5, 6, 5)], {}),
    "MaxPool3d-indices": ("nn.MaxPool3d(2, return_indices=True)", [(1, 2, 4, 4, 4)], {}),
    "AvgPool3d": ("nn.AvgPool3d((2, 3, 2), stride=1, padding=1)", [(2, 2, 4, 5, 4)], {}),
    "AdaptiveAvgPool3d": ("nn.AdaptiveAvgPool3d((2, None, 3))", [(2, 2, 5, 4, 7)], {}),
    "AdaptiveMaxPool3d": ("nn.AdaptiveMaxPool3d(3)", [(1, 2, 5, 4, 7)], {}),
    "AdaptiveMaxPool2d-indices": (
        "nn.AdaptiveMaxPool2d((3, 2), return_indices=True)",
        [(2, 3, 7, 5)],
        {},
    ),
    "LPPool3d": ("nn.LPPool3d(2, 2)", [("pos", (1, 2, 4, 4, 6))], {}),
    "Upsample-PixelShuffle": (
        "nn.Sequential(nn.Upsample(scale_factor=2, mode='bicubic'), nn.PixelShuffle(2))",
        [(1, 8, 2, 3)],
        {},
    ),
}


def _inputs(lib: Any, specs: list[Any], seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    out = []
    for spec in specs:
        if isinstance(spec, tuple) and spec and spec[0] == "long":
            out.append(lib.tensor(rng.integers(0, spec[2], size=spec[1]), dtype=lib.int64))
        elif isinstance(spec, tuple) and spec and spec[0] == "raw_long":
            out.append(lib.tensor(spec[1], dtype=lib.int64))
        elif isinstance(spec, tuple) and spec and spec[0] == "raw":
            v = spec[1]
            if isinstance(v, str) and v.startswith("causal"):  # a causal float mask
                n = int(v[6:])
                v = lib.triu(lib.full((n, n), float("-inf")), diagonal=1)
            out.append(v)
        elif isinstance(spec, tuple) and spec and spec[0] == "tuple":
            out.append(tuple(_inputs_from(lib, rng, s) for s in spec[1]))
        elif isinstance(spec, tuple) and spec and spec[0] == "packed":
            padded = _inputs_from(lib, rng, spec[1])
            lengths = lib.tensor(spec[2])
            out.append(lib.nn.utils.rnn.pack_padded_sequence(padded, lengths, enforce_sorted=False))
        elif isinstance(spec, tuple) and spec and spec[0] in ("pos", "sign", "prob", "randint"):
            kind, shape = spec[0], spec[1]
            if kind == "pos":
                a = np.abs(rng.standard_normal(shape)) + 0.1
            elif kind == "sign":
                a = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
            elif kind == "prob":
                a = rng.random(shape) * 0.9 + 0.05
            else:
                a = rng.integers(-1, spec[2], size=shape)
                out.append(lib.tensor(a, dtype=lib.int64))
                continue
            out.append(lib.tensor(a.astype(np.float32)))
        elif isinstance(spec, tuple) and spec and spec[0] == "bool":
            out.append(lib.tensor(rng.random(spec[1]) < 0.3))
        else:
            a = rng.standard_normal(spec).astype(np.float32)
            out.append(lib.tensor(a, requires_grad=True))
    return out


def _inputs_from(lib: Any, rng: Any, shape: Any) -> Any:
    return lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)


def _grads(x: Any) -> Any:
    if hasattr(x, "batch_sizes"):  # a PackedSequence (its data is not a leaf)
        return None
    if isinstance(x, tuple):
        return [_grads(t) for t in x]
    return _np(x.grad) if hasattr(x, "grad") and x.grad is not None else None


def _flat(out: Any) -> list[Any]:
    if out is None:
        return []
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flat(o)]
    if hasattr(out, "data") and hasattr(out, "batch_sizes"):  # a PackedSequence
        return _flat(out.data)
    return [out]


def _np(t: Any) -> Any:
    return t.detach().cpu().numpy().tolist() if hasattr(t, "detach") else t


def _state(m: Any) -> dict[str, Any]:
    return {k: _np(v) for k, v in m.state_dict().items()}


def build(lib: Any, name: str) -> Any:
    ctor = CASES[name][0]
    lib.manual_seed(0)
    return eval(ctor, {"nn": lib.nn, "torch": lib})  # noqa: S307


def run(lib: Any, name: str, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """The case's record under lib; with `state`, that state_dict loaded first."""
    _, specs, opts = CASES[name]
    m = build(lib, name)
    lazy = isinstance(m, lib.nn.modules.lazy.LazyModuleMixin)
    # (a lazy module's state exists only after its first call)
    result: dict[str, Any] = {"init": {} if lazy else _state(m)}
    if state:
        current = m.state_dict()
        m.load_state_dict(
            {k: lib.tensor(np.asarray(v), dtype=current[k].dtype) for k, v in state.items()}
        )
    outs, grads = [], []
    for step in range(opts.get("steps", 1)):
        xs = _inputs(lib, specs, step)
        ys = _flat(m(xs[0], xs[0], xs[0]) if opts.get("self") else m(*xs))
        outs.append([_np(y) for y in ys])
        rng = np.random.default_rng(100 + step)
        loss = None
        for y in ys:
            if getattr(y, "requires_grad", False) and y.dtype.is_floating_point:
                w = lib.tensor(rng.standard_normal(tuple(y.shape)).astype(np.float32))
                term = (y * w).sum()
                loss = term if loss is None else loss + term
        if loss is not None:
            loss.backward()
        grads.append(
            [_grads(x) for x in xs]
            + [[k, _np(p.grad)] for k, p in m.named_parameters() if p.grad is not None]
        )
        m.zero_grad()
    if opts.get("eval", True):
        m.eval()
        xs = _inputs(lib, specs, 50)
        outs.append([_np(y) for y in _flat(m(xs[0], xs[0], xs[0]) if opts.get("self") else m(*xs))])
    result.update(out=outs, grads=grads, after=_state(m))
    return result
