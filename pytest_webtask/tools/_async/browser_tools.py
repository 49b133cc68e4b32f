"""The browser tools the model may call, each with a pydantic parameter model."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urljoin, urlsplit

from ...agent.models import ExecutionResult
from ...browser._async.llm_browser import AsyncLLMBrowser
from ..params import (
    ClickParams,
    FillParams,
    NavigateParams,
    PressParams,
    ScrollParams,
    SelectParams,
    ToolParams,
    TypeParams,
    UploadParams,
)

if TYPE_CHECKING:
    from ...agent.task_context import TaskContext

ACTION_TIMEOUT_MS = 5000


class AsyncTool:
    """A tool: a name, a description, a parameter model, and ``execute``."""

    name: ClassVar[str]
    description: ClassVar[str]
    params_class: ClassVar[type[ToolParams]]

    def __init__(self, browser: AsyncLLMBrowser, task: TaskContext | None = None) -> None:
        self.browser = browser
        self.task = task

    def value(self, text: str) -> str:
        """The real value for text the model typed: ``{placeholders}`` substituted."""
        return self.task.substitute(text) if self.task else text

    async def execute(self, params: Any) -> ExecutionResult:  # pragma: no cover - abstract
        raise TypeError(f"tool {self.name} has no execute()")


class AsyncNavigateTool(AsyncTool):
    name = "navigate"
    description = "Navigate to a URL"
    params_class = NavigateParams

    def __init__(self, browser: AsyncLLMBrowser, task: TaskContext | None = None,
                 allowed_origins: list[str] | None = None) -> None:
        super().__init__(browser, task)
        self.allowed_origins = allowed_origins

    async def execute(self, params: NavigateParams) -> ExecutionResult:
        url = urljoin(self.browser.page.url, params.url)
        if not allowed(url, self.allowed_origins):
            return ExecutionResult(
                success=False,
                error=f"Navigation to {url} refused: only {', '.join(self.allowed_origins or [])}"
                " may be visited in this task.",
            )
        await self.browser.page.goto(url, timeout=15_000)
        return ExecutionResult(success=True)


class AsyncClickTool(AsyncTool):
    name = "click"
    description = "Click an element"
    params_class = ClickParams

    async def execute(self, params: ClickParams) -> ExecutionResult:
        await self.browser.locator(params.element_id).click(timeout=ACTION_TIMEOUT_MS)
        return ExecutionResult(success=True)


class AsyncFillTool(AsyncTool):
    name = "fill"
    description = "Fill a form field"
    params_class = FillParams

    async def execute(self, params: FillParams) -> ExecutionResult:
        await self.browser.locator(params.element_id).fill(
            self.value(params.value), timeout=ACTION_TIMEOUT_MS
        )
        return ExecutionResult(success=True)


class AsyncTypeTool(AsyncTool):
    name = "type"
    description = "Type into an element with keyboard simulation"
    params_class = TypeParams

    async def execute(self, params: TypeParams) -> ExecutionResult:
        await self.browser.locator(params.element_id).press_sequentially(
            self.value(params.value), timeout=ACTION_TIMEOUT_MS
        )
        return ExecutionResult(success=True)


class AsyncSelectTool(AsyncTool):
    name = "select"
    description = "Choose an option in a dropdown"
    params_class = SelectParams

    async def execute(self, params: SelectParams) -> ExecutionResult:
        locator = self.browser.locator(params.element_id)
        value = self.value(params.value)
        options = await locator.evaluate(
            "el => Array.from(el.options || []).map(o => [o.label.trim(), o.value])"
        )
        for label, opt_value in options:
            if value in (label, opt_value):
                await locator.select_option(value=opt_value, timeout=ACTION_TIMEOUT_MS)
                return ExecutionResult(success=True)
        shown = ", ".join(repr(label) for label, _ in options) or "none"
        return ExecutionResult(
            success=False, error=f"No option {value!r} in {params.element_id}; options: {shown}"
        )


class AsyncPressTool(AsyncTool):
    name = "press"
    description = "Press a key (Enter, Tab, Escape, ArrowDown...), on an element or the page"
    params_class = PressParams

    async def execute(self, params: PressParams) -> ExecutionResult:
        if params.element_id:
            await self.browser.locator(params.element_id).press(
                params.key, timeout=ACTION_TIMEOUT_MS
            )
        else:
            await self.browser.page.keyboard.press(params.key)
        return ExecutionResult(success=True)


class AsyncScrollTool(AsyncTool):
    name = "scroll"
    description = "Scroll the page, or scroll an element into view"
    params_class = ScrollParams

    async def execute(self, params: ScrollParams) -> ExecutionResult:
        if params.element_id:
            await self.browser.locator(params.element_id).scroll_into_view_if_needed(
                timeout=ACTION_TIMEOUT_MS
            )
        else:
            sign = 1 if params.direction == "down" else -1
            await self.browser.page.evaluate(
                "s => window.scrollBy(0, s * Math.round(window.innerHeight * 0.8))", sign
            )
        return ExecutionResult(success=True)


class AsyncUploadTool(AsyncTool):
    name = "upload"
    description = "Upload file resources to a file input element"
    params_class = UploadParams

    async def execute(self, params: UploadParams) -> ExecutionResult:
        resources = self.task.resources if self.task else {}
        paths = []
        for name in params.resource_names:
            if name not in resources:
                known = ", ".join(resources) or "none"
                return ExecutionResult(
                    success=False,
                    error=f"Resource not found: {name!r}. Available resources: {known}.",
                )
            path = Path(resources[name])
            if not path.is_file():
                return ExecutionResult(
                    success=False, error=f"Resource {name!r} points to a missing file: {path}"
                )
            paths.append(path)
        if not paths:
            return ExecutionResult(success=False, error="No resource_names given to upload.")
        await self.browser.locator(params.element_id).set_input_files(
            paths, timeout=ACTION_TIMEOUT_MS
        )
        return ExecutionResult(success=True)


BROWSER_TOOLS: tuple[type[AsyncTool], ...] = (
    AsyncNavigateTool, AsyncClickTool, AsyncFillTool, AsyncTypeTool, AsyncSelectTool,
    AsyncPressTool, AsyncScrollTool,
)


def allowed(url: str, origins: list[str] | None) -> bool:
    """Is ``url`` within one of ``origins`` (None allows any http(s) URL)?"""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "file", "about", "data"):
        return False
    if origins is None:
        return True
    origin = f"{parts.scheme}://{parts.netloc}"
    return any(origin == urlsplit(o)._replace(path="", query="", fragment="").geturl().rstrip("/")
               for o in origins)
