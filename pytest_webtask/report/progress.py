"""The live progress line while a step records: which step, how many model calls (and how
many of them timed out or were refused their reply format), how long.

Drawn on a terminal only (never under ``-q``, in CI or in an xdist worker), at the end of
the line pytest is writing, and erased with backspaces when the step ends, so pytest's own
output and its width bookkeeping are left exactly as they were.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import IO, Any

MAX_WIDTH = 60


class Progress:
    """Told when a recorded step starts, at each model call, and when the step ends."""

    def __init__(self, out: IO[str] | None = None,
                 quiet: Callable[[], AbstractContextManager[Any]] | None = None,
                 room: Callable[[], int] | None = None) -> None:
        self._out = out
        self._quiet = quiet or nullcontext  # lifts pytest's capture while drawing
        self._room = room or (lambda: MAX_WIDTH)
        self._shown = 0
        self._where = ""
        self._calls = 0
        self._timeouts = 0
        self._refusals = 0
        self._started = 0.0

    @property
    def live(self) -> bool:
        return self._out is not None

    def step_started(self, where: str) -> None:
        self._where, self._calls, self._started = where, 0, time.monotonic()
        self._timeouts = self._refusals = 0
        self._draw()

    def model_call(self) -> None:
        self._calls += 1
        self._draw()

    def model_trouble(self, timeouts: int, refusals: int) -> None:
        """A model call ended with requests that timed out or whose reply format was
        refused: counted on the line as they happen."""
        if timeouts or refusals:
            self._timeouts += timeouts
            self._refusals += refusals
            self._draw()

    def step_finished(self) -> None:
        self._erase()
        self._where = ""

    def _text(self) -> str:
        calls = f"{self._calls} model call{'s' if self._calls != 1 else ''}"
        if self._timeouts:
            calls += f", {self._timeouts} timed out"
        if self._refusals:
            calls += f", {self._refusals} refused"
        tail = f": {calls}, {time.monotonic() - self._started:.0f}s]"
        head = f" [recording {self._where}"
        width = min(MAX_WIDTH, self._room())
        if len(head) + len(tail) > width:  # the step's text gives way, never the counts
            head = head[:max(width - len(tail) - 1, 0)] + "…"
        text = head + tail
        return text if len(text) <= width else ""

    def _draw(self) -> None:
        if self._out is None or not self._where:
            return
        text = self._text()
        with self._quiet():
            self._out.write("\b" * self._shown + "\x1b[K" + text)
            self._out.flush()
        self._shown = len(text)

    def _erase(self) -> None:
        if self._out is None or not self._shown:
            return
        with self._quiet():
            self._out.write("\b" * self._shown + "\x1b[K")
            self._out.flush()
        self._shown = 0


def for_terminal(config: Any) -> Progress:
    """A live Progress on an interactive terminal; a silent one under -q, in CI, in an
    xdist worker, or when output goes to a file or pipe."""
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    out = sys.__stdout__  # written to with capture lifted: the terminal pytest writes to
    if (terminal is None or config.get_verbosity() < 0 or hasattr(config, "workerinput")
            or os.environ.get("CI") or out is None or not getattr(terminal, "isatty", False)):
        return Progress()
    writer = getattr(terminal, "_tw", None)  # where pytest's line is, to stay inside it

    def room() -> int:
        if writer is None:
            return MAX_WIDTH
        return writer.fullwidth - writer.width_of_current_line - 1

    quiet = capture.global_and_fixture_disabled if capture is not None else nullcontext
    return Progress(out, quiet, room)
