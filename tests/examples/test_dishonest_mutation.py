"""examples/dishonest_mutation.py prints what PyTorch 2.13 prints (tests/data/
dishonest_mutation.json, recorded by tools/record_dishonest.py): the AOT path removes the
dishonest call as dead code, keeps the honest one, and the schema check names the lie. Error
lines must start with PyTorch's message (keyroute's goes on to say how to fix it)."""

import importlib.util
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _example():
    spec = importlib.util.spec_from_file_location(
        "dishonest_mutation", ROOT / "examples" / "dishonest_mutation.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_prints_what_pytorch_prints():
    want = json.loads((ROOT / "tests" / "data" / "dishonest_mutation.json").read_text())["lines"]
    got = _example().main()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if "RuntimeError: " in w:
            assert g.startswith(w), (g, w)
        else:
            assert g == w
