"""``send-last``: a press of the button a task names is held back once while the form it
sends still lacks what the task gives for it (an option not chosen, a box not ticked, a
value not typed). A small model pressed "Yes" first on "choose 5ft 9in, then click Yes":
on a real app the form goes with the wrong value and no later step takes that back. The
rule only holds a press back (it records nothing and acts on nothing), once per button:
pressed again, the press runs, so a wrong guess costs one call, never the task."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.models import TaskResult
from pytest_webtask.agent.small.fields import unset_for_send
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

TASK = 'Choose 5ft 9in from the dropdown, then click the button labeled "Yes".'
STATE = """- form-0
  - select-0 (options="5ft 8in|5ft 9in" selected="5ft 8in" label="Height")
  - input-0 (type="checkbox" label="Express delivery")
  - input-1 (type="text" name="email" label="Email")
  - button-0 "Yes"
  - button-1 (type="button") "No"
- button-2 (expanded) "Yes"
- button-3 "Submit\""""
HEIGHT = "select-0 (Height) shows '5ft 8in', the task names '5ft 9in'"


def test_what_a_press_would_send_unset_is_read_from_the_task_and_the_form() -> None:
    assert unset_for_send(TASK, STATE, "button-0", {}) == ("Yes", [HEIGHT])
    # a button the task does not name, or one that opens something, is pressed as asked
    assert unset_for_send(TASK, STATE, "button-1", {}) is None
    assert unset_for_send(TASK, STATE, "button-2", {}) is None
    # chosen already, or chosen by an earlier action of the reply
    chosen = STATE.replace('selected="5ft 8in"', 'selected="5ft 9in"')
    assert unset_for_send(TASK, chosen, "button-0", {}) is None
    assert unset_for_send(TASK, STATE, "button-0", {"select-0": "5ft 9in"}) is None
    # a box the task says to tick, a value its words give a field
    task = 'tick Express delivery, type the email "ann@example.org" and click Yes'
    assert unset_for_send(task, STATE, "button-0", {}) == ("Yes", [
        "input-0 (Express delivery) is not ticked, the task says to tick it",
        "input-1 (Email) takes 'ann@example.org'"])
    ticked = STATE.replace('input-0 (type="checkbox"', 'input-0 (checked type="checkbox"')
    assert unset_for_send(task, ticked, "button-0", {"input-1": "ann@example.org"}) is None
    # outside the button's form: the page's controls are not the form's
    assert unset_for_send(TASK + " Then press Submit.", STATE, "button-3", {}) is None
    # a word the task types into a field is the field's, not the dropdown's option
    search = STATE.replace("5ft 9in", "Jackets").replace('label="Email"', 'label="Search"')
    said = "search for Jackets and click Yes"
    assert unset_for_send(said, search, "button-0", {"input-1": "Jackets"}) is None
    held = search.replace('name="email" label="Search"', 'value="Jackets" label="Search"')
    assert unset_for_send(said, held, "button-0", {}) is None
    # an option of several words, named by them in its order
    sort = ('- form-0\n  - select-0 (options="Name|Price: low to high|Price: high to low" '
            'selected="Name" label="Sort by")\n  - button-0 "Sort"')
    assert unset_for_send("sort by price from high to low", sort, "button-0", {}) == (
        "Sort", ["select-0 (Sort by) shows 'Name', the task names 'Price: high to low'"])


def test_a_list_of_names_after_a_tick_verb_names_each_box() -> None:
    """"Select nb, 8qiSp3m, pKybC69 and click Submit" names three boxes, not the first
    alone (a press was held back for nb only, the others left unticked); a list holding a
    phrase ("words similar to mild, delicious") names none by the list, and "do not
    select" none at all."""
    from pytest_webtask.agent.guards import ticks_box

    boxes = "\n".join(f'  - input-{i} (type="checkbox" label="{name}")'
                      for i, name in enumerate(["nb", "8qiSp3m", "pKybC69", "v8Zs3"]))
    state = f"- form-0\n{boxes}\n  - button-0 \"Submit\""
    task = "Select nb, 8qiSp3m and pKybC69, and click Submit."
    assert unset_for_send(task, state, "button-0", {}) == ("Submit", [
        f"input-{i} ({name}) is not ticked, the task says to tick it"
        for i, name in enumerate(["nb", "8qiSp3m", "pKybC69"])])
    assert ticks_box("Gift wrap", "choose Express, Gift wrap or Insurance and press Pay")
    assert not ticks_box("delicious", "Select words similar to mild, delicious and click Submit")
    assert not ticks_box("8q", "do not select nb, 8q and click Submit")
    assert not ticks_box("Submit", task)


def test_a_form_of_one_field_takes_the_one_value_the_task_gives() -> None:
    """A date picker's read-only field, a spinner's: "Select 12/02/2016 as the date and hit
    submit" pressed with the field empty is held back naming the date; a field holding the
    value (case aside), a value typed by an earlier action, a task giving two values or
    none, a quoted text that is the button's own name, two fields, or a date input (its own
    format) hold nothing back."""
    one = '- form-0\n  - input-0 (type="text" readonly)\n  - button-0 "Submit"'
    date = "Select 12/02/2016 as the date and hit submit."
    assert unset_for_send(date, one, "button-0", {}) == ("Submit", ["input-0 takes '12/02/2016'"])
    assert unset_for_send("Select -10 with the spinner and hit Submit.", one, "button-0",
                          {}) == ("Submit", ["input-0 takes '-10'"])
    assert unset_for_send(date, one.replace("readonly", 'value="12/02/2016"'), "button-0",
                          {}) is None
    assert unset_for_send(date, one, "button-0", {"input-0": "12/02/2016"}) is None
    upper = 'Type "ann" in upper case and press Submit.'
    assert unset_for_send(upper, one.replace("readonly", 'value="ANN"'), "button-0", {}) is None
    assert unset_for_send('Enter "6gH" into the text field and press Submit.', one,
                          "button-0", {}) == ("Submit", ["input-0 takes '6gH'"])
    for task in ("Select 12/02/2016 or 12/03/2016 and hit submit.",
                 'click "Submit" for "Black Denim Jeans"',  # a quoted name, not a value
                 'Find the 1st word, type it into the textbox and press "Submit".',
                 "Find the last word, type it and press Submit."):
        assert unset_for_send(task, one, "button-0", {}) is None, task
    two = one.replace("  - button-0", '  - input-1 (type="text")\n  - button-0')
    assert unset_for_send(date, two, "button-0", {}) is None
    assert unset_for_send(date, one.replace('type="text" readonly', 'type="date"'),
                          "button-0", {}) is None


PAGE = """<!doctype html><title>Height</title>
<form onsubmit="event.preventDefault();
  document.querySelector('#said').textContent = 'Sent: ' + this.height.value">
  <label for="height">Height</label>
  <select id="height" name="height"><option>5ft 8in</option><option>5ft 9in</option></select>
  <button>Yes</button>
</form><p id="said"></p>"""
PRESS = {"complete": False, "message": "press Yes", "actions": [
    {"tool": "click", "parameters": {"element_id": "button-0"}}]}
CHOOSE_AND_PRESS = {"complete": False, "message": "choose, then press", "actions": [
    {"tool": "select", "parameters": {"element_id": "select-0", "value": "5ft 9in"}},
    {"tool": "click", "parameters": {"element_id": "button-0"}}]}
DONE = {"complete": True, "message": "done"}


def _run(page: Page, server: LocalServer, replies: list[dict[str, Any]],
         rules_off: tuple[str, ...] = ()) -> tuple[ScriptedLLM, TaskResult]:
    server.pages["/height"] = PAGE
    page.goto(server.url + "/height")
    llm = ScriptedLLM(replies)
    result = Agent(page, llm, rules_off=rules_off).execute(TASK, max_steps=4)
    return llm, result


def test_the_task_s_button_pressed_first_is_held_back_and_the_option_chosen_before_it(
        page: Page, server: LocalServer) -> None:
    llm, result = _run(page, server, [PRESS, CHOOSE_AND_PRESS, DONE, DONE])
    assert page.locator("#said").inner_text() == "Sent: 5ft 9in"
    first = result.steps[0]
    assert "send-last" in first.rules
    assert not first.executions[0].success
    assert (f'Not run yet: button-0 "Yes" would send what the task gives for this form '
            f"unset: {HEIGHT}.") in (first.executions[0].error or "")
    assert "Not run yet" in llm.prompts[1]  # the model is told, and told what to set
    assert result.steps[1].executions[1].success


def test_pressed_again_the_button_runs_and_sends_what_the_form_holds(
        page: Page, server: LocalServer) -> None:
    """Held back once: a model that presses it again gets what it asked for (the press may
    be what the task means), and the page shows the form went as it was."""
    llm, result = _run(page, server, [PRESS, PRESS, DONE, DONE])
    assert page.locator("#said").inner_text() == "Sent: 5ft 8in"
    steps = result.steps
    assert not steps[0].executions[0].success and steps[1].executions[0].success
    assert "send-last" not in steps[1].rules


def test_with_send_last_off_the_first_press_runs(page: Page, server: LocalServer) -> None:
    llm, result = _run(page, server, [PRESS, DONE, DONE], rules_off=("send-last",))
    assert page.locator("#said").inner_text() == "Sent: 5ft 8in"
    first = result.steps[0]
    assert first.executions[0].success and "send-last" not in first.rules


SIGN_IN = """<!doctype html><title>Sign in</title><main><form onsubmit="event.preventDefault();
  document.querySelector('#said').textContent =
    this.email.value && this.password.value ? 'Wrong email or password.' : 'Fill in both.'">
<label>Email <input name="email" type="email"></label>
<label>Password <input name="password" type="password"></label>
<button>Sign in</button></form><p id="said" role="status"></p></main>"""
SIGN_IN_TASK = 'sign in with the email "mara@example.org" and the password "not-my-password"'


def test_a_sign_in_pressed_on_the_empty_form_is_held_back_naming_each_value(
        page: Page, server: LocalServer) -> None:
    server.pages["/signin"] = SIGN_IN
    page.goto(server.url + "/signin")
    typed = {"complete": False, "message": "m", "actions": [
        {"tool": "fill", "parameters": {"element_id": "input-0", "value": "mara@example.org"}},
        {"tool": "fill", "parameters": {"element_id": "input-1", "value": "not-my-password"}},
        {"tool": "click", "parameters": {"element_id": "button-0"}}]}
    llm = ScriptedLLM([PRESS, typed, DONE, DONE])
    result = Agent(page, llm).execute(SIGN_IN_TASK, max_steps=4)
    held = result.steps[0].executions[0]
    error = held.error or ""
    assert not held.success and error.startswith('Not run yet: button-0 "Sign in"')
    assert ("input-0 (Email) takes 'mara@example.org'; input-1 (Password) takes "
            "'not-my-password'") in error
    assert page.locator("#said").inner_text() == "Wrong email or password."
    assert all(e.success for e in result.steps[1].executions)


def test_a_password_typed_in_an_earlier_reply_counts_as_typed(
        page: Page, server: LocalServer) -> None:
    """A password field's value never reaches the page state (it reads '••••'): typed in one
    reply and pressed in the next, the press runs, and no hint asks for the password again.
    Read off a real recording, where the model typed both values, pressed Sign in, was held
    back for the password it had typed, and refilled fields until its calls ran out."""
    server.pages["/signin"] = SIGN_IN
    page.goto(server.url + "/signin")
    typed = {"complete": False, "message": "m", "actions": [
        {"tool": "fill", "parameters": {"element_id": "input-0", "value": "mara@example.org"}},
        {"tool": "fill", "parameters": {"element_id": "input-1", "value": "not-my-password"}}]}
    llm = ScriptedLLM([typed, PRESS, DONE, DONE])
    result = Agent(page, llm).execute(SIGN_IN_TASK, max_steps=4)
    pressed = result.steps[1].executions[0]
    assert pressed.success, pressed.error
    assert "send-last" not in result.steps[1].rules
    assert page.locator("#said").inner_text() == "Wrong email or password."
    second = llm.prompts[1]
    assert 'value="••••"' in second  # the page state shows it typed, masked
    assert "input-1 (Password) takes" not in second
    assert "input-1 (Password) takes" in llm.prompts[0]
    # an empty password field is still asked for
    assert unset_for_send(SIGN_IN_TASK, '- form-0\n  - input-0 (type="password" '
                          'label="Password")\n  - button-0 "Sign in"', "button-0", {}) == (
        "Sign in", ["input-0 (Password) takes 'not-my-password'"])
    assert unset_for_send(SIGN_IN_TASK, '- form-0\n  - input-0 (type="password" '
                          'value="••••" label="Password")\n  - button-0 "Sign in"',
                          "button-0", {}) is None


def test_a_task_that_gives_nothing_for_the_form_is_pressed_at_once(
        page: Page, server: LocalServer) -> None:
    """The failure path a test asks for ("press Sign in without filling in the form") gives
    no value: the press runs as asked, and the page answers."""
    server.pages["/signin"] = SIGN_IN
    page.goto(server.url + "/signin")
    llm = ScriptedLLM([PRESS, DONE, DONE])
    result = Agent(page, llm).execute("press Sign in without filling in the form", max_steps=3)
    assert result.steps[0].executions[0].success
    assert "send-last" not in result.steps[0].rules
    assert page.locator("#said").inner_text() == "Fill in both."


def test_a_held_back_press_is_no_part_of_the_recording(page: Page, server: LocalServer,
                                                       tmp_path: Path) -> None:
    """The recipe holds what ran: the option chosen and the one press; its replay sends the
    chosen height, and fails on a page whose form sends another."""
    server.pages["/height"] = PAGE
    recipe = tmp_path / "height.yaml"
    said = {"complete": True, "message": "done", "evidence": [
        {"expect": "text", "text": "Sent: 5ft 9in"}]}
    llm = ScriptedLLM([PRESS, CHOOSE_AND_PRESS, said, said])
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm) as task:
        task.goto("/height")
        task.do(TASK)
    steps = yaml.safe_load(recipe.read_text())["steps"]
    tools = [a["tool"] for s in steps for a in s.get("actions") or []]
    assert tools == ["select", "click"]
    with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
        task.goto("/height")
        task.do(TASK)
    server.pages["/height"] = PAGE.replace("this.height.value", "'5ft 8in'")
    with pytest.raises(pytest.fail.Exception, match="Sent: 5ft 9in"):
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
            task.goto("/height")
            task.do(TASK)
