"""Record every torch.nn.init fill of PyTorch 2.13 from a fixed seed, and its errors
-> tests/data/nn_init.json (for tests/nn/test_init_recorded.py, which checks keyroute's
fills are bit-identical).

    python tools/record_nn_init.py
"""

from __future__ import annotations

import json
import os
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "nn_init.json")

# (case name, function, shape, dtype, positional args, keyword args, seed)
CASES: list[tuple[str, str, list[int], str, list[Any], dict[str, Any], int]] = [
    ("uniform", "uniform_", [3, 4], "float32", [-0.5, 2.0], {}, 0),
    ("uniform_f64", "uniform_", [5], "float64", [], {}, 1),
    ("normal", "normal_", [3, 4], "float32", [0.5, 2.0], {}, 2),
    ("normal_f64", "normal_", [17], "float64", [], {}, 3),
    ("normal_big", "normal_", [40], "float32", [], {}, 3),
    ("trunc_normal", "trunc_normal_", [4, 5], "float32", [], {"a": -1.0, "b": 1.5}, 4),
    ("trunc_normal_std", "trunc_normal_", [20], "float32", [1.0, 0.5, 0.0, 2.0], {}, 5),
    ("constant", "constant_", [2, 3], "float32", [0.3], {}, 0),
    ("ones", "ones_", [2, 3], "float32", [], {}, 0),
    ("zeros", "zeros_", [2, 3], "float32", [], {}, 0),
    ("eye", "eye_", [3, 5], "float32", [], {}, 0),
    ("dirac3", "dirac_", [4, 2, 3], "float32", [], {}, 0),
    ("dirac4_groups", "dirac_", [4, 3, 3, 3], "float32", [2], {}, 0),
    ("dirac5", "dirac_", [2, 2, 1, 3, 3], "float32", [], {}, 0),
    ("xavier_uniform", "xavier_uniform_", [4, 6], "float32", [], {"gain": 2.0}, 6),
    ("xavier_normal", "xavier_normal_", [3, 2, 3, 3], "float32", [], {}, 7),
    ("kaiming_uniform", "kaiming_uniform_", [8, 3], "float32", [], {"a": 5**0.5}, 8),
    (
        "kaiming_uniform_relu",
        "kaiming_uniform_",
        [5, 2, 3],
        "float32",
        [],
        {"mode": "fan_out", "nonlinearity": "relu"},
        9,
    ),
    ("kaiming_normal", "kaiming_normal_", [8, 3], "float32", [], {}, 10),
    (
        "kaiming_normal_tanh",
        "kaiming_normal_",
        [4, 4],
        "float32",
        [],
        {"nonlinearity": "tanh", "mode": "fan_out"},
        11,
    ),
    ("orthogonal_tall", "orthogonal_", [5, 3], "float32", [], {}, 12),
    ("orthogonal_wide", "orthogonal_", [3, 5], "float32", [], {"gain": 2.0}, 13),
    ("orthogonal_4d", "orthogonal_", [4, 2, 2, 2], "float64", [], {}, 14),
    ("sparse", "sparse_", [6, 4], "float32", [0.5], {}, 15),
    ("sparse_std", "sparse_", [5, 3], "float32", [0.1], {"std": 1.0}, 16),
    ("uniform_deprecated", "uniform", [4], "float32", [], {}, 17),
    ("kaiming_normal_deprecated", "kaiming_normal", [3, 3], "float32", [], {}, 18),
]

# (case name, function, shape, positional args, keyword args): the error PyTorch raises
ERRORS: list[tuple[str, str, list[int], list[Any], dict[str, Any]]] = [
    ("eye_3d", "eye_", [2, 2, 2], [], {}),
    ("dirac_2d", "dirac_", [2, 2], [], {}),
    ("dirac_groups", "dirac_", [3, 2, 3], [2], {}),
    ("orthogonal_1d", "orthogonal_", [4], [], {}),
    ("sparse_3d", "sparse_", [2, 2, 2], [0.5], {}),
    ("xavier_1d", "xavier_uniform_", [4], [], {}),
    ("kaiming_mode", "kaiming_uniform_", [3, 3], [], {"mode": "fan"}),
    ("kaiming_nonlinearity", "kaiming_normal_", [3, 3], [], {"nonlinearity": "swish"}),
    ("gain_leaky_bad", "kaiming_uniform_", [3, 3], [], {"a": "x"}),
]
GAINS = [
    ("linear", None),
    ("conv2d", None),
    ("sigmoid", None),
    ("tanh", None),
    ("relu", None),
    ("leaky_relu", None),
    ("leaky_relu", 0.2),
    ("selu", None),
]


def main() -> None:
    import torch
    import torch.nn.init as init

    out: dict[str, Any] = {"torch_version": torch.__version__, "fills": {}, "errors": {}}
    for name, fn, shape, dtype, args, kwargs, seed in CASES:
        torch.manual_seed(seed)
        t = torch.empty(shape, dtype=getattr(torch, dtype))
        import warnings

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(init, fn)(t, *args, **kwargs)
        out["fills"][name] = {
            "fn": fn,
            "shape": shape,
            "dtype": dtype,
            "args": args,
            "kwargs": kwargs,
            "seed": seed,
            "values": t.reshape(-1).tolist(),
            "warnings": [str(w.message) for w in caught],
        }
    for name, fn, shape, args, kwargs in ERRORS:
        try:
            getattr(init, fn)(torch.empty(shape), *args, **kwargs)
        except Exception as e:
            out["errors"][name] = {
                "fn": fn,
                "shape": shape,
                "args": args,
                "kwargs": kwargs,
                "type": type(e).__name__,
                "message": str(e),
            }
        else:
            raise AssertionError(f"{name} did not raise")
    out["gains"] = [[n, p, init.calculate_gain(n, p)] for n, p in GAINS]
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    print(f"{len(out['fills'])} fills, {len(out['errors'])} errors -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
