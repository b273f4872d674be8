"""Graph breaks: the constructs a capture cannot put in a graph, with PyTorch 2.13's wording.

During a capture (keyroute._dynamo.capture) the hooks below replace a few Tensor methods and
`print`; outside a capture nothing is patched, so eager code pays nothing. A hook either raises
`GraphBreak` (the fake-tensor trace: the function cannot be one graph) or, in a segmented run,
cuts the current graph and runs the construct eagerly (see capture.SegmentRecorder).

Each break carries PyTorch's graph-break type, explanation, hints and the user's source
location, and `message()` lays them out as torch._dynamo.exc.Unsupported's text does
(tests/data/compile_breaks.json holds PyTorch's texts).
"""

from __future__ import annotations

import builtins
import linecache
import os
import sys
from dataclasses import dataclass, field
from typing import Any

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SITE = "https://meta-pytorch.github.io/compile-graph-break-site/gb"
_VERBOSE_TAIL = (
    "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if "
    "you're reporting a bug to PyTorch). For even more developer context, set "
    'TORCH_LOGS="+dynamo"'
)


@dataclass
class FrameInfo:
    filename: str
    lineno: int
    name: str

    @property
    def line(self) -> str:
        return linecache.getline(self.filename, self.lineno).strip()


@dataclass
class GraphBreak(Exception):
    """One graph break (raised inside a fake trace; recorded in a segmented run)."""

    gb_type: str
    explanation: str
    hints: list[str]
    context: str
    gb_id: str
    #: What torch._dynamo.explain lists as the reason (PyTorch's text differs for some kinds).
    explain_reason: str | None = None
    user_stack: list[FrameInfo] = field(default_factory=list)
    #: A break PyTorch takes only without fullgraph (it captures the construct otherwise):
    #: keyroute runs those eagerly between graphs even under fullgraph=True.
    soft_in_fullgraph: bool = False

    def __str__(self) -> str:
        return self.message()

    def reason(self) -> str:
        if self.explain_reason is not None:
            return self.explain_reason
        return self._body()

    def _body(self) -> str:
        lines = [self.gb_type, f"  Explanation: {self.explanation}"]
        lines += [f"  Hint: {h}" for h in self.hints]
        lines += ["", f"  Developer debug context: {self.context}", ""]
        lines.append(
            f" For more details about this graph break, please visit: {_SITE}/{self.gb_id}.html"
        )
        return "\n".join(lines)

    def message(self) -> str:
        lines = [self._body(), "", "from user code:"]
        for fr in self.user_stack:
            lines.append(f'   File "{fr.filename}", line {fr.lineno}, in {fr.name}')
            lines.append(f"    {fr.line}")
        lines += ["", _VERBOSE_TAIL, ""]
        return "\n".join(lines)


def user_stack(depth: int = 2) -> list[FrameInfo]:
    """The user's frames (outside the keyroute package), outermost first, up to the frame of
    the function being compiled (marked by the capture's sentinel local)."""
    frames: list[FrameInfo] = []
    f = sys._getframe(depth)
    while f is not None:
        if f.f_code.co_name == "_kr_dynamo_call_user_fn":
            break
        fn = f.f_code.co_filename
        if not os.path.abspath(fn).startswith(_PKG_DIR + os.sep):
            frames.append(FrameInfo(fn, f.f_lineno, f.f_code.co_name))
        f = f.f_back
    frames.reverse()
    return frames


# -- the kinds of break -----------------------------------------------------------------------


def item_break() -> GraphBreak:
    return GraphBreak(
        "Unsupported Tensor.item() call with capture_scalar_outputs=False",
        "Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.",
        [
            "Set `torch._dynamo.config.capture_scalar_outputs = True` or `export "
            "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured "
            "graph."
        ],
        "call_method TensorVariable() item () {}",
        "gb0124",
        soft_in_fullgraph=True,
    )


def data_dependent_op_break(op: str = "aten._local_scalar_dense.default") -> GraphBreak:
    return GraphBreak(
        "Data dependent operator",
        f"Operator `{op}` has a non-Tensor output whose value is dependent on the data of "
        "Tensor inputs.",
        [
            "Enable tracing of data-dependent output operators with "
            "`torch._dynamo.config.capture_scalar_outputs = True`"
        ],
        op,
        "gb0033",
        soft_in_fullgraph=True,
    )


def tolist_float_break() -> GraphBreak:
    return GraphBreak(
        "Tensor.tolist() with non-integer tensor",
        "Dynamo currently does not support tracing `tolist()` on non-integer tensors.",
        [
            "Ensure the input tensor to `tolist()` is an integer type (e.g., int8, int16, int32, "
            "int64)."
        ],
        "call_method TensorVariable() to_list",
        "gb0109",
    )


def branch_break(condition: str = "") -> GraphBreak:
    expl = (
        "Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not "
        "support tracing dynamic control flow."
    )
    if condition:
        expl += (
            "\n\n      The branch condition involves a tensor computed as follows:\n"
            f"        {condition}\n    "
        )
    return GraphBreak(
        "Data-dependent branching",
        expl,
        [
            "For the common pattern `if tensor_cond: x = transform(x)` (e.g. clamping inf/nan "
            "values), consider making the code branchless by always applying the transform. "
            "Operations like torch.clamp, torch.nan_to_num, and torch.where are typically no-ops "
            "on well-behaved inputs and compile without graph breaks.",
            "This graph break is fundamental - it is unlikely that Dynamo will ever be able to "
            "trace through your code. Consider finding a workaround.",
            "Use `torch.cond` to express dynamic control flow.",
        ],
        "attempted to jump with TensorVariable()",
        "gb0170",
        explain_reason="generic_jump TensorVariable()",
    )


def print_break(types: list[str]) -> GraphBreak:
    return GraphBreak(
        "Failed to trace builtin operator",
        f"Dynamo does not know how to trace builtin operator `print` with argument types "
        f"{types} (has_kwargs False)",
        [
            f"Avoid calling builtin `print` with argument types {types}. Consider using an "
            "equivalent alternative function/method to `print`.",
            "If you are attempting to call a logging function (e.g. `print`), you can try adding "
            "it to `torch._dynamo.config.reorderable_logging_functions`.",
            "Please report an issue to PyTorch.",
        ],
        "builtin print [<class 'torch._dynamo.variables.tensor.TensorVariable'>] False",
        "gb0059",
    )


def disabled_break(fn: Any, reason: Any = None) -> GraphBreak:
    return GraphBreak(
        "Skip calling `torch.compiler.disable()`d function",
        f"Skip calling function `{fn}` since it was wrapped with `torch.compiler.disable` "
        f"(reason: {reason})",
        ["Remove the `torch.compiler.disable` call"],
        f"{fn}",
        "gb0098",
    )


def user_break(msg: str = "") -> GraphBreak:
    return GraphBreak(
        "Call to `torch._dynamo.graph_break()`",
        f"User-inserted graph break. Message: {msg or None}",
        ["Remove the `torch._dynamo.graph_break()` call."],
        "Called `torch._dynamo.graph_break()` with args `[]`, kwargs `{}`",
        "gb0025",
    )


def no_fake_break(op: str) -> GraphBreak:
    return GraphBreak(
        "Operator does not support running with fake tensors",
        "",
        [
            "see https://docs.google.com/document/d/1GgvOe7C8_NVOMLOCwDaYV1mXXyHMXY7ExoewHqooxrs"
            "/edit#heading=h.64r4npvq0w0 for how to fix"
        ],
        f"unsupported operator: {op}",
        "gb0090",
    )


def numpy_break() -> GraphBreak:
    # PyTorch traces Tensor.numpy() through its NumPy interop; keyroute cannot (a named gap):
    # it runs the call eagerly between graphs, also under fullgraph=True.
    return GraphBreak(
        "Tensor.numpy()",
        "keyroute does not trace Tensor.numpy() (PyTorch traces it through its NumPy interop).",
        [],
        "call_method TensorVariable() numpy",
        "gb0000",
        soft_in_fullgraph=True,
    )


# -- the hooks --------------------------------------------------------------------------------


class _Hooks:
    """Install / remove the capture hooks (nested captures share one installation)."""

    def __init__(self) -> None:
        self.depth = 0
        self.saved: dict[str, Any] = {}
        #: The active handler: called with a GraphBreak builder; returns a value or raises.
        self.handlers: list[Any] = []

    def install(self) -> None:
        from ..subclasses.fake_tensor import FakeTensor
        from ..tensor._tensor import Tensor

        self.depth += 1
        if self.depth > 1:
            return
        hooks = self
        saved: dict[tuple[type, str], Any] = {}
        for cls in (Tensor, FakeTensor):
            for name in ("item", "tolist", "numpy", "__bool__"):
                if name in cls.__dict__:
                    saved[(cls, name)] = cls.__dict__[name]
        self.saved = {"print": builtins.print, "methods": saved}

        def orig(t: Any, name: str) -> Any:
            for cls in type(t).__mro__:
                f = saved.get((cls, name))
                if f is not None:
                    return f
            raise AttributeError(name)  # pragma: no cover

        def item(t: Any) -> Any:
            return hooks.on_break(item_break, lambda: orig(t, "item")(t), t)

        def tolist(t: Any) -> Any:
            run = lambda: orig(t, "tolist")(t)  # noqa: E731
            if t.dtype.is_floating_point or t.dtype.is_complex:
                return hooks.on_break(tolist_float_break, run, t)
            return hooks.on_break(data_dependent_op_break, run, t)

        def numpy(t: Any, *, force: bool = False) -> Any:
            return hooks.on_break(numpy_break, lambda: orig(t, "numpy")(t, force=force), t)

        def as_bool(t: Any) -> bool:
            return hooks.on_break(branch_break, lambda: orig(t, "__bool__")(t), t)

        real_print = builtins.print

        def hooked_print(*args: Any, **kwargs: Any) -> None:
            if any(isinstance(a, Tensor) for a in args):
                types = ["Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args]
                return hooks.on_break(
                    lambda: print_break(types), lambda: real_print(*args, **kwargs), None
                )
            return real_print(*args, **kwargs)

        repl = {"item": item, "tolist": tolist, "numpy": numpy, "__bool__": as_bool}
        for cls, name in saved:
            setattr(cls, name, repl[name])
        builtins.print = hooked_print

    def uninstall(self) -> None:
        self.depth -= 1
        if self.depth:
            return
        for (cls, name), f in self.saved["methods"].items():
            setattr(cls, name, f)
        builtins.print = self.saved["print"]

    def on_break(self, make: Any, run_eagerly: Any, tensor: Any) -> Any:
        if not self.handlers:
            return run_eagerly()
        return self.handlers[-1](make, run_eagerly, tensor)


HOOKS = _Hooks()

#: How many captures are under way (torch.compiler.is_compiling()): a trace, or a segmented run.
COMPILING = [0]


class real_print:
    """Restore builtins.print while a module is imported during a capture: numba registers
    typing for `print` at import and checks it is its module's attribute, which the capture's
    hook is not (an eager kernel loading numba lazily inside a compiled call failed so)."""

    def __enter__(self) -> None:
        self.cur = builtins.print
        if HOOKS.depth:
            builtins.print = HOOKS.saved["print"]

    def __exit__(self, *exc: Any) -> None:
        builtins.print = self.cur


def user_stack_from_tb(tb: Any) -> list[FrameInfo]:
    """The user's frames of a traceback (outermost first), after the compile's own frame."""
    frames: list[FrameInfo] = []
    started = False
    while tb is not None:
        f = tb.tb_frame
        if f.f_code.co_name == "_kr_dynamo_call_user_fn":
            started = True
            frames.clear()
        elif not os.path.abspath(f.f_code.co_filename).startswith(_PKG_DIR + os.sep):
            frames.append(FrameInfo(f.f_code.co_filename, tb.tb_lineno, f.f_code.co_name))
        tb = tb.tb_next
    return frames if started or frames else []
