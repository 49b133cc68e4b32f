"""How a test's ``WebTask`` is put together: its settings (markers merged), its recipe
session, its model, the tools and strategies plugins add, the listeners that hear its steps,
and what is kept when it ends."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..errors import ConfigurationError, WebtaskError
from ..recipes.naming import recipe_test_name
from ..settings import Settings
from .keys import FLAVOUR, RECIPE_OWNERS, REPORTS, RUN_BUDGET, SETTINGS, TEST_EXPOSED
from .unused import RecipeUse

if TYPE_CHECKING:
    from _pytest.nodes import Node
    from playwright.async_api import Page as AsyncPage
    from playwright.sync_api import Page

    from ..agent.budget import RunBudget
    from ..llm.base import LLM
    from ..steps._async.pipeline import AsyncPipeline
    from ..steps._sync.pipeline import Pipeline
    from ..steps.listeners import StepListener
    from ..steps.services import StepServices, TestInfo
    from ..steps.session import RecipeSession
    from ..tools.spec import ToolSpec
    from ..types import Secrets


def browser_of(node: Node) -> str | None:
    """pytest-playwright's ``browser_name`` parameter of the test, if it has one."""
    callspec = getattr(node, "callspec", None)
    browser = callspec.params.get("browser_name") if callspec is not None else None
    return browser if isinstance(browser, str) else None


def recipe_name(node: Node) -> str:
    tail = node.nodeid.split("::", 1)[1] if "::" in node.nodeid else node.name
    return recipe_test_name(tail, browser_of(node))


def _test_settings(request: pytest.FixtureRequest) -> Settings:
    base = request.config.stash[SETTINGS]
    try:
        return base.with_markers(list(request.node.iter_markers("webtask")))
    except ConfigurationError as exc:
        raise pytest.fail.Exception(str(exc), pytrace=False) from None  # printed once


def fix_command(config: pytest.Config, item: pytest.Item) -> str:
    """``pytest --webtask-record '<test>'``, runnable from where pytest was started: the
    test's file relative to there, its node id's ``::`` part, and ``--browser`` when the
    test ran on a browser that is not the default."""
    _path, sep, rest = item.nodeid.partition("::")
    where = config.invocation_params.dir
    try:
        shown = os.path.relpath(item.path, where)
    except ValueError:  # another drive
        shown = str(item.path)
    command = f"pytest --webtask-record {shlex.quote(shown.replace(os.sep, '/') + sep + rest)}"
    browser = browser_of(item)
    if browser is not None and browser != "chromium":
        command += f" --browser {shlex.quote(browser)}"
    return command


def _session(request: pytest.FixtureRequest, s: Settings) -> RecipeSession:
    from ..steps.session import RecipeSession

    node = request.node
    name = recipe_name(node)
    path = Path(request.getfixturevalue("webtask_recipe_path"))
    browser = browser_of(node)
    # Two tests must never share a recipe (they would overwrite each other). Names are made
    # injective, but a case-insensitive file system can still fold two of them into one.
    owners = request.session.stash.setdefault(RECIPE_OWNERS, {})
    key = (str(path).lower(), browser)
    other = owners.setdefault(key, node.nodeid)
    if other != node.nodeid:
        pytest.fail(f"{node.nodeid} and {other} would share the recipe file {path}: rename "
                    "one of the tests (or its parametrize id).", pytrace=False)
    node.user_properties.append(("webtask_recipe", name))
    node.user_properties.append(("webtask_recipe_path", str(path)))
    return RecipeSession(path=path, test_name=name, record_all=s.mode == "record")


def _llm_provider(request: pytest.FixtureRequest) -> Callable[[], LLM]:
    def provide() -> LLM:
        try:
            llm: LLM = request.getfixturevalue("webtask_llm")
            return llm
        except WebtaskError as exc:
            raise ConfigurationError(
                f"no model is configured: {exc} (or override the webtask_llm fixture)"
            ) from None
    return provide


def claim_flavour(request: pytest.FixtureRequest, flavour: str) -> None:
    stash = request.session.stash
    other = stash.get(FLAVOUR, flavour)
    if other != flavour:
        names = {"sync": "webtask", "async": "async_webtask"}
        pytest.fail(
            f"{names[flavour]} cannot run in the same pytest process as {names[other]}: "
            "pytest-playwright's sync fixtures keep an event loop running. Run async suites "
            "in their own pytest invocation (for example, a separate folder).",
            pytrace=False,
        )
    stash[FLAVOUR] = flavour


def _extensions(hook: Any, flavour: str) -> tuple[list[type[ToolSpec]], dict[str, Any]]:
    """Tools and strategies that plugins and conftests add (hooks). ``hook`` is a test's
    ``ihook`` (so the conftests of its folder count) or the config's."""
    if flavour == "sync":
        from ..tools._sync.browser_tools import Tool as base
    else:
        from ..tools._async.browser_tools import AsyncTool as base  # type: ignore[assignment]
    tools = [t for batch in hook.pytest_webtask_add_tools(flavour=flavour) for t in batch or []]
    for tool in tools:
        if not (isinstance(tool, type) and _performs(tool, base)
                and all(isinstance(getattr(tool, a, None), str) for a in ("name", "description"))
                and hasattr(tool, "params_class")):
            raise ConfigurationError(
                f"pytest_webtask_add_tools returned {tool!r}: a tool is a subclass of "
                f"pytest_webtask.{base.__name__} with a name, a description, a params_class "
                "and perform(params, scene) (see docs/extending.md).")
    strategies: dict[str, Any] = {}
    for batch in hook.pytest_webtask_add_strategies(flavour=flavour):
        strategies.update(batch or {})
    return tools, strategies


def _performs(tool: type, base: type) -> bool:
    """Whether ``tool`` is a ``base`` with a ``perform`` (or the older ``act``) of its own or
    a built-in tool's, not ``base``'s. Compared by name: a test runner that imports the
    package again (pytester in process) makes a second ``base`` class."""
    def same(cls: type) -> bool:
        return (cls.__module__, cls.__qualname__) == (base.__module__, base.__qualname__)

    if not any(same(cls) for cls in tool.__mro__):
        return False
    first = next(cls for cls in tool.__mro__ if "perform" in vars(cls) or "act" in vars(cls))
    return not same(first)


def _run_budget(config: pytest.Config) -> RunBudget:
    from ..agent.budget import RunBudget

    if RUN_BUDGET not in config.stash:
        s = config.stash[SETTINGS]
        config.stash[RUN_BUDGET] = RunBudget(max_calls=s.run_max_llm_calls,
                                             max_tokens=s.run_max_tokens)
    budget: RunBudget = config.stash[RUN_BUDGET]
    return budget


@dataclass
class PipelineParts:
    """What a test's pipeline is built with, before its page exists (the async fixture
    starts its browser with the settings)."""

    flavour: str
    session: RecipeSession
    settings: Settings
    services: StepServices
    test: TestInfo
    listeners: list[StepListener]
    secrets: Secrets

    def open(self, page: Page) -> Pipeline:
        """The test's ``Pipeline`` on ``page`` (the sync flavour)."""
        from ..steps._sync.pipeline import Pipeline

        return Pipeline(page, self.session, self.settings, services=self.services,
                        test=self.test, listeners=self.listeners, secrets=self.secrets)

    def open_async(self, page: AsyncPage) -> AsyncPipeline:
        """The test's ``AsyncPipeline`` on ``page`` (the async flavour)."""
        from ..steps._async.pipeline import AsyncPipeline

        return AsyncPipeline(page, self.session, self.settings, services=self.services,
                             test=self.test, listeners=self.listeners, secrets=self.secrets)


def pipeline_parts(request: pytest.FixtureRequest, flavour: str, base_url: str | None,
                   artifacts: Path | None) -> PipelineParts:
    """What ``WebTask``/``AsyncWebTask``'s pipeline is built with, for this test."""
    from ..steps.services import StepServices, TestInfo
    from ..types import Secrets
    from .step_listeners import ExportListener, HookRelay, LiveLine, ReportListener, StepLines

    item = request.node
    s = _test_settings(request)
    try:
        tools, strategies = _extensions(item.ihook, flavour)
    except ConfigurationError as exc:
        raise pytest.fail.Exception(str(exc), pytrace=False) from None
    session = _session(request, s)
    secrets = Secrets()  # every secret the test's steps pass, masked everywhere from then on
    config = request.config
    listeners = [LiveLine.for_terminal(config),
                 ExportListener.for_test(request, base_url, session.test_name, session.path,
                                         {t.name: t for t in tools}),
                 ReportListener.for_test(request, secrets), StepLines.for_terminal(config),
                 HookRelay(item)]
    return PipelineParts(
        flavour, session, s,
        StepServices(llm=_llm_provider(request), run_budget=_run_budget(config),
                     strategies=strategies, tools=tools),
        TestInfo(base_url=base_url, fix_command=fix_command(config, item),
                 artifacts=artifacts,
                 screenshot=_option(config, "screenshot", "off") != "off"),
        [listener for listener in listeners if listener is not None], secrets)


def _option(config: pytest.Config, name: str, default: Any) -> Any:
    """A pytest-playwright option, or ``default`` where that plugin is not loaded."""
    try:
        return config.getoption(name)
    except ValueError:
        return default


def finish(request: pytest.FixtureRequest, pipe: Pipeline | AsyncPipeline) -> None:
    """The test is over: the pipeline stores its recipe (and the listeners write the export
    and the report); the test's counts and recipe use go to its user properties."""
    reports = request.node.stash.get(REPORTS, {})
    passed = "call" in reports and reports["call"].passed
    session = pipe.session
    try:
        recorded = session.recipe() if not session.record_all else None
    except WebtaskError:  # a broken recipe: the test has already failed saying so
        recorded = None
    pipe.finish(passed)
    # a page showed a secret unmasked: the test's trace frames and videos are dropped
    request.node.stash[TEST_EXPOSED] = bool(pipe.stats.exposed)
    props = request.node.user_properties
    props.append(("webtask", json.dumps(pipe.stats.as_dict())))
    if recorded is not None:
        props.append(("webtask_recipe_use", RecipeUse(
            str(session.path), len(session.steps) if passed and not session.dirty else None,
            len(recorded.steps)).to_json()))
