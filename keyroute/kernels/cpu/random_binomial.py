"""CPU kernel of binomial, as PyTorch's sample_binomial (Distributions.h, after TensorFlow's
random_binomial_op): one element at a time in the result's row-major order, each drawing
uniform_real_distribution<double> values from the generator.

- count <= 0 or prob <= 0: 0; prob >= 1: count; prob > 0.5: count minus a draw with 1 - prob.
- count * prob < 10: inversion (sum geometric gaps until they pass count).
- otherwise Kachitvichyanukul and Schmeiser's BTRS, two uniforms per attempt.

PyTorch evaluates the count/prob arithmetic in the tensor's dtype (scalar_t) and the rest in
double; `f` below is that dtype's rounding (np.float32 for float32, float for float64), and
every double step is a Python float.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...aten.random_sampling import binomial as _meta
from ...random import get_generator
from ...tensor._tensor import Tensor
from ._kernel import kernel, wrap
from .random_sampling import _Uniforms

__all__: list[str] = []

_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _inversion(u: _Uniforms, count: float, prob: float, f: Callable) -> float:
    logprob = float(np.log1p(f(-prob)))  # log1p in scalar_t
    geom_sum = 0.0
    num = f(0)
    while True:
        geom = math.ceil(math.log(u.take(1)[0]) / logprob)
        geom_sum += geom
        if geom_sum > count:
            return num
        num = f(num + 1)


def _btrs(u: _Uniforms, count: float, prob: float, f: Callable) -> float:
    fc, fp = f(count), f(prob)
    stddev = float(np.sqrt(f(f(fc * fp) * f(1 - fp))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(fp)
    c = float(f(fc * fp)) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(f(fp / f(1 - fp)))
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor(float(f(f(fc + 1) * fp)))
    cnt = float(fc)
    while True:
        uu, v = u.take(2)
        uu -= 0.5
        us = 0.5 - abs(uu)
        k = f(math.floor((2 * a / us + b) * uu + c))
        kd = float(k)
        if kd < 0 or kd > cnt:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        count_minus_k = float(f(fc - k))
        upper = (
            (m + 0.5) * math.log((m + 1) / (r * (cnt - m + 1)))
            + float(f(fc + 1)) * math.log((cnt - m + 1) / float(f(f(fc - k) + 1)))
            + (kd + 0.5) * math.log(r * float(f(f(fc - k) + 1)) / float(f(k + 1)))
            + _stirling_tail(m)
            + _stirling_tail(cnt - m)
            - _stirling_tail(kd)
            - _stirling_tail(count_minus_k)
        )
        if v <= upper:
            return k


def sample_binomial(u: _Uniforms, count: float, prob: float, f: Callable) -> float:
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if float(f(f(count) * f(prob))) >= 10.0:
            return float(_btrs(u, count, prob, f))
        return float(_inversion(u, count, prob, f))
    if prob > 0.5:
        q = f(1.0 - prob)
        if float(f(f(count) * q)) >= 10.0:
            return float(f(f(count) - _btrs(u, count, float(q), f)))
        return float(f(f(count) - _inversion(u, count, float(q), f)))
    return math.nan  # prob is NaN


@kernel("binomial")
def binomial(count: Tensor, prob: Tensor, generator=None) -> Tensor:
    m = _meta(count, prob, generator)
    dt = count._dtype
    if dt.name not in ("float32", "float64"):
        raise NotImplementedError(f"\"binomial_cpu\" not implemented for '{dt._short}'")
    shape = tuple(m.shape)
    if shape != tuple(count.shape):
        import warnings

        warnings.warn(
            f"An output with one or more elements was resized since it had shape "
            f"{list(count.shape)}, which does not match the required output shape "
            f"{list(shape)}. This behavior is deprecated, and in a future PyTorch release "
            "outputs will not be resized unless they have zero elements. You can explicitly "
            "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
            UserWarning,
            stacklevel=2,
        )
    counts = np.broadcast_to(count._data, shape).astype(np.float64).reshape(-1)
    probs = np.broadcast_to(prob._data, shape).astype(np.float64).reshape(-1)
    f: Callable = np.float32 if dt.name == "float32" else float
    out = np.zeros(counts.size, np.float64)
    if counts.size:
        u = _Uniforms(get_generator(generator))
        for i, (c, p) in enumerate(zip(counts.tolist(), probs.tolist())):
            out[i] = sample_binomial(u, c, p, f)
    return wrap(out.astype(dt.np).reshape(shape), dt)
