"""The write guard: while exploring, no request that can change data on the server leaves
the browser unless the user allowed it (DESIGN.md decision 19).

A request is a write when its method is not GET, HEAD or OPTIONS (a form post, a fetch or
XHR with PUT, PATCH, DELETE or POST, a beacon), when it carries a body, or when it asks the
server to treat it as another method (``X-HTTP-Method-Override`` and its cousins, a
``_method`` query parameter). It is stopped at the context's route, whatever the page or
the model said: a navigation is answered with an empty 204 (the page stays where it was),
anything else is aborted. It passes only when

- writes are allowed (``--allow-writes``),
- its path matches a path pattern of ``--allow-form`` (``/newsletter``, ``/loans/*``),
- the explorer is running an action the user named by its button's text
  (``--allow-form Archive``: ``permit``), or
- it carries the value of a secret the user named (``--secret``): the sign-in they asked
  for.

Every stopped request is kept (``blocked``), for the site map.
"""

from __future__ import annotations

import fnmatch
import json
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, quote_plus, urlsplit

from playwright.sync_api import BrowserContext, Request, Route
from playwright.sync_api import Error as PlaywrightError

from ..browser.origins import origin_of

log = logging.getLogger("pytest_webtask.explore")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OVERRIDE_HEADERS = ("x-http-method-override", "x-http-method", "x-method-override")
OVERRIDE_PARAMS = ("_method", "__method")


def write_method(request: Request) -> str | None:
    """What makes ``request`` a write (``"POST"``, ``"GET overridden to DELETE"``, ``"GET
    with a body"``), or None for a request that only reads."""
    method = request.method.upper()
    if method not in SAFE_METHODS:
        return method
    headers = request.headers
    for name in OVERRIDE_HEADERS:
        if headers.get(name):
            return f"{method} overridden to {headers[name].upper()}"
    query = parse_qs(urlsplit(request.url).query)
    for name in OVERRIDE_PARAMS:
        if query.get(name):
            return f"{method} overridden to {query[name][0].upper()}"
    if request.post_data_buffer:
        return f"{method} with a body"
    return None


def request_kind(request: Request) -> str:
    if request.is_navigation_request():
        return "form post" if request.method.upper() == "POST" else "navigation"
    return request.resource_type


def pattern_names_path(pattern: str) -> bool:
    """A pattern with a ``/`` names an action path; any other names a button's text."""
    return "/" in pattern


def matches(patterns: Iterable[str], *, texts: Iterable[str] = (),
            paths: Iterable[str] = ()) -> str | None:
    """The first pattern that names one of ``texts`` (a button's text, whole, case and
    spaces ignored, ``*`` a wildcard) or ``paths`` (an action's path, ``*`` a wildcard)."""
    texts = [" ".join(t.split()).casefold() for t in texts if t and t.strip()]
    paths = [p for p in paths if p]
    for pattern in patterns:
        if pattern_names_path(pattern):
            if any(fnmatch.fnmatchcase(p, pattern) for p in paths):
                return pattern
        else:
            wanted = " ".join(pattern.split()).casefold()
            if any(fnmatch.fnmatchcase(t, wanted) for t in texts):
                return pattern
    return None


@dataclass(frozen=True)
class BlockedWrite:
    """A write the guard stopped: its method (and why it is a write), URL and kind."""

    method: str
    url: str
    kind: str  # "form post", "fetch", "xhr", "ping", ...

    def describe(self, origin: str = "") -> str:
        """``POST /loans/archive (form post)``: the path alone on the explored origin."""
        parts = urlsplit(self.url)
        shown = self.url
        if origin and origin_of(self.url) == origin:
            shown = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return f"{self.method} {shown} ({self.kind})"

    @property
    def from_action(self) -> bool:
        """Sent by what a person does (a form, a script answering a click), not a beacon."""
        return self.kind in ("form post", "navigation", "fetch", "xhr", "document")


class WriteGuard:
    """Installs a route on ``context`` that stops writes (see the module)."""

    def __init__(self, context: BrowserContext, *, allow_all: bool = False,
                 patterns: Iterable[str] = (), secrets: Iterable[str] = ()) -> None:
        self.context = context
        self.allow_all = allow_all
        self.paths = [p for p in patterns if pattern_names_path(p)]
        self._secrets = [s for s in secrets if s]
        self.blocked: list[BlockedWrite] = []
        self.permitted = False
        self._taken = 0
        self._installed = False

    def start(self) -> None:
        if not self._installed:
            self.context.route("**/*", self._handle)
            self._installed = True

    def stop(self) -> None:
        if self._installed:
            self._installed = False
            try:
                self.context.unroute("**/*", self._handle)
            except PlaywrightError:
                pass  # the context is closed: nothing is routed any more

    @contextmanager
    def permit(self, allowed: bool = True) -> Iterator[None]:
        """Writes pass while the block runs (an action the user named), when ``allowed``."""
        before = self.permitted
        self.permitted = before or allowed
        try:
            yield
        finally:
            self.permitted = before

    def take(self) -> list[BlockedWrite]:
        """What was stopped since the last call."""
        new = self.blocked[self._taken:]
        self._taken = len(self.blocked)
        return new

    def _handle(self, route: Route, request: Request) -> None:
        try:
            self._route(route, request)
        except PlaywrightError as exc:  # the page or context went away meanwhile
            log.debug("write guard: %s", exc)

    def _route(self, route: Route, request: Request) -> None:
        method = write_method(request)
        if method is None or self.allow_all or self.permitted or self._signs_in(request) \
                or matches(self.paths, paths=[urlsplit(request.url).path]):
            route.fallback()
            return
        self.blocked.append(BlockedWrite(method, request.url, request_kind(request)))
        log.info("write guard stopped %s %s", method, request.url)
        if request.is_navigation_request():
            route.fulfill(status=204)
        else:
            route.abort("blockedbyclient")

    def _signs_in(self, request: Request) -> bool:
        """Does the request carry a named secret's value (the sign-in the user asked for),
        as a form, a multipart part or JSON would encode it?"""
        body = request.post_data_buffer
        if not body or not self._secrets:
            return False
        for value in self._secrets:
            forms = {value, quote_plus(value), quote(value, safe=""), json.dumps(value)[1:-1]}
            if any(f.encode() in body for f in forms):
                return True
        return False
