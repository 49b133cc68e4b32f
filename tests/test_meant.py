"""A ``select`` asked of what is not a dropdown runs as the action it meant, when the page
state says which (issue 35: "Select AU" makes a small model select on a radio button)."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.testing import ScriptedLLM
from pytest_webtask.tools.builtin import Click, Fill, Select, Type
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


def ran(params: dict[str, str], state: str) -> tuple[str, str] | None:
    got = Select.instead(params, state)
    return None if got is None else (got[0], got[1]["element_id"])


def test_a_radio_checkbox_or_button_asked_to_select_is_checked_or_clicked() -> None:
    assert ran(select("input-0", "AU"), RADIOS) == ("check", "input-0")
    # the other radio of the group is the one labelled with the value
    assert ran(select("input-1", "AU"), RADIOS) == ("check", "input-0")
    assert ran(select("button-0", "Submit"), RADIOS) == ("click", "button-0")
    why = Select.instead(select("input-1", "AU"), RADIOS)[2]  # type: ignore[index]
    assert why == ("select 'AU' on input-1 ran as check input-0: input-1 is a radio, not a "
                   "dropdown; input-0 is the one labelled 'AU'.")


def test_a_menu_asked_to_select_clicks_the_one_item_that_says_the_value() -> None:
    assert ran(select("ul-0", "martelle"), MENU) == ("click", "div-1")


def test_text_typed_into_a_button_clicks_it() -> None:
    got = Type.instead({"element_id": "button-0", "value": "Submit"}, RADIOS)
    assert got == ("click", {"element_id": "button-0"}, "type on button-0 ran as click "
                   "button-0: button-0 is a button, which takes a click, not text.")
    assert Fill.instead({"element_id": "button-0", "value": "x"}, RADIOS) is not None
    # a field takes the text as proposed
    assert Fill.instead({"element_id": "input-0", "value": "AU"}, RADIOS) is None


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
        {"complete": True, "message": "sent", "evidence": [{"expect": "text",
                                                            "text": "Sent au"}]}])
    result = Agent(page, llm).execute("select AU and click Submit")
    assert result.completed, result.message
    assert page.locator("#out").inner_text() == "Sent au"
    step = result.steps[0]
    # what ran is what the history shows and a recording keeps
    assert [(a.tool, a.parameters) for a in step.proposal.actions] == [
        ("check", {"element_id": "input-0"}), ("click", {"element_id": "button-0"})]
    assert all(e.success for e in step.executions)
    assert "ran as check input-0" in llm.prompts[1]


def test_ancestors_are_the_elements_that_hold_a_line_not_earlier_siblings() -> None:
    from pytest_webtask.tools.meant import ancestors, read_lines

    lines = read_lines('- main-0\n  - form-0\n    - input-0\n    - button-0 "Go"\n'
                       '  - input-1\n  - form-1\n    - select-0 (name="s")')
    by_id = {line.id: i for i, line in enumerate(lines)}
    assert [a.id for a in ancestors(lines, by_id["input-0"])] == ["form-0", "main-0"]
    assert [a.id for a in ancestors(lines, by_id["input-1"])] == ["main-0"]  # not form-0
    assert [a.id for a in ancestors(lines, by_id["select-0"])] == ["form-1", "main-0"]
