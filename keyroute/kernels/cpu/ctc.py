"""CPU kernels of _ctc_loss and _ctc_loss_backward (aten/nn/ctc.py), as LossCTC.cpp's
ctc_loss_cpu_template / ctc_loss_backward_cpu_template: per batch item, the alpha (forward) or
beta (backward) recursion in log space over the extended target (blanks between labels), one
time step at a time; within a step the states are independent, so each step is one vector
operation. The backward's per-label log-sum accumulates the states of one step in descending
state order, as PyTorch's loop does. log_alpha entries PyTorch leaves uninitialized (states
past a target's extended length, steps past an input's length) are -inf here."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.nn.ctc import _backward_meta, _forward_meta, ctc_lengths
from ...tensor._tensor import Tensor
from ._kernel import kernel, wrap

__all__: list[str] = []


def _targets(targets: Tensor, tl: list[int]) -> list[np.ndarray]:
    t = targets._data
    if t.ndim == 1:
        out, pos = [], 0
        for n in tl:
            out.append(np.asarray(t[pos : pos + n], np.int64))
            pos += n
        return out
    return [np.asarray(t[b, :n], np.int64) for b, n in enumerate(tl)]


def _primes(target: np.ndarray, blank: int) -> np.ndarray:
    """The extended target: blank, l1, blank, l2, ..., blank."""
    ext = np.full(2 * len(target) + 1, blank, np.int64)
    ext[1::2] = target
    return ext


def _logsumexp3(a: np.ndarray, b: np.ndarray, c: np.ndarray, dt: Any) -> np.ndarray:
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == -np.inf, dt(0), m).astype(dt)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        s = ((np.exp(a - m) + np.exp(b - m)).astype(dt) + np.exp(c - m)).astype(dt)
        return (np.log(s) + m).astype(dt)


def _forward(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    m_nll, m_alpha = _forward_meta(
        log_probs, targets, input_lengths, target_lengths, blank, zero_infinity
    )
    il = ctc_lengths(input_lengths, "input_lengths")
    tl = ctc_lengths(target_lengths, "target_lengths")
    lp = log_probs._data
    dt = lp.dtype.type
    ninf = dt(-np.inf)
    alpha = np.full(m_alpha.shape, ninf, lp.dtype)
    nll = np.zeros(m_nll.shape, lp.dtype)
    for b, (target, n_in) in enumerate(zip(_targets(targets, tl), il)):
        n_t = len(target)
        if n_in == 0:
            nll[b] = dt(0) if n_t == 0 else dt(np.inf)
            continue
        ext = _primes(target, blank)
        s_len = len(ext)
        # a state may skip the blank before it when its label differs from two states back
        skip = np.zeros(s_len, bool)
        skip[2:] = ext[2:] != ext[:-2]
        a = alpha[b]
        a[0, 0] = lp[0, b, blank]
        if n_t > 0:
            a[0, 1] = lp[0, b, ext[1]]
        for t in range(1, n_in):
            prev = a[t - 1, :s_len]
            la2 = np.concatenate([[ninf], prev[:-1]]).astype(lp.dtype)
            la3 = np.where(skip, np.concatenate([[ninf, ninf], prev[:-2]])[:s_len], ninf)
            a[t, :s_len] = _logsumexp3(prev, la2, la3.astype(lp.dtype), dt) + lp[t, b, ext]
        last = a[n_in - 1]
        if n_t == 0:
            nll[b] = -last[0]
        else:
            l1, l2 = last[2 * n_t], last[2 * n_t - 1]
            m = max(l1, l2)
            m = dt(0) if m == ninf else m
            with np.errstate(divide="ignore"):
                nll[b] = -(dt(np.log(dt(np.exp(dt(l1 - m)) + np.exp(dt(l2 - m))))) + m)
    return wrap(nll, log_probs._dtype), wrap(alpha, log_probs._dtype)


def _log_add(x: Any, y: Any, dt: Any) -> Any:
    if x == -np.inf:
        return y
    m = max(x, y)
    with np.errstate(invalid="ignore", over="ignore"):
        return dt(dt(np.log(dt(np.exp(dt(x - m)) + np.exp(dt(y - m))))) + m)


def _backward(
    grad, log_probs, targets, input_lengths, target_lengths, nll, log_alpha, blank, zi=False
):
    m = _backward_meta(
        grad, log_probs, targets, input_lengths, target_lengths, nll, log_alpha, blank, zi
    )
    il = ctc_lengths(input_lengths, "input_lengths")
    tl = ctc_lengths(target_lengths, "target_lengths")
    lp = log_probs._data
    dt = lp.dtype.type
    ninf = dt(-np.inf)
    t_max, batch, labels = lp.shape
    out = np.full(m.shape, ninf, lp.dtype)
    la_all = log_alpha._data
    g_out = grad._data.reshape(-1)
    nlls = nll._data.reshape(-1)
    for b, (target, n_in) in enumerate(zip(_targets(targets, tl), il)):
        g = out[:, b, :]
        if zi and nlls[b] == np.inf:
            g[...] = 0
            continue
        n_t = len(target)
        ext = _primes(target, blank)
        s_len = len(ext)
        la = la_all[b]
        beta = np.full((max(n_in, 1), s_len), ninf, lp.dtype)
        skip = np.zeros(s_len, bool)  # a state may jump to two states on
        skip[: s_len - 2] = ext[2:] != ext[:-2]
        if n_in > 0:
            t = n_in - 1
            beta[t, 2 * n_t] = lp[t, b, blank]
            g[t, blank] = dt(la[t, 2 * n_t] + beta[t, 2 * n_t])
            if n_t > 0:
                c = ext[2 * n_t - 1]
                beta[t, 2 * n_t - 1] = lp[t, b, c]
                g[t, c] = dt(la[t, 2 * n_t - 1] + beta[t, 2 * n_t - 1])
        for t in range(n_in - 2, -1, -1):
            nxt = beta[t + 1]
            lb2 = np.concatenate([nxt[1:], [ninf]]).astype(lp.dtype)
            lb3 = np.where(skip, np.concatenate([nxt[2:], [ninf, ninf]])[:s_len], ninf)
            beta[t] = _logsumexp3(nxt, lb2, lb3.astype(lp.dtype), dt) + lp[t, b, ext]
            lab = (la[t, :s_len] + beta[t]).astype(lp.dtype)
            for s in range(s_len - 1, -1, -1):
                c = ext[s]
                g[t, c] = _log_add(g[t, c], lab[s], dt)
        gr = dt(g_out[b])
        nl = dt(nlls[b])
        with np.errstate(over="ignore", invalid="ignore"):
            rows = lp[:n_in, b, :]
            g[:n_in] = (np.exp(rows) - np.exp((g[:n_in] + nl).astype(lp.dtype) - rows)) * gr
        g[n_in:] = 0
    return wrap(out, log_probs._dtype)


for _name in ("_ctc_loss", "_ctc_loss.Tensor"):
    kernel(_name)(_forward)
for _name in ("_ctc_loss_backward", "_ctc_loss_backward.Tensor"):
    kernel(_name)(_backward)
