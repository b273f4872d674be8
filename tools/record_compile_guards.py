"""Record PyTorch 2.13's guard-failure reasons (TORCH_LOGS=recompiles) for a sequence of
calls into tests/data/compile_guards.json: each recompile's first failure line.

    python tools/record_compile_guards.py
"""

import json
import logging
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> None:
    import torch
    import torch._dynamo as dynamo

    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    torch._logging.set_logs(recompiles=True)
    logging.getLogger("torch._dynamo").addHandler(Keep())

    def f(x, n):
        return x * n

    calls = [
        ("float32", [3], False, True, 2),
        ("float32", [3], False, True, 3),
        ("float32", [4], False, True, 3),
        ("float64", [4], False, True, 3),
        ("float64", [4], True, True, 3),
        ("float64", [4], True, False, 3),
    ]
    dynamo.reset()
    cf = torch.compile(f, backend="eager")
    for dt, shape, rg, grad, n in calls:
        x = torch.ones(shape, dtype=getattr(torch, dt), requires_grad=rg)
        with torch.set_grad_enabled(grad):
            cf(x, n)
    reasons = []
    for msg in lines:
        m = re.search(r"- \d+/\d+: (.*)", msg)
        if m:
            reasons.append(m.group(1).split("  ")[0].strip())
    out = {"torch": torch.__version__, "calls": calls, "first_reasons": reasons}
    path = ROOT / "tests" / "data" / "compile_guards.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}: {reasons}")


if __name__ == "__main__":
    main()
