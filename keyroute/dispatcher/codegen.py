"""Generated hot-path code, registered with linecache so pdb, inspect.getsource and tracebacks
show it.

keyroute writes a few hot functions as source text and compiles them (the dispatcher's
specialised `OpOverload.__call__`, the fast dunders, the autograd recorders, the below-autograd
redispatch): each is one template, filled in per operator, instead of hand-written copies.
Every generated file names its template and the plain reference it must agree with.
"""

from __future__ import annotations

import linecache
import os
from typing import Any

__all__ = ["GENERATED_DIR", "compile_registered", "define", "indent"]

#: Where generated code claims to live (the files do not exist on disk).
GENERATED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_generated")


def compile_registered(src: str, name: str, template_file: str | None = None) -> Any:
    """Compile generated source under a file name that linecache knows (as dataclasses and
    namedtuple-style generators do, but kept in linecache so debuggers can list it).
    `template_file`: the module that holds the template; the name then reads
    `<that module>/_generated/<name>.py`, so tracebacks and op cards point at it."""
    base = os.path.join(template_file, "_generated") if template_file else GENERATED_DIR
    filename = os.path.join(base, name + ".py")
    # mtime None: linecache.checkcache keeps the entry (there is no file to compare with).
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    return compile(src, filename, "exec")


def define(
    src: str, name: str, namespace: dict[str, Any], function: str, template_file: str | None = None
) -> Any:
    """Run generated `src` (registered as `name`) in `namespace` and return its `function`."""
    exec(compile_registered(src, name, template_file), namespace)
    return namespace[function]


def indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))
