"""Autograd-extras programs (issue 22, deliverable 6) run under PyTorch 2.13
(tools/record_autograd_extras.py) and keyroute (tests/layers/test_autograd_extras.py).

Each program sets `result` or raises; `torch`, `nn`, `F`, `AF` (torch.autograd.functional),
`G` (torch.autograd.graph) and `CK` (torch.utils.checkpoint) are bound to the library under
test. Inputs are deterministic, so both libraries see the same numbers. Warnings raised by a
program are part of its outcome (`warnings`: category and message of each).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

PRELUDE = """
x = torch.arange(1., 4.)
y = torch.arange(6.).reshape(2, 3).cos()
w = torch.arange(12.).reshape(3, 4).sin()
def f2(a, b):
    return a * b.sum(), (a ** 2).sum() + b
def cube(a):
    return (a ** 3).sum()
"""

PROGRAMS: dict[str, str] = {
    # ---------------------------------------------------------------- saved_tensors_hooks
    "hooks_pack_count": """
log = []
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: log.append(tuple(t.shape)) or t, lambda t: t):
    out = (a.exp() * a).sum()
out.backward()
result = [len(log), a.grad]
""",
    "hooks_pack_args": """
log = []
a = x.clone().requires_grad_()
def pack(t):
    log.append([t.requires_grad, t.grad_fn is None, t._version])
    return t
with G.saved_tensors_hooks(pack, lambda t: t):
    b = a.exp()
result = log
""",
    "hooks_unpack_called_in_backward": """
log = []
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: t * 1, lambda t: log.append('u') or t):
    out = a.sin().sum()
n_before = len(log)
out.backward()
result = [n_before, len(log), a.grad]
""",
    "hooks_unpack_changes_value": """
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: t, lambda t: t * 0 + 2):
    out = (a * a).sum()
out.backward()
result = a.grad
""",
    "hooks_unpack_not_tensor": """
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: t, lambda t: 3):
    out = (a * a).sum()
out.backward()
""",
    "hooks_skip_version_check": """
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: t, lambda t: t):
    b = a * 2
    c = (b * b).sum()
with torch.no_grad():
    b.add_(1)
c.backward()
result = a.grad
""",
    "no_hooks_version_check": """
a = x.clone().requires_grad_()
b = a * 2
c = (b * b).sum()
with torch.no_grad():
    b.add_(1)
c.backward()
""",
    "hooks_nested_innermost": """
log = []
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: log.append('outer') or t, lambda t: t):
    with G.saved_tensors_hooks(lambda t: log.append('inner') or t, lambda t: t):
        b = a.exp()
    c = b.sin()
result = log
""",
    "hooks_saved_attr_after_free": """
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: t, lambda t: t):
    b = a.exp()
b.sum().backward()
b.grad_fn._saved_result
""",
    "hooks_saved_attr_value": """
a = x.clone().requires_grad_()
with G.saved_tensors_hooks(lambda t: t, lambda t: t * 10):
    b = a.exp()
r = b.grad_fn._saved_result
result = [r, r.requires_grad, r is b]
""",
    "raw_saved_register_hooks": """
a = x.clone().requires_grad_()
b = a.exp()
b.grad_fn._raw_saved_result.register_hooks(lambda t: t * 0, lambda t: t + 1)
b.sum().backward()
result = a.grad
""",
    "raw_saved_register_twice": """
a = x.clone().requires_grad_()
b = a.exp()
r = b.grad_fn._raw_saved_result
r.register_hooks(lambda t: t, lambda t: t)
r.register_hooks(lambda t: t, lambda t: t)
""",
    "raw_saved_register_after_free": """
a = x.clone().requires_grad_()
b = a.exp()
r = b.grad_fn._raw_saved_result
b.sum().backward()
r.register_hooks(lambda t: t, lambda t: t)
""",
    "save_on_cpu_grad": """
a = x.clone().requires_grad_()
with G.save_on_cpu(pin_memory=False):
    out = (a.exp() * a.sin()).sum()
out.backward()
result = a.grad
""",
    "save_on_cpu_copies": """
a = x.clone().requires_grad_()
b = a * 1
with G.save_on_cpu():
    c = (b * b).sum()
with torch.no_grad():
    b.mul_(100)
c.backward()
result = a.grad
""",
    "disable_hooks_then_push": """
with G.disable_saved_tensors_hooks("hooks are off here"):
    with G.saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
""",
    "disable_hooks_while_pushed": """
with G.saved_tensors_hooks(lambda t: t, lambda t: t):
    with G.disable_saved_tensors_hooks("cannot disable now"):
        pass
""",
    "disable_hooks_plain_ops": """
a = x.clone().requires_grad_()
with G.disable_saved_tensors_hooks("off"):
    out = (a * a).sum()
out.backward()
result = a.grad
""",
    # ---------------------------------------------------------------- multi grad hook, Node hooks
    "multi_grad_hook_all": """
a = x.clone().requires_grad_()
b = x.clone().requires_grad_()
calls = []
G.register_multi_grad_hook((a, b), lambda gs: calls.append(list(gs)))
(a * b).sum().backward()
result = calls
""",
    "multi_grad_hook_all_partial": """
a = x.clone().requires_grad_()
b = x.clone().requires_grad_()
calls = []
G.register_multi_grad_hook((a, b), lambda gs: calls.append([g is None for g in gs]))
(a * 2).sum().backward()
(b * 2).sum().backward()
result = calls
""",
    "multi_grad_hook_any": """
a = x.clone().requires_grad_()
b = x.clone().requires_grad_()
calls = []
G.register_multi_grad_hook((a, b), lambda g: calls.append(g), mode="any")
(a * b * 3).sum().backward()
result = len(calls)
""",
    "multi_grad_hook_bad_mode": """
a = x.clone().requires_grad_()
G.register_multi_grad_hook((a,), lambda gs: None, mode="some")
""",
    "multi_grad_hook_remove": """
a = x.clone().requires_grad_()
calls = []
h = G.register_multi_grad_hook((a,), lambda gs: calls.append(1))
h.remove()
(a * 2).sum().backward()
result = calls
""",
    "node_register_hook": """
a = x.clone().requires_grad_()
b = a * 2
seen = []
b.grad_fn.register_hook(lambda gi, go: seen.append([len(gi), len(go), go[0]]))
b.sum().backward()
result = seen
""",
    "node_register_hook_replaces": """
a = x.clone().requires_grad_()
b = a * 2
b.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,))
b.sum().backward()
result = a.grad
""",
    "node_register_prehook": """
a = x.clone().requires_grad_()
b = a.exp()
b.grad_fn.register_prehook(lambda go: (go[0] * 0 + 1,))
(b * 5).sum().backward()
result = a.grad
""",
    "node_hook_remove": """
a = x.clone().requires_grad_()
b = a * 2
h = b.grad_fn.register_prehook(lambda go: (go[0] * 0,))
h.remove()
b.sum().backward()
result = a.grad
""",
    # ---------------------------------------------------------------- _saved_* attributes
    "saved_mul": """
a = x.clone().requires_grad_()
b = y[0].clone().requires_grad_()
g = (a * b).grad_fn
result = [g._saved_self, g._saved_other]
""",
    "saved_exp_result": """
a = x.clone().requires_grad_()
result = a.exp().grad_fn._saved_result
""",
    "saved_pow_exponent": """
a = x.clone().requires_grad_()
g = (a ** 3).grad_fn
result = [g._saved_self, g._saved_exponent]
""",
    "saved_mm": """
a = w.clone().requires_grad_()
g = (a.t() @ a).grad_fn
result = [g._saved_self.shape, g._saved_mat2.shape, g._saved_mat2_sym_sizes,
          g._saved_self_sym_strides]
""",
    "saved_sum_sizes": """
a = y.clone().requires_grad_()
result = a.sum().grad_fn._saved_self_sym_sizes
""",
    "saved_missing_attr": """
a = x.clone().requires_grad_()
(a * 2).grad_fn._saved_nothing
""",
    "saved_after_backward": """
a = x.clone().requires_grad_()
b = a.exp()
b.sum().backward()
b.grad_fn._saved_result
""",
    # ---------------------------------------------------------------- autograd.functional
    "jacobian_single": "result = AF.jacobian(lambda a: a ** 2, x)",
    "jacobian_tuple": "result = AF.jacobian(f2, (x, y[0]))",
    "jacobian_create_graph": """
j = AF.jacobian(lambda a: a ** 3, x, create_graph=True)
result = [j, j.requires_grad]
""",
    "jacobian_independent": "result = AF.jacobian(lambda a, b: a * 2, (x, y[0]))",
    "jacobian_strict_independent": "AF.jacobian(lambda a, b: a * 2, (x, y[0]), strict=True)",
    "jacobian_strict_no_grad": "AF.jacobian(lambda a: torch.ones(3), x, strict=True)",
    "jacobian_vectorize": "result = AF.jacobian(f2, (x, y[0]), vectorize=True)",
    "jacobian_forward_mode": (
        "result = AF.jacobian(lambda a: a.sin(), x, vectorize=True, strategy='forward-mode')"
    ),
    "jacobian_forward_mode_no_vectorize": (
        "AF.jacobian(lambda a: a.sin(), x, strategy='forward-mode')"
    ),
    "jacobian_bad_strategy": "AF.jacobian(lambda a: a, x, strategy='sideways')",
    "jacobian_bad_input": "AF.jacobian(lambda a: a, [x])",
    "jacobian_bad_input_tuple": "AF.jacobian(lambda a, b: a, (x, 3))",
    "hessian_single": "result = AF.hessian(cube, x)",
    "hessian_tuple": "result = AF.hessian(lambda a, b: (a * b).sum() * a.sum(), (x, y[0]))",
    "hessian_not_scalar": "AF.hessian(lambda a: a ** 2, x)",
    "hessian_tuple_out": "AF.hessian(lambda a: (a.sum(), a.sum()), x)",
    "vjp_basic": "result = AF.vjp(lambda a: a ** 2, x, torch.ones(3))",
    "vjp_scalar_none": "result = AF.vjp(cube, x)",
    "vjp_none_bad": "AF.vjp(lambda a: a ** 2, x)",
    "vjp_bad_size": "AF.vjp(lambda a: a ** 2, x, torch.ones(4))",
    "vjp_bad_length": "AF.vjp(f2, (x, y[0]), (torch.ones(3),))",
    "vjp_tuple": "result = AF.vjp(f2, (x, y[0]), (torch.ones(3), torch.ones(3)))",
    "vjp_strict_independent": "AF.vjp(lambda a, b: a * 2, (x, y[0]), torch.ones(3), strict=True)",
    "jvp_basic": "result = AF.jvp(lambda a: a.sin() * a, x, torch.ones(3))",
    "jvp_tuple": "result = AF.jvp(f2, (x, y[0]), (torch.ones(3), x))",
    "jvp_none_bad": "AF.jvp(lambda a: a ** 2, x)",
    "jvp_create_graph": """
o, j = AF.jvp(lambda a: a ** 3, x, torch.ones(3), create_graph=True)
result = [o, j, j.requires_grad]
""",
    "hvp_basic": "result = AF.hvp(cube, x, torch.ones(3))",
    "vhp_basic": "result = AF.vhp(cube, x, x)",
    "hvp_tuple": (
        "result = AF.hvp(lambda a, b: (a * b).sum() * a.sum(), (x, y[0]), (torch.ones(3), x))"
    ),
    "vhp_not_scalar": "AF.vhp(lambda a: a ** 2, x, x)",
    "vhp_strict_linear": "AF.vhp(lambda a: a.sum() * 2, x, x, strict=True)",
    "hvp_linear_zero": "result = AF.hvp(lambda a: a.sum() * 2, x, x)",
    # ---------------------------------------------------------------- checkpoint
    "checkpoint_nonreentrant": """
a = x.clone().requires_grad_()
out = CK.checkpoint(lambda t: (t.sin() * t).exp(), a, use_reentrant=False)
out.sum().backward()
result = [out, a.grad]
""",
    "checkpoint_reentrant": """
a = x.clone().requires_grad_()
out = CK.checkpoint(lambda t: (t.sin() * t).exp(), a, use_reentrant=True)
out.sum().backward()
result = [out, a.grad, out.grad_fn.name()]
""",
    "checkpoint_default_warns": """
a = x.clone().requires_grad_()
out = CK.checkpoint(lambda t: t * 2, a)
result = out
""",
    "checkpoint_recompute_count": """
a = x.clone().requires_grad_()
calls = []
def fn(t):
    calls.append(1)
    return t.exp().sin()
out = CK.checkpoint(fn, a, use_reentrant=False)
n = len(calls)
out.sum().backward()
result = [n, len(calls), a.grad]
""",
    "checkpoint_dropout_rng": """
torch.manual_seed(0)
a = torch.ones(64).requires_grad_()
out = CK.checkpoint(lambda t: F.dropout(t * 3, 0.5), a, use_reentrant=False)
out.sum().backward()
result = bool((a.grad == (out.detach() != 0).float() * 6).all())
""",
    "checkpoint_kwargs_reentrant": """
a = x.clone().requires_grad_()
CK.checkpoint(lambda t, s=1: t * s, a, use_reentrant=True, s=2)
""",
    "checkpoint_kwargs_nonreentrant": """
a = x.clone().requires_grad_()
out = CK.checkpoint(lambda t, s=1: t * s, a, use_reentrant=False, s=2)
out.sum().backward()
result = a.grad
""",
    "checkpoint_no_grad_inputs": """
out = CK.checkpoint(lambda t: t * 2, x, use_reentrant=True)
result = out.requires_grad
""",
    "checkpoint_context_fn_reentrant": """
import contextlib
CK.checkpoint(lambda t: t, x, use_reentrant=True,
              context_fn=lambda: (contextlib.nullcontext(), contextlib.nullcontext()))
""",
    "checkpoint_module": """
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
inp = y[:, :3].clone().requires_grad_() if False else torch.arange(6.).reshape(2, 3).sin()
out = CK.checkpoint(m, inp, use_reentrant=False)
out.sum().backward()
result = [out, m[0].weight.grad, m[2].bias.grad]
""",
    "checkpoint_sequential": """
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
inp = torch.arange(6.).reshape(2, 3).sin().requires_grad_()
out = CK.checkpoint_sequential(m, 2, inp, use_reentrant=False)
out.sum().backward()
result = [out, inp.grad, m[0].weight.grad]
""",
    "checkpoint_sequential_reentrant": """
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
inp = torch.arange(6.).reshape(2, 3).sin().requires_grad_()
out = CK.checkpoint_sequential(m, 3, inp, use_reentrant=True)
out.sum().backward()
result = [out, inp.grad]
""",
    "checkpoint_sequential_kwargs": (
        "CK.checkpoint_sequential([], 1, x, use_reentrant=False, foo=1)"
    ),
    "checkpoint_double_backward": """
a = x.clone().requires_grad_()
out = CK.checkpoint(lambda t: t ** 3, a, use_reentrant=False)
g, = torch.autograd.grad(out.sum(), a, create_graph=True)
g2, = torch.autograd.grad(g.sum(), a)
result = [g, g2]
""",
    # ---------------------------------------------------------------- anomaly mode
    "anomaly_enable_warns": """
with torch.autograd.detect_anomaly():
    pass
result = torch.is_anomaly_enabled()
""",
    "anomaly_flags": """
torch.autograd.set_detect_anomaly(True, check_nan=False)
r = [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
torch.autograd.set_detect_anomaly(False)
result = r + [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
""",
    "anomaly_context_restores": """
with torch.autograd.set_detect_anomaly(True):
    inside = torch.is_anomaly_enabled()
result = [inside, torch.is_anomaly_enabled()]
""",
    "anomaly_nan": """
a = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    b = a.sqrt() * 0
    (b / b).sum().backward()
""",
    "anomaly_nan_off": """
a = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=False):
    b = a.sqrt() * 0
    (b / b).sum().backward()
result = a.grad
""",
    "anomaly_function_error": """
class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        raise ValueError("boom")
a = x.clone().requires_grad_()
with torch.autograd.detect_anomaly():
    Boom.apply(a).sum().backward()
""",
    # ---------------------------------------------------------------- autograd.Function
    "function_setup_context": """
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(t, k):
        return t * t * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        t, k = inputs
        ctx.save_for_backward(t)
        ctx.k = k
    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return g * 2 * t * ctx.k, None
a = x.clone().requires_grad_()
out = Sq.apply(a, 3.0)
out.sum().backward()
result = [out, a.grad, out.grad_fn.name()]
""",
    "function_non_differentiable": """
class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        idx = t.argmax().reshape(1).float()
        ctx.mark_non_differentiable(idx)
        return t * 2, idx
    @staticmethod
    def backward(ctx, g, gidx):
        return g * 2
a = x.clone().requires_grad_()
o, i = TwoOut.apply(a)
o.sum().backward()
result = [o.requires_grad, i.requires_grad, a.grad]
""",
    "grad_materialize_unused": """
a = x.clone().requires_grad_()
b = x.clone().requires_grad_()
g = torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)
result = [g[0], g[1], g[1].requires_grad, g[1]._is_zerotensor()]
""",
    "grad_materialize_create_graph": """
a = x.clone().requires_grad_()
b = x.clone().requires_grad_()
g = torch.autograd.grad((a * a).sum(), [a, b], materialize_grads=True, create_graph=True)
result = [g[0], g[1], g[1].requires_grad, g[1].is_leaf, g[1]._is_zerotensor()]
""",
    "grad_unused_not_allowed": """
a = x.clone().requires_grad_()
b = x.clone().requires_grad_()
torch.autograd.grad((a * 2).sum(), [a, b])
""",
    "function_materialize_false": """
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.set_materialize_grads(False)
        return t * 2, t * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return (g1 if g1 is not None else 0) + (g2 is None) * 100
a = x.clone().requires_grad_()
o1, o2 = Two.apply(a)
o1.sum().backward()
result = a.grad
""",
    "function_materialize_true": """
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2, t * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2 * 10
a = x.clone().requires_grad_()
o1, o2 = Two.apply(a)
o1.sum().backward()
result = a.grad
""",
    "function_once_differentiable": """
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return g * 2 * t
a = x.clone().requires_grad_()
g, = torch.autograd.grad(Sq.apply(a).sum(), a, create_graph=True)
result = [g, g.requires_grad]
g.sum().backward()
""",
}


def _enc_tensor(t: Any) -> dict[str, Any]:
    t = t.detach()
    return {"tensor": t.tolist(), "shape": list(t.shape), "dtype": str(t.dtype).rpartition(".")[2]}


def encode(value: Any, torch: Any) -> Any:
    """A JSON form of a result."""
    if isinstance(value, torch.Tensor):
        return _enc_tensor(value)
    if isinstance(value, torch.Size):
        return {"size": list(value)}
    if isinstance(value, dict):
        return {"dict": {str(k): encode(v, torch) for k, v in value.items()}}
    if isinstance(value, (tuple, list)):
        return {"seq": [encode(v, torch) for v in value], "kind": type(value).__name__}
    if isinstance(value, str):
        return {"value": value.replace("keyroute.", "torch.")}  # str(dtype) names its module
    if value is None or isinstance(value, (bool, int, float)):
        return {"value": value}
    return {"repr": type(value).__name__}


def _message(e: BaseException) -> str:
    # keyroute's own name where PyTorch's appears in a message: compare the rest.
    return str(e).replace("keyroute.", "torch.")


def run_program(name: str, torch: Any) -> dict[str, Any]:
    return run_code(PRELUDE, PROGRAMS[name], torch)


def run_code(prelude: str, code: str, torch: Any) -> dict[str, Any]:
    """Run one program (after its prelude) and return its outcome: result or error, and the
    user-facing warnings it raised."""
    mod = torch.__name__
    env: dict[str, Any] = {
        "torch": torch,
        "nn": importlib.import_module(mod + ".nn"),
        "F": importlib.import_module(mod + ".nn.functional"),
        "AF": importlib.import_module(mod + ".autograd.functional"),
        "G": importlib.import_module(mod + ".autograd.graph"),
        "CK": importlib.import_module(mod + ".utils.checkpoint"),
    }
    importlib.import_module(mod + ".utils._python_dispatch")
    exec(prelude, env)
    prev = (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    out: dict[str, Any]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, env)
            out = {"result": encode(env.get("result"), torch)}
        except Exception as e:  # the program's error is the recorded outcome
            out = {"error": type(e).__name__, "msg": _message(e)}
        finally:
            torch.autograd.set_detect_anomaly(*prev)
    # The warnings a user sees from these APIs (UserWarning and kin); NumPy's floating-point
    # RuntimeWarnings and PyTorch's import-time DeprecationWarnings are not part of them.
    out["warnings"] = sorted(
        {
            f"{w.category.__name__}: {str(w.message).split(chr(10))[0]}"
            for w in caught
            if not issubclass(w.category, (RuntimeWarning, DeprecationWarning))
        }
    )
    return out
