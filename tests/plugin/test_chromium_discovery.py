"""A user's suite finds a browser: a project with no conftest.py, on a machine with no
Playwright build (an empty PLAYWRIGHT_BROWSERS_PATH) and a system Chromium, launches that
Chromium, says so once in the header, and fails with both fixes when there is none. What the
user chose (an executable_path, --browser-channel) wins. The replay of a recorded test in
such a project: tests/plugin/test_quickstart.py."""

from __future__ import annotations

import shutil
import stat
import textwrap
from pathlib import Path

import pytest

from tests.plugin.conftest import ROOT

SYSTEM = shutil.which("chromium") or shutil.which("chromium-browser") or \
    shutil.which("google-chrome")
pytestmark = pytest.mark.skipif(SYSTEM is None, reason="needs a system Chromium on PATH")

PAGE_TEST = '''
def test_page(page):
    page.set_content("<h1>Hello</h1>")
    assert page.locator("h1").inner_text() == "Hello"
'''
SHELL = shutil.which("chromium-headless-shell") or shutil.which("chrome-headless-shell")
HEADER = ("webtask: Playwright's own Chromium is not installed; using the system one at {}"
          + (f", its headless shell at {SHELL} for headless runs" if SHELL else "")
          + " (WEBTASK_CHROMIUM chooses another)")


@pytest.fixture
def project(pytester_process: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
            tmp_path_factory: pytest.TempPathFactory) -> pytest.Pytester:
    """A fresh project, run as a user runs it (its own process): one test file, no
    conftest.py, no Playwright browsers."""
    pytester = pytester_process
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path_factory.mktemp("no-browsers")))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    for name in ("WEBTASK_CHROMIUM", "CI", "WEBTASK_CONNECT", "WEBTASK_CONNECT_CDP"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_page=textwrap.dedent(PAGE_TEST))
    return pytester


def _run(project: pytest.Pytester, *args: str) -> pytest.RunResult:
    return project.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=120)


def _recording_wrapper(folder: Path, name: str) -> tuple[str, Path]:
    """A Chromium that notes each launch in a log, then is the system one."""
    log = folder / f"{name}.log"
    script = folder / name
    script.write_text(f'#!/bin/sh\necho launched >> "{log}"\nexec "{SYSTEM}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script), log


def test_a_project_without_conftest_launches_the_system_chromium(
        project: pytest.Pytester) -> None:
    result = _run(project, "-n", "2")
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert out.count(HEADER.format(SYSTEM)) == 1, out  # once, from the controller


def test_webtask_chromium_chooses_the_executable(project: pytest.Pytester,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    chosen, log = _recording_wrapper(project.path, "my-chromium")
    monkeypatch.setenv("WEBTASK_CHROMIUM", chosen)
    result = _run(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"webtask: Chromium from WEBTASK_CHROMIUM: {chosen}"])
    assert log.read_text().count("launched") == 1


def test_a_webtask_chromium_that_is_no_file_is_a_clear_error(
        project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBTASK_CHROMIUM", "/nowhere/chrome")
    result = _run(project)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*WEBTASK_CHROMIUM is set to '/nowhere/chrome', which is not "
                                 "an executable file*"])
    assert "Traceback" not in result.stdout.str()


def test_no_chromium_at_all_names_both_fixes(project: pytest.Pytester,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    empty = project.path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no chromium on PATH; Python is run by path
    result = _run(project)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([
        "webtask: no Chromium found (`playwright install chromium`, or set WEBTASK_CHROMIUM)",
        "No Chromium to launch: Playwright's own is not installed and none was found on PATH "
        "*Either run `playwright install chromium`, or install a Chromium*set WEBTASK_CHROMIUM*",
        "(Playwright said: *Executable doesn't exist*"])
    assert "Traceback" not in result.stdout.str()
    assert "During handling" not in result.stdout.str()


def test_the_user_s_own_launch_args_and_channel_win(project: pytest.Pytester,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ours, our_log = _recording_wrapper(project.path, "webtask-choice")
    theirs, their_log = _recording_wrapper(project.path, "their-choice")
    monkeypatch.setenv("WEBTASK_CHROMIUM", ours)
    project.makeconftest(f'''
        import pytest

        @pytest.fixture(scope="session")
        def browser_type_launch_args(browser_type_launch_args):
            return {{**browser_type_launch_args, "executable_path": {theirs!r}}}
        ''')
    _run(project).assert_outcomes(passed=1)
    assert their_log.read_text().count("launched") == 1 and not our_log.exists()
    (project.path / "conftest.py").unlink()
    # a channel names the browser: the plugin stays out (no header line, Playwright's error)
    result = _run(project, "--browser-channel", "msedge-canary")
    assert "webtask:" not in result.stdout.str()
    assert "No Chromium to launch" not in result.stdout.str() and not our_log.exists()
    result.assert_outcomes(errors=1)


def test_async_webtask_launches_the_system_chromium_too(project: pytest.Pytester) -> None:
    project.makepyfile(test_page='''
        import pytest

        @pytest.mark.asyncio
        async def test_page(async_webtask):
            await async_webtask.page.set_content("<h1>Hello</h1>")
            assert await async_webtask.page.locator("h1").inner_text() == "Hello"
        ''')
    result = _run(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([HEADER.format(SYSTEM)])
