"""Frames from other origins: a shop's checkout (one loopback origin) takes the card in a
payment provider's frame (another port: another origin), whose card form opens a
confirmation challenge in a frame of its own before the shop is told the order is paid.

Where the provider's origin is allowed, the page state reads its frame, each document in
its own context, and the step records, replays with no model, and exports to
``frame_locator`` code; where it is not, the page state says why the fields are missing and
the recording fails with that reason. A provider whose form is broken fails the replay, and
the card number typed into its frame shows in no picture."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, Page

from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.export.trail import Trail
from pytest_webtask.export.writer import export
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.recipes.model import RecipeStep
from pytest_webtask.report._sync.shots import report_shot, screenshot_masked
from pytest_webtask.testing import ScriptedLLM, open_webtask
from pytest_webtask.types import Secrets
from tests.pictures import pixels_differing
from tests.plugin.conftest import Lender
from tests.server import PAGES, LocalServer

TASK = "pay for the order with the card {card}, expiry {expiry} and security code {cvc}, " \
       "receipt to {email}"
CARD = "4242 4242 4242 4242"
VALUES: dict[str, Any] = {"email": "ada@example.com", "expiry": "12/30",
                          "secrets": {"card": CARD, "cvc": "737"}}
ACCEPTED = "Order 1042 accepted: paid with the card ending 4242, receipt sent to ada@example.com"


def serve(shop: LocalServer, provider: LocalServer, *, card: str | None = None,
          challenge: str | None = None) -> None:
    """The checkout on ``shop``, the card form and its challenge on ``provider`` (``card``,
    ``challenge``: another version of either page)."""
    shop.pages["/checkout"] = (PAGES / "pay-checkout.html").read_text(
        encoding="utf-8").replace("CARD_ORIGIN", provider.url)
    provider.pages["/pay-card"] = card or (PAGES / "pay-card.html").read_text(encoding="utf-8")
    if challenge is not None:
        provider.pages["/pay-challenge"] = challenge


def line_id(page: str, pattern: str) -> str | None:
    """The element id on the page-state line that matches ``pattern``, if one does."""
    found = re.search(r"^\s*- (?:\w+ > )*([a-z0-9]+-\d+)\b[^\n]*" + pattern, page, re.MULTILINE)
    return found.group(1) if found else None


def pay_reply(context: ModelRequest) -> dict[str, Any]:
    """The scripted model: acts only on ids of the page state it was just sent."""
    page = context.blocks[-1].text
    if "Order 1042 accepted" in page:
        return {"complete": True, "message": "paid", "evidence": [
            ACCEPTED.replace("ada@example.com", "{email}"),
            {"expect": "value", "element": line_id(page, r'label="Confirmation code"'),
             "value": "123456"},
            # this one held before the step: it proves nothing, and the recipe says so
            {"expect": "text", "element": line_id(page, '"Pay \\$39.00"'),
             "text": "Pay $39.00"}]}
    code = line_id(page, r'label="Confirmation code"')
    if code is not None:
        return {"complete": False, "message": "confirm the payment", "actions": [
            {"reason": "code", "tool": "fill", "parameters": {"element_id": code,
                                                               "value": "123456"}},
            {"reason": "confirm", "tool": "click", "parameters": {
                "element_id": line_id(page, '"Confirm payment"')}}]}
    number = line_id(page, r'label="Card number"')
    if number is None:
        return {"complete": False, "impossible": True, "actions": [],
                "message": "the page shows no card fields"}
    return {"complete": False, "message": "fill in the card", "actions": [
        {"reason": "receipt", "tool": "fill", "parameters": {
            "element_id": line_id(page, r'label="Email for the receipt"'), "value": "{email}"}},
        {"reason": "card", "tool": "fill", "parameters": {"element_id": number,
                                                           "value": "{card}"}},
        {"reason": "expiry", "tool": "fill", "parameters": {
            "element_id": line_id(page, r'label="Expiry \(MM/YY\)"'), "value": "{expiry}"}},
        {"reason": "cvc", "tool": "fill", "parameters": {
            "element_id": line_id(page, r'label="Security code"'), "value": "{cvc}"}},
        {"reason": "pay", "tool": "click", "parameters": {
            "element_id": line_id(page, '"Pay \\$39.00"')}}]}


class Checkout:
    """One payment on /checkout in a fresh browser context, recorded or replayed."""

    def __init__(self, browser: Browser, shop: LocalServer, provider: LocalServer,
                 tmp_path: Path) -> None:
        self.browser, self.shop, self.provider = browser, shop, provider
        self.recipe = tmp_path / "checkout.yaml"
        self.artifacts = tmp_path / "artifacts"
        self.llm = ScriptedLLM(pay_reply)
        self.origins: tuple[str, ...] = (provider.url,)
        self.shots: list[bytes] = []

    def run(self, mode: str, **values: Any) -> None:
        context = self.browser.new_context()
        page = context.new_page()
        try:
            with open_webtask(page, self.recipe, mode, base_url=self.shop.url,
                              llm=self.llm if mode != "replay" else None,
                              test_name="checkout", timeout=3.0, artifacts=self.artifacts,
                              allowed_origins=self.origins) as task:
                task.goto("/checkout")
                page.frame_locator("#card-frame").get_by_label("Card number").wait_for()
                task.do(TASK, **{**VALUES, **values})
                assert page.locator("#status").text_content() == ACCEPTED
                self.shots = [page.screenshot(),
                              screenshot_masked(page, task.secrets),
                              report_shot(page, task.secrets) or b""]
        finally:
            context.close()

    def fails(self, mode: str = "replay") -> str:
        with pytest.raises(pytest.fail.Exception) as failure:
            self.run(mode)
        return str(failure.value)


@pytest.fixture
def checkout(browser: Browser, server: LocalServer, other: LocalServer,
             tmp_path: Path) -> Iterator[Checkout]:
    serve(server, other)
    yield Checkout(browser, server, other, tmp_path)


def test_the_page_state_reads_an_allowed_frame_and_names_one_that_is_not(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    serve(server, other)
    page.goto(server.url + "/checkout")
    page.frame_locator("#card-frame").get_by_label("Card number").wait_for()
    browser = LLMBrowser(page)
    browser.allowed_origins = [server.url]
    state = browser.read()
    assert (f"- iframe (title=\"Card payment\")\n  - [a frame from {other.url} is not "
            "allowed: --allow-origin to use it (webtask_allowed_origins); its content is not "
            "shown]") in state.text, state.text
    assert "Card number" not in state.text and state.frames_not_allowed == [other.url]
    assert list(state.elements) == ["input-0"]  # the receipt's email only

    browser.allowed_origins = [server.url, other.url]
    state = browser.read()
    card = line_id(state.text, r'label="Card number"')
    assert card is not None, state.text
    assert '  - form-0\n' in state.text and '- button-0 "Pay $39.00"' in state.text
    assert state.elements[card] == ["f0"] and state.frames_not_allowed == []
    # its fingerprint leads from the page to the element, as a same-origin frame's does
    fp = browser.describe(card)
    assert (fp.frame, fp.label, fp.id) == (["#card-frame"], "Card number", "number")
    browser.locator(card).fill("4242424242424242")
    assert page.frame_locator("#card-frame").locator("#number").input_value() == \
        "4242424242424242"
    assert browser.stale_ids([card, "input-0"]) == (False, [])


def test_a_frame_of_a_third_origin_inside_the_provider_s_is_read_or_named_in_its_place(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    third = LocalServer()
    try:
        third.pages["/bank"] = ("<h3>Your bank</h3><label for=otp>Bank code</label>"
                                "<input id=otp>")
        card = (PAGES / "pay-card.html").read_text(encoding="utf-8").replace(
            '<div id="challenge-box"></div>',
            f'<div id="challenge-box"><iframe id="bank" src="{third.url}/bank"></iframe></div>')
        serve(server, other, card=card)
        page.goto(server.url + "/checkout")
        page.frame_locator("#card-frame").frame_locator("#bank").get_by_label(
            "Bank code").wait_for()
        browser = LLMBrowser(page)
        browser.allowed_origins = [server.url, other.url]
        state = browser.read()
        assert f"    - [a frame from {third.url} is not allowed" in state.text, state.text
        assert "Card number" in state.text and "Bank code" not in state.text

        browser.allowed_origins = [server.url, other.url, third.url]
        state = browser.read()
        otp = line_id(state.text, r'label="Bank code"')
        assert otp is not None and state.elements[otp] == ["f0", "f1"], state.text
        assert browser.describe(otp).frame == ["#card-frame", "#bank"]
        browser.locator(otp).fill("9911")
        assert page.frame_locator("#card-frame").frame_locator("#bank").locator(
            "#otp").input_value() == "9911"
    finally:
        third.stop()


def test_the_two_origin_checkout_records_and_replays_with_no_model(
        checkout: Checkout, server: LocalServer, other: LocalServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    checkout.run("record")
    prompts = "\n".join(checkout.llm.prompts)
    assert "Card number" in prompts and "Confirmation code" in prompts
    assert CARD not in prompts and "737" not in prompts
    recipe = checkout.recipe.read_text()
    assert CARD not in recipe and "737" not in recipe
    step = yaml.safe_load(recipe)["steps"][0]
    frames = [a["target"].get("frame", []) for a in step["actions"]]
    assert frames == [[], *[["#card-frame"]] * 4, *[["#card-frame", "#challenge"]] * 2]
    checks = step["checks"]
    assert checks[0]["text"] == ACCEPTED.replace("ada@example.com", "{email}")
    assert checks[1]["element"]["frame"] == ["#card-frame", "#challenge"]
    assert checks[2]["element"]["frame"] == ["#card-frame"]
    # the page before the step, the provider's frame included (frozen in its own context)
    assert [c.get("held_before") for c in checks] == [None, None, True], checks

    monkeypatch.setenv("CI", "true")
    checkout.run("auto")  # no model: CI is set and none is given
    assert len(checkout.llm.prompts) == 3  # none more than the recording's


def test_with_the_provider_s_origin_not_allowed_the_recording_fails_saying_why(
        checkout: Checkout, other: LocalServer) -> None:
    checkout.origins = ()
    message = checkout.fails("record")
    assert "task not completed: Task impossible: the page shows no card fields" in message, \
        message
    assert (f"The page shows a frame from {other.url}, which is not allowed, so its "
            "content (fields, buttons) was not shown to the model") in message
    assert f"@pytest.mark.webtask(allowed_origins=['{other.url}'])" in message
    assert f"[a frame from {other.url} is not allowed" in checkout.llm.prompts[0]
    assert not checkout.recipe.exists()
    assert not [p for p, _, _ in other.posts]


BROKEN = {
    # the provider's pay button does nothing: no challenge opens
    "pay does nothing": ('onsubmit="return pay(event)"',
                         'onsubmit="event.preventDefault(); return false"'),
    # the challenge is confirmed, but the card form never tells the shop
    "challenge never accepted": ("parent.postMessage({ type: 'paid'", "void ({ type: 'paid'"),
    # the shop is told another card paid
    "wrong card told": ("last4: e.data.last4 }", "last4: '0005' }"),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_card_form_fails_the_replay(checkout: Checkout, server: LocalServer,
                                             other: LocalServer, broken: str) -> None:
    checkout.run("record")
    before, after = BROKEN[broken]
    card = (PAGES / "pay-card.html").read_text(encoding="utf-8")
    assert before in card
    serve(server, other, card=card.replace(before, after))
    message = checkout.fails()
    if broken == "pay does nothing":
        assert "expected textbox \"Confirmation code\"" in message, message
        assert "its iframe #card-frame > #challenge is not on the page" in message, message
    else:
        assert f"expected the page shows text {ACCEPTED!r}" in message, message
    assert CARD not in message


def test_the_card_typed_into_the_provider_s_frame_shows_in_no_picture(
        checkout: Checkout, page: Page) -> None:
    """Every picture of the page after the step (a plain screenshot, the plugin's masked one,
    the report's) is the same whichever card was typed; a variable typed there instead is
    seen (the control), so the comparison is not blind."""
    other_card = "5555 5555 5555 4242"  # same length and last four, every other glyph differs
    checkout.run("record")
    first = checkout.shots
    checkout.run("replay", secrets={"card": other_card, "cvc": "737"})
    for a, b in zip(first, checkout.shots, strict=True):
        assert pixels_differing(page, a, b) <= 20
    checkout.recipe.unlink()
    checkout.llm = ScriptedLLM(pay_reply)
    shown = {"card": CARD}  # a variable: shown, so its pictures differ
    checkout.run("record", secrets={"cvc": "737"}, **shown)
    seen = checkout.shots
    checkout.run("replay", secrets={"cvc": "737"}, card=other_card)
    assert pixels_differing(page, seen[0], checkout.shots[0]) > 200


def test_the_export_writes_frame_locators_that_pass_with_plain_playwright(
        checkout: Checkout, server: LocalServer, pytester: pytest.Pytester, lender: Lender,
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    checkout.run("record")
    step = RecipeStep.model_validate(yaml.safe_load(checkout.recipe.read_text())["steps"][0])
    trail = Trail()
    trail.goto(server.url + "/checkout")
    trail.step(step, {"email": VALUES["email"], "expiry": VALUES["expiry"]}, {},
               VALUES["secrets"])
    path = export(trail, base_url=server.url, folder=pytester.path, test_name="test_checkout",
                  module="test_pay", origin="tests/test_pay.py::test_checkout")
    source = path.read_text(encoding="utf-8")
    assert "page.frame_locator('#card-frame').get_by_role('textbox', name='Card number', " \
        "exact=True).fill(card)" in source, source
    assert "page.frame_locator('#card-frame').frame_locator('#challenge')" \
        ".get_by_role('button', name='Confirm payment', exact=True).click()" in source
    assert CARD not in source and "737" not in source
    pytester.makeconftest(f'''
import pytest
from pytest_webtask.browser.chromium import launch_args


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    return {server.url!r}
''')
    monkeypatch.setenv("WEBTASK_SECRET_CARD", CARD)
    monkeypatch.setenv("WEBTASK_SECRET_CVC", "737")
    result = pytester.runpytest_inprocess("-p", "no:webtask", "-p", "no:cacheprovider",
                                          str(path), plugins=[lender.plugin()])
    result.assert_outcomes(passed=1)
    # and fails when the provider breaks
    card = (PAGES / "pay-card.html").read_text(encoding="utf-8")
    serve(server, checkout.provider, card=card.replace(*BROKEN["challenge never accepted"]))
    result = pytester.runpytest_inprocess("-p", "no:webtask", "-p", "no:cacheprovider",
                                          str(path), plugins=[lender.plugin()])
    result.assert_outcomes(failed=1)


def test_a_secret_a_frame_of_another_origin_shows_as_text_is_masked_in_screenshots(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    """Text the provider's frame writes (not a field webtask typed into) is marked and
    masked there as on the page itself; a plain screenshot shows it (the control)."""
    pictures: dict[str, tuple[bytes, bytes]] = {}
    for value in (CARD, "5555 5555 5555 4242"):
        card = (PAGES / "pay-card.html").read_text(encoding="utf-8").replace(
            '<p id="card-error" role="alert"></p>',
            f'<p id="card-error" role="alert">Saved card: {value}</p>')
        serve(server, other, card=card)
        page.goto(server.url + "/checkout")
        page.frame_locator("#card-frame").get_by_text("Saved card").wait_for()
        pictures[value] = (page.screenshot(),
                           screenshot_masked(page, Secrets({"card": value})))
    plain, masked = zip(*pictures.values(), strict=True)
    assert pixels_differing(page, *plain) > 100
    assert pixels_differing(page, *masked) <= 20
