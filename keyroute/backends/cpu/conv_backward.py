"""CPU kernel of aten::convolution_backward (non-transposed, any stride/padding/dilation/groups).

For every kernel offset the output gradient is spread back onto the strided input positions it
came from (grad_input) and correlated with those input positions (grad_weight): one einsum per
offset, so the Python loop runs over the kernel's size, not the data.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ._kernel import kernel, wrap


def _window(
    x: np.ndarray,
    offset: tuple[int, ...],
    stride: tuple[int, ...],
    dilation: tuple[int, ...],
    out_spatial: tuple[int, ...],
) -> tuple[slice, ...]:
    return tuple(
        slice(o * d, o * d + s * (n - 1) + 1, s)
        for o, d, s, n in zip(offset, dilation, stride, out_spatial)
    )


@kernel("convolution_backward")
def convolution_backward(
    grad_output: Any,
    input: Any,
    weight: Any,
    bias_sizes: Any,
    stride: Any,  # noqa: A002
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
    output_mask: Any,
) -> Any:
    if transposed:
        raise RuntimeError("keyroute's convolution_backward supports non-transposed convolutions")
    go = grad_output._data
    x = input._data
    w = weight._dtype
    wt = weight._data
    nsp = wt.ndim - 2
    stride = tuple(stride) if len(stride) == nsp else tuple(stride) * nsp
    padding = tuple(padding) if len(padding) == nsp else tuple(padding) * nsp
    dilation = tuple(dilation) if len(dilation) == nsp else tuple(dilation) * nsp
    comp = np.float32 if x.dtype.itemsize <= 4 and x.dtype.kind == "f" else x.dtype
    if x.dtype.kind not in "fc":
        comp = np.float64
    go_c, x_c, w_c = (
        go.astype(comp, copy=False),
        x.astype(comp, copy=False),
        wt.astype(comp, copy=False),
    )
    n, cin = x.shape[:2]
    cout = wt.shape[0]
    cin_g, cout_g = cin // groups, cout // groups
    out_spatial = go.shape[2:]
    pad_width = [(0, 0), (0, 0)] + [(p, p) for p in padding]
    x_pad = np.pad(x_c, pad_width)
    mask = list(output_mask)
    grad_in_pad = np.zeros_like(x_pad) if mask[0] else None
    grad_w = np.zeros(wt.shape, dtype=comp) if mask[1] else None
    npos = int(np.prod(out_spatial)) if out_spatial else 1
    go_g = go_c.reshape(n, groups, cout_g, npos)
    w_g = w_c.reshape(groups, cout_g, cin_g, *wt.shape[2:])
    for offset in itertools.product(*(range(k) for k in wt.shape[2:])):
        sl = _window(x_pad, offset, stride, dilation, out_spatial)
        w_at = w_g[(..., *offset)]  # (groups, cout_g, cin_g)
        if grad_in_pad is not None:
            contrib = np.einsum("ngop,goc->ngcp", go_g, w_at)
            target = grad_in_pad[(slice(None), slice(None), *sl)]
            target += contrib.reshape(n, cin, *out_spatial)
        if grad_w is not None:
            xs = x_pad[(slice(None), slice(None), *sl)].reshape(n, groups, cin_g, npos)
            gw = np.einsum("ngop,ngcp->goc", go_g, xs)
            grad_w[(slice(None), slice(None), *offset)] = gw.reshape(cout, cin_g)
    g_in = g_w = g_b = None
    if grad_in_pad is not None:
        crop = tuple(slice(p, p + s) for p, s in zip(padding, x.shape[2:]))
        g_in = wrap(
            np.ascontiguousarray(grad_in_pad[(slice(None), slice(None), *crop)]).astype(x.dtype),
            input._dtype,
        )
    if grad_w is not None:
        g_w = wrap(grad_w.astype(wt.dtype), w)
    if mask[2] and bias_sizes is not None:
        axes = (0, *range(2, go.ndim))
        g_b = wrap(np.add.reduce(go_c, axis=axes).astype(go.dtype), grad_output._dtype)
    return g_in, g_w, g_b
