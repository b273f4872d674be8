"""Programs whose backward pass is logged by a TorchDispatchMode (op names in order), written
once for `M` (torch or keyroute): tools/record_backward_calls.py records PyTorch's logs into
tests/data/backward_calls.json, tests/autograd/test_backward_calls.py compares keyroute's.

Each program maps a (3, 4) float32 leaf to a tensor; the loss is the sum of its squares (or the
tensor itself when it is 0-d), so each backward pass calls the program's own backward
operator (gelu_backward, native_layer_norm_backward, mse_loss_backward, ...) after the loss's.
No torch or keyroute import here."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

Program = Callable[[Any, Any], Any]


def _programs(M: Any) -> dict[str, Program]:  # noqa: N803, C901
    F = M.nn.functional  # noqa: N806

    def img(x: Any) -> Any:
        return x.reshape(1, 1, 3, 4)

    return {
        "gelu": lambda x: F.gelu(x),
        "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
        "silu": lambda x: F.silu(x),
        "mish": lambda x: F.mish(x),
        "softplus": lambda x: F.softplus(x, beta=2.0),
        "leaky_relu": lambda x: F.leaky_relu(x, 0.1),
        "hardtanh": lambda x: F.hardtanh(x),
        "relu6": lambda x: F.relu6(x),
        "elu": lambda x: F.elu(x),
        "selu": lambda x: F.selu(x),
        "celu": lambda x: F.celu(x),
        "hardsigmoid": lambda x: F.hardsigmoid(x),
        "hardswish": lambda x: F.hardswish(x),
        "threshold": lambda x: F.threshold(x, 0.1, 2.0),
        "relu": lambda x: F.relu(x),
        "logit": lambda x: M.logit(x.sigmoid(), eps=1e-3),
        "sigmoid": lambda x: x.sigmoid(),
        "tanh": lambda x: x.tanh(),
        "log_softmax": lambda x: F.log_softmax(x, -1),
        "softmax": lambda x: F.softmax(x, -1),
        "layer_norm": lambda x: F.layer_norm(
            x, (4,), M.ones(4, requires_grad=True), M.zeros(4, requires_grad=True)
        ),
        "mse_loss": lambda x: F.mse_loss(x, M.zeros(3, 4, requires_grad=True)),
        "l1_loss": lambda x: F.l1_loss(x, M.zeros(3, 4)),
        "smooth_l1_loss": lambda x: F.smooth_l1_loss(x, M.zeros(3, 4)),
        "huber_loss": lambda x: F.huber_loss(x, M.zeros(3, 4)),
        "binary_cross_entropy": lambda x: F.binary_cross_entropy(x.sigmoid(), M.full((3, 4), 0.3)),
        "bce_with_logits": lambda x: F.binary_cross_entropy_with_logits(x, M.full((3, 4), 0.3)),
        "nll_loss": lambda x: F.nll_loss(F.log_softmax(x, -1), M.tensor([0, 1, 3])),
        "cross_entropy": lambda x: F.cross_entropy(x, M.tensor([0, 1, 3])),
        "kl_div": lambda x: F.kl_div(
            F.log_softmax(x, -1), M.full((3, 4), 0.25), reduction="batchmean"
        ),
        "embedding": lambda x: F.embedding(M.tensor([0, 2, 1, 0]), x),
        "embedding_padding": lambda x: F.embedding(M.tensor([0, 2, 1, 0]), x, padding_idx=1),
        "dropout": lambda x: F.dropout(x, 0.5, training=True),
        "max_pool2d": lambda x: F.max_pool2d(img(x), 2),
        "max_pool1d": lambda x: F.max_pool1d(x.reshape(1, 3, 4), 2),
        "avg_pool2d": lambda x: F.avg_pool2d(img(x), 2),
        "adaptive_avg_pool2d": lambda x: F.adaptive_avg_pool2d(img(x), (2, 2)),
        "conv2d": lambda x: F.conv2d(
            img(x), M.ones(2, 1, 2, 2, requires_grad=True), M.zeros(2, requires_grad=True)
        ),
        "linear": lambda x: F.linear(
            x, M.ones(5, 4, requires_grad=True), M.zeros(5, requires_grad=True)
        ),
        "batch_norm": lambda x: F.batch_norm(
            x,
            M.zeros(4),
            M.ones(4),
            M.ones(4, requires_grad=True),
            M.zeros(4, requires_grad=True),
            training=True,
        ),  # fmt: skip
        "group_norm": lambda x: F.group_norm(x.reshape(3, 4, 1), 2),
        "sdpa": lambda x: F.scaled_dot_product_attention(
            x.reshape(1, 3, 4), x.reshape(1, 3, 4), x.reshape(1, 3, 4)
        ),
        "rms_norm": lambda x: F.rms_norm(x, (4,)),
        "prelu": lambda x: F.prelu(x, M.full((1,), 0.2, requires_grad=True)),
        "glu": lambda x: F.glu(x, -1),
        "softshrink": lambda x: F.softshrink(x),
        "hardshrink": lambda x: F.hardshrink(x),
        "rrelu_eval": lambda x: F.rrelu(x, training=False),
        "logsigmoid": lambda x: F.logsigmoid(x),
        "interpolate_nearest": lambda x: F.interpolate(img(x), scale_factor=2),
        "pad_reflect": lambda x: F.pad(x.reshape(1, 3, 4), (1, 1), mode="reflect"),
    }


def backward_log(M: Any, name: str) -> list[str] | str:  # noqa: N803
    """The op names a logging mode sees during the program's backward pass (or the error)."""
    pd = importlib.import_module(M.__name__ + ".utils._python_dispatch")
    log: list[str] = []

    class Log(pd.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            log.append(str(func))
            return func(*args, **(kwargs or {}))

    M.manual_seed(0)
    a = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    x = M.from_numpy(a).requires_grad_(True)
    try:
        y = _programs(M)[name](x)
        loss = (y * y).sum() if y.dim() else y
        with Log():
            loss.backward()
    except Exception as e:  # noqa: BLE001 - recorded as the program's outcome
        return f"{type(e).__name__}"
    return log


NAMES = (
    "gelu gelu_tanh silu mish softplus leaky_relu hardtanh relu6 elu selu celu hardsigmoid "
    "hardswish threshold relu logit sigmoid tanh log_softmax softmax layer_norm mse_loss "
    "l1_loss smooth_l1_loss huber_loss binary_cross_entropy bce_with_logits nll_loss "
    "cross_entropy kl_div embedding embedding_padding dropout max_pool2d max_pool1d avg_pool2d "
    "adaptive_avg_pool2d conv2d linear batch_norm group_norm sdpa rms_norm prelu glu "
    "softshrink hardshrink rrelu_eval logsigmoid interpolate_nearest pad_reflect"
).split()
