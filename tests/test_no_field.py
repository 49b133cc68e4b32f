"""``no-field``: a typing refused because its element takes no text, on a page that shows no
text field, says that a click opens one first. A small model typed its reply into one mail
row after another, each refused, and never opened the mail whose reply box would take it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.small.fields import no_field_note
from pytest_webtask.testing import ScriptedLLM

INBOX = """<!doctype html><html><body>
<div id="list">
  <div class="mail" style="cursor:pointer" onclick="open_()">Audrey <b>Lunch on Friday</b></div>
  <div class="mail" style="cursor:pointer">Cora <b>Minutes</b></div>
</div>
<div id="mail" hidden><p>Lunch on Friday?</p>
  <button onclick="document.getElementById('reply').hidden = false">Reply</button>
  <textarea id="reply" hidden></textarea></div>
<script>
function open_() { document.getElementById('list').hidden = true;
  document.getElementById('mail').hidden = false; }
</script>
</body></html>"""


def _act(tool: str, element_id: str, value: str | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"element_id": element_id}
    if value is not None:
        params["value"] = value
    return {"complete": False, "message": "m", "actions": [{"tool": tool, "parameters": params}]}


DONE = {"complete": True, "message": "done"}
TASK = 'Find the email by Audrey and reply to them with the text "See you there".'


def test_a_page_with_no_field_says_a_click_opens_one(page: Page) -> None:
    page.set_content(INBOX)
    llm = ScriptedLLM([_act("type", "div-0", "See you there"), _act("click", "div-0"),
                       _act("click", "button-0"), _act("type", "textarea-0", "See you there"),
                       DONE, DONE])  # (unsent-form asks once: the reply is never sent here)
    result = Agent(page, llm).execute(TASK, max_steps=5)
    said = result.steps[0].executions[0].error or ""
    assert "takes no text" in said
    assert "No element of this page takes text now: click what opens a field" in said, said
    assert "no-field" in result.steps[0].rules
    assert page.locator("#reply").input_value() == "See you there"
    # where the page has a field, the typing into a row is refused without the note
    typed_again = [s for s in result.steps if s.proposal.actions
                   and s.proposal.actions[0].tool == "type"][1]
    assert typed_again.executions[0].success


def test_the_note_is_left_out_where_a_field_or_an_empty_box_may_take_text() -> None:
    rows = '- div-0 "Audrey Lunch"\n  - span-0 (icon="delete")\n- div-1 "Cora Minutes"'
    assert no_field_note(rows, "div-0") is not None
    assert no_field_note(rows + '\n- textarea-0', "div-0") is None
    assert no_field_note(rows + '\n- input-0 (type="date")', "div-0") is None
    assert no_field_note(rows + "\n- div-2", "div-0") is None  # an empty editable box, maybe
    assert no_field_note(rows + '\n- input-0 (type="checkbox")', "div-0") is not None


def test_with_the_rule_off_the_error_is_the_tools_own(page: Page) -> None:
    page.set_content(INBOX)
    llm = ScriptedLLM([_act("type", "div-0", "See you there"), DONE, DONE])
    result = Agent(page, llm, rules_off="no-field").execute(TASK, max_steps=2)
    said = result.steps[0].executions[0].error or ""
    assert "takes no text" in said and "No element of this page" not in said
