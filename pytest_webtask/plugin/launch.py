"""A Chromium for a user's suite when Playwright's own build is missing: the choice is
``browser/chromium.py``'s (``WEBTASK_CHROMIUM``, else a system Chromium), said once in the
pytest header, and applied where pytest-playwright launches.

This module is registered after pytest-playwright, so its ``launch_browser`` wraps that
plugin's. What a user chose still wins: an ``executable_path`` or a ``channel``
(``--browser-channel``) in their ``browser_type_launch_args``, their own ``launch_browser``
fixture, ``connect_options``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from ..browser.chromium import ChromiumChoice, choose_chromium, chooses_browser
from .keys import CHROMIUM, SETTINGS


def configure(config: pytest.Config) -> None:
    """Choose once per run, where a pytest-playwright run may launch Chromium itself."""
    if not config.pluginmanager.has_plugin("playwright"):
        return
    settings = config.stash[SETTINGS]
    if settings.connect or settings.connect_cdp:  # the browser runs elsewhere
        return
    browsers = config.getoption("browser", None) or ["chromium"]
    if "chromium" not in browsers or config.getoption("browser_channel", None):
        return
    config.stash[CHROMIUM] = choose_chromium()
    config.pluginmanager.register(sys.modules[__name__], "webtask-chromium")


def launch_options(config: pytest.Config, browser_name: str,
                   options: dict[str, Any]) -> tuple[dict[str, Any], ChromiumChoice | None]:
    """``options`` as a launch of ``browser_name`` should get them, and the choice that
    explains a failed launch (None: not ours to explain)."""
    choice = config.stash.get(CHROMIUM, None)
    if choice is None or browser_name != "chromium" or chooses_browser(options):
        return options, None
    if choice.certain:
        pytest.fail(choice.problem, pytrace=False)
    return choice.applied(options), choice


@pytest.fixture(scope="session")
def launch_browser(launch_browser: Callable[..., Any], browser_type: Any,
                   browser_type_launch_args: dict[str, Any],
                   connect_options: dict[str, Any] | None,
                   pytestconfig: pytest.Config) -> Callable[..., Any]:
    if connect_options:
        return launch_browser

    def launch(**kwargs: Any) -> Any:
        from playwright.sync_api import Error as PlaywrightError

        merged = {**browser_type_launch_args, **kwargs}
        options, choice = launch_options(pytestconfig, browser_type.name, merged)
        try:  # pytest-playwright merges its launch args in again: ours add, never replace
            return launch_browser(**{**kwargs, **{k: v for k, v in options.items()
                                                  if k not in merged}})
        except PlaywrightError as exc:
            explained = choice.explain(exc) if choice is not None else None
            if explained is None:
                raise
        pytest.fail(explained, pytrace=False)  # outside the except: no chained traceback

    return launch
