# ruff: noqa: E501  (one program per line reads best; they are data)
"""The in-place forms addr_ and renorm_ (and the scalar/argument checks they share with addr and
renorm): programs run under PyTorch 2.13 (tools/record_products_inplace.py ->
tests/data/products_inplace.json) and keyroute (tests/aten/test_products_inplace.py). Same
conventions as tests/layers/autograd_programs.py: each program sets `result` or raises; `log(fn)`
runs fn under a dispatch mode and returns the aten calls it saw; `st(t)` is a tensor's values,
dtype and version; an error program that mutated its input would show it in the `*_untouched`
programs."""

from __future__ import annotations

from typing import Any

from tests.layers.autograd_programs import run_code

PRELUDE = """
def mk(*shape, k=1.0, dtype=None):
    n = 1
    for s in shape:
        n *= s
    t = (torch.arange(n, dtype=torch.float64) * k + 0.3).sin().reshape(shape)
    return t.to(dtype or torch.float32)
a = mk(3, 4)
v1 = mk(3, k=1.3)
v2 = mk(4, k=0.9)
def log(fn):
    seen = []
    class Spy(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append([str(func).split('.', 1)[1], sorted((kwargs or {}).keys())])
            return func(*args, **(kwargs or {}))
    with Spy():
        fn()
    return seen
def st(t):
    return [t, str(t.dtype), t._version]
"""

PROGRAMS: dict[str, str] = {
    # ---------------------------------------------------------------- addr_: values, dtypes
    "addr_default": "s = a.clone(); r = s.addr_(v1, v2); result = [r is s, st(s)]",
    "addr_beta_alpha": "s = a.clone(); s.addr_(v1, v2, beta=0.5, alpha=2); result = st(s)",
    "addr_beta_zero_nan": "s = a.clone(); s[0, 0] = float('nan'); s.addr_(v1, v2, beta=0, alpha=3); result = st(s)",
    "addr_alpha_zero": "s = a.clone(); s.addr_(v1, v2, beta=2, alpha=0); result = st(s)",
    "addr_method_matches_functional": "s = a.clone(); s.addr_(v1, v2, beta=-1.5, alpha=0.25); result = (s - torch.addr(a, v1, v2, beta=-1.5, alpha=0.25)).abs().max().item()",
    "addr_aten_op": "s = a.clone(); r = torch.ops.aten.addr_.default(s, v1, v2, alpha=2); result = [r is s, st(s)]",
    "addr_double_vectors": "s = a.clone(); s.addr_(v1.double(), v2.double()); result = st(s)",
    "addr_half_self": "s = a.half(); s.addr_(v1, v2); result = st(s)",
    "addr_bfloat16": "s = a.bfloat16(); s.addr_(v1.bfloat16(), v2.bfloat16(), alpha=2); result = st(s)",
    "addr_float64": "s = a.double(); s.addr_(v1.double(), v2.double(), beta=3); result = st(s)",
    "addr_int": "s = torch.arange(12).reshape(3, 4); s.addr_(torch.arange(3), torch.arange(4), beta=2, alpha=3); result = st(s)",
    "addr_int_float_vectors": "s = torch.zeros(3, 4, dtype=torch.int64); s.addr_(v1, v2)",
    "addr_int_float_beta": "s = torch.zeros(3, 4, dtype=torch.int64); s.addr_(torch.arange(3), torch.arange(4), beta=1.5)",
    "addr_int_float_alpha": "s = torch.zeros(3, 4, dtype=torch.int64); s.addr_(torch.arange(3), torch.arange(4), alpha=0.5)",
    "addr_int_bool_beta": "s = torch.zeros(3, 4, dtype=torch.int64); s.addr_(torch.arange(3), torch.arange(4), beta=True)",
    "addr_float_bool_alpha": "s = a.clone(); s.addr_(v1, v2, alpha=True)",
    "addr_bool": "s = torch.tensor([[True, False, False, True]] * 3); s.addr_(torch.tensor([True, False, True]), torch.tensor([False, True, True, False])); result = st(s)",
    "addr_bool_beta_false": "s = torch.ones(3, 4, dtype=torch.bool); s.addr_(torch.tensor([True, False, True]), torch.tensor([False, True, True, False]), beta=False); result = st(s)",
    "addr_bool_float_alpha": "s = torch.zeros(3, 4, dtype=torch.bool); s.addr_(torch.ones(3, dtype=torch.bool), torch.ones(4, dtype=torch.bool), alpha=0.5)",
    "addr_complex": "s = a.to(torch.complex64); s.addr_(v1 * 1j, v2 + 1j, beta=1 - 1j, alpha=2j); result = [s.real, s.imag, s._version]",
    "addr_complex_vectors_float_self": "s = a.clone(); s.addr_(v1.to(torch.complex64), v2)",
    "addr_complex_beta_float_self": "s = a.clone(); s.addr_(v1, v2, beta=1j)",
    "addr_noncontiguous_self": "base = a.t().clone().t(); base.addr_(v1, v2); result = [st(base), base.stride()]",
    "addr_noncontiguous_vectors": "s = a.clone(); s.addr_(mk(3, 2)[:, 1], mk(2, 4)[1]); result = st(s)",
    "addr_view_writes_base": "b = mk(5, 4); s = b[1:4]; s.addr_(v1, v2); result = [st(b), b._version]",
    "addr_empty": "s = torch.zeros(0, 4); r = s.addr_(torch.zeros(0), v2); result = [r is s, list(s.shape), s._version]",
    # ---------------------------------------------------------------- addr_: errors
    "addr_vec1_2d": "a.clone().addr_(v1.reshape(3, 1), v2)",
    "addr_vec2_0d": "a.clone().addr_(v1, torch.tensor(2.0))",
    "addr_self_1d": "torch.zeros(4).addr_(v1, v2)",
    "addr_self_3d": "torch.zeros(1, 3, 4).addr_(v1, v2)",
    "addr_self_broadcastable": "torch.zeros(3, 1).addr_(v1, v2)",
    "addr_self_transposed_shape": "torch.zeros(4, 3).addr_(v1, v2)",
    "addr_self_1d_vec1_2d": "torch.zeros(4).addr_(v1.reshape(3, 1), v2)",
    "addr_expanded_self": "torch.zeros(1, 4).expand(3, 4).addr_(v1, v2)",
    "addr_partial_overlap": "s = a.clone(); s.addr_(s[:, 0], v2)",
    "addr_partial_overlap_row": "s = a.clone(); s.addr_(v1, s[0])",
    "addr_error_untouched": "s = a.clone()\ntry:\n    s.addr_(v1, v2, alpha=True)\nexcept RuntimeError:\n    pass\nresult = [(s == a).all().item(), s._version]",
    "addr_overlap_untouched": "s = a.clone()\ntry:\n    s.addr_(v1, s[0])\nexcept RuntimeError:\n    pass\nresult = [(s == a).all().item(), s._version]",
    # ---------------------------------------------------------------- addr: the shared scalar checks
    "addr_functional_bool_float_alpha": "torch.addr(torch.zeros(3, 4, dtype=torch.bool), torch.ones(3, dtype=torch.bool), torch.ones(4, dtype=torch.bool), alpha=0.5)",
    "addr_functional_bool_alpha": "torch.addr(a, v1, v2, alpha=True)",
    "addr_functional_int_bool_beta": "torch.addr(torch.zeros(3, 4, dtype=torch.int64), torch.arange(3), torch.arange(4), beta=True)",
    "addr_functional_bool_true_alpha": "r = torch.addr(torch.zeros(3, 4, dtype=torch.bool), torch.ones(3, dtype=torch.bool), torch.ones(4, dtype=torch.bool), alpha=True); result = st(r)",
    "addr_functional_complex_beta_float": "torch.addr(a, v1, v2, beta=1j)",
    # ---------------------------------------------------------------- addr_: autograd
    "addr_leaf_requires_grad": "s = a.clone().requires_grad_(); s.addr_(v1, v2)",
    "addr_leaf_no_grad": "s = a.clone().requires_grad_()\nwith torch.no_grad():\n    s.addr_(v1, v2)\nresult = [st(s.detach()), s.grad_fn is None, s.requires_grad]",
    "addr_grad_fn": "x = a.clone().requires_grad_(); s = x * 1; s.addr_(v1, v2, beta=2, alpha=3); result = [type(s.grad_fn).__name__, s._version, s.grad_fn._saved_beta, s.grad_fn._saved_alpha]",
    "addr_grads": "x = a.clone().requires_grad_(); p = v1.clone().requires_grad_(); q = v2.clone().requires_grad_(); s = x * 1; s.addr_(p, q, beta=2, alpha=3); (s * mk(3, 4, k=0.4)).sum().backward(); result = [x.grad, p.grad, q.grad]",
    "addr_grads_vectors_only": "p = v1.clone().requires_grad_(); q = v2.clone().requires_grad_(); s = a.clone(); s.addr_(p, q, alpha=-2); s.sum().backward(); result = [type(s.grad_fn).__name__, p.grad, q.grad, s._version]",
    "addr_grads_complex": "x = a.to(torch.complex64).requires_grad_(); p = (v1 * 1j).requires_grad_(); s = x * 1; s.addr_(p, v2 + 0j, beta=1j, alpha=2 - 1j); (s.abs() ** 2).sum().backward(); result = [x.grad.real, x.grad.imag, p.grad.real, p.grad.imag]",
    "addr_view_grad_fn": "x = mk(5, 4).requires_grad_(); b = x * 1; b[1:4].addr_(v1, v2); b.sum().backward(); result = [type(b.grad_fn).__name__, x.grad]",
    "addr_saved_version_error": "p0 = v1.clone().requires_grad_(); q0 = v2.clone().requires_grad_(); p = p0 * 1; s = a.clone(); s.addr_(p, q0 * 1); p.add_(1); s.sum().backward()",
    "addr_saved_vectors": "p = v1.clone().requires_grad_(); s = a.clone(); s.addr_(p, v2); g = s.grad_fn; result = [g._saved_vec1 is None, g._saved_vec2, g._saved_alpha]",
    "addr_log": "s = a.clone(); result = log(lambda: s.addr_(v1, v2, beta=2))",
    "addr_log_requires_grad": "x = a.clone().requires_grad_(); s = x * 1; result = log(lambda: s.addr_(v1, v2))",
    # ---------------------------------------------------------------- renorm_: values
    "renorm_p2_dim0": "s = a.clone(); r = s.renorm_(2, 0, 1.0); result = [r is s, st(s)]",
    "renorm_p1_dim1": "s = a.clone(); s.renorm_(1, 1, 0.5); result = st(s)",
    "renorm_pinf": "s = a.clone(); s.renorm_(float('inf'), 0, 0.5); result = st(s)",
    "renorm_p3_dim_neg": "s = mk(2, 3, 4); s.renorm_(3, -1, 0.7); result = st(s)",
    "renorm_fractional_p": "s = a.clone(); s.renorm_(0.5, 0, 2.0); result = st(s)",
    "renorm_large_maxnorm": "s = a.clone(); s.renorm_(2, 0, 100.0); result = [(s == a).all().item(), s._version]",
    "renorm_zero_maxnorm": "s = a.clone(); s.renorm_(2, 1, 0); result = st(s)",
    "renorm_int_maxnorm": "s = a.clone() * 4; s.renorm_(2, 0, 1); result = st(s)",
    "renorm_float64": "s = a.double() * 3; s.renorm_(2, 1, 1.5); result = st(s)",
    "renorm_half": "s = a.half() * 3; s.renorm_(2, 0, 1.0); result = st(s)",
    "renorm_bfloat16": "s = a.bfloat16() * 3; s.renorm_(2, 0, 1.0); result = st(s)",
    "renorm_complex": "s = a.to(torch.complex64) * (1 + 2j); s.renorm_(2, 0, 1.0); result = [s.real, s.imag, s._version]",
    "renorm_noncontiguous": "s = a.t().clone().t(); s.renorm_(2, 0, 1.0); result = [st(s), s.stride()]",
    "renorm_view_writes_base": "b = mk(5, 4) * 3; b[1:4].renorm_(2, 0, 1.0); result = [st(b), b._version]",
    "renorm_method_matches_functional": "s = a.clone() * 2; s.renorm_(2, 1, 0.8); result = (s - torch.renorm(a * 2, 2, 1, 0.8)).abs().max().item()",
    "renorm_aten_op": "s = a.clone(); r = torch.ops.aten.renorm_.default(s, 2, 0, 0.5); result = [r is s, st(s)]",
    "renorm_empty": "s = torch.zeros(0, 4); r = s.renorm_(2, 0, 1.0); result = [r is s, list(s.shape), s._version]",
    # ---------------------------------------------------------------- renorm_ / renorm: errors and their order
    "renorm_1d": "torch.zeros(3).renorm_(2, 0, 1.0)",
    "renorm_p_zero": "a.clone().renorm_(0, 1, 1.0)",
    "renorm_p_negative": "a.clone().renorm_(-1, 1, 1.0)",
    "renorm_p_complex": "a.clone().renorm_(1j, 1, 1.0)",
    "renorm_maxnorm_negative": "a.clone().renorm_(2, 1, -1.0)",
    "renorm_maxnorm_complex": "a.clone().renorm_(2, 1, 1j)",
    "renorm_dim_out_of_range": "a.clone().renorm_(2, 2, 1.0)",
    "renorm_int": "torch.zeros(3, 4, dtype=torch.int32).renorm_(2, 1, 1.0)",
    "renorm_bool": "torch.zeros(3, 4, dtype=torch.bool).renorm_(2, 1, 1.0)",
    "renorm_expanded": "torch.zeros(1, 4).expand(3, 4).renorm_(2, 1, 1.0)",
    "renorm_order_1d_p_zero": "torch.zeros(3).renorm_(0, 1, 1.0)",
    "renorm_order_p_zero_maxnorm": "a.clone().renorm_(0, 5, -1.0)",
    "renorm_order_maxnorm_dim": "a.clone().renorm_(2, 5, -1.0)",
    "renorm_order_1d_dim": "torch.zeros(3).renorm_(2, 5, 1.0)",
    "renorm_order_int_dim": "torch.zeros(3, 4, dtype=torch.int64).renorm_(2, 7, 1.0)",
    "renorm_order_int_1d": "torch.zeros(3, dtype=torch.int64).renorm_(2, 1, 1.0)",
    "renorm_order_p_complex_negative_maxnorm": "a.clone().renorm_(1j, 1, -1.0)",
    "renorm_functional_p_complex": "torch.renorm(a, 1j, 1, 1.0)",
    "renorm_functional_int": "torch.renorm(torch.zeros(3, 4, dtype=torch.int64), 2, 1, 1.0)",
    "renorm_functional_order": "torch.renorm(torch.zeros(3), 0, 1, -1.0)",
    "renorm_error_untouched": "s = a.clone()\ntry:\n    s.renorm_(2, 2, 1.0)\nexcept IndexError:\n    pass\nresult = [(s == a).all().item(), s._version]",
    # ---------------------------------------------------------------- renorm_: autograd
    "renorm_leaf_requires_grad": "s = a.clone().requires_grad_(); s.renorm_(2, 0, 1.0)",
    "renorm_grad_fn": "x = a.clone().requires_grad_(); s = x * 2; s.renorm_(2, 0, 1.0); result = [type(s.grad_fn).__name__, s._version, s.grad_fn._saved_p, s.grad_fn._saved_dim, s.grad_fn._saved_maxnorm, s.grad_fn._saved_self.detach()]",
    "renorm_grads": "x = a.clone().requires_grad_(); s = x * 2; s.renorm_(2, 0, 1.0); (s * mk(3, 4, k=0.4)).sum().backward(); result = x.grad",
    "renorm_grads_p1_dim1": "x = a.clone().requires_grad_(); s = x * 3; s.renorm_(1, 1, 0.5); (s * mk(3, 4, k=0.7)).sum().backward(); result = x.grad",
    "renorm_grads_match_functional": "x = a.clone().requires_grad_(); s = x * 2; s.renorm_(3, 1, 0.9); g = mk(3, 4, k=0.4); (s * g).sum().backward(); y = a.clone().requires_grad_(); (torch.renorm(y * 2, 3, 1, 0.9) * g).sum().backward(); result = (x.grad - y.grad).abs().max().item()",
    "renorm_view_grad_fn": "x = mk(5, 4).requires_grad_(); b = x * 3; b[1:4].renorm_(2, 0, 1.0); b.sum().backward(); result = [type(b.grad_fn).__name__, x.grad]",
    "renorm_log": "s = a.clone(); result = log(lambda: s.renorm_(2, 0, 1.0))",
    "renorm_log_requires_grad": "x = a.clone().requires_grad_(); s = x * 1; result = log(lambda: s.renorm_(2, 0, 1.0))",
    "renorm_leaf_no_grad": "s = a.clone().requires_grad_()\nwith torch.no_grad():\n    s.renorm_(2, 0, 1.0)\nresult = [st(s.detach()), s.grad_fn is None]",
}


def run_program(name: str, torch: Any) -> dict[str, Any]:
    return run_code(PRELUDE, PROGRAMS[name], torch)
