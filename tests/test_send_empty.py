"""``send-empty``, and ``form-values`` reading a value after a field's own label.

"Search for action movies directed by Bowen from year 1998" on a form of three labelled
fields (Director, Genre, Year): a small model typed the two values the task says with their
labels' words and sent the form without the genre, which the task says in other words. The
hint names where "Bowen" and "1998" go (the label Director's verb, "directed by"; "year");
a press of what sends the form while a labelled field of it is still empty is held back
once, naming that field: pressed again, it runs (an optional field may stay empty)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.fields import empty_at_send, values_for_fields
from pytest_webtask.testing import ScriptedLLM

SEARCH = """<!doctype html><html><body>
<h3>Movie search</h3>
<table>
  <tr><th>Director</th><td><input type="text" id="director"></td></tr>
  <tr><th>Genre</th><td><input type="text" id="genre"></td></tr>
  <tr><th>Year</th><td><input type="text" id="year"></td></tr>
</table>
<div id="go" style="cursor:pointer" onclick="send()">Submit</div>
<p id="out"></p>
<script>
function send() {
  const v = (id) => document.getElementById(id).value;
  document.getElementById('out').textContent =
    `sent director=${v('director')} genre=${v('genre')} year=${v('year')}`;
}
</script>
</body></html>"""

TASK = "Search for action movies directed by Bowen from year 1998."

STATE = ('- table-0\n  - tr\n    - th "Director"\n    - td > input-0 (type="text" '
         'beside="Director")\n  - tr\n    - th "Genre"\n    - td > input-1 (type="text" '
         'beside="Genre")\n  - tr\n    - th "Year"\n    - td > input-2 (type="text" '
         'beside="Year")\n- div-0 "Submit"')


def _reply(*actions: tuple[str, str, str | None]) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": tool, "parameters": {"element_id": element, **({"value": value} if value
                                                                 else {})}}
        for tool, element, value in actions]}


TWO = _reply(("fill", "input-0", "Bowen"), ("fill", "input-2", "1998"), ("click", "div-0", None))
THIRD = _reply(("fill", "input-1", "action"), ("click", "div-0", None))
AGAIN = _reply(("click", "div-0", None))
DONE = {"complete": True, "message": "done"}


def test_a_value_after_a_fields_label_or_its_doers_verb() -> None:
    assert values_for_fields(STATE, TASK) == [
        "input-0 (Director) takes 'Bowen'", "input-2 (Year) takes '1998'"]
    # a value the label's words are not beside, or two of them for one field: no guess
    assert values_for_fields(STATE, "Search for Bowen movies of 1998") == []
    assert values_for_fields(STATE, "in year 1998 or in year 1999") == []
    # a label word that starts a sentence is a verb; a value before "to" is the old one
    notes = '- input-0 (type="text" label="Message")\n- input-1 (type="text" label="Name")'
    assert values_for_fields(notes, "Message Alice that it works") == []
    assert values_for_fields(notes, "change the name of Project X to Y") == []
    assert values_for_fields(notes, "the message Project X to Y") == []
    assert values_for_fields(STATE, 'the genre "film noir"') == [
        "input-1 (Genre) takes 'film noir'"]


def test_what_a_send_leaves_empty() -> None:
    filled = STATE.replace('beside="Year")', 'beside="Year" value="1998")')
    assert empty_at_send(TASK, filled, "div-0", {"input-0": "Bowen"}) == (
        "Submit", ["input-1 (Genre)"])
    # nothing filled yet: the task is not filling this form (a press may be what it asks)
    assert empty_at_send(TASK, STATE, "div-0", {}) is None
    # every field holding something, or a task that says one stays empty
    assert empty_at_send(TASK, filled, "div-0", {"input-0": "x", "input-1": "y"}) is None
    assert empty_at_send("Search with the genre left empty", filled, "div-0", {}) is None
    assert empty_at_send("Search, leaving the genre empty", filled, "div-0",
                         {"input-0": "Bowen"}) is None  # left_empty names the Genre field
    assert empty_at_send("search only by the year 1998", filled, "div-0", {}) is None
    # a value the page held before the task is no sign the task is filling the form
    assert empty_at_send(TASK, filled, "div-0", {}) is None
    assert empty_at_send(TASK, filled, "div-0", {}, {"1998"}) == ("Submit", [
        "input-0 (Director)", "input-1 (Genre)"])
    # a press on what does not send (a heading, a cell) is no send
    assert empty_at_send(TASK, filled.replace('div-0 "Submit"', 'div-0 "Movies"'), "div-0",
                         {}) is None


def test_a_send_with_a_labelled_field_empty_is_held_back_once(page: Page) -> None:
    page.set_content(SEARCH)
    llm = ScriptedLLM([TWO, THIRD, DONE])
    result = Agent(page, llm).execute(TASK, max_steps=3)
    assert "input-0 (Director) takes 'Bowen'; input-2 (Year) takes '1998'" in llm.prompts[0]
    first = result.steps[0]
    assert [e.success for e in first.executions] == [True, True, False]
    said = first.executions[2].error or ""
    assert said.startswith('Not run yet: div-0 "Submit" would send input-1 (Genre) empty'), said
    assert "send-empty" in first.rules
    assert all(e.success for e in result.steps[1].executions)
    assert page.locator("#out").inner_text() == "sent director=Bowen genre=action year=1998"


def test_pressed_again_it_runs_and_with_the_rule_off_at_once(page: Page) -> None:
    page.set_content(SEARCH)
    llm = ScriptedLLM([TWO, AGAIN, DONE])
    result = Agent(page, llm).execute(TASK, max_steps=3)
    assert not result.steps[0].executions[2].success
    assert result.steps[1].executions[0].success and "send-empty" not in result.steps[1].rules
    assert page.locator("#out").inner_text() == "sent director=Bowen genre= year=1998"

    page.set_content(SEARCH)
    llm = ScriptedLLM([TWO, DONE])
    result = Agent(page, llm, rules_off="send-empty").execute(TASK, max_steps=2)
    assert all(e.success for e in result.steps[0].executions)
    assert page.locator("#out").inner_text() == "sent director=Bowen genre= year=1998"


def test_what_is_no_send_and_what_is_no_part_of_the_form() -> None:
    """A button that shows a password, cancels or pages on sends nothing; a link whose text
    says "Search" is a link; a field in another form, or in another box when the button is
    in no form, is not what the press sends."""
    login = ('- form-0\n  - input-0 (type="email" label="Email" value="a@b.c")\n'
             '  - input-1 (type="password" label="Password")\n'
             '  - button-0 (type="button" aria-label="Show password")\n'
             '  - button-1 "Cancel"\n  - button-2 "Sign in"')
    typed = {"a@b.c"}
    assert empty_at_send("sign in as a@b.c", login, "button-0", {}, typed) is None
    assert empty_at_send("sign in as a@b.c", login, "button-1", {}, typed) is None
    assert empty_at_send("sign in as a@b.c", login, "button-2", {}, typed) == (
        "Sign in", ["input-1 (Password)"])
    paged = ('- input-0 (type="search" label="Search" value="Oak")\n'
             '- input-1 (type="text" label="Location")\n- a-0 "Search"\n- a-1 "Next"')
    assert empty_at_send("Search for Oak", paged, "a-0", {"input-0": "Oak"}) is None
    assert empty_at_send("Search for Oak", paged, "a-1", {"input-0": "Oak"}) is None
    boxes = ('- form-0\n  - input-0 (type="email" label="Email")\n- div-0\n'
             '  - input-1 (type="search" label="Search" value="Oak")\n  - button-0 "Search"\n'
             '- div-1\n  - input-2 (type="email" label="Your email")')
    assert empty_at_send("Search for Oak", boxes, "button-0", {"input-1": "Oak"}) is None
