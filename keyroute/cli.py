"""The `keyroute` command line.

    keyroute keys              every dispatch key: value, name, kind, in priority order
    keyroute table OP          the computed dispatch table of an operator (aten::add.Tensor)
    keyroute dump OP           the operator's registrations
    keyroute schema OP         the schemas of an operator's overloads (aten::add)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _qualify(name: str) -> str:
    return name if "::" in name else f"aten::{name}"


def _cmd_keys(args: argparse.Namespace) -> int:
    from .dispatcher.keys import (
        PER_BACKEND_FUNCTIONALITIES,
        RUNTIME_KEYS,
        DispatchKey,
        is_alias_key,
        key_name,
    )

    print(f"{'value':>5}  {'name':<40} kind")
    for k in range(0, 47):
        kind = "per-backend functionality" if k in PER_BACKEND_FUNCTIONALITIES else "functionality"
        print(f"{k:>5}  {key_name(k):<40} {kind}")
    for k in RUNTIME_KEYS:
        if k > 47:
            print(f"{k:>5}  {key_name(k):<40} runtime (per backend)")
    for k in range(150, 156):
        assert is_alias_key(k)
        print(f"{k:>5}  {DispatchKey(k).name:<40} alias")
    return 0


def _find(name: str):  # noqa: ANN202
    import keyroute  # noqa: F401  (registers every operator)
    from .dispatcher.operator import find_op

    op = find_op(_qualify(name))
    if op is None:
        print(f"keyroute: no operator named {_qualify(name)}", file=sys.stderr)
    return op


def _cmd_table(args: argparse.Namespace) -> int:
    op = _find(args.op)
    if op is None:
        return 1
    sys.stdout.write(op.dump_table())
    return 0


def _cmd_dump(args: argparse.Namespace) -> int:
    op = _find(args.op)
    if op is None:
        return 1
    sys.stdout.write(op.dump())
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    import keyroute  # noqa: F401
    from .dispatcher.operator import all_ops

    target = _qualify(args.op)
    found = [
        op
        for op in all_ops()
        if op._schema is not None and (op.qualified_name() == target or op._name == target)
    ]
    if not found:
        print(f"keyroute: no operator named {target}", file=sys.stderr)
        return 1
    for op in found:
        print(op._schema)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="keyroute", description="PyTorch's dispatcher in Python: inspect and run it."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("keys", help="list every dispatch key in priority order")
    p.set_defaults(func=_cmd_keys)
    p = sub.add_parser("table", help="print an operator's computed dispatch table")
    p.add_argument("op", help="operator, e.g. aten::add.Tensor or add.Tensor")
    p.set_defaults(func=_cmd_table)
    p = sub.add_parser("dump", help="print an operator's registrations")
    p.add_argument("op")
    p.set_defaults(func=_cmd_dump)
    p = sub.add_parser("schema", help="print the schemas of an operator's overloads")
    p.add_argument("op", help="operator, e.g. aten::add")
    p.set_defaults(func=_cmd_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
