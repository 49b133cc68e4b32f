"""``webtask mcp``'s pure parts: the test functions it writes, and a request as the agent
reads it (the fast tier; tests/test_mcp.py drives the server itself)."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_webtask.mcp_server import requests, testfile
from pytest_webtask.mcp_server.bridge import Parked


def test_a_new_test_reads_secrets_from_the_environment(tmp_path: Path) -> None:
    steps = testfile.as_steps([{"goto": "/signin"},
                               {"kind": "do", "text": "sign in as {email}", "uses": ["password"]},
                               {"check": "the page greets Ada"}])
    source = testfile.function_source("test_sign_in", steps, {"email": "ada@example.com"},
                                      {"password": "SHOP_PASSWORD"})
    assert source == (
        'def test_sign_in(webtask):\n    webtask.goto("/signin")\n'
        '    webtask.do("sign in as {email}", email="ada@example.com", '
        'secrets={"password": os.environ["SHOP_PASSWORD"]})\n'
        '    webtask.check("the page greets Ada")\n')
    module = tmp_path / "test_account.py"
    module.write_text("def test_other(webtask):\n    pass\n")
    before = testfile.add_test(module, source, needs_os=True)
    assert testfile.has_test(module, "test_sign_in") and testfile.has_test(module, "test_other")
    assert module.read_text().startswith("import os\n")
    testfile.restore(module, before)
    assert module.read_text() == before


def test_steps_naming_what_the_test_does_not_have_are_refused() -> None:
    steps = testfile.as_steps([{"do": "sign in as {email}"}, {"jump": "/"}])
    assert testfile.problems(steps, {}, {}) == [
        "step 1: {email} is neither a variable nor a secret of the test",
        "step 2: kind 'jump' is not goto, do or check"]


def _request(user: str, schema: dict | None = None) -> Parked:
    system = "rules\n\nAvailable Tools:\n\nTool: click"
    return Parked(1, {"messages": [{"role": "system", "content": system},
                                   {"role": "user", "content": user}],
                      "response_format": {"type": "json_schema",
                                          "json_schema": {"schema": schema or {}}}})


def test_a_request_says_what_the_agent_loop_answered_and_what_is_offered() -> None:
    user = "\n\n---\n\n".join(["Task:\nadd the shirt", "Step History:\nNo steps executed yet.",
                               '- button-0 "Add"', "The task: add the shirt",
                               "Your evidence does not hold: no 'Size XL'."])
    schema = {"anyOf": [{"properties": {"complete": {"const": False}, "actions": {}}}]}
    shown = requests.describe(_request(user, schema), tools=True)
    assert shown.startswith("The agent loop answered your last reply:\nYour evidence does not "
                            "hold")
    assert "done is NOT offered" in shown and "give_up is NOT offered" in shown
    assert shown.endswith("Available Tools:\n\nTool: click")
    assert json.loads(requests.reply("ok", evidence=["Size M"])) == {
        "message": "ok", "complete": True, "evidence": ["Size M"]}
