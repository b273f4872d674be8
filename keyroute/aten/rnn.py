"""aten recurrent operators, CompositeImplicitAutograd as PyTorch's: the cells (rnn_tanh_cell,
rnn_relu_cell, lstm_cell, gru_cell) and the whole-sequence ops over padded input (`.input`) or
packed data (`.data`: rows of every sequence's step t, `batch_sizes[t]` of them).

The decompositions are PyTorch's formulas (RNN.cpp): gates from `linear` of the input and of
the hidden state; LSTM gates in the order input, forget, cell, output; GRU's in reset, update,
new, with the new gate reading `r * (W_hn h + b_hn)`. Layers run one after another, each
direction over the sequence, with dropout between layers in training. (PyTorch's CPU build
runs float32 LSTMs through mkldnn_rnn_layer; keyroute decomposes them here, so a dispatch
mode sees linear/sigmoid/tanh calls instead.)
"""

from __future__ import annotations

from typing import Any

from ._define import composite
from ._meta_util import check
from .linalg import op

__all__: list[str] = []

_CELL_ARGS = "Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor? b_hh=None"


def _linear(x: Any, w: Any, b: Any) -> Any:
    return op("linear")(x, w, b)


def _gates(input, hx, w_ih, w_hh, b_ih, b_hh):
    return op("add.Tensor")(_linear(input, w_ih, b_ih), _linear(hx, w_hh, b_hh))


@composite(f"rnn_tanh_cell(Tensor input, Tensor hx, {_CELL_ARGS}) -> Tensor")
def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return op("tanh")(_gates(input, hx, w_ih, w_hh, b_ih, b_hh))


@composite(f"rnn_relu_cell(Tensor input, Tensor hx, {_CELL_ARGS}) -> Tensor")
def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return op("relu")(_gates(input, hx, w_ih, w_hh, b_ih, b_hh))


@composite(f"lstm_cell(Tensor input, Tensor[] hx, {_CELL_ARGS}) -> (Tensor, Tensor)")
def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    check(len(hx) == 2, "lstm_cell expects two hidden states")
    h, c = hx
    gates = _gates(input, h, w_ih, w_hh, b_ih, b_hh)
    i, f, g, o = op("chunk")(gates, 4, 1)
    i, f, g, o = op("sigmoid")(i), op("sigmoid")(f), op("tanh")(g), op("sigmoid")(o)
    cy = op("add.Tensor")(op("mul.Tensor")(f, c), op("mul.Tensor")(i, g))
    hy = op("mul.Tensor")(o, op("tanh")(cy))
    return hy, cy


@composite(f"gru_cell(Tensor input, Tensor hx, {_CELL_ARGS}) -> Tensor")
def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    gi = op("chunk")(_linear(input, w_ih, b_ih), 3, 1)
    gh = op("chunk")(_linear(hx, w_hh, b_hh), 3, 1)
    r = op("sigmoid")(op("add.Tensor")(gi[0], gh[0]))
    z = op("sigmoid")(op("add.Tensor")(gi[1], gh[1]))
    n = op("tanh")(op("add.Tensor")(gi[2], op("mul.Tensor")(r, gh[2])))
    # (1 - z) * n + z * h, as PyTorch writes it: n + z * (h - n)
    return op("add.Tensor")(n, op("mul.Tensor")(z, op("sub.Tensor")(hx, n)))


# ----------------------------------------------------------------------------- sequences


def _layer_params(params: list[Any], has_biases: bool, n_layers: int, n_dirs: int) -> list[Any]:
    """The flat weight list as one tuple (w_ih, w_hh, b_ih, b_hh, w_hr) per layer/direction."""
    per = len(params) // (n_layers * n_dirs)
    out = []
    for k in range(n_layers * n_dirs):
        chunk = params[k * per : (k + 1) * per]
        w_ih, w_hh = chunk[0], chunk[1]
        b_ih, b_hh = (chunk[2], chunk[3]) if has_biases else (None, None)
        rest = chunk[4:] if has_biases else chunk[2:]
        out.append((w_ih, w_hh, b_ih, b_hh, rest[0] if rest else None))
    return out


def _step(kind: str, x: Any, h: Any, p: Any) -> Any:
    w_ih, w_hh, b_ih, b_hh, w_hr = p
    if kind == "lstm":
        hy, cy = lstm_cell(x, list(h), w_ih, w_hh, b_ih, b_hh)
        if w_hr is not None:
            hy = op("matmul")(hy, op("t")(w_hr))
        return hy, cy
    if kind == "gru":
        return gru_cell(x, h, w_ih, w_hh, b_ih, b_hh)
    cell = rnn_tanh_cell if kind == "rnn_tanh" else rnn_relu_cell
    return cell(x, h, w_ih, w_hh, b_ih, b_hh)


def _rows(h: Any, kind: str, lo: int, hi: int) -> Any:
    if kind == "lstm":
        return tuple(op("slice.Tensor")(t, 0, lo, hi, 1) for t in h)
    return op("slice.Tensor")(h, 0, lo, hi, 1)


def _cat_rows(parts: list[Any], kind: str) -> Any:
    if kind == "lstm":
        return tuple(op("cat")([p[i] for p in parts], 0) for i in range(2))
    return op("cat")(parts, 0)


def _direction(kind, steps, batch_sizes, h0, p, reverse):
    """One direction of one layer over packed steps: outputs per step and the final state.
    The batch shrinks as sequences end (forward) or grows as they start (reverse)."""
    T = len(steps)
    outs = [None] * T
    if not reverse:
        h = h0
        done: list[Any] = []  # final states of the sequences that ended, last rows first
        cur = batch_sizes[0] if T else 0
        h = _rows(h, kind, 0, cur)
        for t in range(T):
            b = batch_sizes[t]
            if b < cur:
                done.append(_rows(h, kind, b, cur))
                h = _rows(h, kind, 0, b)
                cur = b
            h = _step(kind, steps[t], h, p)
            outs[t] = h[0] if kind == "lstm" else h
        done.append(h)
        final = _cat_rows(list(reversed(done)), kind)
    else:
        cur = 0
        h = None
        for t in range(T - 1, -1, -1):
            b = batch_sizes[t]
            if b > cur:
                extra = _rows(h0, kind, cur, b)
                h = extra if h is None else _cat_rows([h, extra], kind)
                cur = b
            h = _step(kind, steps[t], h, p)
            outs[t] = h[0] if kind == "lstm" else h
        final = h
    return outs, final


def _run(
    kind, steps, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional
):
    """The stacked (bi)directional recurrence over packed steps; returns the last layer's
    per-step outputs and the final states stacked as (layers * directions, B, H)."""
    n_dirs = 2 if bidirectional else 1
    layer_params = _layer_params(list(params), has_biases, num_layers, n_dirs)
    finals_h, finals_c = [], []
    for layer in range(num_layers):
        dir_outs = []
        for d in range(n_dirs):
            k = layer * n_dirs + d
            if kind == "lstm":
                h0 = (op("select.int")(hx[0], 0, k), op("select.int")(hx[1], 0, k))
            else:
                h0 = op("select.int")(hx, 0, k)
            outs, final = _direction(kind, steps, batch_sizes, h0, layer_params[k], d == 1)
            dir_outs.append(outs)
            if kind == "lstm":
                finals_h.append(final[0])
                finals_c.append(final[1])
            else:
                finals_h.append(final)
        if n_dirs == 1:
            steps = dir_outs[0]
        else:
            steps = [op("cat")([a, b], 1) for a, b in zip(dir_outs[0], dir_outs[1])]
        if dropout > 0 and train and layer < num_layers - 1:
            steps = _dropout_steps(steps, dropout)
    hy = op("stack")(finals_h, 0)
    cy = op("stack")(finals_c, 0) if kind == "lstm" else None
    return steps, hy, cy


def _dropout_steps(steps: list[Any], p: float) -> list[Any]:
    # PyTorch drops the whole layer output at once (one dropout call over (T, B, H)).
    if all(s.shape[0] == steps[0].shape[0] for s in steps):
        full = op("dropout")(op("stack")(steps, 0), p, True)
        return list(op("unbind.int")(full, 0))
    full = op("dropout")(op("cat")(steps, 0), p, True)
    sizes = [s.shape[0] for s in steps]
    return list(op("split_with_sizes")(full, sizes, 0))


def _padded(
    kind, input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first
):
    x = op("transpose.int")(input, 0, 1) if batch_first else input
    T, B = x.shape[0], x.shape[1]
    steps = list(op("unbind.int")(x, 0))
    outs, hy, cy = _run(
        kind, steps, [B] * T, hx, params, has_biases, num_layers, dropout, train, bidirectional
    )
    out = op("stack")(outs, 0)
    if batch_first:
        out = op("transpose.int")(out, 0, 1)
    return out, hy, cy


def _packed(
    kind, data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional
):
    sizes = [int(b) for b in batch_sizes.tolist()]
    steps = list(op("split_with_sizes")(data, sizes, 0))
    outs, hy, cy = _run(
        kind, steps, sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional
    )
    return op("cat")(outs, 0), hy, cy


_SEQ = (
    "Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, "
    "bool bidirectional"
)


@composite(
    f"lstm.input(Tensor input, Tensor[] hx, {_SEQ}, bool batch_first) -> (Tensor, Tensor, Tensor)"
)
def lstm_input(
    input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first
):
    return _padded(
        "lstm",
        input,
        hx,
        params,
        has_biases,
        num_layers,
        dropout,
        train,
        bidirectional,
        batch_first,
    )


@composite(
    f"lstm.data(Tensor data, Tensor batch_sizes, Tensor[] hx, {_SEQ}) -> (Tensor, Tensor, Tensor)"
)
def lstm_data(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional):
    return _packed(
        "lstm", data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional
    )


def _two(kind: str) -> None:
    @composite(
        f"{kind}.input(Tensor input, Tensor hx, {_SEQ}, bool batch_first) -> (Tensor, Tensor)"
    )
    def seq_input(
        input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first
    ):
        out, hy, _ = _padded(
            kind,
            input,
            hx,
            params,
            has_biases,
            num_layers,
            dropout,
            train,
            bidirectional,
            batch_first,
        )
        return out, hy

    @composite(
        f"{kind}.data(Tensor data, Tensor batch_sizes, Tensor hx, {_SEQ}) -> (Tensor, Tensor)"
    )
    def seq_data(
        data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional
    ):
        out, hy, _ = _packed(
            kind,
            data,
            batch_sizes,
            hx,
            params,
            has_biases,
            num_layers,
            dropout,
            train,
            bidirectional,
        )
        return out, hy


for _kind in ("gru", "rnn_tanh", "rnn_relu"):
    _two(_kind)
