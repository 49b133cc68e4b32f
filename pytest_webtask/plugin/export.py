"""The export's side of a test run: a trail per test, the file written when the test has
passed, and a line in the terminal summary (works on the xdist controller: each worker
writes its own tests' files and reports them through ``user_properties``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .options import export_dir

PROPERTY = "webtask_export"


def trail_for(config: pytest.Config) -> Any:
    from ..export.trail import NoTrail, Trail

    return Trail() if export_dir(config) is not None else NoTrail()


def finish(request: pytest.FixtureRequest, trail: Any, passed: bool, base_url: str | None,
           test_name: str) -> None:
    """Write the test's file, or say why not, in the test's user properties."""
    from ..export.trail import Ran, Trail
    from ..export.writer import NotExportable, export

    folder = export_dir(request.config)
    if folder is None or not isinstance(trail, Trail):
        return
    node = request.node
    if not any(isinstance(e, Ran) for e in trail.events):
        return  # no step ran: nothing the export would add to the test
    if not passed:
        outcome = {"test": node.nodeid, "skipped": "the test did not pass"}
    else:
        try:
            path = export(trail, base_url=base_url, folder=folder, test_name=test_name,
                          module=node.path.stem, origin=node.nodeid)
            outcome = {"test": node.nodeid, "path": str(path)}
        except NotExportable as exc:
            outcome = {"test": node.nodeid, "skipped": str(exc)}
    node.user_properties.append((PROPERTY, json.dumps(outcome)))


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
            if key != PROPERTY or not isinstance(value, str):
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
                      "plain pytest-playwright; secrets come from WEBTASK_SECRET_<NAME>)")
        for test, why in self.skipped:
            tr.write_line(f"  not exported: {test}: {why}")
