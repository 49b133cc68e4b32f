"""``open-shown``: a click on an open section's heading is held back once while the section
shows a text the task quotes. A small model opened the section that showed the link the
task named, then clicked the heading again and again (closing it, opening it) until its
steps ran out."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.small.hints import hides_named
from pytest_webtask.testing import ScriptedLLM

SECTIONS = """<!doctype html><html><body>
<button id="head" aria-expanded="false" aria-controls="panel" onclick="toggle()">Section 2</button>
<div id="panel" hidden>Nascetur
  <a href="#" onclick="say('clicked aliquet'); return false">aliquet</a> nulla.</div>
<p id="out"></p>
<script>
const say = (t) => { document.getElementById('out').textContent = t; };
function toggle() {
  const head = document.getElementById('head');
  const open = head.getAttribute('aria-expanded') === 'true';
  head.setAttribute('aria-expanded', String(!open));
  document.getElementById('panel').hidden = open;
}
</script>
</body></html>"""

TASK = 'Expand the sections below, to find and click on the link "aliquet".'


def _click(element_id: str) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": "click", "parameters": {"element_id": element_id}}]}


DONE = {"complete": True, "message": "done"}

STATE = ('- button-0 (expanded="true") "Section 2"\n- div-0\n  - "Nascetur"\n'
         '  - a-0 "aliquet"\n  - "nulla."')


def test_the_reading() -> None:
    said = hides_named(TASK, STATE, "button-0")
    assert said is not None and 'a-0 "aliquet"' in said, said
    assert hides_named(TASK, STATE, "a-0") is None  # the link itself
    assert hides_named(TASK, STATE.replace('"true"', '"false"'), "button-0") is None
    assert hides_named(TASK, STATE.replace('a-0 "aliquet"', 'a-0 "other"'), "button-0") is None
    assert hides_named('close the section that shows "aliquet"', STATE, "button-0") is None
    # an open menu further up says nothing of a link in the page's main part
    menu = ('- button-0 (expanded="true") "Menu"\n- ul-0\n  - li > a-5 "Home"\n'
            '- main-0\n  - a-0 "aliquet"')
    assert hides_named(TASK, menu, "button-0") is None
    # no expanded flag: what its own last click made appear, on the same element
    icon = '- span-0 "..."\n- ul-0\n  - li-0 "Block @consectetur"'
    task = 'For the user @consectetur, click on the "Block" button.'
    assert hides_named(task, icon, "span-0", '- span-0 "..."') is not None
    assert hides_named(task, icon, "span-0", '- span-0 "..."\n- li-0 "Block @consectetur"') \
        is None  # it was there before the click
    assert hides_named(task, icon, "span-0", '- span-0 "Accept cookies"') is None  # another
    assert hides_named(task, icon, "span-0") is None


def test_closing_the_section_that_shows_the_named_link_is_held_back_once(
        page: Page) -> None:
    page.set_content(SECTIONS)
    llm = ScriptedLLM([_click("button-0"), _click("button-0"), _click("a-0"), DONE])
    result = Agent(page, llm).execute(TASK, max_steps=4)
    assert result.steps[0].executions[0].success
    held = result.steps[1].executions[0]
    assert not held.success
    assert (held.error or "").startswith('Not run: button-0 "Section 2" is open'), held.error
    assert "open-shown" in result.steps[1].rules
    assert page.locator("#head").get_attribute("aria-expanded") == "true"
    assert page.locator("#out").inner_text() == "clicked aliquet"


def test_clicked_again_it_closes_and_with_the_rule_off_at_once(page: Page) -> None:
    page.set_content(SECTIONS)
    llm = ScriptedLLM([_click("button-0"), _click("button-0"), _click("button-0"), DONE])
    result = Agent(page, llm, rules_off="undo-ban").execute(TASK, max_steps=4)
    assert not result.steps[1].executions[0].success
    assert result.steps[2].executions[0].success
    assert page.locator("#head").get_attribute("aria-expanded") == "false"

    page.set_content(SECTIONS)
    llm = ScriptedLLM([_click("button-0"), _click("button-0"), DONE])
    result = Agent(page, llm, rules_off="open-shown undo-ban").execute(TASK, max_steps=3)
    assert result.steps[1].executions[0].success
    assert page.locator("#head").get_attribute("aria-expanded") == "false"


POST = """<!doctype html><html><body>
<div class="post">Carmella @consectetur Quis velit.
  <span class="more" role="button" aria-label="more" onclick="toggle()">...</span>
  <ul id="menu" hidden>
  <li onclick="say('blocked')" style="cursor:pointer">Block @consectetur</li>
  <li onclick="say('muted')" style="cursor:pointer">Mute @consectetur</li></ul>
</div>
<p id="out"></p>
<script>
const say = (t) => { document.getElementById('out').textContent = t; };
function toggle() { const m = document.getElementById('menu'); m.hidden = !m.hidden; }
</script>
</body></html>"""


def test_a_second_click_on_what_opened_the_named_item_is_held_back_once(page: Page) -> None:
    """An icon that opens a menu says nothing of being open (no aria-expanded): its own last
    click made the item the task quotes appear ('Block @consectetur' for "Block"), so a
    second click, which would close the menu, is held back once."""
    page.set_content(POST)
    task = 'For the user @consectetur, click on the "Block" button.'
    llm = ScriptedLLM([_click("span-0"), _click("span-0"), _click("li-0"), DONE])
    result = Agent(page, llm).execute(task, max_steps=4)
    assert result.steps[0].executions[0].success
    held = result.steps[1].executions[0]
    assert not held.success
    said = held.error or ""
    assert said.startswith('Not run: span-0 "..." opened what shows it'), said
    assert 'li-0 "Block @consectetur"' in (held.error or "")
    assert page.locator("#out").inner_text() == "blocked"


def test_the_text_as_the_task_writes_it_is_named_first() -> None:
    state = '- button-0 (expanded="true") "Tab 1"\n- div-0\n  - span-1 "eget"\n  - span-3 "Eget"'
    said = hides_named('click on the link "Eget".', state, "button-0") or ""
    assert 'span-3 "Eget"' in said and "span-1" not in said, said
