"""Record PyTorch's autograd surface: per operator sample and per aten operator.

    python tools/record_autograd_surface.py [family ...]   (default: every family)

Samples (tests/autograd/surface_harness.py): each sample of tests/ops/samples_<family>.py whose
plain run does not record an error (tests/data/ops_<family>.json.gz) runs again with its
floating-point tensor arguments requiring grad; per output: requires_grad, the grad_fn's type
name, the outcome of a backward through it and which leaves it reached. The samples of
tests/autograd/surface_samples.py (family "autograd") too.

Kernels: the kind of Autograd kernel PyTorch's codegen gives every aten operator (torchgen's
derivatives.yaml matching, as tools/autograd/gen_variable_type.py applies it, and the
registrations torch reports), as `[kind, ...]`:
  ["composite"]                      CompositeImplicitAutograd: no autograd kernel, decomposes
  ["formula", node, no_grad, outs]   a derivatives.yaml formula: the node's name, the tensor
                                     arguments that must not require grad, and the indices of
                                     the differentiable outputs
  ["out_error"]                      an out= form of a differentiable operator: refuses grad
  ["not_implemented"]                no formula: outputs get a NotImplemented node
  ["passthrough"]                    outputs never require grad
  ["manual"]                         written by hand in PyTorch (copy_, detach, resize_, ...)

Writes tests/data/autograd_surface.json.gz (families named on the command line replace their
samples; the others and the kernel table are kept). Needs torch==2.13.0 (and its torchgen).
"""

from __future__ import annotations

import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import torch  # noqa: E402

from tests.autograd.surface_harness import DATA, FAMILY, surface  # noqa: E402
from tests.autograd.surface_samples import SAMPLES  # noqa: E402
from tests.ops.harness import all_families, family_samples, recorded_samples  # noqa: E402


def kernel_table() -> dict[str, list]:
    """[kind, ...] per aten operator "name.overload" (see the module docstring)."""
    import torchgen
    from torchgen.api import cpp
    from torchgen.api.autograd import gen_differentiable_outputs, match_differentiability_info
    from torchgen.context import native_function_manager
    from torchgen.gen import parse_native_yaml
    from torchgen.model import SchemaKind
    from torchgen.packaged.autograd.gen_trace_type import MANUAL_AUTOGRAD
    from torchgen.packaged.autograd.load_derivatives import load_derivatives

    root = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    native = os.path.join(root, "ATen", "native", "native_functions.yaml")
    tags = os.path.join(root, "ATen", "native", "tags.yaml")
    infos, _ = load_derivatives(os.path.join(root, "autograd", "derivatives.yaml"), native, tags)
    functions = parse_native_yaml(native, tags).native_functions
    table: dict[str, list] = {}
    for fn in match_differentiability_info(functions, infos):
        func = fn.func.func
        overload = func.name.overload_name or "default"
        key = f"{func.name.name}.{overload}"
        qualified = f"aten::{func.name.name}" + ("" if overload == "default" else f".{overload}")
        if str(func.name.name) in MANUAL_AUTOGRAD:  # VariableTypeManual.cpp: hand-written
            table[key] = ["manual"]
            continue
        dump = torch._C._dispatch_dump(qualified).splitlines()
        # A CompositeImplicitAutograd operator decomposes for dense tensors, even where the
        # codegen also registers an Autograd kernel (for nested tensors: matmul, chunk, ...).
        if any(line.startswith("CompositeImplicitAutograd[alias]") for line in dump):
            table[key] = ["composite"]
            continue
        autograd = [line for line in dump if line.startswith("Autograd[alias]")]
        if not autograd:
            table[key] = ["passthrough"]
            continue
        if "(none) [ boxed ]" in autograd[0]:  # autogradNotImplementedFallback
            table[key] = ["not_implemented"]
            continue
        info = fn.info.get("Default") if fn.info else None
        if info is None or not info.has_derivatives:
            table[key] = ["passthrough"]
        elif func.kind() == SchemaKind.out:
            table[key] = ["out_error"]
        else:
            with_derivatives = {a.name for a in info.args_with_derivatives}
            no_grad = [
                a.name
                for a in func.arguments.flat_non_out
                if a.type.is_tensor_like()
                and a.name not in with_derivatives
                and a.name not in info.non_differentiable_arg_names
                and a.name != "output"
            ]
            with native_function_manager(fn.func):
                names = {o.name for o in gen_differentiable_outputs(fn)}
                returns = cpp.return_names(fn.func)
            outs = [i for i, n in enumerate(returns) if n in names]
            table[key] = ["formula", info.op, no_grad, outs]
    return table


def main(argv: list[str]) -> None:
    torch.set_num_threads(1)
    families = [f for f in argv if f != FAMILY] if argv else all_families()
    data: dict = {"torch_version": torch.__version__, "samples": {}}
    if argv and os.path.exists(DATA):
        with gzip.open(DATA, "rt") as f:
            old = json.load(f)
        data["samples"], data["kernels"] = old["samples"], old["kernels"]
    else:
        data["kernels"] = kernel_table()
        print(f"kernels: {len(data['kernels'])} aten operators")
    for family in families:
        plain = recorded_samples(family)
        samples = family_samples(family)
        ids = {s.id for s in samples}
        data["samples"] = {
            k: v for k, v in data["samples"].items() if v.get("family") != family or k in ids
        }
        kept = 0
        for s in samples:
            if "error" in plain[s.id]:
                data["samples"].pop(s.id, None)
                continue
            data["samples"][s.id] = {"family": family, **surface(torch, s)}
            kept += 1
        print(f"{family}: {kept} of {len(samples)} samples recorded")
    if not argv or FAMILY in argv:
        data["samples"] = {k: v for k, v in data["samples"].items() if v["family"] != FAMILY}
        for s in SAMPLES:
            data["samples"][s.id] = {"family": FAMILY, **surface(torch, s)}
        print(f"{FAMILY}: {len(SAMPLES)} samples recorded")
    with gzip.open(DATA, "wt") as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
