"""Reduction operators: schemas, meta functions, decompositions and their in-place/out= forms.

Reductions over dims (sum, mean, prod, nansum, amax/amin, max/min, argmax/argmin, aminmax,
var/std, var_mean/std_mean, norms, logsumexp, all/any, count_nonzero), scans (cumsum,
cumprod), softmax/log_softmax, and order statistics (topk, sort/argsort, median, nanmedian,
mode). The helpers at the top (`reduce_dims`, the zero-size checks, the dtype rules) are shared
with the CPU kernels so both layers raise PyTorch's errors from one place.

Output layout as PyTorch's: reductions, scans, softmax, topk and the order statistics return
contiguous tensors; sort/argsort return tensors laid out like their input (empty_like).

The package, in definition order: `rules.py` (the shared rules and the out= builder),
`sum_mean.py` (sum, mean, prod, nansum), `minmax.py`, `var.py`, `norm.py`, `softmax.py`
(with logsumexp), `scan.py`, `logical.py`, `sort.py` and `median.py`. The rules are
re-exported: the CPU kernels read them as `aten.reductions.<name>`.
"""

# ruff: noqa: F401  (the imports below are the re-exports)
from __future__ import annotations

# The families define their operators in this order (isort would sort it).
# isort: off
from . import rules, sum_mean, minmax, var, norm, softmax, scan, logical, sort, median

# isort: on
from .logical import all_dims
from .median import median_check
from .minmax import amax_check, aminmax_check, argmax_check
from .norm import norm_dtypes, norm_empty_check
from .rules import (
    check_dim_nonempty,
    check_empty_dims,
    check_nonempty_input,
    correction_of,
    mean_dtype,
    not_implemented,
    out_shape,
    reduce_dims,
    sum_dtype,
    var_dtype,
    warn_dof,
)
from .softmax import logsumexp_dims, logsumexp_dtype
from .sort import sort_check, sort_strides, topk_check

__all__ = [
    "reduce_dims",
    "out_shape",
    "amax_check",
    "argmax_check",
    "aminmax_check",
    "check_nonempty_input",
    "not_implemented",
    "sort_check",
    "sort_strides",
    "median_check",
    "logsumexp_dims",
    "logsumexp_dtype",
    "all_dims",
    "sum_dtype",
    "mean_dtype",
    "var_dtype",
    "check_empty_dims",
    "check_dim_nonempty",
    "correction_of",
    "warn_dof",
    "norm_dtypes",
    "norm_empty_check",
    "topk_check",
]
