"""Record PyTorch 2.13's public names and list those keyroute lacks.

    python tools/record_api_names.py          (needs torch==2.13.0 for the names)
    python tools/record_api_names.py --list   (no torch: regenerate the missing list only)

Writes keyroute/_pytorch_names.txt (PyTorch's public names of torch.*, Tensor.*, torch.nn.*,
torch.nn.functional.*, torch.linalg.*, torch.special.*, torch.fft.*, one `<namespace> <name>` a line: the
package reads it to refuse a missing name with a NotImplementedError naming it) and
tests/api/known_missing.txt (the names keyroute does not have yet; tests/api/test_coverage.py
requires the list to only shrink).
"""

from __future__ import annotations

import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, ROOT)

NAMES_FILE = os.path.join(ROOT, "keyroute", "_pytorch_names.txt")
MISSING_FILE = os.path.join(ROOT, "tests", "api", "known_missing.txt")
NAMESPACES = ("torch", "Tensor", "nn", "nn.functional", "linalg", "special", "fft")


def _public(obj: object) -> list[str]:
    return sorted(n for n in dir(obj) if not n.startswith("_"))


def record_names() -> dict[str, list[str]]:
    import torch

    objs = {
        "torch": torch,
        "Tensor": torch.Tensor,
        "nn": torch.nn,
        "nn.functional": torch.nn.functional,
        "linalg": torch.linalg,
        "special": torch.special,
        "fft": torch.fft,
    }
    out = {}
    for ns, obj in objs.items():
        names = _public(obj)
        if ns == "torch":
            # Submodules imported as attributes and typing helpers are not API functions.
            names = [n for n in names if not _is_module(getattr(obj, n, None))]
        out[ns] = names
    return out


def _is_module(v: object) -> bool:
    import types

    return isinstance(v, types.ModuleType)


def write_names(names: dict[str, list[str]]) -> None:
    with open(NAMES_FILE, "w") as f:
        f.write("# PyTorch 2.13's public names (tools/record_api_names.py): <namespace> <name>\n")
        for ns in NAMESPACES:
            for n in names[ns]:
                f.write(f"{ns} {n}\n")


def read_names() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {ns: [] for ns in NAMESPACES}
    with open(NAMES_FILE) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            ns, name = line.split()
            out[ns].append(name)
    return out


def keyroute_objects() -> dict[str, object]:
    import keyroute

    return {
        "torch": keyroute,
        "Tensor": keyroute.Tensor,
        "nn": keyroute.nn,
        "nn.functional": keyroute.nn.functional,
        "linalg": keyroute.linalg,
        "special": keyroute.special,
        "fft": keyroute.fft,
    }


def has(obj: object, name: str) -> bool:
    from keyroute._missing import MissingFromKeyroute

    try:
        getattr(obj, name)
    except MissingFromKeyroute:
        return False
    except AttributeError:
        return False
    return True


def missing(names: dict[str, list[str]]) -> dict[str, list[str]]:
    objs = keyroute_objects()
    return {ns: [n for n in names[ns] if not has(objs[ns], n)] for ns in NAMESPACES}


def write_missing(miss: dict[str, list[str]]) -> None:
    with open(MISSING_FILE, "w") as f:
        f.write(
            "# PyTorch 2.13 public names keyroute does not have yet (tools/record_api_names.py):\n"
            "# <namespace> <name>. May only shrink: tests/api/test_coverage.py fails when a name\n"
            "# listed here exists (remove it) or a name not listed is missing.\n"
        )
        for ns in NAMESPACES:
            for n in miss[ns]:
                f.write(f"{ns} {n}\n")


def main(argv: list[str]) -> None:
    if "--list" not in argv:
        write_names(record_names())
    names = read_names()
    miss = missing(names)
    write_missing(miss)
    for ns in NAMESPACES:
        total = len(names[ns])
        print(f"{ns}: {total - len(miss[ns])} of {total} names")


if __name__ == "__main__":
    main(sys.argv[1:])
