"""AsyncTool, the base of every tool, and AsyncScene, what an action acts on. The built-in
tools are in element_tools.py and page_tools.py; the registry lists them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Locator, Page

from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser._async.watch import AsyncPageWatch
from ...browser.origins import allowed
from ...browser.secret_fields import HIDE_FIELD_JS
from ...types import ExecutionResult
from ..spec import ToolSpec
from ..task import TaskValues

ACTION_TIMEOUT_MS = 5000  # how long an action waits for its element while recording


def _unchanged(value: str) -> str:
    return value


@dataclass
class AsyncScene:
    """What an action acts on, the same when recording and on replay: the page, its target
    (found by element id when recording, by fingerprint on replay) and what the task gives."""

    page: Page
    locator: Locator | None = None
    to_locator: Locator | None = None  # a drag's drop target
    substitute: Callable[[str], str] = _unchanged  # fills in ``{name}`` placeholders
    resources: Mapping[str, str] = field(default_factory=dict)
    allowed_origins: list[str] | None = None
    timeout_ms: float = ACTION_TIMEOUT_MS
    watch: AsyncPageWatch | None = None  # answers dialogs
    replay: bool = False  # a recorded action again: what it chose was there when recorded


class AsyncTool(ToolSpec):
    """A tool: a name, a description, a parameter model (``ToolSpec``), and ``perform``.

    ``perform`` is what the tool does to the page, the one code for recording (``execute``
    calls it) and replay (the recipe replayer calls it with targets found by fingerprint).
    A tool from a plugin (the ``pytest_webtask_add_tools`` hook) defines a static
    ``act(page, params, locator, substitute) -> ExecutionResult``, which ``perform`` calls.
    """

    def __init__(self, browser: AsyncLLMBrowser, task: TaskValues | None = None,
                 allowed_origins: list[str] | None = None) -> None:
        self.browser = browser
        self.task = task
        self.allowed_origins = allowed_origins

    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        act = getattr(cls, "act", None)
        if act is None:
            return ExecutionResult(success=False, error=f"{cls.name} cannot act on a page.")
        return await act(scene.page, params, scene.locator, scene.substitute)  # type: ignore[no-any-return]

    async def execute(self, params: Any) -> ExecutionResult:
        element_id = getattr(params, "element_id", None)
        locator = self.browser.locator(element_id) if element_id else None
        to_id = getattr(params, "to_element_id", None)
        values = params.model_dump()
        if locator is not None and self.task is not None \
                and self.task.names_secret(str(values.get("value", ""))):
            # masked before the secret is typed: no picture of the page ever shows it
            await locator.evaluate(HIDE_FIELD_JS, timeout=ACTION_TIMEOUT_MS)
        scene = AsyncScene(
            self.browser.page, locator=locator,
            to_locator=self.browser.locator(to_id) if to_id else None,
            substitute=self.task.substitute if self.task else _unchanged,
            resources=self.task.resources if self.task else {},
            allowed_origins=self.allowed_origins, watch=self.browser.watch)
        result = await self.perform(values, scene)
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
