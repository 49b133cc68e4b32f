"""``form-values`` reading a value after a field's own label: "Search for action movies
directed by Bowen from year 1998" on a form of three labelled fields (Director, Genre, Year).
The hint names where "Bowen" and "1998" go (the label Director's verb and "by"; "year"); a
value with no label beside it, a verb that starts a sentence, or a value followed by "to"
(the old one) gives nothing: never a guess. A hint only: no refusal reads it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.small.fields import unset_for_send, values_for_fields
from pytest_webtask.testing import ScriptedLLM

SEARCH = """<!doctype html><html><body>
<h3>Movie search</h3>
<table>
  <tr><th>Director</th><td><input type="text" id="director"></td></tr>
  <tr><th>Genre</th><td><input type="text" id="genre"></td></tr>
  <tr><th>Year</th><td><input type="text" id="year"></td></tr>
</table>
<button id="go">Submit</button>
</body></html>"""

TASK = "Search for action movies directed by Bowen from year 1998."

STATE = ('- table-0\n  - tr\n    - th "Director"\n    - td > input-0 (type="text" '
         'beside="Director")\n  - tr\n    - th "Genre"\n    - td > input-1 (type="text" '
         'beside="Genre")\n  - tr\n    - th "Year"\n    - td > input-2 (type="text" '
         'beside="Year")\n- div-0 "Submit"')


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


def test_the_hint_says_it_and_no_refusal_reads_it(page: Page) -> None:
    page.set_content(SEARCH)
    reply: dict[str, Any] = {"complete": True, "message": "done"}
    llm = ScriptedLLM([reply] * 3)
    Agent(page, llm).execute(TASK + " Then click Submit.", max_steps=1)
    assert "input-0 (Director) takes 'Bowen'; input-2 (Year) takes '1998'" in llm.prompts[0]
    state = STATE.replace('div-0 "Submit"', 'button-0 "Submit"')
    # send-last reads the task's own field words only: the label reading holds no press
    assert unset_for_send(TASK + " Then click Submit.", state, "button-0", {}) is None
