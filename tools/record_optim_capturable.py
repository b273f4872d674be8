"""Record what PyTorch 2.13's optimizers do with capturable=True on CPU parameters (eager, not
compiling) into tests/data/optim_capturable.json: the assertion each step raises (its wording
differs by optimizer and by foreach), the state created before it, and the parameter after it;
and the fused Adam/AdamW steps, which have no such check.

    python tools/record_optim_capturable.py
"""

from __future__ import annotations

import json
import pathlib

OUT = pathlib.Path(__file__).parents[1] / "tests/data/optim_capturable.json"

OPTIMIZERS = ["Adam", "AdamW", "Adamax", "ASGD", "NAdam", "RAdam", "Rprop", "Adadelta", "RMSprop"]


def _run(torch: object, name: str, **kw: object) -> dict[str, object]:
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    p.grad = torch.tensor([0.5, 0.25, -1.0])
    opt = getattr(torch.optim, name)([p], lr=0.1, capturable=True, **kw)
    out: dict[str, object] = {"optimizer": name, "kwargs": kw}
    try:
        opt.step()
    except Exception as e:  # noqa: BLE001
        out["error"] = type(e).__name__
        out["message"] = str(e)
    out["state"] = sorted(opt.state[p])
    out["param"] = p.detach().tolist()
    return out


def main() -> None:
    import torch

    cases = [_run(torch, n, foreach=fe) for n in OPTIMIZERS for fe in (False, True)]
    cases += [_run(torch, n, fused=True) for n in ("Adam", "AdamW")]
    # (no parameter has a gradient: the step returns before the check)
    p = torch.nn.Parameter(torch.ones(2))
    torch.optim.Adam([p], capturable=True).step()
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
