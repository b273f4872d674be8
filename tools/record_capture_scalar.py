"""Record PyTorch 2.13's `capture_scalar_outputs=True` behaviour for
tests/compile/scalar_cases.py into tests/data/compile_scalars.json: explain's graph count,
break count and reasons, and per backend ("eager", "aot_eager") what `fullgraph=True` gives
("ok" and whether it equals eager, or the error's type and first line).

    python tools/record_capture_scalar.py
"""

import contextlib
import io
import json
import pathlib
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    import logging

    import torch
    import torch._dynamo as dynamo

    from tests.compile import scalar_cases

    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore")
    dynamo.config.capture_scalar_outputs = True
    out = {"torch": torch.__version__, "cases": {}}
    for name, case in scalar_cases.CASES.items():
        rec = {}
        dynamo.reset()
        f, args = case(torch)
        with contextlib.redirect_stdout(io.StringIO()):
            e = dynamo.explain(f)(*args)
        rec["graph_count"] = e.graph_count
        rec["graph_break_count"] = e.graph_break_count
        # Up to PyTorch's "Caused by:" (which names the checkout's absolute path), plus the
        # user's source line it quotes.
        rec["break_reasons"] = [r.reason.split("\nCaused by:")[0] for r in e.break_reasons]
        rec["break_lines"] = [
            r.reason.split("\nCaused by: ")[1].split("  #")[0]
            for r in e.break_reasons
            if "\nCaused by: " in r.reason
        ]
        for backend in ("eager", "aot_eager"):
            dynamo.reset()
            f, args = case(torch)
            try:
                res = torch.compile(f, fullgraph=True, backend=backend)(*args)
                rec[f"fullgraph_{backend}"] = ["ok", bool(torch.allclose(res, f(*args)))]
            except Exception as ex:  # noqa: BLE001 - the error is the recorded behaviour
                rec[f"fullgraph_{backend}"] = [type(ex).__name__, str(ex).splitlines()[0]]
        out["cases"][name] = rec
    path = ROOT / "tests" / "data" / "compile_scalars.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
