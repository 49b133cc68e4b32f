"""Remote browsers on loopback: Playwright's own browser server (``launchServer``) and a
Chromium with a CDP port, each started here; a module of the example suites and the async
fixture run on them. ``WEBTASK_CHROMIUM`` points at nothing in these runs, so a test that
launched a local browser instead of connecting would fail."""

from __future__ import annotations

import re
import subprocess
import urllib.request
from collections.abc import Callable, Iterator

import pytest

from pytest_webtask.browser.servers import cdp_chromium, playwright_server
from tests.example_run import ENV
from tests.plugin.conftest import Inner
from tests.plugin.conftest import inner as inner  # the pytester project fixtures
from tests.plugin.conftest import inner_process as inner_process
from tests.plugin.test_async_webtask import ASYNC_TEST

NO_LOCAL_BROWSER = {"WEBTASK_CHROMIUM": "/nonexistent/chromium"}
Python = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def remote_server() -> Iterator[str]:
    with playwright_server() as endpoint:
        yield endpoint


@pytest.fixture(scope="module")
def remote_cdp() -> Iterator[str]:
    with cdp_chromium() as endpoint:
        yield endpoint


def _examples(python: Python, module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """One module of the example suites, replayed as CI does, with no local browser."""
    return python("-m", "pytest", f"example_suites/{module}", "-p", "no:cacheprovider",
                  *args, env={**ENV, **NO_LOCAL_BROWSER})


def _assert_replayed(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    summary = re.search(r"(\d+) step\(s\) replayed, 0 recorded, 0 failed", proc.stdout)
    assert summary and int(summary.group(1)) > 0, proc.stdout[-3000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert " passed" in last and not re.search(r"failed|error|skipped", last), last


def test_example_tests_pass_on_a_playwright_browser_server(remote_server: str,
                                                           python: Python) -> None:
    assert remote_server.startswith("ws://127.0.0.1:")
    # Two tests on two workers: two connections to one server at once.
    _assert_replayed(_examples(python, "test_account.py", "--webtask-connect", remote_server,
                               "-n", "2"))


def test_example_tests_pass_on_chromium_over_cdp(remote_cdp: str, python: Python) -> None:
    assert remote_cdp.startswith("http://127.0.0.1:")
    _assert_replayed(_examples(python, "test_cart.py", "--webtask-connect-cdp", remote_cdp))
    # The run disconnected from the Chromium it was given; it did not close it.
    with urllib.request.urlopen(remote_cdp + "/json/version", timeout=10) as answer:
        assert b"webSocketDebuggerUrl" in answer.read()


def test_without_a_remote_browser_these_runs_cannot_launch_one(python: Python) -> None:
    """The control for the two tests above: their passing proves they connected."""
    proc = _examples(python, "test_cart.py", "-x")
    assert proc.returncode != 0
    assert "/nonexistent/chromium" in proc.stdout


def test_a_dead_cdp_endpoint_is_a_clear_error(inner: Inner) -> None:
    inner.tests('''
def test_add(webtask):
    webtask.goto("/")
''')
    result = inner.run("--webtask-connect-cdp", "http://127.0.0.1:9", env=NO_LOCAL_BROWSER)
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "webtask could not connect to the Chromium at http://127.0.0.1:9 (connect_cdp)" \
        in out
    assert "Is it running with --remote-debugging-port" in out


@pytest.mark.parametrize("value, message", [
    ("127.0.0.1:3000", "webtask connect should be a URL starting with ws:// or wss://"),
    ("ftp://x", "webtask connect_cdp should be a URL starting with http:// or https:// or "
                "ws:// or wss://"),
])
def test_a_malformed_endpoint_is_a_usage_error(pytester: pytest.Pytester, value: str,
                                               message: str) -> None:
    option = "--webtask-connect" if "connect should" in message else "--webtask-connect-cdp"
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", option, value, "--co")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()


def test_connect_and_connect_cdp_exclude_each_other(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--webtask-connect", "ws://127.0.0.1:1/x",
        "--webtask-connect-cdp", "http://127.0.0.1:1", "--co")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "connect (a Playwright browser server) and connect_cdp" in result.stderr.str()


def test_cdp_with_firefox_says_it_is_chromium_only(inner: Inner) -> None:
    inner.tests('''
def test_add(webtask):
    webtask.goto("/")
''')
    result = inner.run("--browser", "firefox", "--webtask-connect-cdp", "http://127.0.0.1:9")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*connect_cdp works with Chromium only*this test runs on "
                                 "firefox*Use connect (a Playwright browser server)*"])


CONNECT_OPTIONS_CONFTEST = '''

@pytest.fixture(scope="session")
def connect_options():
    from pytest_webtask.browser.remote import endpoint_options
    return endpoint_options(os.environ["REMOTE_WS"])
'''


def test_async_webtask_records_and_replays_through_connect_options(
        inner_process: Inner, remote_server: str) -> None:
    """pytest-playwright's own way: a conftest that overrides ``connect_options``."""
    inner = inner_process
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + CONNECT_OPTIONS_CONFTEST)
    inner.tests(ASYNC_TEST)
    env = {"REMOTE_WS": remote_server, **NO_LOCAL_BROWSER}
    first = inner.run(env=env)
    first.assert_outcomes(passed=1)
    first.stdout.fnmatch_lines(["*0 step(s) replayed, 2 recorded, 0 failed*"])
    second = inner.run(env={**env, "FORBID_LLM": "1"})
    second.assert_outcomes(passed=1)
    second.stdout.fnmatch_lines(["*2 step(s) replayed, 0 recorded, 0 failed*"])


def test_async_webtask_replays_over_cdp(inner_process: Inner, remote_cdp: str) -> None:
    inner = inner_process
    inner.tests(ASYNC_TEST)
    inner.run().assert_outcomes(passed=1)  # records on a local browser
    replay = inner.run("--webtask-connect-cdp", remote_cdp,
                       env={"FORBID_LLM": "1", **NO_LOCAL_BROWSER})
    replay.assert_outcomes(passed=1)
    replay.stdout.fnmatch_lines(["*2 step(s) replayed, 0 recorded, 0 failed*"])
    control = inner.run(env={"FORBID_LLM": "1", **NO_LOCAL_BROWSER})
    control.assert_outcomes(errors=1)  # no endpoint: it would have to launch, and cannot
