"""The ``--webtask-report`` option (light: read when the plugin loads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..settings import path_option

HELP = ("write one self-contained HTML file at PATH showing every step of the run: how it "
        "ran, its checks, a screenshot, the model's prompts and replies, failures")


def add_option(parser: pytest.Parser) -> None:
    group = parser.getgroup("webtask")
    group.addoption("--webtask-report", metavar="PATH", default=None, help=HELP)
    parser.addini("webtask_report", HELP, default=None)


def report_path(config: pytest.Config) -> Path | None:
    return path_option(config, "report")


def parts_dir(path: Path) -> Path:
    """Where each test (on any xdist worker) leaves its fragment for the controller."""
    return path.with_name(path.name + ".parts")
