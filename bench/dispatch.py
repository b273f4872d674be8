"""Dispatcher overhead: a two-tensor operator with a trivial kernel, through the dispatcher
against calling the kernel directly (plain path; with extra fallthrough layers in the key set;
through a layer that redispatches below itself). PyTorch's whole eager `torch.add` and
`torch.ops.aten.add.Tensor` on (16,) tensors are printed for scale when PyTorch is installed.

    OPENBLAS_NUM_THREADS=1 python bench/dispatch.py
"""

from __future__ import annotations

import _common  # noqa: F401  (one BLAS thread; must come first)
from _common import compare, table, torch_or_none, trivial_ops

import keyroute
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.tls import IncludeDispatchKeyGuard


def main() -> None:
    lib, kernel, op, layered = trivial_ops()
    a, b = keyroute.ones(16), keyroute.ones(16)

    def with_fallthroughs() -> None:
        op(a, b)

    include = IncludeDispatchKeyGuard([DispatchKey.VmapMode, DispatchKey.FuncTorchVmapMode])
    cases = {
        "direct": lambda: kernel(a, b),
        "plain": lambda: op(a, b),
        "redispatching": lambda: layered(a, b),
        "add": lambda: a + b,
    }
    t = compare(cases)
    with include:  # the guarded key set: measured on its own (same rounds, fewer cases)
        t_fallthrough = compare({"direct": lambda: kernel(a, b), "ft": with_fallthroughs})
    direct = t["direct"]
    rows = [
        ("kernel called directly", direct, direct),
        ("through the dispatcher (plain path)", t["plain"], direct),
        (
            "  + 2 fallthrough layers in the key set",
            t_fallthrough["ft"] * direct / t_fallthrough["direct"],
            direct,
        ),
        ("through a redispatching AutogradCPU layer", t["redispatching"], direct),
    ]
    print(table("keyroute dispatcher, two-tensor op with a trivial kernel", rows, "direct call"))
    print(f"\nadded per call, plain path: {(t['plain'] - direct) * 1e6:.3f} µs (target < 0.5 µs)")
    print(f"keyroute a + b on (16,) float32 (the whole eager add): {t['add'] * 1e6:.2f} µs")
    torch = torch_or_none()
    if torch is not None:
        ta, tb = torch.ones(16), torch.ones(16)
        tt = compare(
            {
                "add": lambda: torch.add(ta, tb),
                "ops": lambda: torch.ops.aten.add.Tensor(ta, tb),
                "kr": lambda: a + b,
            }
        )
        print(
            f"PyTorch torch.add (16,): {tt['add'] * 1e6:.2f} µs; torch.ops.aten.add.Tensor: "
            f"{tt['ops'] * 1e6:.2f} µs; keyroute a + b / torch.add: "
            f"{tt['kr'] / tt['add']:.2f}x"
        )
    lib._destroy()


if __name__ == "__main__":
    main()
