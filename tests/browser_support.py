"""A headless Chromium for the browser tests: found on this machine, or a skip (a failure in CI).

The tests never install anything: `.ci/run` installs Chromium for CI, and a developer installs it
with the command in ``INSTALL_HINT``. Without a browser the tests skip locally and fail under
``CI=true``, so a CI run cannot pass while silently testing less.

Also a minimal DevTools-protocol client over ``--remote-debugging-pipe`` (standard library only),
so a test can load a page and collect console messages, exceptions and CSP reports robustly,
without scraping Chromium's log format.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import pytest

RUN_TIMEOUT = 90
# Set to a Chromium (or Chrome) binary to use instead of the one found on PATH.
BINARY_VARIABLE = "ANSWER_AUDIT_CHROMIUM"
INSTALL_HINT = (
    "install Chromium with `apt install chromium` (Debian's chromium package; `bash .ci/run` "
    f"does it too), or point {BINARY_VARIABLE} at a Chromium binary"
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)


def find_chromium() -> str | None:
    """The Chromium binary to drive: ``$ANSWER_AUDIT_CHROMIUM``, else the first on PATH; or None.

    Only looks: installing a browser is `.ci/run`'s job or the developer's, never a test's.
    """
    for candidate in (
        os.environ.get(BINARY_VARIABLE),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def in_ci() -> bool:
    """True under a CI runner (``CI=true``, as `.ci/run` is started), where a skip would hide a gap."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def browser_unavailable(reason: str) -> NoReturn:
    """Skip the calling test with ``reason`` and how to install Chromium; fail instead in CI."""
    message = f"browser tests need a headless Chromium: {reason}; {INSTALL_HINT}"
    if in_ci():
        pytest.fail(f"CI=true, so a missing browser is an error: {message}", pytrace=False)
    pytest.skip(message)


def run_headless(
    binary: str, args: Sequence[str], user_data_dir: Path
) -> subprocess.CompletedProcess[str]:
    """Run Chromium once with the standard headless flags plus ``args``."""
    cmd = [binary, *FLAGS, f"--user-data-dir={user_data_dir}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)


class DevTools:
    """Chromium driven over the DevTools pipe: fd 3 carries commands in, fd 4 replies out."""

    def __init__(self, binary: str, user_data_dir: Path, window: tuple[int, int] = (1280, 2000)):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Chromium expects the pipe on fds 3 (commands in) and 4 (replies out). A tiny Python shim
        # moves them there from copies above 9, so the two moves cannot clobber each other.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser_r, from_browser_w)]
        os.close(to_browser_r)
        os.close(from_browser_w)
        cmd = [binary, *FLAGS, f"--user-data-dir={user_data_dir}", "--remote-debugging-pipe",
               f"--window-size={window[0]},{window[1]}", "about:blank"]  # fmt: skip
        shim = (
            "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
            "os.execv(sys.argv[3], sys.argv[3:])"
        )
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the browser
        self.proc = subprocess.Popen(
            [sys.executable, "-c", shim, *map(str, high), *cmd], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=self._stderr, pass_fds=high,
        )  # fmt: skip
        for fd in high:
            os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def send(self, method: str, params: dict[str, Any] | None = None, *, session: bool = True,
             timeout: float = RUN_TIMEOUT) -> dict[str, Any]:  # fmt: skip
        """Send one command and wait for its reply; events seen meanwhile are kept."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session is not None:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = RUN_TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._read(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from chromium over the DevTools pipe")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise RuntimeError(f"chromium exited: {self.stderr_text()[-2000:]}")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        parsed: dict[str, Any] = json.loads(raw)
        return parsed

    def open(self, url: str) -> None:
        """A fresh tab on ``url`` with console, log and runtime events recorded until it loads."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True},
            session=False,
        )
        self.session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.send("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return reply["result"].get("value")

    def screenshot(self) -> bytes:
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        return base64.b64decode(data["data"])

    def problems(self) -> list[str]:
        """Console errors/warnings, uncaught exceptions and browser log errors seen so far."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails'].get('text')}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in (
                "error",
                "warning",
                "assert",
            ):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params["entry"].get("level") in (
                "error",
                "warning",
            ):
                entry = params["entry"]
                found.append(f"log {entry.get('source')}/{entry['level']}: {entry.get('text')}")
        return found

    def stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                self.send("Browser.close", session=False, timeout=10)
        except (OSError, RuntimeError, TimeoutError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            os.close(fd)
        self._stderr.close()
