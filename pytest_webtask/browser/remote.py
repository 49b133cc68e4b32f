"""Reaching a browser on another process or machine: messages and options shared by the
sync fixtures (``plugin/remote_browser.py``) and the async browser (``plugin/async_browser.py``)."""

from __future__ import annotations

from typing import Any

CDP_TIMEOUT_MS = 30_000


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


def endpoint_options(endpoint: str) -> dict[str, Any]:
    """``connect_options`` for an endpoint: ``BrowserType.connect`` names its first
    parameter ``ws_endpoint`` in older Playwright releases and ``endpoint`` in newer ones."""
    import inspect

    from playwright.sync_api import BrowserType

    first = next(iter(list(inspect.signature(BrowserType.connect).parameters)[1:]), "endpoint")
    return {first: endpoint}
