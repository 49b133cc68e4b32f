"""AsyncLLMBrowser: the page as the model sees it, and element ids back to the page."""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FrameLocator, Locator, Page

from ...defaults import PAGE_CHARS
from ...errors import BrowserError, UnknownElementError
from ...llm.context import Block
from ...types import Fingerprint, Secrets
from ..page_state import PageState
from ..script import COLLECTOR_JS
from .watch import AsyncPageWatch

ID_ATTR = "data-webtask-id"
FRAME_ATTR = "data-webtask-frame"


class AsyncLLMBrowser:
    """Reads a Playwright page into the page-state text and resolves element ids.

    Every reading is one ``page.evaluate`` of the collector script. Ids are valid until the
    next reading; elements carry a ``data-webtask-id`` attribute until then.
    """

    def __init__(self, page: Page, *, page_chars: int = PAGE_CHARS, screenshot: bool = False,
                 secrets: Secrets | None = None) -> None:
        self.page = page  # the current tab; an action that opens or switches tabs changes it
        self.page_chars = page_chars
        self.screenshot = screenshot
        self.snapshot: PageState | None = None
        # masked in the page before any value or text is cut to size
        self.secrets = secrets if secrets is not None else Secrets()
        self.watch = AsyncPageWatch(page.context)
        self.allowed_origins: list[str] | None = None  # for tabs a page opens (None: any)

    async def read(self) -> PageState:
        """Read the page state (waits out a navigation that is under way)."""
        for attempt in range(3):
            try:
                data = await self.page.evaluate(
                    COLLECTOR_JS, {"op": "collect", "maxChars": self.page_chars,
                                   "secrets": self.secrets.pairs()})
                break
            except PlaywrightError as exc:
                if attempt == 2 or not _is_navigation_race(exc):
                    raise BrowserError(f"Could not read the page {self.page.url}: "
                                       f"{_first_line(exc)}") from None
                await self._wait_load()
        self.snapshot = PageState.from_js(data)
        return self.snapshot

    async def get_page_context(self) -> Block:
        """The ``Current Page State`` block, with a boxed screenshot when enabled."""
        snap = await self.read()
        image = await self.screenshot_with_boxes() if self.screenshot else None
        header = f"Current Page State:\nURL: {snap.url}\nTitle: {snap.title}\n"
        header += await self._tabs_line()
        for dialog in self.watch.take_unshown():
            header += (f"A dialog asked: {dialog.message!r} ({dialog.type}); it was "
                       f"{'accepted' if dialog.accept else 'dismissed'}.\n")
        return Block(header + "\n" + snap.text, image=image)

    async def _tabs_line(self) -> str:
        pages = self.page.context.pages
        if len(pages) < 2:
            return ""
        shown = []
        for n, tab in enumerate(pages):
            try:
                title = await tab.title()
            except PlaywrightError:
                title = ""
            mark = " (current)" if tab is self.page else ""
            shown.append(f"[{n}]{mark} {title!r} {tab.url}")
        return "Tabs (switch_tab to change): " + "; ".join(shown) + "\n"

    async def find(self, text: str, role: str, limit: int = 20) -> tuple[list[str], int]:
        """Page-state lines of the elements matching ``text`` and/or ``role`` anywhere on the
        page (read afresh; ids stay those of the new reading), and how many matched. An
        element found by its own text that the reading gave no id (a label, a cell) gets one
        (``text-N``), which later readings keep while it is visible."""
        snapshot = await self.read()
        try:
            data = await self.page.evaluate(
                COLLECTOR_JS, {"op": "find", "text": text, "role": role, "limit": limit,
                               "secrets": self.secrets.pairs()})
        except PlaywrightError as exc:
            raise BrowserError(f"Could not search the page: {_first_line(exc)}") from None
        for element_id, info in data["ids"].items():
            snapshot.elements[element_id] = list(info["frames"])
        return list(data["lines"]), int(data["total"])

    async def mark_text(self, text: str) -> str:
        """An element id for the one visible element whose whole text is ``text``."""
        if self.snapshot is None:
            await self.read()
        assert self.snapshot is not None
        data = await self.page.evaluate(COLLECTOR_JS, {"op": "mark", "text": text})
        if data.get("id") is None:
            raise UnknownElementError(
                f"No single visible element shows exactly {text!r} ({data['count']} do). "
                "Use an element id, or the exact text of one element.")
        self.snapshot.elements[data["id"]] = []
        return str(data["id"])

    def locator(self, element_id: str) -> Locator:
        """The locator of an element id from the last reading."""
        if self.snapshot is None or element_id not in self.snapshot.elements:
            known = ", ".join(list(self.snapshot.elements)[:12]) if self.snapshot else ""
            raise UnknownElementError(
                f"Unknown element id {element_id!r}: the current page state has no such id"
                + (f" (ids look like: {known}...)" if known else "")
                + ". Use an id from the latest Current Page State."
            )
        scope: Page | FrameLocator = self.page
        for frame_id in self.snapshot.elements[element_id]:
            scope = scope.frame_locator(f'[{FRAME_ATTR}="{frame_id}"]')
        return scope.locator(f'[{ID_ATTR}="{element_id}"]')

    async def describe(self, element_id: str) -> Fingerprint:
        """The fingerprint of an element id, read from the live page."""
        self.locator(element_id)  # validates the id
        try:
            data = await self.page.evaluate(COLLECTOR_JS, {"op": "describe", "id": element_id,
                                                           "secrets": self.secrets.pairs()})
        except PlaywrightError as exc:
            raise BrowserError(f"Could not read element {element_id}: {_first_line(exc)}") from None
        if data is None:
            raise UnknownElementError(
                f"Element {element_id!r} is no longer on the page (it was removed or the page "
                "re-rendered). Use an id from the latest Current Page State."
            )
        return Fingerprint.model_validate(data)

    async def stale_ids(self, ids: list[str]) -> tuple[bool, list[str]]:
        """(navigated, detached ids): has the page navigated since the last reading, and which
        of ``ids`` are no longer attached."""
        if self.snapshot is None:
            return False, []
        try:
            data = await self.page.evaluate(COLLECTOR_JS, {"op": "state", "ids": ids})
        except PlaywrightError:
            return True, list(ids)
        if data["snap"] != self.snapshot.snap:
            return True, list(ids)
        return False, list(data["detached"])

    async def settle(self, *, timeout_ms: float = 3000, quiet_ms: float = 100) -> None:
        """Wait for the load event and then for a quiet DOM, each bounded; never a fixed sleep."""
        await self._wait_load(timeout_ms)
        for _ in range(2):
            try:
                await self.page.evaluate(
                    COLLECTOR_JS, {"op": "settle", "quiet": quiet_ms, "max": timeout_ms}
                )
                return
            except PlaywrightError as exc:
                if not _is_navigation_race(exc):
                    return
                await self._wait_load(timeout_ms)

    async def screenshot_with_boxes(self) -> bytes:
        """A viewport screenshot with each element id drawn in a box."""
        await self.page.evaluate(COLLECTOR_JS, {"op": "boxes", "show": True})
        try:
            return await self.page.screenshot()
        finally:
            await self.page.evaluate(COLLECTOR_JS, {"op": "boxes", "show": False})

    async def _wait_load(self, timeout_ms: float = 3000) -> None:
        try:
            await self.page.wait_for_load_state("load", timeout=timeout_ms)
        except PlaywrightError:
            pass  # a slow page is read as it is; the model sees what loaded


def _is_navigation_race(exc: Exception) -> bool:
    msg = str(exc)
    return "Execution context was destroyed" in msg or "navigation" in msg.lower()


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
