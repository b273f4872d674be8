"""`keyroute run script.py [args]`: run an unchanged PyTorch program on keyroute.

An import hook (a meta path finder, first on `sys.meta_path`) serves `torch` as keyroute and
every `torch.X.Y` as `keyroute.X.Y` (the same module objects), so `import torch.nn.functional
as F` gives keyroute's; a module keyroute lacks fails with an ImportError naming it. keyroute
prints its names as `torch.` meanwhile (`dtype=torch.float16`, `torch.Size([2])`), so the
program's output reads as on PyTorch. The script runs as `__main__` with `sys.argv` set.

`--trace` prints the dispatch trace of every operator call to stderr; `--profile` runs the
program under keyroute.profiler and prints its operator table to stderr at exit.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import runpy
import sys
import types
from collections.abc import Sequence
from contextlib import ExitStack
from typing import Any

__all__ = ["TorchFinder", "install", "uninstall", "run_script"]

#: torch modules PyTorch has that keyroute serves under another path.
ALIASES: dict[str, str] = {
    "torch._subclasses.fake_tensor": "keyroute.subclasses.fake_tensor",
}


class _ExistingModuleLoader(importlib.abc.Loader):
    """Hands the import system an already-imported keyroute module under a torch name."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module
        self.spec = getattr(module, "__spec__", None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return self.module

    def exec_module(self, module: types.ModuleType) -> None:
        # The import system set __spec__ to the torch one: keep the module's own (reloads,
        # pickling and inspect read it).
        if self.spec is not None:
            module.__spec__ = self.spec


class TorchFinder(importlib.abc.MetaPathFinder):
    """Serves `torch` and `torch.*` from keyroute."""

    def find_spec(
        self, fullname: str, path: Any = None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        target_name = ALIASES.get(fullname, "keyroute" + fullname[len("torch") :])
        try:
            module = importlib.import_module(target_name)
        except ModuleNotFoundError as e:
            if e.name is not None and not (target_name + ".").startswith(e.name + "."):
                raise  # something the keyroute module itself imports is missing
            raise ModuleNotFoundError(
                f"No module named '{fullname}': keyroute has no {target_name} "
                f"(keyroute run serves torch modules from keyroute)",
                name=fullname,
            ) from None
        is_package = hasattr(module, "__path__")
        spec = importlib.machinery.ModuleSpec(
            fullname, _ExistingModuleLoader(module), is_package=is_package
        )
        if is_package:
            spec.submodule_search_locations = list(module.__path__)
        return spec


_finder: TorchFinder | None = None


def install() -> None:
    """Serve `torch` from keyroute and print keyroute's names as torch's."""
    global _finder
    if _finder is None:
        for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
            if not getattr(sys.modules[name], "__name__", "").startswith("keyroute"):
                raise RuntimeError("keyroute run: PyTorch itself is already imported")
        _finder = TorchFinder()
        sys.meta_path.insert(0, _finder)
    from . import _naming

    _naming.set_name("torch")


def uninstall() -> None:
    global _finder
    if _finder is not None:
        sys.meta_path.remove(_finder)
        _finder = None
        for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
            del sys.modules[name]
    from . import _naming

    _naming.set_name("keyroute")


def run_script(
    path: str, args: Sequence[str] = (), *, trace: bool = False, profile: bool = False
) -> int:
    """Run the PyTorch program at `path` as __main__ on keyroute; its exit status."""
    if not os.path.exists(path):
        print(f"keyroute run: can't open file '{path}': No such file", file=sys.stderr)
        return 2
    import keyroute  # noqa: F401  (registers every operator before the program starts)

    install()
    saved_argv, saved_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = [path, *args]
    script_dir = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, script_dir)
    code = 0
    with ExitStack() as stack:
        prof = None
        if profile:
            from .profiler import profile as _profile

            prof = stack.enter_context(_profile())
        if trace:
            from .dispatcher.trace import show_dispatch_trace

            stack.enter_context(show_dispatch_trace(sys.stderr))
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            if not isinstance(e.code, int) and e.code is not None:
                print(e.code, file=sys.stderr)
        finally:
            sys.stdout.flush()
            if prof is not None:
                stack.close()  # stop profiling before printing its table
                print(
                    prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=25),
                    file=sys.stderr,
                )
            sys.argv = saved_argv
            if sys.path and sys.path[0] == script_dir:
                del sys.path[0]
            del saved_path0
    return code
