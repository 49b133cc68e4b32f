"""The rolling-horizon planning strategy (seed 004) on the demo shop, with ScriptedLLM."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from example_suites.demo_shop import DemoShop
from pytest_webtask import WebTask
from pytest_webtask.agent._sync.plan_agent import PlanAgent
from pytest_webtask.agent.messages import MessageManager
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask

ADD = "add the Blue Oxford Shirt in size M to the cart"


class PlanScript:
    """Plans for planner calls, invocations for step calls, each consumed in order."""

    def __init__(self, plans: list[Any], invocations: list[Any]) -> None:
        self.plans, self.invocations = list(plans), list(invocations)
        self.llm = ScriptedLLM(self)

    def __call__(self, context: ModelRequest) -> Any:
        planning = context.system.startswith("You are a concise web task planner")
        queue = self.plans if planning else self.invocations
        assert queue, f"script ran out of {'plans' if planning else 'invocations'}"
        return queue.pop(0)

    def prompts(self, kind: str) -> list[str]:
        planner = "You are a concise web task planner"
        return [c.prompt for c in self.llm.calls
                if (c.context.system.startswith(planner)) == (kind == "plan")]


def add_shirt_script() -> PlanScript:
    return PlanScript(
        plans=[
            {"steps": [{"action": "choose size M", "tool": "select"},
                       {"action": "add the shirt to the cart", "tool": "click"},
                       {"action": "finish", "tool": "done"}]},
            {"steps": [{"action": "confirm the cart holds the shirt", "tool": "done"}]},
        ],
        invocations=[
            {"tool": "select", "parameters": {"element_id": "select-3", "value": "M"},
             "reason": "size M for the Blue Oxford Shirt"},
            {"tool": "click", "parameters": {"element_id": "button-4"}, "reason": "add it"},
            {"tool": "done", "parameters": {"summary": "in the cart",
                                      "evidence": ["Blue Oxford Shirt", "Size M"]},
             "reason": "the cart shows it"},
        ],
    )


@pytest.fixture(scope="module")
def shop() -> Iterator[DemoShop]:
    with DemoShop() as running:
        yield running


def test_multi_step_flow_completes(page: Page, shop: DemoShop) -> None:
    page.goto(shop.url + "/")
    script = add_shirt_script()
    agent = PlanAgent(page, script.llm)
    result = agent.execute(ADD)
    assert result.completed, result.message
    assert result.usage.calls == 5  # plan, select, click, (page changed) plan, done
    assert [s.proposal.actions[0].tool for s in result.steps[:-1]] == ["select", "click"]
    assert result.steps[-1].proposal.complete and result.evidence[0].found
    assert "Size M" in page.inner_text("main")
    assert len(agent.plans) == 2
    assert "Replanning: the page changed." in script.prompts("plan")[1]


def test_failed_step_triggers_a_replan_showing_the_failure(page: Page, shop: DemoShop) -> None:
    page.goto(shop.url + "/")
    script = add_shirt_script()
    script.invocations.insert(0, {"tool": "click", "parameters": {"element_id": "button-99"},
                                  "reason": "a wrong id"})
    script.plans.insert(1, {"steps": [{"action": "choose size M", "tool": "select"},
                                      {"action": "add it", "tool": "click"}]})
    result = PlanAgent(page, script.llm).execute(ADD)
    assert result.completed
    replan = script.prompts("plan")[1]
    assert "Tool: click\nReasoning: a wrong id\nResult: Failed: Unknown element id 'button-99'" \
        in replan
    assert "Replanning: the step failed." in replan


def test_done_ends_the_task(page: Page, shop: DemoShop) -> None:
    page.goto(shop.url + "/")
    script = PlanScript(
        plans=[{"steps": [{"action": "finish", "tool": "done"},
                          {"action": "never reached", "tool": "click"}]}],
        invocations=[{"tool": "done", "parameters": {"evidence": ["13 products"]}}])
    result = PlanAgent(page, script.llm).execute("look at the product list")
    assert result.completed and result.usage.calls == 2
    assert not script.invocations and not script.plans


def test_done_without_evidence_is_refused_when_evidence_is_required(
    page: Page, shop: DemoShop
) -> None:
    page.goto(shop.url + "/")
    script = PlanScript(
        plans=[{"steps": [{"action": "finish", "tool": "done"}]},
               {"steps": [{"action": "finish with evidence", "tool": "done"}]}],
        invocations=[{"tool": "done", "parameters": {"evidence": ["No such text anywhere"]}},
                     {"tool": "done", "parameters": {"evidence": ["13 products"]}}])
    result = PlanAgent(page, script.llm, require_evidence=True).execute("look")
    assert result.completed
    assert "done refused: these claims do not hold" in script.prompts("plan")[1]


def test_tools_cannot_write_to_the_message_manager() -> None:
    manager = MessageManager()
    manager.add_user("task")
    reader = manager.reader()
    with pytest.raises(PermissionError, match="read-only"):
        reader.add_assistant("a tool trying to write")  # type: ignore[attr-defined]
    with pytest.raises(PermissionError, match="read-only"):
        reader._manager = manager  # type: ignore[misc]
    messages = reader.get_all()
    with pytest.raises(AttributeError):
        messages.append("x")  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        messages[0].content = "changed"  # type: ignore[misc]
    manager.add_assistant("the agent writes")
    assert reader.get_last_assistant() == "the agent writes"  # a live view, read-only
    assert reader.get_conversation_history() == "user: task\nassistant: the agent writes"


def test_max_iterations_stops_a_task_that_never_finishes(page: Page, shop: DemoShop) -> None:
    page.goto(shop.url + "/")
    script = PlanScript(plans=[{"steps": [{"action": "scroll", "tool": "scroll"}]}] * 10,
                        invocations=[{"tool": "scroll", "parameters": {"direction": "down"}}] * 10)
    result = PlanAgent(page, script.llm, max_iterations=4).execute("find the unicorn")
    assert result.completed is False
    assert result.message.startswith("Task not completed after 4 iterations (MAX_ITERATIONS).")
    assert len(result.steps) == 4


def test_recipe_recorded_with_plan_replays_without_a_model(
    browser: Browser, shop: DemoShop, tmp_path: Path
) -> None:
    recipe = tmp_path / "plan.yaml"

    def run(mode: str, llm: Any) -> WebTask:
        context = browser.new_context()
        with open_webtask(context.new_page(), recipe, mode, base_url=shop.url, llm=llm,
                          strategy="plan") as task:
            task.goto("/")
            task.do(ADD)
        context.close()
        return task

    recorded = run("record", add_shirt_script().llm)
    assert recorded.stats.recorded == 1 and recorded.stats.llm_calls == 5
    text = recipe.read_text()
    assert "tool: select" in text and "tool: click" in text and "tool: done" not in text
    replayed = run("replay", None)
    assert replayed.stats.replayed == 1 and replayed.stats.llm_calls == 0
