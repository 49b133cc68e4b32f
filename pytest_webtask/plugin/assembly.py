"""How a test's ``WebTask`` is put together: its settings (markers merged), its recipe
session, its model, the tools and strategies plugins add, the listeners that hear its steps,
and what is kept when it ends."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from ..errors import ConfigurationError, WebtaskError
from ..recipes.naming import recipe_test_name
from ..settings import Settings
from .keys import FLAVOUR, RECIPE_OWNERS, REPORTS, RUN_BUDGET, SETTINGS
from .unused import RecipeUse


def browser_of(node: Any) -> str | None:
    """pytest-playwright's ``browser_name`` parameter of the test, if it has one."""
    callspec = getattr(node, "callspec", None)
    browser = callspec.params.get("browser_name") if callspec is not None else None
    return browser if isinstance(browser, str) else None


def recipe_name(node: Any) -> str:
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


def _session(request: pytest.FixtureRequest, s: Settings) -> Any:
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


def _llm_provider(request: pytest.FixtureRequest) -> Callable[[], Any]:
    def provide() -> Any:
        try:
            return request.getfixturevalue("webtask_llm")
        except WebtaskError as exc:
            raise ConfigurationError(
                f"no model is configured: {exc} (or override the webtask_llm fixture)"
            ) from None
    return provide


def _reporter(config: pytest.Config) -> Callable[[str], None]:
    """With -v, a live line per step (not from xdist workers: they have no terminal)."""
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if terminal is None or config.get_verbosity() < 1 or hasattr(config, "workerinput"):
        return lambda line: None

    def write(line: str) -> None:
        with capture.global_and_fixture_disabled() if capture else nullcontext():
            terminal.write_line("    " + line)
    return write


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


def _extensions(hook: Any, flavour: str) -> tuple[list[type], dict[str, Any]]:
    """Tools and strategies that plugins and conftests add (hooks). ``hook`` is a test's
    ``ihook`` (so the conftests of its folder count) or the config's."""
    tools = [t for batch in hook.pytest_webtask_add_tools(flavour=flavour) for t in batch or []]
    for tool in tools:
        if not (isinstance(tool, type) and all(isinstance(getattr(tool, a, None), str)
                                               for a in ("name", "description"))
                and hasattr(tool, "params_class") and hasattr(tool, "act")):
            raise ConfigurationError(
                f"pytest_webtask_add_tools returned {tool!r}: a tool is a class with a name, "
                "a description, a params_class and a static act(page, params, locator, "
                "substitute) (see pytest_webtask.Tool).")
    strategies: dict[str, Any] = {}
    for batch in hook.pytest_webtask_add_strategies(flavour=flavour):
        strategies.update(batch or {})
    return tools, strategies


def _run_budget(config: pytest.Config) -> Any:
    from ..agent.budget import RunBudget

    if RUN_BUDGET not in config.stash:
        s = config.stash[SETTINGS]
        config.stash[RUN_BUDGET] = RunBudget(max_calls=s.run_max_llm_calls,
                                             max_tokens=s.run_max_tokens)
    return config.stash[RUN_BUDGET]


def pipeline_parts(request: pytest.FixtureRequest, flavour: str,
              artifacts: Path | None) -> dict[str, Any]:
    """What ``WebTask``/``AsyncWebTask`` are built with, for this test."""
    from ..report.progress import for_terminal
    from ..steps.observer import StepObserver
    from ..steps.session import StepStats
    from ..types import Secrets
    from . import export as export_plugin
    from .report import report_for

    item = request.node
    s = _test_settings(request)
    try:
        tools, strategies = _extensions(item.ihook, flavour)
    except ConfigurationError as exc:
        raise pytest.fail.Exception(str(exc), pytrace=False) from None
    hook = request.config.hook
    observer = StepObserver(
        done=lambda outcome: hook.pytest_webtask_step_done(item=item, outcome=outcome),
        failed=lambda kind, text, message: hook.pytest_webtask_step_failed(
            item=item, kind=kind, text=text, message=message))
    secrets = Secrets()  # every secret the test's steps pass, masked everywhere from then on
    return dict(session=_session(request, s), settings=s, llm_provider=_llm_provider(request),
                stats=StepStats(), report=_reporter(request.config),
                artifacts=(lambda: artifacts) if artifacts is not None else None,
                run_budget=_run_budget(request.config), strategies=strategies, tools=tools,
                observer=observer, fix_command=fix_command(request.config, item),
                screenshot=_option(request.config, "screenshot", "off") != "off",
                trail=export_plugin.trail_for(request.config),
                progress=for_terminal(request.config), secrets=secrets,
                html_report=report_for(request, secrets))


def _option(config: pytest.Config, name: str, default: Any) -> Any:
    """A pytest-playwright option, or ``default`` where that plugin is not loaded."""
    try:
        return config.getoption(name)
    except ValueError:
        return default


def finish(request: pytest.FixtureRequest, task: Any) -> None:
    from . import export as export_plugin
    reports = request.node.stash.get(REPORTS, {})
    passed = "call" in reports and reports["call"].passed
    pipe = task._pipe
    session = pipe.session
    try:
        recorded = session.recipe() if not session.record_all else None
    except WebtaskError:  # a broken recipe: the test has already failed saying so
        recorded = None
    session.finish(passed)
    export_plugin.finish(request, pipe.trail, passed, pipe.base_url,
                         session.test_name)
    pipe.html_report.save("passed" if passed else "failed")
    props = request.node.user_properties
    props.append(("webtask", json.dumps(pipe.stats.as_dict())))
    if recorded is not None:
        props.append(("webtask_recipe_use", RecipeUse(
            str(session.path), len(session.steps) if passed and not session.dirty else None,
            len(recorded.steps)).to_json()))
