"""``webtask mcp``'s ``explore`` through the MCP SDK's stdio client (issue 74): a coding
agent explores a site into a test plan, answering each request with ``answer``, with the
explorer's guards kept (its origin only, no form sent that changes data unless allowed).
The agent here is a script: the rules of ``pytest_webtask.testing.explorer`` that read the
request the answer shows, never a model."""

from __future__ import annotations

import importlib.util
import re
from typing import Any

import pytest

from pytest_webtask.llm.request import Block, ModelRequest
from pytest_webtask.mcp_server.requests import SEPARATOR
from pytest_webtask.testing.explorer import explore_reply, plan_reply
from tests.library import LibraryApp
from tests.test_mcp import Agent, serve

# the MCP SDK (a test extra) is imported by the test that runs it, not at collection:
# each xdist worker collects every module
pytestmark = pytest.mark.skipif(importlib.util.find_spec("mcp") is None,
                                reason="the MCP SDK is not installed: pip install mcp")


def _request(answer: str) -> ModelRequest:
    """The request an answer shows, as the blocks the explorer's scripted rules read."""
    said = answer.split("=== REQUEST ===\n", 1)[1].split("\n\n=== REPLY SCHEMA ===", 1)[0]
    return ModelRequest(system="", blocks=[Block(b) for b in said.split(SEPARATOR)])


def test_explore_through_the_stdio_client_writes_a_plan_and_sends_nothing(
        pytester_process: pytest.Pytester) -> None:
    app = LibraryApp()
    project = pytester_process.path
    (project / "tests").mkdir(parents=True, exist_ok=True)
    asked: list[str] = []
    sizes: list[int] = []

    async def script(agent: Agent) -> None:
        said = await agent("explore", url=app.url + "/", max_pages=12)
        while "not a step: reply with the `answer` tool" in said:
            request = _request(said)
            planning = any(b.text.startswith("Site map (YAML):") for b in request.blocks)
            asked.append("plan" if planning else "explore")
            reply: dict[str, Any] = (plan_reply if planning else explore_reply)(request)
            said = await agent("answer", reply=reply)
            sizes.append(len(said))
            if len(asked) == 1:  # the instructions and the schema were said once
                assert "=== INSTRUCTIONS ===\n(as model request 1 gave them)" in said, said
                assert "=== REPLY SCHEMA ===\n(as model request 1 gave it)" in said
        assert said.startswith("Explored: the plan is"), said[-1500:]

    try:
        serve(project, script)
    finally:
        app.stop()
    assert "explore" in asked and asked[-1] == "plan", asked
    plan = (project / "tests" / "webtask-plan.md").read_text(encoding="utf-8")
    assert re.search(r"^#+ ", plan, re.M) and "do: " in plan, plan[:800]
    # the guards held: nothing that changes data was sent while exploring
    assert not [w for w in app.writes() if w != ("POST", "/signin")], app.writes()
    assert max(sizes) < 12_000, sizes  # a page state and its frame, not the instructions
