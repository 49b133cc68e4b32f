"""Remote browsers on this machine, for trying ``connect``/``connect_cdp`` out and for tests.

``playwright_server`` runs Playwright's own browser server (``BrowserType.launchServer``,
through the driver that the ``playwright`` package bundles: no npm) and yields its
``ws://`` endpoint; ``cdp_chromium`` starts a Chromium with ``--remote-debugging-port`` and
yields its ``http://`` CDP endpoint. Both listen on 127.0.0.1 only, wait a bounded time for
the browser, and stop the whole process group on exit.

    python -m pytest_webtask.browser.servers playwright   # prints the endpoint, Ctrl-C stops
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .chromium import QUIET_ARGS, find_chromium

START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


class BrowserServerError(RuntimeError):
    """A browser server did not start."""


@contextmanager
def playwright_server(browser: str = "chromium", executable: str | None = None,
                      timeout: float = START_TIMEOUT) -> Iterator[str]:
    """A Playwright browser server on loopback; yields its ``ws://`` endpoint.

    ``executable`` defaults to the Chromium this machine has (see ``find_chromium``); for
    another browser, Playwright's own build of it."""
    config: dict[str, object] = {"host": "127.0.0.1", "port": 0, "headless": True}
    if browser == "chromium":
        executable = executable or find_chromium()
        config["args"] = QUIET_ARGS
        if _is_root():
            config["chromiumSandbox"] = False
    if executable:
        config["executablePath"] = executable
    with tempfile.TemporaryDirectory(prefix="webtask-server-") as tmp:
        path = Path(tmp) / "launch.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        cmd = [sys.executable, "-m", "playwright", "launch-server", "--browser", browser,
               "--config", str(path)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            line = _first_line(proc, timeout)
            if not line.startswith("ws://"):
                raise BrowserServerError(
                    f"the Playwright browser server did not start: {line or _err(proc)}")
            yield line
        finally:
            _stop(proc)


@contextmanager
def cdp_chromium(executable: str | None = None, timeout: float = START_TIMEOUT) -> Iterator[str]:
    """A headless Chromium with a CDP port on loopback; yields ``http://127.0.0.1:<port>``."""
    executable = executable or find_chromium() or shutil.which("chromium")
    if not executable:
        raise BrowserServerError("no Chromium found: install one (apt-get install chromium) "
                                 "or set WEBTASK_CHROMIUM=/path/to/chrome")
    with tempfile.TemporaryDirectory(prefix="webtask-cdp-") as profile:
        cmd = [executable, "--headless=new", "--remote-debugging-address=127.0.0.1",
               "--remote-debugging-port=0", f"--user-data-dir={profile}", *QUIET_ARGS,
               *(["--no-sandbox"] if _is_root() else []), "about:blank"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            # Chromium writes the port it chose (and the browser target's path) here.
            active = Path(profile) / "DevToolsActivePort"
            deadline = time.monotonic() + timeout
            while not (active.exists() and active.read_text().count("\n") >= 1):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise BrowserServerError(f"Chromium with a CDP port did not start: "
                                             f"{_err(proc)}")
                time.sleep(0.05)
            port = active.read_text().splitlines()[0].strip()
            yield f"http://127.0.0.1:{port}"
        finally:
            _stop(proc)


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _first_line(proc: subprocess.Popen[bytes], timeout: float) -> str:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    buffer = b""
    while b"\n" not in buffer:
        left = deadline - time.monotonic()
        if left <= 0 or proc.poll() is not None:
            break
        ready, _, _ = select.select([proc.stdout], [], [], min(left, 0.5))
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            buffer += chunk
    return buffer.decode("utf-8", "replace").strip().splitlines()[0] if buffer.strip() else ""


def _err(proc: subprocess.Popen[bytes]) -> str:
    if proc.poll() is None:
        return f"no answer within the time limit (pid {proc.pid})"
    text = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    return f"exit code {proc.returncode}: {text.strip()[-2000:]}"


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the process and everything it started (its own process group)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):  # KILL whatever TERM left behind
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("playwright", "cdp"):
        print("usage: python -m pytest_webtask.browser.servers playwright|cdp", file=sys.stderr)
        return 2
    with (playwright_server() if argv[0] == "playwright" else cdp_chromium()) as endpoint:
        option = "--webtask-connect" if argv[0] == "playwright" else "--webtask-connect-cdp"
        print(f"{endpoint}\n(run pytest with {option} {endpoint}; Ctrl-C stops)", flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
