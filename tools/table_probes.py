"""Bad-input probes generated from the whole aten operator table (issue 12, deliverable 2).

For every public aten overload keyroute registers, the probes are generated from its schema,
one per argument and kind of bad input:

- ``base``: every argument a plain value of its type (a float32 (2, 3) tensor, dim 1, ...);
- per Tensor argument: ``int64`` and ``bool`` (wrong dtype), ``rank0`` (a 0-d tensor),
  ``meta`` (a meta tensor among CPU ones: mismatched devices), ``empty`` (shape (0, 3));
- per ``dim``-like int argument: ``dim_high`` (5) and ``dim_low`` (-5);
- per size-like int list: ``negative_size`` ([-2, 3]);
- out= forms: ``out_int64`` (an out of the wrong dtype), ``out_alias`` (out is the first
  input), ``out_overlap`` (out partly overlaps the first input);
- in-place forms: ``inplace_expanded`` (self is an expanded tensor: internal overlap) and
  ``inplace_overlap`` (another tensor argument partly overlaps self).

A case is data: the operator's qualified name and the argument specs (tokens built by
`build`), so tests/data/table_probes.json.gz holds the cases with PyTorch 2.13's outcomes and
tests/reliability/test_table_probes.py replays them on keyroute without torch. An outcome is the
error (type and first line) or the result's signature (shape, dtype, device of each tensor), and
which tensor inputs changed, so a failed call must leave its inputs as they were.

    python tools/table_probes.py            # record PyTorch's outcomes (needs torch 2.13)
    python tools/table_probes.py --gaps     # rewrite the known-gap list from keyroute's outcomes
"""

from __future__ import annotations

import gzip
import json
import math
import os
import sys
import warnings
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "tests", "data", "table_probes.json.gz")
GAPS = os.path.join(ROOT, "tests", "reliability", "table_probe_known_gaps.txt")

# Operators left out of the probes: their outcome is not a property of the inputs (they read
# the clock, the global RNG's state in ways a bad input does not reach, or the process), or a
# bad input makes PyTorch itself abort the process.
SKIP = {
    "aten::set_.source_Storage",
    "aten::set_.source_Storage_storage_offset",
    "aten::set_.source_Tensor_storage_offset",
    "aten::lift_fresh",
    "aten::item",
    "aten::is_pinned",
    "aten::pin_memory",
}

# ----------------------------------------------------------------------------- values

_SIZE_NAMES = ("size", "sizes", "shape", "stride", "repeats", "output_size")


def _base_value(arg: Any) -> Any:
    """A plain value of arg's type, as a spec (see `build`)."""
    t = str(arg.real_type)
    name = arg.name
    if arg.is_out:
        return "O"
    if t == "Tensor":
        return "T"
    if t == "List[Tensor]":
        return ["T", "T"]
    if t == "List[Optional[Tensor]]":
        return ["Tidx"]
    if t.startswith("Optional["):
        return None
    if t == "int":
        return 1 if "dim" in name else 2
    if t == "List[int]":
        if any(s in name for s in _SIZE_NAMES):
            return [2, 3]
        return [1]
    if t == "number":
        return 2
    if t == "float":
        return 0.5
    if t == "bool":
        return False
    if t == "List[bool]":
        return [True]
    if t == "str":
        return "sum"
    if t == "ScalarType":
        return {"dtype": "float32"}
    if t == "Device":
        return "cpu"
    if t == "MemoryFormat":
        return {"memory_format": "contiguous_format"}
    if t == "Layout":
        return {"layout": "strided"}
    return {"unsupported": t}


def _is_dim(arg: Any) -> bool:
    return str(arg.real_type) == "int" and arg.name in (
        "dim",
        "dim0",
        "dim1",
        "start_dim",
        "end_dim",
    )


def _is_size(arg: Any) -> bool:
    return str(arg.real_type) == "List[int]" and any(s in arg.name for s in _SIZE_NAMES[:3])


def cases_for(op: Any) -> dict[str, dict[str, Any]]:
    """The probes of one overload: probe name -> {"op", "args", "kwargs"}."""
    schema = op._schema
    qual = schema.qualified_name
    passed = [a for a in schema.arguments if not a.has_default_value() or a.is_out]
    if any(isinstance(_base_value(a), dict) and "unsupported" in _base_value(a) for a in passed):
        return {}

    def case(overrides: dict[str, Any]) -> dict[str, Any]:
        args, kwargs = [], {}
        for a in passed:
            v = overrides.get(a.name, _base_value(a))
            if a.kwarg_only:
                kwargs[a.name] = v
            else:
                args.append(v)
        return {"op": qual, "args": args, "kwargs": kwargs}

    out: dict[str, dict[str, Any]] = {"base": case({})}
    tensors = [a for a in passed if str(a.real_type) == "Tensor" and not a.is_out]
    for a in tensors:
        for kind, spec in (
            ("int64", "Ti"),
            ("bool", "Tb"),
            ("rank0", "T0"),
            ("meta", "Tm"),
            ("empty", "Te"),
        ):
            out[f"{a.name}/{kind}"] = case({a.name: spec})
    for a in passed:
        if _is_dim(a):
            out[f"{a.name}/dim_high"] = case({a.name: 5})
            out[f"{a.name}/dim_low"] = case({a.name: -5})
        if _is_size(a):
            out[f"{a.name}/negative_size"] = case({a.name: [-2, 3]})
    outs = [a for a in passed if a.is_out]
    if outs and tensors:
        first = outs[0].name
        out["out/int64"] = case({first: "Oi"})
        out["out/alias"] = case({first: "Oalias"})
        out["out/overlap"] = case({tensors[0].name: "Tlow", first: "Ohigh"})
    written = [schema.arguments[i] for i in schema.mutated_arg_indices]
    if not outs and written and written[0].name == "self" and str(written[0].real_type) == "Tensor":
        out["inplace/expanded"] = case({"self": "Texp"})
        others = [a for a in tensors if a.name != "self"]
        if others:
            out["inplace/overlap"] = case({"self": "Tlow", others[0].name: "Thigh"})
    return {f"{qual}/{k}": v for k, v in out.items()}


def generate(torch: Any) -> dict[str, dict[str, Any]]:
    """Every probe of every public aten overload of `torch`, which must be keyroute (the table
    is keyroute's; PyTorch's schemas for these overloads are the same)."""
    from keyroute.dispatcher.operator import all_ops

    out: dict[str, dict[str, Any]] = {}
    for op in sorted(all_ops(), key=lambda o: o._schema.qualified_name if o._schema else ""):
        s = op._schema
        if s is None or s.namespace != "aten" or s.base_name.startswith("_"):
            continue
        if s.qualified_name in SKIP or s.is_vararg:
            continue
        out.update(cases_for(op))
    return out


# ----------------------------------------------------------------------------- running


def build(torch: Any, spec: Any, shared: dict[str, Any]) -> Any:
    """The value of spec: tensor tokens (T float32 (2, 3) with values 1/8..6/8, Ti int64, Tb bool,
    T0 0-d, Tm meta, Te (0, 3), Tidx the index [0, 1], Texp (1, 3) expanded to (2, 3); Tlow /
    Thigh two (2, 3) views of one buffer one element apart, Ohigh the same as an out; O an empty
    float32 out, Oi an int64 one, Oalias the first tensor input), lists of specs, {"dtype": ...}
    and friends, or a plain value."""
    if isinstance(spec, list):
        return [build(torch, s, shared) for s in spec]
    if isinstance(spec, dict):
        if "dtype" in spec:
            return getattr(torch, spec["dtype"])
        if "memory_format" in spec:
            return getattr(torch, spec["memory_format"])
        if "layout" in spec:
            return getattr(torch, spec["layout"])
        raise ValueError(spec)
    if not isinstance(spec, str) or spec[:1] not in ("T", "O"):
        return spec
    if spec in ("Tlow", "Thigh", "Ohigh"):
        if "buffer" not in shared:
            shared["buffer"] = torch.arange(1.0, 8.0) / 8
        start = 0 if spec == "Tlow" else 1
        return shared["buffer"][start : start + 6].view(2, 3)
    if spec == "Oalias":
        return shared["first"]
    base = torch.arange(1.0, 7.0).reshape(2, 3) / 8
    value = {
        "T": lambda: base,
        "Ti": lambda: torch.arange(1, 7).reshape(2, 3),
        "Tb": lambda: torch.tensor([[True, False, True], [False, True, False]]),
        "T0": lambda: torch.tensor(0.25),
        "Tm": lambda: torch.empty(2, 3, device="meta"),
        "Te": lambda: torch.empty(0, 3),
        "Tidx": lambda: torch.tensor([0, 1]),
        "Texp": lambda: (torch.arange(1.0, 4.0) / 8).reshape(1, 3).expand(2, 3),
        "O": lambda: torch.empty(0),
        "Oi": lambda: torch.empty(0, dtype=torch.int64),
    }[spec]()
    if spec.startswith("T") and "first" not in shared:
        shared["first"] = value
    return value


def _tensors(value: Any) -> list[Any]:
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    return []


def _fingerprint(t: Any) -> Any:
    if str(t.device) == "meta":
        return ["meta", list(t.shape)]
    return [list(t.shape), str(t.dtype).rpartition(".")[2], repr(t.tolist())]


def signature(value: Any) -> Any:
    """A result's JSON signature: tensors as [shape, dtype, device type]; numbers rounded."""
    if hasattr(value, "dtype") and hasattr(value, "shape") and hasattr(value, "device"):
        return [list(value.shape), str(value.dtype).rpartition(".")[2], value.device.type]
    if isinstance(value, (list, tuple)):
        return [signature(v) for v in value]
    if isinstance(value, float):
        return repr(value) if math.isnan(value) or math.isinf(value) else round(value, 5)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return type(value).__name__


def run(torch: Any, case: dict[str, Any]) -> dict[str, Any]:
    """Call the case's operator on its built arguments; the outcome (see the module docstring)."""
    name, _, overload = case["op"].partition("::")[2].partition(".")
    fn = getattr(getattr(torch.ops.aten, name), overload or "default")
    shared: dict[str, Any] = {}
    args = [build(torch, s, shared) for s in case["args"]]
    kwargs = {k: build(torch, s, shared) for k, s in case["kwargs"].items()}
    inputs = [t for v in (*args, *kwargs.values()) for t in _tensors(v)]
    before = [_fingerprint(t) for t in inputs]
    outcome: dict[str, Any]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = fn(*args, **kwargs)
            outcome = {"value": signature(result)}
        except Exception as exc:  # noqa: BLE001 - the outcome is the error
            text = str(exc).strip()
            first = text.splitlines()[0] if text else ""
            outcome = {"error": [type(exc).__name__, first.replace("keyroute.", "torch.")[:200]]}
    changed = [i for i, (t, b) in enumerate(zip(inputs, before)) if _fingerprint(t) != b]
    if changed:
        outcome["changed"] = changed
    return outcome


# ----------------------------------------------------------------------------- recording


def load() -> dict[str, Any]:
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        return json.load(f)


def _run_isolated(torch: Any, cases: list[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """Run one operator's cases in a forked child (a bad input may crash PyTorch itself: a
    segfault must not end the recording); None when the child died."""
    import pickle

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            payload = pickle.dumps({name: run(torch, case) for name, case in cases})
        except BaseException:  # noqa: BLE001 - reported to the parent as a crash
            payload = b""
        with os.fdopen(write, "wb") as f:
            f.write(payload)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        payload = f.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not payload:
        return None
    return pickle.loads(payload)


def _record() -> None:
    import torch

    import keyroute

    # PyTorch loads its Python meta registrations on the first meta call (seconds): once here,
    # before the forks, rather than in every child.
    torch.ops.aten.abs.default(torch.empty(2, device="meta"))
    by_op: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for name, case in generate(keyroute).items():
        by_op.setdefault(case["op"], []).append((name, case))
    cases, outcomes, crashed = {}, {}, []
    for i, (op, items) in enumerate(by_op.items()):
        got = _run_isolated(torch, items)
        if got is None:
            crashed.append(op)  # PyTorch itself crashed on one of them: left out
            continue
        cases.update(items)
        outcomes.update(got)
        if i % 100 == 0:
            print(f"{i}/{len(by_op)} overloads", file=sys.stderr)
    data = {
        "torch_version": torch.__version__,
        "cases": cases,
        "outcomes": outcomes,
        "torch_crashes": crashed,
    }
    with gzip.GzipFile(DATA, "wb", mtime=0) as raw:
        raw.write(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
    print(
        f"recorded {len(cases)} probes of {len(by_op) - len(crashed)} overloads "
        f"({len(crashed)} left out: PyTorch crashed on a probe: {crashed})"
    )


def difference(got: dict[str, Any], want: dict[str, Any]) -> str:
    """How keyroute's outcome differs from PyTorch's, in words ("" when they are the same)."""
    if got == want:
        return ""
    ge, we = got.get("error"), want.get("error")
    if ge and we:
        if ge[0] != we[0]:
            return f"error type differs (keyroute {ge[0]}, torch {we[0]})"
        if ge[1] != we[1]:
            return "same error type, message differs"
        return "inputs changed differently"
    if ge:
        return f"keyroute raises {ge[0]}, torch returns"
    if we:
        return f"torch raises {we[0]}, keyroute returns"
    if got.get("value") != want.get("value"):
        return "result signature differs"
    return "inputs changed differently"


def _write_gaps() -> None:
    import keyroute

    data = load()
    lines = []
    for name, case in data["cases"].items():
        why = difference(run(keyroute, case), data["outcomes"][name])
        if why:
            lines.append(f"{name} {why}\n")
    with open(GAPS, "w") as f:
        f.write(
            "# Known gaps of the table-driven probes (tests/reliability/test_table_probes.py):\n"
            "# probe name, one space, how keyroute's outcome differs from PyTorch's recorded one.\n"
            "# Regenerate with `python tools/table_probes.py --gaps`; each must still differ.\n"
        )
        f.writelines(lines)
    print(f"{len(lines)} gaps of {len(data['cases'])} probes")


def main() -> None:
    sys.path.insert(0, ROOT)
    if "--gaps" in sys.argv:
        _write_gaps()
    else:
        _record()


if __name__ == "__main__":
    main()
