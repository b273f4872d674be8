"""Autocast programs (state functions, nesting, disabled regions, the cast cache, gradients,
custom_fwd/custom_bwd, the deprecated spellings), run under PyTorch 2.13
(tools/record_autocast.py) and keyroute (tests/layers/test_autocast.py). Same conventions as
tests/layers/autograd_programs.py."""

from __future__ import annotations

from typing import Any

from .autograd_programs import run_code

PRELUDE = """
a = torch.arange(12.).reshape(3, 4).sin()
b = torch.arange(20.).reshape(4, 5).cos()
w = torch.arange(20.).reshape(5, 4).sin().requires_grad_()
def state(dev='cpu'):
    return [torch.is_autocast_enabled(dev), str(torch.get_autocast_dtype(dev))]
"""

PROGRAMS: dict[str, str] = {
    "state_default": "result = state() + state('cuda') + [torch.is_autocast_cache_enabled()]",
    "state_inside": """
with torch.autocast('cpu'):
    result = state() + [torch.is_autocast_cache_enabled()]
""",
    "state_inside_fp16": """
with torch.autocast('cpu', dtype=torch.float16):
    result = state()
""",
    "state_restored": """
with torch.autocast('cpu', dtype=torch.float16, cache_enabled=False):
    pass
result = state() + [torch.is_autocast_cache_enabled()]
""",
    "state_restored_after_error": """
try:
    with torch.autocast('cpu'):
        raise KeyError('x')
except KeyError:
    pass
result = state()
""",
    "nested_disabled": """
with torch.autocast('cpu'):
    x = torch.mm(a, b)
    with torch.autocast('cpu', enabled=False):
        y = torch.mm(a, b)
        inner = state()
    z = torch.mm(a, b)
result = [str(x.dtype), str(y.dtype), str(z.dtype), inner, state()]
""",
    "nested_dtype": """
with torch.autocast('cpu'):
    with torch.autocast('cpu', dtype=torch.float16):
        x = torch.mm(a, b)
    y = torch.mm(a, b)
result = [str(x.dtype), str(y.dtype)]
""",
    "decorator": """
@torch.autocast('cpu')
def f(p, q):
    return torch.mm(p, q)
result = [str(f(a, b).dtype), state()]
""",
    "set_enabled_by_hand": """
torch.set_autocast_enabled('cpu', True)
try:
    x = torch.mm(a, b)
    s = state()
finally:
    torch.set_autocast_enabled('cpu', False)
result = [str(x.dtype), s, state()]
""",
    "set_dtype_by_hand": """
torch.set_autocast_dtype('cpu', torch.float16)
try:
    with torch.autocast('cpu'):
        x = torch.mm(a, b)
finally:
    torch.set_autocast_dtype('cpu', torch.bfloat16)
result = str(x.dtype)
""",
    "unsupported_dtype": """
with torch.autocast('cpu', dtype=torch.float32):
    x = torch.mm(a, b)
result = [str(x.dtype), state()]
""",
    "unsupported_device": "torch.autocast('abc')",
    "device_not_str": "torch.autocast(torch.device('cpu'))",
    "cuda_disabled": """
with torch.autocast('cuda'):
    result = state('cuda')
""",
    "get_dtype_unknown_device": "torch.get_autocast_dtype('abc')",
    "amp_autocast": """
with torch.amp.autocast('cpu'):
    result = str(torch.mm(a, b).dtype)
""",
    "cpu_amp_autocast": """
with torch.cpu.amp.autocast():
    result = [str(torch.mm(a, b).dtype)] + state()
""",
    "cpu_amp_autocast_fp16": """
with torch.cpu.amp.autocast(dtype=torch.float16):
    result = str(torch.mm(a, b).dtype)
""",
    "float64_untouched": """
with torch.autocast('cpu'):
    result = str(torch.mm(a.double(), b.double()).dtype)
""",
    "int_untouched": """
with torch.autocast('cpu'):
    result = str(torch.cat([a.long(), a.long()]).dtype)
""",
    "promote_fp16_in_bf16": """
with torch.autocast('cpu'):
    torch.cat([a.half(), a.bfloat16()])
""",
    "grad_dtypes": """
x = a.clone().requires_grad_()
with torch.autocast('cpu'):
    y = torch.mm(x, w.t())
    loss = y.float().sum()
loss.backward()
result = [str(y.dtype), str(x.grad.dtype), str(w.grad.dtype), y.grad_fn.name(),
          y.grad_fn.next_functions[0][0].name()]
""",
    "grad_values": """
x = a.clone().requires_grad_()
with torch.autocast('cpu'):
    y = F.linear(x, w)
y.float().pow(2).sum().backward()
result = [w.grad.float(), x.grad.float()]
""",
    "cache_hit": """
with torch.autocast('cpu'):
    y1 = F.linear(a, w)
    y2 = F.linear(a, w)
    n1 = y1.grad_fn
result = [str(y1.dtype), y1.grad_fn.next_functions[1][0].name()]
""",
    "cache_same_cast": """
seen = []
class Spy(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        seen.append(str(func).split('.', 1)[1] if '.' in str(func) else str(func))
        return func(*args, **(kwargs or {}))
with torch.autocast('cpu'):
    with Spy():
        torch.mm(a, w.t())
        torch.mm(a, w.t())
result = seen
""",
    "cache_disabled": """
seen = []
class Spy(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        seen.append(str(func).split('.', 1)[1] if '.' in str(func) else str(func))
        return func(*args, **(kwargs or {}))
with torch.autocast('cpu', cache_enabled=False):
    with Spy():
        torch.mm(a, w.t())
        torch.mm(a, w.t())
result = seen
""",
    "cache_not_for_nonleaf": """
seen = []
class Spy(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        seen.append(str(func).split('.', 1)[1] if '.' in str(func) else str(func))
        return func(*args, **(kwargs or {}))
v = w * 1
with torch.autocast('cpu'):
    with Spy():
        torch.mm(a, v.t())
        torch.mm(a, v.t())
result = seen
""",
    "cache_cleared_on_exit": """
with torch.autocast('cpu'):
    y1 = torch.mm(a, w.t())
with torch.autocast('cpu'):
    y2 = torch.mm(a, w.t())
c1 = y1.grad_fn.next_functions[1][0].next_functions[0][0]
c2 = y2.grad_fn.next_functions[1][0].next_functions[0][0]
result = [c1 is c2, c1.name()]
""",
    "nesting_counter": """
n1 = torch.autocast_increment_nesting()
n2 = torch.autocast_increment_nesting()
n3 = torch.autocast_decrement_nesting()
n4 = torch.autocast_decrement_nesting()
result = [n1, n2, n3, n4]
""",
    "inplace_not_cast": """
x = a.clone()
with torch.autocast('cpu'):
    x.add_(1)
result = str(x.dtype)
""",
    "out_of_place_module": """
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
with torch.autocast('cpu'):
    out = m(a)
    loss = F.cross_entropy(out, torch.tensor([0, 1, 0]))
loss.backward()
result = [str(out.dtype), str(loss.dtype), str(m[0].weight.grad.dtype)]
""",
    "custom_fwd_cast_inputs": """
class MyMM(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type='cpu', cast_inputs=torch.float32)
    def forward(ctx, p, q):
        ctx.save_for_backward(p, q)
        return torch.mm(p, q), torch.is_autocast_enabled('cpu')
    @staticmethod
    @torch.amp.custom_bwd(device_type='cpu')
    def backward(ctx, g, g2):
        p, q = ctx.saved_tensors
        return g.mm(q.t()), p.t().mm(g)
x = a.clone().requires_grad_()
with torch.autocast('cpu'):
    y, inner = MyMM.apply(x.bfloat16(), b)
y.sum().backward()
result = [str(y.dtype), inner, str(x.grad.dtype)]
""",
    "custom_fwd_no_cast": """
class Plain(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type='cpu')
    def forward(ctx, p, q):
        return torch.mm(p, q)
    @staticmethod
    @torch.amp.custom_bwd(device_type='cpu')
    def backward(ctx, g):
        return g, None, torch.is_autocast_enabled('cpu')
with torch.autocast('cpu'):
    y = Plain.apply(a, b)
result = str(y.dtype)
""",
    "custom_bwd_state": """
seen = []
class Rec(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type='cpu')
    def forward(ctx, p):
        return p * 2
    @staticmethod
    @torch.amp.custom_bwd(device_type='cpu')
    def backward(ctx, g):
        seen.append(torch.is_autocast_enabled('cpu'))
        seen.append(str(torch.get_autocast_dtype('cpu')))
        return g * 2
x = a.clone().requires_grad_()
with torch.autocast('cpu', dtype=torch.float16):
    y = Rec.apply(x)
y.sum().backward()
result = seen + state()
""",
    "custom_fwd_device_not_str": "torch.amp.custom_fwd(device_type=1)",
}


def run_program(name: str, torch: Any) -> dict[str, Any]:
    return run_code(PRELUDE, PROGRAMS[name], torch)
