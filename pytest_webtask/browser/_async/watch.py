"""AsyncPageWatch: the dialogs, new tabs and downloads of a browser context while webtask
acts on it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Download, Page
from playwright.async_api import Dialog as PlaywrightDialog
from playwright.async_api import Error as PlaywrightError

from ...types import Dialog, DialogAnswer, DownloadedFile
from ..downloads import downloaded


class AsyncPageWatch:
    """Answers every dialog of the context and notes every page it opens, while attached.

    A dialog blocks the page (its scripts and every Playwright action) until it is answered,
    so it cannot wait for the model's next step: it is answered at once with the answer set
    beforehand (the ``dialog`` tool, or a recipe), else accepted if it is an ``alert`` (its
    only answer) and dismissed otherwise, which is what a browser without a person does and
    never confirms a destructive action by accident. Attached only while a step runs, so
    plain Playwright code around the steps keeps Playwright's own behaviour.

    Each dialog and page is stamped with the action under way when it came (``begin``
    counts the actions): it belongs to the last action begun before it, however late after
    that action it came (a confirm a timer opens), as long as the next action has not begun.
    Playwright reports a new tab some tens of milliseconds after the click that opened it;
    with ``track_windows`` (Chromium: the DevTools protocol tells at once that a window was
    created) ``wait_windows`` waits for the tabs the last action opened, so none is
    credited to the action after it.
    """

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.answers: list[DialogAnswer] = []  # for the next dialogs, in order
        self.dialogs: list[tuple[int, Dialog]] = []  # (action, dialog), not yet taken
        self.unshown: list[Dialog] = []  # not yet shown in a page state
        self.opened: list[tuple[int, Page]] = []  # (action, page), not yet taken
        self.downloads: list[tuple[int, Download]] = []  # (action, download), not yet taken
        self._download_pages: list[Page] = []
        self.action = 0  # actions begun since attached
        self._attached = False
        self._cdp: CDPSession | None = None
        self._context_id: str | None = None
        self._windows = 0  # windows the browser created in this context since tracked
        self._pages = 0  # pages Playwright reported since tracked

    def attach(self) -> None:
        if not self._attached:
            self.context.on("dialog", self._on_dialog)
            self.context.on("page", self._on_page)
            for page in self.context.pages:
                self._watch_downloads(page)
            self._attached = True

    async def detach(self) -> None:
        if self._attached:
            self.context.remove_listener("dialog", self._on_dialog)
            self.context.remove_listener("page", self._on_page)
            for page in self._download_pages:
                page.remove_listener("download", self._on_download)
            self._download_pages = []
            self._attached = False
        if self._cdp is not None:
            cdp, self._cdp = self._cdp, None
            try:
                await cdp.detach()
            except PlaywrightError:
                pass  # its page is gone
        self.answers = []
        self.dialogs, self.unshown, self.opened, self.downloads = [], [], [], []
        self.action = 0

    async def track_windows(self, page: Page) -> None:
        """Count the windows the browser creates in this context as it creates them (a
        DevTools session on ``page``; Chromium only: elsewhere tabs are credited as
        Playwright reports them)."""
        if self._cdp is not None:
            return
        try:
            cdp = await self.context.new_cdp_session(page)
            info = await cdp.send("Target.getTargetInfo")
            cdp.on("Target.targetCreated", self._on_target)
            await cdp.send("Target.setDiscoverTargets", {"discover": True})
        except PlaywrightError:
            return  # not Chromium, or the page closed
        self._context_id = info["targetInfo"].get("browserContextId")
        self._cdp = cdp
        self._windows = self._pages = 0  # the targets listed on discovery are old ones

    def begin(self, answers: list[DialogAnswer] | None = None) -> int:
        """An action begins: what comes from now on is its own. ``answers``: how to answer
        its dialogs (a replay's recorded answers), replacing any left."""
        self.action += 1
        if answers is not None:
            self.answers = list(answers)
        return self.action

    def take_dialogs(self, action: int | None = None) -> list[Dialog]:
        """The dialogs that came (up to ``action``), no longer held."""
        upto = self.action if action is None else action
        taken = [d for n, d in self.dialogs if n <= upto]
        self.dialogs = [(n, d) for n, d in self.dialogs if n > upto]
        return taken

    def take_pages(self, action: int | None = None) -> list[Page]:
        """The pages opened (up to ``action``) and still open, no longer held."""
        upto = self.action if action is None else action
        taken = [p for n, p in self.opened if n <= upto and not p.is_closed()]
        self.opened = [(n, p) for n, p in self.opened if n > upto]
        return taken

    async def take_files(self, action: int | None = None) -> list[DownloadedFile]:
        """The files downloaded (up to ``action``), read once they are complete, no longer
        held. A download that failed is a file of its name with no bytes."""
        upto = self.action if action is None else action
        taken = [d for n, d in self.downloads if n <= upto]
        self.downloads = [(n, d) for n, d in self.downloads if n > upto]
        files = []
        for download in taken:
            try:
                data = Path(await download.path()).read_bytes()
            except (PlaywrightError, OSError):
                data = b""
            files.append(downloaded(download.suggested_filename, data))
        return files

    async def wait_downloads(self, count: int, timeout_ms: float) -> None:
        """Wait (for Playwright's download events) until ``count`` downloads are held."""
        deadline = time.monotonic() + timeout_ms / 1000
        while len(self.downloads) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            page = self.context.pages[-1] if self.context.pages else None
            if page is None:
                return
            try:
                await page.wait_for_event("download", timeout=min(left * 1000, 250))
            except PlaywrightError:
                pass  # not on this page, or not yet: look again

    def take_unshown(self) -> list[Dialog]:
        seen, self.unshown = self.unshown, []
        return seen

    def count(self, action: int) -> tuple[int, int]:
        """How many dialogs and pages of ``action`` are held."""
        return (sum(1 for n, _ in self.dialogs if n == action),
                sum(1 for n, _ in self.opened if n == action))

    async def wait_dialogs(self, action: int, count: int, timeout_ms: float) -> None:
        """Wait (for Playwright's dialog events) until ``action`` has ``count`` dialogs."""
        await self._wait("dialog", lambda: self.count(action)[0] >= count, timeout_ms)

    async def wait_pages(self, action: int, count: int, timeout_ms: float) -> None:
        """Wait (for Playwright's page events) until ``action`` opened ``count`` pages."""
        await self._wait("page", lambda: self.count(action)[1] >= count, timeout_ms)

    async def wait_windows(self, timeout_ms: float) -> None:
        """Wait until Playwright reported every window the browser created (tracked only)."""
        if self._cdp is not None:
            await self._wait("page", lambda: self._pages >= self._windows, timeout_ms)

    async def _wait(self, event: str, done: Any, timeout_ms: float) -> None:
        deadline = time.monotonic() + timeout_ms / 1000
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:  # our own listener, registered first, has stamped it when this returns
                await self.context.wait_for_event(event, timeout=left * 1000)
            except PlaywrightError:
                return  # the time is up (or the context closed)

    def _on_dialog(self, dialog: PlaywrightDialog) -> Any:
        # noted here, at the event, and answered in what this returns (in the async twin,
        # a coroutine Playwright runs as a task)
        # the next answer if it is meant for this dialog; another dialog does not use it up
        chosen = bool(self.answers) and self.answers[0].fits(dialog.type, dialog.message)
        answer = self.answers.pop(0) if chosen else DialogAnswer(accept=dialog.type == "alert")
        text = answer.text if answer.accept and dialog.type == "prompt" else None
        seen = Dialog(type=dialog.type, message=dialog.message, accept=answer.accept, text=text)
        seen._set = chosen
        self.dialogs.append((self.action, seen))
        self.unshown.append(seen)
        return self._answer(dialog, answer.accept, text)

    async def _answer(self, dialog: PlaywrightDialog, accept: bool, text: str | None) -> None:
        try:
            if accept:
                await (dialog.accept(text) if text is not None else dialog.accept())
            else:
                await dialog.dismiss()
        except PlaywrightError:
            pass  # the page closed under the dialog

    def _on_page(self, page: Page) -> None:
        self._pages += 1
        self.opened.append((self.action, page))
        self._watch_downloads(page)

    def _watch_downloads(self, page: Page) -> None:
        if page not in self._download_pages:
            page.on("download", self._on_download)
            self._download_pages.append(page)

    def _on_download(self, download: Download) -> None:
        self.downloads.append((self.action, download))

    def _on_target(self, params: dict[str, Any]) -> None:
        info = params.get("targetInfo", {})
        # a tab or window of this context (not a prerendered page, which is no tab)
        if info.get("type") == "page" and not info.get("subtype") \
                and info.get("browserContextId") == self._context_id:
            self._windows += 1
