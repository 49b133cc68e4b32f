"""Budgets: model calls and tokens per task and per run, for both strategies."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_webtask import Agent, OpenAILLM
from pytest_webtask.agent._sync.plan_agent import PlanAgent
from pytest_webtask.agent.budget import Budget, RunBudget
from pytest_webtask.llm.context import Context
from pytest_webtask.testing import FakeOpenAIServer, ScriptedLLM
from tests.server import LocalServer
from tests.test_agent_failures import step
from tests.test_openai_llm import KEY

WANDER = step(message="still looking")


def test_call_budget_ends_the_task_naming_it(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM(lambda context: WANDER)
    result = Agent(page, llm, budget=Budget(max_calls=3)).execute("find it", max_steps=10)
    assert len(llm.calls) == 3
    assert result.completed is False
    assert result.message == "The step's budget of 3 model calls is used up (max_llm_calls)."


def test_token_budget_counts_what_the_server_reports(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    with FakeOpenAIServer([WANDER]) as fake:  # 110+ tokens a call
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY)
        result = Agent(page, llm, budget=Budget(max_tokens=250)).execute("find", max_steps=10)
    assert len(fake.requests) == 3
    assert result.message.startswith("The step's budget of 250 tokens is used up (333 used;")


def test_run_budget_is_shared_by_tasks(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    run = RunBudget(max_calls=4)
    llm = ScriptedLLM(lambda context: WANDER)
    first = Agent(page, llm, budget=Budget(run=run)).execute("one", max_steps=3)
    second = Agent(page, llm, budget=Budget(run=run)).execute("two", max_steps=3)
    assert first.message.startswith("Task not completed after 3 steps")
    assert second.message == "The run's budget of 4 model calls is used up (run_max_llm_calls)."
    assert len(llm.calls) == 4 and run.used.calls == 4


def test_plan_strategy_honours_the_call_budget(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")

    def reply(context: Context) -> dict:
        if context.system.startswith("You are a concise web task planner"):
            return {"steps": [{"action": "scroll", "tool": "scroll"}]}
        return {"tool": "scroll", "parameters": {"direction": "down"}}

    llm = ScriptedLLM(reply)
    agent = PlanAgent(page, llm, max_iterations=30, budget=Budget(max_calls=5))
    result = agent.execute("find the unicorn")
    assert len(llm.calls) == 5  # was 60 (30 plans + 30 resolutions) before giving up
    assert result.completed is False
    assert result.message == "The step's budget of 5 model calls is used up (max_llm_calls)."
