"""What the replay benchmarks share: alternating timed runs, each in a fresh context."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page

Flow = Callable[[Page, str], Any]


def timed(browser: Browser, flow: Flow, url: str) -> float:
    """Milliseconds ``flow(page, url)`` takes in a fresh browser context."""
    context = browser.new_context()
    page = context.new_page()
    t0 = time.perf_counter()
    flow(page, url)
    elapsed = time.perf_counter() - t0
    context.close()
    return elapsed * 1000


def compare(browser: Browser, ours: Flow, theirs: Flow, url: str,
            repeat: int) -> tuple[float, float]:
    """Median milliseconds of ``ours`` and ``theirs``, run alternately after one warm-up
    each, so machine noise falls on both alike."""
    timed(browser, ours, url)
    timed(browser, theirs, url)
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        a.append(timed(browser, ours, url))
        b.append(timed(browser, theirs, url))
    return statistics.median(a), statistics.median(b)
