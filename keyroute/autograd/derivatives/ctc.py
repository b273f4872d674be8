"""Derivatives of _ctc_loss (aten/nn/ctc.py): derivatives.yaml's CtcLossBackward0/1, the
log_probs gradient by _ctc_loss_backward from the saved results (neg_log_likelihood,
log_alpha); targets, lengths and log_alpha get none."""

from __future__ import annotations

from ._registry import aten, derivative

_SAVE = (
    "log_probs",
    "targets",
    "input_lengths",
    "target_lengths",
    "blank",
    "zero_infinity",
    "result0",
    "result1",
)

for _name, _node, _bw, _no_grad in (
    ("_ctc_loss", "CtcLossBackward0", "default", ("targets",)),
    (
        "_ctc_loss.Tensor",
        "CtcLossBackward1",
        "Tensor",
        ("targets", "input_lengths", "target_lengths"),
    ),
):

    def _formula(grad, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity,
                 result0, result1, _bw=_bw):  # fmt: skip
        bw = getattr(aten._ctc_loss_backward, _bw)
        if isinstance(grad, (list, tuple)):  # the node's two outputs: only the loss has one
            grad = grad[0]
        return (
            bw(
                grad,
                log_probs,
                targets,
                input_lengths,
                target_lengths,
                result0,
                result1,
                blank,
                zero_infinity,
            ),  # fmt: skip
        )

    derivative(
        _name,
        _node,
        save=_SAVE,
        inputs=("log_probs",),
        n_outputs=2,
        outputs=(0,),
        no_grad=_no_grad,
    )(_formula)
