"""Record PyTorch 2.13's automatic dynamic shapes for tests/compile/dynamic_cases.py into
tests/data/compile_dynamic.json: after each call how many graphs were compiled, and per graph
its placeholders as print_readable annotates them and its outputs' shapes.

    python tools/record_dynamic_shapes.py
"""

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def signature(gm) -> list[str]:
    """The placeholders of forward's signature: ["s77: Sym(s77)", "L_x_: f32[s77, 3]"]."""
    src = gm.print_readable(print_output=False)
    m = re.search(r"def forward\(self, (.*?)\):", src, re.S)
    parts = [p.strip() for p in m.group(1).split(", ") if p.strip()] if m else []
    # "f32[s77, 3]" contains ", ": glue the pieces of an annotation back together.
    out: list[str] = []
    for p in parts:
        if out and out[-1].count('"') == 1:
            out[-1] += ", " + p
        else:
            out.append(p)
    return [p.replace('"', "") for p in out]


def out_shapes(gm) -> list[str]:
    node = next(n for n in gm.graph.nodes if n.op == "output")
    res = []
    for o in node.args[0]:
        v = o.meta.get("example_value")
        res.append(str(list(v.shape)))
    return res


def main() -> None:
    import torch
    import torch._dynamo as dynamo

    from tests.compile import dynamic_cases

    out = {"torch": torch.__version__, "cases": {}}
    for name, case in dynamic_cases.CASES.items():
        dynamo.reset()
        fn, calls, dynamic = case(torch)
        graphs = []

        def backend(gm, example, graphs=graphs):
            graphs.append(gm)
            return gm.forward

        cf = torch.compile(fn, backend=backend, dynamic=dynamic)
        counts = []
        for shapes in calls:
            cf(*dynamic_cases.make_inputs(torch, shapes))
            counts.append(len(graphs))
        out["cases"][name] = {
            "counts": counts,
            "graphs": [{"signature": signature(g), "outputs": out_shapes(g)} for g in graphs],
        }
        print(name, counts, [signature(g) for g in graphs])
    path = ROOT / "tests" / "data" / "compile_dynamic.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
