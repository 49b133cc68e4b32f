"""The page as a step found it, to tell which checks the step made true (``held_before``),
and absences that prove nothing (a ``hidden`` claim on a page that shows nothing).

Recorded through the real record path with a scripted model reading ids off the page state
(tests/test_real_apps.py's ``Flow``); the pages are tests/pages/publish.html (a shadow root, a
same-origin iframe, CSS rules a script inserted, adopted stylesheets) and todomvc.html.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from pytest_webtask.recipes._sync import before
from tests.server import LocalServer
from tests.test_real_apps import Flow, Reply, act, done, line_id, step

OPEN_PANEL = "open the panel"
PUBLISH = "publish the article"
SCRIPTS: dict[str, list[Reply]] = {
    OPEN_PANEL: [
        lambda page, history, n: step(act("click", element_id=line_id(page, '"Open panel"'))),
        lambda page, history, n: done("Panel open"),
    ],
    PUBLISH: [
        lambda page, history, n: step(act("click", element_id=line_id(page, '"Publish"'))),
        lambda page, history, n: done(
            "Published",                                       # the step's outcome
            "Last edited by Ada",                              # in the shadow root all along
            "Panel open",                                      # the iframe's state before it
            {"expect": "hidden", "text": "Promo: 20% off"},    # hidden by an inserted rule
            {"expect": "hidden", "text": "Maintenance tonight"},  # by an adopted sheet
            {"expect": "hidden", "text": "Tip: publish early"},   # by the shadow root's sheet
        ),
    ],
}


def held(flow: Flow) -> list[dict[str, Any]]:
    return [{c.get("text") or c["expect"]: c.get("held_before", False) for c in s["checks"]}
            for s in flow.recorded()]


def test_shadow_roots_iframes_and_cssom_are_kept_in_the_page_before_the_step(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "/publish", [("do", OPEN_PANEL), ("do", PUBLISH)],
                SCRIPTS)
    earlier = set(before._COPIES.get(browser, {}))  # other tests' copies (other viewports)
    task = flow.run("record")
    panel, publish = held(flow)
    assert panel == {"Panel open": False}
    # only the outcome of the step discriminates; what held before is marked so
    assert publish == {"Published": False, "Last edited by Ada": True, "Panel open": True,
                       "Promo: 20% off": True, "Maintenance tonight": True,
                       "Tip: publish early": True}
    assert task.stats.weak == []
    assert flow.run("replay").stats.replayed == 2
    # both copies were opened in one page of one context, kept for the next recording (a
    # context per step cost a renderer each); the next test's copies start from it
    copies = before._COPIES[browser]
    assert len(set(copies) - earlier) <= 1  # at most one more: this test's viewport
    copy = copies[repr({"width": 1280, "height": 720})]  # a new context's default viewport
    assert not copy.is_closed() and copy.url == "about:blank"


def test_a_hidden_claim_on_a_blank_page_before_the_step_discriminates_nothing(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    server.pages["/blank"] = "<!doctype html><html><body></body></html>"
    flow = Flow(browser, server, tmp_path, "/blank", [("do", "open the article")], {
        "open the article": [
            lambda page, history, n: step(act("navigate", url="/publish")),
            lambda page, history, n: done({"expect": "hidden", "text": "Published"}, "Draft"),
        ]})
    flow.run("record")
    # nothing was shown before: that "Published" was absent there proves nothing
    assert held(flow) == [{"Published": True, "Draft": False, "url": False}]


def test_a_hidden_claim_on_a_blank_page_is_no_evidence(browser: Browser, server: LocalServer,
                                                       tmp_path: Path) -> None:
    server.pages["/signed-in"] = (
        "<!doctype html><html><body><p>Signed in as Ada</p><button type=button "
        "onclick=\"document.body.replaceChildren()\">Sign out</button></body></html>")
    flow = Flow(browser, server, tmp_path, "/signed-in", [("do", "sign out")], {"sign out": [
        lambda page, history, n: step(act("click", element_id=line_id(page, '"Sign out"'))),
        lambda page, history, n: done({"expect": "hidden", "text": "Signed in as Ada"}),
    ]})
    message = flow.fails("none", mode="record")
    assert "the page shows nothing, so an absence proves nothing" in message, message
    assert not flow.recipe.exists()


def test_a_recorded_hidden_check_fails_on_a_page_that_shows_nothing(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    statement = "there is no todo called Ghost"
    flow = Flow(browser, server, tmp_path, "/todomvc", [("check", statement)], {statement: [
        lambda page, history, n: done({"expect": "hidden", "text": "Ghost"}),
    ]})
    flow.run("record")
    assert flow.recorded()[0]["checks"] == [{"expect": "hidden", "text": "Ghost"}]
    assert flow.run("replay").stats.replayed == 1
    # the app fails to start: nothing is shown, so "Ghost" is absent too; that is no pass
    message = flow.fails("blank")
    assert ("check 1: expected 'Ghost' is not visible\n  instead: the page shows nothing, so "
            "an absence proves nothing") in message, message
