"""The ``--webtask-export`` option (light: read when the plugin loads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..settings import path_option

HELP = ("write each passing test that replays or records steps as a plain pytest-playwright "
        "test file in DIR (Playwright locators, expect assertions, variables as parameters, "
        "secrets from the environment variables WEBTASK_SECRET_<TEST>_<NAME> or "
        "WEBTASK_SECRET_<NAME>)")


def add_option(parser: pytest.Parser) -> None:
    group = parser.getgroup("webtask")
    group.addoption("--webtask-export", metavar="DIR", default=None, help=HELP)
    parser.addini("webtask_export", HELP, default=None)


def export_dir(config: pytest.Config) -> Path | None:
    return path_option(config, "export")
