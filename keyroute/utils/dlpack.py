"""torch.utils.dlpack: to_dlpack (a DLPack capsule of a tensor's memory) and from_dlpack.

As PyTorch's `torch._C._to_dlpack`, to_dlpack exports the memory as it lies, without the checks
of `Tensor.__dlpack__`: a conjugate or negative view exports its un-conjugated values.
"""

from __future__ import annotations

from typing import Any

from .._api.creation import from_dlpack as _from_dlpack
from ..tensor._tensor import Tensor

__all__ = ["to_dlpack", "from_dlpack"]


class _Capsule:
    """A capsule from to_dlpack, held so that from_dlpack (NumPy's importer underneath) can
    consume it once, as the DLPack protocol wants."""

    __slots__ = ("capsule", "device")

    def __init__(self, capsule: Any, device: tuple[Any, int]) -> None:
        self.capsule = capsule
        self.device = device

    def __dlpack__(self, **kwargs: Any) -> Any:
        capsule, self.capsule = self.capsule, None
        if capsule is None:
            raise RuntimeError(
                "from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
                "consumed only once, so you might have already constructed a tensor from it once."
            )
        return capsule

    def __dlpack_device__(self) -> tuple[Any, int]:
        return self.device

    def __repr__(self) -> str:
        return '<capsule object "dltensor">'


def to_dlpack(tensor: Tensor) -> Any:
    """A DLPack capsule sharing tensor's memory (math bits not applied, as PyTorch's)."""
    plain = tensor.detach()
    if plain.is_conj() or plain.is_neg():
        # the same memory without the bits (a tensor over the same array): the raw values
        from ..kernels.cpu._kernel import wrap

        plain = wrap(plain._data, plain._dtype)
    # A versioned capsule carries the read-only flag, so the importer's array stays writable.
    return _Capsule(plain.__dlpack__(max_version=(1, 0)), plain.__dlpack_device__())


def from_dlpack(ext_tensor: Any) -> Tensor:
    """A tensor sharing memory with a DLPack producer or a to_dlpack capsule."""
    return _from_dlpack(ext_tensor)
