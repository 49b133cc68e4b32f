"""``absent-name``: a click that is no control of a paged list's pager is held back once
while the task names someone no line of the page shows and the list has a next page. A
small model, told the contact was on no line, clicked the address of the contact it saw:
the task done on the wrong person. The rule holds the click back and acts on nothing, once
per task: clicked again, it runs."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.small.hints import name_on_later_page
from pytest_webtask.testing import ScriptedLLM

BOOK = """<!doctype html><html><body>
<h2 id="name">Etti</h2>
<div>Address: <a href="#" id="address"
  onclick="say('address of ' + who()); return false">645 Stephenson Loop</a></div>
<ul id="pager">
  <li><a href="#" onclick="show(0); return false">1</a></li>
  <li><a href="#" onclick="show(1); return false">2</a></li>
  <li><a href="#" onclick="show(Math.min(at + 1, 1)); return false">&gt;</a></li>
</ul>
<p id="out"></p>
<script>
const people = [["Etti", "645 Stephenson Loop"], ["Casie", "12 Birch Row"]];
let at = 0;
const who = () => people[at][0];
const say = (t) => { document.getElementById('out').textContent = t; };
function show(i) { at = i; document.getElementById('name').textContent = people[i][0];
  document.getElementById('address').textContent = people[i][1]; }
</script>
</body></html>"""

TASK = "Find Casie in the contact book and click on their address."


def _click(element_id: str) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": "click", "parameters": {"element_id": element_id}}]}


DONE = {"complete": True, "message": "done"}


def test_the_reading_names_the_absent_name_and_spares_the_pager() -> None:
    state = ('- h2 "Etti"\n- div-0\n  - "Address:"\n  - a-0 "645 Stephenson Loop"\n'
             '- ul-0\n  - li > a-1 "1"\n  - li > a-2 "2"\n  - li > a-3 ">"')
    said = name_on_later_page(TASK, state, "a-0")
    assert said is not None and '"Casie"' in said and 'a-3 ">"' in said, said
    for pager in ("a-1", "a-2", "a-3"):
        assert name_on_later_page(TASK, state, pager) is None, pager
    # the name on the page, no next page, or a task naming nobody: nothing to say
    assert name_on_later_page(TASK, state.replace("Etti", "Casie"), "a-0") is None
    assert name_on_later_page(TASK, state.replace('  - li > a-3 ">"', ""), "a-0") is None
    assert name_on_later_page("click on the first address", state, "a-0") is None
    # a name on the page beside one to send to, a day, a new line's first word: no hold
    assert name_on_later_page("Find the mail by Etti and forward it to Bob", state,
                              "a-0") is None
    assert name_on_later_page("open the mail sent on Monday", state, "a-0") is None
    assert name_on_later_page("Find Etti.\nDelete the row", state, "a-0") is None
    # a search box and its button are ways to find the name
    searching = state + '\n- input-0 (type="search")\n- button-0 "Search"'
    assert name_on_later_page(TASK, searching, "input-0") is None
    assert name_on_later_page(TASK, searching, "button-0") is None


def test_a_click_on_this_page_is_held_back_once_and_the_next_page_runs(page: Page) -> None:
    page.set_content(BOOK)
    llm = ScriptedLLM([_click("a-0"), _click("a-3"), _click("a-0"), DONE])
    result = Agent(page, llm).execute(TASK, max_steps=4)
    (held,) = result.steps[0].executions
    assert not held.success
    assert (held.error or "").startswith("Not run yet: no line of this page holds \"Casie\"")
    assert 'a-3 ">"' in (held.error or "")
    assert "absent-name" in result.steps[0].rules
    assert page.locator("#out").inner_text() == "address of Casie"  # never Etti's
    assert all(e.success for s in result.steps[1:] for e in s.executions)
    assert not any("absent-name" in s.rules for s in result.steps[1:])


def test_clicked_again_it_runs_and_with_the_rule_off_at_once(page: Page) -> None:
    page.set_content(BOOK)
    llm = ScriptedLLM([_click("a-0"), _click("a-0"), DONE])
    result = Agent(page, llm).execute(TASK, max_steps=3)
    assert not result.steps[0].executions[0].success
    assert result.steps[1].executions[0].success
    assert page.locator("#out").inner_text() == "address of Etti"

    page.set_content(BOOK)
    llm = ScriptedLLM([_click("a-0"), DONE])
    result = Agent(page, llm, rules_off="absent-name").execute(TASK, max_steps=2)
    assert result.steps[0].executions[0].success
    assert "absent-name" not in result.steps[0].rules


def test_done_before_clicking_what_the_task_names_by_its_label_is_asked(page: Page) -> None:
    """"click on their address" names the link beside the label "Address:": a done after
    reaching the contact's page, the address never clicked, is asked about it."""
    page.set_content(BOOK)
    llm = ScriptedLLM([_click("a-3"), DONE, _click("a-0"), DONE])
    result = Agent(page, llm).execute(TASK, max_steps=4)
    asked = llm.prompts[2]
    assert 'a-0 "12 Birch Row": no action of yours clicked it yet' in asked, asked[-1500:]
    assert page.locator("#out").inner_text() == "address of Casie"
    assert result.completed


def test_the_control_beside_a_label_is_the_one_right_after_it_or_alone_with_it() -> None:
    from pytest_webtask.agent.small.hints import named_buttons
    task = "Find Casie and click on their address."
    assert named_buttons('- div-2\n  - "Address:"\n  - a-2 "4341 Tucker Avenue"', task,
                         set()) == ['a-2 "4341 Tucker Avenue"']
    # a control that is not beside the label, or has no text to tell it was clicked
    assert named_buttons('- div-0\n  - "Address:"\n  - "12 Birch Row"\n  - button-0 "Edit"',
                         task, set()) == []
    assert named_buttons('- div-2\n  - "Address:"\n  - a-2 (aria-label="map")', task,
                         set()) == []
    # a label of two words
    assert named_buttons('- div-2\n  - "Phone number:"\n  - a-2 "555-0101"',
                         "click their phone number", set()) == ['a-2 "555-0101"']
    assert named_buttons('- div-2\n  - "Address:"\n  - a-2 "4341 Tucker Avenue"', task,
                         {"4341 tucker avenue"}) == []
