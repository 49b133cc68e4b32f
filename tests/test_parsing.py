"""Reading a model's reply, in process: the JSON in it, validated; an unusable reply asked
again once with the reason, then a clear failure quoting both; secrets never sent or quoted.
(tests/test_agent_failures.py shows the same through the agent on a page.)"""

from __future__ import annotations

import json
import re

import pytest

from pytest_webtask.agent._sync.asker import Asker
from pytest_webtask.agent.budget import Budget, BudgetExhausted
from pytest_webtask.agent.parsing import (
    EvidenceSpec,
    InvalidReply,
    ProposalModel,
    as_spec,
    extract_json,
    parse_model,
    proposal_from,
)
from pytest_webtask.agent.task_context import TaskContext
from pytest_webtask.errors import ProposalError
from pytest_webtask.llm.request import Block, ModelRequest
from pytest_webtask.testing import ScriptedLLM
from pytest_webtask.types import Usage

DONE = {"complete": True, "message": "done"}


def ask(replies: list[object], task: TaskContext | None = None,
        budget: Budget | None = None) -> tuple[ProposalModel, ScriptedLLM]:
    llm = ScriptedLLM(replies)
    asker = Asker(llm, task or TaskContext("look"), Usage(), budget)
    context = ModelRequest(system="s", blocks=[Block("the page")], purpose="step", task="look")
    return asker.ask(context, ProposalModel, "reply"), llm


def test_the_json_is_found_whole_fenced_or_in_prose() -> None:
    assert extract_json(' {"a": 1} ') == {"a": 1}
    assert extract_json('Here you go:\n```json\n{"complete": true}\n```\nbye') == \
        {"complete": True}
    assert extract_json('Sure: {"a": {"b": 1}} and {"c": 2}') == {"a": {"b": 1}}
    assert extract_json("[1, 2]") == [1, 2]
    with pytest.raises(InvalidReply, match="it is not JSON"):
        extract_json("no {json here}")
    with pytest.raises(InvalidReply, match="nested too deeply"):
        extract_json("[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize(("bad", "why"), [
    ({"message": "hi", "actions": []}, "complete: Field required"),
    ({"complete": "yes", "message": "hi"}, "complete: Input should be a valid boolean"),
    ({"complete": False, "message": "hi", "actions": "click"}, "actions: Input should be"),
    ({"complete": True, "message": ""}, "message: String should have at least 1 character"),
    ([1, 2], "it is JSON but not an object (got list)"),
    ({"complete": True, "message": "m", "evidence": [{"expect": "colour"}]}, "evidence.0"),
])
def test_an_invalid_reply_says_what_is_wrong(bad: object, why: str) -> None:
    with pytest.raises(InvalidReply, match=re.escape(why)):
        parse_model(json.dumps(bad), ProposalModel)


def test_a_proposal_keeps_typed_claims_and_drops_empty_ones() -> None:
    model = parse_model(json.dumps({
        "complete": True, "message": "m" * 5000, "extra": "ignored",
        "actions": [{"tool": "click", "parameters": {"element_id": "button-0"}}],
        "evidence": ["  ", "Total: $39.00", {"expect": "count", "element": "li-0",
                                              "count": 3}]}), ProposalModel)
    result = proposal_from(model)
    assert result.message.endswith("[4000 more characters cut]")
    assert [(a.tool, a.parameters) for a in result.actions] == \
        [("click", {"element_id": "button-0"})]
    assert result.evidence[0] == "Total: $39.00"
    assert result.evidence[1] == EvidenceSpec(expect="count", element="li-0", count=3)
    assert as_spec("button-0", {"button-0"}) == EvidenceSpec(expect="text", element="button-0")
    assert as_spec(" Total ") == EvidenceSpec(expect="text", text="Total")


def test_an_unusable_reply_is_asked_again_once_with_the_reason() -> None:
    model, llm = ask(["Sure! I will click the button.", DONE])
    assert model.complete and len(llm.calls) == 2
    assert "Your previous reply could not be used: it is not JSON" in llm.prompts[1]
    assert "Sure! I will click the button." in llm.prompts[1]


def test_unusable_twice_fails_quoting_both_replies_without_secrets() -> None:
    task = TaskContext("sign in", secrets={"password": "lovelace-1815"})
    with pytest.raises(ProposalError) as failure:
        ask(["typing lovelace-1815 now", {"complete": "maybe", "message": "x"}], task)
    message = str(failure.value)
    assert message.startswith("The model's reply could not be used, twice. First: it is not "
                              "JSON; it said 'typing {password} now'. Then: complete: Input "
                              "should be a valid boolean")
    assert "lovelace-1815" not in message


def test_a_secret_on_the_page_never_reaches_the_model() -> None:
    task = TaskContext("sign in", secrets={"password": "lovelace-1815"})
    llm = ScriptedLLM([DONE])
    context = ModelRequest(system="s", blocks=[Block('input value="lovelace-1815"')],
                      purpose="step", task="sign in with lovelace-1815")
    Asker(llm, task, Usage()).ask(context, ProposalModel, "reply")
    assert "lovelace-1815" not in llm.prompts[0] + llm.calls[0].context.task
    assert 'value="{password}"' in llm.prompts[0]


def test_the_budget_is_checked_before_each_call_the_re_ask_included() -> None:
    with pytest.raises(BudgetExhausted, match="budget of 1 model calls"):
        ask(["not json", DONE], budget=Budget(max_calls=1))
