"""ScriptedLLM routes by what a request is for (``ModelRequest.purpose``, ``.task``, ``.step``),
not by the prompt's prose; those fields never reach a real model. In-process, no browser."""

from __future__ import annotations

import json

import pytest

from pytest_webtask.agent._sync.asker import Asker
from pytest_webtask.agent.parsing import ProposalModel
from pytest_webtask.agent.task_context import TaskContext
from pytest_webtask.llm.openai_llm import OpenAILLM
from pytest_webtask.llm.request import Block, ModelRequest
from pytest_webtask.testing import ScriptedLLM, ScriptedLLMExhausted
from pytest_webtask.types import Usage


def ctx(purpose: str, task: str = "buy a shirt", step: int = 1) -> ModelRequest:
    return ModelRequest(system="s", blocks=[Block("prose that may change")], purpose=purpose,
                   task=task, step=step)


def test_replies_are_routed_by_purpose_with_task_and_step_as_data() -> None:
    llm = ScriptedLLM({
        "step": lambda c: {"task": c.task, "step": c.step},
        "plan": ["the plan"],
        "extract": lambda c: c.purpose,  # a family key answers every "extract:*"
        "extract:recipe": ["the recipe"],  # unless the exact purpose is scripted
    })
    assert json.loads(llm.generate(ctx("step", step=2)).text) == {"task": "buy a shirt", "step": 2}
    assert llm.generate(ctx("plan")).text == "the plan"
    assert llm.generate(ctx("extract:strategy")).text == "extract:strategy"
    assert llm.generate(ctx("extract:recipe")).text == "the recipe"
    assert len(llm.calls) == 4 and llm.remaining == 0


def test_an_unscripted_purpose_says_which_are_scripted() -> None:
    llm = ScriptedLLM({"step": ["ok"]})
    with pytest.raises(ScriptedLLMExhausted, match=r"no script for a 'plan' request \(task "
                                                   r"'buy a shirt'\); it scripts step"):
        llm.generate(ctx("plan"))
    with pytest.raises(ScriptedLLMExhausted, match="no reply for call 2"):
        llm.generate(ctx("step"))
        llm.generate(ctx("step"))


def test_the_asker_redacts_secrets_in_the_task_field_too() -> None:
    task = TaskContext(task="sign in with hunter2", secrets={"password": "hunter2"})
    llm = ScriptedLLM({"step": [{"complete": True, "message": "ok", "evidence": []}]})
    context = ctx("step", task=task.task)
    Asker(llm, task, Usage()).ask(context, ProposalModel, "reply")
    assert "hunter2" not in llm.calls[0].context.task


def test_purpose_task_and_step_are_not_sent_to_a_model() -> None:
    llm = OpenAILLM(model="m", base_url="http://127.0.0.1:9/v1", api_key="k")
    sent = json.dumps(llm._request(ctx("extract:strategy", task="MARKER-TASK", step=7)))
    assert "MARKER-TASK" not in sent and "extract:strategy" not in sent


def test_the_example_suites_script_reads_checks_and_extraction_turns_off_the_fields() -> None:
    from example_suites.scripted import CHECK_PREFIX, extraction_turn, task_of

    check = ctx("step", task=CHECK_PREFIX + "the cart total is $39.00\nMore wording", step=1)
    assert task_of(check) == "the cart total is $39.00"
    assert task_of(ctx("step", task="add a shirt\nsize M")) == "add a shirt\nsize M"
    assert extraction_turn(ctx("extract:strategy", task="prices", step=3)) == (
        "extract: prices", "planner", 2)
    assert extraction_turn(ctx("extract:recipe", task="prices")) == ("extract: prices", "recipe", 0)
