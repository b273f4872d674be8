"""GGUF weights kept quantized: QuantizedCPU tensors holding Q4_1 / Q8_0 blocks, and the
dequantize-matmul kernel registered on QuantizedCPU for `mm` (which `linear` and `matmul`
decompose into) and `t`.

PyTorch's quantized tensors (per-tensor / per-channel affine qint8) have no GGUF block format,
so the layout and metadata are keyroute's own: the tensor's dispatch keys are QuantizedCPU's
(with AutogradCPU and ADInplaceOrView, as PyTorch gives a CPU quantized tensor), its logical
shape and dtype are the float32 weight's, and the blocks ride on the array behind it (a
zero-stride float32 view that allocates nothing, carrying a `GGUFBlocks`). A decode step's
linear then reads 0.75 (Q4_1) or 1.1 (Q8_0) bytes per weight instead of float32's 4.

The kernel: for each output row and block, d * (q . x_block) + m * sum(x_block) (Q4_1) or
d * (q . x_block) (Q8_0), with the scales precomputed in float32. It is compiled with numba
when the `compile` extra is installed; without numba the blocks are dequantized with NumPy and
multiplied by BLAS (correct, but no faster than float32). Several rows at once (a prefill)
dequantize into float32 and use BLAS in both cases.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import key_bits
from ..dispatcher.registration import Library
from ..tensor._tensor import Tensor, make_tensor, wrap_cpu
from ..tensor.dtype import float32
from .gguf_file import Q4_1, Q8_0, QK, TYPE_NAMES, GGUFTensor
from .quantized_int8 import q4_1_int8_matmul

__all__ = ["GGUFBlocks", "quantized_tensor", "is_quantized_gguf", "HAVE_NUMBA", "blocks_of"]

QUANTIZED_CPU_KEYS = (
    key_bits(DispatchKey.QuantizedCPU)
    | key_bits(DispatchKey.AutogradCPU)
    | key_bits(DispatchKey.ADInplaceOrView)
)
_ROWS_FOR_BLAS = 4  # from this many input rows on, dequantize and use BLAS

try:  # the `compile` extra
    import numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - depends on the environment
    numba = None
    HAVE_NUMBA = False


@dataclass
class GGUFBlocks:
    """A (out_features, in_features) weight as blocks of 32 along in_features, stored with the
    output features innermost (the kernel's vector dimension): codes (K/2, N) uint8 nibble
    pairs (Q4_1: byte j of a block holds elements j and 16 + j) or (K, N) int8 (Q8_0);
    scales and minimums (K/32, N) float32."""

    ggml_type: int
    shape: tuple[int, int]
    codes: np.ndarray
    scales: np.ndarray
    mins: np.ndarray | None
    transposed: bool = False
    #: Q4_1 only: quantize the activations to int8 per block at each call (`quantized_int8`)
    int8_activations: bool = False

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.ggml_type]

    @property
    def nbytes(self) -> int:
        n = self.codes.nbytes + self.scales.nbytes
        return n + (self.mins.nbytes if self.mins is not None else 0)

    def dequantize_t(self) -> np.ndarray:
        """The float32 (K, N) transposed weight, PyTorch's arithmetic (d * q + m, float32)."""
        n, k = self.shape
        nb = k // QK
        if self.ggml_type == Q8_0:
            q = self.codes.reshape(nb, QK, n).astype(np.float32)
            return (q * self.scales[:, None, :]).reshape(k, n)
        c = self.codes.reshape(nb, QK // 2, n)
        q = np.concatenate((c & 0x0F, c >> 4), axis=1).astype(np.float32)
        return (q * self.scales[:, None, :] + self.mins[:, None, :]).reshape(k, n)


class _BlockArray(np.ndarray):
    """The zero-stride float32 array behind a quantized tensor: its shape is the tensor's, its
    `blocks` the data."""

    blocks: GGUFBlocks | None

    def __array_finalize__(self, obj: Any) -> None:
        self.blocks = getattr(obj, "blocks", None)


def _placeholder(shape: tuple[int, ...], blocks: GGUFBlocks) -> _BlockArray:
    arr = np.broadcast_to(np.zeros((), np.float32), shape).view(_BlockArray)
    arr.blocks = blocks
    return arr


def blocks_of(t: Tensor) -> GGUFBlocks:
    blocks = getattr(t._data, "blocks", None)
    if blocks is None:
        raise RuntimeError("expected a GGUF-quantized QuantizedCPU tensor")
    return blocks


def is_quantized_gguf(t: Any) -> bool:
    return isinstance(t, Tensor) and getattr(t._data, "blocks", None) is not None


def _from_blocks(blocks: GGUFBlocks) -> Tensor:
    n, k = blocks.shape
    shape = (k, n) if blocks.transposed else (n, k)
    return make_tensor(_placeholder(shape, blocks), float32, QUANTIZED_CPU_KEYS)


def quantized_tensor(t: GGUFTensor, int8_dynamic_activation: bool = False) -> Tensor:
    """A QuantizedCPU tensor of the GGUF tensor's blocks (Q4_1 or Q8_0); with
    `int8_dynamic_activation` a Q4_1 weight's products quantize their activations to int8
    (`quantized_int8`: faster, not exact). Q8_0 weights ignore it."""
    n, k = t.shape
    if k % QK:
        raise ValueError(f"{t.name}: in_features {k} is not a multiple of the block size {QK}")
    raw = np.ascontiguousarray(t.raw).reshape(n, k // QK, -1)

    def half(lo: int) -> np.ndarray:
        return np.ascontiguousarray(raw[..., lo : lo + 2]).view(np.float16)[..., 0].T

    scales = np.ascontiguousarray(half(0), dtype=np.float32)
    if t.ggml_type == Q4_1:
        mins = np.ascontiguousarray(half(2), dtype=np.float32)
        codes = np.ascontiguousarray(raw[..., 4:].reshape(n, -1).T)
    elif t.ggml_type == Q8_0:
        mins = None
        codes = np.ascontiguousarray(raw[..., 2:].reshape(n, -1).T).view(np.int8)
    else:
        raise NotImplementedError(f"{t.name}: only Q4_1 and Q8_0 stay quantized")
    int8 = int8_dynamic_activation and t.ggml_type == Q4_1
    return _from_blocks(GGUFBlocks(t.ggml_type, (n, k), codes, scales, mins, False, int8))


# ----------------------------------------------------------------------------- the kernels


def _matmul_numpy(x: np.ndarray, b: GGUFBlocks) -> np.ndarray:
    return x @ b.dequantize_t()


if HAVE_NUMBA:
    # One pass over the weight per input row, the output features as the inner (vectorized)
    # loop: per block, the 16 (Q4_1) or 32 (Q8_0) code rows accumulate q * x into s, then
    # out += d * s (+ m * sum of the block's x).

    @numba.njit(cache=True, fastmath=True, nogil=True)
    def _q4_1_row(x: np.ndarray, codes: np.ndarray, d: np.ndarray, mn: np.ndarray) -> np.ndarray:
        nb, n = d.shape
        out = np.zeros(n, np.float32)
        s = np.empty(n, np.float32)
        for blk in range(nb):
            base = blk * QK
            xsum = np.float32(0.0)
            for j in range(QK):
                xsum += x[base + j]
            s[:] = 0.0
            for j in range(QK // 2):
                xl = x[base + j]
                xh = x[base + QK // 2 + j]
                row = codes[blk * (QK // 2) + j]
                for i in range(n):
                    c = np.int32(row[i])
                    s[i] += np.float32(c & 15) * xl + np.float32(c >> 4) * xh
            for i in range(n):
                out[i] += d[blk, i] * s[i] + mn[blk, i] * xsum
        return out

    @numba.njit(cache=True, fastmath=True, nogil=True)
    def _q8_0_row(x: np.ndarray, codes: np.ndarray, d: np.ndarray) -> np.ndarray:
        nb, n = d.shape
        out = np.zeros(n, np.float32)
        s = np.empty(n, np.float32)
        for blk in range(nb):
            base = blk * QK
            s[:] = 0.0
            for j in range(QK):
                xj = x[base + j]
                row = codes[base + j]
                for i in range(n):
                    s[i] += np.float32(np.int32(row[i])) * xj
            for i in range(n):
                out[i] += d[blk, i] * s[i]
        return out


def matmul_blocks(x: np.ndarray, b: GGUFBlocks) -> np.ndarray:
    """x (M, K) float32 @ W.T for the quantized W (N, K): (M, N) float32."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    if x.shape[0] >= _ROWS_FOR_BLAS:
        return _matmul_numpy(x, b)
    if b.int8_activations:
        return q4_1_int8_matmul(x, b.codes, b.scales, b.mins)
    if not HAVE_NUMBA:
        return _matmul_numpy(x, b)
    out = np.empty((x.shape[0], b.shape[0]), np.float32)
    for r in range(x.shape[0]):
        if b.ggml_type == Q4_1:
            out[r] = _q4_1_row(x[r], b.codes, b.scales, b.mins)
        else:
            out[r] = _q8_0_row(x[r], b.codes, b.scales)
    return out


# ----------------------------------------------------------------------------- registrations

_lib = Library("aten", "IMPL")


def _mm(self: Tensor, mat2: Tensor) -> Tensor:
    if is_quantized_gguf(self) or not is_quantized_gguf(mat2):
        raise RuntimeError(
            "mm: a GGUF-quantized tensor is supported as the second operand, transposed "
            "(linear's weight.t()), with a dense float32 first operand"
        )
    b = blocks_of(mat2)
    if not b.transposed:
        raise RuntimeError("mm: expected the transposed quantized weight (linear's weight.t())")
    x = self._data
    if x.ndim != 2 or x.shape[1] != b.shape[1]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x{x.shape[1]} and "
            f"{b.shape[1]}x{b.shape[0]})"
        )
    if self._dtype is not float32:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {self._dtype} != float"
        )
    return wrap_cpu(matmul_blocks(x, b), float32)


def _t(self: Tensor) -> Tensor:
    b = blocks_of(self)
    return _from_blocks(dataclasses.replace(b, transposed=not b.transposed))


def _alias(self: Tensor) -> Tensor:
    return _from_blocks(blocks_of(self))


_lib.impl("mm", _mm, "QuantizedCPU")
_lib.impl("t", _t, "QuantizedCPU")
_lib.impl("detach", _alias, "QuantizedCPU")
_lib.impl("alias", _alias, "QuantizedCPU")
