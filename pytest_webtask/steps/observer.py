"""Who hears of each step as it ends: the plugin relays it to the ``pytest_webtask_step_done``
and ``pytest_webtask_step_failed`` hooks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class StepObserver:
    """Told of every step: ``done`` with its outcome, ``failed`` with the failure message
    (secrets already masked). The default hears nothing."""

    def __init__(self, done: Callable[[Any], None] | None = None,
                 failed: Callable[[str, str, str], None] | None = None) -> None:
        self._done = done
        self._failed = failed

    def done(self, outcome: Any) -> None:
        if self._done is not None:
            self._done(outcome)

    def failed(self, kind: str, text: str, message: str) -> None:
        if self._failed is not None:
            self._failed(kind, text, message)
