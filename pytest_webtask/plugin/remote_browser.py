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

from ..browser.remote import CDP_TIMEOUT_MS, cdp_failed, cdp_unsupported, endpoint_options


def _settings(config: pytest.Config) -> Any:
    from .keys import SETTINGS

    return config.stash[SETTINGS]


@pytest.fixture(scope="session")
def connect_options(connect_options: dict[str, Any] | None, pytestconfig: pytest.Config
                    ) -> dict[str, Any] | None:
    endpoint = _settings(pytestconfig).connect
    return endpoint_options(endpoint) if endpoint else connect_options


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
