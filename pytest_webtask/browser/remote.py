"""The tests' browser on another process or machine, from the webtask settings.

``connect`` (a Playwright browser server's ``ws://`` endpoint) fills pytest-playwright's
``connect_options``; ``connect_cdp`` (a running Chromium's CDP endpoint) makes its
``launch_browser`` connect over CDP. The plugin registers this module only when one is set,
after pytest-playwright, so these fixtures wrap that plugin's; a ``conftest.py`` that defines
its own ``connect_options`` or ``launch_browser`` still wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

CDP_TIMEOUT_MS = 30_000


def _settings(config: pytest.Config) -> Any:
    from ..plugin import SETTINGS

    return config.stash[SETTINGS]


def cdp_unsupported(browser_name: str) -> str:
    """The message for a CDP endpoint with a browser other than Chromium, or ""."""
    if browser_name == "chromium":
        return ""
    return (f"webtask connect_cdp works with Chromium only (CDP is Chromium's protocol); this "
            f"test runs on {browser_name}. Use connect (a Playwright browser server) for "
            f"{browser_name}, or run with --browser chromium.")


def cdp_failed(endpoint: str, exc: Exception) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return (f"webtask could not connect to the Chromium at {endpoint} (connect_cdp): {first}. "
            "Is it running with --remote-debugging-port, and is that its port?")


@pytest.fixture(scope="session")
def connect_options(connect_options: dict | None, pytestconfig: pytest.Config) -> dict | None:
    endpoint = _settings(pytestconfig).connect
    return endpoint_options(endpoint) if endpoint else connect_options


def endpoint_options(endpoint: str) -> dict[str, Any]:
    """``connect_options`` for an endpoint: ``BrowserType.connect`` names its first
    parameter ``ws_endpoint`` in older Playwright releases and ``endpoint`` in newer ones."""
    import inspect

    from playwright.sync_api import BrowserType

    first = next(iter(list(inspect.signature(BrowserType.connect).parameters)[1:]), "endpoint")
    return {first: endpoint}


@pytest.fixture(scope="session")
def launch_browser(launch_browser: Callable[..., Any], browser_type: Any,
                   pytestconfig: pytest.Config) -> Callable[..., Any]:
    endpoint = _settings(pytestconfig).connect_cdp
    if not endpoint:
        return launch_browser

    def connect(**_ignored: Any) -> Any:
        # Launch options (headed, args, executable) belong to whoever started that Chromium.
        problem = cdp_unsupported(browser_type.name)
        if problem:
            pytest.fail(problem, pytrace=False)
        from playwright.sync_api import Error as PlaywrightError

        try:
            return browser_type.connect_over_cdp(endpoint, timeout=CDP_TIMEOUT_MS)
        except PlaywrightError as exc:
            pytest.fail(cdp_failed(endpoint, exc), pytrace=False)

    return connect
