"""AsyncLLMBrowser: the page as the model sees it, and element ids back to the page."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, FrameLocator, Locator, Page

from ...defaults import PAGE_CHARS
from ...errors import BrowserError, UnknownElementError
from ...llm.request import Block
from ...types import DownloadedFile, Fingerprint, Secrets
from ..origins import allowed, origin_of
from ..page_state import FRAME_SLOT, FrameDocument, PageState, Reading, state_lines
from .finder import call_collector
from .watch import AsyncPageWatch

ID_ATTR = "data-webtask-id"
FRAME_ATTR = "data-webtask-frame"
NOTHING = "(the page shows nothing)"
FRAME_DEPTH = 5  # frames of other origins inside each other, read at most this deep
FRAME_CHARS = 2000  # the least budget a frame of another origin is read with


def frame_not_allowed(origin: str) -> str:
    """The page state's line for a frame whose origin is not allowed."""
    return (f"[a frame from {origin} is not allowed: --allow-origin to use it "
            "(webtask_allowed_origins); its content is not shown]")


class AsyncLLMBrowser:
    """Reads a Playwright page into the page-state text and resolves element ids.

    Every reading is one ``evaluate`` of the collector, installed once per document (only
    the arguments cross after the first). Ids are valid until the next reading; elements
    carry a ``data-webtask-id`` attribute until then.
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
        # for tabs a page opens and frames of other origins it shows (None: any)
        self.allowed_origins: list[str] | None = None
        self.frames_not_allowed: list[str] = []  # origins of frames left unread, every reading
        self.downloaded: list[DownloadedFile] = []  # the files the task's actions downloaded
        self.text_ids = 0  # the next text-N id find gives where several documents give them
        # what a "count" claim counts on the page as the step began, for a claim with a
        # change (``(claim) -> (number or None, why not)``, a coroutine function in the
        # async twin): set by the step pipeline, which keeps that page; None: not kept
        self.count_at_start: Callable[[Any], Any] | None = None

    async def read(self) -> PageState:
        """Read the page state (waits out a navigation that is under way). Frames of other
        origins are read each in its own context, where their origin is allowed, and their
        lines go under their iframe's; one not allowed is named instead."""
        for attempt in range(3):
            try:
                data = json.loads(await call_collector(self.page.main_frame, {
                    "op": "collect", "maxChars": self.page_chars,
                    "secrets": self.secrets.pairs(), "json": True}))
                break
            except PlaywrightError as exc:
                if attempt == 2 or not _is_navigation_race(exc):
                    raise BrowserError(f"Could not read the page {self.page.url}: "
                                       f"{_first_line(exc)}") from None
                await self._wait_load()
        snapshot = PageState.from_js(data)
        reading = Reading(data.get("counters", {}), data.get("frames", 0),
                           self.page_chars - len(data["text"]))
        snapshot.text = await self._fill_frames(snapshot, data, (), [], reading, 0)
        self.snapshot = snapshot
        return snapshot

    async def _fill_frames(self, snapshot: PageState, data: dict[str, Any],
                           chain: tuple[str, ...], css: list[str], reading: Reading,
                           depth: int) -> str:
        """The text of one document's reading with the lines of its frames of other origins
        where the collector left their places."""
        away: dict[str, list[str]] = {}
        for info in data.get("away", []):
            away[info["id"]] = await self._read_frame(
                snapshot, (*chain, *info["frames"], info["id"]), [*css, *info["css"]],
                reading, depth)
        if not away:
            return str(data["text"])
        lines: list[str] = []
        for line in str(data["text"]).splitlines():
            slot = FRAME_SLOT.match(line)
            if slot is None:
                lines.append(line)
            else:
                lines.extend(slot.group(1) + inner for inner in away.get(slot.group(2), []))
        return "\n".join(lines) if lines else NOTHING

    async def _read_frame(self, snapshot: PageState, chain: tuple[str, ...], css: list[str],
                          reading: Reading, depth: int) -> list[str]:
        """The lines of the frame of another origin at ``chain``, read with the collector in
        its own context (ids going on from the page's), or the line saying why not."""
        try:
            frame = await self.frame_of(chain)
        except PlaywrightError:  # its document is going away: the next reading sees it
            return []
        if frame is None or not frame.url or depth >= FRAME_DEPTH:
            return []
        origin = origin_of(frame.url)
        if not allowed(frame.url, self.allowed_origins):
            for seen in (snapshot.frames_not_allowed, self.frames_not_allowed):
                if origin not in seen:
                    seen.append(origin)
            return [f"- {frame_not_allowed(origin)}"]
        try:
            data = json.loads(await call_collector(frame, {
                "op": "collect", "maxChars": max(reading.chars, FRAME_CHARS),
                "secrets": self.secrets.pairs(), "counters": reading.counters,
                "frameStart": reading.frames, "json": True}))
        except PlaywrightError as exc:
            return [f"- [a frame from {origin} could not be read: {_first_line(exc)}]"]
        reading.counters = data.get("counters", {})
        reading.frames += data.get("frames", 0)
        reading.chars -= len(data["text"])
        snapshot.documents[chain] = FrameDocument(css=css, origin=origin, snap=data["snap"])
        for element_id, info in data["elements"].items():
            snapshot.elements[element_id] = [*chain, *info["frames"]]
        text = await self._fill_frames(snapshot, data, chain, css, reading, depth + 1)
        return [] if text == NOTHING else text.splitlines()

    async def frame_of(self, chain: list[str] | tuple[str, ...]) -> Frame | None:
        """The frame at an iframe chain of the last reading (frame ids, outermost first),
        followed from the main frame; None when an iframe on the way is gone."""
        frame = self.page.main_frame
        for frame_id in chain:
            handle = await frame.query_selector(f'[{FRAME_ATTR}="{frame_id}"]')
            child = await handle.content_frame() if handle else None
            if child is None:
                return None
            frame = child
        return frame

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

    async def find(self, text: str, role: str, limit: int = 20, *,
                   elements_first: bool = False) -> tuple[list[str], int]:
        """Page-state lines of the elements matching ``text`` and/or ``role`` anywhere on the
        page (read afresh; ids stay those of the new reading), and how many matched. An
        element found by its own text that the reading gave no id (a label, a cell) gets one
        (``text-N``), which later readings keep while it is visible. Frames of other origins
        the reading entered (allowed ones) are searched too, each in its own context, and
        their matches ranked with the page's. ``elements_first``: bare texts given an id
        come after the elements (an element was asked for)."""
        snapshot = await self.read()
        found: list[tuple[int, int, str]] = []  # (score, where, line): best, then page order
        total = 0
        for chain in [(), *snapshot.documents]:
            args: dict[str, Any] = {"op": "find", "text": text, "role": role, "limit": limit,
                                    "secrets": self.secrets.pairs()}
            if snapshot.documents:  # several documents give text-N ids: one count for all
                args["textStart"] = max(self.text_ids, _next_text_id(snapshot.elements))
            try:
                frame = await self.frame_of(chain)
                data = None if frame is None else await call_collector(frame, args)
            except PlaywrightError as exc:
                if chain:
                    continue  # a frame going away: the next reading shows what replaced it
                raise BrowserError(f"Could not search the page: {_first_line(exc)}") from None
            if data is None:
                continue
            for element_id, info in data["ids"].items():
                snapshot.elements[element_id] = [*chain, *info["frames"]]
            self.text_ids = max(self.text_ids, _next_text_id(data["ids"]))
            total += int(data["total"])
            start = len(found)
            found += [(int(score), start + n, str(line)) for n, (score, line)
                      in enumerate(zip(data["scores"], data["lines"], strict=True))]
        found.sort(key=lambda hit: (elements_first and _bare_text(hit[2]), -hit[0], hit[1]))
        return [line for _, _, line in found[:limit]], total

    async def mark_text(self, text: str) -> str:
        """An element id for the one visible element whose whole text is ``text``."""
        if self.snapshot is None:
            await self.read()
        assert self.snapshot is not None
        args: dict[str, Any] = {"op": "mark", "text": text}
        if self.snapshot.documents:  # frames of other origins give text-N ids too
            args["textStart"] = max(self.text_ids, _next_text_id(self.snapshot.elements))
        data = await call_collector(self.page.main_frame, args)
        if data.get("id") is None:
            raise UnknownElementError(
                f"No single visible element shows exactly {text!r} ({data['count']} do). "
                "Use an element id, or the exact text of one element.")
        self.snapshot.elements[data["id"]] = []
        self.text_ids = max(self.text_ids, _next_text_id([data["id"]]))
        return str(data["id"])

    async def revealers(self, texts: list[str], task: str = "") -> list[tuple[str, str]]:
        """For each of ``texts`` that only hidden elements hold, the id (of the last
        reading) of the visible control that shows it: (text, id) pairs. An element that
        holds ``task`` (a page showing its own instructions) holds none of them."""
        if not texts or self.snapshot is None:
            return []
        try:
            found = await call_collector(self.page.main_frame,
                                         {"op": "reveal", "texts": texts, "task": task})
        except PlaywrightError:
            return []  # navigating: the next reading asks again
        return [(str(f["text"]), str(f["id"])) for f in found
                if f["id"] in self.snapshot.elements]

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

    async def evaluate_on(
            self, element_id: str, function: str, *, timeout_ms: float = 5000) -> Any:
        """``function`` (JavaScript taking the element) on an element id of the last reading,
        as its locator's ``evaluate``: one round trip for an element of the page's own
        document, outside shadow roots (the locator's makes three); the others go through the
        locator, which waits up to ``timeout_ms`` for an element that is gone (then
        Playwright's TimeoutError)."""
        locator = self.locator(element_id)  # validates the id
        assert self.snapshot is not None
        if not self.snapshot.elements[element_id]:
            found, value = await self.page.main_frame.evaluate(
                f"id => {{ const el = document.querySelector(`[{ID_ATTR}=\"${{id}}\"]`);"
                f" return el ? [true, ({function})(el)] : [false, null]; }}", element_id)
            if found:
                return value
        return await locator.evaluate(function, timeout=timeout_ms)

    async def describe(self, element_id: str) -> Fingerprint:
        """The fingerprint of an element id, read from the live page (in the frame of
        another origin that read it, its ``frame`` then leading there from the page)."""
        self.locator(element_id)  # validates the id
        assert self.snapshot is not None
        root = self.snapshot.document_of(element_id)
        try:
            frame = await self.frame_of(root)
            data = None if frame is None else await call_collector(frame, {
                "op": "describe", "id": element_id, "secrets": self.secrets.pairs()})
        except PlaywrightError as exc:
            raise BrowserError(f"Could not read element {element_id}: {_first_line(exc)}") from None
        if data is not None and root:
            data["frame"] = [*self.snapshot.documents[root].css, *data["frame"]]
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
        by_document: dict[tuple[str, ...], list[str]] = {}
        for element_id in ids:
            by_document.setdefault(self.snapshot.document_of(element_id), []).append(element_id)
        try:
            data = await call_collector(self.page.main_frame, {"op": "state",
                                                           "ids": by_document.pop((), [])})
        except PlaywrightError:
            return True, list(ids)
        if data["snap"] != self.snapshot.snap:
            return True, list(ids)
        detached = list(data["detached"])
        for root, inside in by_document.items():  # frames of other origins: their own state
            try:
                frame = await self.frame_of(root)
                got = None if frame is None else await call_collector(
                    frame, {"op": "state", "ids": inside})
            except PlaywrightError:
                got = None
            if got is None or got["snap"] != self.snapshot.documents[root].snap:
                detached += inside  # the frame is gone or shows another document
            else:
                detached += got["detached"]
        return False, [i for i in ids if i in detached]

    async def settle(self, *, timeout_ms: float = 3000, quiet_ms: float = 100) -> None:
        """Wait for the load event and then for a quiet DOM, each bounded; never a fixed
        sleep. The page's frames load too, and those of other origins read last time (whose
        changes the page's own DOM does not show) are quiet as well."""
        await self._wait_load(timeout_ms)
        for _ in range(2):
            try:
                await call_collector(self.page.main_frame,
                                     {"op": "settle", "quiet": quiet_ms, "max": timeout_ms})
                break
            except PlaywrightError as exc:
                if not _is_navigation_race(exc):
                    break
                await self._wait_load(timeout_ms)
        await self._settle_frames(timeout_ms, quiet_ms)

    async def _settle_frames(self, timeout_ms: float, quiet_ms: float) -> None:
        deadline = time.monotonic() + timeout_ms / 1000
        for frame in self.page.frames[1:]:
            left = (deadline - time.monotonic()) * 1000
            if left <= 0:
                return
            try:
                await frame.wait_for_load_state("load", timeout=left)
            except PlaywrightError:
                pass  # a slow frame is read as it is
        documents = self.snapshot.documents if self.snapshot is not None else {}
        for chain in documents:
            left = (deadline - time.monotonic()) * 1000
            if left <= quiet_ms:
                return
            try:
                inner = await self.frame_of(chain)
                if inner is not None:
                    await call_collector(inner, {"op": "settle", "quiet": quiet_ms,
                                                 "max": left})
            except PlaywrightError:
                pass  # gone or navigating: the next reading sees what is there

    async def screenshot_with_boxes(self) -> bytes:
        """A viewport screenshot with each element id drawn in a box, those of frames of
        other origins the last reading entered too (each drawn by its own document)."""
        await self._boxes(True)
        try:
            return await self.page.screenshot()
        finally:
            await self._boxes(False)

    async def _boxes(self, show: bool) -> None:
        await call_collector(self.page.main_frame, {"op": "boxes", "show": show})
        for chain in self.snapshot.documents if self.snapshot is not None else {}:
            try:
                frame = await self.frame_of(chain)
                if frame is not None:
                    await call_collector(frame, {"op": "boxes", "show": show})
            except PlaywrightError:
                pass  # gone or navigating: the picture shows what is there

    async def _wait_load(self, timeout_ms: float = 3000) -> None:
        try:
            await self.page.wait_for_load_state("load", timeout=timeout_ms)
        except PlaywrightError:
            pass  # a slow page is read as it is; the model sees what loaded


def _bare_text(line: str) -> bool:
    """Is ``line`` (a found element's page-state line) a text given an id (``text-N``)?"""
    parsed = state_lines(line)
    return bool(parsed) and (parsed[0].id or "").startswith("text-")


def _next_text_id(ids: Any) -> int:
    """One more than the highest ``text-N`` among ``ids`` (0 when there is none)."""
    numbers = [int(i[5:]) for i in ids if str(i).startswith("text-") and str(i)[5:].isdigit()]
    return max(numbers, default=-1) + 1


def _is_navigation_race(exc: Exception) -> bool:
    msg = str(exc)
    return "Execution context was destroyed" in msg or "navigation" in msg.lower()


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__

