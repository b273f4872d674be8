"""Record PyTorch 2.13's PrivateUse1 route (rename_privateuse1_backend, generate_methods_for_
privateuse1_backend, _register_device_module: device strings, generated methods, error texts)
into tests/data/privateuse1.json, by running tests/backends/scenarios/privateuse1.py on torch in
a process of its own (the rename is once per process).

    python tools/record_privateuse1.py
"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "backends" / "scenarios" / "privateuse1.py"


def main() -> None:
    import torch

    done = subprocess.run(
        [sys.executable, str(SCENARIO), "torch"], capture_output=True, text=True, check=True
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    out = {"torch": torch.__version__, "observed": seen}
    path = ROOT / "tests" / "data" / "privateuse1.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(seen)} observations to {path}")


if __name__ == "__main__":
    main()
