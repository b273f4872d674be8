"""Record PyTorch 2.13's torch.compile graph breaks for tests/compile/break_cases.py into
tests/data/compile_breaks.json: torch._dynamo.explain's graph count, break count and break
reasons, and what `fullgraph=True` does (the Unsupported message, or "ok").

    python tools/record_compile_breaks.py
"""

import contextlib
import io
import json
import pathlib
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _scrub(text: str) -> str:
    # Addresses differ run to run; the rest of the message is compared.
    import re

    return re.sub(r" at 0x[0-9a-f]+", " at 0x?", text)


def main() -> None:
    import logging

    import torch
    import torch._dynamo as dynamo

    from tests.compile import break_cases

    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore")
    out = {"torch": torch.__version__, "cases": {}}
    for name, case in break_cases.CASES.items():
        rec = {}
        dynamo.reset()
        f, args = case(torch)
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                e = dynamo.explain(f)(*args)
                rec["graph_count"] = e.graph_count
                rec["graph_break_count"] = e.graph_break_count
                rec["break_reasons"] = [_scrub(r.reason) for r in e.break_reasons]
                rec["break_lines"] = [
                    [fs.lineno for fs in r.user_stack if fs.filename.endswith("break_cases.py")]
                    for r in e.break_reasons
                ]
            except Exception as ex:  # noqa: BLE001
                rec["explain_error"] = [type(ex).__name__, _scrub(str(ex))]
            dynamo.reset()
            f, args = case(torch)
            try:
                res = torch.compile(f, fullgraph=True, backend="eager")(*args)
                rec["fullgraph"] = "ok"
                rec["fullgraph_equal"] = bool(torch.allclose(res, f(*args)))
            except Exception as ex:  # noqa: BLE001
                rec["fullgraph"] = [type(ex).__name__, _scrub(str(ex))]
        out["cases"][name] = rec
    path = ROOT / "tests" / "data" / "compile_breaks.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
