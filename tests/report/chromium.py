"""A minimal headless-Chromium driver for the report tests: the DevTools protocol over
``--remote-debugging-pipe`` (file descriptors 3 and 4, messages separated by NUL), so the
tests need no browser-automation package and never download a browser.

``Page(path)`` opens a local file and records console errors, uncaught exceptions and every
network request that is not the file itself or a ``data:`` URL; ``evaluate(js)`` runs an
expression (awaiting promises); ``screenshot()`` returns PNG bytes.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe"]


def available() -> bool:
    return os.access(CHROMIUM, os.X_OK)


class Page:
    def __init__(self, path: str | os.PathLike, width: int = 1400, height: int = 1000, timeout: float = 60.0):
        self.timeout = timeout
        self.url = Path(path).resolve().as_uri()
        self.profile = tempfile.mkdtemp(prefix="mrkit-chromium-")
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()

        def fds():  # the child reads commands on fd 3 and writes answers on fd 4
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.w = os.fdopen(to_chrome_w, "wb", buffering=0)
        self.r = os.fdopen(from_chrome_r, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.events: list[dict] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)
        self.call("Page.navigate", {"url": self.url}, session=True)
        self.wait_event("Page.loadEventFired")

    # ------------------------------------------------------------------ protocol
    def _read(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = self.r.read(1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        data = json.loads(msg)
        if "method" in data:
            self._event(data)
        return data

    def _event(self, ev: dict) -> None:
        self.events.append(ev)
        m, p = ev["method"], ev.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.errors.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
        elif m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.errors.append("exception: " + str(d.get("exception", {}).get("description", d.get("text"))))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            self.errors.append("log: " + p["entry"].get("text", ""))
        elif m == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if url != self.url and not url.startswith(("data:", "about:")):
                self.requests.append(url)

    def call(self, method: str, params: dict | None = None, session: bool = False) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        self.w.write(json.dumps(msg).encode() + b"\0")
        while True:
            data = self._read()
            if data.get("id") == self.next_id:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return data.get("result", {})

    def wait_event(self, method: str) -> dict:
        for ev in self.events:
            if ev["method"] == method:
                return ev
        while True:
            data = self._read()
            if data.get("method") == method:
                return data

    # ------------------------------------------------------------------ page
    def evaluate(self, expression: str):
        res = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True}, session=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"{expression!r}: {res['exceptionDetails']}")
        return res.get("result", {}).get("value")

    def settle(self) -> None:
        """Let the page finish rendering (two animation frames)."""
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))")

    def screenshot(self, full_page: bool = False) -> bytes:
        params = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            h = self.evaluate("document.documentElement.scrollHeight")
            w = self.evaluate("document.documentElement.scrollWidth")
            params["clip"] = {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}
        return base64.b64decode(self.call("Page.captureScreenshot", params, session=True)["data"])

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.w.close()
        self.r.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Page":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
