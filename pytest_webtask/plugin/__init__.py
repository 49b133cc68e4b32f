"""The pytest plugin (entry point ``pytest11: webtask``): the hooks, here; the options
(``webtask_options``), the fixtures (``fixtures``, ``remote_browser``, ``launch``), how a
test's steps are put together (``assembly``), run bookkeeping (``unused``, ``shard``) and the
terminal summary (``summary``).

Loading it imports only what options and bookkeeping need (settings, names, errors): the
agent, Playwright glue, pydantic models and ``openai`` load when a fixture is first used.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import hookspecs
from .fixtures import async_webtask, webtask, webtask_llm, webtask_recipe_path
from .keys import CHROMIUM, REPORTS, SETTINGS, TEST_ARTIFACTS, TEST_EXPOSED, TEST_SECRETS
from .shard import configure as configure_shard
from .sign_in import _webtask_fresh_sign_ins, tell_sign_ins, webtask_sign_in
from .summary import TerminalSummary
from .unused import RunTracker
from .webtask_options import add_options, build, export_dir, report_path

__all__ = ["async_webtask", "webtask", "webtask_llm", "webtask_recipe_path",
           "webtask_sign_in", "_webtask_fresh_sign_ins"]  # the fixtures


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "webtask(**settings): pytest-webtask settings for this test, e.g. "
        "max_steps=5, timeout=10; module, class and function markers merge, the closest "
        "winning (the command line still wins)")
    settings = config.stash[SETTINGS] = build(config)
    known = {"step", "plan"}
    for flavour in ("sync", "async"):
        for batch in config.hook.pytest_webtask_add_strategies(flavour=flavour):
            known |= set(batch or {})
    if settings.strategy not in known:
        raise pytest.UsageError(
            f"webtask strategy should be one of {', '.join(sorted(known))} (plugins add more "
            f"with the pytest_webtask_add_strategies hook); got {settings.strategy!r}.")
    configure_shard(config)
    from . import launch  # a Chromium for pytest-playwright when Playwright's is missing

    launch.configure(config)
    from . import base_url  # pytest-playwright's, without its pytest 9 deprecation warning

    base_url.configure(config)
    if settings.connect or settings.connect_cdp:
        from . import remote_browser  # wraps pytest-playwright's fixtures: registered after it

        config.pluginmanager.register(remote_browser, "webtask-remote")
    tracker = RunTracker()
    config.pluginmanager.register(tracker, "webtask-tracker")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(TerminalSummary(config, tracker), "webtask-summary")
        if export_dir(config) is not None:
            from .export_summary import ExportSummary

            config.pluginmanager.register(ExportSummary(config), "webtask-export")
        if report_path(config) is not None:
            from .report_writer import HtmlReportWriter

            config.pluginmanager.register(HtmlReportWriter(config), "webtask-html-report")


def pytest_report_header(config: pytest.Config) -> str | None:
    choice = config.stash.get(CHROMIUM, None)  # which Chromium, when not Playwright's own
    return f"webtask: {choice.note}" if choice is not None and choice.note else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    secrets = item.stash.get(TEST_SECRETS, None)
    if secrets:  # the terminal, JUnit and every other report reader see masked text
        from .artifacts import redact_report

        redact_report(report, secrets)
    item.stash.setdefault(REPORTS, {})[report.when] = report
    tell_sign_ins(item, report)  # a sign-in this test's set-up ran: its counts, its recipe
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    result = yield
    secrets = item.stash.get(TEST_SECRETS, None)
    folder = item.stash.get(TEST_ARTIFACTS, None)
    if secrets and folder is not None and folder.is_dir():
        # pytest-playwright has moved its traces here by now
        from .artifacts import drop_pictures, scrub_folder

        scrub_folder(folder, secrets)
        if item.stash.get(TEST_EXPOSED, False):
            drop_pictures(folder)
    return result
