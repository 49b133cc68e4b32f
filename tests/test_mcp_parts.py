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
        'secrets={"password": os.environ.get("SHOP_PASSWORD") or pytest.fail("Set the '
        "environment variable SHOP_PASSWORD (the test's secret 'password'): export "
        "SHOP_PASSWORD=... where pytest runs; in CI, from the CI's secrets.\", "
        'pytrace=False)})\n'
        '    webtask.check("the page greets Ada")\n')
    module = tmp_path / "test_account.py"
    module.write_text("def test_other(webtask):\n    pass\n")
    before = testfile.add_test(module, source, needs_os=True)
    assert testfile.has_test(module, "test_sign_in") and testfile.has_test(module, "test_other")
    assert module.read_text().startswith("import os\nimport pytest\n\n")
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
    assert shown.endswith("=== TOOLS OF THIS TASK (for act) ===\n- click(): ")
    assert json.loads(requests.reply("ok", evidence=["Size M"])) == {
        "message": "ok", "complete": True, "evidence": ["Size M"]}


def test_every_kind_and_field_of_a_claim_is_documented_where_the_agent_reads_it() -> None:
    from pytest_webtask.agent.parsing import EvidenceSpec
    from pytest_webtask.mcp_server import claims, server

    kinds = set(claims._literals("expect"))
    assert set(claims.KINDS) == kinds  # a kind added to the model fails here
    documented = {f for kind in claims.KINDS.values() for f in kind.fields} | {"expect"}
    assert documented == set(EvidenceSpec.model_fields)  # and so does a field
    assert set(claims.FIELDS) == set(EvidenceSpec.model_fields)
    for name, kind in claims.KINDS.items():
        spec = EvidenceSpec.model_validate(kind.example)  # each example is a claim
        assert spec.expect == name and set(kind.example) <= {"expect", *kind.fields}
        assert claims.claim_problems(1, kind.example) == []
        assert f"- {name}: " in server.DONE and json.dumps(kind.example) in server.DONE
        assert f'- {name}: {{"expect": "{name}"' in claims.reference(compact=True)
        for field in kind.fields:
            assert f"{field} (" in kind.field_list()
    for value in (*claims.STATES, *claims.MATCHES):  # allowed values come from the model
        assert value in server.DONE
    assert "counted from 1" in server.DONE and "header row" in server.DONE  # nth's rows


def test_a_claim_that_cannot_be_read_is_answered_with_the_fields_of_its_kind() -> None:
    from pytest_webtask.mcp_server import claims

    said = claims.reply_problems(requests.reply("The shirt is first", evidence=[
        {"expect": "nth", "element": "button-0", "n": 1}]), done=True)
    assert len(said) == 1
    assert "claim 1" in said[0] and "n: a claim of kind 'nth' has no field 'n'" in said[0]
    assert "index (required): the item's position, 1 for the first" in said[0]
    said = claims.reply_problems(requests.reply("First", evidence=[
        {"expect": "nth", "element": "button-0", "index": 0}]), done=True)
    assert "index: Input should be greater than or equal to 1" in said[0]
    said = claims.reply_problems(requests.reply("Gone", evidence=[
        {"expect": "count", "count": 2}]), done=True)
    assert "within or element: a claim of kind 'count' needs it" in said[0]
    said = claims.reply_problems(requests.reply("Odd", evidence=[
        {"expect": "url", "path": "/cart", "text": "Cart"}]), done=True)
    assert "text: a claim of kind 'url' does not read it" in said[0]
    assert claims.reply_problems(requests.reply("x", evidence=[]), done=True) == [
        "evidence: 1 to 3 claims (you gave 0)"]
    assert claims.reply_problems(requests.reply("", actions=[{"tool": "click"}]),
                                 done=False) == [
        "message: say in one sentence what the page shows (it is empty)"]
    assert claims.reply_problems(requests.reply("ok", evidence=["Size M", {
        "expect": "state", "element": "input-0", "state": "checked"}]), done=True) == []


def _step(number: int, history: str, page: str, question: str) -> Parked:
    user = "\n\n---\n\n".join(["Task:\nadd the shirt", history, page, question])
    return Parked(number, {"messages": [
        {"role": "system", "content": "rules\n\nAvailable Tools:\n\nTool: click\n"
                                      "Description: Click\nParameters:\n"
                                      "  - element_id (string, required): Element ID"},
        {"role": "user", "content": user}]})


def test_an_answer_says_once_what_the_agent_was_shown() -> None:
    page = "Current Page State:\nURL: http://shop/\n\n- button-0 \"Add\""
    first = _step(1, "Step History:\nNo steps executed yet.", page, "The task: add the shirt")
    second = _step(2, "Step History:\n\nStep 1:\n  Action 1: click button-9\n  Error: unknown",
                   page, "What your last actions did (step 1: click):\nnothing\n\n"
                   "The task: add the shirt")
    third = _step(3, "Step History:\n\nStep 1:\n  Action 1: click button-9\n  Error: unknown",
                  page, "What your last actions did (step 1: click):\nnothing\n\n"
                  "The task: add the shirt")
    shown = requests.Shown()
    builtin = "- click(element_id): Click"
    one = requests.describe(first, shown=shown, builtin=builtin)
    assert page in one and "=== TOOLS OF THIS TASK" in one  # a line: act's description's
    two = requests.describe(second, previous=first, shown=shown, builtin=builtin)
    assert "unchanged since model request 1" in two and page not in two
    assert "Step 1:" in two and "=== TOOLS" not in two and "(as model request 1 gave" in two
    three = requests.describe(third, previous=second, shown=shown, builtin=builtin)
    assert "Step 1:" not in three and "(steps 1-1 of this task" in three
    assert "What your last actions did: as model request 2 said" in three

    full = requests.describe(third, previous=second, shown=shown, builtin=builtin,
                             full=True, tools=True)
    assert "Step 1:" in full and page in full and "- click(element_id): Click" in full


def test_a_step_recorded_over_advice_says_so_after_its_checks() -> None:
    from pytest_webtask.mcp_server.steplog import describe

    step = {"kind": "do", "text": "show only the jackets", "how": "recorded", "actions": [],
            "checks": [{"says": "the page shows text '7 products'", "expect": "text",
                        "added": "", "held_before": False}], "doubted": ["show-only"]}
    said = describe(1, step)
    assert "Recorded over advice (show-only): the recipe marks it `doubted`" in said
    assert "Recorded over advice" not in describe(1, {**step, "doubted": []})
