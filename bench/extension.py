"""Extension overheads: a custom operator call against the direct Python call of its body, and
a passthrough TorchDispatchMode per operator, each against PyTorch's same when installed.

    python bench/extension.py

The custom op's body is `x.clone()` on a (4,) tensor; the mode case is `add(a, b)` on (4,)
tensors under a mode whose handler only calls `func(*args, **kwargs)`. Targets (issue 5): a
custom op call at most 0.3x PyTorch's, and an operator under a passthrough mode at most 0.5x
PyTorch's.
"""

from __future__ import annotations

import statistics
from typing import Any

import _common  # noqa: F401  (one BLAS thread; must come first)
from _common import fmt_time, measure, torch_or_none

import keyroute


def _cases(M, mode_base: type) -> dict[str, Any]:  # noqa: N803 - M is the torch-like module
    """The four timed callables for module M (keyroute or torch); the mode case enters and
    leaves its mode around the timed loop (see `_timed`)."""

    @M.library.custom_op("krbench_ext::clone_op", mutates_args=(), schema="(Tensor x) -> Tensor")
    def clone_op(x):  # noqa: ANN001, ANN202
        return x.clone()

    class Passthrough(mode_base):  # type: ignore[misc, valid-type]
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            return func(*args, **(kwargs or {}))

    x = M.ones(4)
    a, b = M.ones(4), M.ones(4)
    return {
        "body": (lambda: x.clone(), None),
        "custom_op": (lambda: clone_op(x), None),
        "add": (lambda: M.add(a, b), None),
        "add_under_mode": (lambda: M.add(a, b), Passthrough),
    }


def _timed(fn: Any, mode: Any) -> float:
    if mode is None:
        return measure(fn, repeat=5, min_time=0.02)
    with mode():
        return measure(fn, repeat=5, min_time=0.02)


def _interleaved(libs: dict[str, dict[str, Any]], rounds: int = 7) -> dict[str, dict[str, float]]:
    """Median over rounds, each round timing every case of every library once: load drift on
    a shared machine then hits keyroute and PyTorch alike."""
    samples: dict[str, dict[str, list[float]]] = {n: {} for n in libs}
    for _ in range(rounds):
        for name, cases in libs.items():
            for key, (fn, mode) in cases.items():
                samples[name].setdefault(key, []).append(_timed(fn, mode))
    return {n: {k: statistics.median(v) for k, v in c.items()} for n, c in samples.items()}


def main() -> None:
    from keyroute.utils.python_dispatch import TorchDispatchMode

    libs = {"keyroute": _cases(keyroute, TorchDispatchMode)}
    torch = torch_or_none()
    if torch is not None:
        from torch.utils._python_dispatch import TorchDispatchMode as TorchMode

        libs["torch"] = _cases(torch, TorchMode)
    times = _interleaved(libs)
    kr = times["keyroute"]
    th = times.get("torch")
    rows = [
        ("direct call of the body (x.clone())", "body"),
        ("custom op call", "custom_op"),
        ("add(a, b)", "add"),
        ("add(a, b) under a passthrough mode", "add_under_mode"),
    ]
    print("extension overheads, (4,) float32 tensors")
    print(f"{'case':<40}{'keyroute':>12}{'PyTorch':>12}   keyroute/PyTorch")
    for label, key in rows:
        t_th = th[key] if th else None
        ratio = f"{kr[key] / t_th:6.2f}x" if t_th else "     -"
        th_s = fmt_time(t_th) if t_th else "           -"
        print(f"{label:<40}{fmt_time(kr[key]):>12}{th_s:>12}   {ratio}")
    print()
    print(
        f"keyroute custom op / its direct body: {kr['custom_op'] / kr['body']:.2f}x; "
        f"mode overhead per op: {(kr['add_under_mode'] - kr['add']) * 1e6:.2f} µs"
    )
    if th:
        print(
            f"PyTorch  custom op / its direct body: {th['custom_op'] / th['body']:.2f}x; "
            f"mode overhead per op: {(th['add_under_mode'] - th['add']) * 1e6:.2f} µs"
        )
        c = kr["custom_op"] / th["custom_op"]
        m = kr["add_under_mode"] / th["add_under_mode"]
        print(
            f"custom op call vs PyTorch's:   {c:.2f}x (target <= 0.30x) "
            f"{'OK' if c <= 0.3 else 'MISSED'}"
        )
        print(
            f"op under passthrough mode vs PyTorch's: {m:.2f}x (target <= 0.50x) "
            f"{'OK' if m <= 0.5 else 'MISSED'}"
        )


if __name__ == "__main__":
    main()
