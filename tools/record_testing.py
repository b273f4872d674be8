# ruff: noqa: E501  (case expressions are kept on one line each, as recorded)
"""Record torch.testing.assert_close outcomes and messages, torch.isclose results and
torch.utils._pytree TreeSpec reprs into tests/data/runtime/testing.json.

Each case is a Python expression evaluated with `torch` bound to PyTorch; the test evaluates
the same text with `torch` bound to keyroute (printing its names as `torch.`).
"""

from __future__ import annotations

import json
import pathlib

import torch

ASSERT_CLOSE = [
    "torch.testing.assert_close(torch.ones(3), torch.ones(3))",
    "torch.testing.assert_close(torch.tensor([1., 2., 3.]), torch.tensor([1., 2.5, 3.]))",
    "torch.testing.assert_close(torch.tensor([1., 2., 3.]), torch.tensor([1., 2.00001, 3.]))",
    "torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.0000001]))",
    "torch.testing.assert_close(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 2.], [3.5, 0.]]))",
    "torch.testing.assert_close(torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1., 2.00001], dtype=torch.float64))",
    "torch.testing.assert_close(torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 2.001], dtype=torch.float16))",
    "torch.testing.assert_close(torch.tensor([1., 2.], dtype=torch.bfloat16), torch.tensor([1., 2.5], dtype=torch.bfloat16))",
    "torch.testing.assert_close(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]))",
    "torch.testing.assert_close(torch.tensor([True, False]), torch.tensor([True, True]))",
    "torch.testing.assert_close(torch.ones(2), torch.ones(3))",
    "torch.testing.assert_close(torch.ones(2), torch.ones(2, dtype=torch.float64))",
    "torch.testing.assert_close(torch.ones(2), torch.ones(2, dtype=torch.float64), check_dtype=False)",
    "torch.testing.assert_close(torch.tensor(1.), torch.tensor(2.))",
    "torch.testing.assert_close(torch.tensor(0.), torch.tensor(1e-6))",
    "torch.testing.assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')]))",
    "torch.testing.assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True)",
    "torch.testing.assert_close(torch.tensor([float('inf'), 1.]), torch.tensor([float('inf'), 1.]))",
    "torch.testing.assert_close(torch.tensor([1., 0.]), torch.tensor([1., 1e-3]), rtol=0, atol=1e-4)",
    "torch.testing.assert_close(torch.tensor([1., 0.]), torch.tensor([1., 0.]), rtol=1e-3)",
    "torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 3.]), msg='custom')",
    "torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 3.]), msg=lambda m: 'X ' + m)",
    "torch.testing.assert_close(1.0, 1.0 + 1e-9)",
    "torch.testing.assert_close(1.0, 1.1)",
    "torch.testing.assert_close(1, 2)",
    "torch.testing.assert_close(1, 1.0)",
    "torch.testing.assert_close(0, 0.5)",
    "torch.testing.assert_close(True, False)",
    "torch.testing.assert_close(None, None)",
    "torch.testing.assert_close(None, 1)",
    "torch.testing.assert_close([torch.ones(2), torch.zeros(2)], [torch.ones(2), torch.ones(2)])",
    "torch.testing.assert_close([1, 2], [1, 2, 3])",
    "torch.testing.assert_close({'a': torch.ones(1)}, {'a': torch.ones(1), 'b': torch.ones(1)})",
    "torch.testing.assert_close({'a': torch.ones(1), 'b': [torch.ones(2)]}, {'a': torch.ones(1), 'b': [torch.zeros(2)]})",
    "torch.testing.assert_close(torch.ones(2), [1., 1.])",
    "torch.testing.assert_close('a', 'a')",
    "torch.testing.assert_close(torch.arange(6.).reshape(2, 3), torch.arange(6.).reshape(2, 3) * 1.5)",
    "torch.testing.assert_close(torch.tensor([0., 1.]), torch.tensor([1., 1.]))",
    "torch.testing.assert_close(torch.ones(2, 2).t(), torch.ones(2, 2), check_stride=True)",
    "torch.testing.assert_close(torch.ones(2, requires_grad=True), torch.ones(2))",
]

ISCLOSE = [
    "torch.isclose(torch.tensor([1., 2., float('nan'), float('inf')]), torch.tensor([1., 2.1, float('nan'), float('inf')])).tolist()",
    "torch.isclose(torch.tensor([1., float('nan')]), torch.tensor([1.0000001, float('nan')]), equal_nan=True).tolist()",
    "torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]), rtol=0.5, atol=0).tolist()",
    "torch.isclose(torch.tensor([True, False]), torch.tensor([True, True])).tolist()",
    "torch.isclose(torch.ones(2), torch.ones(2, dtype=torch.float64))",
    "torch.isclose(torch.ones(2), torch.ones(2), rtol=-1)",
    "torch.isclose(torch.ones(2), torch.ones(2), atol=-1)",
    "torch.allclose(torch.ones(3), torch.ones(3) + 1e-9)",
    "torch.allclose(torch.ones(3), torch.ones(3) + 1e-3)",
    "torch.ones(3).allclose(torch.ones(3))",
    "torch.equal(torch.ones(3), torch.ones(3))",
]

PYTREE = [
    "repr(torch.utils._pytree.tree_flatten({'x': [1, (2, 3)], 'z': collections.OrderedDict(q=5), 'n': None})[1])",
    "repr(torch.utils._pytree.tree_flatten([[], (), {}])[1])",
    "repr(torch.utils._pytree.tree_flatten(1)[1])",
    "repr(torch.utils._pytree.tree_flatten(collections.namedtuple('P', 'a b')(1, [2]))[1])",
    "torch.utils._pytree.tree_flatten({'b': 1, 'a': [2, 3]})[0]",
    "torch.utils._pytree.tree_leaves([1, {'k': (2, None)}])",
    "torch.utils._pytree.tree_map(lambda x: x * 10, {'a': [1, 2], 'b': (3,)})",
    "torch.utils._pytree.tree_map_only(int, lambda x: -x, [1, 'a', 2.5, (3,)])",
    "torch.utils._pytree.tree_structure([1, 2]).num_leaves",
    "torch.utils._pytree.tree_unflatten([1, 2], torch.utils._pytree.tree_structure([0, 0, 0]))",
]


def outcome(expr: str) -> dict[str, object]:
    import collections  # noqa: F401  (used by the expressions)

    try:
        value = eval(expr)  # noqa: S307  (our own case list)
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e)}
    return {"value": repr(value)}


def main() -> None:
    out = {
        "torch_version": torch.__version__,
        "cases": {e: outcome(e) for e in ASSERT_CLOSE + ISCLOSE + PYTREE},
    }
    path = pathlib.Path(__file__).resolve().parents[1] / "tests/data/runtime/testing.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
