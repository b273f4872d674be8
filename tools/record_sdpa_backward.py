"""Record PyTorch's aten::_scaled_dot_product_flash_attention_for_cpu_backward for
tests/aten/test_sdpa_backward.py -> tests/data/sdpa_backward.json:

- ops: every OP_CASES call (forward then backward in torch): the forward's output and
  logsumexp (the test feeds them to keyroute's backward) and the three gradients;
- errors: PyTorch's error (type, first line) for every ERROR_CASES call;
- sequences: what a TorchDispatchMode logs for each SEQ_CASES program, and the fused
  operator's arguments; flops: FlopCounterMode's total; double_backward: grad of a grad.

    /work/venv/bin/python tools/record_sdpa_backward.py
"""

from __future__ import annotations

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import torch  # noqa: E402

from tests.aten import test_sdpa_backward as C  # noqa: E402


def record_op(name: str) -> dict[str, object]:
    spec = C.OP_CASES[name]
    t = C.build(torch, name, spec)
    fwd = getattr(torch.ops.aten, C.FWD).default
    bwd = getattr(torch.ops.aten, C.OP).default
    out, lse = fwd(
        t["q"],
        t["k"],
        t["v"],
        0.0,
        spec.get("causal", False),
        attn_mask=t["fwd_mask"],
        scale=spec.get("scale"),
    )
    grads = bwd(*C.op_args(spec, t, out, lse), **C.op_kwargs(spec, t))
    return {
        "out": C.encode(out),
        "lse": C.encode(lse),
        "grads": [C.encode(g) for g in grads],
    }


def record_error(name: str) -> dict[str, object]:
    args, kwargs = C.ERROR_CASES[name](torch, C._base(torch))
    result = C.error_of(lambda: getattr(torch.ops.aten, C.OP).default(*args, **kwargs))
    if result["error"] is None:
        raise SystemExit(f"error case {name}: PyTorch does not raise")
    return result


def main() -> None:
    torch.set_num_threads(1)  # the 16-bit kernels' accumulation order is the one-thread order
    data = {
        "torch_version": torch.__version__,
        "ops": {n: record_op(n) for n in C.OP_CASES},
        "errors": {n: record_error(n) for n in C.ERROR_CASES},
        "sequences": {n: C.run_sequence(torch, n) for n in C.SEQ_CASES},
        "flops": C.run_flops(torch),
        "double_backward": C.run_double_backward(torch),
    }
    with open(C.DATA, "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    print(f"recorded {len(data['ops'])} calls, {len(data['errors'])} errors, "
          f"{len(data['sequences'])} mode logs -> {os.path.relpath(C.DATA, ROOT)}")  # fmt: skip


if __name__ == "__main__":
    main()
