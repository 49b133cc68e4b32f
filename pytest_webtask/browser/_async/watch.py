"""AsyncPageWatch: the dialogs and new tabs of a browser context while webtask acts on it."""

from __future__ import annotations

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Dialog as PlaywrightDialog
from playwright.async_api import Error as PlaywrightError

from ...types import Dialog, DialogAnswer


class AsyncPageWatch:
    """Answers every dialog of the context and notes every page it opens, while attached.

    A dialog blocks the page (its scripts and every Playwright action) until it is answered,
    so it cannot wait for the model's next step: it is answered at once with the answer set
    beforehand (the ``dialog`` tool, or a recipe), else accepted if it is an ``alert`` (its
    only answer) and dismissed otherwise, which is what a browser without a person does and
    never confirms a destructive action by accident. Attached only while a step runs, so
    plain Playwright code around the steps keeps Playwright's own behaviour.
    """

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.answers: list[DialogAnswer] = []  # for the next dialogs, in order
        self.dialogs: list[Dialog] = []  # not yet tied to the action that opened them
        self.unshown: list[Dialog] = []  # not yet shown in a page state
        self.opened: list[Page] = []
        self._attached = False

    def attach(self) -> None:
        if not self._attached:
            self.context.on("dialog", self._on_dialog)
            self.context.on("page", self._on_page)
            self._attached = True

    def detach(self) -> None:
        if self._attached:
            self.context.remove_listener("dialog", self._on_dialog)
            self.context.remove_listener("page", self._on_page)
            self._attached = False
        self.answers = []
        self.dialogs, self.unshown, self.opened = [], [], []

    def take_dialogs(self) -> list[Dialog]:
        seen, self.dialogs = self.dialogs, []
        return seen

    def take_unshown(self) -> list[Dialog]:
        seen, self.unshown = self.unshown, []
        return seen

    def take_opened(self) -> list[Page]:
        pages, self.opened = [p for p in self.opened if not p.is_closed()], []
        return pages

    async def _on_dialog(self, dialog: PlaywrightDialog) -> None:
        answer = self.answers.pop(0) if self.answers else None
        if answer is None or not answer.fits(dialog.type, dialog.message):
            answer = DialogAnswer(accept=dialog.type == "alert")
        text = answer.text if answer.accept and dialog.type == "prompt" else None
        seen = Dialog(type=dialog.type, message=dialog.message, accept=answer.accept, text=text)
        self.dialogs.append(seen)
        self.unshown.append(seen)
        try:
            if answer.accept:
                await (dialog.accept(text) if text is not None else dialog.accept())
            else:
                await dialog.dismiss()
        except PlaywrightError:
            pass  # the page closed under the dialog

    def _on_page(self, page: Page) -> None:
        self.opened.append(page)
