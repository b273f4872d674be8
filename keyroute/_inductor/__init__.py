"""keyroute._inductor (torch._inductor): the "inductor" backend's code generator.

compile_fx(gm, example_inputs) lowers the captured graph, through AOT Autograd's functional
graphs, to Python source calling NumPy (keyroute/_inductor/codegen.py)."""

from __future__ import annotations

from typing import Any

__all__ = ["compile_fx"]


def compile_fx(gm: Any, example_inputs: list[Any], *, mode: Any = None, options: Any = None) -> Any:
    from .._dynamo.aot import aot_compile

    return aot_compile(gm, example_inputs, None)
