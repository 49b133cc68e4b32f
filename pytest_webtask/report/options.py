"""The ``--webtask-report`` option (light: read when the plugin loads)."""

from __future__ import annotations

from pathlib import Path

import pytest

HELP = ("write one self-contained HTML file at PATH showing every step of the run: how it "
        "ran, its checks, a screenshot, the model's prompts and replies, failures")


def add_option(parser: pytest.Parser) -> None:
    group = parser.getgroup("webtask")
    group.addoption("--webtask-report", metavar="PATH", default=None, help=HELP)
    parser.addini("webtask_report", HELP, default=None)


def report_path(config: pytest.Config) -> Path | None:
    raw = config.getoption("webtask_report", None) or config.getini("webtask_report")
    if not raw:
        return None
    path = Path(raw)
    return path if path.is_absolute() else Path(config.invocation_params.dir) / path


def parts_dir(path: Path) -> Path:
    """Where each test (on any xdist worker) leaves its fragment for the controller."""
    return path.with_name(path.name + ".parts")
