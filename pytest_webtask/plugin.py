"""The pytest plugin: options, hooks, the ``webtask`` fixtures, recipe bookkeeping, the report.

Loading it imports only what options and bookkeeping need (settings, names, errors): the
agent, Playwright glue, pydantic models and ``openai`` load when a fixture is first used.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from . import hooks, shard
from . import settings as settings_mod
from .errors import ConfigurationError, WebtaskError
from .export import options as export_options
from .naming import recipe_path, recipe_test_name
from .report import options as report_options
from .settings import Settings
from .unused import RecipeUse, RunTracker, prune_steps, unused_recipes

SETTINGS = pytest.StashKey[Settings]()
REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()
FLAVOUR = pytest.StashKey[str]()
RECIPE_OWNERS = pytest.StashKey[dict[tuple[str, Any], str]]()
RUN_BUDGET = pytest.StashKey[Any]()  # RunBudget, imported lazily
# A test's secrets (a Secrets object, filled as steps pass them) and its artifacts folder.
TEST_SECRETS = pytest.StashKey[Any]()
TEST_ARTIFACTS = pytest.StashKey[Path]()
# The test's pages showed a secret unmasked: its trace frames and videos are dropped.
TEST_EXPOSED = pytest.StashKey[bool]()


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    settings_mod.add_options(parser)
    shard.add_option(parser)
    export_options.add_option(parser)
    report_options.add_option(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "webtask(**settings): pytest-webtask settings for this test, e.g. "
        "max_steps=5, timeout=10; module, class and function markers merge, the closest "
        "winning (the command line still wins)")
    try:
        config.stash[SETTINGS] = settings_mod.build(config)
    except ConfigurationError as exc:
        raise pytest.UsageError(str(exc)) from None
    known = {"step", "plan"}
    for flavour in ("sync", "async"):
        for batch in config.hook.pytest_webtask_add_strategies(flavour=flavour):
            known |= set(batch or {})
    strategy = config.stash[SETTINGS].strategy
    if strategy not in known:
        raise pytest.UsageError(
            f"webtask strategy should be one of {', '.join(sorted(known))} (plugins add more "
            f"with the pytest_webtask_add_strategies hook); got {strategy!r}.")
    shard.configure(config)
    if config.stash[SETTINGS].connect or config.stash[SETTINGS].connect_cdp:
        from .browser import remote  # wraps pytest-playwright's fixtures: registered after it

        config.pluginmanager.register(remote, "webtask-remote")
    tracker = RunTracker()
    config.pluginmanager.register(tracker, "webtask-tracker")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(Reporter(config, tracker), "webtask-reporter")
        if export_options.export_dir(config) is not None:
            from .export.plugin import ExportSummary

            config.pluginmanager.register(ExportSummary(config), "webtask-export")
        if report_options.report_path(config) is not None:
            from .report.plugin import HtmlReportWriter

            config.pluginmanager.register(HtmlReportWriter(config), "webtask-html-report")


# -- fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def webtask_llm(pytestconfig: pytest.Config) -> Any:
    """The model used to record steps: by default ``OpenAILLM`` from the settings
    (``WEBTASK_MODEL``, ``OPENAI_BASE_URL``, ``OPENAI_API_KEY``). Override it in
    ``conftest.py`` to supply any LLM, ``ScriptedLLM`` included. Only requested when a step
    is recorded: a replay never builds or calls it."""
    from .llm.openai_llm import OpenAILLM

    s = pytestconfig.stash[SETTINGS]
    return OpenAILLM.from_env(model=s.model or None, base_url=s.base_url_llm or None,
                              timeout=s.llm_timeout, max_tokens=s.llm_max_tokens,
                              response_format=s.response_format)


@pytest.fixture
def webtask_recipe_path(request: pytest.FixtureRequest) -> Path:
    """Where this test's recipe lives: ``<test dir>/__webtask__/<module>/<test>.yaml``.
    Override it (in a ``conftest.py`` or a test module) to keep recipes elsewhere; unused
    recipes are only looked for in the default folders."""
    return recipe_path(Path(request.node.path), _recipe_name(request.node))


def _browser_of(node: Any) -> str | None:
    """pytest-playwright's ``browser_name`` parameter of the test, if it has one."""
    callspec = getattr(node, "callspec", None)
    browser = callspec.params.get("browser_name") if callspec is not None else None
    return browser if isinstance(browser, str) else None


def _recipe_name(node: Any) -> str:
    tail = node.nodeid.split("::", 1)[1] if "::" in node.nodeid else node.name
    return recipe_test_name(tail, _browser_of(node))


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
    browser = _browser_of(item)
    if browser is not None and browser != "chromium":
        command += f" --browser {shlex.quote(browser)}"
    return command


def _session(request: pytest.FixtureRequest, s: Settings) -> Any:
    from .steps.session import RecipeSession

    node = request.node
    name = _recipe_name(node)
    path = Path(request.getfixturevalue("webtask_recipe_path"))
    browser = _browser_of(node)
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


def _claim_flavour(request: pytest.FixtureRequest, flavour: str) -> None:
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
    from .agent.budget import RunBudget

    if RUN_BUDGET not in config.stash:
        s = config.stash[SETTINGS]
        config.stash[RUN_BUDGET] = RunBudget(max_calls=s.run_max_llm_calls,
                                             max_tokens=s.run_max_tokens)
    return config.stash[RUN_BUDGET]


def _pipeline(request: pytest.FixtureRequest, flavour: str,
              artifacts: Path | None) -> dict[str, Any]:
    """What ``WebTask``/``AsyncWebTask`` are built with, for this test."""
    from .agent.secrets import Secrets
    from .export import plugin as export_plugin
    from .report.plugin import report_for
    from .report.progress import for_terminal
    from .steps.observer import StepObserver
    from .steps.session import StepStats

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


def _finish(request: pytest.FixtureRequest, task: Any) -> None:
    from .export import plugin as export_plugin
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
    request.node.stash[TEST_EXPOSED] = bool(pipe.stats.exposed)
    props = request.node.user_properties
    props.append(("webtask", json.dumps(pipe.stats.as_dict())))
    if recorded is not None:
        props.append(("webtask_recipe_use", RecipeUse(
            str(session.path), len(session.steps) if passed and not session.dirty else None,
            len(recorded.steps)).to_json()))



@pytest.fixture
def webtask(request: pytest.FixtureRequest, page: Any, base_url: str | None,
            output_path: str) -> Iterator[Any]:
    """Plain-English steps on pytest-playwright's ``page``: ``goto``, ``do``, ``check``,
    ``extract`` (a ``pytest_webtask.WebTask``).

    Replays the test's recipe; records missing steps with ``webtask_llm`` when allowed."""
    from .steps._sync.webtask import WebTask

    _claim_flavour(request, "sync")
    task = WebTask(page, base_url=base_url or None,
                   **_pipeline(request, "sync", Path(output_path)))
    request.node.stash[TEST_SECRETS] = task.secrets
    request.node.stash[TEST_ARTIFACTS] = Path(output_path)
    yield task
    task.scrub_page()  # before pytest-playwright's end-of-test screenshot
    _finish(request, task)


try:
    import pytest_asyncio
except ImportError:  # pragma: no cover - the async fixture needs pytest-asyncio
    pytest_asyncio = None  # type: ignore[assignment]

if pytest_asyncio is not None:

    @pytest_asyncio.fixture
    async def async_webtask(request: pytest.FixtureRequest, browser_type_launch_args: dict,
                            browser_name: str | None, connect_options: dict | None,
                            output_path: str) -> AsyncIterator[Any]:
        """The ``webtask`` API with ``await`` (a ``pytest_webtask.AsyncWebTask``), on its own
        async Playwright browser with pytest-playwright's options (``--browser``,
        ``--headed``, launch args, ``connect_options``, ``--base-url``, ``--output``,
        ``--screenshot``/``--tracing``/``--video``), for pytest-asyncio suites. Not usable in
        the same run as sync pytest-playwright fixtures."""
        from .async_browser import BrowserOptions, TestBrowser
        from .steps._async.webtask import AsyncWebTask

        _claim_flavour(request, "async")
        try:
            base_url = request.getfixturevalue("base_url")  # pytest-base-url, or overridden
        except pytest.FixtureLookupError:
            base_url = None
        kwargs = _pipeline(request, "async", Path(output_path))
        browser = TestBrowser(BrowserOptions.for_test(
            request, browser_name=browser_name, launch_args=browser_type_launch_args,
            connect_options=connect_options, connect_cdp=kwargs["settings"].connect_cdp,
            base_url=base_url, output_path=output_path))
        try:
            task = AsyncWebTask(await browser.start(), base_url=base_url, **kwargs)
            request.node.stash[TEST_SECRETS] = task.secrets
            request.node.stash[TEST_ARTIFACTS] = Path(output_path)
            yield task
            await task.scrub_page()  # before the end-of-test screenshot
        finally:
            reports = request.node.stash.get(REPORTS, {})
            await browser.finish(failed=not ("call" in reports and reports["call"].passed))
        _finish(request, task)


# -- bookkeeping and report -----------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    secrets = item.stash.get(TEST_SECRETS, None)
    if secrets:  # the terminal, JUnit and every other report reader see masked text
        from .artifacts import redact_report

        redact_report(report, secrets)
    item.stash.setdefault(REPORTS, {})[report.when] = report
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


class Reporter:
    """Sums each test's step counts (they travel in ``user_properties`` as JSON text, so this
    works on the xdist controller and in JUnit XML) and writes the terminal summary."""

    def __init__(self, config: pytest.Config, tracker: RunTracker) -> None:
        from .steps.session import StepStats

        self.config = config
        self.tracker = tracker
        self.stats = StepStats()
        self.recipe_names: dict[str, str] = {}  # node id -> recipe name, from the fixture
        self.uses: list[RecipeUse] = []
        self.used_paths: set[str] = set()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        for key, value in report.user_properties:
            if key == "webtask_recipe" and isinstance(value, str):
                self.recipe_names[report.nodeid] = value
            elif key == "webtask_recipe_path" and isinstance(value, str):
                self.used_paths.add(value)
            elif key == "webtask" and isinstance(value, str):
                try:
                    counts = json.loads(value)
                except ValueError:
                    continue
                for name, count in counts.items():
                    setattr(self.stats, name, getattr(self.stats, name) + count)
            elif key == "webtask_recipe_use" and isinstance(value, str):
                use = RecipeUse.from_json(value)
                if use is not None:
                    self.uses.append(use)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        config = self.config
        st = self.stats
        partial = self.tracker.incomplete()
        unused: list[Path] = []
        steps = [u for u in self.uses if u.unused_steps]
        if not partial:
            unused = unused_recipes(config.rootpath, self.tracker.selected, self.recipe_names,
                                    self.used_paths)
        prune = config.getoption("webtask_prune")
        if not (st.replayed or st.recorded or st.healed or st.failed or unused or st.weak
                or st.unverified or st.exposed or steps or prune):
            return
        tr = terminalreporter
        tr.section("webtask")
        healed = f"{st.healed} healed, " if st.healed or st.heals else ""
        tr.write_line(f"{st.replayed} step(s) replayed, {st.recorded} recorded, {healed}"
                      f"{st.failed} failed")
        if st.llm_calls and st.prompt_tokens + st.completion_tokens:
            tr.write_line(f"LLM: {st.llm_calls} call(s), {st.prompt_tokens} prompt + "
                          f"{st.completion_tokens} completion tokens")
        elif st.llm_calls:
            tr.write_line(f"LLM: {st.llm_calls} call(s) (the model reported no token counts)")
        else:
            tr.write_line("LLM: 0 calls")
        if st.heals or st.heal_llm_calls:
            tr.write_line(f"Heals: {len(st.heals)} accepted, {st.heal_llm_calls} model call(s) "
                          "spent healing; what changed (checks untouched):")
            for heal in st.heals:
                for line in heal.splitlines():
                    tr.write_line(f"  {line}")
        if st.weak:
            tr.write_line(f"{len(st.weak)} recorded step(s) have no check that discriminates "
                          "(every check already held before the step ran, so a replay can't "
                          "tell whether the step worked); add a check(...) after each, or "
                          "run with --webtask-strict to fail them:")
            for where in st.weak:
                tr.write_line(f"  {where}")
        if st.unverified:
            tr.write_line(f"{len(st.unverified)} replayed step(s) verified nothing (the recipe "
                          "step has no check, or only checks that held before it, so it "
                          "passes whatever the page did); record each again or add a "
                          "check(...) after it, or run with --webtask-strict to fail them:")
            for where in st.unverified:
                tr.write_line(f"  {where}")
        if st.exposed:
            tr.write_line(f"{len(st.exposed)} element(s) showed a secret that was not masked "
                          "before it was drawn (text the page wrote, or a field no step typed "
                          "it into), so earlier pictures may show it: the screencast frames of "
                          "these tests' traces were dropped and their videos deleted:")
            for where in st.exposed:
                tr.write_line(f"  {where}")
        if prune and partial:
            tr.write_line(f"--webtask-prune: nothing deleted, this run is not the whole suite "
                          f"({partial}); prune on a run of every test.")
        if unused:
            verb = "deleted" if prune else "unused: their tests are gone or renamed " \
                "(--webtask-prune deletes them)"
            tr.write_line(f"{len(unused)} recipe(s) {verb}:")
            for path in unused:
                tr.write_line(f"  {self._shown(path)}")
                if prune:
                    try:
                        path.unlink(missing_ok=True)
                    except OSError as exc:
                        tr.write_line(f"    could not delete it: {exc}")
        if steps:
            verb = "cut" if prune and not partial else \
                "have steps at their end that their passing test no longer runs" + \
                ("" if partial else " (--webtask-prune cuts them)")
            tr.write_line(f"{len(steps)} recipe(s) {verb}:")
            for use in steps:
                tr.write_line(f"  {self._shown(Path(use.path))}: {use.unused_steps} unused "
                              "step(s)")
                if prune and not partial:
                    try:
                        prune_steps(use)
                    except (OSError, WebtaskError) as exc:
                        tr.write_line(f"    could not cut it: {exc}")

    def _shown(self, path: Path) -> Path:
        root = self.config.rootpath
        return path.relative_to(root) if path.is_relative_to(root) else path
