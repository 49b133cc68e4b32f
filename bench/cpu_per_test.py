"""A pytest plugin that writes each test's CPU, the whole machine's (Chromium's renderers, the
Node driver and the processes a test starts count), and its wall time: run the suite in one
process, on a quiet machine, and read where the CPU goes.

    CI=true CPU_OUT=cpu.json .venv/bin/python -m pytest tests -p no:xdist -p no:randomly \\
        -p bench.cpu_per_test

``CPU_OUT`` (default ``cpu-per-test.json``) gets ``{nodeid: [core-s, wall s]}``, setup,
call and teardown together. The machine's busy jiffies are read from ``/proc/stat`` (Linux
only), so anything else running is counted too: run nothing beside it."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator

import pytest

from bench.core_seconds import busy_ticks

_rows: dict[str, tuple[float, float]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    ticks, start = busy_ticks(), time.monotonic()
    yield
    _rows[item.nodeid] = (round((busy_ticks() - ticks) / 100, 3),
                          round(time.monotonic() - start, 3))


def pytest_sessionfinish(session: pytest.Session) -> None:
    with open(os.environ.get("CPU_OUT", "cpu-per-test.json"), "w", encoding="utf-8") as out:
        json.dump(_rows, out, indent=0)
