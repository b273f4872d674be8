"""Operators under CPU autocast, run under PyTorch 2.13 (tools/record_autocast.py) and keyroute
(tests/layers/test_autocast.py): for each case, autocast dtype (bfloat16, float16) and input
variant, the output dtypes (or the error) and the aten calls a dispatch mode sees below the
Autocast layer (with each `_to_copy`'s dtype).

A case is (call, inputs): `call` formats with the inputs `{0}`, `{1}`, ...; an input is a
shape (a floating tensor), ("long", shape, high) or ("bool", shape). Variants give the
floating inputs their dtypes: "fp32" all float32, "low" all the autocast dtype, "mixed" the
first float32 and the rest low, "fp64" all float64.
"""

from __future__ import annotations

import sys
from typing import Any

CASES: dict[str, tuple[str, list[Any]]] = {
    # -- lower_precision_fp
    "mm": ("torch.mm({0}, {1})", [(3, 4), (4, 5)]),
    "bmm": ("torch.bmm({0}, {1})", [(2, 3, 4), (2, 4, 5)]),
    "baddbmm": ("torch.baddbmm({0}, {1}, {2})", [(2, 3, 5), (2, 3, 4), (2, 4, 5)]),
    "addmm": ("torch.addmm({0}, {1}, {2})", [(3, 5), (3, 4), (4, 5)]),
    "matmul_2d": ("torch.matmul({0}, {1})", [(3, 4), (4, 5)]),
    "matmul_1d": ("torch.matmul({0}, {1})", [(4,), (4,)]),
    "matmul_batched": ("torch.matmul({0}, {1})", [(2, 3, 4), (4, 5)]),
    "matmul_operator": ("{0} @ {1}", [(3, 4), (4, 5)]),
    "tensor_mm_method": ("{0}.mm({1})", [(3, 4), (4, 5)]),
    "linear": ("F.linear({0}, {1}, {2})", [(3, 4), (5, 4), (5,)]),
    "linear_nobias": ("F.linear({0}, {1})", [(3, 4), (5, 4)]),
    "conv1d": ("F.conv1d({0}, {1}, {2})", [(1, 2, 6), (3, 2, 3), (3,)]),
    "conv1d_padding_same": ("F.conv1d({0}, {1}, padding='same')", [(1, 2, 6), (3, 2, 3)]),
    "conv2d": ("F.conv2d({0}, {1}, {2})", [(1, 2, 5, 5), (3, 2, 3, 3), (3,)]),
    "conv2d_padding_same": ("F.conv2d({0}, {1}, padding='same')", [(1, 2, 5, 5), (3, 2, 3, 3)]),
    "conv_transpose1d": ("F.conv_transpose1d({0}, {1})", [(1, 2, 5), (2, 3, 3)]),
    "conv_transpose2d": ("F.conv_transpose2d({0}, {1})", [(1, 2, 4, 4), (2, 3, 3, 3)]),
    "sdpa": (
        "F.scaled_dot_product_attention({0}, {1}, {2})",
        [(1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)],
    ),
    "nn_linear_module": ("_linear_module({0})", [(3, 4)]),
    # -- fp32
    "prod": ("torch.prod({0})", [(5,)]),
    "prod_dim": ("torch.prod({0}, 1)", [(2, 3)]),
    "mse_loss": ("F.mse_loss({0}, {1})", [(3, 4), (3, 4)]),
    "l1_loss": ("F.l1_loss({0}, {1})", [(3, 4), (3, 4)]),
    "nll_loss": ("F.nll_loss({0}, {1})", [(3, 4), ("long", (3,), 4)]),
    "cross_entropy": ("F.cross_entropy({0}, {1})", [(3, 4), ("long", (3,), 4)]),
    "bce": ("F.binary_cross_entropy({0}.sigmoid(), {1}.sigmoid())", [(3, 4), (3, 4)]),
    "bce_with_logits": ("F.binary_cross_entropy_with_logits({0}, {1})", [(3, 4), (3, 4)]),
    "pad_reflect": ("F.pad({0}, (1, 1), mode='reflect')", [(1, 2, 4)]),
    "pad_replicate": ("F.pad({0}, (1, 1, 1, 1), mode='replicate')", [(1, 2, 4, 4)]),
    "smooth_l1_loss": ("F.smooth_l1_loss({0}, {1})", [(3, 4), (3, 4)]),
    "huber_loss": ("F.huber_loss({0}, {1})", [(3, 4), (3, 4)]),
    "kl_div": ("F.kl_div({0}, {1}, reduction='batchmean')", [(3, 4), (3, 4)]),
    "cdist": ("torch.cdist({0}, {1})", [(3, 4), (2, 4)]),
    "trace": ("torch.trace({0})", [(3, 3)]),
    "inverse": ("torch.inverse({0} + 3 * torch.eye(3, dtype={0}.dtype))", [(3, 3)]),
    # -- promote
    "cat": ("torch.cat([{0}, {1}])", [(2, 3), (2, 3)]),
    "stack": ("torch.stack([{0}, {1}])", [(2, 3), (2, 3)]),
    "index_copy": (
        "torch.index_copy({0}, 0, {2}, {1})",
        [(3, 2), (2, 2), ("long", (2,), 3)],
    ),
    # -- not on the CPU lists: run as they are
    "add": ("torch.add({0}, {1})", [(3,), (3,)]),
    "mul": ("{0} * {1}", [(3,), (3,)]),
    "sub": ("{0} - {1}", [(3,), (3,)]),
    "div": ("{0} / {1}", [(3,), (3,)]),
    "addcmul": ("torch.addcmul({0}, {1}, {2})", [(3,), (3,), (3,)]),
    "exp": ("torch.exp({0})", [(3,)]),
    "log": ("torch.log({0}.abs() + 1)", [(3,)]),
    "sin": ("torch.sin({0})", [(3,)]),
    "tanh": ("torch.tanh({0})", [(3,)]),
    "sigmoid": ("torch.sigmoid({0})", [(3,)]),
    "sqrt": ("torch.sqrt({0}.abs())", [(3,)]),
    "pow": ("torch.pow({0}, 2)", [(3,)]),
    "relu": ("F.relu({0})", [(3,)]),
    "gelu": ("F.gelu({0})", [(3,)]),
    "silu": ("F.silu({0})", [(3,)]),
    "softmax": ("torch.softmax({0}, -1)", [(2, 3)]),
    "log_softmax": ("torch.log_softmax({0}, -1)", [(2, 3)]),
    "sum": ("torch.sum({0})", [(2, 3)]),
    "mean": ("torch.mean({0})", [(2, 3)]),
    "cumsum": ("torch.cumsum({0}, 0)", [(3,)]),
    "max": ("torch.max({0})", [(2, 3)]),
    "argmax": ("torch.argmax({0})", [(2, 3)]),
    "var": ("torch.var({0})", [(2, 3)]),
    "norm": ("torch.norm({0})", [(2, 3)]),
    "layer_norm": ("F.layer_norm({0}, (3,), {1}, {2})", [(2, 3), (3,), (3,)]),
    "embedding": ("F.embedding({1}, {0})", [(4, 3), ("long", (2,), 4)]),
    "dot": ("torch.dot({0}, {1})", [(3,), (3,)]),
    "mv": ("torch.mv({0}, {1})", [(2, 3), (3,)]),
    "outer": ("torch.outer({0}, {1})", [(2,), (3,)]),
    "einsum": ("torch.einsum('ij,jk->ik', {0}, {1})", [(2, 3), (3, 2)]),
    "where": ("torch.where({2}, {0}, {1})", [(3,), (3,), ("bool", (3,))]),
    "clamp": ("torch.clamp({0}, -0.2, 0.2)", [(3,)]),
    "abs": ("torch.abs({0})", [(3,)]),
    "neg": ("-{0}", [(3,)]),
    "transpose": ("{0}.t()", [(2, 3)]),
    "reshape": ("{0}.reshape(3, 2)", [(2, 3)]),
    "index_select": ("torch.index_select({0}, 0, {1})", [(3, 2), ("long", (2,), 3)]),
    "gather": ("torch.gather({0}, 1, {1})", [(2, 3), ("long", (2, 2), 3)]),
    "masked_fill": ("{0}.masked_fill({1}, 0.5)", [(3,), ("bool", (3,))]),
    "max_pool2d": ("F.max_pool2d({0}, 2)", [(1, 1, 4, 4)]),
    "avg_pool2d": ("F.avg_pool2d({0}, 2)", [(1, 1, 4, 4)]),
    "adaptive_avg_pool2d": ("F.adaptive_avg_pool2d({0}, 1)", [(1, 1, 4, 4)]),
    "dropout_eval": ("F.dropout({0}, 0.5, training=False)", [(3,)]),
    "topk": ("torch.topk({0}, 2)", [(4,)]),
    "sort": ("torch.sort({0})", [(4,)]),
    "to_float": ("{0}.float()", [(3,)]),
    "to_half": ("{0}.half()", [(3,)]),
    "clone": ("{0}.clone()", [(3,)]),
    "addmv": ("torch.addmv({0}, {1}, {2})", [(2,), (2, 3), (3,)]),
}

VARIANTS = ("fp32", "low", "mixed", "fp64")
AUTOCAST_DTYPES = ("bfloat16", "float16")


def _inputs(torch: Any, specs: list[Any], variant: str, low: Any) -> list[Any]:
    out = []
    first = True
    for i, spec in enumerate(specs):
        if isinstance(spec, tuple) and spec and spec[0] == "long":
            _, shape, high = spec
            n = 1
            for s in shape:
                n *= s
            out.append((torch.arange(n) * 7 % high).reshape(shape))
            continue
        if isinstance(spec, tuple) and spec and spec[0] == "bool":
            n = 1
            for s in spec[1]:
                n *= s
            out.append((torch.arange(n) % 2 == 0).reshape(spec[1]))
            continue
        n = 1
        for s in spec:
            n *= s
        t = (torch.arange(n, dtype=torch.float64).reshape(spec) * 0.37 + i).sin() * 0.5
        if variant == "fp32" or (variant == "mixed" and first):
            dtype = torch.float32
        elif variant == "fp64":
            dtype = torch.float64
        else:
            dtype = low
        first = False
        out.append(t.to(dtype))
    return out


def _mode_class(torch: Any) -> Any:
    base = sys.modules[torch.__name__ + ".utils._python_dispatch"].TorchDispatchMode

    class Log(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[str] = []

        def __torch_dispatch__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            kwargs = kwargs or {}
            name = str(func).replace(torch.__name__ + ".", "")
            if "dtype" in kwargs and "_to_copy" in name:
                name += f"({str(kwargs['dtype']).rpartition('.')[2]})"
            self.calls.append(name)
            return func(*args, **kwargs)

    return Log


def _dtypes(value: Any, torch: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return str(value.dtype).rpartition(".")[2]
    if isinstance(value, (tuple, list)):
        return [_dtypes(v, torch) for v in value]
    return type(value).__name__


def run_case(name: str, torch: Any, acdtype: str, variant: str) -> dict[str, Any]:
    call, specs = CASES[name]
    low = getattr(torch, acdtype)
    F = sys.modules[torch.__name__ + ".nn.functional"]
    nn = sys.modules[torch.__name__ + ".nn"]
    args = _inputs(torch, specs, variant, low)

    lin = nn.Linear(4, 2)  # built outside the mode: only its call is logged
    with torch.no_grad():
        lin.weight.copy_(torch.arange(8.0).reshape(2, 4).cos())
        lin.bias.copy_(torch.arange(2.0))
    env = {"torch": torch, "F": F, "_linear_module": lin}
    env.update({f"_a{i}": a for i, a in enumerate(args)})
    code = call.format(*[f"_a{i}" for i in range(len(args))])
    mode = _mode_class(torch)()
    try:
        with torch.autocast("cpu", dtype=low):
            with mode:
                out = eval(code, env)  # noqa: S307 - the case's own expression
    except Exception as e:  # the error is the recorded outcome
        return {"error": type(e).__name__, "msg": str(e).split("\n")[0]}
    return {"dtype": _dtypes(out, torch), "log": mode.calls}
