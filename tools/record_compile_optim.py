"""Record PyTorch 2.13's compiled optimizer steps (tests/compile/optim_cases.py) into
tests/data/compile_optim.json: torch._dynamo.explain's graph and break counts for `opt.step`,
what `fullgraph=True` does, the AOT forward graph's op list (the inference graph dynamo's graph
becomes, through aot_module_simplified), and the parameters and state after three compiled
steps (first values, to compare numbers).

    python tools/record_compile_optim.py
"""

import json
import logging
import pathlib
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    import torch
    import torch._dynamo as dynamo
    from torch._functorch.aot_autograd import aot_module_simplified

    from tests.compile import optim_cases

    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore")
    out = {"torch": torch.__version__, "cases": {}}
    for name in optim_cases.CASES:
        rec = {}
        dynamo.reset()
        _, opt, grads = optim_cases.build(torch, name)
        grads()
        e = dynamo.explain(opt.step)()
        rec["graph_count"], rec["graph_break_count"] = e.graph_count, e.graph_break_count
        rec["break_reasons"] = [r.reason.splitlines()[0] for r in e.break_reasons]
        dynamo.reset()
        _, opt, grads = optim_cases.build(torch, name)
        grads()
        try:
            torch.compile(opt.step, fullgraph=True, backend="eager")()
            rec["fullgraph"] = "ok"
        except Exception as ex:  # noqa: BLE001
            rec["fullgraph"] = [type(ex).__name__, str(ex).splitlines()[0]]
        dynamo.reset()
        model, opt, grads = optim_cases.build(torch, name)
        fw: list = []

        def backend(gm, ex, fw=fw):
            def keep(g, e):
                fw.append([str(n.target) for n in g.graph.nodes if n.op == "call_function"])
                return g

            return aot_module_simplified(gm, ex, fw_compiler=keep)

        step = torch.compile(opt.step, backend=backend)
        for _ in range(3):
            grads()
            step()
        rec["fw_graphs"] = fw
        rec["params"] = [p.detach().flatten().tolist() for p in model.parameters()]
        rec["state"] = [
            {k: v.flatten().tolist() for k, v in opt.state[p].items()} for p in model.parameters()
        ]
        out["cases"][name] = rec
    path = ROOT / "tests" / "data" / "compile_optim.json"
    path.write_text(json.dumps(out, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
