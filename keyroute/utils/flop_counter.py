"""FlopCounterMode: count the FLOPs of matmuls, convolutions and attention, per module.

PyTorch 2.13's torch.utils.flop_counter, formula for formula: a (m,k)x(k,n) product is
2*m*k*n; bmm/baddbmm the same per batch; a convolution 2 * batch * c_out * c_in/groups *
prod(kernel) * prod(output spatial) (input spatial when transposed), its backward the two
convolutions it amounts to; attention the two batched products (five in backward). Other
operators count 0, as in PyTorch: that includes the CPU flash-attention kernel
(`_scaled_dot_product_flash_attention_for_cpu`) and its fused backward
(`_scaled_dot_product_flash_attention_for_cpu_backward`), which PyTorch's registry has no
formula for.

Counts are kept per module (ModuleTracker: "Global", "Net", "Net.blocks.0", ...) and per
operator packet, printed as PyTorch prints them ('aten.mm'); the inner dicts are keyed by that
string.

>>> import keyroute
>>> with FlopCounterMode(display=False) as fc:
...     _ = keyroute.ones(4, 8) @ keyroute.ones(8, 16)
>>> fc.get_total_flops()
1024
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable
from math import prod
from typing import Any

from .module_tracker import ModuleTracker
from .python_dispatch import TorchDispatchMode

__all__ = [
    "FlopCounterMode",
    "register_flop_formula",
    "flop_registry",
    "mm_flop",
    "addmm_flop",
    "bmm_flop",
    "baddbmm_flop",
    "conv_flop_count",
    "conv_flop",
    "conv_backward_flop",
    "sdpa_flop_count",
    "sdpa_flop",
    "sdpa_backward_flop_count",
    "sdpa_backward_flop",
]

#: "ns::name" of an operator packet -> formula(*args, out_val=..., **kwargs) -> FLOPs.
flop_registry: dict[str, Callable[..., int]] = {}


def _packet_name(target: Any) -> str:
    if isinstance(target, str):
        return target.replace(".", "::", 1) if "::" not in target else target
    name = getattr(target, "_qualified_op_name", None)
    if name is None:
        raise ValueError(
            f"register_flop_formula(targets): expected each target to be OpOverloadPacket (i.e. "
            f"torch.ops.mylib.foo), JitFunction, or HigherOrderOperator, got {target} which is "
            f"of type {type(target)}"
        )
    return name


def get_shape(i: Any) -> Any:
    return tuple(i.shape) if hasattr(i, "_key_set") else i


def _tree_map(fn: Callable[[Any], Any], v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return type(v)(_tree_map(fn, x) for x in v)
    if isinstance(v, dict):
        return {k: _tree_map(fn, x) for k, x in v.items()}
    return fn(v)


def shape_wrapper(f: Callable[..., int]) -> Callable[..., int]:
    """Call the formula with tensor shapes in place of tensors (and `out_shape`)."""

    def nf(*args: Any, out_val: Any = None, **kwargs: Any) -> int:
        args, kwargs, out_shape = _tree_map(get_shape, (args, kwargs, out_val))
        return f(*args, out_shape=out_shape, **kwargs)

    nf.__name__ = getattr(f, "__name__", "formula")
    nf.__doc__ = f.__doc__
    return nf


def register_flop_formula(targets: Any, get_raw: bool = False) -> Callable[[Any], Any]:
    """Register a formula for operator packets (`keyroute.ops.aten.mm` or "aten::mm")."""

    def register_fun(formula: Callable[..., int]) -> Callable[..., int]:
        wrapped = formula if get_raw else shape_wrapper(formula)
        for target in targets if isinstance(targets, (list, tuple)) else [targets]:
            name = _packet_name(target)
            if name in flop_registry:
                raise RuntimeError(f"duplicate registrations for {target}")
            flop_registry[name] = wrapped
        return wrapped

    return register_fun


@register_flop_formula("aten::mm")
def mm_flop(a_shape: Any, b_shape: Any, *args: Any, out_shape: Any = None, **kwargs: Any) -> int:
    """Count flops for matmul."""
    m, k = a_shape
    k2, n = b_shape
    if k != k2:
        raise AssertionError(f"matmul: inner dimensions must match (k == k2), got {k} and {k2}")
    return m * n * 2 * k


@register_flop_formula("aten::addmm")
def addmm_flop(
    self_shape: Any, a_shape: Any, b_shape: Any, out_shape: Any = None, **kwargs: Any
) -> int:
    """Count flops for addmm (the addition is not counted)."""
    return mm_flop(a_shape, b_shape)


@register_flop_formula("aten::bmm")
def bmm_flop(a_shape: Any, b_shape: Any, out_shape: Any = None, **kwargs: Any) -> int:
    """Count flops for the bmm operation."""
    b, m, k = a_shape
    b2, k2, n = b_shape
    if b != b2 or k != k2:
        raise AssertionError(
            f"bmm: batch dimensions and inner dimensions must match, got {a_shape} and {b_shape}"
        )
    return b * m * n * 2 * k


@register_flop_formula("aten::baddbmm")
def baddbmm_flop(
    self_shape: Any, a_shape: Any, b_shape: Any, out_shape: Any = None, **kwargs: Any
) -> int:
    """Count flops for the baddbmm operation (the addition is not counted)."""
    return bmm_flop(a_shape, b_shape)


def conv_flop_count(x_shape: Any, w_shape: Any, out_shape: Any, transposed: bool = False) -> int:
    """Count flops for convolution: multiplications and additions of the products; bias
    ignored. A transposed convolution counts per input (not output) spatial point."""
    batch_size = x_shape[0]
    conv_shape = (x_shape if transposed else out_shape)[2:]
    c_out, c_in, *filter_size = w_shape
    return prod(conv_shape) * prod(filter_size) * batch_size * c_out * c_in * 2


@register_flop_formula(
    [
        "aten::convolution",
        "aten::_convolution",
        "aten::cudnn_convolution",
        "aten::_slow_conv2d_forward",
        "aten::convolution_overrideable",
    ]
)
def conv_flop(
    x_shape: Any,
    w_shape: Any,
    _bias: Any,
    _stride: Any,
    _padding: Any,
    _dilation: Any,
    transposed: bool,
    *args: Any,
    out_shape: Any = None,
    **kwargs: Any,
) -> int:
    """Count flops for convolution."""
    return conv_flop_count(x_shape, w_shape, out_shape, transposed=transposed)


def _t(shape: Any) -> list[int]:
    return [shape[1], shape[0], *list(shape[2:])]


@register_flop_formula("aten::convolution_backward")
def conv_backward_flop(
    grad_out_shape: Any,
    x_shape: Any,
    w_shape: Any,
    _bias: Any,
    _stride: Any,
    _padding: Any,
    _dilation: Any,
    transposed: bool,
    _output_padding: Any,
    _groups: Any,
    output_mask: Any,
    out_shape: Any,
    **kwargs: Any,
) -> int:
    """Count flops for the convolution backward: grad_input is a transposed convolution of
    grad_out with the weight, grad_weight a convolution of the input with grad_out."""
    flops = 0
    if output_mask[0]:
        grad_input_shape = get_shape(out_shape[0])
        flops += conv_flop_count(grad_out_shape, w_shape, grad_input_shape, not transposed)
    if output_mask[1]:
        grad_weight_shape = get_shape(out_shape[1])
        if transposed:
            flops += conv_flop_count(_t(grad_out_shape), _t(x_shape), _t(grad_weight_shape))
        else:
            flops += conv_flop_count(_t(x_shape), _t(grad_out_shape), _t(grad_weight_shape))
    return flops


def sdpa_flop_count(query_shape: Any, key_shape: Any, value_shape: Any) -> int:
    """Count flops for attention (query heads may be a multiple of the key/value heads)."""
    b, h_q, s_q, d_q = query_shape
    b2, h_kv, s_k, d2 = key_shape
    b3, h3, s3, d_v = value_shape
    if not (b == b2 == b3 and h_kv == h3 and d_q == d2 and s_k == s3):
        raise AssertionError(
            f"sdpa_flop_count: query/key/value shapes are incompatible: q={query_shape}, "
            f"k={key_shape}, v={value_shape}"
        )
    if h_q < h_kv or h_q % h_kv != 0:
        raise AssertionError(
            f"sdpa_flop_count: query heads ({h_q}) must be a multiple of key/value heads ({h_kv})"
        )
    return bmm_flop((b * h_q, s_q, d_q), (b * h_q, d_q, s_k)) + bmm_flop(
        (b * h_q, s_q, s_k), (b * h_q, s_k, d_v)
    )


@register_flop_formula(
    [
        "aten::_scaled_dot_product_efficient_attention",
        "aten::_scaled_dot_product_flash_attention",
        "aten::_scaled_dot_product_cudnn_attention",
    ]
)
def sdpa_flop(
    query_shape: Any,
    key_shape: Any,
    value_shape: Any,
    *args: Any,
    out_shape: Any = None,
    **kwargs: Any,
) -> int:
    """Count flops for self-attention."""
    return sdpa_flop_count(query_shape, key_shape, value_shape)


def sdpa_backward_flop_count(
    grad_out_shape: Any, query_shape: Any, key_shape: Any, value_shape: Any
) -> int:
    """Count flops for the attention backward: the scores again, then four products."""
    b, h_q, s_q, d_q = query_shape
    b2, h_kv, s_k, d2 = key_shape
    b3, h3, s3, d_v = value_shape
    b4, h4, s4, d4 = grad_out_shape
    if not (b == b2 == b3 == b4 and h_kv == h3 and h_q == h4):
        raise AssertionError("sdpa_backward_flop_count: batch/heads mismatch among tensors")
    if h_q < h_kv or h_q % h_kv != 0:
        raise AssertionError(
            f"sdpa_backward_flop_count: query heads ({h_q}) must be a multiple of key/value "
            f"heads ({h_kv})"
        )
    if not (d_q == d2 and d_v == d4 and s_k == s3 and s_q == s4):
        raise AssertionError(
            "sdpa_backward_flop_count: grad_out/value/key/query shapes are incompatible"
        )
    bh = b * h_q
    return (
        bmm_flop((bh, s_q, d_q), (bh, d_q, s_k))
        + bmm_flop((bh, s_q, d_v), (bh, d_v, s_k))
        + bmm_flop((bh, s_k, s_q), (bh, s_q, d_v))
        + bmm_flop((bh, s_q, s_k), (bh, s_k, d_q))
        + bmm_flop((bh, d_q, s_q), (bh, s_q, s_k))
    )


@register_flop_formula(
    [
        "aten::_scaled_dot_product_efficient_attention_backward",
        "aten::_scaled_dot_product_flash_attention_backward",
        "aten::_scaled_dot_product_cudnn_attention_backward",
    ]
)
def sdpa_backward_flop(
    grad_out_shape: Any,
    query_shape: Any,
    key_shape: Any,
    value_shape: Any,
    *args: Any,
    out_shape: Any = None,
    **kwargs: Any,
) -> int:
    """Count flops for self-attention backward."""
    return sdpa_backward_flop_count(grad_out_shape, query_shape, key_shape, value_shape)


# -- the table (PyTorch's layout) -------------------------------------------------------------

suffixes = ["", "K", "M", "B", "T"]


def get_suffix_str(number: int) -> str:
    index = max(0, min(len(suffixes) - 1, (len(str(number)) - 2) // 3))
    return suffixes[index]


def convert_num_with_suffix(number: int, suffix: str) -> str:
    index = suffixes.index(suffix)
    return f"{number / 1000**index:.3f}" + suffixes[index]


def convert_to_percent_str(num: int, denom: int) -> str:
    if denom == 0:
        return "0%"
    return f"{num / denom:.2%}"


def _tabulate(rows: list[list[str]], header: list[str]) -> str:
    """tabulate's "simple" format with columns aligned left, right, right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]

    def line(r: list[str]) -> str:
        cells = [r[0].ljust(widths[0]), r[1].rjust(widths[1]), r[2].rjust(widths[2])]
        return "  ".join(cells).rstrip()

    out = [
        "  ".join(
            [header[0].ljust(widths[0]), header[1].rjust(widths[1]), header[2].rjust(widths[2])]
        ),
        "  ".join("-" * w for w in widths),
    ]
    out.extend(line(r) for r in rows)
    return "\n".join(out)


class FlopCounterMode:
    """Count the FLOPs of the operators run inside the block, per module (torch's
    FlopCounterMode). `mods` is accepted and ignored (with PyTorch's warning)."""

    def __init__(
        self,
        mods: Any = None,
        depth: int = 2,
        display: bool = True,
        custom_mapping: dict[Any, Any] | None = None,
    ) -> None:
        self.flop_counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.depth = depth
        self.display = display
        self.mode: _FlopCounterMode | None = None
        if mods is not None:
            warnings.warn(
                "mods argument is not needed anymore, you can stop passing it", stacklevel=2
            )
        self.flop_registry = dict(flop_registry)
        for k, v in (custom_mapping or {}).items():
            self.flop_registry[_packet_name(k)] = (
                v if getattr(v, "_get_raw", False) else (shape_wrapper(v))
            )
        self.mod_tracker = ModuleTracker()

    def get_total_flops(self) -> int:
        return sum(self.flop_counts["Global"].values())

    def get_flop_counts(self) -> dict[str, dict[str, int]]:
        """{module name: {operator ('aten.mm'): FLOPs}}."""
        return {k: dict(v) for k, v in self.flop_counts.items()}

    def get_table(self, depth: int | None = None) -> str:
        if depth is None:
            depth = self.depth
        if depth is None:
            depth = 999999
        header = ["Module", "FLOP", "% Total"]
        global_flops = self.get_total_flops()
        suffix = get_suffix_str(global_flops)
        subsumed = False

        def process_mod(name: str, level: int) -> list[list[str]]:
            nonlocal subsumed
            total = sum(self.flop_counts[name].values())
            subsumed |= total >= global_flops
            pad = " " * level
            rows = [
                [
                    pad + name,
                    convert_num_with_suffix(total, suffix),
                    convert_to_percent_str(total, global_flops),
                ]
            ]
            for k, v in self.flop_counts[name].items():
                rows.append(
                    [
                        pad + " - " + str(k),
                        convert_num_with_suffix(v, suffix),
                        convert_to_percent_str(v, global_flops),
                    ]
                )
            return rows

        values: list[list[str]] = []
        for mod in sorted(self.flop_counts.keys()):
            if mod == "Global":
                continue
            mod_depth = mod.count(".") + 1
            if mod_depth > depth:
                continue
            values.extend(process_mod(mod, mod_depth - 1))
        if "Global" in self.flop_counts and not subsumed:
            for v in values:
                v[0] = " " + v[0]
            values = process_mod("Global", 0) + values
        if not values:
            values = [["Global", "0", "0%"]]
        return _tabulate(values, header)

    def __enter__(self) -> FlopCounterMode:
        self.flop_counts.clear()
        self.mod_tracker.__enter__()
        self.mode = _FlopCounterMode(self)
        self.mode.__enter__()
        return self

    def __exit__(self, *args: Any) -> None:
        if self.mode is None:
            raise AssertionError("Internal error: FlopCounter.__exit__ called but mode is None")
        self.mode.__exit__(*args)
        self.mode = None
        self.mod_tracker.__exit__()
        if self.display:
            print(self.get_table(self.depth))

    def _count_flops(self, packet: str, out: Any, args: Any, kwargs: Any) -> Any:
        formula = self.flop_registry.get(packet)
        if formula is not None:
            flops = formula(*args, **kwargs, out_val=out)
            name = packet.replace("::", ".", 1)
            for parent in set(self.mod_tracker.parents):
                self.flop_counts[parent][name] += flops
        return out


class _FlopCounterMode(TorchDispatchMode):
    def __init__(self, counter: FlopCounterMode) -> None:
        super().__init__()
        self.counter = counter

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        return self.counter._count_flops(func._name, out, args, kwargs)
