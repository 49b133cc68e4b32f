"""Where a replay's time goes: a pytest plugin for ``bench/replay.py --profile`` only.

    WEBTASK_BENCH_PROFILE=out.jsonl pytest -p bench.replay_profile ...

It wraps the sync twin's functions by category (resolving targets, checks, waiting between
polls, the actions' Playwright calls, dialogs and tabs, the step pipeline's bookkeeping, the
``webtask`` fixture's set-up and teardown) and times each category *exclusively*: a check
that waits counts its polls' sleeps as waiting, not as checking. It also counts the messages
Playwright's client sends to the browser (every call is one round trip), by category, so a
change that saves a round trip shows as a count, not only as noise-prone milliseconds. The
same plugin runs beside the exported code, where every call is the test's own. Messages
the client sends without awaiting a reply (a listener's subscription) are counted apart.

Nothing here changes what runs; names that no longer exist are skipped, so the profile can
be taken before and after a change to the replayer.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest

ENV = "WEBTASK_BENCH_PROFILE"
TEST = "the test's own code (pytest-playwright, page set-up, export's calls)"

# (category, "module:Class.method" or "module:function"); the innermost wrapped call running
# owns the time and the round trips.
TARGETS: list[tuple[str, str]] = [
    ("webtask fixture set-up and teardown", "pytest_webtask.plugin:_pipeline"),
    ("webtask fixture set-up and teardown", "pytest_webtask.plugin:_finish"),
    ("webtask fixture set-up and teardown", "pytest_webtask.plugin.fixtures:pipeline_parts"),
    ("webtask fixture set-up and teardown", "pytest_webtask.plugin.fixtures:finish"),
    ("webtask fixture set-up and teardown", "pytest_webtask.steps._sync.webtask:WebTask.__init__"),
    ("webtask fixture set-up and teardown",
     "pytest_webtask.steps._sync.webtask:WebTask.scrub_page"),
    ("goto", "pytest_webtask.steps._sync.webtask:WebTask.goto"),
    ("step bookkeeping", "pytest_webtask.steps._sync.pipeline:Pipeline.run"),
    ("recipe loading", "pytest_webtask.steps.session:RecipeSession.recipe"),
    ("resolving targets", "pytest_webtask.recipes._sync.replayer:Replayer.resolve"),
    ("actions (Playwright calls)", "pytest_webtask.recipes._sync.replayer:perform"),
    ("actions (Playwright calls)", "pytest_webtask.recipes._sync.replayer:Replayer.run_action"),
    ("webtask fixture set-up and teardown", "pytest_webtask.steps._sync.pipeline:Pipeline.finish"),
    ("checks", "pytest_webtask.recipes._sync.replayer:Replayer.verify"),
    ("checks", "pytest_webtask.recipes._sync.replayer:Replayer.run_checks"),
    ("dialogs and tabs", "pytest_webtask.recipes._sync.replayer:Replayer._expect_dialogs"),
    ("dialogs and tabs", "pytest_webtask.recipes._sync.replayer:Replayer._follow_tab"),
    ("dialogs and tabs", "pytest_webtask.browser._sync.watch:PageWatch.attach"),
    ("dialogs and tabs", "pytest_webtask.browser._sync.watch:PageWatch.detach"),
    ("waiting (polls, sleeps)", "playwright.sync_api:Page.wait_for_timeout"),
    ("waiting (polls, sleeps)", "playwright.sync_api:Frame.wait_for_timeout"),
]


class Profile:
    """Exclusive seconds, calls and round trips per category."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)  # this thread's CPU, exclusive
        self.calls: dict[str, int] = defaultdict(int)
        self.trips: dict[str, int] = defaultdict(int)
        # messages the client sends without waiting for the reply (listener subscriptions)
        self.unawaited: dict[str, int] = defaultdict(int)
        self.stack: list[list[Any]] = []  # [category, start, child s, CPU start, child CPU s]
        self.tests: dict[str, float] = {}  # node id -> setup + call + teardown seconds
        # round trips by the driver method sent (both sides), and the replayed actions' by
        # tool: what a kind of step costs, against the exported code's one call per action
        self.methods: dict[str, int] = defaultdict(int)
        self.tool: str | None = None  # the tool of the replayed action under way
        self.tool_trips: dict[str, int] = defaultdict(int)
        self.tool_actions: dict[str, int] = defaultdict(int)
        self.tool_methods: dict[str, int] = defaultdict(int)  # "tool method" -> round trips

    def wrap(self, category: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            frame: list[Any] = [category, time.perf_counter(), 0.0, time.thread_time(), 0.0]
            self.stack.append(frame)
            try:
                return fn(*args, **kwargs)
            finally:
                self.close(frame)
                self.calls[category] += 1

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    def close(self, frame: list[Any]) -> float:
        """Pop ``frame``: its time and CPU less its children's to its category."""
        self.stack.pop()
        spent = time.perf_counter() - frame[1]
        cpu = time.thread_time() - frame[3]
        self.seconds[frame[0]] += spent - frame[2]
        self.cpu[frame[0]] += cpu - frame[4]
        if self.stack:
            self.stack[-1][2] += spent
            self.stack[-1][4] += cpu
        return spent

    def trip(self, method: str, awaited: bool = True) -> None:
        counts = self.trips if awaited else self.unawaited
        counts[self.stack[-1][0] if self.stack else TEST] += 1
        if awaited:
            self.methods[method] += 1
            if self.tool is not None:
                self.tool_trips[self.tool] += 1
                self.tool_methods[f"{self.tool} {method}"] += 1

    def by_tool(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``Replayer.run_action`` counting its round trips under its action's tool (the
        outermost call: an action re-run without the engine counts once)."""
        def counted(replayer: Any, action: Any, *args: Any, **kwargs: Any) -> Any:
            if self.tool is not None:
                return fn(replayer, action, *args, **kwargs)
            self.tool = action.tool
            self.tool_actions[action.tool] += 1
            try:
                return fn(replayer, action, *args, **kwargs)
            finally:
                self.tool = None

        counted.__wrapped__ = fn  # type: ignore[attr-defined]
        return counted


PROFILE = Profile()


def _install() -> None:
    for category, target in TARGETS:
        module_name, _, attr = target.partition(":")
        try:
            owner: Any = importlib.import_module(module_name)
        except ImportError:
            continue
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part, None)
        if owner is None or not hasattr(owner, name):
            continue
        setattr(owner, name, PROFILE.wrap(category, getattr(owner, name)))
    try:
        from pytest_webtask.recipes._sync.replayer import Replayer
    except ImportError:
        pass
    else:
        Replayer.run_action = PROFILE.by_tool(Replayer.run_action)  # type: ignore[method-assign]
    from playwright._impl.connection import Connection

    send = Connection.send_message_to_server

    def counted(self: Any, obj: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        if method != "__waitInfo__":
            PROFILE.trip(method, awaited=method != "updateSubscription")
        return send(self, obj, method, *args, **kwargs)

    Connection.send_message_to_server = counted  # type: ignore[method-assign,assignment]


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get(ENV):
        _install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[Any]:
    # the test's own category, below every wrapped call
    frame: list[Any] = [TEST, time.perf_counter(), 0.0, time.thread_time(), 0.0]
    PROFILE.stack.append(frame)
    try:
        return (yield)
    finally:
        PROFILE.tests[item.nodeid] = PROFILE.close(frame)


def pytest_unconfigure(config: pytest.Config) -> None:
    path = os.environ.get(ENV)
    if not path or not PROFILE.tests:
        return
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps({"seconds": PROFILE.seconds, "cpu": PROFILE.cpu,
                              "process_cpu": time.process_time(), "calls": PROFILE.calls,
                              "trips": PROFILE.trips,
                              "unawaited": PROFILE.unawaited, "tests": PROFILE.tests,
                              "methods": PROFILE.methods, "tool_trips": PROFILE.tool_trips,
                              "tool_actions": PROFILE.tool_actions,
                              "tool_methods": PROFILE.tool_methods}) + "\n")
