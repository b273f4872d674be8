"""torch.utils.swap_tensors: exchange the whole state of two tensors, keeping their identities.

Module conversion uses it so that references held elsewhere (optimizers) see the new data.
"""

from __future__ import annotations

from typing import Any

__all__ = ["swap_tensors"]


def swap_tensors(t1: Any, t2: Any) -> None:
    """After the call t1 has t2's content (data, metadata, autograd state, class, __dict__)."""
    from ..tensor._tensor import Tensor

    if not isinstance(t1, Tensor):
        raise TypeError(f"Expected t1 to be a tensor, but got {type(t1)}")
    if not isinstance(t2, Tensor):
        raise TypeError(f"Expected t2 to be a tensor, but got {type(t2)}")
    if _extra_slots(type(t1)) != _extra_slots(type(t2)):
        raise RuntimeError("Cannot swap t1 and t2 if they have different slots")
    import weakref

    if weakref.getweakrefcount(t1) or weakref.getweakrefcount(t2):
        raise RuntimeError("Cannot swap t1 and t2 if they have weakrefs")
    for name in Tensor.__slots__:
        if name in ("__weakref__", "__dict__"):
            continue
        a, b = _get(t1, name), _get(t2, name)
        _set(t1, name, b)
        _set(t2, name, a)
    d1, d2 = dict(t1.__dict__), dict(t2.__dict__)
    t1.__dict__.clear()
    t1.__dict__.update(d2)
    t2.__dict__.clear()
    t2.__dict__.update(d1)
    c1, c2 = type(t1), type(t2)
    t1.__class__, t2.__class__ = c2, c1


_MISSING = object()


def _get(t: Any, name: str) -> Any:
    return getattr(t, name, _MISSING)


def _set(t: Any, name: str, value: Any) -> None:
    if value is _MISSING:
        if hasattr(t, name):
            object.__delattr__(t, name)
    else:
        object.__setattr__(t, name, value)


def _extra_slots(cls: type) -> set[str]:
    slots: set[str] = set()
    for klass in cls.__mro__:
        slots.update(klass.__dict__.get("__slots__", ()))
    return slots
