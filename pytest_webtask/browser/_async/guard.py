"""AsyncOriginGuard: requests to origins outside the allowed ones are stopped before they
leave the browser (a context-level route), and remembered so the model can be told.

It covers every page of the context (popups included), navigations of any frame, form posts,
redirects of GET navigations (where one leads is asked with HEAD before the browser goes:
the browser follows a redirect without routing it again; a form post that redirects is
caught after the fact) and script traffic
(fetch, XHR, event streams); other subresources (images, styles, scripts, fonts) only with
``subresources=True``. A navigation that is stopped leaves the page where it was (an empty
204 answer), so a late ``location = ...`` cannot take the agent anywhere.
"""

from __future__ import annotations

import logging
from urllib.parse import urljoin

from playwright.async_api import BrowserContext, Request, Route
from playwright.async_api import Error as PlaywrightError

from ..origins import allowed

log = logging.getLogger("pytest_webtask.guard")

HEAD_TIMEOUT_MS = 10_000

# Request types stopped even without subresources=True: they carry what a page sends.
SENDING_TYPES = frozenset({"document", "xhr", "fetch", "eventsource", "websocket", "other",
                           "ping"})


class AsyncOriginGuard:
    """Installs a route on ``context`` that stops requests outside ``origins``."""

    def __init__(self, context: BrowserContext, origins: list[str] | None, *,
                 subresources: bool = False) -> None:
        self.context = context
        self.origins = origins
        self.subresources = subresources
        self.blocked: list[str] = []
        self._taken = 0
        self._installed = False

    async def start(self) -> None:
        if not self._installed:
            await self.context.route("**/*", self._handle)
            self._installed = True

    async def stop(self) -> None:
        if self._installed:
            self._installed = False
            try:
                await self.context.unroute("**/*", self._handle)
            except PlaywrightError:
                pass  # the context is closed: nothing is routed any more

    def take(self) -> list[str]:
        """What was blocked since the last call."""
        new = self.blocked[self._taken:]
        self._taken = len(self.blocked)
        return new

    def note(self) -> str | None:
        """A sentence for the model about what was blocked since the last call."""
        new = self.take()
        if not new:
            return None
        shown = "; ".join(new[:5]) + (f"; and {len(new) - 5} more" if len(new) > 5 else "")
        return (f"Blocked {len(new)} request(s) to origins outside the allowed ones "
                f"({', '.join(self.origins or ['http(s) only'])}): {shown}. Nothing was sent "
                "there; the page stayed where it was. Stay on the allowed origins.")

    async def _handle(self, route: Route, request: Request) -> None:
        try:
            await self._route(route, request)
        except PlaywrightError as exc:  # the page or context went away meanwhile
            log.debug("origin guard: %s", exc)

    async def _route(self, route: Route, request: Request) -> None:
        url = request.url
        navigation = request.is_navigation_request()
        if not allowed(url, self.origins):
            if navigation or self.subresources or request.resource_type in SENDING_TYPES:
                self._block(request, url)
                if navigation:
                    await route.fulfill(status=204)
                else:
                    await route.abort("blockedbyclient")
                return
        if navigation and request.method == "GET" and url.startswith("http"):
            # The browser follows a redirect without routing it again, so where a GET
            # navigation leads is asked first (HEAD, redirects not followed, a few hops).
            target = await self._redirect_target(route, url)
            if target is not None:
                self._block(request, target, via=url)
                await route.fulfill(status=204)
                return
        await route.fallback()

    async def _redirect_target(self, route: Route, url: str) -> str | None:
        """The first URL outside the allowed origins that ``url`` redirects to, if any."""
        current = url
        for _hop in range(5):
            try:
                if current == url:
                    response = await route.fetch(method="HEAD", max_redirects=0,
                                                 timeout=HEAD_TIMEOUT_MS)
                else:
                    response = await self.context.request.head(current, max_redirects=0,
                                                                timeout=HEAD_TIMEOUT_MS)
            except PlaywrightError:
                return None  # no answer to HEAD: the browser's own request will tell
            location = response.headers.get("location")
            await response.dispose()
            if not (300 <= response.status < 400 and location):
                return None
            current = urljoin(current, location)
            if not allowed(current, self.origins):
                return current
        return None

    def _block(self, request: Request, url: str, via: str | None = None) -> None:
        kind = "navigation" if request.is_navigation_request() else request.resource_type
        if request.method == "POST" and request.is_navigation_request():
            kind = "form post"
        if via:
            kind = f"redirect from {via}"
        self.blocked.append(f"{request.method} {url} ({kind})")
        log.info("origin guard blocked %s %s", request.method, url)
