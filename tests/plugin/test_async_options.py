"""async_webtask honours pytest-playwright's browser options as ``webtask`` does: browser
name, headed, launch args, base URL and context args, output folder, and screenshots, traces
and videos kept on failure."""

from __future__ import annotations

import functools
import re
import subprocess
import sys

import pytest

from tests.plugin.conftest import Inner

OPTIONS_TEST = '''
import pytest


@pytest.mark.asyncio
@pytest.mark.browser_context_args(locale="de-DE")
async def test_options(async_webtask):
    page = async_webtask.page
    await page.goto("/cart")  # relative: the context has the base URL
    assert page.url.endswith("/cart")
    agent = await page.evaluate("navigator.userAgent")
    print("USER-AGENT", agent, "BROWSER", page.context.browser.browser_type.name)
    assert await page.evaluate("navigator.language") == "de-DE"
'''

FAILING = '''
import pytest


@pytest.mark.asyncio
async def test_passes(async_webtask):
    await async_webtask.goto("/")


@pytest.mark.asyncio
async def test_fails(async_webtask):
    await async_webtask.goto("/")
    assert False, "the test's own assertion"


@pytest.mark.asyncio
async def test_step_fails(async_webtask):
    await async_webtask.goto("/")
    await async_webtask.check("the cart total is $39.00")
'''

CHROMIUM_ONLY_LAUNCH_ARGS = '''

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_name):
    # the system Chromium's path and flags are for Chromium only
    return launch_args(browser_type_launch_args) if browser_name == "chromium" \\
        else browser_type_launch_args
'''


@pytest.fixture
def inner(inner_process: Inner) -> Inner:
    """async_webtask runs its own event loop: each inner run is a new process."""
    return inner_process


@functools.cache
def _firefox_installed() -> bool:
    probe = ("from pathlib import Path; from playwright.sync_api import sync_playwright; "
             "p = sync_playwright().start(); print(Path(p.firefox.executable_path).exists()); "
             "p.stop()")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60).stdout
    return out.strip() == "True"


def test_browser_context_args_and_base_url(inner: Inner) -> None:
    inner.tests(OPTIONS_TEST)
    result = inner.run("-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*USER-AGENT*HeadlessChrome*BROWSER chromium*"])


def test_browser_firefox_runs_on_firefox(inner: Inner) -> None:
    if not _firefox_installed():
        pytest.skip("Playwright's Firefox is not installed here (`playwright install firefox` "
                    "needs its download server); the next test covers --browser firefox "
                    "reaching the launch")
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + CHROMIUM_ONLY_LAUNCH_ARGS)
    inner.tests(OPTIONS_TEST)
    result = inner.run("-s", "--browser", "firefox")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*USER-AGENT*Firefox*BROWSER firefox*"])


def test_browser_firefox_reaches_the_launch(inner: Inner) -> None:
    """Before, the async fixture launched Chromium whatever --browser said."""
    if _firefox_installed():
        pytest.skip("Firefox is installed: the test above runs on it")
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + CHROMIUM_ONLY_LAUNCH_ARGS)
    inner.tests(OPTIONS_TEST)
    result = inner.run("--browser", "firefox")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*test_options?firefox?*", "*firefox*"])
    # the launch looked for Firefox's own executable (a repr in a traceback may cut the
    # path short, so any full line of the error will do)
    assert re.search(r"Executable doesn't exist at \S*/firefox\b", result.stdout.str())


def test_headed_reaches_the_launch(inner: Inner, monkeypatch: pytest.MonkeyPatch) -> None:
    """No display here: a headed launch must fail saying so, where headless passes (the
    same test, headless: test_browser_context_args_and_base_url)."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    inner.tests(OPTIONS_TEST)
    headed = inner.run("--headed")
    headed.assert_outcomes(errors=1)
    assert "headed browser without having a XServer running" in headed.stdout.str()


def test_failure_artifacts_in_the_output_folder(inner: Inner) -> None:
    inner.tests(FAILING)
    out = inner.path / "out"
    result = inner.run("--output", str(out), "--screenshot", "only-on-failure",
                       "--tracing", "retain-on-failure",
                       "--webtask-replay-only")  # no recipe: the check step fails
    result.assert_outcomes(passed=1, failed=2)
    folders = {p.name: sorted(f.name for f in p.iterdir()) for p in out.iterdir()}
    assert set(folders) == {"test-shop-py-test-fails-chromium",
                            "test-shop-py-test-step-fails-chromium"}, folders
    for files in folders.values():
        assert {"test-failed-1.png", "trace.zip"} <= set(files), files
    assert "webtask-failure.txt" in folders["test-shop-py-test-step-fails-chromium"]
    assert (out / "test-shop-py-test-fails-chromium" / "test-failed-1.png").stat().st_size > 1000


def test_screenshot_on_keeps_passing_tests_too(inner: Inner) -> None:
    inner.tests(FAILING.split("@pytest.mark.asyncio\nasync def test_fails")[0])
    out = inner.path / "out"
    inner.run("--output", str(out), "--screenshot", "on").assert_outcomes(passed=1)
    assert [p.name for p in (out / "test-shop-py-test-passes-chromium").iterdir()] == \
        ["test-finished-1.png"]


def test_nothing_kept_by_default(inner: Inner) -> None:
    inner.tests(FAILING)
    result = inner.run("--output", str(inner.path / "out"), "--webtask-replay-only")
    result.assert_outcomes(passed=1, failed=2)
    out = inner.path / "out"
    kept = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) \
        if out.exists() else []
    # only the plugin's own step log, as webtask writes it for a failed step
    assert kept == ["test-shop-py-test-step-fails-chromium/webtask-failure.txt"], kept

