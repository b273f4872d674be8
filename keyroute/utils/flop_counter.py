"""FlopCounterMode: count the FLOPs of matmuls, convolutions and attention, per module.

PyTorch's formulas (torch.utils.flop_counter): a (m,k)x(k,n) product is 2*m*k*n; bmm and
baddbmm likewise per batch; convolution 2 * batch * c_out * c_in/groups * prod(kernel) *
prod(output spatial); attention two batched products. Other operators count 0.

>>> import keyroute
>>> with FlopCounterMode(display=False) as fc:
...     _ = keyroute.ones(4, 8) @ keyroute.ones(8, 16)
>>> fc.get_total_flops()
1024
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from math import prod
from typing import Any

from .module_tracker import ModuleTracker
from .python_dispatch import TorchDispatchMode

__all__ = ["FlopCounterMode", "register_flop_formula", "FLOP_FORMULAS"]

FLOP_FORMULAS: dict[str, Callable[..., int]] = {}


def register_flop_formula(*names: str) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Register a formula(args, kwargs, out) -> FLOPs for the given aten overloads."""

    def deco(fn: Callable[..., int]) -> Callable[..., int]:
        for n in names:
            FLOP_FORMULAS[n] = fn
        return fn

    return deco


def _shape(t: Any) -> tuple[int, ...]:
    return tuple(t.shape)


def mm_flop(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    m, k = a
    k2, n = b
    return 2 * m * k * n


def bmm_flop(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    bsz, m, k = a
    _, _, n = b
    return 2 * bsz * m * n * k


@register_flop_formula("aten::mm")
def _mm(args: Any, kwargs: Any, out: Any) -> int:
    return mm_flop(_shape(args[0]), _shape(args[1]))


@register_flop_formula("aten::addmm")
def _addmm(args: Any, kwargs: Any, out: Any) -> int:
    return mm_flop(_shape(args[1]), _shape(args[2]))


@register_flop_formula("aten::bmm")
def _bmm(args: Any, kwargs: Any, out: Any) -> int:
    return bmm_flop(_shape(args[0]), _shape(args[1]))


@register_flop_formula("aten::baddbmm")
def _baddbmm(args: Any, kwargs: Any, out: Any) -> int:
    return bmm_flop(_shape(args[1]), _shape(args[2]))


def conv_flop_count(x_shape: tuple[int, ...], w_shape: tuple[int, ...], out_shape: tuple[int, ...],
                    transposed: bool = False) -> int:  # fmt: skip
    batch = x_shape[0]
    conv_shape = (x_shape if transposed else out_shape)[2:]
    c_out, c_in, *filt = w_shape
    return prod(conv_shape) * prod(filt) * batch * c_out * c_in * 2


@register_flop_formula("aten::convolution", "aten::_convolution")
def _conv(args: Any, kwargs: Any, out: Any) -> int:
    transposed = args[6] if len(args) > 6 else kwargs.get("transposed", False)
    return conv_flop_count(_shape(args[0]), _shape(args[1]), _shape(out), bool(transposed))


@register_flop_formula("aten::convolution_backward")
def _conv_backward(args: Any, kwargs: Any, out: Any) -> int:
    grad_out, x, w = args[0], args[1], args[2]
    transposed = args[7] if len(args) > 7 else False
    mask = args[-1] if isinstance(args[-1], (list, tuple)) else (True, True, True)
    flops = 0
    if mask[0]:
        flops += conv_flop_count(_shape(grad_out), _shape(w), _shape(x), not transposed)
    if mask[1]:
        if transposed:
            flops += conv_flop_count(_t(_shape(grad_out)), _t(_shape(x)), _t(_shape(w)), False)
        else:
            flops += conv_flop_count(_t(_shape(x)), _t(_shape(grad_out)), _t(_shape(w)), False)
    return flops


def _t(shape: tuple[int, ...]) -> tuple[int, ...]:
    return (shape[1], shape[0], *shape[2:])


def sdpa_flop_count(q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...]) -> int:
    b, h, s_q, d_q = q
    _, _, s_k, _ = k
    _, _, _, d_v = v
    return bmm_flop((b * h, s_q, d_q), (b * h, d_q, s_k)) + bmm_flop((b * h, s_q, s_k), (b * h, s_k, d_v))


@register_flop_formula(
    "aten::_scaled_dot_product_flash_attention_for_cpu",
    "aten::_scaled_dot_product_flash_attention",
    "aten::_scaled_dot_product_efficient_attention",
    "aten::_scaled_dot_product_cudnn_attention",
)
def _sdpa(args: Any, kwargs: Any, out: Any) -> int:
    return sdpa_flop_count(_shape(args[0]), _shape(args[1]), _shape(args[2]))


class FlopCounterMode(TorchDispatchMode):
    """Count FLOPs of every operator with a formula, by operator and by module."""

    def __init__(self, mods: Any = None, depth: int = 2, display: bool = True,
                 custom_mapping: dict[Any, Callable[..., int]] | None = None) -> None:  # fmt: skip
        super().__init__()
        self.depth = depth
        self.display = display
        self.flop_counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.formulas = dict(FLOP_FORMULAS)
        for op, fn in (custom_mapping or {}).items():
            self.formulas[op.name() if hasattr(op, "name") else str(op)] = fn
        self.tracker = ModuleTracker()

    def get_total_flops(self) -> int:
        return sum(self.flop_counts["Global"].values())

    def get_flop_counts(self) -> dict[str, dict[Any, int]]:
        return {k: dict(v) for k, v in self.flop_counts.items()}

    def get_table(self, depth: int | None = None) -> str:
        depth = self.depth if depth is None else depth
        total = self.get_total_flops()
        rows = [("Module", "FLOP", "% Total")]
        for mod in sorted(self.flop_counts, key=lambda m: (m != "Global", m)):
            if mod != "Global" and mod.count(".") + 1 > depth:
                continue
            flops = sum(self.flop_counts[mod].values())
            pct = f"{100 * flops / total:.2f}%" if total else "0.00%"
            rows.append((mod, _human(flops), pct))
            for op, n in sorted(self.flop_counts[mod].items()):
                rows.append((f" - {op}", _human(n), f"{100 * n / total:.2f}%" if total else "0.00%"))
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(lines)

    def __enter__(self) -> FlopCounterMode:
        self.flop_counts.clear()
        self.tracker.__enter__()
        super().__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        super().__exit__(*exc)
        self.tracker.__exit__(*exc)
        if self.display:
            print(self.get_table(self.depth))

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        formula = self.formulas.get(func._name) or self.formulas.get(func.qualified_name())
        if formula is not None:
            flops = formula(args, kwargs, out)
            packet = str(func.overloadpacket)
            for parent in self.tracker.parents:
                self.flop_counts[parent][packet] += flops
        return out


def _human(n: int) -> str:
    for unit, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            return f"{n / scale:.3f}{unit}"
    return str(n)
