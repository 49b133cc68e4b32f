"""The policy's field refusals (issue 45): a field the task says stays empty is never typed
into (``left-empty``), one reply never types two values into one field (``one-value``), and
a disabled button is refused at once with the fields its form waits for (``disabled-target``).
Each with the page where the recording must not go green."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.small.fields import empty_fields, left_empty
from pytest_webtask.browser.page_state import state_lines
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

CHECKOUT = """<!doctype html><title>Checkout</title><main><h1>Checkout</h1>
<div id="errors" role="alert"></div>
<form id="f"><p><label for="name">Name</label><input id="name" name="name"></p>
<p><label for="email">Email</label><input id="email" name="email" type="email"></p>
<p><label for="address">Address</label><input id="address" name="address"></p>
<button>Place order</button></form><p id="done"></p></main>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = (id) => document.getElementById(id).value.trim();
  const errors = [];
  if (!v('name')) errors.push('Name is required.');
  if (!v('address') && !ACCEPTS_NO_ADDRESS) errors.push('Address is required.');
  document.getElementById('errors').textContent = errors.join(' ');
  const done = document.getElementById('done');
  if (!errors.length) done.textContent = 'Order confirmed for ' + v('name');
});
</script>"""
CHECKS, ACCEPTS_NO_ADDRESS = (CHECKOUT.replace("ACCEPTS_NO_ADDRESS", "false"),
                              CHECKOUT.replace("ACCEPTS_NO_ADDRESS", "true"))
SIGN_IN = """<!doctype html><title>Sign in</title><main><h1>Sign in</h1>
<form id="f"><label for="email">Email</label><input id="email" type="email">
<label for="password">Password</label><input id="password" type="password">
<button id="go" disabled>Sign in</button></form><p id="said" role="alert"></p></main>
<script>
const email = document.getElementById('email'), password = document.getElementById('password');
const go = document.getElementById('go');
const update = () => { go.disabled = !(email.value && password.value); };
email.addEventListener('input', update); password.addEventListener('input', update);
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault(); document.getElementById('said').textContent = 'Wrong email or password.';
});
</script>"""
NO_ADDRESS = "place the order as Ada Lovelace with the email ada@example.com and no address"


def _act(*actions: tuple[str, str, str | None]) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": tool, "parameters": {"element_id": el, **({"value": v} if v is not None else {})}}
        for tool, el, v in actions]}


def _done(*claims: dict[str, Any]) -> dict[str, Any]:
    return {"complete": True, "message": "done", "evidence": list(claims)}


def _line(text: str) -> Any:
    return state_lines(text)[0]


def test_the_words_that_leave_a_field_empty() -> None:
    address = _line('- input-2 (type="text" name="address" label="Address")')
    email = _line('- input-1 (type="email" name="email" label="Email address")')
    name = _line('- input-0 (type="text" name="name" label="Full name")')
    postcode = _line('- input-3 (type="text" name="postcode" label="Postcode")')
    password = _line('- input-4 (type="password" label="Password")')
    box = _line('- input-5 (type="checkbox" label="Newsletter")')
    assert left_empty(NO_ADDRESS, address) == "no address"
    assert left_empty(NO_ADDRESS, email) is None  # "no address" is not "Email address"
    assert left_empty(NO_ADDRESS, name) is None
    task = "fill in the form as Ann Lee, leave the postcode empty and press Join"
    assert left_empty(task, postcode) and not left_empty(task, name)
    assert left_empty("sign in as ada@example.com without a password", password)
    assert left_empty("submit the form with an empty name", name)
    every = "press Join without filling in the form"
    assert all(left_empty(every, f) for f in (address, email, name, postcode, password))
    assert left_empty(every, box) is None  # a box is not typed into
    # words that do not say so
    assert left_empty('type "no address" into the notes', address) is None  # a value
    assert left_empty("place the order with the address 1 Main St", address) is None
    assert left_empty("sign up without the newsletter", box) is None
    assert left_empty("there is no name on the card: fill in the address", address) is None


def test_the_empty_fields_of_a_form_are_those_without_a_value() -> None:
    state = ('- form-0\n  - input-0 (type="email" label="Email" value="a@b.c")\n'
             '  - input-1 (type="password" label="Password")\n  - button-0 (disabled) "Go"\n'
             '- form-1\n  - input-2 (type="text" label="Search")')
    assert empty_fields(state, "button-0") == ["input-1 (Password)"]
    assert empty_fields(state, "input-2") == ["input-2 (Search)"]
    assert empty_fields(state, "button-9") == []


def test_a_field_the_task_leaves_empty_is_refused_and_the_recording_fails_where_it_is_not_required(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """The model places the order, reads "Address is required" and types an address (the
    order the task said not to give): refused, quoting the task; it cites the error. The
    recording holds no address, replays, and fails on a shop that takes an order with none."""
    server.pages["/checkout"] = CHECKS
    recipe = tmp_path / "no_address.yaml"
    llm = ScriptedLLM([
        _act(("fill", "input-0", "Ada Lovelace"), ("fill", "input-1", "ada@example.com"),
             ("click", "button-0", None)),
        _act(("fill", "input-2", "1 Main St"), ("click", "button-0", None)),
        {"message": "The address is still to fill.", "done": False},
        _done({"expect": "text", "text": "Address is required."})])
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm) as task:
        task.goto("/checkout")
        task.do(NO_ADDRESS)
    # "and no address" expects a refusal: the page's answer is asked about first
    # (page-answered); a "no" runs the reply it followed, whose address is refused, and the
    # model reads why
    assert "The page answered what your actions sent" in llm.prompts[2]
    assert ("The task says 'no address': input-2 (Address) stays empty, so this was not "
            "run") in llm.prompts[3]
    saved = recipe.read_text()
    assert "1 Main St" not in saved and "Address is required." in saved
    with open_webtask(page, recipe, "replay", base_url=server.url) as task:
        task.goto("/checkout")
        task.do(NO_ADDRESS)
    server.pages["/checkout"] = ACCEPTS_NO_ADDRESS
    with pytest.raises(pytest.fail.Exception, match="Address is required"):
        with open_webtask(page, recipe, "replay", base_url=server.url) as task:
            task.goto("/checkout")
            task.do(NO_ADDRESS)


def test_without_the_rule_the_address_is_typed(page: Page, server: LocalServer) -> None:
    server.pages["/checkout"] = CHECKS
    page.goto(server.url + "/checkout")
    stop = {"complete": False, "impossible": True, "message": "stop"}
    result = Agent(page, ScriptedLLM([_act(("fill", "input-2", "1 Main St")), stop, stop]),
                   settle_timeout_ms=300, rules_off="left-empty").execute(NO_ADDRESS)
    assert result.steps[0].executions[0].success
    assert page.locator("#address").input_value() == "1 Main St"
    page.goto(server.url + "/checkout")
    result = Agent(page, ScriptedLLM([_act(("fill", "input-2", "1 Main St")), stop, stop]),
                   settle_timeout_ms=300).execute(NO_ADDRESS)
    assert "stays empty" in (result.steps[0].executions[0].error or "")
    assert "left-empty" in result.steps[0].rules
    assert page.locator("#address").input_value() == ""


def test_one_reply_types_one_value_into_a_field(page: Page, server: LocalServer) -> None:
    """The email, then the password, into the email field: the second is refused, naming
    the field still empty; the first stays."""
    server.pages["/signin"] = SIGN_IN
    stop = {"complete": False, "impossible": True, "message": "stop"}
    both = _act(("type", "input-0", "ada@example.com"), ("type", "input-0", "babbage"))
    task = "sign in as ada@example.com with the password babbage"
    page.goto(server.url + "/signin")
    result = Agent(page, ScriptedLLM([both, stop, stop]), settle_timeout_ms=300).execute(task)
    first, second = result.steps[0].executions
    assert first.success and not second.success
    assert "input-0 already got 'ada@example.com'" in (second.error or "")
    assert "still empty: input-1 (Password)" in (second.error or "")
    assert "one-value" in result.steps[0].rules
    assert page.locator("#email").input_value() == "ada@example.com"
    # the same value again is no second value (already-holds speaks of that); off: both typed
    page.goto(server.url + "/signin")
    Agent(page, ScriptedLLM([both, stop, stop]), settle_timeout_ms=300,
          rules_off="one-value").execute(task)
    assert page.locator("#email").input_value() == "ada@example.combabbage"


def test_a_disabled_button_is_refused_at_once_and_runs_once_the_fields_enable_it(
        page: Page, server: LocalServer) -> None:
    server.pages["/signin"] = SIGN_IN
    page.goto(server.url + "/signin")
    task = "sign in as ada@example.com with the password babbage"
    llm = ScriptedLLM([
        _act(("click", "button-0", None)),
        _act(("fill", "input-0", "ada@example.com"), ("fill", "input-1", "babbage"),
             ("click", "button-0", None)),
        _done({"expect": "text", "text": "Wrong email or password."})])
    result = Agent(page, llm, settle_timeout_ms=300).execute(task)
    refused = result.steps[0].executions[0]
    assert not refused.success and "Timeout" not in (refused.error or "")
    assert "button-0 is disabled" in (refused.error or "")
    assert "empty now: input-0 (Email), input-1 (Password)" in (refused.error or "")
    assert "disabled-target" in result.steps[0].rules
    assert "button-0 is disabled" in llm.prompts[1]  # the model reads why
    # the fills before it in the same reply enabled it: the click ran
    assert all(e.success for e in result.steps[1].executions)
    assert "disabled-target" not in result.steps[1].rules
    assert result.completed and page.locator("#said").inner_text() == "Wrong email or password."


TODO = """<!doctype html><title>Todos</title><main><h1>todos</h1>
<input id="new" aria-label="What needs to be done?"><ul id="list"></ul></main>
<script>
const input = document.getElementById('new');
input.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !input.value) return;
  const li = document.createElement('li'); li.textContent = input.value;
  document.getElementById('list').append(li); input.value = '';
});
</script>"""


def test_a_field_a_key_emptied_takes_the_next_value(page: Page, server: LocalServer) -> None:
    """A to-do list's input, emptied by Enter, takes the second todo of the same reply."""
    server.pages["/todo"] = TODO
    page.goto(server.url + "/todo")
    stop = {"complete": False, "impossible": True, "message": "stop"}
    reply = {"complete": False, "message": "m", "actions": [
        {"tool": "type", "parameters": {"element_id": "input-0", "value": "Walk the dog"}},
        {"tool": "press", "parameters": {"element_id": "input-0", "key": "Enter"}},
        {"tool": "type", "parameters": {"element_id": "input-0", "value": "Buy milk"}},
        {"tool": "press", "parameters": {"element_id": "input-0", "key": "Enter"}}]}
    result = Agent(page, ScriptedLLM([reply, stop, stop]), settle_timeout_ms=300).execute(
        "add the todos Walk the dog and Buy milk")
    assert all(e.success for e in result.steps[0].executions)
    assert "one-value" not in result.steps[0].rules
    assert page.locator("#list li").all_inner_texts() == ["Walk the dog", "Buy milk"]


def test_text_typed_into_a_checkbox_is_refused_naming_the_fields_and_its_label_ticks_it(
        page: Page, server: LocalServer) -> None:
    """"fill input-3 12345" on a checkbox: Playwright's own error names no field; the refusal
    names the box and the empty fields, and nothing on the page changes. Its own label typed
    into it ticks it (a click on the element the model named)."""
    server.pages["/join"] = JOIN_BOX
    page.goto(server.url + "/join")
    stop = {"complete": False, "impossible": True, "message": "stop"}
    result = Agent(page, ScriptedLLM([_act(("fill", "input-1", "12345")), stop, stop]),
                   settle_timeout_ms=300).execute("join as Ann with the postcode 12345")
    ran = result.steps[0].executions[0]
    assert not ran.success
    assert ("input-1 is a checkbox (I agree to the rules): it takes no text; tick it with "
            "check, untick it with uncheck. Type '12345' into a text field (empty now: "
            "input-0 (Postcode)).") in str(ran.error)
    assert "control-kind" in result.steps[0].rules
    assert not page.locator("#rules").is_checked() and page.locator("#pc").input_value() == ""
    page.goto(server.url + "/join")
    result = Agent(page, ScriptedLLM([_act(("type", "input-1", "I agree to the rules")),
                                      stop, stop]),
                   settle_timeout_ms=300).execute("agree to the rules")
    assert result.steps[0].executions[0].success
    assert page.locator("#rules").is_checked()


JOIN_BOX = """<!doctype html><title>Join</title><main><form>
<label for="pc">Postcode</label><input id="pc" name="postcode">
<input id="rules" type="checkbox"> <label for="rules">I agree to the rules</label>
<button type="button">Join</button></form></main>"""


RULES = """<!doctype html><title>Join</title><main><h1>Join</h1>
<div id="errors" role="alert"></div>
<form id="f"><label for="name">Name</label><input id="name" name="name">
<input id="rules" type="checkbox" value="yes"> <label for="rules">I agree to the rules</label>
<input id="news" type="checkbox"> <label for="news">Send me the newsletter</label>
<button>Join</button></form><p id="done"></p></main>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const agreed = document.getElementById('rules').checked || ACCEPTS_UNAGREED;
  document.getElementById('errors').textContent = agreed ? '' : 'You must agree to the rules.';
  if (agreed) document.getElementById('done').textContent = 'Welcome!';
});
</script>"""
NEEDS_RULES, ACCEPTS_UNAGREED = (RULES.replace("ACCEPTS_UNAGREED", "false"),
                                 RULES.replace("ACCEPTS_UNAGREED", "true"))
UNAGREED = "fill in the name Ann and press Join without agreeing to the rules"


def test_the_phrases_that_leave_a_box_unticked_name_it_by_its_label() -> None:
    from pytest_webtask.agent.small.fields import left_unticked
    rules, news, name = state_lines(
        '- input-1 (type="checkbox" value="yes" label="I agree to the rules")\n'
        '- input-2 (type="checkbox" label="Send me the newsletter")\n'
        '- input-0 (label="Name")')
    assert left_unticked(UNAGREED, rules) == "without agreeing to the rules"
    assert left_unticked(UNAGREED, news) is None  # its label has no "rules"
    assert left_unticked("join and do not subscribe to the newsletter", news) is not None
    assert left_unticked("leave the newsletter box unticked", news) is not None
    assert left_unticked("leave the newsletter box unticked", rules) is None
    assert left_unticked("join, agreeing to the rules", rules) is None
    assert left_unticked('type "without agreeing to the rules" into the name', rules) is None
    assert left_unticked(UNAGREED, name) is None  # a text field is no box


def test_a_box_the_task_leaves_unticked_is_refused_and_the_recording_fails_where_it_is_not_needed(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """The model ticks the rules box the task says not to agree to: refused, quoting the
    task, nothing ticked; it presses Join and cites the error. The recipe ticks nothing,
    replays, and fails on a form that takes an unagreed join."""
    server.pages["/join"] = NEEDS_RULES
    recipe = tmp_path / "unagreed.yaml"
    llm = ScriptedLLM([
        _act(("fill", "input-0", "Ann"), ("check", "input-1", None), ("click", "button-0", None)),
        _act(("click", "button-0", None)),
        _done({"expect": "text", "text": "You must agree to the rules."})])
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm) as task:
        task.goto("/join")
        outcome = task.do(UNAGREED)
    assert ("The task says 'without agreeing to the rules': input-1 (I agree to the rules) "
            "stays unticked, so this was not run") in llm.prompts[1]
    assert "left-unticked" in outcome.result.steps[0].rules
    # left out, not failed: the rest of the reply (Join) ran
    assert [e.success for e in outcome.result.steps[0].executions] == [True, False, True]
    saved = recipe.read_text()
    assert "tool: check" not in saved and "You must agree to the rules." in saved
    with open_webtask(page, recipe, "replay", base_url=server.url) as task:
        task.goto("/join")
        task.do(UNAGREED)
    assert not page.locator("#rules").is_checked()
    server.pages["/join"] = ACCEPTS_UNAGREED
    with pytest.raises(pytest.fail.Exception, match="You must agree to the rules"):
        with open_webtask(page, recipe, "replay", base_url=server.url) as task:
            task.goto("/join")
            task.do(UNAGREED)


def test_without_the_rule_the_box_is_ticked(page: Page, server: LocalServer) -> None:
    server.pages["/join"] = NEEDS_RULES
    page.goto(server.url + "/join")
    stop = {"complete": False, "impossible": True, "message": "stop"}
    result = Agent(page, ScriptedLLM([_act(("check", "input-1", None)), stop, stop]),
                   settle_timeout_ms=300, rules_off="left-unticked").execute(UNAGREED)
    assert result.steps[0].executions[0].success and page.locator("#rules").is_checked()
    # and with it, a click on the box is refused as a check is; another box is not
    page.goto(server.url + "/join")
    result = Agent(page, ScriptedLLM([_act(("click", "input-2", None), ("click", "input-1", None)),
                                      stop, stop]), settle_timeout_ms=300).execute(UNAGREED)
    news, rules = result.steps[0].executions
    assert news.success and page.locator("#news").is_checked()
    assert not rules.success and "stays unticked" in str(rules.error)
    assert not page.locator("#rules").is_checked()
