"""AsyncStartState: the page as a step found it, to tell which checks the step made true.

Kept only while a ``do`` step records. Its compiled checks are evaluated once, with the
replay's own code, on a static copy of the page taken before the agent acted: a check that
held there proves nothing about the step (``held_before``).

The copy has no pixels (a canvas is blank in it). Where the model may cite pictures, a
screenshot of the viewport is kept too: a ``screenshot`` check's region is found in the copy
(where its element was, and how big), and that part of the screenshot, shown in the copy's
page under the same region, is pictured and compared as a replay would (box, masks,
tolerance). A picture that was already there proves nothing either. A region that was not
all in view, or not on the page, counts as changed (as before this was kept).
"""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from ...browser._async.pictures import shoot, stable_picture
from ...browser.script import COLLECTOR_JS
from ...errors import BrowserError, ReplayError
from ..model import Check
from ..pixels import PictureError, compare, decode_png
from .replayer import AsyncReplayer
from .visual import baseline_of

log = logging.getLogger("pytest_webtask")

FROZEN = re.compile(r"webtask-frozen-frame-([\d.]+)")
FRAME_DEPTH = 5  # frames of other origins inside each other, kept at most this deep


# The viewport's picture before the step, shown in the copy's page under the region
_SHOW_BEFORE = """([png, x, y, w, h]) => {
  const img = document.createElement('img');
  img.src = 'data:image/png;base64,' + png;
  img.style.cssText = 'position:fixed;left:0;top:0;z-index:2147483646;margin:0;border:0';
  const region = document.createElement('div');
  region.id = 'webtask-before-region';
  region.style.cssText = `position:fixed;left:${x}px;top:${y}px;width:${w}px;` +
    `height:${h}px;z-index:2147483647;margin:0;border:0;background:none`;
  document.documentElement.append(img, region);
  return img.decode();
}"""
_SCROLL = "() => [window.scrollX, window.scrollY, window.innerWidth, window.innerHeight]"


class AsyncStartState:
    def __init__(self, page: Page, html: str, url: str, picture: bytes | None = None,
                 view: list[float] | None = None) -> None:
        self.page = page
        self.html = html
        self.url = url
        self.picture = picture  # the viewport's screenshot, when pictures may be cited
        self.view = view or []  # [scrollX, scrollY, width, height] when it was taken

    @classmethod
    async def take(cls, page: Page, pictures: bool = False) -> AsyncStartState | None:
        """The page now (HTML with form state, URL, and with ``pictures`` a screenshot of
        the viewport); None when it can't be read. Frames of other origins are frozen in
        their own context and put in their iframe's place."""
        try:
            html = await _freeze(page, page.main_frame, "", 0)
        except PlaywrightError as exc:
            log.warning("could not keep the page before the step: %s", exc)
            return None
        picture, view = None, None
        if pictures:
            try:
                view = [float(v) for v in await page.evaluate(_SCROLL)]
                size = page.viewport_size
                picture = await shoot(page, {"x": 0, "y": 0,
                                             "width": size["width"] if size else view[2],
                                             "height": size["height"] if size else view[3]})
            except PlaywrightError as exc:
                log.warning("could not picture the page before the step: %s", exc)
        return cls(page, html, page.url, picture, view)

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
            pictures = [c for c in checks if c.expect == "screenshot"]
            for check in checks:
                if check.change is not None:  # counted from this very page: it never held
                    check.held_before = False
                elif check.expect != "screenshot":
                    held, _ = await replayer.holds(check, url=self.url, before=True)
                    check.held_before = held
            for check in pictures:  # last: each leaves the picture in the copy's page
                check.held_before = await self._picture_held(copy, replayer, check)
        except PlaywrightError as exc:
            log.warning("could not check the page as it was before the step: %s", exc)
            pages = _COPIES.get(browser, {})
            if copy is not None and pages.get(repr(viewport)) is copy:
                del pages[repr(viewport)]  # not used again
                try:
                    await copy.context.close()
                except PlaywrightError:
                    pass


    async def count(self, check: Check, substitute: Callable[[str], str]
                    ) -> tuple[int | None, str]:
        """What a ``count`` check counts (its container's items, or the elements like its
        element) on the page as the step found it, with the replay's own code: (the number,
        "") or (None, why not)."""
        browser = self.page.context.browser
        if browser is None:
            return None, ("the page as the step found it was not kept (a persistent browser "
                          "context has no second context to open it in)")
        try:
            copy = await _copy_page(browser, self.page.viewport_size)
            await copy.set_content(self.html, wait_until="load", timeout=5000)
            n, why = await AsyncReplayer(copy, timeout_ms=0, substitute=substitute
                                         ).count_now(check)
        except PlaywrightError as exc:
            return None, ("the page as the step found it could not be read: "
                          + str(exc).strip().splitlines()[0])
        if n is None:
            return None, f"when the step began, {why}"
        return n, ""

    async def _picture_held(self, copy: Page, replayer: AsyncReplayer, check: Check
                            ) -> bool:
        """Whether the check's region already looked as its baseline before the step: its
        element's box in the copy, that part of the viewport's picture pictured as a replay
        pictures a region. False when there is no such picture to tell."""
        shot = check.screenshot
        if self.picture is None or shot is None or check.element is None:
            return False
        try:
            element = await replayer.resolve(check.element, "before the step")
            bb = await element.bounding_box(timeout=1000)
        except (ReplayError, PlaywrightError):
            return False  # not on the page before the step: the step made it
        sx, sy, width, height = self.view
        if bb is None or bb["x"] - sx < 0 or bb["y"] - sy < 0 \
                or bb["x"] - sx + bb["width"] > width or bb["y"] - sy + bb["height"] > height:
            return False  # not all of it in view: its pixels before the step are unknown
        try:
            expected_png = baseline_of(shot, None, "before the step")
            await copy.set_content("<!doctype html><body style='margin:0'></body>")
            await copy.evaluate(_SHOW_BEFORE, [base64.b64encode(self.picture).decode(),
                                               bb["x"] - sx, bb["y"] - sy, bb["width"],
                                               bb["height"]])
            png, _ = await stable_picture(copy, copy.locator("#webtask-before-region"),
                                          shot.box, shot.masks, 1000)
            if png == expected_png:
                return True
            result = compare(decode_png(expected_png), decode_png(png), shot.threshold,
                             blob_pixels=shot.blob_pixels)
        except (ReplayError, BrowserError, PlaywrightError, PictureError) as exc:
            log.debug("could not compare the picture before the step: %s", exc)
            return False
        return result.matches(shot.max_diff_ratio)


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
