"""Text dumps of an operator in PyTorch's formats (`_dispatch_dump_table`, `_dispatch_dump`).

>>> print(dump_table("aten::add.Tensor"))  # doctest: +SKIP
CPU: registered at .../keyroute/kernels/cpu.py:40 [kernel]
...
"""

from __future__ import annotations

from .keys import TABLE_KEYS, is_alias_key, key_name
from .operator import OpOverload, find_op

__all__ = ["dump_table", "dump", "find_op"]


def _as_op(op: OpOverload | str) -> OpOverload:
    if isinstance(op, OpOverload):
        return op
    found = find_op(op)
    if found is None:
        raise RuntimeError(
            f"no operator named {op!r}: give the qualified name with its overload "
            f'("aten::add.Tensor"), or define the operator first (Library.define)'
        )
    return found


def dump_table(op: OpOverload | str) -> str:
    """One line per table slot that has an entry: `Key: [fallthrough ]<debug> [<provenance>]`.
    `op` is an operator or its name ("aten::add.Tensor")."""
    op = _as_op(op)
    table = op._get_table()
    lines = []
    for k in TABLE_KEYS:
        entry = table.get(k)
        if entry is None:
            continue
        reg, provenance = entry
        fallthrough = "fallthrough " if reg.fallthrough else ""
        lines.append(f"{key_name(k)}: {fallthrough}{reg.debug} [{provenance}]")
    return "".join(line + "\n" for line in lines)


def dump(op: OpOverload | str) -> str:
    """The operator's registrations: name, schema, debug, alias analysis, then each kernel."""
    op = _as_op(op)
    lines = [f"name: {op.qualified_name()}"]
    if op._schema is None:
        lines.append("schema: (none)")
    else:
        lines += [
            f"schema: {op._schema}",
            f"debug: {op.debug}",
            f"alias analysis kind: {op.alias_analysis or 'FROM_SCHEMA'}",
        ]
    for key in sorted(op.kernels):
        regs = op.kernels[key]
        name = key_name(key) + ("[alias]" if is_alias_key(key) else "")
        for n, reg in enumerate(reversed(regs)):
            state = "" if n == 0 else " (inactive)"
            flags = "fallthrough boxed" if reg.fallthrough else "boxed"
            lines.append(f"{name}{state}: {reg.debug} :: (none) [ {flags} ]")
    return "".join(line + "\n" for line in lines)
