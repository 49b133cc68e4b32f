"""``--webtask-shard i/n``: run the i-th of n slices of the selected tests, one per CI job.

Every job collects the same tests in the same order, so slicing that order gives n disjoint
slices that together hold every test. The slices are contiguous (a module's tests stay
together, so its fixtures start in one job) and differ in size by at most one test. Tests
outside the slice are deselected the way ``-k`` deselects them, so a shard is never a whole
run: it reports no unused recipes and ``--webtask-prune`` deletes nothing there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

SPEC = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based, as CI matrices count
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        match = SPEC.fullmatch(text)
        if match:
            index, count = int(match[1]), int(match[2])
            if 1 <= index <= count:
                return cls(index, count)
        raise pytest.UsageError(
            f"--webtask-shard should be i/n, this job's slice i of n with 1 <= i <= n "
            f"(e.g. --webtask-shard 2/4); got {text!r}.")

    def bounds(self, total: int) -> tuple[int, int]:
        """The slice of ``total`` tests this shard runs, as ``start, stop`` indices."""
        return (total * (self.index - 1) // self.count, total * self.index // self.count)

    @pytest.hookimpl(trylast=True)  # after -k/-m: slice what they selected
    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        start, stop = self.bounds(len(items))
        others = items[:start] + items[stop:]
        if others:
            config.hook.pytest_deselected(items=others)
            items[:] = items[start:stop]

    def pytest_report_header(self) -> str:
        return f"webtask: shard {self.index} of {self.count}"


def configure(config: pytest.Config) -> None:
    text = config.getoption("webtask_shard")
    if text:
        config.pluginmanager.register(Shard.parse(text), "webtask-shard")
