"""The tools that act on the page or its tabs rather than on an element: go_back, wait,
dialog, switch_tab, close_tab (``perform`` hands them to ``perform_on_page``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...browser._async.watch import AsyncPageWatch
from ...types import DialogAnswer, ExecutionResult

# Tools that act on the page or its tabs, not on an element.
PAGE_TOOLS = ("go_back", "wait", "dialog", "switch_tab", "close_tab")


async def perform_on_page(page: Page, tool: str, params: dict[str, Any],
                          sub: Callable[[str], str],
                          watch: AsyncPageWatch | None) -> ExecutionResult:
    """``perform`` for the tools in ``PAGE_TOOLS``."""
    if tool == "go_back":
        if await page.go_back(timeout=15_000) is None:
            return ExecutionResult(success=False,
                                   error="go_back: this tab has no previous page to go back to.")
    elif tool == "wait":
        text = sub(params["text"])
        seconds = float(params.get("seconds") or 5)
        try:
            await page.get_by_text(text).filter(visible=True).first.wait_for(
                timeout=seconds * 1000)
        except PlaywrightError:
            return ExecutionResult(success=False,
                                   error=f"{text!r} did not appear within {seconds:g}s.")
    elif tool == "dialog":
        if watch is None:
            return ExecutionResult(success=False, error="dialogs are not watched here.")
        answer = params.get("text")
        watch.answers.append(DialogAnswer(accept=bool(params["accept"]),
                                          text=sub(answer) if answer is not None else None))
    else:
        pages = page.context.pages
        index = params.get("tab")
        if tool == "close_tab" and index is None:
            index = pages.index(page) if page in pages else len(pages) - 1
        if not isinstance(index, int) or not 0 <= index < len(pages):
            return ExecutionResult(success=False, error=(
                f"{tool}: there is no tab {index}; {len(pages)} tab(s) are open "
                f"(0 to {len(pages) - 1})."))
        if tool == "switch_tab":
            await pages[index].bring_to_front()
            return ExecutionResult(success=True,
                                   page=pages[index] if pages[index] is not page else None)
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
    return ExecutionResult(success=True)
