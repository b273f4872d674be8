"""torch.linalg: keyroute's linear-algebra functions (keyroute/_api/linalg_ops.py) over the aten
operators of aten/linalg_ops.py and aten/linalg_composites.py.

>>> import keyroute
>>> A = keyroute.tensor([[2.0, 1.0], [1.0, 3.0]])
>>> keyroute.linalg.det(A)
tensor(5.)
>>> keyroute.linalg.solve(A, keyroute.tensor([3.0, 5.0]))
tensor([0.8000, 1.4000])
"""

from __future__ import annotations

from .._api.linalg_ops import LINALG as _LINALG
from ..aten.linalg_ops import LinAlgError as LinAlgError

globals().update(_LINALG)

__all__ = sorted([*_LINALG, "LinAlgError"])


def __getattr__(name: str) -> object:
    # A PyTorch name keyroute lacks: a NotImplementedError naming it (keyroute/_missing.py).
    from .._missing import missing

    raise missing("linalg", name, "module 'keyroute.linalg'")
