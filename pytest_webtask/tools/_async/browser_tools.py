"""AsyncTool, the base of every tool, and AsyncScene, what an action acts on. The built-in
tools are in element_tools.py and page_tools.py; the registry lists them. A plugin's tool is
the same kind of class: it defines ``perform(params, scene)`` as the built-ins do."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser._async.watch import AsyncPageWatch
from ...browser.origins import allowed
from ...browser.secret_fields import HIDE_FIELD_JS
from ...types import ExecutionResult, Fingerprint
from ..spec import ToolSpec
from ..task import TaskValues

ACTION_TIMEOUT_MS = 5000  # how long an action waits for its element while recording


ACT_DEPRECATED = (
    "{tool} defines act(page, params, locator, substitute), which is deprecated: tools define "
    "perform(params, scene) as the built-in ones do. Replace its 'def act(page, params, "
    "locator, substitute):' line with 'def perform(params, scene):' and begin the body with "
    "'page, locator, substitute = scene.page, scene.locator, scene.substitute' "
    "(docs/extending.md).")


def _deprecated_act(tool: type, act: Callable[..., Any]) -> None:
    """The DeprecationWarning for a tool that defines ``act``, at the line that defines it."""
    message = ACT_DEPRECATED.format(tool=tool.__qualname__)
    code = getattr(act, "__code__", None)
    if code is None:
        warnings.warn(message, DeprecationWarning, stacklevel=3)
        return
    warnings.warn_explicit(message, DeprecationWarning, code.co_filename, code.co_firstlineno,
                           module=tool.__module__, registry=_WARNED)


_WARNED: dict[Any, Any] = {}  # the warnings registry: once per tool, as warn's would be


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
    # (read when a scene is made: a test may shorten it, as the module's value)
    timeout_ms: float = field(default_factory=lambda: ACTION_TIMEOUT_MS)
    watch: AsyncPageWatch | None = None  # answers dialogs
    replay: bool = False  # a recorded action again: what it chose was there when recorded
    # the target found again by its fingerprint, for an action on it several times in a row
    # (a re-render replaces the element an id named); on replay ``locator`` is already that
    again: Locator | None = None
    # replay through the selector engine: the locators find their targets by fingerprint at
    # every query (a control the app re-renders is found again)
    by_fingerprint: bool = False


async def found_again(page: Page, fp: Fingerprint) -> Locator:
    """The element ``fp`` describes, found again each time the locator is used (an action
    on it several times in a row, a re-render replacing it between them): the replay's
    selector engine where it is registered (the plugin's runs), else its role and name, or
    its CSS path (same-document elements only)."""
    from ...browser.engine import selector
    from ...browser.engine import unknown as unknown_engine

    found = page.locator(selector(fp))
    try:
        await found.count()
        return found
    except PlaywrightError as exc:
        if not unknown_engine(exc):
            raise
    if fp.role and fp.name:
        return page.get_by_role(fp.role, name=fp.name, exact=True)  # type: ignore[arg-type]
    return page.locator(fp.css) if fp.css else page.locator(f"xpath={fp.xpath}")


class AsyncTool(ToolSpec):
    """A tool: a name, a description, a parameter model (``ToolSpec``), and ``perform``.

    ``perform(params, scene) -> ExecutionResult`` is what the tool does to the page, the one
    code for recording (``execute`` calls it) and replay (the recipe replayer calls it with
    targets found by fingerprint): ``params`` are the action's parameters, ``scene`` the page,
    the target's locator and how to fill in ``{placeholders}``. Built-in and plugin tools
    (the ``pytest_webtask_add_tools`` hook) alike define it; ``code`` writes an action of the
    tool into an exported test.
    """

    def __init__(self, browser: AsyncLLMBrowser, task: TaskValues | None = None,
                 allowed_origins: list[str] | None = None) -> None:
        self.browser = browser
        self.task = task
        self.allowed_origins = allowed_origins

    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        """What the tool does to ``scene``'s page with ``params``; a tool overrides it."""
        act = getattr(cls, "act", None)
        if act is None:
            return ExecutionResult(success=False, error=f"{cls.name} cannot act on a page.")
        # the protocol before perform: a plugin tool's static act(page, params, locator,
        # substitute), kept working until its authors make the change the warning names
        _deprecated_act(cls, act)
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
        again = None
        if locator is not None and element_id and int(values.get("times") or 1) > 1:
            again = await found_again(self.browser.page,
                                      await self.browser.describe(element_id))
        scene = AsyncScene(
            self.browser.page, locator=locator, again=again,
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
