"""GradScaler and library.register_autocast programs, run under PyTorch 2.13
(tools/record_amp.py -> tests/data/amp.json) and keyroute (tests/layers/test_amp.py). Same
conventions as tests/layers/autograd_programs.py: `result` is compared, with the warnings."""

from __future__ import annotations

from typing import Any

from .autograd_programs import run_code

PRELUDE = """
def model():
    m = nn.Linear(3, 2)
    with torch.no_grad():
        m.weight.copy_(torch.arange(6.).reshape(2, 3).sin())
        m.bias.copy_(torch.arange(2.))
    return m
x = torch.arange(12.).reshape(4, 3).cos()
def train(scaler, steps, bad=(), opt_cls=None, lr=0.1):
    m = model()
    opt = (opt_cls or torch.optim.SGD)(m.parameters(), lr=lr)
    trace = []
    for i in range(steps):
        opt.zero_grad()
        loss = m(x).pow(2).sum()
        if i in bad:
            loss = loss * float('inf')
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        trace.append([scaler.get_scale(), scaler._get_growth_tracker()])
    return trace, m.weight.detach().clone(), m.bias.detach().clone()
"""

PROGRAMS: dict[str, str] = {
    "scaler_defaults": """
s = torch.amp.GradScaler('cpu')
result = [s.is_enabled(), s.get_scale(), s.get_growth_factor(), s.get_backoff_factor(),
          s.get_growth_interval(), s.state_dict()]
""",
    "scaler_scale_tensor": """
s = torch.amp.GradScaler('cpu', init_scale=8.)
y = s.scale(torch.tensor([1., 2.]))
result = [y, str(s._scale.dtype), list(s._scale.shape), str(s._growth_tracker.dtype)]
""",
    "scaler_scale_iterable": """
s = torch.amp.GradScaler('cpu', init_scale=4.)
out = s.scale([torch.ones(2), (torch.ones(1) * 3, torch.zeros(2))])
result = out
""",
    "scaler_scale_bad": """
s = torch.amp.GradScaler('cpu')
s.scale(3.0)
""",
    "scaler_train_growth": """
trace, w, b = train(torch.amp.GradScaler('cpu', init_scale=4., growth_interval=2), 5)
result = [trace, w, b]
""",
    "scaler_train_skip_inf": """
trace, w, b = train(torch.amp.GradScaler('cpu', init_scale=4., growth_interval=2), 5, bad=(1, 3))
result = [trace, w, b]
""",
    "scaler_train_adam": """
trace, w, b = train(torch.amp.GradScaler('cpu', init_scale=2.**10, growth_interval=3), 6,
                    bad=(2,), opt_cls=torch.optim.Adam, lr=0.01)
result = [trace, w, b]
""",
    "scaler_growth_capped": """
s = torch.amp.GradScaler('cpu', init_scale=3e38, growth_interval=1)
trace, w, b = train(s, 2)
result = trace
""",
    "scaler_unscale_values": """
m = model()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.amp.GradScaler('cpu', init_scale=3.)
s.scale(m(x).sum()).backward()
before = m.weight.grad.clone()
s.unscale_(opt)
result = [before, m.weight.grad, m.bias.grad, s._found_inf_per_device(opt)]
""",
    "scaler_unscale_twice": """
m = model()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.amp.GradScaler('cpu')
s.scale(m(x).sum()).backward()
s.unscale_(opt)
s.unscale_(opt)
""",
    "scaler_unscale_after_step": """
m = model()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.amp.GradScaler('cpu')
s.scale(m(x).sum()).backward()
s.step(opt)
s.unscale_(opt)
""",
    "scaler_step_twice": """
m = model()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.amp.GradScaler('cpu')
s.scale(m(x).sum()).backward()
s.step(opt)
s.step(opt)
""",
    "scaler_step_without_scale": """
m = model()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.amp.GradScaler('cpu')
m(x).sum().backward()
s.step(opt)
""",
    "scaler_update_without_scale": """
s = torch.amp.GradScaler('cpu')
s.update()
""",
    "scaler_step_closure": """
m = model()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.amp.GradScaler('cpu')
s.scale(m(x).sum()).backward()
s.step(opt, closure=lambda: 0)
""",
    "scaler_update_new_scale": """
trace, w, b = train(torch.amp.GradScaler('cpu', init_scale=4.), 1)
s = torch.amp.GradScaler('cpu', init_scale=4.)
m = model(); opt = torch.optim.SGD(m.parameters(), lr=0.1)
s.scale(m(x).sum()).backward(); s.step(opt); s.update(16.)
a = s.get_scale()
s.scale(m(x).sum()).backward(); s.step(opt); s.update(torch.tensor(0.5))
result = [a, s.get_scale()]
""",
    "scaler_update_new_scale_bad": """
s = torch.amp.GradScaler('cpu', init_scale=4.)
m = model(); opt = torch.optim.SGD(m.parameters(), lr=0.1)
s.scale(m(x).sum()).backward(); s.step(opt)
s.update(torch.tensor([1., 2.]))
""",
    "scaler_state_dict_roundtrip": """
s = torch.amp.GradScaler('cpu', init_scale=4., growth_interval=3)
train(s, 2)
sd = s.state_dict()
t = torch.amp.GradScaler('cpu')
t.load_state_dict(sd)
result = [sd, t.state_dict(), t.get_scale()]
""",
    "scaler_load_empty": """
torch.amp.GradScaler('cpu').load_state_dict({})
""",
    "scaler_disabled": """
s = torch.amp.GradScaler('cpu', enabled=False)
m = model(); opt = torch.optim.SGD(m.parameters(), lr=0.1)
loss = m(x).sum()
same = s.scale(loss) is loss
loss.backward(); s.step(opt); s.update()
result = [same, s.get_scale(), s.state_dict(), s.is_enabled(), m.bias]
""",
    "scaler_cuda_disabled": """
s = torch.amp.GradScaler('cuda')
result = [s.is_enabled(), s.get_scale()]
""",
    "scaler_cuda_amp_alias": """
s = torch.cuda.amp.GradScaler()
result = [s.is_enabled(), type(s).__name__]
""",
    "scaler_cpu_amp_alias": """
s = torch.cpu.amp.GradScaler(init_scale=8.)
result = [s.is_enabled(), s.get_scale(), isinstance(s, torch.amp.GradScaler)]
""",
    "scaler_top_level": "result = torch.GradScaler is torch.amp.GradScaler",
    "scaler_bad_growth": "torch.amp.GradScaler('cpu', growth_factor=0.5)",
    "scaler_bad_backoff": "torch.amp.GradScaler('cpu', backoff_factor=2.0)",
    "scaler_fp16_grads_refused": """
p = torch.nn.Parameter(torch.ones(2, dtype=torch.float16))
opt = torch.optim.SGD([p], lr=0.1)
s = torch.amp.GradScaler('cpu')
s.scale(p.float().sum()).backward()
s.unscale_(opt)
""",
    "scaler_bf16_grads": """
p = torch.nn.Parameter(torch.tensor([1., 2., 3.], dtype=torch.bfloat16))
opt = torch.optim.SGD([p], lr=0.5)
s = torch.amp.GradScaler('cpu', init_scale=3.)
s.scale((p.float() * torch.tensor([1., 2., 3.])).sum()).backward()
s.step(opt); s.update()
result = [p, p.grad]
""",
    "scaler_pickle": """
import pickle
s = torch.amp.GradScaler('cpu', init_scale=4., growth_interval=3)
train(s, 2)
t = pickle.loads(pickle.dumps(s))
result = [t.state_dict(), t._scale is None]
""",
    "op_unscale": """
g = [torch.tensor([1., float('nan'), 4.]), torch.tensor([2., 6.])]
found = torch.zeros(())
torch._amp_foreach_non_finite_check_and_unscale_(g, found, torch.tensor(0.5))
result = [g, found]
""",
    "op_unscale_clean": """
g = [torch.tensor([1., 3.], dtype=torch.float64)]
found = torch.zeros(())
torch._amp_foreach_non_finite_check_and_unscale_(g, found, torch.tensor(0.25))
result = [g, found]
""",
    "op_unscale_empty": """
found = torch.zeros(())
torch._amp_foreach_non_finite_check_and_unscale_([], found, torch.tensor([1., 2.]))
result = found
""",
    "op_unscale_bad_inv": """
torch._amp_foreach_non_finite_check_and_unscale_([torch.ones(2)], torch.zeros(()),
                                                 torch.tensor([1., 2.]))
""",
    "op_unscale_bad_found_dtype": """
found = torch.zeros((), dtype=torch.float64)
torch._amp_foreach_non_finite_check_and_unscale_([torch.ones(2)], found, torch.tensor(1.))
""",
    "op_unscale_mixed_dtypes": """
torch._amp_foreach_non_finite_check_and_unscale_([torch.ones(2), torch.ones(2).double()],
                                                 torch.zeros(()), torch.tensor(1.))
""",
    "op_update_scale": """
sc = torch.tensor(4.); gt = torch.tensor(1, dtype=torch.int32)
r = torch._amp_update_scale_(sc, gt, torch.tensor(0.), 2.0, 0.5, 2)
a = [sc.item(), gt.item(), r is sc]
torch._amp_update_scale_(sc, gt, torch.tensor(1.), 2.0, 0.5, 2)
result = a + [sc.item(), gt.item()]
""",
    "op_update_scale_odd_factor": """
sc = torch.tensor(3.); gt = torch.tensor(0, dtype=torch.int32)
torch._amp_update_scale_(sc, gt, torch.tensor(0.), 1.1, 0.3, 1)
a = sc.item()
torch._amp_update_scale_(sc, gt, torch.tensor(1.), 1.1, 0.3, 1)
result = [a, sc.item()]
""",
    "op_update_bad_tracker": """
torch._amp_update_scale_(torch.tensor(4.), torch.tensor(1), torch.tensor(0.), 2.0, 0.5, 2)
""",
    # -- library.register_autocast
    "register_autocast_custom_op": """
@torch.library.custom_op('amp_t::mymm', mutates_args=())
def mymm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a @ b
mymm.register_autocast('cpu', torch.bfloat16)
a = torch.ones(2, 3); b = torch.ones(3, 2)
with torch.autocast('cpu'):
    y = mymm(a, b)
    inner = torch.ops.amp_t.mymm(a.double(), b.double())
result = [str(y.dtype), str(inner.dtype), str(mymm(a, b).dtype)]
""",
    "register_autocast_functional": """
torch.library.define('amp_t2::scale2', '(Tensor x, Tensor y) -> Tensor')
seen = []
@torch.library.impl('amp_t2::scale2', 'cpu')
def _k(x, y):
    seen.append([str(x.dtype), str(y.dtype), torch.is_autocast_enabled('cpu')])
    return x * 2 + y.to(x.dtype)
torch.library.register_autocast('amp_t2::scale2', 'cpu', torch.float16)
with torch.autocast('cpu'):
    z = torch.ops.amp_t2.scale2(torch.ones(2), torch.arange(2))
result = [str(z.dtype), seen]
""",
    "register_autocast_log": """
@torch.library.custom_op('amp_t3::twice', mutates_args=())
def twice(a: torch.Tensor) -> torch.Tensor:
    return a * 2
torch.library.register_autocast(twice, 'cpu', torch.bfloat16)
calls = []
class Log(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        calls.append(str(func).rpartition('ops.')[2])
        return func(*args, **(kwargs or {}))
with torch.autocast('cpu'), Log():
    twice(torch.ones(2))
result = calls
""",
    "register_autocast_bad_device": """
@torch.library.custom_op('amp_t4::f', mutates_args=())
def f(a: torch.Tensor) -> torch.Tensor:
    return a.clone()
torch.library.register_autocast(f, 'abc', torch.float16)
""",
    "register_autocast_bad_op": "torch.library.register_autocast(3, 'cpu', torch.float16)",
    "register_autocast_grad": """
@torch.library.custom_op('amp_t5::sq', mutates_args=())
def sq(a: torch.Tensor) -> torch.Tensor:
    return a * a
def bw(ctx, g):
    return 2 * g * ctx.a
def setup(ctx, inputs, output):
    ctx.a = inputs[0]
sq.register_autograd(bw, setup_context=setup)
sq.register_autocast('cpu', torch.bfloat16)
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autocast('cpu'):
    y = sq(x)
y.float().sum().backward()
result = [str(y.dtype), x.grad, str(x.grad.dtype)]
""",
}


def run_program(name: str, torch: Any) -> dict[str, Any]:
    return run_code(PRELUDE, PROGRAMS[name], torch)
