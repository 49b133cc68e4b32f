"""The export's side of a run: a line in the terminal summary (works on the xdist
controller: each worker writes its own tests' files, by ``step_listeners.ExportListener``, and
reports them through ``user_properties``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .keys import EXPORT_PROPERTY
from .webtask_options import export_dir


class ExportSummary:
    """Counts the exported files on the controller and names the tests left out."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.written: list[str] = []
        self.skipped: list[tuple[str, str]] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        for key, value in report.user_properties:
            if key != EXPORT_PROPERTY or not isinstance(value, str):
                continue
            try:
                data = json.loads(value)
            except ValueError:
                continue
            if "path" in data:
                self.written.append(data["path"])
            else:
                self.skipped.append((data.get("test", "?"), data.get("skipped", "")))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        folder = export_dir(self.config)
        if folder is None:
            return
        tr = terminalreporter
        tr.section("webtask export")
        tr.write_line(f"{len(self.written)} test file(s) written to {folder} (run them with "
                      "plain pytest-playwright; secrets come from "
                      "WEBTASK_SECRET_<TEST>_<NAME> or WEBTASK_SECRET_<NAME>)")
        for test, why in self.skipped:
            tr.write_line(f"  not exported: {test}: {why}")
