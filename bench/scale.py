"""Scaling: 40 replayed tests serially, with ``-n 2``, and on a remote browser server.

    .venv/bin/python bench/scale.py [--repeat 2] [--tests 40]

The 40 tests are copies of the example suites' modules with their committed recipes (every
module but the syrupy one, copied until there are enough), in a temporary folder whose
conftest takes the example suites' fixtures. Each configuration is a whole ``pytest`` run in
a subprocess with ``CI=true`` (a missing recipe would fail, nothing records), timed from start
to exit; the configurations alternate, ``--repeat`` rounds, medians reported. The remote
browser is Playwright's own browser server on loopback (``playwright_server``), reached with
``--webtask-connect``: the difference to the local serial run, per test, is what a remote
connection costs each test here (the browser connection is per session, each test's context
and page go over the socket).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import CpuMeter, run_env  # noqa: E402
from pytest_webtask.browser.servers import playwright_server  # noqa: E402

EXAMPLES = ROOT / "example_suites"
SKIP = {"test_catalog.py"}  # its syrupy snapshot is named after the module

CONFTEST = '''
import pytest

from example_suites.conftest import _loopback_only, base_url, receipt, shop, webtask_llm  # noqa
from pytest_webtask.browser.chromium import launch_args


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)
'''
INI = """[pytest]
asyncio_default_fixture_loop_scope = function
addopts = -p no:cacheprovider
"""


def build_suite(folder: Path, wanted: int) -> list[str]:
    """Copy example modules (and their recipes) into ``folder`` until there are ``wanted``
    tests; returns exactly ``wanted`` node ids."""
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "pytest.ini").write_text(INI)
    modules = sorted(p for p in EXAMPLES.glob("test_*.py") if p.name not in SKIP)
    ids: list[str] = []
    copy = 0
    while len(ids) < wanted:
        copy += 1
        for module in modules:
            name = f"{module.stem}_{copy}"
            shutil.copy(module, folder / f"{name}.py")
            shutil.copytree(EXAMPLES / "__webtask__" / module.stem,
                            folder / "__webtask__" / name)
        ids = collect(folder)
        if copy > 10:
            raise SystemExit(f"could not reach {wanted} tests: {len(ids)} collected")
    return ids[:wanted]


def collect(folder: Path) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "pytest", "--co", "-q"], cwd=folder,
                          capture_output=True, text=True, env=run_env(), check=False)
    return [line for line in proc.stdout.splitlines() if "::" in line]


def timed_run(folder: Path, ids: list[str], args: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds of one pytest run: the whole machine's busy time (see
    ``CpuMeter``; a remote browser server's included, since it runs here too)."""
    t0 = time.perf_counter()
    with CpuMeter() as meter:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", *args, *ids],
                              cwd=folder, capture_output=True, text=True, env=run_env(),
                              check=False, timeout=1800)
    elapsed = time.perf_counter() - t0
    cpu = meter.seconds
    passed = re.search(r"(\d+) passed", proc.stdout)
    if proc.returncode != 0 or not passed or int(passed[1]) != len(ids):
        raise SystemExit(f"run {args} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    if "0 recorded, 0 failed" not in proc.stdout:
        raise SystemExit(f"run {args} recorded or failed a step:\n{proc.stdout[-3000:]}")
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--tests", type=int, default=40)
    parser.add_argument("--local-only", action="store_true",
                        help="leave out the remote browser server configurations")
    opts = parser.parse_args()
    print(f"1-minute load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="webtask-scale-") as tmp, \
            playwright_server() as endpoint:
        folder = Path(tmp)
        ids = build_suite(folder, opts.tests)
        configs = {
            "serial, local browser": [],
            "-n 2, local browser": ["-n", "2"],
            "serial, remote browser server": ["--webtask-connect", endpoint],
            "-n 2, remote browser server": ["-n", "2", "--webtask-connect", endpoint],
        }
        if opts.local_only:
            configs = {k: v for k, v in configs.items() if "remote" not in k}
        times: dict[str, list[float]] = {name: [] for name in configs}
        cpus: dict[str, list[float]] = {name: [] for name in configs}
        loads = [os.getloadavg()[0]]
        for round_ in range(opts.repeat):
            order = list(configs) if round_ % 2 == 0 else list(reversed(configs))
            for name in order:
                wall, cpu = timed_run(folder, ids, configs[name])
                times[name].append(wall)
                cpus[name].append(cpu)
                loads.append(os.getloadavg()[0])
                print(f"  round {round_ + 1}: {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
                      f"load {loads[-1]:.1f}", flush=True)
    median = {name: statistics.median(values) for name, values in times.items()}
    cpu_median = {name: statistics.median(values) for name, values in cpus.items()}
    serial = median["serial, local browser"]
    n = len(ids)
    print(f"\n{n} replayed tests, {os.cpu_count()} cores, median of {opts.repeat} run(s); "
          f"1-minute load average {min(loads):.1f} to {max(loads):.1f}\n")
    print("| run | wall s | per test ms | CPU s | cores busy | speed-up vs serial |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, value in median.items():
        cpu = cpu_median[name]
        print(f"| {name} | {value:.1f} | {value / n * 1000:.0f} | {cpu:.1f} | "
              f"{cpu / value:.2f} | {serial / value:.2f} |")
    cores = os.cpu_count() or 1
    parallel = "-n 2, local browser"
    # -n 2 can be no faster than its CPU seconds spread over the cores
    best = cpu_median[parallel] / min(cores, 2)
    print(f"\nCPU-bound ceiling of -n 2 here: serial wall / (CPU s of -n 2 / "
          f"{min(cores, 2)} cores) = {serial:.1f} / {best:.1f} = {serial / best:.2f}x "
          f"(measured {serial / median[parallel]:.2f}x)")
    if "serial, remote browser server" in median:
        remote = median["serial, remote browser server"]
        print(f"remote connection overhead per test (serial remote - serial local) / {n}: "
              f"{(remote - serial) / n * 1000:+.0f} ms")
    print(f"1-minute load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
