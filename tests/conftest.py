"""Shared fixtures, and the tiers of the suite.

Tiers are markers this file applies from what a test uses, never by hand:

- ``browser``: the test needs a browser (any pytest-playwright fixture, a pytester project
  that runs the plugin's fixtures, a remote browser server);
- ``subprocess``: the test starts a Python process, because a separate process is the
  behaviour under test (xdist, the command line, ``-p no:webtask``, the async twin, a killed
  run, what importing the plugin loads);
- ``examples``: the test reads the one run of the example suites (``example_run``).

The fast tier is ``-m "not browser and not subprocess"``: no browser and no process. One
marker is set by hand: ``bench``, a check of the bench's own instruments, which ``dev.sh
tests`` leaves out and ``dev.sh bench-checks`` runs (CONTRIBUTING.md). A test
outside both tiers that starts a process fails saying where it belongs, so the fast tier
stays fast as the suite grows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml  # noqa: F401  (before any in-process pytester run: see below)

from tests.example_run import ExampleRun

# pytester's in-process runs forget every module first imported inside them. PyYAML's C
# loader, imported once, keeps the node classes of the first ``yaml`` it saw; a ``yaml``
# imported again after such a run has new ones, and every recipe read then fails with
# "could not determine a constructor for the tag None". Imported here, it is never forgotten
# (a file of in-process runs alone, ``-p no:xdist``, failed so; the suite's workers had it
# imported by another test module first).

# The suite's scripted recordings were written for the agent with every rule on: the
# ``small`` profile. A test of the ``standard`` profile (the users' default) says so itself
# (``profile="standard"``, ``webtask_profile = standard``); tests/test_verify_done.py.
os.environ.setdefault("WEBTASK_PROFILE", "small")
from tests.example_run import example_run as run_examples
from tests.server import LocalServer

ROOT = Path(__file__).resolve().parent.parent

# A test whose fixture closure holds one of these needs a browser.
BROWSER_FIXTURES = frozenset({
    "playwright", "browser_type", "launch_browser", "browser", "context", "new_context",
    "page", "webtask", "async_webtask", "lender", "inner", "inner_process",
    "remote_server", "remote_cdp",  # tests/test_remote_browsers.py: a browser server process
    "apage",  # tests/async_twin: an async Playwright page
    "picture_runs",  # tests/plugin/test_secret_pictures.py: inner runs with a browser each
})
# ... and one of these starts a Python process.
PROCESS_FIXTURES = frozenset({"python", "pytester_process", "inner_process", "example_run",
                              "picture_runs"})
# Module-scoped fixtures that record a flow or start a browser server: under xdist, the tests
# that share one run on one worker, so that it is made once (xdist_group, --dist loadgroup).
SHARED_ONCE = frozenset({"recorded_once", "modal_recipe", "remote_server", "remote_cdp",
                         "library_recordings",
                         "picture_runs", "recorded_drafts"})


# pytest-xdist's --dist loadgroup reads a group from the xdist_group marker by appending it to
# the node id, which pytest 9.2's structured node ids no longer allow: every test went to any
# worker, and a module-scoped recording was made once per worker it landed on (the picture
# runs five times). The workers write the groups they collected to this file instead, and
# this project's scheduler (``pytest_xdist_make_scheduler`` below) reads them.
GROUPS_ENV = "WEBTASK_TESTS_XDIST_GROUPS"


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and config.getoption("dist", "no") == "loadgroup":
        fd, path = tempfile.mkstemp(prefix="webtask-tests-groups-", suffix=".json")
        os.close(fd)
        os.environ[GROUPS_ENV] = path  # before the workers start: they inherit it

        def cleanup() -> None:
            os.environ.pop(GROUPS_ENV, None)
            Path(path).unlink(missing_ok=True)

        config.add_cleanup(cleanup)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist", "no") != "loadgroup" or not os.environ.get(GROUPS_ENV):
        return None
    from xdist.scheduler import LoadGroupScheduling

    path = Path(os.environ[GROUPS_ENV])

    class Grouped(LoadGroupScheduling):  # type: ignore[misc]
        """loadgroup, with each test's group as the workers collected it."""

        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:  # every worker has collected (and written) by now
                self.groups = json.loads(path.read_text() or "{}")
            group = self.groups.get(nodeid)
            return "group:" + group if group else super()._split_scope(nodeid)

    config.option.loadscopereorder = False  # in the order the workers collected (longest first)
    return Grouped(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups: dict[str, str] = {}  # node id -> xdist group
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if names & PROCESS_FIXTURES:
            item.add_marker(pytest.mark.subprocess)
        if "example_run" in names:
            item.add_marker(pytest.mark.examples)
            # one xdist worker runs the suites and every test that reads them (--dist
            # loadgroup), while the other workers go on with the rest
            groups[item.nodeid] = "examples"
        elif names & SHARED_ONCE:
            groups[item.nodeid] = item.nodeid.split("::")[0]
        if item.nodeid in groups:  # the marker says so to a reader; the scheduler reads the file
            item.add_marker(pytest.mark.xdist_group(groups[item.nodeid]))
    if hasattr(config, "workerinput") and os.environ.get(GROUPS_ENV):
        tmp = Path(os.environ[GROUPS_ENV] + f".{os.getpid()}")
        tmp.write_text(json.dumps(groups))
        os.replace(tmp, os.environ[GROUPS_ENV])  # every worker writes the same groups
    if hasattr(config, "workerinput"):
        # Under xdist the workers are handed the tests in this order (the scheduler below
        # keeps it): the longest first, so the last to start are short ones and the workers
        # finish together. The groups (the example suites' run first), then the tests that
        # start processes, then the browser tests, then the fast tier.
        def weight(item: pytest.Item) -> int:
            group = groups.get(item.nodeid)
            if group is not None:
                return 0 if group == "examples" else 1
            return 2 if item.get_closest_marker("subprocess") else \
                3 if item.get_closest_marker("browser") else 4

        items.sort(key=weight)
    else:  # the longest chain of work first, so that it does not finish last
        items.sort(key=lambda item: item.get_closest_marker("examples") is None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """pytest-playwright opens a scope for ``expect.soft`` around every test call, and scopes
    do not nest: a pytester run in this process runs tests that open their own. Such a test
    (it has ``pytester``) runs outside the outer scope, restored for pytest-playwright to
    close."""
    if "pytester" not in getattr(item, "fixturenames", ()):
        return (yield)
    from playwright._impl import _assertions

    outer = _assertions._soft_errors
    _assertions._soft_errors = None
    try:
        return (yield)
    finally:
        _assertions._soft_errors = outer


@pytest.fixture(autouse=True)
def _quiet_pytester(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """pytester projects set pytest-asyncio's loop scope as this project does: unset, every
    run warns (and an in-process run's warning lands in this session's summary)."""
    if "pytester" in request.fixturenames:
        request.getfixturevalue("pytester")  # it clears PYTEST_ADDOPTS when it starts
        monkeypatch.setenv("PYTEST_ADDOPTS", "-o asyncio_default_fixture_loop_scope=function")


@pytest.fixture(autouse=True)
def _tier_guard(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test in neither the browser nor the subprocess tier starts no process."""
    node = request.node
    if node.get_closest_marker("browser") or node.get_closest_marker("subprocess"):
        return

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(
            f"{node.nodeid} starts a process but is in the fast tier: start Python through "
            "the `python` fixture (marks it subprocess) or use a browser fixture (marks it "
            "browser); see tests/conftest.py")

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)


@pytest.fixture
def python() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python <args>`` from the repository root (text output captured, no check);
    ``env`` entries are added to this process's environment (a value None removes one)."""

    def run(*args: str, env: dict[str, str | None] | None = None, cwd: Path = ROOT,
            timeout: float = 600) -> subprocess.CompletedProcess[str]:
        full = dict(os.environ)
        for key, value in (env or {}).items():
            if value is None:
                full.pop(key, None)
            else:
                full[key] = value
        return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True,
                              text=True, env=full, timeout=timeout, check=False)

    return run


@pytest.fixture
def pytester_process(pytester: pytest.Pytester) -> pytest.Pytester:
    """``pytester``, for a test that runs pytest in a new process (``runpytest_subprocess``):
    the fixture marks it ``subprocess``."""
    return pytester


@pytest.fixture(scope="session")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> ExampleRun:
    """The one run of the example suites (tests/example_run.py), shared by xdist workers."""
    base = tmp_path_factory.getbasetemp()
    return run_examples(base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base)


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    srv = LocalServer()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def _other_server() -> Iterator[LocalServer]:
    srv = LocalServer()
    yield srv
    srv.stop()


@pytest.fixture
def other(_other_server: LocalServer) -> LocalServer:
    """A second loopback server: another origin, which must receive nothing it should not."""
    return _other_server


@pytest.fixture(autouse=True)
def _clear_server(request: pytest.FixtureRequest) -> None:
    for name in ("server", "_other_server"):
        if name in request.fixturenames:
            srv = request.getfixturevalue(name)
            srv.posts.clear()
            srv.requests.clear()
            srv.pages.clear()
            srv.redirects.clear()
            srv.answers.clear()
            srv.files.clear()


@pytest.fixture(scope="session")
def lender(playwright: Any) -> Iterator[Any]:
    """This session's Playwright, lent to in-process pytester runs (tests/plugin/conftest.py)."""
    from tests.plugin.conftest import Lender

    lent = Lender(playwright)
    yield lent
    lent.close()


# Async tests of the async twin cannot share a process with pytest-playwright's sync
# fixtures (their event loop is already running): test_async_twin.py runs them apart.
collect_ignore = [] if os.environ.get("WEBTASK_ASYNC_TWIN") else ["async_twin"]
