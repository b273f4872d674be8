"""torch.nn.utils.rnn: PackedSequence and the pack / pad helpers.

A PackedSequence holds the time steps of a batch of sequences sorted by length, longest
first: `data` is step 0 of every sequence, then step 1 of those at least 2 long, ...;
`batch_sizes[t]` says how many sequences step t has. The helpers build it with
differentiable indexing (slices and cat), so gradients flow back to the padded input.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from ... import _api  # noqa: F401
from ...tensor._tensor import Tensor
from ...tensor.dtype import int64
from ._fns import fns

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]

_F = fns


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(PackedSequence_):
    """The packed time steps of a batch of variable-length sequences."""

    def __new__(
        cls,
        data: Tensor,
        batch_sizes: Tensor | None = None,
        sorted_indices: Tensor | None = None,
        unsorted_indices: Tensor | None = None,
    ) -> PackedSequence:
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence(*pack_result)
            data, batch_sizes = data[0], data[1]
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self) -> PackedSequence:
        return self.to("cpu")

    def double(self) -> PackedSequence:
        return self.to(dtype=_dt("float64"))

    def float(self) -> PackedSequence:  # noqa: A003
        return self.to(dtype=_dt("float32"))

    def half(self) -> PackedSequence:
        return self.to(dtype=_dt("float16"))

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        return False


def _dt(name: str) -> Any:
    from ...tensor.dtype import to_dtype

    return to_dtype(name)


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse of a permutation tensor (None stays None)."""
    if permutation is None:
        return None
    out = _F.empty_like(permutation)
    out.scatter_(0, permutation, _F.arange(0, permutation.numel(), dtype=int64))
    return out


def _lengths_list(lengths: Any) -> list[int]:
    if isinstance(lengths, Tensor):
        if lengths.dim() != 1:
            raise RuntimeError(f"'lengths' argument should be a 1D tensor, got {lengths.dim()}D")
        return [int(v) for v in lengths.tolist()]
    return [int(v) for v in lengths]


def _pack(input: Tensor, lengths: list[int]) -> tuple[Tensor, Tensor]:  # noqa: A002
    """_pack_padded_sequence over a time-major input whose batch is sorted by length."""
    if any(n <= 0 for n in lengths):
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' "
            "that is <= 0"
        )
    for a, b in zip(lengths, lengths[1:]):
        if b > a:
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement if you do not need ONNX "
                "exportability."
            )
    if lengths[0] > input.shape[0]:
        raise RuntimeError(
            f"Expected sequence length to be larger than or equal to the max length in "
            f"`lengths` ({lengths[0]}), but got {input.shape[0]}"
        )
    sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0])]
    steps = [input[t, :b] for t, b in enumerate(sizes)]
    return _F.cat(steps, 0), _F.tensor(sizes, dtype=int64)


def pack_padded_sequence(
    input: Tensor,  # noqa: A002
    lengths: Tensor | list[int],
    batch_first: bool = False,
    enforce_sorted: bool = True,
) -> PackedSequence:
    """Pack a padded batch of sequences (T x B x * or, batch_first, B x T x *)."""
    lens = _lengths_list(lengths)
    if enforce_sorted:
        sorted_indices = None
    else:
        order = sorted(range(len(lens)), key=lambda i: -lens[i])
        sorted_indices = _F.tensor(order, dtype=int64)
        lens = [lens[i] for i in order]
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if batch_first:
        input = input.transpose(0, 1)
    data, batch_sizes = _pack(input, lens)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(
    sequence: PackedSequence,
    batch_first: bool = False,
    padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    """Unpack a PackedSequence into a padded batch and the lengths."""
    sizes = [int(b) for b in sequence.batch_sizes.tolist()]
    max_len = len(sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_len}"
            )
        max_len = total_length
    data = sequence.data
    batch = sizes[0]
    rows = []
    offset = 0
    for b in sizes:
        step = data[offset : offset + b]
        if b < batch:
            pad = _F.full((batch - b, *data.shape[1:]), padding_value, dtype=data.dtype)
            step = _F.cat([step, pad], 0)
        rows.append(step)
        offset += b
    for _ in range(max_len - len(sizes)):
        rows.append(_F.full((batch, *data.shape[1:]), padding_value, dtype=data.dtype))
    padded = _F.stack(rows, 0)
    lengths = [sum(1 for b in sizes if b > i) for i in range(batch)]
    lengths_t = _F.tensor(lengths, dtype=int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths_t = lengths_t[sequence.unsorted_indices]
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths_t


def pad_sequence(
    sequences: Tensor | list[Tensor],
    batch_first: bool = False,
    padding_value: float = 0.0,
    padding_side: str = "right",
) -> Tensor:
    """Stack variable-length sequences (L_i x *) into one padded tensor."""
    if padding_side not in ("left", "right"):
        raise ValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    if isinstance(sequences, Tensor):
        sequences = list(sequences.unbind(0))
    seqs = list(sequences)
    max_len = max(s.shape[0] for s in seqs)
    rows = []
    for s in seqs:
        n = s.shape[0]
        if n < max_len:
            pad = _F.full((max_len - n, *s.shape[1:]), padding_value, dtype=s.dtype)
            s = _F.cat([s, pad] if padding_side == "right" else [pad, s], 0)
        rows.append(s)
    return _F.stack(rows, 0 if batch_first else 1)


def unpad_sequence(
    padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False
) -> list[Tensor]:
    """The inverse of pad_sequence: the sequences without their padding."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[: int(n)] for seq, n in zip(padded_sequences, lengths.tolist())]


def pack_sequence(sequences: Iterable[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of variable-length sequences."""
    seqs = list(sequences)
    lengths = _F.tensor([s.shape[0] for s in seqs], dtype=int64)
    return pack_padded_sequence(pad_sequence(seqs), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """The inverse of pack_sequence."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
