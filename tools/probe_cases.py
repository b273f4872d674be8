"""Adversarial bad-input probes, one set per operator family (issue 12, deliverable 2).

For every operator of a family table, the family's probes: wrong dtype, out-of-range dim,
device mix, out= of the wrong dtype or overlapping an input, empty and 0-d inputs; then bad
arguments to the views, indexing, creation and nn.functional operators, one probe each. Each probe
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

# Views, indexing, creation and nn.functional: the argument shapes differ per operator, so each
# probe names its operator (`torch.<op>`, `Tensor.<method>` or `nn.functional.<fn>`).
_EXTRA = {
    # views
    "view/view/size_mismatch": ("Tensor.view", "x = torch.arange(6.)", "f(x, 4)"),
    "view/view/two_minus_one": ("Tensor.view", "x = torch.arange(6.)", "f(x, -1, -1)"),
    "view/view/non_contiguous": (
        "Tensor.view",
        "x = torch.arange(6.).reshape(2, 3).t()",
        "f(x, 6)",
    ),
    "view/view/negative_size": ("Tensor.view", "x = torch.arange(6.)", "f(x, -2, 3)"),
    "view/reshape/size_mismatch": ("reshape", "x = torch.arange(6.)", "f(x, (4, 2))"),
    "view/reshape/float_size": ("reshape", "x = torch.arange(6.)", "f(x, (2.0, 3))"),
    "view/transpose/dim_high": ("transpose", "x = torch.ones(2, 3)", "f(x, 0, 2)"),
    "view/transpose/zero_dim": ("transpose", "x = torch.tensor(1.)", "f(x, 0, 0)"),
    "view/permute/repeated": ("permute", "x = torch.ones(2, 3)", "f(x, (0, 0))"),
    "view/permute/too_few": ("permute", "x = torch.ones(2, 3)", "f(x, (0,))"),
    "view/squeeze/dim_high": ("squeeze", "x = torch.ones(2, 1)", "f(x, 2)"),
    "view/unsqueeze/dim_high": ("unsqueeze", "x = torch.ones(2, 3)", "f(x, 3)"),
    "view/unsqueeze/dim_low": ("unsqueeze", "x = torch.ones(2, 3)", "f(x, -4)"),
    "view/narrow/past_end": ("narrow", "x = torch.arange(5.)", "f(x, 0, 3, 3)"),
    "view/narrow/negative_length": ("narrow", "x = torch.arange(5.)", "f(x, 0, 1, -1)"),
    "view/select/out_of_range": ("select", "x = torch.ones(2, 3)", "f(x, 1, 3)"),
    "view/select/zero_dim": ("select", "x = torch.tensor(1.)", "f(x, 0, 0)"),
    "view/expand/smaller": ("Tensor.expand", "x = torch.ones(2, 3)", "f(x, 3)"),
    "view/expand/mismatch": ("Tensor.expand", "x = torch.ones(2, 3)", "f(x, 4, 3)"),
    "view/expand/negative_new_dim": ("Tensor.expand", "x = torch.ones(3)", "f(x, -1, 3)"),
    "view/flatten/start_after_end": ("flatten", "x = torch.ones(2, 3, 4)", "f(x, 2, 1)"),
    "view/unflatten/bad_sizes": ("unflatten", "x = torch.ones(6)", "f(x, 0, (4, 2))"),
    "view/movedim/repeated": ("movedim", "x = torch.ones(2, 3)", "f(x, (0, 0), (1, 0))"),
    "view/diagonal/same_dims": ("diagonal", "x = torch.ones(2, 3)", "f(x, 0, 0, 0)"),
    "view/unfold/too_large": ("Tensor.unfold", "x = torch.arange(5.)", "f(x, 0, 6, 1)"),
    "view/unfold/zero_step": ("Tensor.unfold", "x = torch.arange(5.)", "f(x, 0, 2, 0)"),
    "view/split/zero_size": ("split", "x = torch.arange(5.)", "f(x, 0)"),
    "view/chunk/zero": ("chunk", "x = torch.arange(5.)", "f(x, 0)"),
    "view/as_strided/negative_stride": ("as_strided", "x = torch.arange(6.)", "f(x, (2,), (-1,))"),
    "view/as_strided/past_storage": ("as_strided", "x = torch.arange(6.)", "f(x, (4,), (2,))"),
    # indexing
    "index/index_select/out_of_range": (
        "index_select",
        "x = torch.arange(3.); y = torch.tensor([3])",
        "f(x, 0, y)",
    ),
    "index/index_select/float_index": (
        "index_select",
        "x = torch.arange(3.); y = torch.tensor([0.])",
        "f(x, 0, y)",
    ),
    "index/index_select/2d_index": (
        "index_select",
        "x = torch.arange(3.); y = torch.tensor([[0]])",
        "f(x, 0, y)",
    ),
    "index/gather/out_of_range": (
        "gather",
        "x = torch.arange(3.); y = torch.tensor([5])",
        "f(x, 0, y)",
    ),
    "index/gather/dim_mismatch": (
        "gather",
        "x = torch.ones(2, 2); y = torch.tensor([0])",
        "f(x, 0, y)",
    ),
    "index/scatter/out_of_range": (
        "Tensor.scatter_",
        "x = torch.zeros(3); y = torch.tensor([4]); o = torch.ones(1)",
        "f(x, 0, y, o)",
    ),
    "index/scatter/dtype_mismatch": (
        "Tensor.scatter_",
        "x = torch.zeros(3); y = torch.tensor([1]); o = torch.ones(1, dtype=torch.float64)",
        "f(x, 0, y, o)",
    ),
    "index/take/out_of_range": ("take", "x = torch.arange(3.); y = torch.tensor([3])", "f(x, y)"),
    "index/masked_select/bad_mask": (
        "masked_select",
        "x = torch.arange(3.); y = torch.tensor([1, 0, 1])",
        "f(x, y)",
    ),
    "index/masked_fill/bad_mask_dtype": (
        "Tensor.masked_fill",
        "x = torch.arange(3.); y = torch.tensor([1, 0, 1])",
        "f(x, y, 0.)",
    ),
    "index/getitem/too_many": ("Tensor.__getitem__", "x = torch.ones(2)", "f(x, (0, 0))"),
    "index/getitem/out_of_range": ("Tensor.__getitem__", "x = torch.ones(2)", "f(x, 2)"),
    "index/getitem/float": ("Tensor.__getitem__", "x = torch.ones(2)", "f(x, 0.5)"),
    "index/getitem/bool_mask_shape": (
        "Tensor.__getitem__",
        "x = torch.ones(2); y = torch.tensor([True, False, True])",
        "f(x, y)",
    ),
    "index/setitem/shape_mismatch": (
        "Tensor.__setitem__",
        "x = torch.zeros(3); y = torch.ones(2)",
        "f(x, slice(None), y)",
    ),
    "index/index_put/bad_index_dtype": (
        "Tensor.index_put_",
        "x = torch.zeros(3); y = torch.tensor([0.]); o = torch.ones(1)",
        "f(x, (y,), o)",
    ),
    # creation
    "creation/zeros/negative": ("zeros", "pass", "f(-1)"),
    "creation/zeros/float_size": ("zeros", "pass", "f(2.5)"),
    "creation/ones/bad_dtype": ("ones", "pass", "f(2, dtype='float')"),
    "creation/full/bad_value": ("full", "pass", "f((2,), 'a')"),
    "creation/arange/zero_step": ("arange", "pass", "f(0, 5, 0)"),
    "creation/arange/wrong_sign": ("arange", "pass", "f(0, 5, -1)"),
    "creation/arange/past_int64": ("arange", "pass", "f(0, 2**63)"),
    "creation/linspace/negative_steps": ("linspace", "pass", "f(0, 1, -1)"),
    "creation/eye/negative": ("eye", "pass", "f(-1)"),
    "creation/empty/meta_overflow": ("empty", "pass", "f(2**40, 2**40, device='meta')"),
    "creation/tensor/ragged": ("tensor", "pass", "f([[1, 2], [3]])"),
    "creation/tensor/string": ("tensor", "pass", "f(['a'])"),
    "creation/randint/low_ge_high": ("randint", "pass", "f(5, 5, (2,))"),
    "creation/randperm/negative": ("randperm", "pass", "f(-1)"),
    "creation/full_like/string": ("full_like", "x = torch.ones(2)", "f(x, 'a')"),
    # nn.functional
    "nn/linear/shape_mismatch": (
        "nn.functional.linear",
        "x = torch.ones(2, 3); y = torch.ones(4, 2)",
        "f(x, y)",
    ),
    "nn/linear/dtype_mismatch": (
        "nn.functional.linear",
        "x = torch.ones(2, 3); y = torch.ones(4, 3, dtype=torch.float64)",
        "f(x, y)",
    ),
    "nn/conv2d/3d_weight": (
        "nn.functional.conv2d",
        "x = torch.ones(1, 1, 4, 4); y = torch.ones(1, 1, 3)",
        "f(x, y)",
    ),
    "nn/conv2d/channels": (
        "nn.functional.conv2d",
        "x = torch.ones(1, 2, 4, 4); y = torch.ones(1, 3, 3, 3)",
        "f(x, y)",
    ),
    "nn/conv2d/kernel_too_large": (
        "nn.functional.conv2d",
        "x = torch.ones(1, 1, 2, 2); y = torch.ones(1, 1, 3, 3)",
        "f(x, y)",
    ),
    "nn/max_pool2d/zero_kernel": (
        "nn.functional.max_pool2d",
        "x = torch.ones(1, 1, 4, 4)",
        "f(x, 0)",
    ),
    "nn/max_pool2d/big_padding": (
        "nn.functional.max_pool2d",
        "x = torch.ones(1, 1, 4, 4)",
        "f(x, 2, padding=2)",
    ),
    "nn/avg_pool2d/1d_input": ("nn.functional.avg_pool2d", "x = torch.ones(4)", "f(x, 2)"),
    "nn/softmax/dim_high": ("nn.functional.softmax", "x = torch.ones(2, 3)", "f(x, 2)"),
    "nn/cross_entropy/target_range": (
        "nn.functional.cross_entropy",
        "x = torch.ones(2, 3); y = torch.tensor([0, 3])",
        "f(x, y)",
    ),
    "nn/cross_entropy/float_target_shape": (
        "nn.functional.cross_entropy",
        "x = torch.ones(2, 3); y = torch.ones(2, 2)",
        "f(x, y)",
    ),
    "nn/nll_loss/batch_mismatch": (
        "nn.functional.nll_loss",
        "x = torch.ones(2, 3); y = torch.tensor([0])",
        "f(x, y)",
    ),
    "nn/mse_loss/bad_reduction": (
        "nn.functional.mse_loss",
        "x = torch.ones(2); y = torch.ones(2)",
        "f(x, y, reduction='avg')",
    ),
    "nn/embedding/out_of_range": (
        "nn.functional.embedding",
        "x = torch.tensor([3]); y = torch.ones(3, 2)",
        "f(x, y)",
    ),
    "nn/embedding/float_indices": (
        "nn.functional.embedding",
        "x = torch.tensor([0.]); y = torch.ones(3, 2)",
        "f(x, y)",
    ),
    "nn/layer_norm/shape_mismatch": (
        "nn.functional.layer_norm",
        "x = torch.ones(2, 3)",
        "f(x, (4,))",
    ),
    "nn/dropout/bad_p": ("nn.functional.dropout", "x = torch.ones(3)", "f(x, 1.5)"),
    "nn/pad/odd_length": ("nn.functional.pad", "x = torch.ones(2, 3)", "f(x, (1,))"),
    "nn/pad/bad_mode": (
        "nn.functional.pad",
        "x = torch.ones(1, 2, 3)",
        "f(x, (1, 1), mode='wrap')",
    ),
    "nn/one_hot/float": ("nn.functional.one_hot", "x = torch.tensor([1.])", "f(x)"),
    "nn/one_hot/too_small": ("nn.functional.one_hot", "x = torch.tensor([3])", "f(x, 2)"),
    "nn/relu/out": ("nn.functional.relu", "x = torch.ones(2); o = torch.zeros(2)", "f(x, out=o)"),
    "nn/gelu/bad_approximate": (
        "nn.functional.gelu",
        "x = torch.ones(2)",
        "f(x, approximate='fast')",
    ),
    "nn/sdpa/head_mismatch": (
        "nn.functional.scaled_dot_product_attention",
        "x = torch.ones(1, 2, 4); y = torch.ones(1, 3, 5)",
        "f(x, y, y)",
    ),
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
    for name, (op, setup, call) in _EXTRA.items():
        out[name] = (op, _TEMPLATE.format(setup=setup, call=call))
    return out
