"""Budgets: model calls and tokens per task and per run, for both strategies."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from pytest_webtask import Agent, OpenAILLM
from pytest_webtask.agent._sync.plan_agent import PlanAgent
from pytest_webtask.agent.budget import Budget, BudgetExhausted, RunBudget
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import FakeOpenAIServer, ScriptedLLM
from pytest_webtask.types import Usage
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

    def reply(context: ModelRequest) -> dict:
        if context.system.startswith("You are a concise web task planner"):
            return {"steps": [{"action": "scroll", "tool": "scroll"}]}
        return {"tool": "scroll", "parameters": {"direction": "down"}}

    llm = ScriptedLLM(reply)
    agent = PlanAgent(page, llm, max_iterations=30, budget=Budget(max_calls=5))
    result = agent.execute("find the unicorn")
    assert len(llm.calls) == 5  # was 60 (30 plans + 30 resolutions) before giving up
    assert result.completed is False
    assert result.message == "The step's budget of 5 model calls is used up (max_llm_calls)."


# -- the budget's arithmetic, in process (the tests above show it in a real agent) ---------


def test_a_step_budget_allows_exactly_its_calls_and_tokens() -> None:
    budget = Budget(max_calls=3, max_tokens=1000)
    budget.check(Usage(calls=2, prompt_tokens=900, completion_tokens=99))  # under both
    with pytest.raises(BudgetExhausted, match=re.escape(
            "The step's budget of 3 model calls is used up (max_llm_calls).")):
        budget.check(Usage(calls=3))
    with pytest.raises(BudgetExhausted, match=re.escape(
            "The step's budget of 1000 tokens is used up (1000 used; max_tokens).")):
        budget.check(Usage(calls=1, prompt_tokens=990, completion_tokens=10))
    Budget().check(Usage(calls=10_000, prompt_tokens=10**9))  # 0: no limit


def test_the_run_budget_counts_what_every_task_used() -> None:
    run = RunBudget(max_calls=4, max_tokens=100)
    budget = Budget(max_calls=10, run=run)
    budget.check(Usage())
    run.used.add(Usage(calls=3, prompt_tokens=60))
    budget.check(Usage(calls=1))
    run.used.add(Usage(calls=1))
    with pytest.raises(BudgetExhausted, match=re.escape(
            "The run's budget of 4 model calls is used up (run_max_llm_calls).")):
        budget.check(Usage())
    tokens = Budget(run=RunBudget(max_tokens=100, used=Usage(calls=1, completion_tokens=100)))
    with pytest.raises(BudgetExhausted, match=re.escape(
            "The run's budget of 100 tokens is used up (100 used; run_max_tokens).")):
        tokens.check(Usage())


def test_messages_name_the_setting_to_change() -> None:
    names = ("webtask_max_llm_calls", "webtask_max_tokens", "webtask_run_max_llm_calls",
             "webtask_run_max_tokens")
    with pytest.raises(BudgetExhausted, match=r"\(webtask_max_llm_calls\)"):
        Budget(max_calls=1, names=names).check(Usage(calls=1))
    with pytest.raises(BudgetExhausted, match=r"\(webtask_run_max_llm_calls\)"):
        Budget(run=RunBudget(max_calls=1, used=Usage(calls=1)), names=names).check(Usage())
