"""Finding a Chromium: Playwright's own build if installed, else ``WEBTASK_CHROMIUM`` or a
system one (CI images and containers often have only a distribution's ``chromium``).

``choose_chromium`` is what the plugin applies to a user's suite (``plugin/launch.py``);
``launch_args`` is this repository's own set-up (its ``conftest.py``, the bench, test
helpers that launch a browser themselves).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

# Without these, Chromium on a machine with a closed network keeps trying to reach Google.
QUIET_ARGS = [
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-gpu", "--disable-quic",
]
SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# What Playwright itself launches for a headless run when its own build is installed: the
# headless shell (Debian's package ``chromium-headless-shell``, Chrome for Testing's
# ``chrome-headless-shell``). The full browser in headless mode starts a WebUI renderer with
# every new window, so each test's context costs about twice the CPU.
HEADLESS_SHELL_NAMES = ("chromium-headless-shell", "chrome-headless-shell")
ENV = "WEBTASK_CHROMIUM"
NO_CHROMIUM = (
    "No Chromium to launch: Playwright's own is not installed and none was found on PATH "
    f"({', '.join(SYSTEM_NAMES)}). Either run `playwright install chromium`, or install a "
    f"Chromium (e.g. `apt-get install chromium`) and, unless it is on PATH, set {ENV} to "
    "its path.")


@dataclass(frozen=True)
class ChromiumChoice:
    """The Chromium a launch uses when it names none itself.

    ``executable``: a path to launch, or None to leave the launch to Playwright's own build;
    ``note``: what the pytest header says ("" when there is nothing to say); ``problem``:
    why there is no Chromium at all, with both fixes ("" when there is one). ``certain``:
    the problem is a ``WEBTASK_CHROMIUM`` that names no Chromium, so there is no point in
    launching; otherwise Playwright's own launch is still tried (its build may be where this
    module did not look) and the problem explains its failure.
    """

    executable: str | None = None
    note: str = ""
    problem: str = ""
    certain: bool = False
    headless_executable: str | None = None

    def executable_for(self, headless: bool) -> str | None:
        """The executable a headless (or headed) launch gets: a headless launch takes the
        headless shell when one was found, as Playwright does with its own builds."""
        if headless and self.headless_executable:
            return self.headless_executable
        return self.executable

    def applied(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with the executable added, unless they choose a browser themselves
        (an ``executable_path``, or a ``channel`` such as ``--browser-channel chrome``).
        Playwright launches headless unless ``headless`` is False."""
        path = self.executable_for(options.get("headless") is not False)
        if path is None or chooses_browser(options):
            return dict(options)
        return {**options, "executable_path": path}


    def explain(self, error: Exception) -> str | None:
        """The message for a launch that failed because no Chromium was there, else None."""
        if not self.problem or "Executable doesn't exist" not in str(error):
            return None
        first = str(error).strip().splitlines()[0]
        return f"{self.problem}\n(Playwright said: {first})"


def chooses_browser(options: Mapping[str, Any]) -> bool:
    """Whether launch options name their browser (then they win)."""
    return bool(options.get("executable_path") or options.get("channel"))


def choose_chromium(environ: Mapping[str, str] | None = None) -> ChromiumChoice:
    """``WEBTASK_CHROMIUM`` when set; nothing when Playwright's own Chromium is installed;
    else the first of ``chromium``, ``chromium-browser``, ``google-chrome`` on PATH; else a
    problem naming both fixes."""
    env = os.environ if environ is None else environ
    chosen = env.get(ENV)
    if chosen:
        if not (os.path.isfile(chosen) and os.access(chosen, os.X_OK)):
            return ChromiumChoice(
                note=f"{ENV}={chosen} is not an executable file",
                problem=f"{ENV} is set to {chosen!r}, which is not an executable file: point "
                        "it at a Chromium (e.g. /usr/bin/chromium), or unset it to use "
                        "Playwright's own (`playwright install chromium`).", certain=True)
        return ChromiumChoice(chosen, note=f"Chromium from {ENV}: {chosen}")
    if playwright_has_chromium(env):
        return ChromiumChoice()
    found, shell = system_chromium(), system_headless_shell()
    if found:
        also = f", its headless shell at {shell} for headless runs" if shell else ""
        return ChromiumChoice(found, headless_executable=shell,
                              note=f"Playwright's own Chromium is not installed; using the "
                                   f"system one at {found}{also} ({ENV} chooses another)")
    if shell:
        return ChromiumChoice(
            headless_executable=shell,
            note=f"Playwright's own Chromium is not installed; using the system headless "
                 f"shell at {shell}, headless only ({ENV} chooses another)",
            problem=f"Only a headless shell was found ({shell}), and a headed run needs a "
                    f"full Chromium: install one (e.g. `apt-get install chromium`), or run "
                    f"`playwright install chromium`, or set {ENV} to its path.")
    return ChromiumChoice(note="no Chromium found (`playwright install chromium`, or set "
                               f"{ENV})", problem=NO_CHROMIUM)


def system_chromium() -> str | None:
    return _first_on_path(SYSTEM_NAMES)


def system_headless_shell() -> str | None:
    return _first_on_path(HEADLESS_SHELL_NAMES)


def _first_on_path(names: tuple[str, ...]) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def find_chromium(headless: bool = True) -> str | None:
    """Path to a Chromium for ``executable_path`` (for a headless launch, the headless shell
    when there is one), or None to let Playwright use its own (or when there is none)."""
    return choose_chromium().executable_for(headless)


def playwright_has_chromium(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``playwright install chromium`` (or ``--only-shell``) has installed the build
    this Playwright release launches: its revision's folder, completely installed."""
    env = os.environ if environ is None else environ
    root = _browsers_root(env)
    if root is None or not root.is_dir():
        return False
    revision = _chromium_revision()
    for name in ("chromium", "chromium_headless_shell"):
        for folder in root.glob(f"{name}-{revision or '*'}"):
            if (folder / "INSTALLATION_COMPLETE").exists():
                return True
    return False


def _browsers_root(env: Mapping[str, str]) -> Path | None:
    """Where Playwright keeps its browsers (its documented locations)."""
    configured = env.get("PLAYWRIGHT_BROWSERS_PATH")
    if configured == "0":  # installed inside the package
        package = _playwright_package()
        return package / "driver" / "package" / ".local-browsers" if package else None
    if configured:
        return Path(configured)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ms-playwright"
    if sys.platform == "win32":
        return Path(env.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / \
            "ms-playwright"
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ms-playwright"


def _playwright_package() -> Path | None:
    spec = find_spec("playwright")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _chromium_revision() -> str | None:
    """The Chromium revision this Playwright release launches (its ``browsers.json``), or
    None when that cannot be read (then any installed revision counts)."""
    package = _playwright_package()
    if package is None:
        return None
    try:
        data = json.loads((package / "driver" / "package" / "browsers.json").read_text())
        return next(str(b["revision"]) for b in data["browsers"] if b["name"] == "chromium")
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return None


def launch_args(extra: dict | None = None) -> dict:
    """Launch arguments for Playwright's ``chromium.launch`` on this machine (this
    repository's set-up): the Chromium chosen above, arguments that keep it quiet on a
    closed network, and no sandbox as root."""
    args = dict(extra or {})
    path = find_chromium(headless=args.get("headless") is not False)
    if path and "executable_path" not in args:
        args["executable_path"] = path
    args["args"] = list(args.get("args", [])) + QUIET_ARGS
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args["chromium_sandbox"] = False  # root cannot use the sandbox
    return args
