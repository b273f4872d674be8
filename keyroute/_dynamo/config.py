"""keyroute._dynamo.config (torch._dynamo.config): the knobs programs set.

`cache_size_limit` is an alias of `recompile_limit`, as PyTorch 2.13 keeps it.
"""

from __future__ import annotations

import sys
import types
from typing import Any

#: Compiled variants one function may hold before it runs eagerly (PyTorch: 8).
recompile_limit: int = 8
#: Whole-program limit of PyTorch's; kept for programs that set it.
accumulated_recompile_limit: int = 256
#: Trace `.item()` into the graph instead of breaking (PyTorch's default: False).
capture_scalar_outputs: bool = False
#: Trace data-dependent-shape operators (nonzero, unique) instead of breaking.
capture_dynamic_output_shape_ops: bool = False
#: Swallow backend errors and run eagerly (PyTorch's default: False).
suppress_errors: bool = False
verbose: bool = False
#: Mark a dimension dynamic after a recompile on its size (PyTorch's automatic dynamic).
automatic_dynamic_shapes: bool = True
assume_static_by_default: bool = True
#: Functions whose calls are logging (kept out of graphs); PyTorch's name.
reorderable_logging_functions: set[Any] = set()


class _ConfigModule(types.ModuleType):
    @property
    def cache_size_limit(self) -> int:
        return self.recompile_limit

    @cache_size_limit.setter
    def cache_size_limit(self, value: int) -> None:
        self.recompile_limit = value


sys.modules[__name__].__class__ = _ConfigModule
