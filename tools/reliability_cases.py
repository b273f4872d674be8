# ruff: noqa: E501  (each case is one line of the repro as written in the issue)
"""The repros of issue 12 (adversarial probing), run against PyTorch and keyroute alike.

Each case is a snippet run with `torch` bound to the module under test (and `F` to its
nn.functional); it leaves what it computed in `result`. tools/record_reliability.py records
PyTorch's outcome of each into tests/data/reliability.json; tests/reliability/test_repros.py
runs them on keyroute and compares.
"""

from __future__ import annotations

CASES: dict[str, str] = {
    # -- wrong values / memory unsafety
    "as_strided/negative_offset": "x = torch.arange(6.); x.as_strided((2,), (1,), -2).fill_(7.); result = x",
    "as_strided/negative_stride": "x = torch.arange(6.); x.as_strided((3,), (-10**6,)).fill_(1.); result = x",
    "as_strided/past_storage": "x = torch.arange(6.); result = x.as_strided((3,), (4,))",
    "as_strided/past_storage_offset": "x = torch.arange(6.); result = x.as_strided((2,), (1,), 5)",
    "as_strided/inplace_past_storage": "x = torch.arange(6.); x.as_strided_((4,), (2,)); result = x",
    "detach/shares_version": (
        "x = torch.tensor([.5, 1., 2.], requires_grad=True); a = x * 1; b = a.sin()\n"
        "a.detach().add_(1); b.sum().backward(); result = x.grad"
    ),
    "detach/version_equal": "x = torch.ones(2); d = x.detach(); d.add_(1); result = [x._version, d._version]",
    "overflow/add_2_64": "result = torch.tensor([1]) + 2**64",
    "overflow/mul_2_64": "result = torch.tensor([3]) * 2**64",
    "overflow/eq_2_64": "result = torch.tensor([0]) == 2**64",
    "overflow/sub_neg": "result = torch.tensor([0]) - (-2**70)",
    "overflow/fill": "result = torch.zeros(2, dtype=torch.int64).fill_(2**64)",
    "overflow/full": "result = torch.full((2,), 2**64)",
    "overflow/int64_max_ok": "result = torch.tensor([0]) + (2**63 - 1)",
    "overflow/clamp": "result = torch.tensor([1]).clamp(max=2**64)",
    "overflow/masked_fill": "result = torch.tensor([1, 2]).masked_fill(torch.tensor([True, False]), 2**64)",
    "overflow/where": "result = torch.where(torch.tensor([True]), torch.tensor([1]), 2**64)",
    "device/add_meta": "result = (torch.ones(3) + torch.ones(3, device='meta')).device",
    "device/mul_meta": "result = (torch.ones(3) * torch.ones(3, device='meta')).device",
    "device/meta_to_cpu": "result = torch.ones(3, device='meta').to('cpu')",
    "device/meta_cpu": "result = torch.ones(3, device='meta').cpu()",
    "device/meta_grad_output": (
        "x = torch.ones(3, requires_grad=True); y = x * 2\n"
        "y.backward(torch.ones(3, device='meta')); result = x.grad.device"
    ),
    "autograd/hook_changes_shape": (
        "x = torch.ones(3, requires_grad=True); x.register_hook(lambda g: g[:2])\n"
        "(x * 2).sum().backward(); result = x.grad"
    ),
    "autograd/hook_changes_dtype": (
        "x = torch.ones(3, requires_grad=True); y = x * 2; y.register_hook(lambda g: g.double())\n"
        "y.sum().backward(); result = x.grad"
    ),
    "autograd/grad_count": (
        "x = torch.ones(2, requires_grad=True); a = x * 2; b = x * 3\n"
        "result = torch.autograd.grad([a, b], [x], [torch.ones(2)])"
    ),
    "clone/expanded_contiguous": "result = torch.ones(1, 4).expand(3, 4).clone().stride()",
    "clone/expanded_view": "result = torch.ones(1, 4).expand(3, 4).clone().view(-1).shape",
    "dtype/pow_bf16_int": "result = torch.pow(torch.tensor([-1.], dtype=torch.bfloat16), torch.tensor([3877], dtype=torch.int32))",
    "dtype/int64min_mul_half": "result = torch.tensor([-2**63]) * torch.tensor([0.], dtype=torch.float16)",
    "signed_zero/cumsum": "result = [str(v) for v in torch.tensor([-0.0, -0.0]).cumsum(0).tolist()]",
    "signed_zero/amax": "result = [str(torch.tensor([-0.0, 0.0]).amax().item()), str(torch.tensor([0.0, -0.0]).amax().item())]",
    "signed_zero/maximum": "result = [str(v) for v in torch.maximum(torch.tensor([-0.0, 0.0]), torch.tensor([0.0, -0.0])).tolist()]",
    "signed_zero/clamp": "result = [str(v) for v in torch.tensor([-0.0, 0.0]).clamp(min=0.0).tolist()]",
    # -- state corruption
    "state/resize_requires_grad": "x = torch.ones(3, requires_grad=True); x.resize_(5); result = x.shape",
    "state/detach__on_view": "x = torch.ones(3, requires_grad=True); v = x[:2]; v.detach_(); result = v.requires_grad",
    "state/inference_saved_for_backward": (
        "with torch.inference_mode():\n    t = torch.ones(3)\n"
        "x = torch.ones(3, requires_grad=True); result = (x * t).sum().backward()"
    ),
    "state/embedding_max_norm_version": (
        "w = torch.ones(4, 3) * 3; w.requires_grad_(); idx = torch.tensor([0, 1])\n"
        "with torch.no_grad():\n    pass\n"
        "v0 = w._version; F.embedding(idx, w.detach(), max_norm=1.0); result = w._version - v0"
    ),
    "state/modes_out_of_order": (
        "import importlib\n"
        "pd = importlib.import_module(torch.__name__ + '.utils._python_dispatch')\n"
        "class M(pd.TorchDispatchMode):\n"
        "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
        "        return func(*args, **(kwargs or {}))\n"
        "m1, m2 = M(), M(); m1.__enter__(); m2.__enter__()\n"
        "m1.__exit__(None, None, None); m2.__exit__(None, None, None)\n"
        "result = [(torch.ones(2) + 1).tolist(), len(pd._get_current_dispatch_mode_stack())]"
    ),
    "state/register_fake_on_cia_op": (
        "lib = torch.library.Library('krfakecia', 'FRAGMENT'); lib.define('f(Tensor x) -> Tensor')\n"
        "lib.impl('f', lambda x: x * 2, 'CompositeImplicitAutograd')\n"
        "err = None\n"
        "try:\n    torch.library.register_fake('krfakecia::f', lambda x: x, lib=lib)\n"
        "except Exception as e:\n    err = type(e).__name__\n"
        "result = [err, torch._C._dispatch_has_kernel_for_dispatch_key('krfakecia::f', 'Meta'),\n"
        "          torch.ops.krfakecia.f(torch.ones(2)).tolist()]\n"
        "lib._destroy()"
    ),
    "state/failed_alias_fallback": (
        "lib = torch.library.Library('_', 'IMPL'); err = None\n"
        "try:\n    lib.fallback(lambda op, *a, **k: None, 'CompositeImplicitAutograd')\n"
        "except Exception as e:\n    err = type(e).__name__\n"
        "result = [err, torch._C._dispatch_has_backend_fallback(torch._C.DispatchKey.CPU)]\n"
        "lib._destroy()"
    ),
    "state/dropped_library_collected": (
        "import gc\nlib = torch.library.Library('krdropped', 'FRAGMENT')\n"
        "lib.define('f(Tensor x) -> Tensor'); lib.impl('f', lambda x: x * 2, 'CPU')\n"
        "before = torch.ops.krdropped.f(torch.ones(1)).tolist(); del lib; gc.collect()\n"
        "result = [before, hasattr(torch.ops.krdropped, 'f')]"
    ),
    # -- crashes
    "crash/glu": "result = F.glu(torch.arange(8.).reshape(2, 4))",
    "crash/glu_dim0": "result = F.glu(torch.arange(8.).reshape(2, 4), 0)",
    "crash/backward_float": "x = torch.ones(1, requires_grad=True); y = x * 2; y.backward(3.0); result = x.grad",
    "crash/function_backward_int": (
        "class Fn(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return 1\n"
        "x = torch.ones(2, requires_grad=True); Fn.apply(x).sum().backward(); result = x.grad"
    ),
    "crash/huge_alloc": "result = torch.empty(2**40, 2**20).shape",
    # -- wrong or missing errors
    "error/copy_overlap": "a = torch.arange(5.); a[1:].copy_(a[:-1]); result = a",
    "error/out_overlap": "a = torch.arange(5.); torch.add(a[:-1], 1, out=a[1:]); result = a",
    "error/meta_empty_overflow": "result = torch.empty(2**40, 2**40, device='meta').shape",
    "error/index_select_range": "result = torch.arange(3.).index_select(0, torch.tensor([5]))",
    "error/arange_2_63": "result = torch.arange(0, 2**63)",
    "error/reshape_float": "result = torch.ones(6).reshape(2.0, 3)",
    "error/relu_out": "result = torch.relu(torch.ones(2), out=torch.empty(2))",
    "error/channels_last_3d": "result = torch.ones(2, 3, 4).to(memory_format=torch.channels_last)",
    "error/sum_float_dim": "result = torch.ones(2, 3).sum(1.0)",
    "error/sum_tuple_float_dim": "result = torch.ones(2, 3).sum((1.0,))",
    "error/amax_float_dim": "result = torch.ones(2, 3).amax(1.5)",
    "error/mean_float_dim": "result = torch.ones(2, 3).mean(1.0)",
    # around the fixes above: the same mechanisms on neighbouring cases
    "clone/sliced_strides": "result = torch.arange(12.).reshape(3, 4)[:, ::2].clone().stride()",
    "clone/channels_last_3d": "result = torch.ones(2, 3, 4, 5, 6).clone(memory_format=torch.channels_last_3d).stride()",
    "to/channels_last": "result = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last).stride()",
    "error/clone_channels_last_3d_rank": "result = torch.ones(2, 3, 4).clone(memory_format=torch.channels_last_3d)",
    "error/inplace_overlap": "a = torch.arange(5.); a[1:].atan2_(a[:-1]); result = a",
    "error/add_inplace_overlap": "a = torch.arange(5.); a[1:].add_(a[:-1]); result = a",
    "error/copy_transpose_overlap": "a = torch.ones(3, 3); a.copy_(a.t()); result = a",
    "copy/same_view": "a = torch.arange(3.); a.copy_(a.view(3)); result = a",
    "out/same_tensor": "a = torch.arange(3.); torch.add(a, a, out=a); result = a",
    "error/view_float_size": "result = torch.ones(6).view(2.0, 3)",
    "error/reshape_late_float": "result = torch.ones(6).reshape(2, 3.0)",
    "error/reshape_function_float": "result = torch.reshape(torch.ones(6), (2.0, 3))",
    "signed_zero/minimum": "result = [str(v) for v in torch.minimum(torch.tensor([-0.0, 0.0]), torch.tensor([0.0, -0.0])).tolist()]",
    "signed_zero/amin_dim": "result = [str(v) for v in torch.tensor([[0.0, -0.0], [-0.0, 0.0]]).amin(1).tolist()]",
    "signed_zero/max_all": "result = str(torch.tensor([-0.0, 0.0]).max().item())",
    "signed_zero/clamp_max": "result = [str(v) for v in torch.tensor([-0.0, 0.0]).clamp(max=-0.0).tolist()]",
    "dtype/int_add_half": "result = torch.tensor([2**62]) + torch.tensor([1.], dtype=torch.float16)",
    "error/isnan_out": "result = torch.isnan(torch.ones(2), out=torch.zeros(2, dtype=torch.bool))",
    "error/arange_2_64": "result = torch.arange(0, 2**64)",
    "error/cumsum_float_dim": "result = torch.ones(3).cumsum(0.5)",
    "error/argmax_tuple_dim": "result = torch.ones(2, 3).argmax((0,))",
    "error/std_function_float_dim": "result = torch.std(torch.ones(2, 3), 1.0)",
    "error/amax_late_float_dim": "result = torch.ones(2, 3).amax([1, 0.5])",
}
