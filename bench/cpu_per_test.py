"""A pytest plugin that writes each test's CPU (the processes it starts, Chromium's renderers
and the Node driver included) and its wall time, to read where the suite's CPU goes.

The whole machine's busy time (``/proc/stat``), in one process on a quiet machine:

    CI=true CPU_OUT=cpu.json .venv/bin/python -m pytest tests -p no:xdist -p no:randomly \\
        -p bench.cpu_per_test

or a cgroup's own (Linux, cgroup v1 ``cpuacct``, as root): each process of the run (xdist's
workers too) moves into a cgroup of its own under ``CPU_CGROUP``, and every process it starts
is counted there, so the run may be parallel and something else may run beside it (a model
server) without being counted:

    mkdir -p /sys/fs/cgroup/cpuacct/suite
    CI=true CPU_CGROUP=/sys/fs/cgroup/cpuacct/suite CPU_OUT=cpu.json \\
        .venv/bin/python -m pytest tests -n 3 --dist loadgroup -p bench.cpu_per_test

``CPU_OUT`` (default ``cpu-per-test.json``) gets ``{nodeid: [core-s, wall s]}``, setup,
call and teardown together (with xdist, each worker adds its own tests to it)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator

import pytest

from bench.core_seconds import busy_ticks

_rows: dict[str, tuple[float, float]] = {}
_usage: Callable[[], float] = lambda: busy_ticks() / 100  # noqa: E731


def pytest_configure(config: pytest.Config) -> None:
    global _usage
    if not hasattr(config, "workerinput"):  # the run's first process: no older run's rows
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.environ.get("CPU_OUT", "cpu-per-test.json"))
    base = os.environ.get("CPU_CGROUP")
    if not base:
        return
    own = os.path.join(base, os.environ.get("PYTEST_XDIST_WORKER", "main"))
    os.makedirs(own, exist_ok=True)
    with open(os.path.join(own, "cgroup.procs"), "w") as procs:
        procs.write(str(os.getpid()))  # this process, and all it starts from now on
    usage = os.path.join(own, "cpuacct.usage")  # nanoseconds

    def read() -> float:
        with open(usage) as f:
            return int(f.read()) / 1e9

    _usage = read


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    used, start = _usage(), time.monotonic()
    yield
    _rows[item.nodeid] = (round(_usage() - used, 3), round(time.monotonic() - start, 3))


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _rows:
        return  # (xdist's controller runs no test)
    path = os.environ.get("CPU_OUT", "cpu-per-test.json")
    with open(path, "a+", encoding="utf-8") as out:  # the workers write one after another
        fcntl.flock(out, fcntl.LOCK_EX)
        out.seek(0)
        text = out.read()
        rows = json.loads(text) if text.strip() else {}
        rows.update(_rows)
        out.seek(0)
        out.truncate()
        json.dump(rows, out, indent=0)
