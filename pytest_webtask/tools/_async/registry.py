"""The built-in tools by name, and AsyncToolRegistry: the tools a task may use, their prompt
block, and safe execution."""

from __future__ import annotations

from collections.abc import Mapping

from playwright.async_api import Error as PlaywrightError
from pydantic import ValidationError

from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser.downloads import shown
from ...browser.origins import allowed
from ...errors import BrowserError
from ...llm.request import Block
from ...types import Action, Dialog, ExecutionResult
from ..params import PointerParams, render_tool
from ..task import TaskValues
from .browser_tools import AsyncTool
from .element_tools import (
    AsyncCheckBoxTool,
    AsyncClickTool,
    AsyncDoubleClickTool,
    AsyncDragTool,
    AsyncFillTool,
    AsyncHoverTool,
    AsyncPointTool,
    AsyncPressTool,
    AsyncScrollTool,
    AsyncSelectTool,
    AsyncSlideTool,
    AsyncTypeTool,
    AsyncUncheckBoxTool,
    AsyncUploadTool,
)
from .page_tools import (
    AsyncCloseTabTool,
    AsyncDialogTool,
    AsyncFindTool,
    AsyncGoBackTool,
    AsyncNavigateTool,
    AsyncSwitchTabTool,
    AsyncWaitTool,
)

# In the order the prompt lists them; upload only for a task with resources.
BROWSER_TOOLS: tuple[type[AsyncTool], ...] = (
    AsyncNavigateTool, AsyncClickTool, AsyncFillTool, AsyncTypeTool, AsyncSelectTool,
    AsyncPressTool, AsyncScrollTool, AsyncHoverTool, AsyncDoubleClickTool, AsyncCheckBoxTool,
    AsyncUncheckBoxTool, AsyncDragTool, AsyncGoBackTool, AsyncWaitTool, AsyncDialogTool,
    AsyncSwitchTabTool, AsyncCloseTabTool, AsyncFindTool, AsyncSlideTool,
)
# Offered only to a model that sees screenshots: it picks the point from the picture.
PICTURE_TOOLS: tuple[type[AsyncTool], ...] = (AsyncPointTool,)
ALL_TOOLS: tuple[type[AsyncTool], ...] = (*BROWSER_TOOLS, AsyncUploadTool, *PICTURE_TOOLS)
BUILT_IN_TOOLS: dict[str, type[AsyncTool]] = {tool.name: tool for tool in ALL_TOOLS}


def tool_class(name: str, plugins: Mapping[str, type[AsyncTool]] | None = None
               ) -> type[AsyncTool] | None:
    """The tool called ``name``: a plugin's (which replaces a built-in of its name), else
    the built-in one; None when there is none."""
    return (plugins or {}).get(name) or BUILT_IN_TOOLS.get(name)

NEW_TAB_TIMEOUT_MS = 5000  # for Playwright to report a tab the browser has opened


class AsyncToolRegistry:
    """Tools by name. ``execute`` never raises for a model's mistake: an unknown tool, bad
    parameters, an unknown element id or a failed browser action become a failed
    ``ExecutionResult`` whose error the model reads in the next step."""

    def __init__(self, tools: list[AsyncTool] | None = None) -> None:
        self._tools: dict[str, AsyncTool] = {}
        # the last action a recipe keeps: a dialog or tab that comes after it (a confirm a
        # timer opens while the model thinks) is its own
        self.last: ExecutionResult | None = None
        self._browser: AsyncLLMBrowser | None = None
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: AsyncTool) -> None:
        self._tools[tool.name] = tool
        self._browser = self._browser or tool.browser

    async def late_events(self) -> None:
        """Tie the dialogs and tabs that came since the last action ran to that action (or
        leave them for the next one when no action is kept yet)."""
        browser = self._browser
        if browser is None or self.last is None:
            return
        await flush(browser)
        await note_events(browser, self.last)

    def get(self, name: str) -> AsyncTool | None:
        return self._tools.get(name)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def tools(self) -> list[AsyncTool]:
        return list(self._tools.values())

    def get_tools_context(self) -> Block:
        body = "\n\n".join(
            render_tool(t.name, t.description, t.params_class) for t in self._tools.values()
        )
        return Block(f"Available Tools:\n\n{body}")

    async def execute(self, action: Action) -> ExecutionResult:
        tool = self._tools.get(action.tool)
        if tool is None:
            return ExecutionResult(
                success=False,
                error=f"Unknown tool {action.tool!r}. Available tools: "
                f"{', '.join(self._tools)}.",
            )
        try:
            params = tool.params_class.model_validate(action.parameters)
        except ValidationError as exc:
            return ExecutionResult(success=False,
                                   error=f"Invalid parameters for {tool.name}: {_errors(exc)}")
        await self.late_events()
        tool.browser.watch.begin()
        result = ExecutionResult(success=False, url_before=tool.browser.page.url)
        element_id = getattr(params, "element_id", None)
        to_id = getattr(params, "to_element_id", None)
        before = await _page_print(tool.browser) if tool.replayed and element_id else None
        try:
            if isinstance(params, PointerParams) and params.text is not None:
                element_id = params.element_id = await tool.browser.mark_text(params.text)
            if element_id:
                result.target = await tool.browser.describe(element_id)
            if to_id:
                result.to = await tool.browser.describe(to_id)
            outcome = await tool.execute(params)
        except BrowserError as exc:
            result.error = str(exc)
            outcome = result
        except PlaywrightError as exc:
            result.error = f"{tool.name} failed: {_playwright_message(exc)}"
            outcome = result
        outcome.target = outcome.target or result.target
        outcome.to = outcome.to or result.to
        outcome.url_before = result.url_before
        await tool.browser.watch.wait_windows(NEW_TAB_TIMEOUT_MS)
        await note_events(tool.browser, outcome)
        outcome.url_after = tool.browser.page.url
        if before is not None and outcome.success and outcome.dialogs and all(
                not d.accept and not d.answer_was_set and d.type != "alert"
                for d in outcome.dialogs) and not outcome.downloads \
                and not outcome.opened_tab and outcome.url_after == outcome.url_before:
            outcome.unchanged = await _page_print(tool.browser) == before
        if outcome.success and tool.replayed:
            self.last = outcome
        return outcome


# what a page shows and holds, in a few characters: its text, its fields' values and
# states, and the open details and dialogs (a hash: two prints differ when the page changed)
PAGE_PRINT_JS = """() => {
  let h = 0;
  const add = (s) => { for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; };
  add(location.href); add(document.body ? document.body.innerText : '');
  for (const el of document.querySelectorAll('input, select, textarea, details, dialog, ' +
                                             '[aria-checked], [aria-expanded]'))
    add('|' + (el.value ?? '') + (el.checked ? '1' : '0') + (el.open ? '1' : '0') +
        (el.getAttribute('aria-checked') || '') + (el.getAttribute('aria-expanded') || ''));
  return String(document.querySelectorAll('*').length) + ':' + h;
}"""


async def _page_print(browser: AsyncLLMBrowser) -> str | None:
    """The page's print (PAGE_PRINT_JS), None when it cannot be read (navigating)."""
    try:
        return str(await browser.page.evaluate(PAGE_PRINT_JS))
    except PlaywrightError:
        return None


def _errors(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'parameters'}: {e['msg']}" for e in exc.errors()
    )


# what an action's error says when another element (a pop-up) took its click
COVERED = "it is covered by"


def _playwright_message(exc: Exception) -> str:
    """Playwright's first line plus the last call-log line, which says what it waited for."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    if not lines:
        return type(exc).__name__
    head = lines[0]
    tail = [ln for ln in lines[1:] if ln.startswith("-")]
    covers = [ln.lstrip("- ").split(" intercepts pointer events")[0] for ln in tail
              if "intercepts pointer events" in ln]
    if covers:  # the retries' "waiting 500ms" would hide why
        return (f"{head} ({COVERED} {covers[-1][:200]}, which gets the click: close "
                "or move what covers it first, for example press Escape for a pop-up)")
    return head + (f" ({tail[-1].lstrip('- ')})" if tail else "")


async def flush(browser: AsyncLLMBrowser) -> None:
    """One round trip to the browser, so that every event it sent before (a dialog a timer
    opened while the model was thinking) has reached the watch: the sync twin receives
    events only while it waits for Playwright."""
    try:
        await browser.page.evaluate("0")
    except PlaywrightError:
        pass  # navigating or closed: the events came all the same


async def note_events(browser: AsyncLLMBrowser, result: ExecutionResult) -> None:
    """Tie the dialogs, new tabs and downloads that appeared since the last action to
    ``result``; a new tab becomes the current page, as it does for a person."""
    notes = []
    for dialog in browser.watch.take_dialogs():
        result.dialogs.append(dialog)
        notes.append(dialog_note(dialog, unused=len(browser.watch.answers)))
    for tab in browser.watch.take_pages():
        try:
            await tab.wait_for_load_state("load", timeout=5000)
        except PlaywrightError:
            pass  # read as it is
        if not allowed(tab.url, browser.allowed_origins):
            # a page must not steer the agent away, in a new tab either
            notes.append(f"It opened a new tab at {tab.url}, outside the allowed origins; "
                         "the tab was closed.")
            await tab.close()
            continue
        result.opened_tab = True
        browser.page = tab
        notes.append(f"It opened a new tab, now the current one: {tab.url}")
    for file in await browser.watch.take_files():
        result.downloads.append(file)
        browser.downloaded.append(file)
        # its text, so that a statement about what it holds is proven from it
        text = browser.secrets.mask(shown(file))
        notes.append(f"It downloaded {file.describe()}" + (
            ". Its text:\n" + text + "\n(To cite what the file holds: {\"expect\": "
            "\"download\", \"text\": \"<a part of its text, exactly as written>\"}.)"
            if text else "."))
    if notes:
        result.output = " ".join([result.output, *notes]).strip()


def dialog_note(dialog: Dialog, unused: int = 0) -> str:
    """What the step history says of a dialog an action opened: how it was answered, and
    why, true to what was set (``unused``: answers set with the dialog tool still waiting,
    for dialogs this one did not fit)."""
    asked = f"A {dialog.type} dialog asked {dialog.message!r}: "
    answer = "accepted" if dialog.accept else "dismissed"
    if dialog.accept and dialog.text is not None:
        answer += f" with {dialog.text!r}"
    if dialog.answer_was_set:
        return asked + f"{answer}, as the dialog tool set beforehand."
    if dialog.type == "alert":
        return asked + f"{answer}."
    if unused:
        return asked + (f"{answer}: the answer set with the dialog tool was not for this "
                        "dialog, so it is still waiting for the next one. To answer this one, "
                        "call the dialog tool right before the action that opens it.")
    return asked + (f"{answer}, as no answer was set beforehand. To accept it, call the "
                    "dialog tool with accept=true before the action that opens it.")


def browser_registry(browser: AsyncLLMBrowser, task: TaskValues,
                     allowed_origins: list[str] | None,
                     extra: list[type[AsyncTool]] | None = None) -> AsyncToolRegistry:
    """The browser tools for a task; ``upload`` only when the task has resources, ``point``
    only for a model that sees screenshots; ``extra``
    tools (from plugins) after them, replacing a built-in of the same name."""
    classes = list(BROWSER_TOOLS) + ([AsyncUploadTool] if task.resources else [])
    classes += list(PICTURE_TOOLS) if browser.screenshot else []
    classes += list(extra or [])
    browser.allowed_origins = allowed_origins
    return AsyncToolRegistry([cls(browser, task, allowed_origins) for cls in classes])
