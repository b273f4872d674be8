"""Compiled optimizer steps recorded with PyTorch 2.13 (tools/record_compile_optim.py) and
checked against keyroute (test_optim_graphs.py). Each case builds, with the module given as
`torch` (PyTorch or keyroute), a model, its gradients and the optimizer; the compiled function
is `opt.step`."""

from __future__ import annotations

from typing import Any

CASES: dict[str, dict[str, Any]] = {
    "adam": {"cls": "Adam", "kw": {"lr": 0.01}},
    "adam_wd_amsgrad": {"cls": "Adam", "kw": {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}},
    "adam_maximize": {"cls": "Adam", "kw": {"lr": 0.01, "maximize": True}},
    "adamw": {"cls": "AdamW", "kw": {"lr": 0.01}},
    "adam_foreach": {"cls": "Adam", "kw": {"lr": 0.01, "foreach": True}},
    "adamw_foreach_amsgrad": {"cls": "AdamW", "kw": {"lr": 0.01, "foreach": True, "amsgrad": True}},
}


def build(torch: Any, name: str) -> tuple[Any, Any, Any]:
    """(model, optimizer, a function that zeroes and recomputes the gradients)."""
    case = CASES[name]
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    x = torch.randn(6, 3)
    y = torch.randint(0, 2, (6,))
    opt = getattr(torch.optim, case["cls"])(model.parameters(), **case["kw"])

    def grads() -> None:
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()

    return model, opt, grads
