"""The module name keyroute prints for itself: "keyroute" normally, "torch" under `keyroute run`.

Reprs of dtypes (`keyroute.float32`), sizes (`keyroute.Size([2])`) and the Tensor class name
read `NAME` here, so a program run with `keyroute run` (where `import torch` gives keyroute)
prints what it prints on PyTorch. Switching is global and cheap: reprs read one attribute.
"""

from __future__ import annotations

__all__ = ["NAME", "set_name"]

NAME = "keyroute"


def set_name(name: str) -> None:
    """Print keyroute's public names under `name` ("torch" or "keyroute")."""
    global NAME
    if name not in ("torch", "keyroute"):
        raise ValueError(f"set_name: expected 'torch' or 'keyroute', got {name!r}")
    NAME = name
    import keyroute

    # Type names print through __module__ (`<class 'torch.Tensor'>`, pickled class paths).
    keyroute.Tensor.__module__ = name
    _rename_classes(keyroute, name)
    from .dispatcher.operator import all_ops

    for op in all_ops():
        op.__module__ = f"{name}._ops.{op.namespace}"


def _rename_classes(keyroute: object, name: str) -> None:
    """Give the public classes of the nn and optim packages `name.` module paths."""
    import sys

    old = "keyroute" if name == "torch" else "torch"
    for modname, mod in list(sys.modules.items()):
        if not modname.startswith("keyroute.") or mod is None:
            continue
        for value in list(vars(mod).values()):
            mn = getattr(value, "__module__", None)
            if isinstance(value, type) and isinstance(mn, str) and mn.startswith(old + "."):
                if mn.removeprefix(old + ".") == modname.removeprefix("keyroute."):
                    value.__module__ = name + mn[len(old) :]


def type_repr(value: object) -> str:
    """`str(type(value))` as PyTorch prints it in messages: keyroute's device class reads as
    the public `device` (`<class 'torch.device'>`), not its defining module's `Device`."""
    from .tensor.device import Device

    if isinstance(value, Device):
        return f"<class '{NAME}.device'>"
    return str(type(value))
