"""Record PyTorch's torch.nn module classes and torch.nn.functional public functions ->
tests/data/nn_namespace.json (tests/nn/test_nn_coverage.py counts what keyroute has)."""

from __future__ import annotations

import json
import os


def main() -> None:
    import torch

    classes = sorted(
        n
        for n in dir(torch.nn)
        if isinstance(getattr(torch.nn, n), type)
        and issubclass(getattr(torch.nn, n), torch.nn.Module)
    )
    F = torch.nn.functional
    functions = sorted(
        n
        for n in dir(F)
        if not n.startswith("_")
        and callable(getattr(F, n))
        and not isinstance(getattr(F, n), type)
        and getattr(getattr(F, n), "__module__", "") not in ("typing", "collections.abc")
    )
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "nn_namespace.json")
    with open(out, "w") as f:
        json.dump(
            {"torch_version": torch.__version__, "nn_classes": classes, "functional": functions},
            f,
            indent=0,
        )
    print(f"{len(classes)} torch.nn classes, {len(functions)} torch.nn.functional functions")


if __name__ == "__main__":
    main()
