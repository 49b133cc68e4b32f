"""Remote browsers on loopback: Playwright's own browser server (``launchServer``) and a
Chromium with a CDP port, each started here; the example suites and the async fixture run
on them. ``WEBTASK_CHROMIUM`` points at nothing in these runs, so a test that launched a
local browser instead of connecting would fail."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_webtask.browser.servers import cdp_chromium, playwright_server
from tests.plugin.conftest import Inner
from tests.plugin.test_async_webtask import ASYNC_TEST

ROOT = Path(__file__).resolve().parent.parent
NO_LOCAL_BROWSER = {"WEBTASK_CHROMIUM": "/nonexistent/chromium"}


@pytest.fixture(scope="module")
def server_endpoint() -> Iterator[str]:
    with playwright_server() as endpoint:
        yield endpoint


@pytest.fixture(scope="module")
def cdp_endpoint() -> Iterator[str]:
    with cdp_chromium() as endpoint:
        yield endpoint


def _examples(*args: str, where: str = "example_suites") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CI": "true", "OPENAI_API_KEY": "", "WEBTASK_MODEL": "",
           **NO_LOCAL_BROWSER}
    return subprocess.run(
        [sys.executable, "-m", "pytest", where, "-p", "no:cacheprovider", *args],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=600, check=False)


def _assert_examples_passed(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    assert "66 step(s) replayed, 0 recorded, 0 failed" in proc.stdout
    assert "31 passed" in proc.stdout


def test_example_suites_pass_on_a_playwright_browser_server(server_endpoint: str) -> None:
    assert server_endpoint.startswith("ws://127.0.0.1:")
    # Two workers: two connections to one server at once.
    _assert_examples_passed(_examples("--webtask-connect", server_endpoint, "-n", "2"))


def test_example_suites_pass_on_chromium_over_cdp(cdp_endpoint: str) -> None:
    assert cdp_endpoint.startswith("http://127.0.0.1:")
    _assert_examples_passed(_examples("--webtask-connect-cdp", cdp_endpoint))
    # The run disconnected from the Chromium it was given; it did not close it.
    with urllib.request.urlopen(cdp_endpoint + "/json/version", timeout=10) as answer:
        assert b"webSocketDebuggerUrl" in answer.read()


def test_without_a_remote_browser_these_runs_cannot_launch_one() -> None:
    """The control for the two tests above: their passing proves they connected."""
    proc = _examples("-x", where="example_suites/test_cart.py")
    assert proc.returncode != 0
    assert "/nonexistent/chromium" in proc.stdout


def test_a_dead_cdp_endpoint_is_a_clear_error() -> None:
    proc = _examples("--webtask-connect-cdp", "http://127.0.0.1:9", "-x",
                     where="example_suites/test_cart.py")
    assert proc.returncode != 0
    assert "webtask could not connect to the Chromium at http://127.0.0.1:9 (connect_cdp)" \
        in proc.stdout
    assert "Is it running with --remote-debugging-port" in proc.stdout


@pytest.mark.parametrize("value, message", [
    ("127.0.0.1:3000", "webtask connect should be a URL starting with ws:// or wss://"),
    ("ftp://x", "webtask connect_cdp should be a URL starting with http:// or https:// or "
                "ws:// or wss://"),
])
def test_a_malformed_endpoint_is_a_usage_error(value: str, message: str) -> None:
    option = "--webtask-connect" if "connect should" in message else "--webtask-connect-cdp"
    proc = _examples(option, value, "--co")
    assert proc.returncode == 4
    assert message in proc.stderr


def test_connect_and_connect_cdp_exclude_each_other() -> None:
    proc = _examples("--webtask-connect", "ws://127.0.0.1:1/x", "--webtask-connect-cdp",
                     "http://127.0.0.1:1", "--co")
    assert proc.returncode == 4
    assert "connect (a Playwright browser server) and connect_cdp" in proc.stderr


def test_cdp_with_firefox_says_it_is_chromium_only(pytester: pytest.Pytester,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    inner = Inner(pytester, monkeypatch)
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
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        server_endpoint: str) -> None:
    """pytest-playwright's own way: a conftest that overrides ``connect_options``."""
    inner = Inner(pytester, monkeypatch)
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + CONNECT_OPTIONS_CONFTEST)
    inner.tests(ASYNC_TEST)
    env = {"REMOTE_WS": server_endpoint, **NO_LOCAL_BROWSER}
    first = inner.run(env=env)
    first.assert_outcomes(passed=1)
    first.stdout.fnmatch_lines(["*0 step(s) replayed, 2 recorded, 0 failed*"])
    second = inner.run(env={**env, "FORBID_LLM": "1"})
    second.assert_outcomes(passed=1)
    second.stdout.fnmatch_lines(["*2 step(s) replayed, 0 recorded, 0 failed*"])


def test_async_webtask_replays_over_cdp(pytester: pytest.Pytester,
                                        monkeypatch: pytest.MonkeyPatch,
                                        cdp_endpoint: str) -> None:
    inner = Inner(pytester, monkeypatch)
    inner.tests(ASYNC_TEST)
    inner.run().assert_outcomes(passed=1)  # records on a local browser
    replay = inner.run("--webtask-connect-cdp", cdp_endpoint,
                       env={"FORBID_LLM": "1", **NO_LOCAL_BROWSER})
    replay.assert_outcomes(passed=1)
    replay.stdout.fnmatch_lines(["*2 step(s) replayed, 0 recorded, 0 failed*"])
    control = inner.run(env={"FORBID_LLM": "1", **NO_LOCAL_BROWSER})
    control.assert_outcomes(errors=1)  # no endpoint: it would have to launch, and cannot
