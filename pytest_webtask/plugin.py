"""The pytest plugin: options, the ``webtask`` fixtures, recipe bookkeeping, the report."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from . import settings as settings_mod
from .errors import ConfigurationError, WebtaskError
from .naming import recipe_file_stem, recipe_test_name
from .recipes.session import RecipeSession, StepStats
from .recipes.storage import RECIPE_DIR, recipe_path
from .settings import Settings

SETTINGS = pytest.StashKey[Settings]()
REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()
FLAVOUR = pytest.StashKey[str]()
RECIPE_OWNERS = pytest.StashKey[dict[tuple[str, Any], str]]()
RUN_BUDGET = pytest.StashKey[Any]()  # RunBudget, imported lazily
# A test's secrets (a Secrets object, filled as steps pass them) and its artifacts folder.
TEST_SECRETS = pytest.StashKey[Any]()
TEST_ARTIFACTS = pytest.StashKey[Path]()


def pytest_addoption(parser: pytest.Parser) -> None:
    settings_mod.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "webtask(**settings): pytest-webtask settings for this test, e.g. "
        "max_steps=5, timeout=10 (the command line still wins)")
    try:
        config.stash[SETTINGS] = settings_mod.build(config)
    except ConfigurationError as exc:
        raise pytest.UsageError(str(exc)) from None
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(Reporter(config), "webtask-reporter")


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


def _test_settings(request: pytest.FixtureRequest) -> Settings:
    base = request.config.stash[SETTINGS]
    try:
        return base.with_marker(request.node.get_closest_marker("webtask"))
    except ConfigurationError as exc:
        raise pytest.fail.Exception(str(exc), pytrace=False) from None  # printed once


def _session(request: pytest.FixtureRequest, s: Settings) -> RecipeSession:
    node = request.node
    tail = node.nodeid.split("::", 1)[1] if "::" in node.nodeid else node.name
    callspec = getattr(node, "callspec", None)
    browser = callspec.params.get("browser_name") if callspec is not None else None
    name = recipe_test_name(tail, browser if isinstance(browser, str) else None)
    path = recipe_path(Path(node.path), name)
    # Two tests must never share a recipe (they would overwrite each other). Names are made
    # injective, but a case-insensitive file system can still fold two of them into one.
    owners = request.session.stash.setdefault(RECIPE_OWNERS, {})
    key = (str(path).lower(), browser)
    other = owners.setdefault(key, node.nodeid)
    if other != node.nodeid:
        pytest.fail(f"{node.nodeid} and {other} would share the recipe file {path}: rename "
                    "one of the tests (or its parametrize id).", pytrace=False)
    node.user_properties.append(("webtask_recipe", name))
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


def _run_budget(config: pytest.Config) -> Any:
    from .agent.budget import RunBudget

    if RUN_BUDGET not in config.stash:
        s = config.stash[SETTINGS]
        config.stash[RUN_BUDGET] = RunBudget(max_calls=s.run_max_llm_calls,
                                             max_tokens=s.run_max_tokens)
    return config.stash[RUN_BUDGET]


def _finish(request: pytest.FixtureRequest, session: RecipeSession, stats: StepStats) -> None:
    reports = request.node.stash.get(REPORTS, {})
    passed = "call" in reports and reports["call"].passed
    session.finish(passed)
    request.node.user_properties.append(("webtask", stats.as_dict()))


@pytest.fixture
def webtask(request: pytest.FixtureRequest, page: Any, base_url: str | None,
            output_path: str) -> Iterator[Any]:
    """Plain-English steps on pytest-playwright's ``page``: ``goto``, ``do``, ``check``.

    Replays the test's recipe; records missing steps with ``webtask_llm`` when allowed."""
    from .recipes._sync.webtask import WebTask

    _claim_flavour(request, "sync")
    s = _test_settings(request)
    session = _session(request, s)
    stats = StepStats()
    task = WebTask(page, session=session, settings=s, base_url=base_url or None,
                   llm_provider=_llm_provider(request), stats=stats,
                   report=_reporter(request.config), artifacts=lambda: Path(output_path),
                   run_budget=_run_budget(request.config))
    request.node.stash[TEST_SECRETS] = task.secrets
    request.node.stash[TEST_ARTIFACTS] = Path(output_path)
    yield task
    task.scrub_page()  # before pytest-playwright's end-of-test screenshot
    _finish(request, session, stats)


try:
    import pytest_asyncio
except ImportError:  # pragma: no cover - the async fixture needs pytest-asyncio
    pytest_asyncio = None  # type: ignore[assignment]

if pytest_asyncio is not None:

    @pytest_asyncio.fixture
    async def async_webtask(request: pytest.FixtureRequest,
                            browser_type_launch_args: dict) -> AsyncIterator[Any]:
        """The ``webtask`` API with ``await``, on its own async Playwright browser, for
        pytest-asyncio suites. Not usable in the same run as sync pytest-playwright
        fixtures."""
        from playwright.async_api import async_playwright

        from .recipes._async.webtask import AsyncWebTask

        _claim_flavour(request, "async")
        s = _test_settings(request)
        session = _session(request, s)
        stats = StepStats()
        try:
            base_url = request.getfixturevalue("base_url")  # pytest-base-url, or overridden
        except pytest.FixtureLookupError:
            base_url = None
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(**browser_type_launch_args)
            page = await browser.new_page()
            task = AsyncWebTask(page, session=session, settings=s, base_url=base_url,
                                llm_provider=_llm_provider(request), stats=stats,
                                report=_reporter(request.config),
                                run_budget=_run_budget(request.config))
            request.node.stash[TEST_SECRETS] = task.secrets
            yield task
            await browser.close()
        _finish(request, session, stats)


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
        from .artifacts import scrub_folder

        scrub_folder(folder, secrets)
    return result


class Reporter:
    """Sums each test's step counts (they travel in ``user_properties``, so this works on the
    xdist controller too) and writes the terminal summary."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.stats = StepStats()
        self.nodeids: set[str] = set()
        self.recipe_names: dict[str, str] = {}  # node id -> recipe name, from the fixture

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.nodeids.add(report.nodeid)
        if report.when != "teardown":
            return
        for key, value in report.user_properties:
            if key == "webtask_recipe" and isinstance(value, str):
                self.recipe_names[report.nodeid] = value
            if key == "webtask" and isinstance(value, dict):
                for name, count in value.items():
                    setattr(self.stats, name, getattr(self.stats, name) + count)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        config = self.config
        st = self.stats
        unused = [] if _partial_run(config) else unused_recipes(config, self.nodeids,
                                                                self.recipe_names)
        if not (st.replayed or st.recorded or st.failed or unused or st.weak):
            return
        tr = terminalreporter
        tr.section("webtask")
        tr.write_line(f"{st.replayed} step(s) replayed, {st.recorded} recorded, "
                      f"{st.failed} failed")
        if st.llm_calls and st.prompt_tokens + st.completion_tokens:
            tr.write_line(f"LLM: {st.llm_calls} call(s), {st.prompt_tokens} prompt + "
                          f"{st.completion_tokens} completion tokens")
        elif st.llm_calls:
            tr.write_line(f"LLM: {st.llm_calls} call(s) (the model reported no token counts)")
        else:
            tr.write_line("LLM: 0 calls")
        if st.weak:
            tr.write_line(f"{len(st.weak)} recorded step(s) have no check that discriminates "
                          "(every check already held before the step ran, so a replay can't "
                          "tell whether the step worked); add a check(...) after each, or "
                          "run with --webtask-strict to fail them:")
            for where in st.weak:
                tr.write_line(f"  {where}")
        if unused:
            tr.write_line(f"{len(unused)} recipe(s) unused (their tests are gone or renamed; "
                          "delete them):")
            for path in unused:
                shown = path.relative_to(config.rootpath) \
                    if path.is_relative_to(config.rootpath) else path
                tr.write_line(f"  {shown}")


def _partial_run(config: pytest.Config) -> bool:
    """Did this run select or stop short of the full suite? (-k, -m, node ids, --deselect,
    --lf, -x/--maxfail): then no recipe is called unused."""
    opt = config.option
    return bool(
        getattr(opt, "keyword", "") or getattr(opt, "markexpr", "")
        or getattr(opt, "deselect", None) or getattr(opt, "lf", False)
        or any("::" in str(a) for a in config.args)
        or getattr(opt, "exitfirst", False) or getattr(opt, "maxfail", 0)
    )


def unused_recipes(config: pytest.Config, nodeids: set[str],
                   recipe_names: dict[str, str] | None = None) -> list[Path]:
    """Recipe files of test modules that ran, whose test did not (syrupy's rule).
    ``recipe_names`` holds the name each test's fixture used; other tests count by node id."""
    by_module: dict[Path, set[str]] = {}
    for nodeid in nodeids:
        if "::" not in nodeid:
            continue
        module_id, tail = nodeid.split("::", 1)
        name = (recipe_names or {}).get(nodeid) or recipe_test_name(tail)
        by_module.setdefault(config.rootpath / module_id, set()).add(name)
    unused = []
    for module, names in by_module.items():
        folder = module.parent / RECIPE_DIR / module.stem
        if folder.is_dir():
            wanted = {recipe_file_stem(n) for n in names}
            unused += [p for p in sorted(folder.glob("*.yaml")) if p.stem not in wanted]
    return unused
