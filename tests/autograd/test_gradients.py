"""Every differentiable operator: gradcheck (float64 finite differences), the gradients PyTorch
computes for the same inputs (recorded), and PyTorch's graph-node name."""

from __future__ import annotations

import gzip
import json
import os

import numpy as np
import pytest

import keyroute as kr
from keyroute.autograd.derivatives import DERIVATIVES
from tests.autograd.grad_cases import CASES
from tests.autograd.grad_harness import decode, float_outputs, resolve, rng_for, run_case

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "grads.json.gz")
RECORDED = json.load(gzip.open(DATA, "rt"))["cases"]
_GAPS_FILE = os.path.join(os.path.dirname(__file__), "grad_known_gaps.txt")
GAPS = dict(
    line.rstrip("\n").split(" ", 1)
    for line in open(_GAPS_FILE)
    if line.strip() and not line.startswith("#")
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_pytorch(name: str) -> None:
    got = run_case(kr, name)
    exp = RECORDED[name]
    if name in GAPS:
        with pytest.raises(AssertionError):
            _assert_same_gradients(name, got, exp)
        pytest.xfail(GAPS[name])
    _assert_same_gradients(name, got, exp)


def _assert_same_gradients(name: str, got: dict, exp: dict) -> None:
    assert got["node"] == exp["node"], f"{name}: node {got['node']} != PyTorch's {exp['node']}"
    assert len(got["grads"]) == len(exp["grads"])
    for i, (g, e) in enumerate(zip(got["grads"], exp["grads"])):
        if e is None:
            assert g is None or not decode(g).any(), (
                f"{name}: input {i} has a gradient PyTorch lacks"
            )
            continue
        assert g is not None, f"{name}: no gradient for input {i}"
        np.testing.assert_allclose(
            decode(g), decode(e), rtol=1e-6, atol=1e-8, err_msg=f"{name} input {i}"
        )


# Cases whose outputs are not float64: finite differences are too coarse there; their gradients
# are still compared with PyTorch's above.
NOT_FLOAT64 = {"_to_copy_float32"}
# Cases whose operator reads only one triangle of a symmetric input (as PyTorch's, their
# gradient is the symmetrized one): finite differences run over symmetric perturbations.
SYMMETRIC_INPUT = {
    "_linalg_eigh",
    "linalg_eigvalsh",
    "cholesky",
    "linalg_cholesky_ex",
    "linalg_cholesky_ex_upper",
}
# CTC's log_probs gradient is PyTorch's exp(log_probs) - posterior (LossCTC.cpp), the derivative
# through a log_softmax over classes, not of the raw input: finite differences run through one.
LOG_SOFTMAX_INPUT = {"_ctc_loss", "_ctc_loss.Tensor"}


# native_layer_norm_backward's mean and rstd are arguments (constants to finite differences),
# but PyTorch's double backward differentiates them as functions of the input; with the input
# requiring grad its gradients are compared with PyTorch's only.
STATS_AS_FUNCTIONS = {"native_layer_norm_backward_input"}

# scale_grad_by_freq divides each row's gradient by its index's frequency on purpose: not the
# derivative finite differences see; compared with PyTorch's recorded gradients only.
SCALED_BY_FREQUENCY = {"_embedding_bag_freq"}


@pytest.mark.parametrize(
    "name", sorted(set(CASES) - NOT_FLOAT64 - STATS_AS_FUNCTIONS - SCALED_BY_FREQUENCY)
)
def test_gradcheck(name: str) -> None:
    op_name, args, kwargs = CASES[name](kr, rng_for(name))
    op = resolve(kr, op_name)
    written = set(op._schema.mutated_arg_indices)
    slots = []  # (arg index, list index or None) of each differentiable input
    for i, a in enumerate(args):
        if isinstance(a, (list, tuple)):
            slots += [
                (i, j) for j, x in enumerate(a) if isinstance(x, kr.Tensor) and x.requires_grad
            ]
        elif isinstance(a, kr.Tensor) and a.requires_grad:
            slots.append((i, None))
    inputs = [args[i] if j is None else args[i][j] for i, j in slots]
    # Complex inputs and outputs (torch.fft's transforms) are checked as real functions of
    # their (..., 2) real views: finite differences here are real only.
    cplx = [x.is_complex() for x in inputs]
    inputs = [
        kr.view_as_real(x.detach()).clone().requires_grad_(True) if c else x
        for x, c in zip(inputs, cplx)
    ]

    def fn(*diff):  # noqa: ANN002, ANN202
        diff = tuple(kr.view_as_complex(x) if c else x for x, c in zip(diff, cplx))
        if name in SYMMETRIC_INPUT:
            diff = tuple((x + x.mT) * 0.5 for x in diff)
        if name in LOG_SOFTMAX_INPUT:
            diff = tuple(x.log_softmax(-1) for x in diff)
        full = [list(a) if isinstance(a, (list, tuple)) else a for a in args]
        for (i, j), x in zip(slots, diff):
            if j is None:
                full[i] = x
            else:
                full[i][j] = x
        for i in written:  # an in-place op writes a fresh copy each evaluation
            full[i] = full[i] * 1
        outs = float_outputs(kr, op(*full, **kwargs))
        return tuple(kr.view_as_real(o) if o.is_complex() else o for o in outs)

    assert kr.autograd.gradcheck(fn, tuple(inputs), atol=1e-5, rtol=1e-4)


# Formulas of complex views and math bits: this harness is real float64 only, so their
# gradients are checked against PyTorch's by the grad_* programs of
# tests/layers/mathbits_programs.py instead.
COMPLEX_CASES_ELSEWHERE = {
    "_conj",
    "_neg_view",
    "_conj_physical",
    "conj_physical_",
    "view_as_real",
    "view_as_complex",
}


def test_every_derivative_has_a_case() -> None:
    covered = {CASES[n](kr, rng_for(n))[0] for n in CASES} | COMPLEX_CASES_ELSEWHERE
    missing = sorted(
        n for n in DERIVATIVES if n not in covered and n.replace(".default", "") not in covered
    )
    assert not missing, f"derivatives without a gradient case: {missing}"
