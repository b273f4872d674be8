"""torch.nn.utils.convert_parameters: parameters_to_vector, vector_to_parameters."""

from __future__ import annotations

from collections.abc import Iterable

from ...tensor._tensor import Tensor
from ._fns import fns

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_same_device(param: Tensor, old: object) -> object:
    device = param.device
    if old is None:
        return device
    if device != old:
        raise TypeError(
            "Found two parameters on different devices, this is currently not supported."
        )
    return old


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters flattened and concatenated into one vector."""
    device = None
    vec = []
    for param in parameters:
        device = _check_same_device(param, device)
        vec.append(param.view(-1))
    return fns.cat(vec)


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy slices of vec into the parameters' data, in order."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    device = None
    pointer = 0
    for param in parameters:
        device = _check_same_device(param, device)
        n = param.numel()
        param.data = vec[pointer : pointer + n].view_as(param).data
        pointer += n
