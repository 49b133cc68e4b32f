"""Scrolling inside an element (issue 47): a list that loads more rows when scrolled to its
end, terms in a text area whose "I accept" is enabled once read to the end. The page state
marks what scrolls and which way (``scrolls="down"``); ``scroll`` with ``inside`` scrolls
that element's own content; the recipe replays it with no model, and fails where the page
no longer loads, no longer scrolls, or no longer enables. Recorded with a scripted model
that reads ids off what it is shown, as a model would (tests/pages/scrolling.html)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.tools.params import ScrollParams
from tests.server import LocalServer
from tests.test_real_apps import Flow, Reply, act, done, line_id, step

OPEN = "open the order #1030"
ACCEPT = "accept the terms of service"


def open_order(page: str, history: str, n: int) -> dict[str, Any]:
    if "Opened order #1030" in page:
        return done("Opened order #1030")
    if '"Order #1030"' in page:
        return step(act("click", element_id=line_id(page, '"Order #1030"')))
    # the order is further down the list: scroll inside it
    return step(act("scroll", element_id=line_id(page, r'scrolls="(?:up\|)?down"'),
                    inside=True))


def accept_terms(page: str, history: str, n: int) -> dict[str, Any]:
    if "Terms accepted" in page:
        return done("Terms accepted")
    terms = line_id(page, 'label="Terms of service"')
    if re.search(r'- button-\d+ \(disabled\) "I accept"', page):
        return step(act("scroll", element_id=terms, inside=True))
    return step(act("click", element_id=line_id(page, '"I accept"')))


def flow(browser: Browser, server: LocalServer, tmp_path: Path, task: str,
         reply: Reply) -> Flow:
    return Flow(browser, server, tmp_path, "/scrolling", [("do", task)],
                {task: [reply] * 20})


def test_the_page_state_says_what_scrolls_and_which_way(page: Page,
                                                         server: LocalServer) -> None:
    page.goto(server.url + "/scrolling")
    state = LLMBrowser(page).read().text
    assert re.search(r'- ul-\d+ \(aria-label="Recent orders" scrolls="down"\)', state), state
    assert re.search(r'- textarea-\d+ \(readonly label="Terms of service" scrolls="down"\)'
                     r'|- textarea-\d+ \([^)]*scrolls="down"', state), state
    page.eval_on_selector("#orders", "el => { el.scrollTop = 60; }")
    state = LLMBrowser(page).read().text
    assert re.search(r'- ul-\d+ \([^)]*scrolls="up\|down" scrolled="38%"\)', state), state
    page.goto(server.url + "/scrolling")  # a box whose content fits does not scroll
    page.eval_on_selector("#orders", "el => { el.style.height = 'auto'; }")
    state = LLMBrowser(page).read().text
    assert re.search(r'- ul-\d+ \(aria-label="Recent orders"\)', state), state
    assert "scrolls=" not in state.split("Terms")[0]


def test_a_list_that_loads_on_scroll_records_and_replays(browser: Browser, server: LocalServer,
                                                         tmp_path: Path) -> None:
    run = flow(browser, server, tmp_path, OPEN, open_order)
    run.run("record")
    actions = run.recorded()[0]["actions"]
    scrolls = [a for a in actions if a["tool"] == "scroll"]
    assert len(scrolls) >= 2 and actions[-1]["tool"] == "click", actions
    assert all(a["params"]["inside"] is True for a in scrolls)
    assert (scrolls[0]["target"]["tag"], scrolls[0]["target"]["name"]) == ("ul", "Recent orders")

    def opened(task: Any) -> None:
        assert task.page.text_content("#opened") == "Opened order #1030"

    task = run.run("replay", after=opened)
    assert task.stats.replayed == 1 and task.stats.llm_calls == 0
    message = run.fails("no_more")  # the list loads nothing more: order #1030 never shows
    assert re.search(r"Step 1 do\('open the order #1030'\), action \d+ \(click\): expected "
                     r'button "Order #1030"; no visible element matches it', message), message
    message = run.fails("fits")  # the list no longer scrolls
    assert "Step 1 do('open the order #1030'), action 1 (scroll)" in message, message
    assert "nothing to scroll inside it" in message, message


def test_terms_read_to_the_end_in_a_text_area_record_and_replay(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    run = flow(browser, server, tmp_path, ACCEPT, accept_terms)
    run.run("record")
    actions = run.recorded()[0]["actions"]
    assert [a["tool"] for a in actions][-1] == "click"
    scrolls = [a for a in actions if a["tool"] == "scroll"]
    assert scrolls and all(a["target"]["tag"] == "textarea" and a["params"]["inside"]
                           for a in scrolls), actions

    def accepted(task: Any) -> None:
        assert task.page.text_content("#accepted") == "Terms accepted"

    assert run.run("replay", after=accepted).stats.llm_calls == 0
    message = run.fails("never_enabled")  # reading to the end no longer enables it
    assert re.search(r"action \d+ \(click\)", message) and "I accept" in message, message


def test_scroll_inside_needs_an_element() -> None:
    with pytest.raises(ValueError, match="inside needs the element_id"):
        ScrollParams(inside=True)
    assert ScrollParams(element_id="ul-0", inside=True).inside


class _Code:
    """What the export hands a tool's ``code``: here, the list's locator."""

    params = {"direction": "down", "inside": True}

    def element(self) -> str:
        return 'page.locator("#orders")'

    def element_or_none(self) -> str:
        return self.element()


def test_the_exported_scroll_inside_scrolls_and_fails_where_nothing_scrolls(
        page: Page, server: LocalServer) -> None:
    from pytest_webtask.tools.builtin import Scroll

    code = "\n".join(Scroll.code(_Code()))  # type: ignore[arg-type]
    page.goto(server.url + "/scrolling")
    exec(code, {"page": page})
    assert page.eval_on_selector("#orders", "el => el.scrollTop") > 0
    page.eval_on_selector("#orders", "el => { el.style.height = 'auto'; }")
    with pytest.raises(AssertionError, match="its content no longer scrolls"):
        exec(code, {"page": page})
