"""One visibility rule, Playwright's (DESIGN decision 13): what the page state lists, what
``find`` returns, what the replay accepts as a visible element and what a typed check calls
visible all agree, and agree with Playwright's own ``is_visible`` (except opacity 0, which
hides an element from people and from us, though Playwright still acts on it).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.recipes._sync.replayer import Replayer
from pytest_webtask.recipes.model import Check
from pytest_webtask.types import Fingerprint
from tests.server import LocalServer

PAGE = """<!doctype html><html><body>
<details><summary>More</summary><a href="/x">In closed details</a></details>
<div style="content-visibility: hidden"><button>In hidden content</button></div>
<div style="display: contents"><button>Child of contents</button></div>
<div style="display: contents" role="button" tabindex="0">Contents with a role</div>
<button style="width: 0; height: 0; padding: 0; border: 0; overflow: hidden">Zero size</button>
<div style="opacity: 0"><div><button>Under opacity 0</button></div></div>
<div style="visibility: hidden"><button>Under visibility hidden</button>
  <span style="visibility: visible"><button>Visible again</button></span></div>
<div hidden><button>Under hidden</button></div>
<div style="display: none"><span><button>Under display none</button></span></div>
<button>Plain</button>
</body></html>"""

SHOWN = ["More", "Child of contents", "Contents with a role", "Visible again", "Plain"]
HIDDEN = ["In closed details", "In hidden content", "Zero size", "Under opacity 0",
          "Under visibility hidden", "Under hidden", "Under display none"]


@pytest.fixture
def rule_page(page: Page, server: LocalServer) -> Page:
    server.pages["/visibility"] = PAGE
    page.goto(server.url + "/visibility")
    return page


def fingerprint(name: str) -> Fingerprint:
    tag = "a" if name == "In closed details" else "summary" if name == "More" else \
        "div" if name == "Contents with a role" else "button"
    role = "link" if tag == "a" else "button"
    return Fingerprint(tag=tag, role=role, name=name)


def test_page_state_find_replay_and_checks_share_one_rule(rule_page: Page) -> None:
    reader = LLMBrowser(rule_page)
    state = reader.read().text
    replayer = Replayer(rule_page, timeout_ms=0)
    for name in SHOWN:
        assert f'"{name}"' in state, (name, state)
        assert reader.find(name, "")[1] >= 1, name
        found, problem = replayer._find(fingerprint(name))
        assert found is not None, (name, problem)
        assert replayer.holds(Check(expect="visible", element=fingerprint(name)))[0], name
        assert not replayer.holds(Check(expect="hidden", element=fingerprint(name)))[0], name
        assert not replayer.holds(Check(expect="hidden", text=name))[0], name
    for name in HIDDEN:
        assert name not in state, (name, state)
        assert reader.find(name, "") == ([], 0), name
        found, problem = replayer._find(fingerprint(name))
        assert found is None and problem.startswith("no visible element matches it"), name
        assert not replayer.holds(Check(expect="visible", element=fingerprint(name)))[0], name
        assert replayer.holds(Check(expect="hidden", element=fingerprint(name)))[0], name
        assert replayer.holds(Check(expect="hidden", text=name))[0], name


def test_the_rule_is_playwrights_but_for_opacity(rule_page: Page) -> None:
    for name in SHOWN:
        assert rule_page.get_by_text(name, exact=True).is_visible(), name
    for name in HIDDEN:
        visible = rule_page.get_by_text(name, exact=True).is_visible()
        assert visible == (name == "Under opacity 0"), name


def test_text_in_a_closed_menu_is_not_text_the_page_shows(rule_page: Page) -> None:
    replayer = Replayer(rule_page, timeout_ms=0)
    ok, instead = replayer.holds(Check(expect="text", text="In closed details"))
    assert not ok and "In closed details" not in instead.split("the closest")[0]
    rule_page.click("summary")
    assert replayer.holds(Check(expect="text", text="In closed details"))[0]
    assert replayer.holds(Check(expect="visible", element=fingerprint("In closed details")))[0]


COVERED = """Locator.click: Timeout 2000ms exceeded.
Call log:
  - waiting for locator("[data-webtask-target=\\"t1\\"]")
    - locator resolved to <a href="/menu?page=reports">Reports</a>
  - attempting click action
    2 × waiting for element to be visible, enabled and stable
      - element is visible, enabled and stable
      - scrolling into view if needed
      - done scrolling
      - <div class="cookie-banner">…</div> intercepts pointer events
    - retrying click action
      - waiting 20ms"""
SLOW = """Locator.click: Timeout 2000ms exceeded.
Call log:
  - waiting for locator("[data-webtask-target=\\"t1\\"]")
    - locator resolved to <a href="/slow">Slow</a>
  - attempting click action
    - waiting for element to be visible, enabled and stable
    - element is visible, enabled and stable
    - scrolling into view if needed
    - done scrolling
    - performing click action
    - click action done
    - waiting for scheduled navigations to finish"""


@pytest.mark.parametrize(("message", "why"), [
    (COVERED, 'it is covered by another element (<div class="cookie-banner">…</div>), for 2s'),
    (COVERED.replace('<div class="cookie-banner">…</div> intercepts pointer events',
                     "element is not enabled"), "it is disabled, for 2s"),
    (COVERED.replace('<div class="cookie-banner">…</div> intercepts pointer events',
                     "element is not visible"), "it is not visible, for 2s"),
    (COVERED.split("\n  - attempting")[0], "it is no longer on the page, for 2s"),
    (SLOW, None),  # the click was done: what timed out is the page, not the element
])
def test_a_timeout_is_an_element_failure_only_when_the_element_never_became_actionable(
        message: str, why: str | None) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    from pytest_webtask.recipes._sync.replayer import _not_actionable

    assert _not_actionable(PlaywrightTimeoutError(message), 2000) == why
