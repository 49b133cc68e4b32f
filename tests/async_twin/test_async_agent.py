"""AsyncAgent passes the same end-to-end tests as the sync Agent (own pytest process)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Page, async_playwright

from pytest_webtask import AsyncAgent, Block, LLMError, ModelRequest, OpenAILLM
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.testing import FakeOpenAIServer, Fault, ScriptedLLM
from tests.server import LocalServer
from tests.test_agent_e2e import SEED_HISTORY, STEP1, STEP2

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def apage() -> AsyncIterator[Page]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(**launch_args())
        page = await browser.new_page()
        yield page
        await browser.close()


async def test_seed_001_example_async(apage: Page, server: LocalServer) -> None:
    await apage.goto(server.url + "/price")
    llm = ScriptedLLM([STEP1, STEP2])
    result = await AsyncAgent(apage, llm, rules_off=("history-facts", "named-actions")).execute(
        "Fill the price as $50 and submit")  # the seed's history, the model's words kept
    assert result.completed and len(llm.calls) == 2
    assert server.posts == [("/listings", {"price": "50"}, {})]
    assert SEED_HISTORY in llm.prompts[1]


async def test_step_by_step_async_with_upload(apage: Page, server: LocalServer,
                                              tmp_path: Path) -> None:
    (tmp_path / "r.txt").write_text("R")
    await apage.goto(server.url + "/upload")
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"reason": "r", "tool": "upload",
             "parameters": {"element_id": "input-1", "resource_names": ["r"]}},
            {"reason": "r", "tool": "click", "parameters": {"element_id": "button-0"}}]},
        {"complete": True, "message": "done"},
    ])
    agent = AsyncAgent(apage, llm)
    await agent.set_task("upload r", resources={"r": str(tmp_path / "r.txt")})
    first = await agent.run_step()
    second = await agent.run_step()
    assert [e.success for e in first.executions] == [True, True]
    assert second.proposal.complete
    assert server.posts[0][2] == {"receipt:r.txt": b"R"}


async def test_async_openai_llm_end_to_end(apage: Page, server: LocalServer) -> None:
    await apage.goto(server.url + "/price")
    with FakeOpenAIServer([STEP1, STEP2]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="k")
        result = await AsyncAgent(apage, llm).execute("Fill the price as $50 and submit")
    assert result.completed and result.usage.calls == 2
    assert server.posts == [("/listings", {"price": "50"}, {})]


async def test_a_timed_out_async_request_is_cancelled() -> None:
    with FakeOpenAIServer([Fault.slow(30.0)]) as fake:
        # 3 s: long enough for a new async client to reach the server on a loaded machine
        # (at 0.5 s the request was sometimes never sent: nothing to cancel)
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="k", timeout=3.0, max_retries=0)
        with pytest.raises(LLMError, match=r"did not answer within 3s"):
            await llm.agenerate(ModelRequest(system="s", blocks=[Block("hi")]))
        # the server sees the closed connection at its next poll: waited for (under a loaded
        # machine's scheduling, seconds), not timed
        raised = time.monotonic()
        while not fake.cancelled and time.monotonic() - raised < 20:
            await asyncio.sleep(0.05)
        assert fake.cancelled == [0]  # the connection was closed: the server stopped


async def test_async_replies_stream_and_a_refusal_falls_back_at_once() -> None:
    schema = ModelRequest(system="s", blocks=[Block("hi")], response_schema={"type": "object"})
    with FakeOpenAIServer(['{"ok": 1}'], refuse_json_schema=500) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="k")
        reply = await llm.agenerate(schema)
    assert reply.text == '{"ok": 1}'
    assert [r["response_format"]["type"] for r in fake.requests] == \
        ["json_schema", "json_object"]  # one more request, no SDK retries in between
    assert all(r["stream"] for r in fake.requests)
    assert (reply.usage.calls, reply.usage.prompt_tokens, reply.usage.refusals) == (1, 100, 1)
    assert reply.usage.seconds > 0


async def test_async_timeout_bounds_the_whole_reply() -> None:
    # tokens every 50 ms for 10 s: no single read waits long, the reply does. 3 s, not less:
    # on a loaded machine a new async client took over 0.6 s to send its request (CI at load
    # 9: the timeout came first, the server never saw it, nothing was left to cancel)
    with FakeOpenAIServer([Fault.trickle(10.0)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="k", timeout=3.0)
        started = time.monotonic()
        with pytest.raises(LLMError, match=r"did not answer within 3s") as info:
            await llm.agenerate(ModelRequest(system="s", blocks=[Block("hi")]))
        assert time.monotonic() - started < 7  # the whole reply would take 10 s
        while not fake.cancelled and time.monotonic() - started < 20:
            await asyncio.sleep(0.05)
    assert fake.cancelled == [0] and len(fake.requests) == 1
    assert info.value.usage is not None and info.value.usage.timeouts == 1


async def test_async_context_window() -> None:
    with FakeOpenAIServer(props={"default_generation_settings": {"n_ctx": 8192}}) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="k")
        assert await llm.acontext_window() == 8192
        assert await llm.acontext_window() == 8192
    assert fake.paths == [("GET", "/props")]


async def test_async_dialog_answered_and_new_tab_followed(apage: Page,
                                                          server: LocalServer) -> None:
    server.pages["/ask"] = (
        "<button onclick=\"document.title = confirm('Delete Alpha?') ? 'deleted' : 'kept'\">"
        "Delete</button><a href='/price' target='_blank'>Prices</a>")
    await apage.goto(server.url + "/ask")
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"reason": "r", "tool": "dialog", "parameters": {"accept": True}},
            {"reason": "r", "tool": "click", "parameters": {"element_id": "button-0"}},
            {"reason": "r", "tool": "click", "parameters": {"element_id": "a-0"}}]},
        {"complete": True, "message": "done"},
    ])
    agent = AsyncAgent(apage, llm)
    result = await agent.execute("delete Alpha, then open the prices")
    assert await apage.title() == "deleted"
    click = result.steps[0].executions[1]
    assert [d.describe() for d in click.dialogs] == ["confirm dialog 'Delete Alpha?' (accepted)"]
    assert result.steps[0].executions[2].opened_tab
    assert agent.page.url.endswith("/price") and agent.page is not apage
    assert "[1] (current)" in llm.prompts[1]
