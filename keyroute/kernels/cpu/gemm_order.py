"""PyTorch's float32 matrix products for the narrow shapes where its BLAS (MKL sgemm) is known
to add the K products one after another, so that keyroute's products round as PyTorch's do.

PyTorch's CPU mm/addmm call MKL, whose blocked kernels accumulate in an order NumPy's BLAS does
not share. For most shapes that order is not modelled (keyroute keeps NumPy's product). Measured
against PyTorch 2.13 (MKL 2024.2, AVX2) on random data (tools/record_gemm_order.py), MKL forms
each output element as ((p0 + p1) + p2) + ..., every product p_k = a_ik * b_kj rounded to float32
first (no fused multiply-add), in these cases:

- one row (M == 1) with a row-major second operand: a vector-matrix product (the weight gradient
  of a 1-output nn.Linear, `grad.T @ x`);
- one column (N == 1) with a column-major first operand (`x.T @ grad`), or a row-major first
  operand and K <= 4 (the forward of nn.Linear(3 or 4, 1)).

addmm with beta == alpha == 1 then adds the bias: as the first term of the sum (the two
vector-matrix cases and the column-major one), or after the sum (the row-major K <= 4 one).
Everything else returns None and the caller keeps its own product.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sequential_gemm"]

_F32 = np.dtype(np.float32)
# the products array (M*K*N elements) stays small: the modelled shapes are thin
_MAX_PRODUCTS = 1 << 20


def _order(a: np.ndarray, b: np.ndarray) -> int:
    """0: not modelled; 1: sequential, bias first; 2: sequential, bias after the sum."""
    m, k = a.shape
    n = b.shape[1]
    if m * k * n > _MAX_PRODUCTS or k == 0:
        return 0
    item = 4
    if m == 1:
        return 1 if b.strides[1] == item and b.strides[0] == n * item else 0
    if n == 1:
        if a.strides[0] == item and a.strides[1] == m * item:  # column-major (a transpose)
            return 1
        if a.strides[1] == item and a.strides[0] == k * item and k <= 4:
            return 2
    return 0


def sequential_gemm(
    a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None
) -> np.ndarray | None:
    """a @ b (+ bias) for float32 2-d arrays in MKL's order where modelled, else None."""
    if a.dtype != _F32 or b.dtype != _F32 or (bias is not None and bias.dtype != _F32):
        return None
    how = _order(a, b)
    if not how:
        return None
    products = np.multiply(a[:, :, None], b[None, :, :])  # (M, K, N), each rounded to float32
    if bias is not None and how == 1:
        row = np.broadcast_to(bias, (a.shape[0], b.shape[1]))[:, None, :]
        products = np.concatenate([row, products], axis=1)
    # add.accumulate adds strictly left to right (NumPy's sum would add pairwise)
    r = np.add.accumulate(products, axis=1)[:, -1, :].copy()  # fresh, PyTorch's C strides
    if bias is not None and how == 2:
        np.add(r, bias, out=r)
    return r
