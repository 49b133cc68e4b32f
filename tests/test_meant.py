"""A ``select`` asked of what is not a dropdown runs as the action it meant, when the page
state says which (issue 35: "Select AU" makes a small model select on a radio button)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.testing import ScriptedLLM
from pytest_webtask.tools._sync import browser_tools
from pytest_webtask.tools.builtin import Click, Fill, Select, Type
from pytest_webtask.tools.meant import REFUSED
from tests.server import LocalServer

RADIOS = '''- "Select AU and click Submit."
- input-0 (type="radio" name="radio" label="AU")
- "AU"
- input-1 (type="radio" name="radio" label="HF2")
- "HF2"
- select-0 (name="size" options="S|M" selected="S")
- button-0 "Submit"'''
MENU = '''- ul-0 (role="menu" label="Andriana Martelle")
  - li-0 (label="Andriana")
    - div-0 (role="menuitem") "Andriana"
  - li-1 (label="Martelle")
    - div-1 (role="menuitem") "Martelle"
- ul-1
  - li-2 "Twin"
  - li-3 "Twin"
- span-0
- "-97"'''


def select(element_id: str, value: str) -> dict[str, str]:
    return {"element_id": element_id, "value": value}


def ran(params: dict[str, str], state: str) -> tuple[str, str | None] | None:
    got = Select.instead(params, state)
    return None if got is None else (got[0], got[1].get("element_id"))


def test_a_radio_checkbox_or_button_asked_to_select_is_checked_or_clicked() -> None:
    assert ran(select("input-0", "AU"), RADIOS) == ("check", "input-0")
    assert ran(select("button-0", "Submit"), RADIOS) == ("click", "button-0")


def test_a_select_meant_for_another_element_is_refused_naming_it_never_run_on_it() -> None:
    """Issue 45: a rewrite acts only on the element the model named. The other radio of the
    group, labelled with the value, is named in the refusal; the model chooses."""
    assert ran(select("input-1", "AU"), RADIOS) == (REFUSED, None)
    why = Select.instead(select("input-1", "AU"), RADIOS)[2]  # type: ignore[index]
    assert why == ("input-1 is a radio, not a dropdown, and is not labelled 'AU'; input-0 "
                   "is: check input-0 if that is what the task means.")
    # a menu: the one item inside it that says the value is named, not clicked
    assert ran(select("ul-0", "martelle"), MENU) == (REFUSED, None)
    why = Select.instead(select("ul-0", "martelle"), MENU)[2]  # type: ignore[index]
    assert "div-1 inside it says 'martelle': click div-1" in why


FIELDS = '''- input-0 (name="year")
- input-1 (type="number" name="count")
- input-2 (type="date" name="when")
- input-3 (name="code" readonly)
- textarea-0 (name="notes")'''


def test_a_select_on_a_text_field_fills_that_same_field() -> None:
    """A text field offers no options: "select 1998" on it fills it with 1998 (the same
    field, the model's value); a date field, a read-only field: as proposed."""
    assert Select.instead(select("input-0", "1998"), FIELDS) == (
        "fill", {"element_id": "input-0", "value": "1998"},
        "select '1998' on input-0 ran as fill input-0: input-0 is a text field, not a "
        "dropdown.")
    assert ran(select("input-1", "5"), FIELDS) == ("fill", "input-1")
    assert ran(select("textarea-0", "hi"), FIELDS) == ("fill", "textarea-0")
    assert ran(select("input-2", "2020-01-01"), FIELDS) is None
    assert ran(select("input-3", "A1"), FIELDS) is None


def test_text_typed_into_a_button_clicks_it() -> None:
    got = Type.instead({"element_id": "button-0", "value": "Submit"}, RADIOS)
    assert got == ("click", {"element_id": "button-0"}, "type on button-0 ran as click "
                   "button-0: button-0 is a button, which takes a click, not text.")
    for value in ("submit", ""):  # its own text, or none
        assert Fill.instead({"element_id": "button-0", "value": value}, RADIOS) == (
            "click", {"element_id": "button-0"}, "fill on button-0 ran as click button-0: "
            "button-0 is a button, which takes a click, not text.")
    # any other text is meant for a field: refused, naming the empty ones, never clicked
    name, params, why = Fill.instead({"element_id": "button-0", "value": "John Doe"},
                                     RADIOS + '\n- input-9 (type="text" label="Name")')
    assert name == REFUSED and params == {}
    assert why == ("button-0 is a button: it takes a click, not text, and 'John Doe' is not "
                   "what it says. Type 'John Doe' into a text field (empty now: input-9 "
                   "(Name)); click button-0 only to do what it says.")
    # a radio's own label typed into it ticks it; another text is refused, naming the
    # fields it may be for; a box or a form takes no text
    assert Fill.instead({"element_id": "input-0", "value": "AU"}, RADIOS) == (
        "check", {"element_id": "input-0"}, "fill 'AU' on input-0 ran as check input-0: "
        "input-0 is a radio, which is ticked, not typed into.")
    # ticked already (or by an earlier action of the reply): check leaves it ticked
    ticked = RADIOS.replace('label="AU")', 'label="AU" checked)')
    assert ticked != RADIOS
    assert Fill.instead({"element_id": "input-0", "value": "AU"}, ticked)[0] == "check"
    name, _, why = Fill.instead({"element_id": "input-1", "value": "12345"},
                                RADIOS + '\n- input-9 (type="text" label="Name")')
    assert name == REFUSED and why == (
        "input-1 is a radio (HF2): it takes no text; tick it with check, untick it with "
        "uncheck. Type '12345' into a text field (empty now: input-9 (Name)).")
    form = '- form-0\n  - input-0 (type="text" label="Name")\n  - button-0 "Go"'
    assert Fill.instead({"element_id": "form-0", "value": "Ann"}, form) == (
        REFUSED, {}, "form-0 is a form: it takes no text. Type 'Ann' into a text field "
        "(empty now: input-0 (Name)).")
    # a field takes the text as proposed, a textbox role too
    assert Fill.instead({"element_id": "input-0", "value": "Ann"}, form) is None
    assert Fill.instead({"element_id": "div-0", "value": "Ann"},
                        '- div-0 (role="textbox")') is None


def test_anything_unclear_or_a_real_dropdown_runs_as_proposed() -> None:
    assert ran(select("select-0", "M"), RADIOS) is None  # a dropdown
    assert ran(select("ul-1", "Twin"), MENU) is None  # two items say it
    assert ran(select("ul-0", "Laurette"), MENU) is None  # none does
    assert ran(select("span-0", "-99"), MENU) is None  # a slider: nothing to say
    assert Click.instead({"element_id": "ul-0"}, MENU) is None  # other tools: as proposed


PAGE = """<!doctype html><title>Pick</title>
<label><input type="radio" name="c" value="au">AU</label>
<label><input type="radio" name="c" value="hf">HF2</label>
<button onclick="out.textContent = 'Sent ' + (document.querySelector(':checked')?.value
  ?? 'nothing')">Submit</button><p id="out"></p>"""


def test_the_step_keeps_and_replays_the_action_that_ran(
        page: Page, server: LocalServer) -> None:
    server.pages["/pick"] = PAGE
    page.goto(server.url + "/pick")
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"tool": "select", "parameters": {"element_id": "input-1", "value": "AU"}},
            {"tool": "select", "parameters": {"element_id": "button-0", "value": "Submit"}}]},
        {"complete": False, "message": "m", "actions": [
            {"tool": "select", "parameters": {"element_id": "input-0", "value": "AU"}},
            {"tool": "select", "parameters": {"element_id": "button-0", "value": "Submit"}}]},
        {"complete": True, "message": "sent", "evidence": [{"expect": "text",
                                                            "text": "Sent au"}]}])
    result = Agent(page, llm).execute("select AU and click Submit")
    assert result.completed, result.message
    assert page.locator("#out").inner_text() == "Sent au"
    # the select on the other radio ran nowhere: refused, naming the one labelled AU
    refused = result.steps[0]
    assert not refused.executions[0].success and len(refused.executions) == 1
    assert "input-0 is: check input-0" in llm.prompts[1]
    assert page.locator("input[value=hf]").is_checked() is False
    step = result.steps[1]
    # what ran is what the history shows and a recording keeps
    assert [(a.tool, a.parameters) for a in step.proposal.actions] == [
        ("check", {"element_id": "input-0"}), ("click", {"element_id": "button-0"})]
    assert all(e.success for e in step.executions)
    assert "ran as check input-0" in llm.prompts[2]
    # the policy's rule is named on both steps
    assert "control-kind" in refused.rules and "control-kind" in step.rules


def test_with_the_rule_off_a_select_on_a_radio_runs_as_proposed_and_fails(
        page: Page, server: LocalServer) -> None:
    server.pages["/pick"] = PAGE
    page.goto(server.url + "/pick")
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"tool": "select", "parameters": {"element_id": "input-0", "value": "AU"}}]},
        {"complete": False, "message": "m", "impossible": True},
        {"complete": False, "message": "m", "impossible": True}])
    agent = Agent(page, llm, rules_off="control-kind", settle_timeout_ms=500)
    result = agent.execute("select AU")
    step = result.steps[0]
    assert not step.executions[0].success  # Playwright's select_option on a radio
    assert "control-kind" not in step.rules
    assert page.locator("input[value=au]").is_checked() is False


def test_ancestors_are_the_elements_that_hold_a_line_not_earlier_siblings() -> None:
    from pytest_webtask.tools.meant import ancestors, read_lines

    lines = read_lines('- main-0\n  - form-0\n    - input-0\n    - button-0 "Go"\n'
                       '  - input-1\n  - form-1\n    - select-0 (name="s")')
    by_id = {line.id: i for i, line in enumerate(lines)}
    assert [a.id for a in ancestors(lines, by_id["input-0"])] == ["form-0", "main-0"]
    assert [a.id for a in ancestors(lines, by_id["input-1"])] == ["main-0"]  # not form-0
    assert [a.id for a in ancestors(lines, by_id["select-0"])] == ["form-1", "main-0"]


def test_a_date_or_time_as_people_write_it_is_filled_in_the_fields_own_format() -> None:
    from pytest_webtask.tools.meant import field_format

    state = '- input-0 (type="date")\n- input-1 (type="time")\n- input-2 (name="note")'
    assert Type.instead({"element_id": "input-0", "value": "05/20/2010"}, state) == (
        "fill", {"element_id": "input-0", "value": "2010-05-20"},
        "type '05/20/2010' on input-0 ran as fill '2010-05-20': input-0 is a date field, "
        "which takes yyyy-mm-dd.")
    got = Fill.instead({"element_id": "input-1", "value": "9:37 PM"}, state)
    assert got is not None and got[:2] == ("fill", {"element_id": "input-1", "value": "21:37"})
    # typed key by key into a date field, its own format is filled (a field takes no keys)
    assert Type.instead({"element_id": "input-0", "value": "2010-05-20"}, state) is not None
    # as proposed: already in the format, a placeholder, no date, no date field
    assert Fill.instead({"element_id": "input-0", "value": "2010-05-20"}, state) is None
    assert Fill.instead({"element_id": "input-0", "value": "{when}"}, state) is None
    assert Fill.instead({"element_id": "input-0", "value": "tomorrow"}, state) is None
    assert Fill.instead({"element_id": "input-2", "value": "05/20/2010"}, state) is None
    assert field_format("month", "May 2010") == "2010-05"
    assert field_format("datetime-local", "05/20/2010 9:37 PM") == "2010-05-20T21:37"
    assert field_format("time", "9:37:05 AM") == "09:37:05"


DATES = """<!doctype html><title>When</title>
<input type="date" id="d"><input type="time" id="t">
<button onclick="out.textContent = 'Sent ' + d.value + ' ' + t.value">Submit</button>
<p id="out"></p>"""


def test_a_date_typed_as_written_reaches_the_field_and_the_recording(
        page: Page, server: LocalServer) -> None:
    server.pages["/when"] = DATES
    page.goto(server.url + "/when")
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"tool": "type", "parameters": {"element_id": "input-0", "value": "05/20/2010"}},
            {"tool": "fill", "parameters": {"element_id": "input-1", "value": "9:37 PM"}},
            {"tool": "click", "parameters": {"element_id": "button-0"}}]},
        {"complete": True, "message": "sent", "evidence": [
            {"expect": "text", "text": "Sent 2010-05-20 21:37"}]}])
    result = Agent(page, llm).execute("enter 05/20/2010 and 9:37 PM and submit")
    assert result.completed, result.message
    assert page.locator("#out").inner_text() == "Sent 2010-05-20 21:37"
    assert [(a.tool, a.parameters.get("value")) for a in result.steps[0].proposal.actions] \
        == [("fill", "2010-05-20"), ("fill", "21:37"), ("click", None)]


COVERED = """<!doctype html><title>Pick a date</title>
<button onclick="out.textContent = 'sent'">Submit</button><p id="out"></p>
<div id="calendar" style="position: fixed; inset: 0; background: white">March 2016</div>"""


def test_a_click_on_a_covered_element_names_what_covers_it(page: Page) -> None:
    from playwright.sync_api import Error

    from pytest_webtask.tools._sync.registry import _playwright_message

    page.set_content(COVERED)
    try:
        page.locator("button").click(timeout=600)
    except Error as exc:
        said = _playwright_message(exc)
    else:
        raise AssertionError("the covered button took the click")
    assert 'it is covered by <div id="calendar"' in said, said
    assert "press Escape" in said


NAMES = """<!doctype html><title>Names</title>
<select multiple id="s"><option>Theodora</option><option>Catherine</option>
<option>Corrine</option></select>
<button onclick="out.textContent = 'Sent ' + Array.from(s.selectedOptions, o => o.text)
  .join('+')">Submit</button><p id="out"></p>"""


def test_several_options_of_a_list_that_takes_several_are_chosen_together(
        page: Page, server: LocalServer) -> None:
    from pytest_webtask.tools.meant import choice_values

    server.pages["/names"] = NAMES
    page.goto(server.url + "/names")
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"tool": "select", "parameters": {"element_id": "select-0",
                                              "value": "corrine, Catherine"}},
            {"tool": "click", "parameters": {"element_id": "button-0"}}]},
        {"complete": True, "message": "sent", "evidence": [
            {"expect": "text", "text": "Sent Catherine+Corrine"}]}])
    result = Agent(page, llm).execute("select Corrine, Catherine and click Submit")
    assert result.completed, result.message
    assert page.locator("#out").inner_text() == "Sent Catherine+Corrine"
    action = result.steps[0].proposal.actions[0]
    assert (action.tool, action.parameters["value"]) == ("select", ["Corrine", "Catherine"])
    state = llm.prompts[1].split("Current Page State:")[-1]
    assert 'select-0 (multiple options="Theodora|Catherine|Corrine" ' \
        'selected="Catherine|Corrine")' in state
    # a list that takes several is offered any text (its options are no single choice)
    assert choice_values(state, "options") == {}


def test_a_select_of_several_exports_a_list() -> None:
    class C:
        params = {"value": ["Corrine", "{name}"]}

        def element(self) -> str:
            return "page.locator('#s')"

        def expr(self, text: str) -> str:
            return "params['name']" if text == "{name}" else repr(text)

    assert Select.code(C()) == ["page.locator('#s').select_option(['Corrine', params['name']])"]  # type: ignore[arg-type]
    assert Select.instead({"element_id": "select-0", "value": "A, B"},
                          '- select-0 (options="A|B")') is None  # takes one


@pytest.fixture
def short_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recording's action timeout at 1 s: a click the pop-up covers is waited out that long
    (5 s by default) before Escape is tried; what is asserted is the same."""
    monkeypatch.setattr(browser_tools, "ACTION_TIMEOUT_MS", 1000)


POPUP = """<!doctype html><title>Pick a date</title>
<input id="d" onfocus="cal.hidden = false">
<button onclick="out.textContent = 'sent ' + d.value">Submit</button><p id="out"></p>
<div id="cal" hidden style="position: fixed; inset: 0; background: white">March 2016</div>
<script>
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !location.search.includes('stuck')) cal.hidden = true;
});
</script>"""


def test_an_action_a_pop_up_covers_runs_after_escape_and_the_step_keeps_both(
        page: Page, server: LocalServer, short_actions: None) -> None:
    server.pages["/popup"] = POPUP
    page.goto(server.url + "/popup")
    typed = {"complete": False, "message": "m", "actions": [
        {"tool": "fill", "parameters": {"element_id": "input-0", "value": "03/14/2016"}},
        {"tool": "click", "parameters": {"element_id": "button-0"}}]}
    sent = {"complete": True, "message": "sent", "evidence": [
        {"expect": "text", "text": "sent 03/14/2016"}]}
    result = Agent(page, ScriptedLLM([typed, sent])).execute("type 03/14/2016 and submit")
    assert result.completed, result.message
    step = result.steps[0]
    # the recording replays the Escape too: it is an action of the step
    assert [(a.tool, a.parameters) for a in step.proposal.actions] == [
        ("fill", {"element_id": "input-0", "value": "03/14/2016"}),
        ("press", {"key": "Escape"}), ("click", {"element_id": "button-0"})]
    assert [e.success for e in step.executions] == [True, True, True]
    assert "Escape closed it" in (step.executions[2].output or "")


def test_a_pop_up_escape_does_not_close_fails_the_action_saying_what_covers_it(
        page: Page, server: LocalServer, short_actions: None) -> None:
    server.pages["/popup"] = POPUP
    page.goto(server.url + "/popup?stuck")
    typed = {"complete": False, "message": "m", "actions": [
        {"tool": "fill", "parameters": {"element_id": "input-0", "value": "03/14/2016"}},
        {"tool": "click", "parameters": {"element_id": "button-0"}}]}
    llm = ScriptedLLM([typed, {"complete": False, "impossible": True, "message": "covered"},
                       {"complete": False, "impossible": True, "message": "covered"}])
    result = Agent(page, llm).execute("type 03/14/2016 and submit")
    assert not result.completed
    step = result.steps[0]
    assert [a.tool for a in step.proposal.actions] == ["fill", "click"]
    assert not step.executions[1].success
    assert 'it is covered by <div id="cal"' in (step.executions[1].error or "")
