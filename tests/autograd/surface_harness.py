"""The autograd surface of every operator sample (tests/ops/samples_*.py), on torch or keyroute.

Each sample runs again with its floating-point tensor arguments replaced by leaf copies that
require grad (an argument the operator writes in place gets a non-leaf copy, `leaf.clone()`,
so the in-place kernel runs instead of the leaf check; out= arguments are left alone). Per
output it records:

    [requires_grad, type(grad_fn).__name__ or None, backward outcome, leaves given a gradient]

where the outcome of `out.sum().backward()` (of `out.float()` for outputs that are not float32
or float64) is "ok" or "<ErrorType>: <first line>", "-" when the output does not require grad,
plus " +warning" when backward raised a UserWarning (PyTorch's warnings); the last field has
one "1"/"0" per leaf (whether its .grad is set). A non-tensor output is recorded as None. A
call that raises gives {"error": type, "msg": first line}. Shared by
tools/record_autograd_surface.py (PyTorch, recorded into tests/data/autograd_surface.json.gz)
and tests/autograd/test_autograd_surface.py.
No torch or keyroute import here.
"""

from __future__ import annotations

import gzip
import json
import os
import warnings
from typing import Any

from tests.ops.harness import Sample, rng_for, sample_by_id

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "autograd_surface.json.gz")
GAPS_FILE = os.path.join(os.path.dirname(__file__), "surface_known_gaps.txt")


def _first_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"


def resolve(M: Any, op_name: str) -> Any:
    name, _, overload = op_name.partition(".")
    return getattr(getattr(M.ops.aten, name), overload or "default")


def prepare(M: Any, sample: Sample) -> tuple[Any, tuple[Any, ...], dict[str, Any], list[Any]]:
    """The sample's operator and arguments, floating-point tensors replaced by leaf copies that
    require grad; and the leaves, in argument order."""
    args, kwargs = sample.make(M, rng_for(sample.id))
    op = resolve(M, sample.op)
    if "raw" in sample.tags:  # arguments as made; the leaves are those that require grad
        found = [
            t
            for v in (*args, *kwargs.values())
            for t in (v if isinstance(v, (list, tuple)) else (v,))
            if isinstance(t, M.Tensor) and t.requires_grad and t.grad_fn is None
        ]
        return op, tuple(args), dict(kwargs), found
    schema_args = op._schema.arguments
    by_name = {a.name: a for a in schema_args}
    leaves: list[Any] = []

    def convert(x: Any, written: bool) -> Any:
        if isinstance(x, M.Tensor) and x.is_floating_point():
            leaf = x.detach().clone().requires_grad_(True)
            leaves.append(leaf)
            return leaf.clone() if written else leaf
        if isinstance(x, (list, tuple)):
            return type(x)(convert(e, written) for e in x)
        return x

    def role(a: Any) -> tuple[bool, bool]:  # (is out=, written in place)
        if a is None:
            return False, False
        written = a.alias_info is not None and a.alias_info.is_write
        return a.is_out, written

    new_args = []
    for i, x in enumerate(args):
        is_out, written = role(schema_args[i] if i < len(schema_args) else None)
        new_args.append(x if is_out else convert(x, written))
    new_kwargs = {}
    for k, x in kwargs.items():
        is_out, written = role(by_name.get(k))
        new_kwargs[k] = x if is_out else convert(x, written)
    return op, tuple(new_args), new_kwargs, leaves


def _outputs(M: Any, out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        flat: list[Any] = []
        for o in out:
            flat.extend(_outputs(M, o))
        return flat
    return [out]


def _backward(M: Any, o: Any, leaves: list[Any]) -> tuple[str, str]:
    for leaf in leaves:
        leaf.grad = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            target = o if o.dtype in (M.float32, M.float64) else o.float()
            target.sum().backward(retain_graph=True)
            outcome = "ok"
        except Exception as e:  # noqa: BLE001 - errors are results too
            outcome = _first_line(e)[:200]
    # PyTorch-style warnings only (NumPy's RuntimeWarnings are not part of the surface); casting
    # a complex output to float warns that the imaginary part is discarded.
    if any(
        issubclass(w.category, UserWarning) and "imaginary part" not in str(w.message)
        for w in caught
    ):
        outcome += " +warning"
    return outcome, "".join("0" if leaf.grad is None else "1" for leaf in leaves)


def surface(M: Any, sample: Sample) -> dict[str, Any]:
    """The autograd surface of one sample on module M (see the module docstring)."""
    op, args, kwargs, leaves = prepare(M, sample)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = op(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        name, _, msg = _first_line(e).partition(": ")
        return {"error": name, "msg": msg[:200]}
    rows: list[Any] = []
    for o in _outputs(M, out):
        if not isinstance(o, M.Tensor):
            rows.append(None)
            continue
        fn = o.grad_fn
        name = None if fn is None else type(fn).__name__
        if o.requires_grad:
            outcome, grads = _backward(M, o, leaves)
        else:
            outcome, grads = "-", ""
        rows.append([bool(o.requires_grad), name, outcome, grads])
    return {"out": rows}


#: The family of the autograd-only samples (tests/autograd/surface_samples.py).
FAMILY = "autograd"


def find_sample(family: str, sample_id: str) -> Sample:
    if family == FAMILY:
        from tests.autograd.surface_samples import SAMPLES

        return {s.id: s for s in SAMPLES}[sample_id]
    return sample_by_id(family)[sample_id]


def load() -> dict[str, Any]:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)


def known_gaps() -> dict[str, str]:
    gaps: dict[str, str] = {}
    if os.path.exists(GAPS_FILE):
        for line in open(GAPS_FILE, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                sid, _, reason = line.partition(" ")
                gaps[sid] = reason.strip()
    return gaps


def differences(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    if "error" in expected or "error" in got:
        if "error" in expected and "error" in got:
            if (expected["error"], expected["msg"]) == (got["error"], got["msg"]):
                return []

        def show(r: dict[str, Any]) -> str:
            return f"{r['error']}: {r['msg']}" if "error" in r else f"outputs {r['out']}"

        return [f"expected {show(expected)}, got {show(got)}"]
    e, g = expected["out"], got["out"]
    if len(e) != len(g):
        return [f"expected {len(e)} outputs, got {len(g)}"]
    diffs = []
    fields = ("requires_grad", "grad_fn", "backward", "grads")
    for i, (er, gr) in enumerate(zip(e, g)):
        if er is None or gr is None:
            if er != gr:
                diffs.append(f"out[{i}]: expected {er}, got {gr}")
            continue
        for name, ev, gv in zip(fields, er, gr):
            if ev != gv:
                diffs.append(f"out[{i}].{name}: expected {ev!r}, got {gv!r}")
    return diffs


def kernel_kind(op: Any) -> list[Any]:
    """keyroute's Autograd kernel of aten operator `op` in the recorded table's terms."""
    from keyroute.dispatcher.keys import DispatchKey
    from keyroute.layers import autograd as kernels

    regs = op.kernels.get(DispatchKey.Autograd)
    if not regs:
        if op.has_kernel_for_dispatch_key(DispatchKey.CompositeImplicitAutograd):
            return ["composite"]
        return ["fallback"]  # the autograd fallback (warn mode): PyTorch's rule for custom ops
    k = regs[-1].fn
    k = getattr(k, "__self__", k)  # a bound method of the kernel object
    if isinstance(k, kernels.AutogradKernel):
        e = k.entry
        outs = sorted(e.differentiable_outputs)
        returns = op._schema.returns
        if len(returns) == 1 and str(returns[0].type).startswith("List"):
            outs = [0] if 0 in outs else []  # one Tensor[] return: PyTorch counts one output
        return ["formula", e.node_name, list(e.no_grad), outs]
    for cls, kind in kernels.KERNEL_KINDS.items():
        if isinstance(k, cls):
            return [kind]
    return [type(k).__name__]
