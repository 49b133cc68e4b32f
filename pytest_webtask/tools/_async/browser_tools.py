"""The browser tools the model may call, each with a pydantic parameter model."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urljoin

from playwright.async_api import Locator, Page

from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser._async.watch import AsyncPageWatch
from ...browser.origins import allowed
from ...browser.secret_fields import SECRET_ATTR
from ...types import ExecutionResult
from ..params import (
    ClickParams,
    CloseTabParams,
    DialogParams,
    DragParams,
    ElementParams,
    FillParams,
    FindParams,
    NavigateParams,
    NoParams,
    PointerParams,
    PressParams,
    ScrollParams,
    SelectParams,
    TabParams,
    ToolParams,
    TypeParams,
    UploadParams,
    WaitParams,
)
from ..task import TaskValues
from .page_tools import PAGE_TOOLS, perform_on_page

ACTION_TIMEOUT_MS = 5000


class AsyncTool:
    """A tool: a name, a description, a parameter model, and ``execute``.

    What a tool does to the page lives in ``perform``, which the recipe replayer calls too,
    with a locator found by fingerprint instead of by element id. A tool from a plugin (the
    ``pytest_webtask_add_tools`` hook) defines a static ``act(page, params, locator,
    substitute) -> ExecutionResult``, which ``perform`` calls in both cases.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    params_class: ClassVar[type[ToolParams]]

    def __init__(self, browser: AsyncLLMBrowser, task: TaskValues | None = None,
                 allowed_origins: list[str] | None = None) -> None:
        self.browser = browser
        self.task = task
        self.allowed_origins = allowed_origins

    async def execute(self, params: Any) -> ExecutionResult:
        element_id = getattr(params, "element_id", None)
        locator = self.browser.locator(element_id) if element_id else None
        to_id = getattr(params, "to_element_id", None)
        to_locator = self.browser.locator(to_id) if to_id else None
        result = await perform(
            self.browser.page, self.name, params.model_dump(), locator,
            substitute=self.task.substitute if self.task else None,
            resources=self.task.resources if self.task else {},
            allowed_origins=self.allowed_origins,
            watch=self.browser.watch, to_locator=to_locator,
            custom={self.name: type(self)} if hasattr(type(self), "act") else None,
        )
        if result.success and locator is not None and self.task is not None \
                and self.task.names_secret(str(params.model_dump().get("value", ""))):
            # the field now shows a secret: the page state shows it as masked from now on
            await locator.evaluate(f"el => el.setAttribute('{SECRET_ATTR}', '')")
        if result.page is not None:
            self.browser.page = result.page
        page = self.browser.page
        if result.success and not allowed(page.url, self.allowed_origins):
            # a link or a script took the page off the allowed origins: a page must not
            # steer the agent away
            left = page.url
            await page.go_back()
            return ExecutionResult(
                success=False,
                error=f"{self.name} led to {left}, outside the allowed origins "
                f"({', '.join(self.allowed_origins or [])}); went back.")
        return result


class AsyncNavigateTool(AsyncTool):
    name = "navigate"
    description = "Navigate to a URL"
    params_class = NavigateParams


class AsyncClickTool(AsyncTool):
    name = "click"
    description = "Click an element"
    params_class = ClickParams


class AsyncFillTool(AsyncTool):
    name = "fill"
    description = "Fill a form field"
    params_class = FillParams


class AsyncTypeTool(AsyncTool):
    name = "type"
    description = "Type into an element with keyboard simulation"
    params_class = TypeParams


class AsyncSelectTool(AsyncTool):
    name = "select"
    description = "Choose an option in a dropdown"
    params_class = SelectParams


class AsyncPressTool(AsyncTool):
    name = "press"
    description = "Press a key (Enter, Tab, Escape, ArrowDown...), on an element or the page"
    params_class = PressParams


class AsyncScrollTool(AsyncTool):
    name = "scroll"
    description = "Scroll the page, or scroll an element into view"
    params_class = ScrollParams


class AsyncHoverTool(AsyncTool):
    name = "hover"
    description = ("Move the pointer over an element; controls shown only on hover (a row's "
                   "delete button, a menu) then appear in the next page state")
    params_class = PointerParams


class AsyncDoubleClickTool(AsyncTool):
    name = "double_click"
    description = "Double-click an element (for example to edit an item in place)"
    params_class = PointerParams


class AsyncCheckTool(AsyncTool):
    name = "check"
    description = "Check a checkbox, radio button or switch (nothing happens if already checked)"
    params_class = ElementParams


class AsyncUncheckTool(AsyncTool):
    name = "uncheck"
    description = "Uncheck a checkbox or switch (nothing happens if already unchecked)"
    params_class = ElementParams


class AsyncDragTool(AsyncTool):
    name = "drag"
    description = "Drag an element and drop it on another element"
    params_class = DragParams


class AsyncGoBackTool(AsyncTool):
    name = "go_back"
    description = "Go back to the previous page of this tab"
    params_class = NoParams


class AsyncWaitTool(AsyncTool):
    name = "wait"
    description = "Wait until a text is visible on the page (at most a few seconds)"
    params_class = WaitParams


class AsyncDialogTool(AsyncTool):
    name = "dialog"
    description = ("Decide the answer to the next dialog (alert, confirm, prompt) the page "
                   "opens; put it BEFORE the action that opens the dialog. A dialog nobody "
                   "answered beforehand is dismissed (an alert is accepted)")
    params_class = DialogParams


class AsyncSwitchTabTool(AsyncTool):
    name = "switch_tab"
    description = "Make another open tab the current one"
    params_class = TabParams


class AsyncCloseTabTool(AsyncTool):
    name = "close_tab"
    description = "Close a tab (the current one by default)"
    params_class = CloseTabParams


class AsyncFindTool(AsyncTool):
    name = "find"
    description = ("Find elements anywhere on the page, including parts a long page state only "
                   "counts, by text (name, label, or the text of their row) and/or role; "
                   "returns their element IDs")
    params_class = FindParams

    async def execute(self, params: Any) -> ExecutionResult:
        if not params.text and not params.role:
            return ExecutionResult(success=False, error="find needs a text, a role, or both.")
        text = self.task.substitute(params.text or "") if self.task else params.text or ""
        lines, total = await self.browser.find(text, params.role or "")
        what = " and ".join(f"{k} {v!r}" for k, v in
                            (("text", params.text), ("role", params.role)) if v)
        if not lines:
            return ExecutionResult(success=True, output=f"No element matches {what}.")
        more = f" (showing {len(lines)})" if total > len(lines) else ""
        return ExecutionResult(success=True, output=f"{total} element(s) match {what}{more}:\n"
                               + "\n".join(lines))


class AsyncUploadTool(AsyncTool):
    name = "upload"
    description = "Upload file resources to a file input element"
    params_class = UploadParams


async def perform(
    page: Page,
    tool: str,
    params: dict[str, Any],
    locator: Locator | None,
    *,
    substitute: Callable[[str], str] | None = None,
    resources: Mapping[str, str] | None = None,
    allowed_origins: list[str] | None = None,
    timeout_ms: float = ACTION_TIMEOUT_MS,
    watch: AsyncPageWatch | None = None,
    to_locator: Locator | None = None,
    custom: Mapping[str, type[AsyncTool]] | None = None,
) -> ExecutionResult:
    """Do one action to the page. ``locator`` is the target for element tools (``to_locator``
    a drag's drop target); ``{name}`` placeholders in typed values go through ``substitute``;
    ``watch`` answers dialogs. Playwright errors propagate."""
    sub = substitute or (lambda v: v)
    value = sub(str(params.get("value", "")))
    if custom and tool in custom:
        return await custom[tool].act(page, params, locator, sub)  # type: ignore[attr-defined]
    if tool in PAGE_TOOLS:
        return await perform_on_page(page, tool, params, sub, watch)
    if tool == "navigate":
        url = urljoin(page.url, params["url"])
        if not allowed(url, allowed_origins):
            return ExecutionResult(
                success=False,
                error=f"Navigation to {url} refused: only "
                f"{', '.join(allowed_origins or ['http(s) URLs'])} may be visited in this task.",
            )
        await page.goto(url, timeout=15_000)
    elif tool in ("press", "scroll") and locator is None:
        if tool == "press":
            await page.keyboard.press(params["key"])
        else:
            sign = 1 if params.get("direction", "down") == "down" else -1
            await page.evaluate(
                "s => window.scrollBy(0, s * Math.round(window.innerHeight * 0.8))", sign
            )
    elif locator is None:
        return ExecutionResult(success=False, error=f"{tool} needs an element_id.")
    elif tool == "click":
        await locator.click(timeout=timeout_ms)
    elif tool == "fill":
        await locator.fill(value, timeout=timeout_ms)
    elif tool == "type":
        await locator.press_sequentially(value, timeout=timeout_ms)
    elif tool == "press":
        await locator.press(params["key"], timeout=timeout_ms)
    elif tool == "scroll":
        await locator.scroll_into_view_if_needed(timeout=timeout_ms)
    elif tool == "select":
        options = await locator.evaluate(
            "el => Array.from(el.options || []).map(o => [o.label.trim(), o.value])"
        )
        chosen = [v for label, v in options if value in (label, v)]
        if not chosen:
            shown = ", ".join(repr(label) for label, _ in options) or "none"
            return ExecutionResult(success=False,
                                   error=f"No option {value!r} in this dropdown; options: {shown}")
        await locator.select_option(value=chosen[0], timeout=timeout_ms)
    elif tool == "upload":
        paths, error = resource_paths(params.get("resource_names", []), resources or {})
        if error:
            return ExecutionResult(success=False, error=error)
        await locator.set_input_files(paths, timeout=timeout_ms)
    elif tool == "hover":
        await locator.hover(timeout=timeout_ms)
    elif tool == "double_click":
        await locator.dblclick(timeout=timeout_ms)
    elif tool in ("check", "uncheck"):
        return await _set_checked(locator, tool == "check", timeout_ms)
    elif tool == "drag":
        if to_locator is None:
            return ExecutionResult(success=False, error="drag needs a to_element_id to drop on.")
        await locator.drag_to(to_locator, timeout=timeout_ms)
    else:
        return ExecutionResult(success=False, error=f"Unknown tool {tool!r}.")
    return ExecutionResult(success=True)


CHECKED_JS = """el => {
  if (el.type === 'checkbox' || el.type === 'radio') return el.checked;
  const role = el.getAttribute('role');
  const roles = ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'];
  if (!roles.includes(role)) return null;
  return el.getAttribute('aria-checked') === 'true';
}"""


async def _set_checked(locator: Locator, want: bool, timeout_ms: float) -> ExecutionResult:
    """Click a checkbox, radio or switch (native or by role) unless it is already as wanted.
    Not Playwright's ``set_checked``: apps that re-render the control on click leave it no
    element to verify; the new one is checked when still there."""
    state = await locator.evaluate(CHECKED_JS, timeout=timeout_ms)
    if state is None:
        return ExecutionResult(success=False, error="check and uncheck work on a checkbox, "
                               "radio button or switch; this element is none of them.")
    if state != want:
        await locator.click(timeout=timeout_ms)
        if await locator.count() and await locator.evaluate(CHECKED_JS) != want:
            return ExecutionResult(success=False, error="the click did not change its state.")
    return ExecutionResult(success=True)


def resource_paths(names: list[str], resources: Mapping[str, str]) -> tuple[list[Path], str | None]:
    """Files for resource names, or an error naming what is missing."""
    paths = []
    for name in names:
        if name not in resources:
            known = ", ".join(resources) or "none"
            return [], f"Resource not found: {name!r}. Available resources: {known}."
        path = Path(resources[name])
        if not path.is_file():
            return [], f"Resource {name!r} points to a missing file: {path}"
        paths.append(path)
    if not paths:
        return [], "No resource_names given to upload."
    return paths, None


BROWSER_TOOLS: tuple[type[AsyncTool], ...] = (
    AsyncNavigateTool, AsyncClickTool, AsyncFillTool, AsyncTypeTool, AsyncSelectTool,
    AsyncPressTool, AsyncScrollTool, AsyncHoverTool, AsyncDoubleClickTool, AsyncCheckTool,
    AsyncUncheckTool, AsyncDragTool, AsyncGoBackTool, AsyncWaitTool, AsyncDialogTool,
    AsyncSwitchTabTool, AsyncCloseTabTool, AsyncFindTool,
)
