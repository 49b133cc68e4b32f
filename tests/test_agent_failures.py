"""The agent's failure paths: the model's mistakes become history it can read, never crashes."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from pytest_webtask import Agent, LLMError
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer

DONE = {"complete": True, "message": "done", "actions": []}


def act(tool: str, **parameters: object) -> dict:
    return {"reason": f"use {tool}", "tool": tool, "parameters": parameters}


def step(*actions: dict, message: str = "working") -> dict:
    return {"complete": False, "message": message, "actions": list(actions)}


def test_unknown_element_and_unknown_tool_show_as_failed_then_task_completes(
    page: Page, server: LocalServer
) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM([
        step(act("click", element_id="button-99")),
        step(act("teleport", where="moon")),
        step(act("fill", element_id="input-0")),
        step(act("fill", element_id="input-0", value="50"), act("click", element_id="button-0")),
        DONE,
    ])
    result = Agent(page, llm).execute("Fill the price as $50 and submit")

    assert result.completed
    assert server.posts == [("/listings", {"price": "50"}, {})]
    assert "    Execution: Failed\n    Error: Unknown element id 'button-99'" in llm.prompts[1]
    assert "Error: Unknown tool 'teleport'. Available tools: navigate, click" in llm.prompts[2]
    assert "Error: Invalid parameters for fill: value: Field required" in llm.prompts[3]
    assert [e.success for s in result.steps for e in s.executions] == [False, False, False,
                                                                         True, True]


def test_failed_action_stops_the_step(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM([
        step(act("click", element_id="nope-1"), act("fill", element_id="input-0", value="9")),
        DONE,
    ])
    result = Agent(page, llm).execute("fill")
    assert len(result.steps[0].executions) == 1
    assert "Note: Stopped after action 1 failed; the remaining 1 action(s) were not run." \
        in llm.prompts[1]
    assert page.input_value("#price") == ""


def test_upload_delivers_a_resource_file(page: Page, server: LocalServer, tmp_path: Path) -> None:
    receipt = tmp_path / "receipt.txt"
    receipt.write_text("paid 50 EUR")
    page.goto(server.url + "/upload")
    llm = ScriptedLLM([
        step(act("fill", element_id="input-0", value="Ada"),
             act("upload", element_id="input-1", resource_names=["receipt"]),
             act("click", element_id="button-0")),
        DONE,
    ])
    result = Agent(page, llm).execute("send the receipt as Ada", resources={"receipt": receipt})

    assert result.completed
    assert server.posts == [("/receipts", {"who": "Ada"}, {"receipt:receipt.txt": b"paid 50 EUR"})]
    assert "Tool: upload" in llm.prompts[0]
    assert "- receipt: receipt.txt" in llm.prompts[0]
    assert str(tmp_path) not in llm.prompts[0]  # the model needs names, not our paths


def test_unknown_resource_is_a_failed_execution_naming_it(
    page: Page, server: LocalServer, tmp_path: Path
) -> None:
    (tmp_path / "a.txt").write_text("a")
    page.goto(server.url + "/upload")
    llm = ScriptedLLM([step(act("upload", element_id="input-1", resource_names=["invoice"])),
                       DONE])
    Agent(page, llm).execute("upload", resources={"receipt": tmp_path / "a.txt"})
    assert "Error: Resource not found: 'invoice'. Available resources: receipt." in llm.prompts[1]
    assert server.posts == []


def test_upload_tool_only_offered_with_resources(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/upload")
    llm = ScriptedLLM([DONE, DONE])  # done at first sight is asked once more
    Agent(page, llm).execute("look")
    assert "Tool: upload" not in llm.prompts[0]


def test_max_steps_exhausted(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM(lambda ctx: step(message="still looking"))
    result = Agent(page, llm).execute("find the unicorn", max_steps=3)
    assert result.completed is False
    assert len(llm.calls) == 3
    assert result.message.startswith("Task not completed after 3 steps (max_steps).")
    assert "still looking" in result.message


def test_malformed_reply_is_reasked_once(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM(["Sure! I will click the button.", DONE, DONE])
    result = Agent(page, llm).execute("look")
    assert result.completed
    assert len(llm.calls) == 3  # the re-ask, then done at first sight asked once more
    assert "Your previous reply could not be used: it is not JSON" in llm.prompts[1]
    assert "Sure! I will click the button." in llm.prompts[1]


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("not json at all", "it is not JSON"),
        ({"message": "hi", "actions": []}, "complete: Field required"),
        ({"complete": "yes", "message": "hi"}, "complete: Input should be a valid boolean"),
        ({"complete": False, "message": "hi", "actions": "click"}, "actions: Input should be"),
        ([1, 2], "it is JSON but not an object"),
    ],
)
def test_malformed_twice_fails_clearly(page: Page, server: LocalServer, bad: object,
                                       why: str) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM([bad, bad])
    result = Agent(page, llm).execute("look")
    assert result.completed is False
    assert len(llm.calls) == 2
    assert result.message.startswith("The model's reply could not be used, twice.")
    assert why in result.message
    assert "it said" in result.message


def test_fenced_json_reply_is_accepted(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM(['Here you go:\n```json\n{"complete": true, "message": "ok"}\n```'] * 2)
    assert Agent(page, llm).execute("look").completed


def test_impossible_before_anything_was_tried_is_asked_once_more_then_ends(
        page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    impossible = {"complete": False, "impossible": True, "actions": [],
                  "message": "There is no discount field on this form"}
    llm = ScriptedLLM([impossible, impossible])
    result = Agent(page, llm).execute("apply a discount", max_steps=8)
    assert result.completed is False and result.impossible is True
    assert len(llm.calls) == 2
    assert "You said the task cannot be done, but nothing has been tried yet" in llm.prompts[1]
    assert result.message == "Task impossible: There is no discount field on this form"


def test_impossible_after_actions_is_asked_once_then_ends_the_task(
        page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    give_up = {"complete": False, "impossible": True, "actions": [],
               "message": "There is no discount field on this form"}
    llm = ScriptedLLM([step(act("fill", element_id="input-0", value="5")), give_up, give_up])
    result = Agent(page, llm).execute("apply a discount", max_steps=8)
    assert result.completed is False and result.impossible is True
    assert len(llm.calls) == 3
    assert "You said the task cannot be done. Read the task again" in llm.prompts[2]


def test_a_task_given_up_beside_the_button_it_names_is_told_of_the_button(
        page: Page, server: LocalServer) -> None:
    server.pages["/book"] = ("<h1>Paper Moons</h1><details><summary>More</summary>2022"
                             "</details><form onsubmit='event.preventDefault()'>"
                             "<button>Reserve</button></form>")
    page.goto(server.url + "/book")
    give_up = {"complete": False, "impossible": True, "actions": [],
               "message": "No link reserves it"}
    llm = ScriptedLLM([step(act("click", element_id="summary-0")), give_up, give_up])
    Agent(page, llm).execute("open Paper Moons and reserve it", max_steps=8)
    assert ('You said the task cannot be done. The task names button-0 "Reserve", which is '
            "on the page and which no action of yours clicked yet.") in \
        " ".join(llm.prompts[2].split())
    # with the rule off, the question is the plain one
    llm = ScriptedLLM([step(act("click", element_id="summary-0")), give_up, give_up])
    page.goto(server.url + "/book")
    Agent(page, llm, rules_off="named-button").execute("open Paper Moons and reserve it",
                                                      max_steps=8)
    assert "You said the task cannot be done. Read the task again" in llm.prompts[2]


def test_script_running_out_is_a_clear_error(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    with pytest.raises(LLMError, match="ScriptedLLM has no reply for call 2"):
        Agent(page, ScriptedLLM([step()])).execute("look")


def test_navigation_outside_allowed_origins_is_refused(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM([step(act("navigate", url="http://127.0.0.2:9/evil")), DONE])
    Agent(page, llm, allowed_origins=[server.url]).execute("go")
    assert "Error: Navigation to http://127.0.0.2:9/evil refused" in llm.prompts[1]
    assert page.url == server.url + "/price"


def test_relative_navigation(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM([step(act("navigate", url="/upload")), DONE])
    Agent(page, llm, allowed_origins=[server.url]).execute("go")
    assert page.url == server.url + "/upload"
    assert "Title: Upload" in llm.prompts[1]


def test_navigation_mid_step_stops_remaining_actions(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM([
        step(act("fill", element_id="input-0", value="5"), act("click", element_id="button-0"),
             act("fill", element_id="input-0", value="7")),
        DONE,
    ])
    result = Agent(page, llm).execute("submit")
    assert len(result.steps[0].executions) == 2
    assert "Note: The page navigated after action 2" in llm.prompts[1]
    assert "the remaining 1 action(s) were not run because their element IDs are stale" \
        in llm.prompts[1]


def test_rerender_mid_step_stops_remaining_actions(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/rerender")
    llm = ScriptedLLM([
        step(act("click", element_id="button-0"), act("click", element_id="button-1")),
        DONE,
    ])
    Agent(page, llm).execute("increment")
    assert "Note: The page re-rendered after action 1: button-1 no longer exist" in llm.prompts[1]
    assert '- p "count 1"' in llm.prompts[1]


def test_variables_and_secrets(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/upload")
    llm = ScriptedLLM([
        step(act("fill", element_id="input-0", value="{password}")),
        step(act("click", element_id="button-0")),
        DONE,
    ])
    result = Agent(page, llm).execute("sign in as {user}", variables={"user": "ada"},
                                      secrets={"password": "hunter2-SECRET"})
    assert server.posts[0][1]["who"] == "hunter2-SECRET"
    everything = "\n".join(llm.prompts)
    assert "hunter2-SECRET" not in everything  # not even as the field's visible value
    assert "- {user} = 'ada'" in llm.prompts[0]
    assert "{password} = (secret" in llm.prompts[0]
    assert result.steps[0].proposal.actions[0].parameters["value"] == "{password}"


def test_click_that_leaves_allowed_origins_is_blocked(page: Page, server: LocalServer) -> None:
    port = server.url.rsplit(":", 1)[1]
    server.pages["/away"] = f'<a href="http://localhost:{port}/price">Somewhere else</a>'
    page.goto(server.url + "/away")
    llm = ScriptedLLM([step(act("click", element_id="a-0")), DONE])
    Agent(page, llm, allowed_origins=[server.url]).execute("follow the link")
    assert "Note: Blocked 1 request(s) to origins outside the allowed ones" in llm.prompts[1]
    assert f"GET http://localhost:{port}/price (navigation)" in llm.prompts[1]
    assert page.url == server.url + "/away"
    assert "/price" not in server.requests  # never sent, not undone afterwards


def test_placeholders_put_back_short_secrets_but_not_short_variables() -> None:
    from pytest_webtask.agent.task_context import TaskContext

    ctx = TaskContext.create("t", variables={"qty": "1", "name": "Ada"},
                             secrets={"pin": "42"})
    assert ctx.placeholders("pin 42 for Ada, qty 1") == "pin {pin} for {name}, qty 1"
    assert ctx.placeholders("1") == "{qty}"
    assert ctx.redact("pin 42 for Ada") == "pin {pin} for Ada"


def test_a_task_called_done_at_first_sight_is_asked_once_more(
        page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    llm = ScriptedLLM([DONE, step(act("fill", element_id="input-0", value="50")), DONE, DONE])
    result = Agent(page, llm).execute("fill the price with 50")
    # and after filling, "done" is asked about once more: only the field changed
    assert result.completed and len(llm.calls) == 4
    assert "You said the task is done, but nothing has been done yet" in llm.prompts[1]
    assert page.input_value("#price") == "50"
