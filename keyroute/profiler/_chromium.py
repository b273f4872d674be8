"""Drive a headless Chromium over the DevTools protocol (its `--remote-debugging-pipe`: JSON
messages separated by NUL bytes on file descriptors 3 and 4, no websocket library needed), with
every request outside one local origin failed before it leaves the browser.

Used by the viewer test (does a trace load in the Perfetto UI?) and to take the screenshot in
docs/. Nothing here runs unless asked: it needs Debian's `chromium` (or CHROMIUM=path).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

__all__ = ["find_chromium", "Browser"]

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
]


def find_chromium() -> str | None:
    env = os.environ.get("CHROMIUM")
    if env and os.path.exists(env):
        return env
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium with one page; requests not under `allow_origin` are failed."""

    def __init__(self, allow_origin: str, size: tuple[int, int] = (1600, 1000)) -> None:
        exe = find_chromium()
        if exe is None:
            raise FileNotFoundError("no chromium executable (apt-get install chromium)")
        self.allow = allow_origin.rstrip("/")
        self._to_child_r, self._to_child_w = os.pipe()
        self._from_child_r, self._from_child_w = os.pipe()
        self._profile = tempfile.mkdtemp(prefix="keyroute-chromium-")
        host = self.allow.split("//", 1)[-1].split(":", 1)[0]
        args = [
            exe,
            *FLAGS,
            f"--user-data-dir={self._profile}",
            f"--window-size={size[0]},{size[1]}",
            # A second wall: names other than the local host do not resolve.
            f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {host}",
            "about:blank",
        ]
        r, w = self._to_child_r, self._from_child_w

        def child_fds() -> None:
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            args,
            preexec_fn=child_fds,
            pass_fds=(3, 4),  # kept open after preexec_fn has placed the pipes there
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(r)
        os.close(w)
        self._buf = b""
        self._next = 0
        self.blocked: list[str] = []
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        self.call("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, session=True)
        self.call("Page.enable", {}, session=True)

    # -- protocol
    def _send(self, method: str, params: dict[str, Any], session: bool) -> int:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._to_child_w, json.dumps(msg).encode() + b"\0")
        return self._next

    def _read(self, timeout: float) -> dict[str, Any] | None:
        import select

        while b"\0" not in self._buf:
            ready, _, _ = select.select([self._from_child_r], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self._from_child_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def _handle(self, msg: dict[str, Any]) -> None:
        if msg.get("method") == "Fetch.requestPaused":
            p = msg["params"]
            url = p["request"]["url"]
            if url == self.allow or url.startswith(self.allow + "/"):
                self._send("Fetch.continueRequest", {"requestId": p["requestId"]}, True)
            else:
                self.blocked.append(url)
                self._send(
                    "Fetch.failRequest",
                    {"requestId": p["requestId"], "errorReason": "BlockedByClient"},
                    True,
                )
        elif "method" in msg:
            self.events.append(msg)

    def call(
        self, method: str, params: dict[str, Any], session: bool = False, timeout: float = 60
    ) -> dict[str, Any]:
        mid = self._send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer to {method}")
            msg = self._read(left)
            if msg is None:
                continue
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self._handle(msg)

    def pump(self, seconds: float) -> None:
        """Serve the page's requests (allow or fail them) for `seconds`."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            msg = self._read(min(left, 0.2))
            if msg is not None:
                self._handle(msg)

    # -- page
    def goto(self, url: str) -> None:
        self.call("Page.navigate", {"url": url}, session=True)

    def evaluate(self, expression: str) -> Any:
        r = self.call(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True
        )
        return r.get("result", {}).get("value")

    def wait_for_text(self, needles: list[str], timeout: float = 90) -> str:
        """The page's text once it contains every needle (TimeoutError with the text else)."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            self.pump(1.0)
            text = self.evaluate("document.body ? document.body.innerText : ''") or ""
            if all(n in text for n in needles):
                return text
        raise TimeoutError(f"page text never showed {needles}; it shows: {text[:2000]!r}")

    def screenshot(self, path: str) -> None:
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self) -> None:
        try:
            self._send("Browser.close", {}, False)
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001  (already gone, or the pipe broke)
            self.proc.kill()
            self.proc.wait(timeout=10)
        for fd in (self._to_child_w, self._from_child_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
