"""What the replay benchmarks share: alternating timed runs, each in a fresh context, and
the CPU a whole run cost."""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

Flow = Callable[[Page, str], Any]
ROOT = Path(__file__).resolve().parent.parent


def run_env(**extra: str) -> dict[str, str]:
    """The environment of a benchmarked ``pytest`` run: CI (nothing records), no model, this
    repository importable. Python may write its bytecode caches, as on a user's machine: with
    ``PYTHONDONTWRITEBYTECODE`` (set on these machines) every run would compile the plugin
    and the tests from source again, a cost only the side that loads the plugin pays."""
    full = {**os.environ, "CI": "true", "OPENAI_API_KEY": "", "WEBTASK_MODEL": "",
            "PYTHONPATH": str(ROOT), **extra}
    for name in ("PYTHONDONTWRITEBYTECODE", "WEBTASK_SECRET_PASSWORD"):
        full.pop(name, None)
    return full


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


def machine_busy_seconds() -> float | None:
    """CPU seconds the whole machine has been busy since boot (``/proc/stat``: user, nice,
    system, irq, softirq, steal), or None where there is no ``/proc/stat``."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()[1:]
    except OSError:
        return None
    ticks = sum(int(v) for i, v in enumerate(fields[:8]) if i not in (3, 4))  # not idle, iowait
    return ticks / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """The CPU seconds of what runs between ``start`` and ``stop``.

    ``machine``: the whole machine's busy time (right on a machine with nothing else running,
    and the only count that includes Chromium's renderers: they are forked by its zygote and
    can outlive it, so their time never reaches ``RUSAGE_CHILDREN``). ``children``: the
    processes this one waited for (pytest, its workers, the demo shop), a lower bound."""

    def __init__(self) -> None:
        self.machine: float | None = None
        self.children = 0.0

    def __enter__(self) -> CpuMeter:
        self._machine = machine_busy_seconds()
        self._children = _children_cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        after = machine_busy_seconds()
        if after is not None and self._machine is not None:
            self.machine = after - self._machine
        self.children = _children_cpu() - self._children

    @property
    def seconds(self) -> float:
        return self.machine if self.machine is not None else self.children


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
