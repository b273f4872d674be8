"""torch.special: keyroute's special functions (keyroute/_api/special.py) over the aten
operators of aten/special.py.

>>> import keyroute
>>> keyroute.special.expit(keyroute.tensor([0.0]))
tensor([0.5000])
>>> keyroute.special.gammaln(keyroute.tensor([4.0]))
tensor([1.7918])
"""

from __future__ import annotations

from .._api.special import SPECIAL as _SPECIAL

globals().update(_SPECIAL)

__all__ = sorted(_SPECIAL)


def __getattr__(name: str) -> object:
    # A PyTorch name keyroute lacks: a NotImplementedError naming it (keyroute/_missing.py).
    from .._missing import missing

    raise missing("special", name, "module 'keyroute.special'")
