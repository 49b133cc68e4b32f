"""The built-in tools that act on the page or its tabs rather than on an element. Each is
its ``tools.builtin`` definition plus what it does, for recording and replay alike."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...browser.origins import allowed
from ...types import DialogAnswer, ExecutionResult
from ..builtin import AnswerDialog, CloseTab, Find, GoBack, Navigate, SwitchTab, Wait
from ..params import WAIT_SECONDS
from .browser_tools import AsyncScene, AsyncTool

NAVIGATION_TIMEOUT_MS = 15_000


class AsyncNavigateTool(Navigate, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        url = urljoin(scene.page.url, params["url"])
        if not allowed(url, scene.allowed_origins):
            return ExecutionResult(
                success=False,
                error=f"Navigation to {url} refused: only "
                f"{', '.join(scene.allowed_origins or ['http(s) URLs'])} may be visited in "
                "this task.",
            )
        await scene.page.goto(url, timeout=NAVIGATION_TIMEOUT_MS)
        return ExecutionResult(success=True)


class AsyncGoBackTool(GoBack, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        if await scene.page.go_back(timeout=NAVIGATION_TIMEOUT_MS) is None:
            return ExecutionResult(success=False,
                                   error="go_back: this tab has no previous page to go back to.")
        return ExecutionResult(success=True)


class AsyncWaitTool(Wait, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        text = scene.substitute(params["text"])
        seconds = float(params.get("seconds") or WAIT_SECONDS)
        try:
            await scene.page.get_by_text(text).filter(visible=True).first.wait_for(
                timeout=seconds * 1000)
        except PlaywrightError:
            return ExecutionResult(success=False,
                                   error=f"{text!r} did not appear within {seconds:g}s.")
        return ExecutionResult(success=True)


class AsyncDialogTool(AnswerDialog, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        if scene.watch is None:
            return ExecutionResult(success=False, error="dialogs are not watched here.")
        answer = params.get("text")
        scene.watch.answers.append(DialogAnswer(
            accept=bool(params["accept"]),
            text=scene.substitute(answer) if answer is not None else None))
        return ExecutionResult(success=True)


def _tab(tool: str, pages: list[Page], index: Any) -> ExecutionResult | None:
    """None when ``index`` is one of the open tabs, else the error that says which are."""
    if isinstance(index, int) and 0 <= index < len(pages):
        return None
    return ExecutionResult(success=False, error=(
        f"{tool}: there is no tab {index}; {len(pages)} tab(s) are open "
        f"(0 to {len(pages) - 1})."))


class AsyncSwitchTabTool(SwitchTab, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        page, pages = scene.page, scene.page.context.pages
        index: Any = params.get("tab")
        wrong = _tab(cls.name, pages, index)
        if wrong:
            return wrong
        await pages[index].bring_to_front()
        return ExecutionResult(success=True,
                               page=pages[index] if pages[index] is not page else None)


class AsyncCloseTabTool(CloseTab, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        page, pages = scene.page, scene.page.context.pages
        index: Any = params.get("tab")
        if index is None:
            index = pages.index(page) if page in pages else len(pages) - 1
        wrong = _tab(cls.name, pages, index)
        if wrong:
            return wrong
        if len(pages) == 1:
            return ExecutionResult(success=False, error="close_tab: this is the only tab.")
        closing = pages[index]
        rest = [p for p in pages if p is not closing]
        current = page
        if closing is page:  # back to the tab that opened it, else the last one
            opener = await closing.opener()
            current = opener if opener in rest else rest[-1]
        await closing.close()
        await current.bring_to_front()
        return ExecutionResult(success=True, page=current if current is not page else None)


class AsyncFindTool(Find, AsyncTool):
    """Reads the page's element ids while recording (a recipe keeps no find)."""

    async def execute(self, params: Any) -> ExecutionResult:
        if not params.text and not params.role:
            return ExecutionResult(success=False, error="find needs a text, a role, or both.")
        text, role = self.terms(params.text or "", params.role or "")
        if not text and not role:
            return ExecutionResult(success=False, error=(
                f"find needs a text or a role; {params.role!r} is an element id, not a role."))
        text = self.task.substitute(text) if self.task else text
        lines, total = await self.browser.find(text, role)
        what = " and ".join(f"{k} {v!r}" for k, v in (("text", text), ("role", role)) if v)
        said = ""
        if not lines and text and role:  # a role the model guessed: the text alone
            # an element was asked for: elements first, bare texts given an id after them
            lines, total = await self.browser.find(text, "", elements_first=True)
            said = f"No element matches {what}; by the text alone: "
            what = f"text {text!r}"
        if not lines:
            return ExecutionResult(success=True, output=f"No element matches {what}.")
        more = f" (showing {len(lines)})" if total > len(lines) else ""
        return ExecutionResult(success=True, output=f"{said}{total} element(s) match "
                               f"{what}{more}:\n" + "\n".join(lines))
