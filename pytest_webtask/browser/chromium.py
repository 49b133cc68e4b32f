"""Finding a Chromium: Playwright's own build if installed, else a system one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

# Without these, Chromium on a machine with a closed network keeps trying to reach Google.
QUIET_ARGS = [
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-gpu", "--disable-quic",
]


def find_chromium() -> str | None:
    """Path to a Chromium for ``executable_path``, or None to let Playwright use its own.

    Order: ``WEBTASK_CHROMIUM`` (a path), Playwright's downloaded Chromium, then ``chromium``
    / ``chromium-browser`` / ``google-chrome`` on PATH.
    """
    env = os.environ.get("WEBTASK_CHROMIUM")
    if env:
        return env
    if _playwright_has_chromium():
        return None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _playwright_has_chromium() -> bool:
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache/ms-playwright")
    return any(cache.glob("chromium-*/chrome-linux*/chrome")) or any(
        cache.glob("chromium_headless_shell-*/chrome-*/*headless_shell")
    )


def launch_args(extra: dict | None = None) -> dict:
    """Launch arguments for Playwright's ``chromium.launch`` on this machine."""
    args = dict(extra or {})
    path = find_chromium()
    if path and "executable_path" not in args:
        args["executable_path"] = path
    args["args"] = list(args.get("args", [])) + QUIET_ARGS
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args["chromium_sandbox"] = False  # root cannot use the sandbox
    return args
