"""The report's side of a run: the fragments each test's ``step_listeners.ReportListener``
writes when it ends, on whichever process ran it, merged into one HTML file by the
controller."""

from __future__ import annotations

import json
import shutil
import time
from typing import Any

import pytest

from .webtask_options import parts_dir, report_path


class HtmlReportWriter:
    """On the controller: a fresh fragments folder at the start, the HTML file at the end."""

    def __init__(self, config: pytest.Config) -> None:
        path = report_path(config)
        assert path is not None
        self.path = path
        self.parts = parts_dir(path)
        self.seconds = 0.0
        self.written: tuple[int, float] | None = None
        shutil.rmtree(self.parts, ignore_errors=True)

    def pytest_sessionstart(self) -> None:
        self.started = time.monotonic()

    def pytest_sessionfinish(self) -> None:
        from ..report.html import render

        began = time.monotonic()
        tests = []
        for part in sorted(self.parts.glob("*.json")) if self.parts.is_dir() else []:
            try:
                tests.append(json.loads(part.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
        tests.sort(key=lambda t: t["test"])
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(render(tests), encoding="utf-8")
        shutil.rmtree(self.parts, ignore_errors=True)
        self.written = (self.path.stat().st_size, time.monotonic() - began)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.written is not None:
            size, seconds = self.written
            terminalreporter.write_line(
                f"webtask report: {self.path} ({size / 1024:.0f} KiB, written in "
                f"{seconds:.2f}s)")
