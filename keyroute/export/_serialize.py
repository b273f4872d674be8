"""keyroute.export.save / load: an ExportedProgram as one zip file (as PyTorch's .pt2 is).

The archive holds `graph.json` (the nodes in order: op, name, target as a qualified operator
name, arguments with node references by name, each value's shape and dtype), `signature.json`
(the input and output specs) and `state.pt` (the state dict and the graph's tensor constants,
written by keyroute.save). Loading rebuilds the Graph and GraphModule; operators are looked
up by name, so a program using a custom operator loads where that operator is registered.
"""

from __future__ import annotations

import io
import json
import operator
import zipfile
from typing import Any

from ..fx.graph import Graph
from ..fx.graph_module import GraphModule
from ..fx.node import Node
from ..tensor._tensor import Tensor

__all__ = ["save", "load"]

_FORMAT = "keyroute.export/1"


def _enc(v: Any) -> Any:
    from ..tensor.device import Device
    from ..tensor.dtype import dtype as dtype_cls

    if isinstance(v, Node):
        return {"node": v.name}
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        return v if v == v and v not in (float("inf"), float("-inf")) else {"float": repr(v)}
    if isinstance(v, (list, tuple)):
        return {"list" if isinstance(v, list) else "tuple": [_enc(x) for x in v]}
    if isinstance(v, dtype_cls):
        return {"dtype": v.name}
    if isinstance(v, Device):
        return {"device": str(v)}
    if hasattr(v, "name") and type(v).__name__ in ("memory_format", "layout"):
        return {type(v).__name__: v.name}
    raise RuntimeError(f"export.save: cannot serialize an argument of type {type(v).__name__}")


def _dec(v: Any, env: dict[str, Node]) -> Any:
    import keyroute

    if not isinstance(v, dict):
        return v
    if "node" in v:
        return env[v["node"]]
    if "list" in v:
        return [_dec(x, env) for x in v["list"]]
    if "tuple" in v:
        return tuple(_dec(x, env) for x in v["tuple"])
    if "float" in v:
        return float(v["float"])
    if "dtype" in v:
        return getattr(keyroute, v["dtype"])
    if "device" in v:
        return keyroute.device(v["device"])
    if "memory_format" in v:
        return getattr(keyroute, v["memory_format"])
    if "layout" in v:
        return getattr(keyroute, v["layout"])
    raise RuntimeError(f"export.load: unknown argument encoding {v}")


def _target(t: Any) -> str:
    if t is operator.getitem:
        return "operator.getitem"
    if isinstance(t, str):
        return t
    return f"{t.namespace}::{t._opname}.{t._overloadname}"


def _resolve(name: str) -> Any:
    import keyroute

    if name == "operator.getitem":
        return operator.getitem
    ns, _, rest = name.partition("::")
    op, _, overload = rest.partition(".")
    return getattr(getattr(getattr(keyroute.ops, ns), op), overload or "default")


def _val(n: Node) -> Any:
    v = n.meta.get("val")
    if isinstance(v, Tensor):
        return {"shape": list(v.shape), "dtype": v.dtype.name}
    return None


def save(
    ep: Any, f: Any, *, extra_files: dict[str, str] | None = None, opset_version: Any = None
) -> None:  # noqa: E501
    """Write `ep` to `f` (a path or a binary file object)."""
    import keyroute

    gm = ep.graph_module
    nodes = []
    constants = {}
    for n in gm.graph.nodes:
        rec: dict[str, Any] = {"op": n.op, "name": n.name, "val": _val(n)}
        if n.op == "call_function":
            rec["target"] = _target(n.target)
        elif n.op == "get_attr":
            rec["target"] = n.target
            constants[n.target] = getattr(gm, n.target)
        else:
            rec["target"] = n.target
        rec["args"] = _enc(tuple(n.args))
        rec["kwargs"] = {k: _enc(v) for k, v in n.kwargs.items()}
        nodes.append(rec)
    sig = ep.graph_signature
    signature = {
        "inputs": [[s.kind.name, s.name, s.target, s.persistent] for s in sig.input_specs],
        "outputs": [[s.kind.name, s.name, s.target] for s in sig.output_specs],
    }
    buf = io.BytesIO()
    keyroute.save({"state_dict": dict(ep.state_dict), "constants": constants}, buf)
    with zipfile.ZipFile(f, "w") as z:
        z.writestr("format", _FORMAT)
        z.writestr("graph.json", json.dumps({"nodes": nodes}))
        z.writestr("signature.json", json.dumps(signature))
        z.writestr("state.pt", buf.getvalue())
        for name, text in (extra_files or {}).items():
            z.writestr(f"extra/{name}", text)


def load(
    f: Any, *, extra_files: dict[str, Any] | None = None, expected_opset_version: Any = None
) -> Any:  # noqa: E501
    """Read an ExportedProgram written by save()."""
    import keyroute

    from ._program import (
        ExportedProgram,
        ExportGraphSignature,
        InputKind,
        InputSpec,
        OutputKind,
        OutputSpec,
    )

    with zipfile.ZipFile(f) as z:
        if z.read("format").decode() != _FORMAT:
            raise RuntimeError("export.load: not a keyroute exported program")
        graph = json.loads(z.read("graph.json"))
        signature = json.loads(z.read("signature.json"))
        state = keyroute.load(io.BytesIO(z.read("state.pt")), weights_only=False)
        if extra_files is not None:
            for name in list(extra_files):
                extra_files[name] = z.read(f"extra/{name}").decode()
    g = Graph()
    env: dict[str, Node] = {}
    from ..subclasses.fake_tensor import FakeTensorMode

    mode = FakeTensorMode()
    for rec in graph["nodes"]:
        args = _dec(rec["args"], env)
        kwargs = {k: _dec(v, env) for k, v in rec["kwargs"].items()}
        op = rec["op"]
        if op == "output":
            node = g.output(args[0])
        else:
            target = _resolve(rec["target"]) if op == "call_function" else rec["target"]
            node = g.create_node(op, target, tuple(args), kwargs, rec["name"])
        if rec["val"] is not None:
            with mode:
                node.meta["val"] = keyroute.empty(
                    rec["val"]["shape"], dtype=getattr(keyroute, rec["val"]["dtype"])
                )
        env[rec["name"]] = node
    gm = GraphModule(dict(state["constants"]), g, "GraphModule")
    sig = ExportGraphSignature(
        [InputSpec(InputKind[k], n, t, p) for k, n, t, p in signature["inputs"]],
        [OutputSpec(OutputKind[k], n, t) for k, n, t in signature["outputs"]],
    )
    return ExportedProgram(gm, sig, state["state_dict"])
