"""Derivative formulas of the backward operators (aten/backward_ops.py): double backward."""

from __future__ import annotations

from typing import Any

from ..._ops import ops
from ._registry import _shape, _zeros, derivative

aten = ops.aten


# ----------------------------------------------------------------------------- backward ops
# Derivatives of the backward operators themselves (double backward), as PyTorch's.


@derivative("select_backward", "SelectBackwardBackward0", save=("dim", "index"))
def _select_backward(grad, dim, index):
    return (aten.select.int(grad, dim, index),)


@derivative("slice_backward", "SliceBackwardBackward0", save=("dim", "start", "end", "step"))
def _slice_backward(grad, dim, start, end, step):
    return (aten.slice.Tensor(grad, dim, start, end, step),)


@derivative("diagonal_backward", "DiagonalBackwardBackward0", save=("offset", "dim1", "dim2"))
def _diagonal_backward(grad, offset, dim1, dim2):
    return (aten.diagonal.default(grad, offset, dim1, dim2),)


@derivative("threshold_backward", "ThresholdBackwardBackward0", save=("self", "threshold"))
def _threshold_backward(grad, self, threshold):
    return aten.threshold_backward.default(grad, self, threshold), aten.zeros_like.default(grad)


@derivative("sigmoid_backward", "SigmoidBackwardBackward0", save=("grad_output", "output"))
def _sigmoid_backward(grad, grad_output, output, needs):
    # As PyTorch's SigmoidBackwardBackward0: grad_output's gradient first, each only when
    # needed; output: grad * grad_output * (-2 * output + 1), the right factor computed first.
    g_go = aten.sigmoid_backward.default(grad, output) if needs[0] else None
    g_out = None
    if needs[1]:
        factor = aten.add.Scalar(aten.mul.Scalar(output, -2), 1)
        g_out = aten.mul.Tensor(aten.mul.Tensor(grad, grad_output), factor)
    return g_go, g_out


@derivative("tanh_backward", "TanhBackwardBackward0", save=("grad_output", "output"))
def _tanh_backward(grad, grad_output, output, needs):
    # As PyTorch's TanhBackwardBackward0: grad_output's gradient first, each only when needed;
    # output: grad * (-2 * output * grad_output).
    g_go = aten.tanh_backward.default(grad, output) if needs[0] else None
    g_out = None
    if needs[1]:
        g_out = aten.mul.Tensor(grad, aten.mul.Tensor(aten.mul.Scalar(output, -2), grad_output))
    return g_go, g_out


@derivative(
    "_log_softmax_backward_data",
    "LogSoftmaxBackwardDataBackward0",
    inputs=("grad_output", "output"),
    save=("grad_output", "output", "dim"),
)
def _log_softmax_backward_data(grad, grad_output, output, dim):
    # r = go - exp(out) * sum(go): linear in go; out enters through exp(out)
    e = aten.exp.default(output)
    g_go = aten.sub.Tensor(grad, aten.sum.dim_IntList(aten.mul.Tensor(grad, e), [dim], True))
    g_out = aten.neg.default(
        aten.mul.Tensor(aten.mul.Tensor(grad, e), aten.sum.dim_IntList(grad_output, [dim], True))
    )
    return g_go, g_out


@derivative(
    "_softmax_backward_data",
    "SoftmaxBackwardDataBackward0",
    inputs=("grad_output", "output"),
    save=("grad_output", "output", "dim"),
)
def _softmax_backward_data(grad, grad_output, output, dim):
    # r = out * (go - sum(go * out))
    g_go = aten._softmax_backward_data.default(grad, output, dim, output.dtype)
    t = aten.sum.dim_IntList(aten.mul.Tensor(grad_output, output), [dim], True)
    s = aten.sum.dim_IntList(aten.mul.Tensor(grad, output), [dim], True)
    g_out = aten.sub.Tensor(
        aten.mul.Tensor(grad, aten.sub.Tensor(grad_output, t)), aten.mul.Tensor(grad_output, s)
    )
    return g_go, g_out


@derivative(
    "nll_loss_backward",
    "NllLossBackwardBackward0",
    inputs=("grad_output", "self"),
    save=("target", "weight", "reduction", "ignore_index"),
    computed={"s": _shape("self")},
    no_grad=("weight", "total_weight"),
)
def _nll_loss_backward(grad, target, weight, reduction, ignore_index, s):
    # linear in grad_output: its gradient is the loss itself applied to grad
    g_go = aten.nll_loss_forward.default(grad, target, weight, reduction, ignore_index)[0]
    return g_go, _zeros(s, grad)


@derivative("convolution_backward", "ConvolutionBackwardBackward0", n_outputs=3, outputs=(0, 1, 2),
            inputs=("grad_output", "input", "weight"),
            save=("grad_output", "input", "weight", "stride", "padding", "dilation", "transposed",
                  "output_padding", "groups"))  # fmt: skip
def _convolution_backward(
    grads,
    grad_output,
    input,  # noqa: A002
    weight,
    stride,
    padding,
    dilation,
    transposed,
    output_padding,
    groups,
    needs,
):
    # convolution_backward is bilinear: (gI, gW) pair grad_output with weight and input, and gb
    # sums grad_output. So d<ggI, gI>/dgO = conv(ggI, W), d<ggW, gW>/dgO = conv(x, ggW),
    # d<ggb, gb>/dgO = ggb broadcast; d/dW = conv_backward(gO, ggI, W)'s weight gradient and
    # d/dx = conv_backward(gO, x, ggW)'s input gradient (PyTorch's
    # _convolution_double_backward, written with convolution and convolution_backward calls).
    gg_in, gg_w, gg_b = (list(grads) + [None, None, None])[:3]
    geometry = (list(stride), list(padding), list(dilation), transposed, list(output_padding))

    def conv(x: Any, w: Any, b: Any) -> Any:
        return aten.convolution.default(x, w, b, *geometry, groups)

    g_go = None
    if needs[0]:
        if gg_in is not None:
            g_go = conv(gg_in, weight, gg_b)
            gg_b = None
        if gg_w is not None:
            term = conv(input, gg_w, gg_b)
            g_go = term if g_go is None else aten.add.Tensor(g_go, term)
            gg_b = None
        if gg_b is not None:
            shape = [1] * grad_output.dim()
            shape[1] = -1
            g_go = aten.expand.default(aten.reshape.default(gg_b, shape), list(grad_output.shape))
    g_in = None
    if needs[1] and gg_w is not None:
        g_in = aten.convolution_backward.default(
            grad_output, input, gg_w, None, *geometry, groups, [True, False, False]
        )[0]
    g_w = None
    if needs[2] and gg_in is not None:
        g_w = aten.convolution_backward.default(
            grad_output, gg_in, weight, None, *geometry, groups, [False, True, False]
        )[1]
    return g_go, g_in, g_w
