"""The fixtures: ``webtask`` (sync, on pytest-playwright's ``page``), ``async_webtask``
(pytest-asyncio, on its own async browser), ``webtask_llm`` and ``webtask_recipe_path``.
Each loads the agent, Playwright glue and models only when a test first uses it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..recipes.naming import recipe_path
from .assembly import claim_flavour, finish, pipeline_parts, recipe_name
from .keys import ENGINE_REGISTERED, REPORTS, SETTINGS, TEST_ARTIFACTS, TEST_SECRETS

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from ..llm.base import LLM
    from ..steps._async.webtask import AsyncWebTask
    from ..steps._sync.webtask import WebTask


@pytest.fixture(scope="session")
def webtask_llm(pytestconfig: pytest.Config) -> LLM:
    """The model used to record steps: by default ``OpenAILLM`` from the settings
    (``WEBTASK_MODEL``, ``OPENAI_BASE_URL``, ``OPENAI_API_KEY``, the ``webtask_llm_*`` ones).
    Override it in ``conftest.py`` to supply any LLM, ``ScriptedLLM`` included. Only
    requested when a step is recorded: a replay never builds or calls it."""
    from ..llm.openai_llm import OpenAILLM

    s = pytestconfig.stash[SETTINGS]
    # the settings hold the ini's values over the environment's; from_env reads the rest
    return OpenAILLM.from_env(model=s.model or None, base_url=s.base_url_llm or None,
                              timeout=s.llm_timeout, max_tokens=s.llm_max_tokens,
                              response_format=s.response_format, max_retries=s.llm_retries,
                              retry_timeouts=s.llm_retry_timeouts)


@pytest.fixture
def webtask_recipe_path(request: pytest.FixtureRequest) -> Path:
    """Where this test's recipe lives: ``<test dir>/__webtask__/<module>/<test>.yaml``.
    Override it (in a ``conftest.py`` or a test module) to keep recipes elsewhere; unused
    recipes are only looked for in the default folders."""
    return recipe_path(Path(request.node.path), recipe_name(request.node))


@pytest.fixture
def webtask(request: pytest.FixtureRequest, page: Page, base_url: str | None,
            output_path: str) -> Iterator[WebTask]:
    """Plain-English steps on pytest-playwright's ``page``: ``goto``, ``do``, ``check``,
    ``extract`` (a ``pytest_webtask.WebTask``).

    Replays the test's recipe; records missing steps with ``webtask_llm`` when allowed."""
    from ..steps._sync.webtask import WebTask

    claim_flavour(request, "sync")
    _register_engine(request)
    pipe = pipeline_parts(request, "sync", base_url or None, Path(output_path)).open(page)
    task = WebTask(pipe)
    request.node.stash[TEST_SECRETS] = task.secrets
    request.node.stash[TEST_ARTIFACTS] = Path(output_path)
    yield task
    task.scrub_page()  # before pytest-playwright's end-of-test screenshot
    finish(request, pipe)


def _register_engine(request: pytest.FixtureRequest) -> None:
    """Once per session: the fingerprint selector engine (browser/engine.py) on
    pytest-playwright's Playwright, so a replayed action finds its target in its own call."""
    from playwright.sync_api import Error as PlaywrightError

    from ..browser import engine

    if request.session.stash.get(ENGINE_REGISTERED, False):
        return
    try:
        engine.register(request.getfixturevalue("playwright").selectors)
    except PlaywrightError as exc:
        if not engine.already_registered(exc):
            raise
    request.session.stash[ENGINE_REGISTERED] = True


try:
    import pytest_asyncio
except ImportError:  # a dependency, but an environment may have lost it
    pytest_asyncio = None  # type: ignore[assignment]

if pytest_asyncio is not None:

    @pytest_asyncio.fixture
    async def async_webtask(request: pytest.FixtureRequest,
                            browser_type_launch_args: dict[str, Any], browser_name: str | None,
                            connect_options: dict[str, Any] | None,
                            output_path: str) -> AsyncIterator[AsyncWebTask]:
        """The ``webtask`` API with ``await`` (a ``pytest_webtask.AsyncWebTask``), on its own
        async Playwright browser with pytest-playwright's options (``--browser``,
        ``--headed``, launch args, ``connect_options``, ``--base-url``, ``--output``,
        ``--screenshot``/``--tracing``/``--video``), for pytest-asyncio suites. Not usable in
        the same run as sync pytest-playwright fixtures."""
        from ..steps._async.webtask import AsyncWebTask
        from .async_browser import BrowserOptions, TestBrowser

        claim_flavour(request, "async")
        try:
            base_url = request.getfixturevalue("base_url")  # pytest-base-url, or overridden
        except pytest.FixtureLookupError:
            base_url = None
        parts = pipeline_parts(request, "async", base_url, Path(output_path))
        browser = TestBrowser(BrowserOptions.for_test(
            request, browser_name=browser_name, launch_args=browser_type_launch_args,
            connect_options=connect_options, connect_cdp=parts.settings.connect_cdp,
            base_url=base_url, output_path=output_path))
        try:
            pipe = parts.open_async(await browser.start())
            task = AsyncWebTask(pipe)
            request.node.stash[TEST_SECRETS] = task.secrets
            request.node.stash[TEST_ARTIFACTS] = Path(output_path)
            yield task
            await task.scrub_page()  # before the end-of-test screenshot
        finally:
            reports = request.node.stash.get(REPORTS, {})
            await browser.finish(failed=not ("call" in reports and reports["call"].passed))
        finish(request, pipe)

else:

    @pytest.fixture
    def async_webtask() -> Any:  # the one definition pytest sees without pytest-asyncio
        """``async_webtask`` needs pytest-asyncio, which this environment does not have."""
        pytest.fail(
            "async_webtask needs pytest-asyncio: pip install pytest-asyncio, and set "
            "asyncio_default_fixture_loop_scope = function in your pytest configuration, as "
            "pytest-asyncio asks of every project.", pytrace=False)
