"""strategy=plan, chosen by marker or ini: records into the same recipe format, replays alike."""

from __future__ import annotations

from tests.plugin.conftest import Inner

PLAN_TESTS = '''
import pytest
from pytest_webtask.testing import ScriptedLLM

PLANS = [
    {"steps": [{"action": "size M", "tool": "select"}, {"action": "add", "tool": "click"}]},
    {"steps": [{"action": "finish", "tool": "done"}]},
]
STEPS = [
    {"tool": "select", "args": {"element_id": "select-3", "value": "M"}, "reasoning": "M"},
    {"tool": "click", "args": {"element_id": "button-4"}, "reasoning": "add"},
    {"tool": "done", "args": {"evidence": ["Blue Oxford Shirt", "Size M"]}},
]


@pytest.fixture(scope="session")
def webtask_llm():
    plans, steps = list(PLANS), list(STEPS)
    return ScriptedLLM(lambda ctx: (plans if ctx.system.startswith("You are a concise web task "
                                                                    "planner") else steps).pop(0))


MARKER
def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''


def test_marker_selects_plan(inner: Inner) -> None:
    inner.tests(PLAN_TESTS.replace("MARKER", '@pytest.mark.webtask(strategy="plan")'))
    first = inner.run()
    first.assert_outcomes(passed=1)
    first.stdout.fnmatch_lines(["*0 step(s) replayed, 1 recorded*", "*LLM: 5 call(s)*"])
    recipe = inner.recipe("test_add").read_text()
    assert "tool: select" in recipe and "tool: click" in recipe
    second = inner.run()
    second.assert_outcomes(passed=1)
    second.stdout.fnmatch_lines(["*1 step(s) replayed, 0 recorded*", "*LLM: 0 calls*"])


def test_ini_default_and_bad_value(inner: Inner) -> None:
    inner.tests(PLAN_TESTS.replace("MARKER", ""))
    inner.pytester.makeini("[pytest]\nwebtask_strategy = plan\n")
    inner.run().stdout.fnmatch_lines(["*LLM: 5 call(s)*"])
    inner.pytester.makeini("[pytest]\nwebtask_strategy = guess\n")
    result = inner.run()
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*webtask strategy should be one of plan, step (plugins add "
                                 "more*; got 'guess'*"])
