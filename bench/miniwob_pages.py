"""MiniWoB++ task pages: where they are, a loopback server for them, and one episode's start
and reward, read from the page itself (no gymnasium, no Selenium)."""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_webtask.testing import LoopbackServer

INSTALL_HINT = ("The MiniWoB++ task pages come with the `miniwob` package: "
                "pip install --no-deps 'miniwob==1.1.0' (its gymnasium and Selenium "
                "dependencies are not needed here), or pass --pages DIR (a folder holding "
                "core/ and miniwob/).")

LOAD_TIMEOUT_MS = 10_000

# Run after the page's own onload: the episode's first outcome stays on the page (the
# "START" cover and the next episode never come), the countdown and reward display are
# hidden (harness furniture, not part of the task), and the episode gets the harness's time
# limit instead of MiniWoB's 10 seconds, which no model answering in seconds could meet.
START_JS = """([seed, limitMs]) => {
  core.startEpisode = function () {};
  core.countdownTimer = function () {};
  const style = document.createElement('style');
  style.textContent = '#reward-display, #click-canvas, #sync-task-cover {display: none !important}';
  document.head.appendChild(style);
  Math.seedrandom(seed);
  core.EPISODE_MAX_TIME = limitMs;
  core.startEpisodeReal();
  return true;
}"""

IS_TASK_JS = ("() => typeof core !== 'undefined' && typeof core.startEpisodeReal === "
              "'function' && typeof genProblem === 'function'")

READY_JS = "() => (typeof WOB_TASK_READY === 'undefined' || WOB_TASK_READY === true)"

OUTCOME_JS = """() => ({done: WOB_DONE_GLOBAL === true, raw: Number(WOB_RAW_REWARD_GLOBAL),
                     reason: WOB_REWARD_REASON === null ? '' : String(WOB_REWARD_REASON)})"""


class BenchError(Exception):
    """A harness set-up problem a person fixes (missing pages, unknown task, no model)."""


class TaskPageError(Exception):
    """A task page did not load or did not start an episode."""


@dataclass
class Outcome:
    """What the page says about its episode: ended or not, and MiniWoB's raw reward (1.0 is
    success; -1 or 0 is failure; partial credit exists on a few tasks)."""

    done: bool
    reward: float
    reason: str = ""


def pages_dir(override: str | Path | None = None) -> Path:
    """The folder holding ``core/`` and ``miniwob/``: ``override``, else the installed
    ``miniwob`` package's ``html`` folder, found without importing it (its ``__init__``
    imports gymnasium)."""
    if override is not None:
        root = Path(override)
        if not (root / "miniwob").is_dir():
            raise BenchError(f"{root} has no miniwob/ folder of task pages. {INSTALL_HINT}")
        return root
    spec = importlib.util.find_spec("miniwob")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        root = Path(location) / "html"
        if (root / "miniwob").is_dir():
            return root
    raise BenchError(f"The MiniWoB++ task pages are not installed. {INSTALL_HINT}")


def available_tasks(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "miniwob").glob("*.html"))


class TaskServer:
    """Serves the task pages on loopback (some pages load their data over http, and the
    agent's origin rule then allows exactly this server)."""

    def __init__(self, root: Path) -> None:
        self.root = root

        class Quiet(SimpleHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

        handler = functools.partial(Quiet, directory=str(root))
        self._server = LoopbackServer(handler)

    def url(self, task: str) -> str:
        return f"{self._server.url}/miniwob/{task}.html"

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> TaskServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_episode(page: Page, url: str, seed: int, limit_s: float) -> str:
    """Load the task page, start a seeded episode and return its instruction."""
    try:
        response = page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_MS)
        if response is not None and not response.ok:
            raise TaskPageError(f"{url} answered HTTP {response.status}.")
        # the pages' scripts are inline and have run by the load event: nothing to wait for
        if not page.evaluate(IS_TASK_JS):
            raise TaskPageError(f"{url} did not start a MiniWoB++ episode: it defines no "
                                "core.startEpisodeReal and genProblem (not a task page?).")
        page.evaluate(START_JS, [seed, int(limit_s * 1000)])
        page.wait_for_function(READY_JS, timeout=LOAD_TIMEOUT_MS)
        instruction = page.evaluate("() => core.getUtterance()")
        if isinstance(instruction, dict):  # the natural-language (-nl) tasks: {utterance, fields}
            instruction = instruction.get("utterance")
    except PlaywrightError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise TaskPageError(f"{url} did not start a MiniWoB++ episode: {first}") from None
    if not isinstance(instruction, str) or not instruction.strip():
        raise TaskPageError(f"{url} started an episode with no instruction in #query.")
    return instruction


def outcome(page: Page) -> Outcome:
    """The episode's outcome as the page has it now."""
    try:
        got = page.evaluate(OUTCOME_JS)
    except PlaywrightError as exc:
        return Outcome(done=False, reward=0.0, reason=f"page unreadable: {exc}".splitlines()[0])
    return Outcome(done=bool(got["done"]), reward=float(got["raw"] if got["done"] else 0.0),
                   reason=got["reason"])
