"""Samples of the CTC loss operators (aten/nn/ctc.py; see tests/ops/harness.py): ctc_loss in
both overloads (int[] and Tensor lengths), each reduction, zero_infinity, padded and
concatenated targets, an unbatched input, repeated labels, impossible alignments, float64;
_ctc_loss's negative log-likelihood (its log_alpha holds uninitialized memory in PyTorch, so
it is compared through _ctc_loss_backward, which reads only the computed states); and the
errors. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import Sample, tensor

SAMPLES: list[Sample] = []

T, N, C = 12, 3, 6


def _add(sid: str, op: str, make: Any, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def LP(shape: tuple[int, ...] = (T, N, C), dt: str = "float32") -> Any:
    def make(M: Any, r: Any) -> Any:
        x = r.standard_normal(shape).astype(np.float64)
        x = x - np.log(np.exp(x).sum(-1, keepdims=True))  # log_softmax over classes
        return tensor(M, x.astype(np.float32 if dt == "float32" else np.float64))

    return make


def TG(values: Any, dt: str = "int64") -> Any:
    return lambda M, r: tensor(M, np.asarray(values, dtype=dt))


def LN(values: Any) -> Any:
    return lambda M, r: tensor(M, np.asarray(values, dtype=np.int64))


def mk(*specs: Any, **kwspecs: Any) -> Any:
    def make(M: Any, r: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            return s(M, r) if callable(s) else s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


# PyTorch's _ctc_loss.Tensor has no meta kernel (its lengths are read as data): the Tensor
# overload's samples do not run on meta.
_NO_META = ("no_meta",)
PADDED = [[1, 2, 2, 3], [4, 5, 0, 0], [3, 3, 3, 1]]
IL, TL = [12, 10, 9], [4, 2, 4]
CONCAT = [1, 2, 2, 3, 4, 5, 3, 3, 3, 1]

for _red, _rn in ((0, "none"), (1, "mean"), (2, "sum")):
    _add(f"ctc_loss.IntList-{_rn}", "ctc_loss.IntList", mk(LP(), TG(PADDED), IL, TL, 0, _red))
    _add(f"ctc_loss.Tensor-{_rn}", "ctc_loss.Tensor",
         mk(LP(), TG(PADDED), LN(IL), LN(TL), 0, _red), tags=_NO_META)  # fmt: skip
_add("ctc_loss.IntList-concat", "ctc_loss.IntList", mk(LP(), TG(CONCAT), IL, TL, 0, 0))
_add("ctc_loss.IntList-blank", "ctc_loss.IntList",
     mk(LP(), TG([[1, 2, 2, 3], [4, 0, 1, 1], [3, 3, 3, 1]]), IL, TL, 5, 0))  # fmt: skip
_add("ctc_loss.IntList-int32", "ctc_loss.IntList", mk(LP(), TG(PADDED, "int32"), IL, TL, 0, 0))
_add("ctc_loss.IntList-float64", "ctc_loss.IntList",
     mk(LP(dt="float64"), TG(PADDED), IL, TL, 0, 0))  # fmt: skip
_add("ctc_loss.IntList-empty-target", "ctc_loss.IntList", mk(LP(), TG(PADDED), IL, [0, 2, 4], 0, 0))
_add("ctc_loss.IntList-zero-input", "ctc_loss.IntList", mk(LP(), TG(PADDED), [0, 10, 0], [0, 2, 4]))
# impossible: 3 repeated labels need 5 steps, 4 given
_add("ctc_loss.IntList-inf", "ctc_loss.IntList", mk(LP(), TG(PADDED), [12, 10, 4], TL, 0, 0))
_add("ctc_loss.IntList-inf-zero", "ctc_loss.IntList",
     mk(LP(), TG(PADDED), [12, 10, 4], TL, 0, 0, True))  # fmt: skip
_add("ctc_loss.IntList-inf-zero-mean", "ctc_loss.IntList",
     mk(LP(), TG(PADDED), [12, 10, 4], TL, 0, 1, True))  # fmt: skip
_add("ctc_loss.Tensor-unbatched", "ctc_loss.Tensor",
     mk(LP((T, C)), TG([1, 2, 2]), LN(9), LN(3), 0, 0), tags=_NO_META)  # fmt: skip
_add("_ctc_loss-nll", "_ctc_loss", mk(LP(), TG(PADDED), IL, TL), compare="shape")


def BW(red_grad: Any, ov: str = "default", zi: bool = False, il: Any = IL, lp_dt: str = "float32"):
    def make(M: Any, r: Any) -> Any:
        lp = LP(dt=lp_dt)(M, r)
        tg = TG(PADDED)(M, r)
        if ov == "Tensor":
            i, t = LN(il)(M, r), LN(TL)(M, r)
            nll, alpha = M.ops.aten._ctc_loss.Tensor(lp, tg, i, t, 0, zi)
        else:
            i, t = list(il), list(TL)
            nll, alpha = M.ops.aten._ctc_loss(lp, tg, i, t, 0, zi)
        g = tensor(
            M, r.uniform(0.5, 1.5, (N,)).astype(np.float32 if lp_dt == "float32" else np.float64)
        )
        return (g, lp, tg, i, t, nll, alpha, 0, zi), {}

    return make


_add("_ctc_loss_backward-plain", "_ctc_loss_backward", BW(None))
_add("_ctc_loss_backward-float64", "_ctc_loss_backward", BW(None, lp_dt="float64"))
_add("_ctc_loss_backward-inf", "_ctc_loss_backward", BW(None, il=[12, 10, 4]))
_add("_ctc_loss_backward-inf-zero", "_ctc_loss_backward", BW(None, zi=True, il=[12, 10, 4]))
_add("_ctc_loss_backward.Tensor", "_ctc_loss_backward.Tensor", BW(None, "Tensor"))

# errors
_add("ctc_loss.IntList-2d", "ctc_loss.IntList", mk(LP((2, 3, 4, 5)), TG(PADDED), IL, TL))
_add("ctc_loss.IntList-float-targets", "ctc_loss.IntList",
     mk(LP(), TG(PADDED, "float32"), IL, TL))  # fmt: skip
_add("ctc_loss.IntList-bad-blank", "ctc_loss.IntList", mk(LP(), TG(PADDED), IL, TL, 6))
_add("ctc_loss.IntList-bad-il", "ctc_loss.IntList", mk(LP(), TG(PADDED), [12, 10], TL))
_add("ctc_loss.IntList-bad-tl", "ctc_loss.IntList", mk(LP(), TG(PADDED), IL, [4, 2]))
_add("ctc_loss.IntList-long-il", "ctc_loss.IntList", mk(LP(), TG(PADDED), [13, 10, 9], TL))
_add("ctc_loss.IntList-neg-il", "ctc_loss.IntList", mk(LP(), TG(PADDED), [-1, 10, 9], TL))
_add("ctc_loss.IntList-neg-tl", "ctc_loss.IntList", mk(LP(), TG(PADDED), IL, [4, -2, 4]))
_add("ctc_loss.IntList-long-tl", "ctc_loss.IntList", mk(LP(), TG(PADDED), IL, [5, 2, 4]))
_add("ctc_loss.IntList-concat-size", "ctc_loss.IntList", mk(LP(), TG(CONCAT), IL, [4, 2, 3]))
_add("ctc_loss.Tensor-float-lengths", "ctc_loss.Tensor",
     mk(LP(), TG(PADDED), lambda M, r: M.tensor([12.0, 10.0, 9.0]), LN(TL)))  # fmt: skip
