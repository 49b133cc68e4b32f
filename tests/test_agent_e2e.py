"""The core agent end to end: ScriptedLLM replies, a real Chromium, a local server."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer

STEP1 = {
    "complete": False,
    "message": "Need to fill price field and submit form",
    "actions": [
        {"reason": "Fill the price field with $50", "tool": "fill",
         "parameters": {"element_id": "input-0", "value": "50"}},
        {"reason": "Submit the form", "tool": "click", "parameters": {"element_id": "button-0"}},
    ],
}
STEP2 = {
    "complete": True,
    "message": "Task completed successfully: Price filled as $50 and form submitted.",
    "actions": [],
}

SEED_HISTORY = """Step History:

Step 1:
  Status: Incomplete
  Message: Need to fill price field and submit form
  Action 1:
    Tool: fill
    Reason: Fill the price field with $50
    Parameters: {'element_id': 'input-0', 'value': '50'}
    Execution: Success
  Action 2:
    Tool: click
    Reason: Submit the form
    Parameters: {'element_id': 'button-0'}
    Execution: Success"""


def test_seed_001_example_end_to_end(page: Page, server: LocalServer) -> None:
    """The seed's example, its history exactly as the seed shows it: with the
    ``history-facts`` and ``named-actions`` rules off (the bare loop keeps the model's own
    messages and names elements by id only)."""
    page.goto(server.url + "/price")
    llm = ScriptedLLM([STEP1, STEP2])
    result = Agent(page, llm, rules_off=("history-facts", "named-actions")).execute(
        "Fill the price as $50 and submit")

    assert result.completed is True
    assert len(llm.calls) == 2
    assert result.usage.calls == 2
    assert server.posts == [("/listings", {"price": "50"}, {})]
    first, second = llm.prompts
    assert "Task:\nFill the price as $50 and submit" in first
    assert "Step History:\nNo steps executed yet." in first
    assert "Tool: fill\nDescription: Fill a form field\nParameters:" in first
    assert '- input-0 (type="text" name="price" placeholder="Enter price")' in first
    assert "button-0" in first
    assert SEED_HISTORY in second
    assert "Success!" in second
    assert [len(s.executions) for s in result.steps] == [2, 0]


def test_history_facts_leave_out_the_models_own_words(page: Page, server: LocalServer) -> None:
    """With the ``history-facts`` rule (on by default) the history keeps each action, its
    outcome and what it changed, never the model's own earlier sentence (a small model copies
    it), in the worked examples too; the step log names the rule."""
    page.goto(server.url + "/price")
    llm = ScriptedLLM([STEP1, STEP2])
    result = Agent(page, llm).execute("Fill the price as $50 and submit")

    assert result.completed is True
    second = llm.prompts[1]
    assert SEED_HISTORY.replace(
        "  Message: Need to fill price field and submit form\n", "").replace(
        "    Execution: Success", "    Element: textbox \"Price\"\n    Execution: Success", 1
    ).replace("'button-0'}\n    Execution", "'button-0'}\n    Element: button \"Submit\"\n"
              "    Execution") in second
    assert "Need to fill price field" not in second
    assert "Message: " not in second
    assert "history-facts" in result.steps[1].rules
    assert "history-facts" not in result.steps[0].rules  # no history yet on the first step


def test_named_actions_show_the_element_each_action_ran_on(page: Page,
                                                          server: LocalServer) -> None:
    """``named-actions`` (on by default): the history and what the last actions did name the
    element each action ran on by role and name, as the page named it (an id means nothing
    once the page changed); off, ids alone, and the step log says which."""
    seen = []
    for off in ((), ("named-actions",)):
        page.goto(server.url + "/price")
        llm = ScriptedLLM([STEP1, STEP2])
        result = Agent(page, llm, rules_off=off).execute("Fill the price as $50 and submit")
        assert result.completed
        seen.append(llm.prompts[1])
        assert ("named-actions" in result.steps[1].rules) is (not off)
        assert "named-actions" not in result.steps[0].rules  # nothing ran before step 1
    on, bare = seen
    assert "fill {'element_id': 'input-0', 'value': '50'} on textbox \"Price\"" in on
    assert "click {'element_id': 'button-0'} on button \"Submit\"" in on
    assert '    Element: button "Submit"' in on
    assert "Element: " not in bare and ' on textbox "' not in bare
    assert "fill {'element_id': 'input-0', 'value': '50'}, click" in bare


def test_a_do_task_is_shown_no_checks_worked_example(page: Page, server: LocalServer) -> None:
    """``do-demos``: a do task's request carries the worked examples of do tasks only (a
    small model copied a check's "so the statement is false" into do tasks); with the rule
    off, all of them, as a check gets."""
    from pytest_webtask.llm.prompts import get_examples
    checks = [u for u, _ in get_examples("agent/demos", "proposer")
              if "Check whether this statement" in u]
    assert checks  # the worked examples have checks to leave out
    shown = []
    for off in ((), ("do-demos",)):
        page.goto(server.url + "/price")
        llm = ScriptedLLM([STEP1, STEP2])
        result = Agent(page, llm, rules_off=off).execute("Fill the price as $50 and submit")
        assert result.completed
        shown.append(llm.prompts[0])
        assert ("do-demos" in result.steps[0].rules) is (not off)
    assert "so the statement is" not in shown[0]
    assert "so the statement is" in shown[1]
