"""Adversarial bad-input probes, one set per operator family (issue 12, deliverable 2).

For every operator of a family table, the family's probes: wrong dtype, out-of-range dim,
device mix, out= of the wrong dtype or overlapping an input, empty and 0-d inputs. Each probe
is a snippet run with `torch` bound to the module under test and `f` to the operator (the
same `run_case` as tools/record_reliability.py); tools/record_probes.py records PyTorch's
outcomes into tests/data/probes.json; tests/reliability/test_probes.py compares keyroute's.
"""

# ruff: noqa: E501
from __future__ import annotations

# The operator tables (public names, torch.<name>) per family.
UNARY = [
    "abs", "neg", "sin", "cos", "tan", "exp", "expm1", "log", "log1p", "log2", "sqrt",
    "rsqrt", "tanh", "sigmoid", "relu", "floor", "ceil", "round", "trunc", "erf", "sign",
    "reciprocal", "asin", "acos", "atan", "sinh", "cosh", "square", "frac",
]  # fmt: skip
BINARY = [
    "add", "sub", "mul", "div", "maximum", "minimum", "pow", "atan2", "remainder", "fmod",
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "hypot", "copysign",
]  # fmt: skip
REDUCTIONS = [
    "sum", "mean", "prod", "amax", "amin", "argmax", "argmin", "std", "var", "logsumexp",
    "cumsum", "cumprod", "softmax", "log_softmax", "all", "any", "nansum",
]  # fmt: skip

# Each probe: (setup, call). The setup names every input in `inputs`; the outcome records the
# error (or the result) and the inputs after the call, so an error must leave them unchanged.
_UNARY_PROBES = {
    "bool": ("x = torch.tensor([True, False])", "f(x)"),
    "int": ("x = torch.arange(3)", "f(x)"),
    "empty": ("x = torch.empty(0)", "f(x)"),
    "zero_dim": ("x = torch.tensor(0.5)", "f(x)"),
    "out_int64": ("x = torch.arange(3.) / 4; o = torch.zeros(3, dtype=torch.int64)", "f(x, out=o)"),
    "out_overlap": ("x = torch.arange(4.) / 4; o = x[:-1]", "f(x[1:], out=o)"),
    "meta_out": ("x = torch.ones(3); o = torch.empty(3, device='meta')", "f(x, out=o)"),
    "string": ("x = 'abc'", "f(x)"),
}
_BINARY_PROBES = {
    "device_mix": ("x = torch.ones(3); y = torch.ones(3, device='meta')", "f(x, y)"),
    "broadcast": ("x = torch.ones(3); y = torch.ones(4)", "f(x, y)"),
    "empty": ("x = torch.empty(0); y = torch.empty(0)", "f(x, y)"),
    "zero_dim": ("x = torch.tensor(0.5); y = torch.tensor(0.25)", "f(x, y)"),
    "bool": ("x = torch.tensor([True, False]); y = torch.tensor([False, False])", "f(x, y)"),
    "out_int64": (
        "x = torch.ones(3) / 2; y = torch.ones(3); o = torch.zeros(3, dtype=torch.int64)",
        "f(x, y, out=o)",
    ),
    "out_overlap": ("x = torch.arange(5.) + 1; y = x[1:]", "f(x[:-1], y, out=y)"),
    "scalar_overflow": ("x = torch.tensor([1])", "f(x, 2**64)"),
    "none": ("x = torch.ones(2)", "f(x, None)"),
}
_REDUCTION_PROBES = {
    "dim_high": ("x = torch.ones(2, 3)", "f(x, 2)"),
    "dim_low": ("x = torch.ones(2, 3)", "f(x, -3)"),
    "dim_float": ("x = torch.ones(2, 3)", "f(x, 1.0)"),
    "empty_dim0": ("x = torch.empty(0, 3)", "f(x, 0)"),
    "zero_dim": ("x = torch.tensor(2.0)", "f(x, 0)"),
    "zero_dim_dim1": ("x = torch.tensor(2.0)", "f(x, 1)"),
    "bool": ("x = torch.tensor([True, False])", "f(x, 0)"),
    "int": ("x = torch.arange(4)", "f(x, 0)"),
}

_TEMPLATE = """{setup}
inputs = [v for k, v in sorted(locals().items()) if k in ('x', 'y', 'o')]
try:
    out = {call}
    err = None
except Exception as e:
    out, err = None, [type(e).__name__, (str(e).strip().splitlines() or [''])[0][:300]]
result = [err, out, inputs]"""


def probes() -> dict[str, tuple[str, str]]:
    """name -> (operator, snippet); name is family/op/probe."""
    out = {}
    for family, ops, table in (
        ("unary", UNARY, _UNARY_PROBES),
        ("binary", BINARY, _BINARY_PROBES),
        ("reduction", REDUCTIONS, _REDUCTION_PROBES),
    ):
        for op in ops:
            for probe, (setup, call) in table.items():
                out[f"{family}/{op}/{probe}"] = (op, _TEMPLATE.format(setup=setup, call=call))
    return out
