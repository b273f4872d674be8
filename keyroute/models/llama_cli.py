"""`keyroute generate "PROMPT"`: text from a GGUF Llama model (default SmolLM2-135M-Instruct).

    keyroute generate "What is the capital of France?" --chat
    keyroute generate "Once upon a time" --temperature 0.8 --top-k 50 --top-p 0.9 --seed 0

The tokens are printed as they come; then the prefill and decode speeds (stderr). `--trace`
adds the operator calls per dispatch key, `--profile trace.json` the profiler's table and a
Chrome trace (`keyroute view trace.json`), `--quantized` keeps the Q4_1 / Q8_0 weights
quantized (`--int8-dynamic-activation` adds int8 activations for the Q4_1 products: faster,
not exact), `--compile` runs the decode step through keyroute.compile(mode="reduce-overhead").
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_command"]


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def add_command(sub: Any) -> None:
    """Register `generate` on the keyroute command line's subparsers."""
    p = sub.add_parser("generate", help="generate text with SmolLM2-135M (or a Llama GGUF)")
    p.add_argument("prompt")
    p.add_argument("--max-new-tokens", type=_non_negative_int, default=128)
    p.add_argument("--temperature", type=float, default=0.0, help="0: greedy (the default)")
    p.add_argument("--top-k", type=int, default=None)
    p.add_argument("--top-p", type=float, default=None)
    p.add_argument("--seed", type=int, default=None, help="seed of the sampling generator")
    p.add_argument("--chat", action="store_true", help="wrap the prompt in the chat template")
    p.add_argument("--model", default=None, help="a Llama-architecture GGUF file")
    p.add_argument("--quantized", action="store_true", help="keep Q4_1 / Q8_0 weights quantized")
    p.add_argument(
        "--int8-dynamic-activation",
        action="store_true",
        help="with --quantized: int8 activations for the Q4_1 products (faster, not exact)",
    )
    p.add_argument("--compile", action="store_true", help="compile the decode step")
    p.add_argument("--trace", action="store_true", help="operator calls per dispatch key")
    p.add_argument(
        "--profile", metavar="TRACE", default=None, help="profile the run: table + Chrome trace"
    )
    p.add_argument(
        "--no-custom-ops", action="store_true", help="plain aten operators, not keyroute::*"
    )
    p.add_argument("--max-seq-len", type=int, default=2048, help="KV cache positions")
    p.set_defaults(func=_cmd_generate)


def _err(message: str) -> int:
    print(f"keyroute generate: {message}", file=sys.stderr)
    return 2


def _cmd_generate(args: argparse.Namespace) -> int:
    from . import llama
    from .llama_sampling import check_sampling

    try:
        check_sampling(args.temperature, args.top_k, args.top_p)
    except ValueError as e:
        return _err(str(e))
    if args.max_seq_len <= 0:
        return _err(f"--max-seq-len must be positive, got {args.max_seq_len}")
    if args.profile:  # checked before loading anything, not after
        import os

        folder = os.path.dirname(os.path.abspath(args.profile))
        if not os.path.isdir(folder):
            return _err(f"--profile folder {folder} does not exist")
    try:
        model = llama.load(
            args.model,
            use_custom_ops=not args.no_custom_ops,
            quantized=args.quantized,
            int8_dynamic_activation=args.int8_dynamic_activation,
            max_seq_len=args.max_seq_len,
        )
    except (ModuleNotFoundError, FileNotFoundError, ValueError, NotImplementedError) as e:
        print(f"keyroute generate: {e}", file=sys.stderr)
        return 1
    step = None
    if args.compile:
        from .llama_compile import compiled_decode_step

        try:
            step = compiled_decode_step(model)
        except NotImplementedError as e:
            print(f"keyroute generate: {e}", file=sys.stderr)
            return 1

    def show(piece: str) -> None:
        sys.stdout.write(piece)
        sys.stdout.flush()

    kwargs = dict(
        temperature=args.temperature,
        top_k=args.top_k,
        top_p=args.top_p,
        seed=args.seed,
        chat=args.chat,
        stream=show,
        decode_step=step,
    )
    try:
        if args.trace:
            from ..utils.op_log import count_dispatch_keys

            with count_dispatch_keys() as keys:
                out = model.generate(args.prompt, args.max_new_tokens, **kwargs)
        elif args.profile:
            from ..profiler import profile

            # loading the weights (above) is not part of the profile
            with profile(record_shapes=True) as prof:
                out = model.generate(args.prompt, args.max_new_tokens, **kwargs)
        else:
            out = model.generate(args.prompt, args.max_new_tokens, **kwargs)
    except ValueError as e:
        print(file=sys.stderr)
        return _err(str(e))
    sys.stdout.write("\n")
    sys.stdout.flush()
    n_prompt, n_new = len(out.prompt_tokens), len(out.tokens)
    print(
        f"prefill: {n_prompt} tokens in {out.prefill_seconds:.3f} s "
        f"({out.prefill_tokens_per_second:.1f} tokens/s); decode: {max(n_new - 1, 0)} tokens in "
        f"{out.decode_seconds:.3f} s ({out.decode_tokens_per_second:.1f} tokens/s); "
        f"stop: {out.stop_reason}",
        file=sys.stderr,
    )
    if args.profile:
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=20))
        prof.export_chrome_trace(args.profile)
        print(f"trace written to {args.profile}")
    if args.trace:
        print("\noperator calls per dispatch key (calls and redispatches)")
        for key, n in sorted(keys.by_key.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {key:<24} {n}")
        ops: dict[str, int] = {}
        for (op, _key), n in keys.by_op_key.items():
            ops[op] = ops.get(op, 0) + n
        print("\nthe most called operators")
        for op, n in sorted(ops.items(), key=lambda kv: (-kv[1], kv[0]))[:15]:
            print(f"  {op:<40} {n}")
    return 0
