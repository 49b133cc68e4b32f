"""``unasked-delete``: a click on an element that says it deletes (a row's trash icon,
"Remove") is held back once while the task says nothing of deleting. A small model asked
to forward the mail by Audrey clicked the first icon under her row, the trash: the mail the
test is about was gone and no later step brought it back. The rule holds a click back and
acts on nothing, once per element: clicked again, it runs."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.small.fields import asks_to_destroy, destroys
from pytest_webtask.browser.page_state import state_lines
from pytest_webtask.testing import ScriptedLLM

INBOX = """<!doctype html><html><body>
<div id="mails">
  <div class="mail" onclick="say('opened ' + this.dataset.who)" data-who="Audrey"
       style="cursor:pointer">Audrey <b>Lunch on Friday</b>
    <span class="trash" role="button" aria-label="Delete" style="cursor:pointer"
          onclick="event.stopPropagation(); this.parentNode.remove(); say('deleted')">x</span>
  </div>
  <div class="mail" onclick="say('opened ' + this.dataset.who)" data-who="Cora"
       style="cursor:pointer">Cora <b>Minutes</b></div>
</div>
<p id="out"></p>
<script>const say = (t) => { document.getElementById('out').textContent = t; };</script>
</body></html>"""


def _click(element_id: str) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": "click", "parameters": {"element_id": element_id}}]}


DONE = {"complete": True, "message": "done"}


def test_what_says_it_deletes_and_a_task_that_asks_for_it() -> None:
    lines = {line.id: line for line in state_lines(
        '- span-1 (icon="delete" class="trash")\n- button-0 "Remove item"\n'
        '- span-2 (icon="star" class="star")\n- a-0 "Removals and storage"\n'
        '- button-1 (label="Delete")\n- div-0 "Audrey Ridiculus eget"')}
    assert destroys(lines["span-1"]) == "delete"
    assert destroys(lines["button-0"]) == "Remove item"
    assert destroys(lines["button-1"]) == "Delete"
    assert destroys(lines["span-2"]) is None and destroys(lines["div-0"]) is None
    assert destroys(lines["a-0"]) is None  # "Removals" is no "remove"
    for task in ("Delete the email by Audrey", "remove the hat from the basket",
                 "empty the cart", "clear the search", "cancel the order",
                 "click the trash icon of the first mail"):
        assert asks_to_destroy(task), task
    for task in ("forward the email by Audrey to Hedy", "reply to Cora", "star the mail",
                 "add the hat to the basket"):
        assert not asks_to_destroy(task), task


def test_a_trash_icon_clicked_for_a_task_about_something_else_is_held_back_once(
        page: Page) -> None:
    page.set_content(INBOX)
    llm = ScriptedLLM([_click("span-0"), _click("div-0"), DONE])
    result = Agent(page, llm).execute("Find the email by Audrey and forward it to Hedy",
                                      max_steps=3)
    assert "span-0 (" in llm.prompts[0] and 'label="Delete"' in llm.prompts[0], llm.prompts[0]
    (held,) = result.steps[0].executions
    assert not held.success
    assert (held.error or "").startswith("Not run: span-0"), held.error
    assert "the task says nothing of deleting" in (held.error or "")
    assert "unasked-delete" in result.steps[0].rules
    assert page.locator("#out").inner_text() == "opened Audrey"  # the row, not the trash
    assert page.locator(".mail").count() == 2


def test_clicked_again_it_runs_and_a_task_that_deletes_runs_at_once(page: Page) -> None:
    page.set_content(INBOX)
    llm = ScriptedLLM([_click("span-0"), _click("span-0"), DONE])
    result = Agent(page, llm).execute("open the email by Audrey", max_steps=3)
    assert not result.steps[0].executions[0].success
    assert result.steps[1].executions[0].success
    assert page.locator(".mail").count() == 1

    page.set_content(INBOX)
    llm = ScriptedLLM([_click("span-0"), DONE])
    result = Agent(page, llm).execute("delete the email by Audrey", max_steps=2)
    assert result.steps[0].executions[0].success
    assert "unasked-delete" not in result.steps[0].rules
    assert page.locator("#out").inner_text() == "deleted"


def test_with_the_rule_off_the_first_click_runs(page: Page) -> None:
    page.set_content(INBOX)
    llm = ScriptedLLM([_click("span-0"), DONE])
    result = Agent(page, llm, rules_off="unasked-delete").execute(
        "open the email by Audrey", max_steps=2)
    assert result.steps[0].executions[0].success
    assert page.locator(".mail").count() == 1
