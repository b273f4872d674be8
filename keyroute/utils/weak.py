"""torch.utils.weak: weak references and weak-keyed dicts that compare keys by identity.

Tensors overload `==` to compare elementwise, so a WeakKeyDictionary keyed by tensors cannot
use it; these key by `id` and drop entries when the key dies.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, MutableMapping
from typing import Any

__all__ = ["WeakIdRef", "WeakIdKeyDictionary", "WeakTensorKeyDictionary", "TensorWeakRef"]


class WeakIdRef(weakref.ref):  # type: ignore[type-arg]
    """A weakref hashed and compared by the referent's id (equal while both are alive)."""

    __slots__ = ["_id"]

    def __init__(self, key: Any, callback: Any = None) -> None:
        self._id = id(key)
        super().__init__(key, callback)

    def __call__(self) -> Any:
        return super().__call__()

    def __hash__(self) -> int:
        return self._id

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WeakIdRef):
            return NotImplemented
        a, b = self(), other()
        if a is not None and b is not None:
            return a is b
        return self is other


class WeakIdKeyDictionary(MutableMapping[Any, Any]):
    """A dict whose keys are held weakly and compared by identity."""

    def __init__(self, dict: Any = None, ref_type: type = WeakIdRef) -> None:  # noqa: A002
        self.data: dict[WeakIdRef, Any] = {}
        self.ref_type = ref_type
        self_ref = weakref.ref(self)

        def remove(k: WeakIdRef) -> None:
            owner = self_ref()
            if owner is not None:
                owner.data.pop(k, None)

        self._remove = remove
        if dict is not None:
            self.update(dict)

    def __getitem__(self, key: Any) -> Any:
        return self.data[self.ref_type(key)]

    def __setitem__(self, key: Any, value: Any) -> None:
        self.data[self.ref_type(key, self._remove)] = value

    def __delitem__(self, key: Any) -> None:
        del self.data[self.ref_type(key)]

    def __contains__(self, key: object) -> bool:
        try:
            ref = self.ref_type(key)
        except TypeError:
            return False
        return ref in self.data

    def __iter__(self) -> Iterator[Any]:
        for ref in list(self.data):
            obj = ref()
            if obj is not None:
                yield obj

    def __len__(self) -> int:
        return sum(1 for ref in list(self.data) if ref() is not None)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {id(self):#x}>"

    def copy(self) -> WeakIdKeyDictionary:
        new = WeakIdKeyDictionary(ref_type=self.ref_type)
        for key, value in self.items():
            new[key] = value
        return new


WeakTensorKeyDictionary = WeakIdKeyDictionary


class TensorWeakRef:
    """A weak reference to a tensor (`ref()` gives the tensor or None)."""

    __slots__ = ["ref"]

    def __init__(self, tensor: Any) -> None:
        self.ref = weakref.ref(tensor)

    def __call__(self) -> Any:
        return self.ref()
