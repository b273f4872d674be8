"""The `keyroute` command line.

keyroute embed S1 S2 ...   all-MiniLM-L6-v2 sentence embeddings and their similarities
                           (--file F: one sentence per line; --trace: operator counts per
                           dispatch key and FLOPs)
keyroute plan --layers ... parameter count and peak memory of a Llama-shaped model, on the
                           meta device (nothing allocated)
keyroute keys              every dispatch key: value, name, kind, in priority order
keyroute table OP          the computed dispatch table of an operator (aten::add.Tensor)
keyroute dump OP           the operator's registrations
keyroute schema OP         the schemas of an operator's overloads (aten::add)
keyroute run S.py [ARGS]   run a PyTorch program on keyroute (`import torch` gives keyroute;
                           --trace: the dispatch trace, --profile: operator counts, on stderr)
keyroute profile S.py ...  run a program under keyroute.profiler (-o trace.json)
keyroute view trace.json   the trace in the Perfetto UI on 127.0.0.1 (the viewer extra)
keyroute generate "PROMPT" text from SmolLM2-135M (--chat, sampling options, --quantized)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _qualify(name: str) -> str:
    return name if "::" in name else f"aten::{name}"


def _cmd_keys(args: argparse.Namespace) -> int:
    from .dispatcher.keys import (
        PER_BACKEND_FUNCTIONALITIES,
        RUNTIME_KEYS,
        DispatchKey,
        is_alias_key,
        key_name,
    )

    print(f"{'value':>5}  {'name':<40} kind")
    for k in range(0, 47):
        kind = "per-backend functionality" if k in PER_BACKEND_FUNCTIONALITIES else "functionality"
        print(f"{k:>5}  {key_name(k):<40} {kind}")
    for k in RUNTIME_KEYS:
        if 47 < k < 150:  # builtin ones (run-time keys follow the aliases)
            print(f"{k:>5}  {key_name(k):<40} runtime (per backend)")
    for k in range(150, 156):
        assert is_alias_key(k)
        print(f"{k:>5}  {DispatchKey(k).name:<40} alias")
    from .dispatcher import keys as _keys

    for k, name in sorted(_keys.EXT_NAMES.items()):  # registered at run time (open_keys.py)
        if k in _keys.USER_PER_BACKEND:
            kind = "run-time per-backend functionality"
        elif k in _keys.USER_KEYS:
            kind = "run-time functionality"
        else:
            kind = "runtime (per backend)"
        print(f"{k:>5}  {name:<40} {kind}")
    return 0


def _find(name: str):  # noqa: ANN202
    import keyroute  # noqa: F401  (registers every operator)

    from .dispatcher.operator import find_op

    op = find_op(_qualify(name))
    if op is None:
        print(f"keyroute: no operator named {_qualify(name)}", file=sys.stderr)
    return op


def _cmd_table(args: argparse.Namespace) -> int:
    op = _find(args.op)
    if op is None:
        return 1
    sys.stdout.write(op.dump_table())
    return 0


def _cmd_dump(args: argparse.Namespace) -> int:
    op = _find(args.op)
    if op is None:
        return 1
    sys.stdout.write(op.dump())
    return 0


def _cmd_op(args: argparse.Namespace) -> int:
    op = _find(args.op)
    if op is None:
        return 1
    from .dispatcher.op_card import op_card

    sys.stdout.write(op_card(op))
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    import keyroute  # noqa: F401

    from .dispatcher.operator import all_ops

    target = _qualify(args.op)
    found = [
        op
        for op in all_ops()
        if op._schema is not None and (op.qualified_name() == target or op._name == target)
    ]
    if not found:
        print(f"keyroute: no operator named {target}", file=sys.stderr)
        return 1
    for op in found:
        print(op._schema)
    return 0


def _embed_on_cluster(args: argparse.Namespace, sentences: list[str]) -> object:
    """--scheduler / --workers: the batches as tasks on a dask.distributed cluster."""
    from .dask.embed import encode, local_cluster
    from .utils.progress import ProgressBar

    n_batches = -(-len(sentences) // args.batch_size)
    bar = ProgressBar(n_batches, "batches")
    if args.scheduler:
        from distributed import Client

        with Client(args.scheduler, set_as_default=False) as client:
            return encode(sentences, args.batch_size, client=client, progress=bar)
    with local_cluster(args.workers) as client:
        try:
            return encode(sentences, args.batch_size, client=client, progress=bar)
        finally:
            client.cluster.close()


def _cmd_embed(args: argparse.Namespace) -> int:
    import numpy as np

    from .models import minilm
    from .utils.progress import ProgressBar

    sentences = list(args.sentences)
    if args.file:
        try:
            with open(args.file, encoding="utf-8") as f:
                sentences += [line.rstrip("\r\n") for line in f if line.strip()]
        except OSError as e:
            print(f"keyroute embed: cannot read {args.file}: {e.strerror}", file=sys.stderr)
            return 1
        except UnicodeDecodeError:
            print(f"keyroute embed: {args.file} is not UTF-8 text", file=sys.stderr)
            return 1
    if not sentences:
        print("keyroute embed: give sentences as arguments or --file", file=sys.stderr)
        return 2
    if args.output:  # checked before computing anything, not after
        import os

        folder = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(folder):
            print(f"keyroute embed: --output folder {folder} does not exist", file=sys.stderr)
            return 1
    many = bool(args.file) or len(sentences) > 64
    progress = ProgressBar(len(sentences), "sentences") if many else None
    if getattr(args, "profile", None):
        from .profiler import profile

        minilm.load_model()  # loading the weights is not part of the profile
        minilm.load_tokenizer()
        with profile(record_shapes=True) as prof:
            emb = minilm.encode(sentences, batch_size=args.batch_size, progress=progress)
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=20))
        prof.export_chrome_trace(args.profile)
        print(f"trace written to {args.profile}")
    elif args.trace:
        from .utils.op_log import count_dispatch_keys

        minilm.load_model()  # loading the weights is not part of the trace
        minilm.load_tokenizer()
        with count_dispatch_keys() as keys:
            emb = minilm.encode(sentences, batch_size=args.batch_size, progress=progress)
        # FLOPs depend on shapes only: counted on the meta model, so the dispatch-key counts
        # above are those of the plain eager run, without the counter's mode on the stack.
        flops = minilm.count_flops(sentences, batch_size=args.batch_size)
    elif args.scheduler or args.workers:
        try:
            emb = _embed_on_cluster(args, sentences)
        except ImportError as e:
            print(f"keyroute embed: {e}", file=sys.stderr)
            return 1
    else:
        emb = minilm.encode(sentences, batch_size=args.batch_size, progress=progress)
    if len(sentences) <= args.max_show:
        for i, (s, e) in enumerate(zip(sentences, emb)):
            text = s if len(s) <= 60 else s[:57] + "..."
            head = " ".join(f"{v:+.4f}" for v in e[:4])
            print(f"[{i}] {text!r}")
            print(f"    dim {e.shape[0]}  norm {np.linalg.norm(e):.4f}  [{head} ...]")
        sim = minilm.cosine_matrix(emb)
        print("\ncosine similarity")
        print("      " + " ".join(f"{j:>6}" for j in range(len(sentences))))
        for i, row in enumerate(sim):
            print(f"{i:>5} " + " ".join(f"{v:6.3f}" for v in row))
    else:
        print(f"{len(sentences)} sentences -> embeddings of shape {emb.shape}")
    if args.output:
        path = args.output if args.output.endswith(".npy") else args.output + ".npy"
        np.save(path, emb)
        print(f"saved to {path}")
    if args.trace:
        print("\noperator calls per dispatch key (calls and redispatches)")
        for key, n in sorted(keys.by_key.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {key:<24} {n}")
        print(f"\nFLOPs: {flops.get_total_flops():,}")
        for op, n in sorted(flops.get_flop_counts()["Global"].items()):
            print(f"  {op:<52} {n:,}")
    return 0


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def _cmd_plan(args: argparse.Namespace) -> int:
    from ._api import creation as _creation
    from .models.llama import LLAMA_CONFIGS, Llama, LlamaConfig
    from .tensor.device import Device
    from .tensor.dtype import int64, to_dtype
    from .utils.memory import estimate_memory, format_bytes

    if args.config is not None and args.config not in LLAMA_CONFIGS:
        print(
            f"keyroute plan: unknown --config {args.config!r}; known: "
            f"{', '.join(sorted(LLAMA_CONFIGS))}",
            file=sys.stderr,
        )
        return 2
    base = LLAMA_CONFIGS[args.config] if args.config else LlamaConfig()
    sizes = {
        name: getattr(args, name)
        for name in ("layers", "hidden", "ffn", "heads", "kv_heads", "vocab")
    }
    if sizes["kv_heads"] is None:  # grouped like the base shape, unless --heads is given
        sizes["kv_heads"] = sizes["heads"] if sizes["heads"] is not None else base.kv_heads
    sizes = {k: (getattr(base, k) if v is None else v) for k, v in sizes.items()}
    cfg = LlamaConfig(
        **sizes,
        norm_eps=base.norm_eps,
        rope_theta=base.rope_theta,
        tie_embeddings=args.tie_embeddings or base.tie_embeddings,
    )
    if cfg.hidden % cfg.heads or cfg.heads % cfg.kv_heads or (cfg.hidden // cfg.heads) % 2:
        print(
            f"keyroute plan: --hidden ({cfg.hidden}) must split into --heads ({cfg.heads}) "
            f"heads of an even size, and --heads into --kv-heads ({cfg.kv_heads}) groups",
            file=sys.stderr,
        )
        return 2
    try:
        dtype = to_dtype(args.dtype)
    except (TypeError, ValueError, KeyError, AttributeError):
        print(f"keyroute plan: unknown --dtype {args.dtype!r}", file=sys.stderr)
        return 2
    if not dtype.is_floating_point:  # parameters must be able to require grad
        print(
            f"keyroute plan: --dtype must be a floating-point dtype, got {args.dtype!r}",
            file=sys.stderr,
        )
        return 2
    # Everything on the meta device: the weights and the activations are shapes only.
    with Device("meta"):
        model = Llama(cfg, dtype=dtype)
    ids = _creation.empty(args.batch, args.seq, dtype=int64, device="meta")
    report = estimate_memory(model, ids, backward=args.backward)
    n = report.param_count
    if n != cfg.param_count():  # the built model and the closed formula must agree
        print(
            f"keyroute plan: internal error: built {n:,} parameters, formula {cfg.param_count():,}",
            file=sys.stderr,
        )
        return 1
    print(
        f"Llama-shaped model: {cfg.layers} layers, hidden {cfg.hidden}, ffn {cfg.ffn}, "
        f"{cfg.heads} heads ({cfg.kv_heads} KV), vocab {cfg.vocab}, "
        f"{str(dtype).rpartition('.')[2]}"
    )
    print(f"parameters          {n:,} ({n / 1e9:.2f} B)")
    print(f"parameter memory    {format_bytes(report.param_bytes)}")
    what = "forward + backward" if args.backward else "forward (inference)"
    print(
        f"activation peak     {format_bytes(report.activation_peak_bytes)}  "
        f"({what}, batch {args.batch}, sequence {args.seq})"
    )
    print(f"peak memory         {format_bytes(report.peak_bytes)}")
    if args.by_module:
        print("\nallocated per module (the 20 largest)")
        for name, nbytes in sorted(report.by_module.items(), key=lambda kv: -kv[1])[:20]:
            print(f"  {name:<40} {format_bytes(nbytes)}")
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    from .run import run_script

    return run_script(args.script, args.args, trace=args.trace, profile=args.profile)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="keyroute", description="PyTorch's dispatcher in Python: inspect and run it."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("embed", help="sentence embeddings with all-MiniLM-L6-v2")
    p.add_argument("sentences", nargs="*")
    p.add_argument("--file", help="read sentences from a file, one per line")
    p.add_argument("--batch-size", type=_positive_int, default=32)
    p.add_argument("--trace", action="store_true", help="operator counts per dispatch key, FLOPs")
    p.add_argument("--output", help="save the embeddings (.npy)")
    p.add_argument("--max-show", type=int, default=16, help="print details up to this many")
    p.add_argument("--profile", metavar="TRACE", help="profile the run: table + Chrome trace")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the batches on this dask cluster")
    p.add_argument("--workers", type=_positive_int, help="run them on a local dask cluster")
    p.set_defaults(func=_cmd_embed)
    p = sub.add_parser("plan", help="parameters and peak memory of a Llama-shaped model")
    p.add_argument(
        "--config",
        default=None,
        help="start from a known shape (llama2-7b, llama3-8b, llama3-70b, ...); "
        "size options override it (default: llama2-7b's sizes)",
    )
    p.add_argument("--layers", type=_positive_int, default=None)
    p.add_argument("--hidden", type=_positive_int, default=None)
    p.add_argument("--ffn", type=_positive_int, default=None)
    p.add_argument("--heads", type=_positive_int, default=None)
    p.add_argument("--kv-heads", type=_positive_int, default=None)
    p.add_argument("--vocab", type=_positive_int, default=None)
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--batch", type=_positive_int, default=1)
    p.add_argument("--seq", type=_positive_int, default=4096)
    p.add_argument("--backward", action="store_true", help="include a backward pass")
    p.add_argument("--tie-embeddings", action="store_true")
    p.add_argument("--by-module", action="store_true")
    p.set_defaults(func=_cmd_plan)
    p = sub.add_parser("keys", help="list every dispatch key in priority order")
    p.set_defaults(func=_cmd_keys)
    p = sub.add_parser("table", help="print an operator's computed dispatch table")
    p.add_argument("op", help="operator, e.g. aten::add.Tensor or add.Tensor")
    p.set_defaults(func=_cmd_table)
    p = sub.add_parser("dump", help="print an operator's registrations")
    p.add_argument("op")
    p.set_defaults(func=_cmd_dump)
    p = sub.add_parser("op", help="an operator's card: the source line of each of its layers")
    p.add_argument("op", help="operator, e.g. aten::add.Tensor or add.Tensor")
    p.set_defaults(func=_cmd_op)
    p = sub.add_parser("schema", help="print the schemas of an operator's overloads")
    p.add_argument("op", help="operator, e.g. aten::add")
    p.set_defaults(func=_cmd_schema)
    p = sub.add_parser("run", help="run a PyTorch program on keyroute (torch -> keyroute)")
    p.add_argument("--trace", action="store_true", help="print the dispatch trace (stderr)")
    p.add_argument("--profile", action="store_true", help="operator counts at exit (stderr)")
    p.add_argument("script", help="the program (a .py file)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    p.set_defaults(func=_cmd_run)
    from .profiler.cli import add_commands as _profiler_commands

    _profiler_commands(sub)  # keyroute profile, keyroute view
    from .models.llama_cli import add_command as _generate_command

    _generate_command(sub)  # keyroute generate
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:  # Python keeps undecodable bytes as lone surrogates
            print(f"keyroute: argument {i + 1} is not valid UTF-8", file=sys.stderr)
            return 2
    if argv and argv[0].endswith(".py") and argv[0] not in _COMMANDS:
        argv.insert(0, "run")  # `python -m keyroute script.py args`
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


_COMMANDS = (
    "embed",
    "plan",
    "keys",
    "table",
    "dump",
    "op",
    "schema",
    "run",
    "profile",
    "view",
    "generate",
)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
