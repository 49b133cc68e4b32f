"""``form-values`` (issue 45): the fields a do task's values go in, named after the page
state when the task's words name each value's field and the page has exactly one such field.
A hint only: it never types, and a value it cannot place for certain is left out."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.guards import given_values
from pytest_webtask.agent.small.fields import values_for_fields
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer

JOIN_STATE = """URL: http://library.example/join
- main-0
  - form-0
    - input-0 (type="text" name="name" label="Full name")
    - input-1 (type="email" name="email" label="Email")
    - input-2 (type="text" name="postcode" label="Postcode")
    - input-3 (type="checkbox" name="rules" value="yes" label="I agree to the rules")
    - button-0 "Join"
"""
JOIN_TASK = ("join the library as Ann Lee with the email ann@example.org and the postcode "
             "AV1 2BC, agreeing to the rules")


def _places(state: str, task: str) -> list[str]:
    return values_for_fields(state, task)


def test_each_value_goes_in_the_one_field_its_words_name_in_page_order() -> None:
    assert _places(JOIN_STATE, JOIN_TASK) == [
        "input-0 (Full name) takes 'Ann Lee'", "input-1 (Email) takes 'ann@example.org'",
        "input-2 (Postcode) takes 'AV1 2BC'"]
    # a field that holds its value already is not named again; one holding another is
    held = JOIN_STATE.replace('name="name" label', 'name="name" value="Ann Lee" label') \
        .replace('name="email" label', 'name="email" value="ann@x.org" label')
    assert _places(held, JOIN_TASK) == ["input-1 (Email) takes 'ann@example.org'",
                                        "input-2 (Postcode) takes 'AV1 2BC'"]
    # a value the task puts "into the ... field", a placeholder named for its field
    assert _places(JOIN_STATE, 'type "AV1 2BC" into the postcode field') == [
        "input-2 (Postcode) takes 'AV1 2BC'"]
    assert _places(JOIN_STATE, "join with {email}") == ["input-1 (Email) takes '{email}'"]


def test_a_value_it_cannot_place_for_certain_is_left_out() -> None:
    # no field word: a quoted search term, a bare word
    assert _places(JOIN_STATE, 'search for "Night Orchard"') == []
    # a field the task leaves empty gives no value
    assert _places(JOIN_STATE, "join as Ann Lee and leave the postcode empty") == [
        "input-0 (Full name) takes 'Ann Lee'"]
    # two fields that could take it (a password and its confirmation): neither is named
    two = """- form-0
  - input-0 (type="email" name="email" label="Email")
  - input-1 (type="password" name="password" label="Password")
  - input-2 (type="password" name="confirm" label="Confirm password")
"""
    assert _places(two, "register with email a@b.org and password s3cret-1") == [
        "input-0 (Email) takes 'a@b.org'"]
    # a disabled or read-only field, and a field of another kind, take nothing
    off = JOIN_STATE.replace('label="Postcode")', 'label="Postcode") disabled')
    assert "input-2" not in " ".join(_places(off, JOIN_TASK))
    assert _places(JOIN_STATE, "sign in with the password hunter2") == []
    # "First name" is not the name of "as Ann Lee"; "User name" is not a full name
    split = """- form-0
  - input-0 (type="text" label="First name")
  - input-1 (type="text" label="User name")
"""
    assert _places(split, "join as Ann Lee") == []
    assert _places(split, 'sign up with the username "annl"') == [
        "input-1 (User name) takes 'annl'"]
    # a "Surname" field is a last name's, never a first name's
    names = """- form-0
  - input-0 (type="text" label="Surname")
"""
    assert _places(names, "join with the first name Ann") == []
    assert _places(names, "join with the last name Lee") == ["input-0 (Surname) takes 'Lee'"]


def test_a_quoted_value_after_a_field_word_is_the_value_without_its_quotes() -> None:
    """'the username "kanesha"' gave '"kanesha"' (quotes and all) to every guard, which then
    found it typed nowhere: the word-after-the-field-word reading no longer starts at a quote
    or a placeholder, which their own readings take."""
    assert given_values('Enter the username "kanesha" and the password "Ok" and press login') \
        == ["kanesha", "Ok"]
    assert given_values("sign in with password {pw} and pin 1234") == ["{pw}", "1234"]


CHECKOUT = """<!doctype html><title>Checkout</title><main><h1>Checkout</h1>
<form onsubmit="event.preventDefault()">
<p><label for="name">Name</label><input id="name" name="name"></p>
<p><label for="email">Email</label><input id="email" name="email" type="email"></p>
<p><label for="address">Address</label><input id="address" name="address"></p>
<button>Place order</button></form></main>"""
ORDER = "place the order as Ada Lovelace with the email ada@example.com and no address"
STOP = {"complete": False, "impossible": True, "message": "stop"}


def test_the_hint_is_said_after_the_page_state_and_the_rule_switches_off(
        page: Page, server: LocalServer) -> None:
    server.pages["/checkout"] = CHECKOUT
    page.goto(server.url + "/checkout")
    helped = ScriptedLLM([STOP, STOP])
    result = Agent(page, helped, settle_timeout_ms=300).execute(ORDER)
    assert ("The task's values and the fields they go in: input-0 (Name) takes 'Ada Lovelace'; "
            "input-1 (Email) takes 'ada@example.com'.") in helped.prompts[0]
    assert "input-2" not in helped.prompts[0].split("fields they go in")[1].split("\n")[0]
    assert "form-values" in result.steps[0].rules

    page.goto(server.url + "/checkout")
    bare = ScriptedLLM([STOP, STOP])
    result = Agent(page, bare, settle_timeout_ms=300, rules_off="form-values").execute(ORDER)
    assert "fields they go in" not in bare.prompts[0]
    assert "form-values" not in result.steps[0].rules
    # a check is never told where values go
    page.goto(server.url + "/checkout")
    check = ScriptedLLM([STOP, STOP])
    Agent(page, check, settle_timeout_ms=300).execute(
        "Check whether this statement about the current page is true: the email "
        "ada@example.com is shown")
    assert "fields they go in" not in check.prompts[0]


def test_the_field_word_nearest_the_value_names_its_kind() -> None:
    from pytest_webtask.agent.small.fields import _kind_near
    assert _kind_near("sign up with the user name ", "", "annl") == "username"
    assert _kind_near("join with the first name ", "", "Ann") == "first name"
    assert _kind_near("log in with the email address ", "", "mara@example.org") == "email"
    assert _kind_near("with the name Ann and the postcode ", "", "AV1 2BC") == "postcode"
    assert _kind_near("join as ", "", "Ann Lee") == "name"
    assert _kind_near("search for ", "", "shoes") is None


def test_fields_now_reads_the_forms_fields_only() -> None:
    """``fields-now``'s reading: a form's text fields (empty or quoted), boxes ticked or not
    and a dropdown's chosen option, in page order; a field outside the page's forms and a
    disabled one are left out."""
    from pytest_webtask.browser.fields import fields_now
    state = ('- main-0\n  - form-0\n'
             '    - input-0 (type="text" name="name" label="Full name")\n'
             '    - input-1 (type="email" name="email" value="bo@example.org" label="Email")\n'
             '    - input-2 (type="checkbox" name="rules" checked value="yes" label="Rules")\n'
             '    - input-3 (type="checkbox" name="news" label="News")\n'
             '    - input-4 (type="text" name="code" disabled label="Code")\n'
             '    - select-0 (name="size" options="S|M" selected="M" aria-label="Size")\n'
             '    - button-0 "Join"\n'
             '- input-5 (type="search" name="q")\n')
    assert fields_now(state) == ['Full name: empty', 'Email: "bo@example.org"', 'Rules: ticked',
                                 'News: not ticked', 'size: "M"']
    assert "q: empty" in fields_now(state.replace("  - form-0\n", ""))
    assert fields_now(state, limit=2) == ['Full name: empty', 'Email: "bo@example.org"']


def test_the_number_a_task_gives_a_slider() -> None:
    """"Select 1 with the slider" beside a slider whose page shows "-9": the hint says the
    slider takes 1 (a small model slid to the number it saw); two sliders, the one the
    task's word before "slider" names; none named, or two numbers: no guess."""
    from pytest_webtask.agent.small.fields import values_for_fields
    one = '- span-0 (role="slider")\n- "-9"\n- input-0 (type="checkbox")\n- button-0 "Submit"'
    assert values_for_fields(one, "Select 1 with the slider, then hit Submit.") == [
        "span-0 (slider) takes '1'"]
    assert values_for_fields(one, "set the slider to 30") == ["span-0 (slider) takes '30'"]
    assert values_for_fields(one.replace('"slider")', '"slider" value="1")'),
                             "Select 1 with the slider") == []  # holds it already
    assert values_for_fields(one, "Select 1 with the slider or 2 with the slider") == []
    two = ('- input-0 (type="range" value="5" label="Volume")\n'
           '- div-0 (role="slider" value="3" label="Bass")')
    assert values_for_fields(two, "set the volume slider to 7") == [
        "input-0 (slider) takes '7'"]
    assert values_for_fields(two, "set the slider to 7") == []
