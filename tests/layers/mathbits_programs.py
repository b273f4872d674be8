# ruff: noqa: E501  (one program per line reads best; they are data)
"""Complex views and the math-bit layers (Conjugate, Negative): programs run under PyTorch
2.13 (tools/record_mathbits.py) and keyroute (tests/layers/test_mathbits.py). Same
conventions as tests/layers/autograd_programs.py; `log(fn)` runs fn under a dispatch mode and
returns the aten calls it saw."""

from __future__ import annotations

from typing import Any

from .autograd_programs import run_code

PRELUDE = """
z = torch.tensor([1+2j, 3-1j, -2+0.5j])
m = torch.tensor([[1+1j, 2-1j], [0.5j, 3+0j]])
r = torch.tensor([1.5, -2.0, 3.0])
def log(fn):
    seen = []
    class Spy(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = str(func).split('.', 1)[1]
            flags = [a.is_conj() for a in args if isinstance(a, torch.Tensor)]
            seen.append([name, flags])
            return func(*args, **(kwargs or {}))
    with Spy():
        fn()
    return seen
def ri(t):
    return [t.real.tolist(), t.imag.tolist()] if t.is_complex() else t.tolist()
"""

PROGRAMS: dict[str, str] = {
    # ---------------------------------------------------------------- conj views
    "conj_is_view": "c = z.conj(); result = [c.is_conj(), c.data_ptr() == z.data_ptr(), c._base is z]",
    "conj_values": "result = ri(z.conj())",
    "conj_real_is_self": "c = r.conj(); result = [c is r, c.is_conj()]",
    "conj_twice": "c = z.conj().conj(); result = [c.is_conj(), ri(c)]",
    "conj_function": "result = [torch.conj(z).is_conj(), torch.is_conj(z.conj())]",
    "resolve_conj": "c = z.conj().resolve_conj(); result = [c.is_conj(), ri(c), c.data_ptr() != z.data_ptr()]",
    "resolve_conj_noop": "c = z.resolve_conj(); result = c is z",
    "conj_physical": "c = torch.conj_physical(z); result = [c.is_conj(), ri(c)]",
    "conj_physical_of_conj": "c = z.conj().conj_physical(); result = [c.is_conj(), ri(c)]",
    "conj_physical_real": "c = torch.conj_physical(r); result = [c.tolist(), c is r]",
    "conj_physical_inplace": "w = z.clone(); w.conj_physical_(); result = ri(w)",
    "conj_add": "result = ri(z.conj() + 1)",
    "conj_mul_conj": "result = ri(z.conj() * z)",
    "conj_abs": "result = z.conj().abs().tolist()",
    "conj_sum": "s = z.conj().sum(); result = [s.real.item(), s.imag.item()]",
    "conj_mm": "result = ri(torch.mm(m.conj(), m))",
    "conj_matmul_t": "result = ri(m @ m.conj().t())",
    "conj_dot": "d = torch.dot(z.conj(), z); result = [d.real.item(), d.imag.item()]",
    "vdot": "d = torch.vdot(z, z); result = [d.real.item(), d.imag.item()]",
    "conj_clone": "c = z.conj().clone(); result = [c.is_conj(), ri(c)]",
    "conj_copy_into": "w = torch.zeros(3, dtype=torch.complex64); w.copy_(z.conj()); result = [w.is_conj(), ri(w)]",
    "copy_into_conj": "w = z.clone(); w.conj().copy_(torch.ones(3, dtype=torch.complex64) * 1j); result = ri(w)",
    "conj_inplace_add": "w = z.clone(); c = w.conj(); c.add_(1j); result = [ri(w), ri(c), c.is_conj()]",
    "conj_inplace_mul": "w = z.clone(); c = w.conj(); c.mul_(2); result = [ri(w), c.is_conj()]",
    "conj_view_ops": "c = z.conj(); v = c.view(3, 1); t = c[1:]; result = [v.is_conj(), t.is_conj(), ri(t)]",
    "conj_reshape_transpose": "c = m.conj(); result = [c.t().is_conj(), c.reshape(4).is_conj(), ri(c.t())]",
    "conj_expand": "c = z.conj().unsqueeze(0).expand(2, 3); result = [c.is_conj(), ri(c)]",
    "conj_tolist": "result = [[v.real, v.imag] for v in z.conj().tolist()]",
    "conj_item": "v = z[0].conj().item(); result = [v.real, v.imag]",
    "conj_repr": "result = repr(z.conj())",
    "conj_numpy_error": "z.conj().numpy()",
    "conj_numpy_resolved": "a = z.conj().resolve_conj().numpy(); result = [a.real.tolist(), a.imag.tolist()]",
    "conj_dlpack_error": "z.conj().__dlpack__()",
    "conj_np_from_dlpack_error": "import numpy as np; np.from_dlpack(z.conj())",
    "conj_dlpack_resolved": "import numpy as np; a = np.from_dlpack(z.conj().resolve_conj()); result = [a.real.tolist(), a.imag.tolist()]",
    "conj_to_dlpack_raw": "result = ri(torch.from_dlpack(torch.utils.dlpack.to_dlpack(z.conj())))",
    "neg_view_method": "n = z._neg_view(); result = [n.is_neg(), ri(n.resolve_neg()), z._conj().is_conj()]",
    "conj_eq": "result = (z.conj() == torch.conj_physical(z)).tolist()",
    "conj_exp": "result = ri(z.conj().exp())",
    "conj_cat": "result = ri(torch.cat([z.conj(), z]))",
    "conj_stack_flag": "result = torch.stack([z.conj(), z]).is_conj()",
    "conj_log_add": "result = log(lambda: z.conj() + z)",
    "conj_log_mm": "result = log(lambda: torch.mm(m.conj(), m))",
    "conj_log_dot": "result = log(lambda: torch.dot(z.conj(), z))",
    "conj_log_clone": "result = log(lambda: z.conj().clone())",
    "conj_log_resolve": "result = log(lambda: z.conj().resolve_conj())",
    "conj_log_inplace": "w = z.clone(); c = w.conj(); result = log(lambda: c.add_(1))",
    # ---------------------------------------------------------------- real / imag / view_as_*
    "real_view": "re = z.real; result = [re.tolist(), re.dtype == torch.float32, re._base is z, re.stride()]",
    "imag_view": "im = z.imag; result = [im.tolist(), im.stride(), im.storage_offset()]",
    "real_write_through": "w = z.clone(); w.real.add_(10); result = ri(w)",
    "imag_write_through": "w = z.clone(); w.imag.mul_(0); result = ri(w)",
    "real_of_real": "result = [r.real is r, r.real.tolist()]",
    "imag_of_real": "r.imag",
    "conj_imag_neg": "im = z.conj().imag; result = [im.is_neg(), im.is_conj(), im.tolist()]",
    "conj_real_no_bits": "re = z.conj().real; result = [re.is_neg(), re.is_conj(), re.tolist()]",
    "conj_imag_write": "w = z.clone(); w.conj().imag.add_(10); result = ri(w)",
    "conj_imag_shares": "w = z.clone(); result = w.conj().imag.data_ptr() == w.imag.data_ptr()",
    "view_as_real": "v = torch.view_as_real(z); result = [v.tolist(), v.shape, v.stride(), v.dtype == torch.float32]",
    "view_as_real_write": "w = z.clone(); torch.view_as_real(w)[:, 1] = 0; result = ri(w)",
    "view_as_real_conj_error": "torch.view_as_real(z.conj())",
    "view_as_real_real_error": "torch.view_as_real(r)",
    "view_as_complex": "v = torch.view_as_complex(torch.arange(6.).reshape(3, 2)); result = [ri(v), v.dtype == torch.complex64]",
    "view_as_complex_double": "v = torch.view_as_complex(torch.arange(4., dtype=torch.float64).reshape(2, 2)); result = str(v.dtype)",
    "view_as_complex_bad_last": "torch.view_as_complex(torch.arange(6.).reshape(2, 3))",
    "view_as_complex_bad_stride": "torch.view_as_complex(torch.arange(6.).reshape(2, 3).t())",
    "view_as_complex_bad_dtype": "torch.view_as_complex(torch.arange(4).reshape(2, 2))",
    "view_as_complex_roundtrip": "v = torch.view_as_complex(torch.view_as_real(z)); result = [ri(v), v.data_ptr() == z.data_ptr()]",
    "view_as_complex_shares": "f = torch.zeros(2, 2); v = torch.view_as_complex(f); v.add_(1j); result = f.tolist()",
    # ---------------------------------------------------------------- negative views
    "neg_view": "n = torch._neg_view(r); result = [n.is_neg(), n.tolist(), n.data_ptr() == r.data_ptr()]",
    "neg_view_twice": "n = torch._neg_view(torch._neg_view(r)); result = [n.is_neg(), n.tolist()]",
    "resolve_neg": "n = torch._neg_view(r).resolve_neg(); result = [n.is_neg(), n.tolist()]",
    "resolve_neg_noop": "result = r.resolve_neg() is r",
    "neg_add": "result = (torch._neg_view(r) + 1).tolist()",
    "neg_inplace_write_through": "w = r.clone(); n = torch._neg_view(w); n.add_(1); result = [w.tolist(), n.tolist(), n.is_neg()]",
    "neg_clone": "c = torch._neg_view(r).clone(); result = [c.is_neg(), c.tolist()]",
    "neg_copy": "w = torch.zeros(3); w.copy_(torch._neg_view(r)); result = w.tolist()",
    "neg_tolist_item": "n = torch._neg_view(r); result = [n.tolist(), n[0].item()]",
    "neg_numpy_error": "torch._neg_view(r).numpy()",
    "neg_repr": "result = repr(torch._neg_view(r))",
    "neg_log_add": "result = log(lambda: torch._neg_view(r) + r)",
    "neg_mm": "a = torch.arange(4.).reshape(2, 2); result = torch.mm(torch._neg_view(a), a).tolist()",
    # ---------------------------------------------------------------- complex ops
    "complex_abs_angle": "result = [z.abs().tolist(), z.angle().tolist()]",
    "complex_sum_mean": "result = [ri(z.sum()), ri(z.mean())]",
    "complex_prod": "result = ri(z.prod())",
    "complex_matmul": "result = ri(m @ m)",
    "complex_exp_log": "result = [ri(z.exp()), ri(z.log())]",
    "complex_sqrt": "result = ri(z.sqrt())",
    "complex_div": "result = ri(z / (z + 1))",
    "complex_polar": "result = ri(torch.polar(r.abs(), r))",
    "complex_ctor": "result = ri(torch.complex(r, r * 2))",
    "complex_promote": "result = [str((z + r).dtype), str((z * 2.5).dtype), str((z.double() if False else z.to(torch.complex128) + r).dtype)]",
    "complex128": "w = z.to(torch.complex128); result = [str(w.dtype), str(w.real.dtype), ri(w * w)]",
    "complex_is_complex": "result = [z.is_complex(), r.is_complex(), z.is_floating_point()]",
    "complex_isreal": "result = torch.isreal(torch.tensor([1+0j, 1j])).tolist()",
    # ---------------------------------------------------------------- complex autograd
    "grad_abs": "w = z.clone().requires_grad_(); w.abs().sum().backward(); result = ri(w.grad)",
    "grad_mul_real_loss": "w = z.clone().requires_grad_(); (w * w.conj()).real.sum().backward(); result = ri(w.grad)",
    "grad_real_imag": "w = z.clone().requires_grad_(); (w.real * 2 + w.imag * 3).sum().backward(); result = ri(w.grad)",
    "grad_conj": "w = z.clone().requires_grad_(); (w.conj() * torch.tensor([1j, 1, 2])).real.sum().backward(); result = ri(w.grad)",
    "grad_view_as_real": "w = z.clone().requires_grad_(); (torch.view_as_real(w) * torch.arange(6.).reshape(3, 2)).sum().backward(); result = ri(w.grad)",
    "grad_view_as_complex": "f = torch.arange(6.).reshape(3, 2).requires_grad_(); torch.view_as_complex(f).abs().sum().backward(); result = f.grad.tolist()",
    "grad_mul_complex": "w = z.clone().requires_grad_(); c = torch.tensor([2+1j, 1j, 1]); (w * c).abs().sum().backward(); result = ri(w.grad)",
    "grad_fn_names": "w = z.clone().requires_grad_(); result = [w.conj().grad_fn.name(), w.real.grad_fn.name(), torch.view_as_real(w).grad_fn.name()]",
    "grad_neg_view": "w = r.clone().requires_grad_(); (torch._neg_view(w) * torch.tensor([1., 2., 3.])).sum().backward(); result = [w.grad.tolist(), torch._neg_view(w).grad_fn.name()]",
    "grad_conj_physical": "w = z.clone().requires_grad_(); c = torch.conj_physical(w); (c * torch.tensor([1j, 1, 2])).real.sum().backward(); result = [ri(w.grad), c.grad_fn.name()]",
    "grad_conj_physical_inplace": "w = z.clone().requires_grad_(); v = w * 1; v.conj_physical_(); (v * torch.tensor([1j, 1, 2])).real.sum().backward(); result = [ri(w.grad), v.grad_fn.name()]",
    "grad_view_as_complex_fn": "f = torch.arange(6.).reshape(3, 2).requires_grad_(); v = torch.view_as_complex(f); (v * torch.tensor([1j, 2, 1 - 1j])).real.sum().backward(); result = [f.grad.tolist(), v.grad_fn.name()]",
    "grad_complex_loss_error": "w = z.clone().requires_grad_(); (w * 2).sum().backward()",
    # ---------------------------------------------------------------- ZeroTensor
    "zero_create": "q = torch._efficientzerotensor((2, 3)); result = [q._is_zerotensor(), str(q.dtype), q.shape, q.stride(), q.is_contiguous()]",
    "zero_create_varargs": "q = torch._efficientzerotensor(2, 3, dtype=torch.int64); result = [q._is_zerotensor(), str(q.dtype)]",
    "zero_mul": "q = torch._efficientzerotensor((2, 3)); w = q * torch.ones(2, 3); result = [w._is_zerotensor(), w.shape]",
    "zero_rmul": "q = torch._efficientzerotensor((3,)); w = r * q; result = [w._is_zerotensor(), w.shape]",
    "zero_mul_broadcast_dtype": "q = torch._efficientzerotensor((3,)); w = q * torch.ones(2, 3, dtype=torch.float64); result = [w._is_zerotensor(), w.shape, str(w.dtype)]",
    "zero_mul_scalar": "q = torch._efficientzerotensor((3,)); result = (q * 2)._is_zerotensor()",
    "zero_add": "q = torch._efficientzerotensor((3,)); w = q + r; result = [w._is_zerotensor(), w.tolist()]",
    "zero_add_zero": "q = torch._efficientzerotensor((3,)); result = (q + q)._is_zerotensor()",
    "zero_mm": "q = torch._efficientzerotensor((2, 3)); w = q @ torch.ones(3, 2); result = [w._is_zerotensor(), w.tolist()]",
    "zero_exp": "q = torch._efficientzerotensor((2,)); w = q.exp(); result = [w._is_zerotensor(), w.tolist()]",
    "zero_sum": "q = torch._efficientzerotensor((2, 3)); result = q.sum().item()",
    "zero_view_keeps": "q = torch._efficientzerotensor((2, 3)); result = [q.t()._is_zerotensor(), q.view(6)._is_zerotensor(), q[0]._is_zerotensor()]",
    "zero_clone": "q = torch._efficientzerotensor((2,)); w = q.clone(); result = [w._is_zerotensor(), w.tolist()]",
    "zero_inplace_error": "torch._efficientzerotensor((2,)).add_(1)",
    "zero_copy_error": "torch._efficientzerotensor((2,)).copy_(torch.ones(2))",
    "zero_into_inplace": "w = torch.ones(2); w.add_(torch._efficientzerotensor((2,))); result = w.tolist()",
    "zero_tolist_error": "torch._efficientzerotensor((2,)).tolist()",
    "zero_numpy_error": "torch._efficientzerotensor((2,)).numpy()",
    "zero_repr": "result = repr(torch._efficientzerotensor((2, 2)))",
    "zero_to_dtype": "w = torch._efficientzerotensor((2,)).to(torch.float64); result = [w._is_zerotensor(), str(w.dtype)]",
    "zero_neg": "w = -torch._efficientzerotensor((2,)); result = [w._is_zerotensor(), w.tolist()]",
    "zero_plain_flag": "result = r._is_zerotensor()",
    # ---------------------------------------------------------------- zero tensors from autograd
    # PyTorch 2.13's derivative formulas emit _efficientzerotensor in sgn_backward (real input);
    # its codegen uses them for undefined input tangents in forward mode (keyroute's forward
    # mode is the double-vjp route: those tangents never exist, the values agree).
    "autograd_zero_sgn_grad": "x = r.clone().requires_grad_(); g, = torch.autograd.grad(torch.sgn(x), x, torch.ones(3)); result = [g._is_zerotensor(), list(g.shape), str(g.dtype), repr(g)]",
    "autograd_zero_sgn_dot_grad": "x = r.clone().requires_grad_(); torch.sgn(x).sum().backward(); result = [x.grad._is_zerotensor(), repr(x.grad)]",
    "autograd_zero_sgn_plus_x": "x = r.clone().requires_grad_(); (torch.sgn(x) + x).sum().backward(); result = [x.grad._is_zerotensor(), x.grad.tolist()]",
    "autograd_zero_sgn_times_x": "x = r.clone().requires_grad_(); (torch.sgn(x) * x).sum().backward(); result = [x.grad._is_zerotensor(), x.grad.tolist()]",
    "autograd_zero_sgn_accumulate_error": "x = r.clone().requires_grad_(); torch.sgn(x).sum().backward(); torch.sgn(x).sum().backward()",
    "autograd_zero_sgn_log": "x = r.clone().requires_grad_(); y = torch.sgn(x); result = log(lambda: torch.autograd.grad(y, x, torch.ones(3)))",
    "autograd_zero_through_mul": "x = r.clone().requires_grad_(); y = torch.sgn(x * 2).sum(); seen = log(lambda: torch.autograd.grad(y, x)); g, = torch.autograd.grad(torch.sgn(x * 2).sum(), x); result = [g._is_zerotensor(), [n for n, _ in seen if 'zerotensor' in n]]",
    "autograd_zero_grad_tolist_error": "x = r.clone().requires_grad_(); g, = torch.autograd.grad(torch.sgn(x), x, torch.ones(3)); g.tolist()",
    "autograd_zero_grad_inplace_error": "x = r.clone().requires_grad_(); torch.sgn(x).sum().backward(); x.grad.add_(1)",
    "autograd_zero_grad_ops": "x = r.clone().requires_grad_(); torch.sgn(x).sum().backward(); q = x.grad; result = [q.sum().item(), (q * 3)._is_zerotensor(), (q + 1)._is_zerotensor(), (q + 1).tolist(), q.clone()._is_zerotensor()]",
    "autograd_zero_sgn_complex": "w = z.clone().requires_grad_(); g, = torch.autograd.grad(torch.sgn(w), w, torch.tensor([0.3-1j, 1+0.2j, -0.7+0.4j])); result = [g._is_zerotensor(), ri(g)]",
    "autograd_zero_func_grad": "result = torch.func.grad(lambda t: torch.sgn(t).sum())(r)._is_zerotensor()",
    "autograd_zero_vmap_grad": "result = torch.func.vmap(torch.func.grad(lambda t: torch.sgn(t).sum()))(torch.ones(2, 3))._is_zerotensor()",
    "autograd_zero_forward_ad_sgn": "fw = torch.autograd.forward_ad\nwith fw.dual_level():\n    d = fw.make_dual(r, torch.ones(3))\n    p, t = fw.unpack_dual(torch.sgn(d))\nresult = [t is None, None if t is None else [t._is_zerotensor(), t.tolist()]]",
    "autograd_zero_forward_ad_sgn_times": "fw = torch.autograd.forward_ad\nwith fw.dual_level():\n    d = fw.make_dual(r, torch.ones(3))\n    p, t = fw.unpack_dual(torch.sgn(d) * d)\nresult = [t._is_zerotensor(), t.tolist()]",
    "autograd_zero_jvp_sgn": "p, t = torch.func.jvp(torch.sgn, (r,), (torch.ones(3),)); result = [t._is_zerotensor(), t.tolist()]",
    "autograd_zero_sign_is_plain": "x = r.clone().requires_grad_(); g, = torch.autograd.grad(torch.sign(x), x, torch.ones(3)); result = [g._is_zerotensor(), g.tolist()]",
}


def run_program(name: str, torch: Any) -> dict[str, Any]:
    return run_code(PRELUDE, PROGRAMS[name], torch)
