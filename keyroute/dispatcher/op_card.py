"""The op card: one operator seen whole, with the source line of each of its layers.

An operator lives in several files, one per layer (the schema and meta function in `aten/`,
kernels in `kernels/<backend>/`, the derivative in `autograd/derivatives/`, the binding in
`_api/`), and table-driven families register from loops, so a registration site alone points
at the loop. The card points at the code that runs: for each entry it unwraps the registered
callable (decorator wrappers, closures of the family builders) down to the functions defined
in keyroute, and prints `path:line  name` for each.

    $ keyroute op add.Tensor
    aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
      schema                        keyroute/aten/elementwise/family.py:120
      meta function                 keyroute/aten/elementwise/family.py:122  meta_fn
                                    keyroute/aten/elementwise/binary.py:94  rule
      kernel CPU                    keyroute/kernels/cpu/elementwise.py:122  add_Tensor
      ...
"""

from __future__ import annotations

import functools
import inspect
import os
import types
from collections.abc import Callable, Iterator
from typing import Any

from .keys import is_alias_key, key_name
from .operator import OpOverload, find_op

__all__ = ["op_card", "source_of"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ROOT = os.path.dirname(_PACKAGE)


def _where(code: types.CodeType) -> str:
    path = code.co_filename
    if path.startswith(_ROOT + os.sep):
        path = os.path.relpath(path, _ROOT)
    return f"{path}:{code.co_firstlineno}"


def _ours(fn: Any) -> bool:
    code = getattr(fn, "__code__", None)
    return code is not None and code.co_filename.startswith(_PACKAGE)


def source_of(fn: Any, depth: int = 2) -> Iterator[tuple[str, str]]:
    """(`path:line`, qualified name) of `fn` and of the keyroute functions it closes over,
    `depth` levels down: a family builder's closure shows the rule it was built from."""
    seen: set[int] = set()

    def walk(f: Any, level: int) -> Iterator[tuple[str, str]]:
        f = inspect.unwrap(f) if callable(f) else f
        if isinstance(f, types.MethodType):
            f = f.__func__
        elif isinstance(f, functools.partial):
            f = f.func
        if not isinstance(f, types.FunctionType) or id(f) in seen:
            return
        seen.add(id(f))
        if _ours(f):
            yield _where(f.__code__), getattr(f.__code__, "co_qualname", f.__qualname__)
        if level >= depth:
            return
        for cell in f.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(value, types.FunctionType) and _ours(value):
                yield from walk(value, level + 1)

    yield from walk(fn, 0)


def _kernel_callable(fn: Any) -> Any:
    """The function behind a registered kernel object (an autograd kernel holds the op's
    derivative entry; other kernel objects keep their function as `fn`)."""
    if isinstance(fn, types.FunctionType):
        return fn
    for attr in ("fn", "func", "kernel", "_fn"):
        inner = getattr(fn, attr, None)
        if callable(inner):
            return inner
    return type(fn).__call__


def _lines(role: str, fn: Any) -> list[str]:
    found = list(source_of(fn))
    if not found:
        return [f"  {role:<30}{type(fn).__name__} (not Python source in keyroute)"]
    out = [f"  {role:<30}{found[0][0]}  {found[0][1]}"]
    out += [f"  {'':<30}{where}  {name}" for where, name in found[1:]]
    return out


def _binding(name: str) -> list[tuple[str, Callable[..., Any]]]:
    import keyroute

    from ..tensor._tensor import Tensor

    out = []
    fn = getattr(keyroute, name, None)
    if callable(fn):
        out.append((f"keyroute.{name}", fn))
    meth = Tensor.__dict__.get(name)
    if callable(meth):
        out.append((f"Tensor.{name}", meth))
    return out


def op_card(op: OpOverload | str) -> str:
    """The card of an operator (`"aten::add.Tensor"` or the operator itself): its schema, then
    where its schema is defined, its meta function, each kernel by dispatch key, its derivative
    formula and its Python bindings, each as `path:line  name`."""
    from ..aten._define import META_FUNCTIONS
    from ..autograd.derivatives import DERIVATIVES

    if isinstance(op, str):
        found = find_op(op if "::" in op else f"aten::{op}")
        if found is None:
            raise RuntimeError(f"no operator named {op!r}")
        op = found
    qual = op.qualified_name()
    lines = [str(op._schema) if op._schema is not None else f"{qual} (no schema)"]
    if op.debug:
        site = op.debug.removeprefix("registered at ")
        if site.startswith(_ROOT + os.sep):
            site = os.path.relpath(site, _ROOT)
        lines.append(f"  {'schema':<30}{site}")
    meta = META_FUNCTIONS.get(op)
    if meta is not None:
        lines += _lines("meta function", meta)
    for key in sorted(op.kernels):
        reg = op.kernels[key][-1]
        if reg.fallthrough:
            continue
        name = key_name(key) + (" [alias]" if is_alias_key(key) else "")
        lines += _lines(f"kernel {name}", _kernel_callable(reg.fn))
    short = qual.split("::", 1)[1]
    entry = DERIVATIVES.get(short)
    if entry is not None:
        lines += _lines(f"derivative {entry.node_name}", entry.formula)
    base = short.split(".", 1)[0]
    if qual.startswith("aten::"):
        for label, fn in _binding(base):
            lines += _lines(f"binding {label}", fn)
    return "".join(line + "\n" for line in lines)
