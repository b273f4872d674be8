"""Record what a TorchDispatchMode sees of PyTorch's autograd for
tests/autograd/test_backward_ops.py -> tests/data/backward_ops.json: for every program there
(forward, backward, some an optimizer step), each phase's aten calls in order, and the resulting
gradients' layout, history and values.

    /work/venv/bin/python tools/record_backward_ops.py
"""

from __future__ import annotations

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import torch  # noqa: E402

from tests.autograd import test_backward_ops as C  # noqa: E402


def main() -> None:
    torch.set_num_threads(1)
    data = {
        "torch": torch.__version__,
        "programs": {name: C.run(torch, name) for name in C.PROGRAMS},
    }
    with open(C.DATA, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=None, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    print(f"{len(data['programs'])} programs -> {os.path.relpath(C.DATA, ROOT)}")


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")  # backward(create_graph=True)'s reference-cycle warning
    main()
