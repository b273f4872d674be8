"""Autograd-surface samples for what the operator samples (tests/ops/samples_*.py) leave out:
operators without samples there, and calls whose tensors need a particular autograd state
(tagged "raw": the arguments are used as made, leaves are the tensors that require grad).

Recorded with the operator samples by tools/record_autograd_surface.py (family "autograd").
No torch or keyroute import here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.ops.harness import Sample, rand

SAMPLES: list[Sample] = []


def _add(id: str, op: str, make: Any, raw: bool = False) -> None:  # noqa: A002
    SAMPLES.append(Sample(id, op, make, tags=("raw",) if raw else ()))


def _leaf(M: Any, rng: np.random.Generator, *shape: int) -> Any:
    return rand(M, rng, shape).requires_grad_(True)


def _ints(M: Any, values: list[int]) -> Any:
    return M.from_numpy(np.asarray(values, dtype=np.int64))


# Operators without operator samples.
_add(
    "ag-embedding_renorm_",
    "embedding_renorm_",
    lambda M, rng: ((rand(M, rng, (4, 3)), _ints(M, [0, 2]), 1.0, 2.0), {}),
)
_add("ag-view_dtype_int32", "view.dtype", lambda M, rng: ((rand(M, rng, (2, 3)), M.int32), {}))
_add("ag-view_dtype_float32", "view.dtype", lambda M, rng: ((rand(M, rng, (2, 3)), M.float32), {}))
_add("ag-uniform_", "uniform_", lambda M, rng: ((rand(M, rng, (4,)), 0.5, 0.5), {}))
_add("ag-normal_", "normal_", lambda M, rng: ((rand(M, rng, (4,)), 1.5, 0.0), {}))
_add("ag-random_from", "random_.from", lambda M, rng: ((rand(M, rng, (4,)), 2, 3), {}))
_add("ag-random_to", "random_.to", lambda M, rng: ((rand(M, rng, (4,)), 1), {}))
_add("ag-bernoulli_float", "bernoulli_.float", lambda M, rng: ((rand(M, rng, (4,)), 1.0), {}))
_add("ag-lift_fresh", "lift_fresh", lambda M, rng: ((rand(M, rng, (2, 3)),), {}))
_add(
    "ag-to_copy_int64",
    "_to_copy",
    lambda M, rng: ((rand(M, rng, (3,)),), {"dtype": M.int64}),
)
_add(
    "ag-to_copy_float64",
    "_to_copy",
    lambda M, rng: ((rand(M, rng, (3,)),), {"dtype": M.float64}),
)
_add(
    "ag-index_fill_tensor_value_only",
    "index_fill.int_Tensor",
    lambda M, rng: (
        (rand(M, rng, (4, 3)).requires_grad_(False), 0, _ints(M, [1, 1]), _leaf(M, rng)),
        {},
    ),
    raw=True,
)

# The NotImplemented kernel: an out= argument that is a leaf requiring grad is refused; an
# in-place write checks the leaf; a write into a view rebases the base's history.
_add(
    "ag-relu_out_leaf_out",
    "relu.out",
    lambda M, rng: ((rand(M, rng, (3,)),), {"out": _leaf(M, rng, 3)}),
    raw=True,
)
_add(
    "ag-floor_divide__leaf",
    "floor_divide_.Scalar",
    lambda M, rng: ((_leaf(M, rng, 3), 2.0), {}),
    raw=True,
)
_add(
    "ag-floor_divide__view",
    "floor_divide_.Scalar",
    lambda M, rng: (((_leaf(M, rng, 2, 3) * 1)[0], 2.0), {}),
    raw=True,
)
_add(
    "ag-floor_divide_no_grad_input",
    "floor_divide.default",
    lambda M, rng: ((rand(M, rng, (3,)), _leaf(M, rng, 3)), {}),
    raw=True,
)

# Arguments a formula refuses to differentiate, even when no other input requires grad.
_add(
    "ag-nll_loss_weight_only",
    "nll_loss_forward",
    lambda M, rng: (
        (rand(M, rng, (2, 3)), _ints(M, [0, 2]), _leaf(M, rng, 3), 1, -100),
        {},
    ),
    raw=True,
)
# A differentiable output of an integer dtype.
_add(
    "ag-cumsum_int_dtype",
    "cumsum",
    lambda M, rng: ((_leaf(M, rng, 3), 0), {"dtype": M.int64}),
    raw=True,
)
