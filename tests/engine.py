"""The fingerprint selector engine in tests that make their own pages: with it (registered
as the ``webtask`` fixture registers it, once per Playwright) or without it (as on a page
made without the plugin), whatever else the session ran first."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Playwright

from pytest_webtask.browser import engine
from pytest_webtask.recipes._sync.replayer import _NO_ENGINE


def with_engine(playwright: Playwright) -> None:
    """Contexts made from now on have the engine."""
    try:
        engine.register(playwright.selectors)
    except PlaywrightError as exc:
        if not engine.already_registered(exc):
            raise


def without_engine(context: Any) -> None:
    """The replay on this context goes without the engine: targets found and checks tried
    with the collector in the page's own world."""
    _NO_ENGINE.add(context)
