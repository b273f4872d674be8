"""ExportedProgram, its graph signature, and export() (see the package docstring)."""

from __future__ import annotations

import enum
import inspect
import traceback
from dataclasses import dataclass
from typing import Any

from ..fx.experimental.proxy_tensor import dispatch_trace
from ..fx.graph_module import GraphModule
from ..nn.modules.module import Module
from ..tensor._tensor import Tensor

__all__ = [
    "ExportedProgram",
    "ExportGraphSignature",
    "GuardOnDataDependentSymNode",
    "InputKind",
    "InputSpec",
    "OutputKind",
    "OutputSpec",
    "export",
]


class GuardOnDataDependentSymNode(RuntimeError):
    """Control flow on a tensor's value during export (PyTorch's error type)."""


class InputKind(enum.Enum):
    USER_INPUT = enum.auto()
    PARAMETER = enum.auto()
    BUFFER = enum.auto()
    CONSTANT_TENSOR = enum.auto()


class OutputKind(enum.Enum):
    USER_OUTPUT = enum.auto()
    BUFFER_MUTATION = enum.auto()
    USER_INPUT_MUTATION = enum.auto()


@dataclass
class InputSpec:
    kind: InputKind
    name: str
    target: str | None = None
    persistent: bool | None = None

    def __str__(self) -> str:
        s = f"{self.name}: {self.kind.name}"
        if self.target is not None:
            s += f" target='{self.target}'"
        if self.persistent is not None:
            s += f" persistent={self.persistent}"
        return s


@dataclass
class OutputSpec:
    kind: OutputKind
    name: str
    target: str | None = None

    def __str__(self) -> str:
        s = f"{self.name}: {self.kind.name}"
        if self.target is not None:
            s += f" target='{self.target}'"
        return s


class ExportGraphSignature:
    def __init__(self, input_specs: list[InputSpec], output_specs: list[OutputSpec]) -> None:
        self.input_specs = input_specs
        self.output_specs = output_specs

    def _in(self, kind: InputKind) -> tuple[str, ...]:
        return tuple(s.target for s in self.input_specs if s.kind == kind)  # type: ignore[misc]

    @property
    def parameters(self) -> tuple[str, ...]:
        return self._in(InputKind.PARAMETER)

    @property
    def buffers(self) -> tuple[str, ...]:
        return self._in(InputKind.BUFFER)

    @property
    def user_inputs(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.input_specs if s.kind == InputKind.USER_INPUT)

    @property
    def user_outputs(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.output_specs if s.kind == OutputKind.USER_OUTPUT)

    @property
    def inputs_to_parameters(self) -> dict[str, str]:
        return {s.name: s.target for s in self.input_specs if s.kind == InputKind.PARAMETER}  # type: ignore[misc]

    @property
    def inputs_to_buffers(self) -> dict[str, str]:
        return {s.name: s.target for s in self.input_specs if s.kind == InputKind.BUFFER}  # type: ignore[misc]

    @property
    def buffers_to_mutate(self) -> dict[str, str]:
        return {s.name: s.target for s in self.output_specs if s.kind == OutputKind.BUFFER_MUTATION}  # type: ignore[misc]

    @property
    def user_inputs_to_mutate(self) -> dict[str, str]:
        return {
            s.name: s.target for s in self.output_specs if s.kind == OutputKind.USER_INPUT_MUTATION
        }  # type: ignore[misc]

    def __str__(self) -> str:
        lines = [
            "# inputs",
            *map(str, self.input_specs),
            "",
            "# outputs",
            *map(str, self.output_specs),
        ]
        return "\n".join(lines)


class ExportedProgram:
    def __init__(
        self,
        graph_module: GraphModule,
        graph_signature: ExportGraphSignature,
        state_dict: dict[str, Tensor],
    ) -> None:
        self.graph_module = graph_module
        self.graph_signature = graph_signature
        self.state_dict = state_dict
        self.range_constraints: dict[Any, Any] = {}

    @property
    def graph(self) -> Any:
        return self.graph_module.graph

    def _state(self) -> list[Tensor]:
        return [
            self.state_dict[s.target]
            for s in self.graph_signature.input_specs
            if s.kind != InputKind.USER_INPUT
        ]  # type: ignore[index]

    def module(self) -> Module:
        """A Module running the program on its own parameters and buffers (mutated buffers are
        written back, as the unlifted module of PyTorch does)."""
        ep = self

        class _Exported(Module):
            def forward(self, *args: Any) -> Any:
                return ep._run(args)

        return _Exported()

    def _run(self, args: tuple[Any, ...]) -> Any:
        outs = self.graph_module(*self._state(), *args)
        sig = self.graph_signature
        user = []
        for spec, v in zip(sig.output_specs, outs):
            if spec.kind == OutputKind.BUFFER_MUTATION:
                self.state_dict[spec.target].copy_(v)  # type: ignore[index]
            elif spec.kind == OutputKind.USER_OUTPUT:
                user.append(v)
        return user[0] if len(user) == 1 else tuple(user)

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError(
            "Unable to call ExportedProgram directly. You should use `exported_program.module()` instead."  # noqa: E501
        )

    def run_decompositions(self, decomp_table: dict[Any, Any] | None = None) -> ExportedProgram:
        """Functionalize and lower to the core ATen opset (decomp_table: default
        core_aten_decompositions())."""
        from .._decomp import core_aten_decompositions
        from .._functorch.aot_autograd import make_inference_graph
        from ..subclasses.fake_tensor import FakeTensorMode

        table = core_aten_decompositions() if decomp_table is None else decomp_table
        sig = self.graph_signature
        names = [s.name for s in sig.input_specs]
        mode = FakeTensorMode()
        examples = [
            mode.from_tensor(n.meta["val"]) for n in self.graph.nodes if n.op == "placeholder"
        ]
        gm, mutated = make_inference_graph(
            self.graph_module, tuple(examples), names=names, decomposition_table=table
        )
        outs = list(gm.graph.find_nodes(op="output")[0].args[0])
        specs: list[OutputSpec] = []
        for i, idx in enumerate(mutated):
            spec = sig.input_specs[idx]
            kind = (
                OutputKind.BUFFER_MUTATION
                if spec.kind == InputKind.BUFFER
                else OutputKind.USER_INPUT_MUTATION
            )
            specs.append(
                OutputSpec(
                    kind, outs[i].name, spec.target if spec.kind == InputKind.BUFFER else spec.name
                )
            )
        for o in outs[len(mutated) :]:
            specs.append(OutputSpec(OutputKind.USER_OUTPUT, getattr(o, "name", str(o))))
        return ExportedProgram(
            gm, ExportGraphSignature(list(sig.input_specs), specs), self.state_dict
        )

    def __str__(self) -> str:
        body = self.graph_module._readable("GraphModule", "    ")
        sig = "\n".join(
            "    " + ln if ln else "    " for ln in str(self.graph_signature).splitlines()
        )
        return f"ExportedProgram:\n{body}    \nGraph signature: \n{sig}\n    \nRange constraints: {{}}\n"  # noqa: E501

    def print(self) -> None:  # noqa: A003 - PyTorch's name
        print(self)


def _user_frame(tb: Any) -> str:
    import os

    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frames = [
        f
        for f in traceback.extract_tb(tb)
        if not f.filename.startswith(("<keyroute", "<eval_with_key"))
        and not os.path.abspath(f.filename).startswith(pkg)
    ]
    if not frames:
        return ""
    f = frames[-1]
    return f"(File: {f.filename}:{f.lineno} in {f.name}, code: {f.line})"


def export(
    mod: Module,
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None = None,
    *,
    strict: bool = False,
    dynamic_shapes: Any = None,
) -> ExportedProgram:
    """Trace `mod(*args, **kwargs)` into an ExportedProgram (see the package docstring)."""
    from ..subclasses.fake_tensor import DataDependentOutputException, FakeTensorMode

    if not isinstance(mod, Module):
        raise ValueError(f"Expected `mod` to be an instance of `torch.nn.Module`, got {type(mod)}.")
    if not isinstance(args, tuple):
        raise ValueError(
            f"Expecting `args` to be a tuple of example positional inputs, got {type(args)}"
        )
    kwargs = kwargs or {}
    params = dict(mod.named_parameters())
    buffers = dict(mod.named_buffers())
    sig_params = [p for p in inspect.signature(mod.forward).parameters.values()]
    user_names = [p.name for p in sig_params[: len(args)]] + list(kwargs)
    specs = [InputSpec(InputKind.PARAMETER, "p_" + qn.replace(".", "_"), qn) for qn in params]
    specs += [InputSpec(InputKind.BUFFER, "b_" + qn.replace(".", "_"), qn, True) for qn in buffers]
    specs += [InputSpec(InputKind.USER_INPUT, n) for n in user_names]
    state_names = list(params) + list(buffers)

    def flat_fn(*flat: Any) -> Any:
        state, user = flat[: len(state_names)], flat[len(state_names) :]
        swapped = []
        for qn, v in zip(state_names, state):
            owner, attr = _owner(mod, qn)
            table = owner._parameters if attr in owner._parameters else owner._buffers
            swapped.append((table, attr, table[attr]))
            table[attr] = v
        try:
            out = mod(*user[: len(args)], **dict(zip(kwargs, user[len(args) :])))
        finally:
            for table, attr, orig in swapped:
                table[attr] = orig
        return tuple(out) if isinstance(out, (tuple, list)) else (out,)

    mode = FakeTensorMode()
    flat_in = [*params.values(), *buffers.values(), *args, *kwargs.values()]
    fakes = tuple(mode.from_tensor(t.detach()) if isinstance(t, Tensor) else t for t in flat_in)
    try:
        gm = dispatch_trace(
            flat_fn,
            fakes,
            tracing_mode="fake",
            fake_mode=mode,
            placeholder_names=[s.name for s in specs],
            flat_names=True,
            pre_dispatch=True,
        )
    except DataDependentOutputException as e:
        raise GuardOnDataDependentSymNode(
            f"Could not guard on data-dependent expression: the program reads a tensor's value "
            f"({e.func}) for control flow or a Python number, which export cannot trace "
            f"{_user_frame(e.__traceback__)}. Use torch.cond for data-dependent control flow."
        ) from e
    outs = gm.graph.find_nodes(op="output")[0].args[0]
    out_specs = [OutputSpec(OutputKind.USER_OUTPUT, getattr(o, "name", str(o))) for o in outs]
    state = {**{k: v.detach() for k, v in params.items()}, **buffers}
    return ExportedProgram(gm, ExportGraphSignature(specs, out_specs), state)


def _owner(mod: Any, qn: str) -> tuple[Any, str]:
    *path, attr = qn.split(".")
    for p in path:
        mod = getattr(mod, p)
    return mod, attr
