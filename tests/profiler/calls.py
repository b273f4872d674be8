"""Single operator calls whose torch.profiler event trees keyroute's profiler must reproduce:
the operators PyTorch's C++ kernels call through the dispatcher (keyroute/profiler/
_internal_calls.py adds them). Each case is one expression over the tensors SETUP makes,
profiled alone; tools/record_profiler.py records PyTorch 2.13's trees into
tests/data/profiler_calls.json."""

from __future__ import annotations

import collections
from typing import Any

SETUP = """
A = torch.randn(4, 5)
T = torch.randn(5, 4).t()
I = torch.arange(6).reshape(2, 3)
S = A[:, ::2]
x3 = torch.randn(2, 3, 4)
Q = torch.randn(1, 2, 3, 4)
F = torch.nn.functional
"""

CASES: dict[str, str] = {
    "sum_full": "A.sum()",
    "sum_dim": "A.sum(1)",
    "sum_keep": "A.sum(1, keepdim=True)",
    "sum_dims": "x3.sum((0,2))",
    "sum_int": "I.sum()",
    "sum_dtype": "A.sum(dtype=torch.float64)",
    "sum_T": "T.sum(0)",
    "mean_full": "A.mean()",
    "mean_dim": "A.mean(1)",
    "mean_keep": "A.mean(-1, keepdim=True)",
    "mse_mean": "torch.nn.functional.mse_loss(A, A)",
    "mse_sum": "torch.nn.functional.mse_loss(A, A, reduction='sum')",
    "mse_none": "torch.nn.functional.mse_loss(A, A, reduction='none')",
    "max_dim": "A.max(dim=1)",
    "max_keep": "A.max(1, keepdim=True)",
    "min_dim": "A.min(0)",
    "max_full": "A.max()",
    "abs": "A.abs()",
    "neg": "A.neg()",
    "exp": "A.exp()",
    "where": "torch.where(A>0, A, 0.0)",
    "where_t": "torch.where(A>0, A, A)",
    "nonzero": "A.nonzero()",
    "nonzero1": "torch.ones(3).nonzero()",
    "gt_s": "A > 5",
    "gt_f": "A > 5.0",
    "gt_t": "A > A",
    "gt_i": "I > 2",
    "gt_if": "I > 2.5",
    "eq_s": "A == 0",
    "clamp": "A.clamp(min=1e-9)",
    "clamp_i": "I.clamp(min=1)",
    "clamp_if": "I.clamp(min=0.5)",
    "clampmax": "A.clamp(max=1)",
    "clamp_t": "A.clamp(min=A)",
    "rsub": "1.0 - A",
    "rsub_i": "1 - A",
    "rsub_ii": "1 - I",
    "pow2": "A.pow(2)",
    "pow_f": "A ** 0.5",
    "pow_i": "I ** 2",
    "pow_if": "I ** 2.0",
    "rpow": "2 ** A",
    "to_noop": "A.to(torch.float32)",
    "to_d": "A.to(torch.float64)",
    "to_T": "T.to(torch.float64)",
    "to_S": "S.to(torch.float64)",
    "to_cf": "T.to(torch.float64, memory_format=torch.contiguous_format)",
    "double": "A.double()",
    "float_": "I.float()",
    "ones_like": "torch.ones_like(A)",
    "ones_like_T": "torch.ones_like(T)",
    "ones_like_S": "torch.ones_like(S)",
    "zeros_like": "torch.zeros_like(A)",
    "empty_like": "torch.empty_like(A)",
    "empty_like_S": "torch.empty_like(S)",
    "full_like": "torch.full_like(A, 2.0)",
    "expand": "A[:1].expand(3,5)",
    "expand_as": "A[:1].expand_as(A)",
    "addmm_": "A.clone().add_(1.0)",
    "mul_i": "A.clone().mul_(2)",
    "mul_t": "A.clone().mul_(A)",
    "div_": "A.clone().div_(3)",
    "sub_": "A.clone().sub_(1)",
    "i_add": "I.clone().add_(1)",
    "i_addf": "A.clone().add_(1, alpha=2)",
    "add_a": "A.add(A, alpha=2)",
    "add_sa": "A.add(2, alpha=2)",
    "lerp_": "A.clone().lerp_(A, 0.5)",
    "addcmul_": "A.clone().addcmul_(A, A, value=0.5)",
    "addcdiv_": "A.clone().addcdiv_(A, A.abs()+1, value=-0.1)",
    "sqrt": "A.abs().sqrt()",
    "div_t": "A / A",
    "div_s": "A / 2",
    "i_plus_f": "I + 2.5",
    "i_mul_f": "I * 2.5",
    "a_plus_b": "A + True",
    "rem": "A % 2",
    "fmod": "A.fmod(2)",
    "remi": "I % 2",
    "d_plus": "A.double() + 1.0",
    "lt_d": "A.double() < 1.0",
    "h_plus": "A.half() + 1.0",
    "emb1": "torch.nn.functional.embedding(torch.tensor([1,2]), A)",
    "emb2": "torch.nn.functional.embedding(torch.tensor([[1,2]]), A)",
    "ln": "torch.nn.functional.layer_norm(A, (5,))",
    "ln3": "torch.nn.functional.layer_norm(x3, (4,))",
    "ln_nc": "torch.nn.functional.layer_norm(T, (5,))",
    "ln_noaff": "torch.nn.functional.layer_norm(A, (5,), torch.ones(5), torch.zeros(5))",
    "arange": "torch.arange(5)",
    "arange2": "torch.arange(1, 5)",
    "arange3": "torch.arange(0, 5, 2)",
    "arangef": "torch.arange(5.0)",
    "flatten": "x3.flatten()",
    "flatten1": "x3.flatten(1)",
    "flattenT": "T.flatten()",
    "lin3": "torch.nn.functional.linear(x3, torch.randn(3,4), torch.randn(3))",
    "lin3nb": "torch.nn.functional.linear(x3, torch.randn(3,4))",
    "lin1": "torch.nn.functional.linear(torch.randn(4), torch.randn(3,4), torch.randn(3))",
    "lin3T": "torch.nn.functional.linear(x3.transpose(0,1), torch.randn(3,4), torch.randn(3))",
    "sdpa": "F.scaled_dot_product_attention(Q, Q, Q)",
    "sdpa_m": "F.scaled_dot_product_attention(Q, Q, Q, attn_mask=torch.zeros(1,1,1,3))",
    "sdpa_m4": "F.scaled_dot_product_attention(Q, Q, Q, attn_mask=torch.zeros(1,2,3,3))",
    "sdpa_c": "F.scaled_dot_product_attention(Q, Q, Q, is_causal=True)",
    "index_copy": "torch.zeros(4,3).index_copy_(0, torch.tensor([0,2]), torch.ones(2,3))",
    "index_copy1": "torch.zeros(4).index_copy_(0, torch.tensor([0,2]), torch.ones(2))",
    "index_select": "A.index_select(0, torch.tensor([0,2]))",
    "index_select1": "torch.ones(4).index_select(0, torch.tensor([0,2]))",
    "cat": "torch.cat([A, A])",
    "stack": "torch.stack([A, A])",
    "softmax": "A.softmax(-1)",
    "gelu": "torch.nn.functional.gelu(A)",
    "silu": "torch.nn.functional.silu(A)",
    "tanh": "A.tanh()",
    "relu": "A.relu()",
    "normalize": "torch.nn.functional.normalize(A, dim=1)",
    "tensor": "torch.tensor([1.0, 2.0])",
    "tensor2": "torch.tensor([[1, 2]])",
    "tolist": "A.tolist()",
    "item": "A[0,0].item()",
    "ce": "torch.nn.functional.cross_entropy(A, torch.tensor([0,1,2,3]))",
    "clone": "A.clone()",
    "contig": "T.contiguous()",
    "reshapeT": "T.reshape(-1)",
    "view": "A.view(-1)",
    "select": "A[0]",
    "index": "A[torch.tensor([0,1])]",
    "zeros": "torch.zeros(3)",
    "ones": "torch.ones(3)",
    "full": "torch.full((2,), 3.0)",
    "randn": "torch.randn(3)",
    "empty": "torch.empty(3)",
}


def trees(events: Any) -> list[str]:
    """The event forest as strings, children in start order: 'aten::sum(aten::fill_)'."""
    evs = list(events)
    kids: dict[int, list[Any]] = collections.defaultdict(list)
    for e in evs:
        kids[id(e.cpu_parent)].append(e)

    def s(e: Any) -> str:
        ch = sorted(kids.get(id(e), []), key=lambda x: x.time_range.start)
        return e.name + ("(" + ", ".join(s(c) for c in ch) + ")" if ch else "")

    top = sorted((e for e in evs if e.cpu_parent is None), key=lambda x: x.time_range.start)
    return [s(e) for e in top]


def record(torch_module: Any) -> dict[str, list[str]]:
    ns: dict[str, Any] = {"torch": torch_module}
    exec(SETUP, ns)
    out = {}
    for name, expr in CASES.items():
        fn = eval(f"lambda: {expr}", ns)
        with torch_module.profiler.profile() as prof:
            fn()
        out[name] = trees(prof.events())
    return out
