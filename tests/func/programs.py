"""torch.func programs run under PyTorch 2.13 (tools/record_func.py) and keyroute
(tests/func/test_func_conformance.py). Each program sets `result` (tensors, numbers, pytrees of
them) or raises; `torch`, `F`, `nn`, `func` are bound to the library under test. Inputs are
deterministic (no random draws), so both libraries see the same numbers."""

from __future__ import annotations

import sys
from typing import Any

PRELUDE = """
x = torch.arange(12.).reshape(3, 4).sin()
v = torch.arange(4.).cos()
m = torch.arange(24.).reshape(2, 3, 4).sin()
m2 = torch.arange(40.).reshape(2, 4, 5).cos()
a = torch.arange(6.).reshape(2, 3).sin()
"""

PROGRAMS: dict[str, str] = {
    # ---------------------------------------------------------------- in_dims / out_dims
    "vmap_sum": "result = func.vmap(torch.sum)(x)",
    "vmap_in_dims_1": "result = func.vmap(torch.sum, in_dims=1)(x)",
    "vmap_in_dims_negative": "result = func.vmap(lambda t: t * 2, in_dims=-1)(x)",
    "vmap_in_dims_none": "result = func.vmap(torch.dot, in_dims=(0, None))(x, v)",
    "vmap_out_dims_1": "result = func.vmap(lambda t: t * 2 + 1, out_dims=1)(x)",
    "vmap_out_dims_tuple": "result = func.vmap(lambda t: (t, t.sum()), out_dims=(1, 0))(x)",
    "vmap_out_dims_none": (
        "result = func.vmap(lambda t: (t * 2, torch.ones(2)), out_dims=(0, None))(x)"
    ),
    "vmap_unbatched_output_expanded": "result = func.vmap(lambda t: v * 1)(x)",
    "vmap_pytree_dict_in": (
        "result = func.vmap(lambda d: d['a'] * d['b'], in_dims=({'a': 0, 'b': None},))"
        "({'a': x, 'b': v})"
    ),
    "vmap_pytree_out": "result = func.vmap(lambda t: {'s': t.sum(), 'l': [t, t * 2]})(x)",
    "vmap_pytree_list_in": (
        "result = func.vmap(lambda ts: ts[0] + ts[1], in_dims=([0, 1],))([x, x.t()])"
    ),
    "vmap_kwargs_unbatched": "result = func.vmap(lambda t, scale=1.0: t * scale)(x, scale=3.0)",
    "vmap_top_level_alias": "result = torch.vmap(torch.sin)(x)",
    "vmap_nested": "result = func.vmap(func.vmap(torch.mul))(m, m)",
    "vmap_nested_in_dims": (
        "result = func.vmap(func.vmap(torch.mv, in_dims=(None, 0)), in_dims=(0, None))"
        "(m, torch.arange(8.).reshape(2, 4))"
    ),
    "vmap_nested_out_dims": (
        "result = func.vmap(func.vmap(lambda t: t.sum(), out_dims=0), out_dims=1)(m)"
    ),
    "vmap_chunk_size": "result = func.vmap(lambda t: t.softmax(0), chunk_size=2)(x)",
    "vmap_chunk_size_1_out_dims": (
        "result = func.vmap(lambda t: (t * 2, t.sum()), out_dims=(1, 0), chunk_size=1)(x)"
    ),
    # ---------------------------------------------------------------- operators
    "vmap_mm_both": "result = func.vmap(torch.mm)(m, m2)",
    "vmap_mm_left": "result = func.vmap(torch.mm, in_dims=(0, None))(m, m2[0])",
    "vmap_mm_right": "result = func.vmap(torch.mm, in_dims=(None, 0))(m[0], m2)",
    "vmap_matmul_linear": (
        "result = func.vmap(F.linear, in_dims=(0, None, None))(x, a.repeat(1, 2)[:, :4], "
        "torch.ones(2))"
    ),
    "vmap_bmm_dot_mv": (
        "result = (func.vmap(torch.bmm)(m.unsqueeze(1), m2.unsqueeze(1)), "
        "func.vmap(torch.dot)(x, x), func.vmap(torch.mv)(m, x[:2, :]))"
    ),
    "vmap_softmax": (
        "result = func.vmap(lambda t: F.softmax(t, dim=-1) + F.log_softmax(t, dim=0))(m)"
    ),
    "vmap_reductions": (
        "result = func.vmap(lambda t: (t.mean(0), t.amax(-1), t.var(1), t.argmax(), "
        "t.max(1).values, t.std(), t.sum(), t.prod(1), t.logsumexp(0), t.norm()))(m)"
    ),
    "vmap_scalar_reductions": "result = func.vmap(lambda t: (t.sum(0), t.softmax(0)))(v)",
    "vmap_views": (
        "result = func.vmap(lambda t: (t.t(), t.transpose(0, 1).reshape(-1), t.unsqueeze(1), "
        "t[1], t[:, 1:], t.permute(1, 0).flatten(), t.view(-1), t.unbind(1)[2], "
        "t.split(2, 1)[1], t.diagonal(), t.flip(0), t.movedim(0, 1)))(m)"
    ),
    "vmap_views_in_dim_2": "result = func.vmap(lambda t: (t.t() @ t).sum(0), in_dims=2)(m)",
    "vmap_expand_cat_stack": (
        "result = func.vmap(lambda t, u: (torch.cat([t, u]), torch.stack([t, u], 1), "
        "t.expand(2, 4), torch.where(t > 0, t, u)), in_dims=(0, None))(x, v)"
    ),
    "vmap_index_tensor": (
        "i = torch.tensor([0, 2])\n"
        "result = func.vmap(lambda t: (t[i], t[:, i], t[i, i], t[i, :, i]))(m.reshape(2, 3, 4)"
        ".repeat(1, 1, 1).unsqueeze(1).expand(2, 3, 3, 4))"
    ),
    "vmap_gather_scatter": (
        "idx = torch.tensor([[0, 1, 1, 0], [2, 0, 1, 3], [3, 3, 0, 1]])\n"
        "result = func.vmap(lambda t, i: (t.gather(0, i), torch.zeros(4).scatter_add(0, i, t), "
        "t.index_select(0, torch.tensor([3, 1]))))(x, idx)"
    ),
    "vmap_nn_ops": (
        "w = torch.arange(4.).cos() + 1\n"
        "b = torch.arange(4.).sin()\n"
        "emb = torch.arange(20.).reshape(5, 4).sin()\n"
        "tgt = torch.tensor([1, 0, 3])\n"
        "result = func.vmap(lambda t, y: (F.layer_norm(t, (4,), w, b), F.embedding(y, emb), "
        "F.cross_entropy(t.unsqueeze(0), y.unsqueeze(0)), F.mse_loss(t, v), F.relu(t), "
        "F.gelu(t), F.dropout(t, 0.5, training=False)))(x, tgt)"
    ),
    "vmap_conv2d_input": (
        "img = torch.arange(2 * 1 * 2 * 5 * 5.).reshape(2, 1, 2, 5, 5).sin()\n"
        "wt = torch.arange(3 * 2 * 3 * 3.).reshape(3, 2, 3, 3).cos()\n"
        "result = func.vmap(F.conv2d, in_dims=(0, None))(img, wt)"
    ),
    "vmap_conv2d_weight": (
        "img = torch.arange(1 * 2 * 5 * 5.).reshape(1, 2, 5, 5).sin()\n"
        "wt = torch.arange(2 * 3 * 2 * 3 * 3.).reshape(2, 3, 2, 3, 3).cos()\n"
        "bias = torch.arange(6.).reshape(2, 3)\n"
        "result = func.vmap(F.conv2d, in_dims=(None, 0, 0))(img, wt, bias)"
    ),
    "vmap_attention": (
        "q = torch.arange(2 * 2 * 3 * 4.).reshape(2, 2, 3, 4).sin()\n"
        "result = func.vmap(F.scaled_dot_product_attention)(q, q.cos(), q * 2)"
    ),
    "vmap_pool_pad": (
        "img = torch.arange(2 * 2 * 4 * 4.).reshape(2, 2, 4, 4).sin()\n"
        "result = func.vmap(lambda t: (F.max_pool2d(t, 2), F.avg_pool2d(t, 2), "
        "F.pad(t, (1, 1)), F.adaptive_avg_pool2d(t, 1)))(img)"
    ),
    "vmap_losses_weighted": (
        "wt = torch.tensor([1.0, 2.0, 0.5, 3.0])\n"
        "tg = torch.tensor([[1, 3], [0, -100], [2, 1]])\n"
        "xx = torch.arange(24.).reshape(3, 2, 4).sin()\n"
        "result = func.vmap(lambda t, y: (F.cross_entropy(t, y, weight=wt), "
        "F.cross_entropy(t, y, reduction='none'), F.cross_entropy(t, y, reduction='sum'), "
        "F.nll_loss(t.log_softmax(-1), y, ignore_index=-100), "
        "F.binary_cross_entropy_with_logits(t, t.sigmoid()), F.l1_loss(t, t * 2)))(xx, tg)"
    ),
    "vmap_index_put_and_setitem": (
        "i = torch.tensor([0, 2])\n"
        "def f(t):\n    u = t.clone()\n    u[i] = 7.0\n    u[1] = u[3] * 2\n    return u\n"
        "result = (func.vmap(f)(x), func.vmap(lambda t, s: t.index_put((i,), s))"
        "(x, torch.ones(3, 2)))"
    ),
    "vmap_embedding_batched_weight": (
        "emb = torch.arange(2 * 5 * 3.).reshape(2, 5, 3).sin()\n"
        "ids = torch.tensor([[0, 4, 1], [3, 3, 2]])\n"
        "result = (func.vmap(F.embedding)(ids, emb), "
        "func.vmap(F.embedding, in_dims=(None, 0))(ids[0], emb))"
    ),
    "vmap_conv_groups_padding": (
        "img = torch.arange(2 * 1 * 4 * 6 * 6.).reshape(2, 1, 4, 6, 6).sin()\n"
        "wt = torch.arange(2 * 4 * 2 * 3 * 3.).reshape(2, 4, 2, 3, 3).cos()\n"
        "result = (func.vmap(lambda i, w: F.conv2d(i, w, padding=1, groups=2))(img, wt), "
        "func.vmap(lambda i: F.conv1d(i, wt[0, :, :, 0], stride=2))(img[:, :, :, 0]))"
    ),
    "vmap_bmm_one_side": (
        "result = (func.vmap(torch.bmm, in_dims=(0, None))(m.unsqueeze(1).expand(2, 2, 3, 4), "
        "m2), func.vmap(torch.matmul)(m, m2))"
    ),
    "vmap_out_dims_negative": "result = func.vmap(lambda t: t.unsqueeze(0), out_dims=-1)(x)",
    "jacrev_chunk_size": ("result = func.jacrev(lambda t: t.cumprod(0), chunk_size=2)(v + 2)"),
    "random_same_dropout": (
        "out = func.vmap(lambda t: F.dropout(t, 0.5), randomness='same')(torch.ones(4, 6))\n"
        "result = (bool((out[0] == out[3]).all()), tuple(out.shape))"
    ),
    # ---------------------------------------------------------------- in-place
    "vmap_inplace_batched": (
        "def f(t):\n    u = t.clone()\n    u.mul_(2)\n    u.add_(1)\n    u[0] = 5.0\n    return u\n"
        "result = func.vmap(f)(x)"
    ),
    "vmap_inplace_on_input_writes_through": (
        "y = x.clone()\nfunc.vmap(lambda t: t.mul_(2))(y)\nresult = y"
    ),
    "vmap_inplace_fresh_add": "z = torch.zeros(4)\nresult = func.vmap(lambda t: z.add_(t))(x)",
    "vmap_inplace_fresh_mul": "z = torch.zeros(4)\nresult = func.vmap(lambda t: z.mul_(t))(x)",
    "vmap_inplace_captured_unchanged": (
        "z = torch.zeros(4)\n"
        "try:\n    func.vmap(lambda t: z.add_(t))(x)\nexcept RuntimeError:\n    pass\n"
        "result = z"
    ),
    # ---------------------------------------------------------------- rejected programs
    "error_item": "result = func.vmap(lambda t: t.sum().item())(x)",
    "error_control_flow": "result = func.vmap(lambda t: t if t.sum() > 0 else -t)(x)",
    "error_batch_size_mismatch": "result = func.vmap(torch.add)(x, torch.ones(2, 4))",
    "error_in_dims_structure": "result = func.vmap(torch.add, in_dims=(0, 0, 0))(x, x)",
    "error_in_dims_type": "result = func.vmap(torch.sin, in_dims=1.5)(x)",
    "error_in_dim_out_of_range": "result = func.vmap(torch.sin, in_dims=2)(x)",
    "error_in_dim_non_tensor": "result = func.vmap(lambda t, s: t * s, in_dims=(0, 0))(x, 2.0)",
    "error_non_tensor_output": "result = func.vmap(lambda t: (t, 2))(x)",
    "error_out_dims_structure": "result = func.vmap(lambda t: (t, t), out_dims=(0, 0, 0))(x)",
    "error_no_inputs": "result = func.vmap(lambda: torch.ones(2))()",
    "error_dynamic_shape": "result = func.vmap(lambda t: t.nonzero())(x)",
    "error_randomness_value": "result = func.vmap(torch.sin, randomness='sometimes')(x)",
    "error_chunk_size": "result = func.vmap(torch.sin, chunk_size=0)(x)",
    # ---------------------------------------------------------------- randomness
    "random_error": "result = func.vmap(lambda t: t + torch.rand(4))(x)",
    "random_error_like": "result = func.vmap(lambda t: torch.rand_like(t))(x)",
    "random_same": (
        "out = func.vmap(lambda t: t * 0 + torch.rand(4), randomness='same')(x)\n"
        "result = (bool((out[0] == out[1]).all()), bool((out[1] == out[2]).all()), "
        "tuple(out.shape))"
    ),
    "random_different": (
        "out = func.vmap(lambda t: t * 0 + torch.rand(4), randomness='different')(x)\n"
        "result = (bool((out[0] == out[1]).all()), tuple(out.shape))"
    ),
    "random_different_like": (
        "out = func.vmap(lambda t: torch.rand_like(t), randomness='different')(torch.zeros(3, 4))\n"
        "result = (bool((out[0] == out[1]).all()), tuple(out.shape))"
    ),
    "random_inplace_different_unbatched": (
        "z = torch.zeros(4)\nresult = func.vmap(lambda t: z.normal_(), randomness='different')(x)"
    ),
    # ---------------------------------------------------------------- fallback, custom ops
    "fallback_take": (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    out = func.vmap(lambda t: torch.take(t, torch.tensor([0, 2])))(x)\n"
        "result = (out, [str(i.message).split(' (Triggered')[0] for i in w])"
    ),
    "custom_op_without_vmap_rule": (
        "@torch.library.custom_op('funcprog::twice', mutates_args=())\n"
        "def twice(t: torch.Tensor) -> torch.Tensor:\n    return t * 2\n"
        "result = func.vmap(twice)(x)"
    ),
    "custom_op_with_vmap_rule": (
        "@torch.library.custom_op('funcprog::thrice', mutates_args=())\n"
        "def thrice(t: torch.Tensor) -> torch.Tensor:\n    return t * 3\n"
        "seen = []\n"
        "def rule(info, in_dims, t):\n"
        "    seen.append((info.batch_size, in_dims))\n"
        "    return t * 3 + 100, in_dims[0]\n"
        "torch.library.register_vmap('funcprog::thrice', rule)\n"
        "result = (func.vmap(thrice)(x), func.vmap(thrice, in_dims=1)(x), seen)"
    ),
    # ---------------------------------------------------------------- grad transforms
    "grad_basic": "result = func.grad(lambda t: (t.sin() * t).sum())(v)",
    "grad_argnums_tuple": (
        "result = func.grad(lambda p, q: (p * q.exp()).sum(), argnums=(0, 1))(v, v * 2)"
    ),
    "grad_has_aux": ("result = func.grad(lambda t: ((t ** 2).sum(), t.mean()), has_aux=True)(v)"),
    "grad_and_value": "result = func.grad_and_value(lambda t: (t ** 3).sum())(v)",
    "grad_under_no_grad": (
        "with torch.no_grad():\n    result = func.grad(lambda t: (t * t).sum())(v)"
    ),
    "grad_nested": "result = func.grad(func.grad(lambda t: t.sin()))(torch.tensor(0.7))",
    "grad_no_perturbation_confusion": (
        "def f(t):\n    return func.grad(lambda y: (t * y).sum())(t).sum()\n"
        "result = func.grad(f)(v)"
    ),
    "grad_pytree_input": (
        "result = func.grad(lambda d: (d['w'] * d['b']).sum())({'w': v, 'b': v.sin()})"
    ),
    "error_grad_non_scalar": "result = func.grad(lambda t: t * 2)(v)",
    "error_grad_argnum": "result = func.grad(lambda t: t.sum(), argnums=2)(v)",
    "error_grad_aux_not_tuple": "result = func.grad(lambda t: t.sum(), has_aux=True)(v)",
    "vjp_basic": (
        "out, fn = func.vjp(lambda t: t.sin() * 2, v)\nresult = (out, fn(torch.ones(4)))"
    ),
    "vjp_two_outputs": (
        "out, fn = func.vjp(lambda p, q: (p * q, p.sum()), v, v.cos())\n"
        "result = (out, fn((torch.ones(4), torch.tensor(2.0))))"
    ),
    "per_sample_grads_mlp": (
        "W1 = torch.arange(12.).reshape(4, 3).sin()\nW2 = torch.arange(8.).reshape(2, 4).cos()\n"
        "def loss(p, xb, yb):\n"
        "    h = torch.tanh(xb @ p['W1'].t())\n"
        "    return F.mse_loss(h @ p['W2'].t(), yb)\n"
        "xs = torch.arange(15.).reshape(5, 3).sin()\nys = torch.arange(10.).reshape(5, 2).cos()\n"
        "result = func.vmap(func.grad(loss), in_dims=(None, 0, 0))({'W1': W1, 'W2': W2}, xs, ys)"
    ),
    "per_sample_grads_cnn": (
        "class CNN(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.conv = nn.Conv2d(1, 2, 3)\n"
        "        self.fc = nn.Linear(2 * 2 * 2, 3)\n"
        "    def forward(self, t):\n"
        "        t = F.max_pool2d(F.relu(self.conv(t)), 2)\n"
        "        return self.fc(t.flatten(1))\n"
        "model = CNN()\n"
        "params = {k: torch.arange(float(p.numel())).reshape(p.shape).sin() * 0.3 "
        "for k, p in model.named_parameters()}\n"
        "def loss(p, img, label):\n"
        "    out = func.functional_call(model, p, (img.unsqueeze(0),))\n"
        "    return F.cross_entropy(out, label.unsqueeze(0))\n"
        "imgs = torch.arange(4 * 36.).reshape(4, 1, 6, 6).cos()\n"
        "labels = torch.tensor([0, 2, 1, 2])\n"
        "result = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, imgs, labels)"
    ),
    "grad_of_vmap": "result = func.grad(lambda t: func.vmap(torch.sin)(t).sum())(x)",
    "jacrev_basic": "result = func.jacrev(lambda t: t.sin() * t.sum())(v)",
    "jacrev_argnums_multi_out": (
        "result = func.jacrev(lambda p, q: (p * q, (p ** 2).sum()), argnums=(0, 1))(v, v.cos())"
    ),
    "jacrev_jacrev": "result = func.jacrev(func.jacrev(lambda t: (t ** 3).sum() * t))(v[:3])",
    "jacobian_mlp": (
        "W1 = torch.arange(12.).reshape(4, 3).sin()\nW2 = torch.arange(8.).reshape(2, 4).cos()\n"
        "f = lambda t: torch.tanh(t @ W1.t()) @ W2.t()\n"
        "t0 = torch.arange(3.).cos()\n"
        "result = (func.jacrev(f)(t0), func.jacfwd(f)(t0), "
        "func.vmap(func.jacrev(f))(torch.arange(6.).reshape(2, 3).sin()))"
    ),
    "hessian_mlp": (
        "W1 = torch.arange(12.).reshape(4, 3).sin()\nW2 = torch.arange(4.).cos()\n"
        "f = lambda t: torch.tanh(t @ W1.t()) @ W2\n"
        "result = func.hessian(f)(torch.arange(3.).cos())"
    ),
    "vmap_of_jacrev_of_grad": (
        "f = lambda t: (t.sin() ** 2).sum()\nresult = func.vmap(func.jacrev(func.grad(f)))(x)"
    ),
    "vmap_grad_unbatched_input_batched_closure": (
        "w0 = torch.tensor([1.0, 2.0, 3.0, 4.0])\n"
        "result = func.vmap(lambda xb: func.grad(lambda w: (w * xb).sum() ** 2)(w0))(x)"
    ),
    "compose_vmap_jacfwd": "result = func.vmap(func.jacfwd(lambda t: t.sin() * t.sum()))(x)",
    "compose_jacrev_of_vmap": "result = func.jacrev(func.vmap(torch.sin))(a)",
    "compose_vjp_of_vmap": (
        "out, fn = func.vjp(func.vmap(lambda t: t.exp() * t.sum()), a)\n"
        "result = (out, fn(torch.ones(2, 3)))"
    ),
    "compose_vmap_of_vjp": (
        "result = func.vmap(lambda t: func.vjp(lambda u: u.sin() * u, t)[1](t.cos())[0])(x)"
    ),
    "compose_vmap_hessian": "result = func.vmap(func.hessian(lambda t: (t ** 3).sum()))(a)",
    "compose_vmap_jvp": (
        "result = func.vmap(lambda t: func.jvp(lambda u: u.tanh() @ v, (t,), (t.cos(),)))(x)"
    ),
    "compose_grad_of_grad_in_vmap": (
        "result = func.vmap(func.grad(func.grad(lambda t: t.sin() * t)))(v)"
    ),
    # ---------------------------------------------------------------- forward mode
    "jvp_sin": "result = func.jvp(torch.sin, (v,), (torch.ones(4),))",
    "jvp_two_inputs": (
        "result = func.jvp(lambda p, q: p * q + p.exp(), (v, v.cos()), (v.sin(), torch.ones(4)))"
    ),
    "jvp_mlp": (
        "W = torch.arange(12.).reshape(4, 3).sin()\n"
        "result = func.jvp(lambda t: torch.tanh(W @ t).softmax(0), (torch.arange(3.).cos(),), "
        "(torch.ones(3),))"
    ),
    "jvp_has_aux": ("result = func.jvp(lambda t: (t.exp(), t.sum()), (v,), (v,), has_aux=True)"),
    "error_jvp_primals_not_tuple": "result = func.jvp(torch.sin, v, (v,))",
    "jacfwd_basic": "result = func.jacfwd(lambda t: t.cumsum(0) * t)(v)",
    "forward_ad_dual": (
        "fwAD = torch.autograd.forward_ad\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(v, torch.ones(4))\n"
        "    out = (d.sin() * d).sum()\n"
        "    p, t = fwAD.unpack_dual(out)\n"
        "result = (p, t)"
    ),
    "error_forward_ad_no_level": (
        "fwAD = torch.autograd.forward_ad\nresult = fwAD.make_dual(v, v)"
    ),
    "error_forward_ad_shape": (
        "fwAD = torch.autograd.forward_ad\n"
        "with fwAD.dual_level():\n    result = fwAD.make_dual(v, torch.ones(3))"
    ),
    "autograd_function_jvp": (
        "class Cube(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n        return t ** 3\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        ctx.save_for_backward(inputs[0])\n        ctx.save_for_forward(inputs[0])\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        (t,) = ctx.saved_tensors\n        return g * 3 * t ** 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tt):\n        (t,) = ctx.saved_tensors\n        return tt * 3 * t ** 2\n"
        "result = (func.jvp(Cube.apply, (v,), (torch.ones(4),)), func.grad(lambda t: Cube.apply(t)"
        ".sum())(v))"
    ),
    "autograd_function_jvp_own_formula": (
        "class Scaled(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n        return g * 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tt):\n        return tt * 5\n"
        "result = func.jvp(Scaled.apply, (v,), (torch.ones(4),))"
    ),
    "forward_ad_dual_requires_grad": (
        "fwAD = torch.autograd.forward_ad\n"
        "with fwAD.dual_level():\n    result = fwAD.make_dual(v, torch.ones(4)).requires_grad"
    ),
    # ---------------------------------------------------------------- autograd.Function rules
    "autograd_function_vmap_staticmethod": (
        "seen = []\n"
        "class Twice(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "    @staticmethod\n"
        "    def vmap(info, in_dims, t):\n"
        "        seen.append((info.batch_size, info.randomness, in_dims))\n"
        "        return Twice.apply(t) + 100, in_dims[0]\n"
        "result = (func.vmap(Twice.apply)(x), func.vmap(Twice.apply, in_dims=1)(x), seen)"
    ),
    "autograd_function_vmap_rule_out_dims_none": (
        "class Total(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t.sum()\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g\n"
        "    @staticmethod\n"
        "    def vmap(info, in_dims, t):\n"
        "        return t.sum(in_dims[0]), 0\n"
        "result = func.vmap(Total.apply)(x)"
    ),
    "autograd_function_generate_vmap_rule": (
        "class Cube(torch.autograd.Function):\n"
        "    generate_vmap_rule = True\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t ** 3\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        ctx.save_for_backward(inputs[0])\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        (t,) = ctx.saved_tensors\n"
        "        return g * 3 * t ** 2\n"
        "result = (func.vmap(Cube.apply)(x), func.vmap(Cube.apply, in_dims=1, out_dims=1)(x))"
    ),
    "autograd_function_generate_vmap_rule_grad": (
        "class Cube(torch.autograd.Function):\n"
        "    generate_vmap_rule = True\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t ** 3\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        ctx.save_for_backward(inputs[0])\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        (t,) = ctx.saved_tensors\n"
        "        return g * 3 * t ** 2 + 1\n"
        "result = (func.vmap(func.grad(lambda t: Cube.apply(t).sum()))(x), "
        "func.grad(lambda t: func.vmap(Cube.apply)(t).sum())(x))"
    ),
    "autograd_function_vmap_of_jvp": (
        "class Sq(torch.autograd.Function):\n"
        "    generate_vmap_rule = True\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * t\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        ctx.save_for_forward(inputs[0])\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        raise RuntimeError('not used')\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tt):\n"
        "        (t,) = ctx.saved_tensors\n"
        "        return tt * t * 7\n"
        "result = func.vmap(lambda t: func.jvp(Sq.apply, (t,), (torch.ones(4),)))(x)"
    ),
    "autograd_function_jvp_two_inputs": (
        "class MulAdd(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(p, q):\n"
        "        return p * q + q\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        ctx.save_for_forward(*inputs)\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g, g\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tp, tq):\n"
        "        p, q = ctx.saved_tensors\n"
        "        return tp * q + p * tq + tq * 10\n"
        "result = func.jvp(MulAdd.apply, (v, v.cos()), (torch.ones(4), v))"
    ),
    "autograd_function_forward_ad_own_jvp": (
        "fwAD = torch.autograd.forward_ad\n"
        "class Scaled(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tt):\n"
        "        return tt * 5\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(v, torch.ones(4))\n"
        "    result = fwAD.unpack_dual(Scaled.apply(d).sin())\n"
        "result = tuple(result)"
    ),
    "error_autograd_function_vmap_no_rule": (
        "class NoRule(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "result = func.vmap(NoRule.apply)(x)"
    ),
    "error_autograd_function_no_setup_context": (
        "class Old(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "result = func.vmap(Old.apply)(x)"
    ),
    "error_autograd_function_no_setup_context_grad": (
        "class Old(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "result = func.grad(lambda t: Old.apply(t).sum())(v)"
    ),
    "error_autograd_function_vmap_and_generate": (
        "class Both(torch.autograd.Function):\n"
        "    generate_vmap_rule = True\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "    @staticmethod\n"
        "    def vmap(info, in_dims, t):\n"
        "        return t * 2, in_dims[0]\n"
        "result = func.vmap(Both.apply)(x)"
    ),
    "error_autograd_function_jvp_missing": (
        "class NoJvp(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "result = func.jvp(NoJvp.apply, (v,), (v,))"
    ),
    "autograd_function_ctx_attr_vmap_grad": (
        "class Pow(torch.autograd.Function):\n"
        "    generate_vmap_rule = True\n"
        "    @staticmethod\n"
        "    def forward(t, k):\n"
        "        return t ** k\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        ctx.k = inputs[1]\n"
        "        ctx.save_for_backward(inputs[0], output)\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        t, out = ctx.saved_tensors\n"
        "        return g * ctx.k * out / t, None\n"
        "result = func.vmap(func.jacrev(lambda t: Pow.apply(t, 3)))(x + 2)"
    ),
    "autograd_function_jacfwd_own_jvp": (
        "class Scaled(torch.autograd.Function):\n"
        "    generate_vmap_rule = True\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tt):\n"
        "        return tt * 5\n"
        "result = func.jacfwd(Scaled.apply)(v)"
    ),
    "error_autograd_function_jacfwd_needs_vmap": (
        "class Scaled(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(t):\n"
        "        return t * 2\n"
        "    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tt):\n"
        "        return tt * 5\n"
        "result = func.jacfwd(Scaled.apply)(v)"
    ),
    # ---------------------------------------------------------------- functional_call
    "functional_call_linear": (
        "lin = nn.Linear(3, 2)\n"
        "p = {'weight': torch.arange(6.).reshape(2, 3), 'bias': torch.ones(2)}\n"
        "result = func.functional_call(lin, p, (torch.arange(3.),))"
    ),
    "ensemble_stack_module_state": (
        "models = [nn.Linear(3, 2) for _ in range(3)]\n"
        "with torch.no_grad():\n"
        "    for i, mdl in enumerate(models):\n"
        "        mdl.weight.copy_(torch.arange(6.).reshape(2, 3) * (i + 1))\n"
        "        mdl.bias.fill_(float(i))\n"
        "params, buffers = func.stack_module_state(models)\n"
        "def run(p, b, t):\n    return func.functional_call(models[0], (p, b), (t,))\n"
        "out = func.vmap(run, in_dims=(0, 0, None))(params, buffers, "
        "torch.arange(6.).reshape(2, 3))\n"
        "result = (out, params['weight'].shape, params['weight'].requires_grad)"
    ),
    "linearize_basic": (
        "out, jfn = func.linearize(lambda t: t.sin() * t, v)\nresult = (out, jfn(torch.ones(4)))"
    ),
}


def encode(value: Any, torch: Any) -> Any:
    """A JSON form of a program's result (shared with the test through `run_program`)."""
    if isinstance(value, torch.Tensor):
        t = value.detach()
        return {
            "tensor": t.tolist(),
            "shape": list(t.shape),
            "dtype": str(t.dtype).rpartition(".")[2],
        }
    if isinstance(value, torch.Size):
        return {"size": list(value)}
    if isinstance(value, dict):
        return {"dict": {str(k): encode(v, torch) for k, v in value.items()}}
    if isinstance(value, (tuple, list)):
        return {"seq": [encode(v, torch) for v in value], "kind": type(value).__name__}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    return {"repr": type(value).__name__}


def run_program(name: str, torch: Any) -> dict[str, Any]:
    env: dict[str, Any] = {
        "torch": torch,
        "F": sys.modules[torch.__name__ + ".nn.functional"],
        "nn": sys.modules[torch.__name__ + ".nn"],
        "func": sys.modules[torch.__name__ + ".func"],
    }
    exec(PRELUDE, env)
    try:
        exec(PROGRAMS[name], env)
    except Exception as e:  # the program's error is the recorded outcome
        return {"error": type(e).__name__, "msg": str(e).split("\n\nWhile executing")[0]}
    return {"result": encode(env["result"], torch)}
