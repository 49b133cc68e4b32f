"""pytest-playwright's ``base_url`` fixture, defined as a function.

Without pytest-base-url, pytest-playwright provides ``base_url`` from an object it registers
as a plugin (``playwright-base-url``), whose session-scoped fixture is an instance method:
pytest 9 warns about that in every run that uses a page (``PytestRemovedIn10Warning``:
session-scoped fixtures defined as instance methods are deprecated). The plugin registers
this module after that object, only when it is there, so this fixture (the same option, the
same ini value) takes its place and a fresh project's run shows no warning it cannot act on.
With pytest-base-url installed nothing changes; a ``conftest.py``'s ``base_url`` still wins.
"""

from __future__ import annotations

import sys
from types import ModuleType

import pytest


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config) -> str | None:
    """The application's base URL: ``--base-url`` (or ``PYTEST_BASE_URL``), else the
    ``base_url`` ini value, else None (pytest-playwright's own rule)."""
    return pytestconfig.getoption("--base-url") or pytestconfig.getini("base_url") or None


def configure(config: pytest.Config) -> None:
    fallback = config.pluginmanager.get_plugin("playwright-base-url")
    if fallback is not None and not isinstance(fallback, ModuleType):
        config.pluginmanager.register(sys.modules[__name__], "webtask-base-url")
