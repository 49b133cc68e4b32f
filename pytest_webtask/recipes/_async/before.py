"""AsyncStartState: the page as a step found it, to tell which checks the step made true.

Kept only while a ``do`` step records. Its compiled checks are evaluated once, with the
replay's own code, on a static copy of the page taken before the agent acted: a check that
held there proves nothing about the step (``held_before``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from ...browser.script import COLLECTOR_JS
from ..model import Check
from .replayer import AsyncReplayer

log = logging.getLogger("pytest_webtask")

FROZEN = re.compile(r"webtask-frozen-frame-([\d.]+)")
FRAME_DEPTH = 5  # frames of other origins inside each other, kept at most this deep


class AsyncStartState:
    def __init__(self, page: Page, html: str, url: str) -> None:
        self.page = page
        self.html = html
        self.url = url

    @classmethod
    async def take(cls, page: Page) -> AsyncStartState | None:
        """The page now (HTML with form state, URL); None when it can't be read. Frames of
        other origins are frozen in their own context and put in their iframe's place."""
        try:
            html = await _freeze(page, page.main_frame, "", 0)
        except PlaywrightError as exc:
            log.warning("could not keep the page before the step: %s", exc)
            return None
        return cls(page, html, page.url)

    async def mark(self, checks: list[Check], substitute: Callable[[str], str]) -> None:
        """Set ``held_before`` on each check that holds on the page as it was. The copy is
        opened in a browser context of its own (no scripts run in it)."""
        browser = self.page.context.browser
        if browser is None:  # a persistent context: no second context to open the copy in
            return
        viewport = self.page.viewport_size
        copy = None
        try:
            copy = await _copy_page(browser, viewport)
            await copy.set_content(self.html, wait_until="load", timeout=5000)
            replayer = AsyncReplayer(copy, timeout_ms=0, substitute=substitute)
            for check in checks:
                held, _ = await replayer.holds(check, url=self.url, before=True)
                check.held_before = held
        except PlaywrightError as exc:
            log.warning("could not check the page as it was before the step: %s", exc)
            pages = _COPIES.get(browser, {})
            if copy is not None and pages.get(repr(viewport)) is copy:
                del pages[repr(viewport)]  # not used again
                try:
                    await copy.context.close()
                except PlaywrightError:
                    pass


async def _freeze(page: Page, frame: Frame, tag: str, depth: int) -> str:
    """``frame``'s document as static HTML, with the frames of other origins it shows (that
    the collector could only mark, ``tag`` naming this call's marks) frozen in theirs."""
    html = str(await frame.evaluate(COLLECTOR_JS, {"op": "freeze", "tag": tag}))
    for mark in dict.fromkeys(FROZEN.findall(html)):
        inner = ""
        child = await _marked(page, mark) if depth < FRAME_DEPTH else None
        if child is not None:
            try:
                inner = await _freeze(page, child, mark + ".", depth + 1)
            except PlaywrightError as exc:
                log.debug("could not keep the frame %s before the step: %s", child.url, exc)
        html = _put(html, mark, inner)
    return html


async def _marked(page: Page, mark: str) -> Frame | None:
    """The frame of the iframe the collector marked ``mark``, in whichever document."""
    for frame in page.frames:
        handle = await frame.query_selector(f'[data-webtask-freeze="{mark}"]')
        if handle is not None:
            return await handle.content_frame()
    return None


def _put(html: str, mark: str, inner: str) -> str:
    """``html`` with the srcdoc marked ``mark`` holding ``inner``: escaped once for an
    attribute of ``html`` itself, once more for each same-origin frame it is inside."""
    quote, body = '"', _escape(inner)
    for _level in range(FRAME_DEPTH + 2):
        needle = f"srcdoc={quote}webtask-frozen-frame-{mark}{quote}"
        if needle in html:
            return html.replace(needle, f"srcdoc={quote}{body}{quote}")
        quote, body = _escape(quote), _escape(body)
    return html


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;")


# The page the copies are opened in, one per browser and viewport, in a context of its own
# kept for the next recorded step: a context per step cost about 150 ms of CPU (a renderer
# started each time) against 16 ms for a new document in the same page. The context goes
# with its browser.
_COPIES: WeakKeyDictionary[Any, dict[str, Page]] = WeakKeyDictionary()


async def _copy_page(browser: Any, viewport: Any) -> Page:
    pages = _COPIES.setdefault(browser, {})
    page = pages.get(repr(viewport))
    if page is None or page.is_closed():
        context = await browser.new_context(viewport=viewport)
        page = pages[repr(viewport)] = await context.new_page()
    return page
