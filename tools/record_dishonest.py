"""Record what examples/dishonest_mutation.py prints under PyTorch 2.13 into
tests/data/dishonest_mutation.json (the example's --torch mode).

    python tools/record_dishonest.py
"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "dishonest_mutation.py"), "--torch"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = ROOT / "tests" / "data" / "dishonest_mutation.json"
    path.write_text(json.dumps({"lines": out.splitlines()}, indent=1) + "\n")
    print(out)


if __name__ == "__main__":
    main()
