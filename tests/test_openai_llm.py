"""OpenAILLM against the fake OpenAI-compatible server: replies, retries, faults."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from pytest_webtask import Agent, ConfigurationError, LLMError, OpenAILLM
from pytest_webtask.llm.request import Block, ModelRequest
from pytest_webtask.testing import FakeOpenAIServer, Fault
from tests.server import LocalServer
from tests.test_agent_e2e import STEP1, STEP2

KEY = "sk-test-DO-NOT-LEAK-123"


def ctx() -> ModelRequest:
    return ModelRequest(system="sys", blocks=[Block("hello")], response_schema={"type": "object"})


def test_normal_reply_counts_tokens_and_asks_for_json() -> None:
    with FakeOpenAIServer(['{"ok": true}']) as fake:
        llm = OpenAILLM("m1", base_url=fake.base_url, api_key=KEY)
        reply = llm.generate(ctx())
    assert reply.text == '{"ok": true}'
    assert (reply.usage.calls, reply.usage.prompt_tokens, reply.usage.completion_tokens) == \
        (1, 100, 10)
    body = fake.requests[0]
    assert body["model"] == "m1" and body["temperature"] == 0
    assert body["response_format"]["type"] == "json_schema"
    assert body["messages"] == [{"role": "system", "content": "sys"},
                                {"role": "user", "content": "hello"}]
    assert fake.headers[0]["authorization"] == f"Bearer {KEY}"


def test_429_then_success_is_retried() -> None:
    with FakeOpenAIServer([Fault.http(429), "{}"]) as fake:
        reply = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=2).generate(ctx())
    assert reply.text == "{}"
    assert len(fake.requests) == 2


def test_500_every_time_names_endpoint_not_key() -> None:
    with FakeOpenAIServer([Fault.http(500)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=1)
        with pytest.raises(LLMError) as info:
            llm.generate(ctx())
    msg = str(info.value)
    assert fake.base_url in msg and "HTTP 500" in msg
    assert KEY not in msg and KEY not in repr(llm)
    assert len(fake.requests) == 2  # first try + one retry


def test_timeout_is_a_clear_error() -> None:
    with FakeOpenAIServer([Fault.slow(2.0)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, timeout=0.3, max_retries=0)
        with pytest.raises(LLMError, match=r"did not answer within 0.3s"):
            llm.generate(ctx())


def test_a_timed_out_request_is_cancelled_and_not_retried() -> None:
    # a CPU server still generating when the client gives up: the client must close the
    # connection (llama.cpp's server then stops), and not ask again by default: a retry lands
    # on a server still busy with the first request, and takes as long
    with FakeOpenAIServer([Fault.slow(30.0)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, timeout=0.5, max_retries=2)
        started = time.monotonic()
        with pytest.raises(LLMError, match=r"did not answer within 0.5s\. The request was "
                                           r"closed") as info:
            llm.generate(ctx())
        assert time.monotonic() - started < 2
        _wait_for(lambda: fake.cancelled)
    assert fake.cancelled == [0] and len(fake.requests) == 1  # closed, and asked once
    assert "WEBTASK_LLM_TIMEOUT" in str(info.value)
    usage = info.value.usage
    assert usage is not None and (usage.calls, usage.timeouts, usage.refusals) == (0, 1, 0)
    assert 0.4 < usage.seconds < 2


def test_a_timed_out_request_is_retried_when_asked() -> None:
    with FakeOpenAIServer([Fault.slow(30.0)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, timeout=0.5, max_retries=1,
                        retry_timeouts=True)
        with pytest.raises(LLMError, match=r"did not answer within 0.5s after 1 retry") as info:
            llm.generate(ctx())
        _wait_for(lambda: len(fake.cancelled) == 2)
    assert fake.cancelled == [0, 1]  # both tries were dropped by the client
    assert info.value.usage is not None and info.value.usage.timeouts == 2


def _wait_for(condition: Callable[[], object], seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_the_fake_server_finishes_a_slow_reply_for_a_patient_client() -> None:
    # the other side of the test above: the disconnect watch does not cut a live request
    with FakeOpenAIServer([Fault.slow(0.5, content='{"ok": 1}')]) as fake:
        reply = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, timeout=5).generate(ctx())
    assert reply.text == '{"ok": 1}' and fake.cancelled == []


def test_malformed_body_is_a_clear_error() -> None:
    with FakeOpenAIServer([Fault.malformed()]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(LLMError, match="model endpoint"):
            llm.generate(ctx())


def test_structured_outputs_refused_falls_back_to_json_mode() -> None:
    refusal = Fault.http(400, "response_format of type json_schema is not supported")
    with FakeOpenAIServer([refusal, "{}"]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY)
        assert llm.generate(ctx()).text == "{}"
    assert [r["response_format"]["type"] for r in fake.requests] == ["json_schema", "json_object"]
    assert llm.structured_outputs is False


def test_another_400_is_reported_not_retried_in_json_mode() -> None:
    too_long = Fault.http(400, "This model's maximum context length is 8192 tokens")
    with FakeOpenAIServer([too_long, "{}"]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(LLMError, match="maximum context length"):
            llm.generate(ctx())
    assert [r["response_format"]["type"] for r in fake.requests] == ["json_schema"]
    assert llm.structured_outputs is not False


def test_missing_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEBTASK_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigurationError, match="WEBTASK_MODEL"):
        OpenAILLM.from_env()
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        OpenAILLM("m")


def test_agent_with_openai_llm_end_to_end(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    with FakeOpenAIServer([STEP1, STEP2]) as fake:
        result = Agent(page, OpenAILLM("m", base_url=fake.base_url, api_key=KEY)).execute(
            "Fill the price as $50 and submit")
    assert result.completed
    assert result.usage.calls == 2 and result.usage.prompt_tokens == 201
    assert server.posts == [("/listings", {"price": "50"}, {})]
    assert "Step History:\n\nStep 1:" in fake.requests[1]["messages"][-1]["content"]


# an in-process inner run: no browser, so without pytest-playwright (its hooks do not nest)
INNER = ("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:playwright")


def test_the_request_timeout_setting_reaches_the_model(pytester: pytest.Pytester,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile("""
        import os

        def test_timeout(webtask_llm):
            assert webtask_llm.timeout == float(os.environ["EXPECTED"])
        """)
    quiet = "asyncio_default_fixture_loop_scope = function\n"  # no pytest-asyncio warning
    pytester.makeini("[pytest]\n" + quiet)
    monkeypatch.setenv("WEBTASK_MODEL", "m")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("WEBTASK_LLM_TIMEOUT", "240")
    monkeypatch.setenv("EXPECTED", "240")
    pytester.runpytest(*INNER).assert_outcomes(passed=1)
    pytester.makeini("[pytest]\n" + quiet + "webtask_llm_timeout = 7.5\n")  # ini beats env
    monkeypatch.setenv("EXPECTED", "7.5")
    pytester.runpytest(*INNER).assert_outcomes(passed=1)
    monkeypatch.setenv("WEBTASK_LLM_TIMEOUT", "soon")
    pytester.makeini("[pytest]\n" + quiet)
    result = pytester.runpytest(*INNER)
    assert "webtask setting llm_timeout should be a float; got 'soon'" in str(result.outlines
                                                                             + result.errlines)
