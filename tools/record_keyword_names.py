"""Record PyTorch 2.13's parameter names of every public torch.* function and Tensor method
-> tests/data/keyword_names.json (for tests/api/test_keyword_names.py).

Names come from inspect.signature where PyTorch's callable has one (Python functions), else
from the signature lines of its docstring (`add(input, other, *, alpha=1, out=None) ->
Tensor`, one line per overload). Each callable maps to a list of overloads, each a list of
the names a caller may pass as keywords (positional-only and variadic parameters dropped).

    python tools/record_keyword_names.py
"""

from __future__ import annotations

import inspect
import json
import os
import re
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "keyword_names.json")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _split_top(s: str) -> list[str]:
    """Split a parameter list at the commas outside brackets and quotes."""
    parts, depth, cur, quote = [], 0, "", None
    for ch in s:
        if quote:
            cur += ch
            quote = None if ch == quote else quote
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def _doc_overloads(name: str, doc: str) -> list[list[str]]:
    pat = re.compile(
        r"^\s*(?:\.\. function:: )?(?:torch\.|Tensor\.)?" + re.escape(name) + r"\((.*)\)"
    )
    out = []
    for line in doc.splitlines():
        m = pat.match(line)
        if not m:
            continue
        body = m.group(1)
        # cut a trailing ") -> Tensor" that the greedy match kept
        depth = 0
        for i, ch in enumerate(body):
            depth += ch in "([{"
            if ch in ")]}":
                if depth == 0:
                    body = body[:i]
                    break
                depth -= 1
        names = []
        for p in _split_top(body):
            p = p.strip().split("=")[0].strip().split(":")[0].strip()
            if p.startswith("*") or p in ("/", "...") or not _IDENT.match(p):
                continue
            names.append(p)
        if names not in out:
            out.append(names)
    return out


def _stub_overloads(path: str, cls: str | None) -> dict[str, list[list[str]]]:
    """name -> overloads from one of PyTorch's generated .pyi stubs (top-level functions, or
    the methods of class `cls`)."""
    import ast

    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    body = tree.body
    if cls is not None:
        body = next(n.body for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    out: dict[str, list[list[str]]] = {}
    for node in body:
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        names = [x.arg for x in a.args] + [x.arg for x in a.kwonlyargs]
        if cls is not None and names and names[0] == "self":
            names = names[1:]
        names = [n for n in names if not n.startswith("__")]  # positional-only by convention
        ov = out.setdefault(node.name, [])
        if names not in ov:
            ov.append(names)
    return out


_STUBS: dict[str, dict[str, list[list[str]]]] = {}


def _overloads(name: str, fn: Any, method: bool) -> list[list[str]]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    if sig is not None and not (
        len(sig.parameters) == 2
        and all(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in sig.parameters.values())
    ):
        names = [
            p.name
            for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
        if method and names and names[0] == "self":
            names = names[1:]
        return [names]
    stub = _STUBS["Tensor" if method else "torch"].get(name)
    if stub:
        return stub
    return _doc_overloads(name, getattr(fn, "__doc__", None) or "")


class _Probe:
    """An argument no PyTorch parameter accepts: the call fails on its type (a known name) or
    on the name itself (an unknown one)."""


def _accepts(fn: Any, name: str) -> bool:
    """Whether PyTorch's callable takes keyword `name` (it fails on the value, not the name)."""
    try:
        fn(**{name: _Probe()})
    except TypeError as e:
        msg = str(e)
        return not (("unexpected keyword" in msg or "unrecognized keyword" in msg) and name in msg)
    except Exception:  # noqa: BLE001 - any other failure is about the value
        return True
    return True


def _validated(fn: Any, overloads: list[list[str]]) -> list[list[str]]:
    out = []
    for ov in overloads:
        kept = [n for n in ov if _accepts(fn, n)]
        if kept not in out:
            out.append(kept)
    return out


def main() -> None:
    import torch

    stubs = os.path.join(os.path.dirname(torch.__file__), "_C")
    _STUBS["torch"] = _stub_overloads(os.path.join(stubs, "_VariableFunctions.pyi"), None)
    _STUBS["Tensor"] = _stub_overloads(os.path.join(stubs, "__init__.pyi"), "TensorBase")
    data: dict[str, dict[str, list[list[str]]]] = {"torch": {}, "Tensor": {}}
    for name in sorted(dir(torch)):
        if name.startswith("_"):
            continue
        fn = getattr(torch, name, None)
        if not callable(fn) or isinstance(fn, type):
            continue
        # (not validated by calling: PyTorch's parser calls a lone keyword "unrecognized"
        # when a required argument is missing, so the stubs' names are taken as they are;
        # `self` in a torch.* overload is a deprecated signature's)
        ov = [[n for n in o if n != "self"] for o in _overloads(name, fn, False)]
        if ov:
            data["torch"][name] = ov
    for name in sorted(dir(torch.Tensor)):
        if name.startswith("_"):
            continue
        fn = getattr(torch.Tensor, name, None)
        if not callable(fn) or isinstance(fn, type):
            continue
        bound = getattr(torch.ones(2, 2), name, None)
        ov = _overloads(name, fn, True)
        ov = _validated(bound, ov) if bound is not None else ov
        if ov:
            data["Tensor"][name] = ov
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"torch_version": torch.__version__, **data}, f, indent=0, sort_keys=True)
        f.write("\n")
    print(
        f"{len(data['torch'])} torch.* and {len(data['Tensor'])} Tensor.* callables -> "
        f"{os.path.relpath(OUT, ROOT)}"
    )


if __name__ == "__main__":
    main()
