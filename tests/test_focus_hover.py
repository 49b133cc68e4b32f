"""``focus-hover``: a hover on a text field in a task that says to focus runs as a click on
the same field. A small model hovered the field it meant to focus; a hover focuses
nothing."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.testing import ScriptedLLM

FIELDS = """<!doctype html><html><body>
<input id="a" type="text"><input id="b" type="text"><input id="c" type="text">
<button id="menu" onmouseover="this.textContent = 'hovered'">Menu</button>
</body></html>"""


def _hover(element_id: str) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": "hover", "parameters": {"element_id": element_id}}]}


DONE = {"complete": True, "message": "done"}
TASK = "Focus into the 3rd input textbox."


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.id"))


def test_a_hover_on_the_field_to_focus_runs_as_a_click(page: Page) -> None:
    page.set_content(FIELDS)
    llm = ScriptedLLM([_hover("input-2"), DONE])
    result = Agent(page, llm).execute(TASK, max_steps=2)
    (action,) = result.steps[0].proposal.actions
    assert action.tool == "click" and action.parameters == {"element_id": "input-2"}
    assert "a hover does not focus a field" in (result.steps[0].executions[0].output or "")
    assert "focus-hover" in result.steps[0].rules
    assert focused(page) == "c"


def test_other_hovers_and_the_rule_off_stay_hovers(page: Page) -> None:
    page.set_content(FIELDS)
    llm = ScriptedLLM([_hover("button-0"), DONE, DONE])
    result = Agent(page, llm).execute("Focus into the menu", max_steps=2)
    assert result.steps[0].proposal.actions[0].tool == "hover"
    assert page.locator("#menu").inner_text() == "hovered"

    page.set_content(FIELDS)
    llm = ScriptedLLM([_hover("input-2"), DONE, DONE])
    result = Agent(page, llm, rules_off="focus-hover").execute(TASK, max_steps=2)
    assert result.steps[0].proposal.actions[0].tool == "hover"
    assert focused(page) != "c"

    page.set_content(FIELDS)
    llm = ScriptedLLM([_hover("input-2"), DONE, DONE])
    result = Agent(page, llm).execute("hover over the 3rd textbox", max_steps=2)
    assert result.steps[0].proposal.actions[0].tool == "hover"


def test_a_task_that_asks_for_a_hover_or_quotes_focus_keeps_it(page: Page) -> None:
    for task in ('Hover over the 3rd textbox; its tip says "Focus here"',
                 "Focus the page, then hover over the 3rd textbox"):
        page.set_content(FIELDS)
        llm = ScriptedLLM([_hover("input-2"), DONE, DONE])
        result = Agent(page, llm).execute(task, max_steps=2)
        assert result.steps[0].proposal.actions[0].tool == "hover", task
        assert "focus-hover" not in result.steps[0].rules
