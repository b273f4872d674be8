"""Record the safetensors library's outcome on each corrupt file into
tests/data/corrupt_safetensors.json ([exception class, message]).

    python tools/record_corrupt_files.py
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from safetensors_corruptions import corruptions  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "data", "corrupt_safetensors.json")


def main() -> None:
    import safetensors
    from safetensors import safe_open

    out = {"safetensors_version": safetensors.__version__, "cases": {}}
    with tempfile.TemporaryDirectory() as d:
        for name, data in corruptions().items():
            path = os.path.join(d, name + ".safetensors")
            with open(path, "wb") as f:
                f.write(data)
            try:
                with safe_open(path, framework="numpy") as f:
                    for k in f.keys():
                        f.get_tensor(k)
                out["cases"][name] = None
            except Exception as exc:  # noqa: BLE001 - the outcome is the error
                out["cases"][name] = [type(exc).__name__, str(exc)]
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(out['cases'])} corrupt files into {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
