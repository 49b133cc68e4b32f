"""The wall time and the whole machine's CPU (core-seconds, from /proc/stat) of one command,
and a fixed CPU yardstick's time before and after it: what a test or a suite costs, counting
the browser processes its own process never reaps (Linux only).

    python bench/core_seconds.py -- .venv/bin/python -m pytest tests/test_explore_writes.py
"""

from __future__ import annotations

import subprocess
import sys
import time


def busy_ticks() -> int:
    """Jiffies every core spent busy (user, nice, system, irq, softirq) since boot."""
    fields = open("/proc/stat").readline().split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[:7])
    return user + nice + system + irq + softirq


def yardstick() -> float:
    """Seconds of a fixed pure-Python loop: how fast this machine is right now."""
    start = time.perf_counter()
    sum(i * i for i in range(20_000_000))
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    command = argv[argv.index("--") + 1:] if "--" in argv else argv
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    before = yardstick()
    ticks, start = busy_ticks(), time.perf_counter()
    code = subprocess.call(command)
    wall, used = time.perf_counter() - start, (busy_ticks() - ticks) / 100
    after = yardstick()
    print(f"exit {code}; wall {wall:.1f} s; machine busy {used:.1f} core-s; yardstick "
          f"{before:.2f} s before, {after:.2f} s after; load "
          f"{open('/proc/loadavg').read().split()[0]}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
