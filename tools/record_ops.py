"""Record PyTorch's outputs for the operator samples of one or more families.

    python tools/record_ops.py elementwise [reductions ...]   (default: every family)

Writes tests/data/ops_<family>.json.gz. Needs torch==2.13.0.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import torch  # noqa: E402

from tests.ops.harness import all_families, family_samples, run_sample, save_recorded  # noqa: E402


def main(argv: list[str]) -> None:
    torch.set_num_threads(1)
    families = argv or all_families()
    for family in families:
        samples = family_samples(family)
        data = {"torch_version": torch.__version__, "samples": {}}
        for s in samples:
            data["samples"][s.id] = run_sample(torch, s)
        save_recorded(family, data)
        errors = sum(1 for r in data["samples"].values() if "error" in r)
        print(f"{family}: {len(samples)} samples ({errors} record an error)")


if __name__ == "__main__":
    main(sys.argv[1:])
