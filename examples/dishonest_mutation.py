"""The seed's exercise: a custom operator that writes `cache` but declares `mutates_args=()`.

The compiler decides from the schema whether an operator has side effects. Eager runs the
kernel, so `cache` is written and `q @ cache.T` sees it. Through the AOT path the call's result
is unused and the schema says the call is pure, so dead-code elimination removes it: `cache`
is left untouched and the result differs from eager, exactly as in PyTorch 2.13. The honest
operator (`mutates_args=("cache",)`) is kept (as `auto_functionalized_v2`, its write applied
to the input after the graph). SchemaCheckMode and opcheck's test_schema catch the lie.

    python examples/dishonest_mutation.py      (also runs with `import torch`: --torch)
"""

from __future__ import annotations

import sys
import warnings

if "--torch" in sys.argv:
    import torch
    from functorch.compile import aot_function
    from torch._subclasses.schema_check_mode import SchemaCheckMode

    warnings.filterwarnings("ignore")
else:
    import keyroute as torch
    from keyroute._functorch.aot_autograd import aot_function
    from keyroute.utils.schema_check import SchemaCheckMode


@torch.library.custom_op("demo::write_cache", mutates_args=())
def write_cache(cache: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    cache.copy_(k)  # writes cache, but the schema says it does not
    return k.sum()


@write_cache.register_fake
def _(cache, k):  # noqa: ANN001, ANN202
    return k.new_empty(())


@torch.library.custom_op("demo::write_cache_honest", mutates_args=("cache",))
def write_cache_honest(cache: torch.Tensor, k: torch.Tensor) -> None:
    cache.copy_(k)


def step(q, cache, k):  # noqa: ANN001, ANN201
    write_cache(cache, k)  # result unused
    return q @ cache.T


def step_honest(q, cache, k):  # noqa: ANN001, ANN201
    write_cache_honest(cache, k)
    return q @ cache.T


def main() -> list[str]:
    lines = []
    q, k = torch.ones(1, 4), torch.full((2, 4), 2.0)
    graphs = []

    def keep(gm, _):  # noqa: ANN001, ANN202
        graphs.append(gm)
        return gm

    for name, fn in [("dishonest", step), ("honest", step_honest)]:
        cache = torch.zeros(2, 4)
        eager = fn(q, cache, k)
        cache2 = torch.zeros(2, 4)
        graphs.clear()
        out = aot_function(fn, keep, keep)(q, cache2, k)
        lines.append(
            f"{name} eager: {eager.tolist()} aot: {out.tolist()} cache after aot: {cache2.tolist()}"
        )
        ops = [str(n.target) for n in graphs[0].graph.nodes if n.op == "call_function"]
        lines.append(f" forward ops: {ops}")
    try:
        with SchemaCheckMode():
            write_cache(torch.zeros(2, 4), k)
    except RuntimeError as e:
        lines.append(f"SchemaCheckMode: RuntimeError: {e}")
    r = torch.library.opcheck(
        write_cache, (torch.zeros(2, 4), k), test_utils=("test_schema",), raise_exception=False
    )
    for test, err in r.items():
        lines.append(f"opcheck {test}: {'ok' if err is None else f'RuntimeError: {err}'}")
    return lines


if __name__ == "__main__":
    print("\n".join(main()))
