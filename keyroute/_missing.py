"""PyTorch names keyroute does not have: refused with a NotImplementedError that names them.

keyroute/_pytorch_names.txt lists PyTorch 2.13's public names per namespace (written by
tools/record_api_names.py). A lookup that fails on keyroute, keyroute.nn,
keyroute.nn.functional, keyroute.linalg, keyroute.special or a Tensor raises
`MissingFromKeyroute` for a PyTorch name: a NotImplementedError (the clear refusal) that is
also an AttributeError, so `hasattr(torch, "name")` and `getattr(x, "name", default)` keep
working as for any absent attribute. The list is read on the first failed lookup only.

>>> import keyroute
>>> hasattr(keyroute, "not_a_pytorch_name")
False
"""

from __future__ import annotations

import os

__all__ = ["MissingFromKeyroute", "is_pytorch_name", "missing"]

_FILE = os.path.join(os.path.dirname(__file__), "_pytorch_names.txt")
_NAMES: dict[str, frozenset[str]] | None = None


class MissingFromKeyroute(NotImplementedError, AttributeError):
    """A PyTorch 2.13 name keyroute does not implement yet."""


def _load() -> dict[str, frozenset[str]]:
    global _NAMES
    if _NAMES is None:
        acc: dict[str, set[str]] = {}
        try:
            with open(_FILE) as f:
                for line in f:
                    if line.startswith("#") or not line.strip():
                        continue
                    ns, name = line.split()
                    acc.setdefault(ns, set()).add(name)
        except OSError:
            acc = {}
        _NAMES = {k: frozenset(v) for k, v in acc.items()}
    return _NAMES


def is_pytorch_name(namespace: str, name: str) -> bool:
    return name in _load().get(namespace, frozenset())


_SPELLING = {
    "torch": "torch.{}",
    "Tensor": "torch.Tensor.{}",
    "nn": "torch.nn.{}",
    "nn.functional": "torch.nn.functional.{}",
    "linalg": "torch.linalg.{}",
    "special": "torch.special.{}",
    "fft": "torch.fft.{}",
}


def missing(namespace: str, name: str, owner: str) -> AttributeError:
    """The error for a failed lookup of `name` in `namespace` (raise it): MissingFromKeyroute
    for a PyTorch name, else the ordinary AttributeError."""
    if is_pytorch_name(namespace, name):
        full = _SPELLING[namespace].format(name)
        return MissingFromKeyroute(
            f"{full} is not implemented in keyroute yet (it is in PyTorch 2.13; see "
            f"tests/api/known_missing.txt)"
        )
    return AttributeError(f"{owner} has no attribute '{name}'")
