"""Model I/O under hostile or broken replies, and OpenAILLM against awkward servers."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from pytest_webtask import Agent, LLMError, OpenAILLM
from pytest_webtask.agent.parsing import MAX_MESSAGE, InvalidReply, extract_json
from pytest_webtask.testing import FakeOpenAIServer, Fault, ScriptedLLM
from tests.server import LocalServer
from tests.test_agent_failures import DONE, act, step
from tests.test_openai_llm import KEY, ctx


def test_deeply_nested_reply_is_reasked_not_a_traceback(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    nested = '{"complete": false, "message": "x", "actions": [' + "[" * 1000 + "]" * 1000 + "]}"
    llm = ScriptedLLM([nested, DONE, DONE])
    result = Agent(page, llm).execute("look")
    assert result.completed
    assert "could not be used: it is JSON nested too deeply to read" in llm.prompts[1]


def test_json_then_prose_with_braces_is_accepted() -> None:
    text = '{"complete": true, "message": "ok"}\nNote: I used {curly} braces {here}.'
    assert extract_json(text) == {"complete": True, "message": "ok"}
    assert extract_json('Sure: {"a": {"b": 1}} and {"c": 2}') == {"a": {"b": 1}}
    with pytest.raises(InvalidReply, match="not JSON"):
        extract_json("no {json here}")


def test_a_huge_message_is_capped_in_history_and_result(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    huge = "blah " * 200_000  # 1 MB
    # the history keeps the model's words only with history-facts off: capped there
    llm = ScriptedLLM([step(message=huge), step(message=huge), step(message=huge)])
    result = Agent(page, llm, rules_off="history-facts").execute("look", max_steps=3)
    sizes = [len(p) for p in llm.prompts]
    assert sizes[2] - sizes[0] < 3 * (MAX_MESSAGE + 200)  # not megabytes per step
    assert "more characters cut]" in llm.prompts[1]
    assert len(result.message) < MAX_MESSAGE + 200
    # with it on (the default), the history has none of them
    llm = ScriptedLLM([step(message=huge), step(message=huge), step(message=huge)])
    result = Agent(page, llm).execute("look", max_steps=3)
    assert "blah blah" not in llm.prompts[1] and "blah blah" not in llm.prompts[2]
    assert len(result.message) < MAX_MESSAGE + 200


def test_required_evidence_that_is_not_found_is_not_completion(
        page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    fake = {"complete": True, "message": "done", "evidence": ["Order #999 confirmed"]}
    llm = ScriptedLLM(lambda context: fake)
    result = Agent(page, llm, require_evidence=True, profile="standard").execute(
        "buy", max_steps=2)
    assert result.completed is False
    # sent back once with what the page shows, then the task fails saying so
    assert "Your done was not recorded" in llm.prompts[1]
    assert "these claims do not hold on the page now" in result.message
    assert len(llm.calls) == 2


def test_401_does_not_claim_retries() -> None:
    with FakeOpenAIServer([Fault.http(401)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=2)
        with pytest.raises(LLMError) as info:
            llm.generate(ctx())
    assert len(fake.requests) == 1
    assert "answered HTTP 401:" in str(info.value) and "retr" not in str(info.value)
    assert "Check OPENAI_API_KEY" in str(info.value)


def test_500_counts_the_retries_made() -> None:
    with FakeOpenAIServer([Fault.http(500)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=1)
        with pytest.raises(LLMError, match=r"answered HTTP 500 after 1 retry: "):
            llm.generate(ctx())
    assert len(fake.requests) == 2


def test_json_schema_refused_with_500_falls_back_to_json_mode() -> None:
    with FakeOpenAIServer(['{"ok": 1}', '{"ok": 2}'], refuse_json_schema=500) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=0)
        assert llm.generate(ctx()).text == '{"ok": 1}'
        assert llm.generate(ctx()).text == '{"ok": 2}'  # remembered: no second refusal
    assert [r["response_format"]["type"] for r in fake.requests] == \
        ["json_schema", "json_object", "json_object"]


def test_response_format_setting_forces_a_mode() -> None:
    with FakeOpenAIServer(['{"ok": 1}'], refuse_json_schema=500) as fake:
        forced = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=0,
                           response_format="json_schema")
        with pytest.raises(LLMError, match="HTTP 500"):
            forced.generate(ctx())
        plain = OpenAILLM("m", base_url=fake.base_url, api_key=KEY,
                          response_format="json_object")
        assert plain.generate(ctx()).text == '{"ok": 1}'
    assert fake.requests[-1]["response_format"] == {"type": "json_object"}


def test_max_tokens_is_sent_and_a_cut_reply_is_explained(page: Page,
                                                          server: LocalServer) -> None:
    page.goto(server.url + "/price")
    rambling = json.dumps({"complete": False, "message": "thinking " * 500, "actions": []})
    with FakeOpenAIServer([rambling], refuse_json_schema=None) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_tokens=64)
        result = Agent(page, llm).execute("look", max_steps=1)
    assert all(r["max_tokens"] == 64 for r in fake.requests)
    assert result.completed is False
    assert "cut off at the max_tokens limit" in result.message
    assert result.usage.completion_tokens == 128  # two replies, each cut at 64 tokens


def test_default_max_tokens_is_sent() -> None:
    with FakeOpenAIServer(["{}"]) as fake:
        OpenAILLM("m", base_url=fake.base_url, api_key=KEY).generate(ctx())
    assert fake.requests[0]["max_tokens"] == 4096


def test_actions_over_the_budget_of_repeats_stop(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    same = step(act("click", element_id="button-77"))
    llm = ScriptedLLM(lambda context: same)
    result = Agent(page, llm).execute("click it", max_steps=10)
    assert len(llm.calls) == 3
    assert "You proposed exactly this failing action in the previous step too" \
        in llm.prompts[2]
    assert result.completed is False
    assert result.message.startswith("Stopped: the same action failed 3 times in a row "
                                     "(click {'element_id': 'button-77'}: Unknown element id")
