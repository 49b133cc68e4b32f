"""Replay matching that means what it says (issue 17): elements found by their neighbours,
identity fields that came from elsewhere, polyfilled DOMs, script errors said as such,
styled (visually hidden) checkboxes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Playwright

from pytest_webtask import WebTask
from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.engine import with_engine, without_engine
from tests.server import LocalServer
from tests.test_checks import act, done

ROWS_LIST = """<!doctype html><html><body><h1>Shopping</h1><ul>
<li><input type="checkbox"> <span>Buy milk</span></li>
<li><input type="checkbox"> <span>Walk dog</span></li></ul>
<p id="n">0 done</p>
<script>document.addEventListener('change', () => {
  document.getElementById('n').textContent =
    document.querySelectorAll('input:checked').length + ' done'; });</script></body></html>"""

# The same app in other markup (another framework): rows are divs, in another order.
ROWS_DIVS = """<!doctype html><html><body><h1>Shopping</h1><div class="list">
<div class="row"><div><input type="checkbox"></div><div>Walk dog</div></div>
<div class="row"><div><input type="checkbox"></div><div>Buy milk</div></div></div>
<p id="n">0 done</p>
<script>document.addEventListener('change', () => {
  document.getElementById('n').textContent =
    document.querySelectorAll('input:checked').length + ' done'; });</script></body></html>"""

TICK = "tick Buy milk"


def run(browser: Browser, server: LocalServer, recipe: Path, mode: str, html: str,
        steps: list[tuple[str, str]], replies: list[dict[str, Any]], *,
        engine: bool | None = None) -> WebTask:
    """``engine`` False: the replay finds targets and tries checks with the collector in the
    page's own world, as on a page made without the plugin (else with the selector engine
    where the session registered it)."""
    server.pages["/app"] = html
    context = browser.new_context()
    if engine is False:
        without_engine(context)
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=server.url,
                          llm=ScriptedLLM(list(replies)), timeout=2.0) as task:
            task.goto("/app")
            for kind, text in steps:
                getattr(task, kind)(text)
    finally:
        context.close()
    return task


TICK_REPLIES = [
    {"complete": False, "message": "tick", "actions": [act("click", "input-0")]},
    done("input-0", {"expect": "text", "text": "1 done"}),
]


def test_a_nameless_row_checkbox_is_found_by_its_row_in_other_markup(
    browser: Browser, server: LocalServer, tmp_path: Path
) -> None:
    recipe = tmp_path / "r.yaml"
    run(browser, server, recipe, "record", ROWS_LIST, [("do", TICK)], TICK_REPLIES)
    text = recipe.read_text()
    assert "near: Buy milk" in text and "state: checked" in text
    # other markup, other order: CSS path and XPath find nothing right; the row's text does
    task = run(browser, server, recipe, "replay", ROWS_DIVS, [("do", TICK)], [])
    assert task.stats.replayed == 1
    # without the row, nothing else passes for it
    gone = ROWS_DIVS.replace("Buy milk", "Buy bread")
    with pytest.raises(pytest.fail.Exception, match="expected checkbox near \"Buy milk\""):
        run(browser, server, recipe, "replay", gone, [("do", TICK)], [])


TOGGLE_LABELLED = """<!doctype html><html><body><h1>Todos</h1>
<input id="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label>
<p id="s">none complete</p><script>document.getElementById('toggle-all')
.addEventListener('change', (e) => { document.getElementById('s').textContent =
e.target.checked ? 'all complete' : 'none complete'; });</script></body></html>"""
TOGGLE_BARE = TOGGLE_LABELLED.replace(
    '<label for="toggle-all">Mark all as complete</label>', "<span>all</span>")
TOGGLE = "mark all as complete"


def test_a_name_from_a_label_does_not_reject_the_element_found_by_id(
    browser: Browser, server: LocalServer, tmp_path: Path
) -> None:
    recipe = tmp_path / "r.yaml"
    run(browser, server, recipe, "record", TOGGLE_LABELLED, [("do", TOGGLE)], [
        {"complete": False, "message": "tick", "actions": [act("click", "input-0")]},
        done({"expect": "text", "text": "all complete"}),
    ])
    assert "name: Mark all as complete" in recipe.read_text()
    task = run(browser, server, recipe, "replay", TOGGLE_BARE, [("do", TOGGLE)], [])
    assert task.stats.replayed == 1
    # a different control under the same id is still refused (its role differs)
    other = TOGGLE_BARE.replace('type="checkbox"', 'type="text"')
    with pytest.raises(pytest.fail.Exception, match="role 'textbox' instead of 'checkbox'"):
        run(browser, server, recipe, "replay", other, [("do", TOGGLE)], [])


# A polyfill whose querySelectorAll returns a plain array-like object: not iterable.
POLYFILL = """<script>
for (const proto of [Element.prototype, Document.prototype, DocumentFragment.prototype]) {
  const original = proto.querySelectorAll;
  proto.querySelectorAll = function (sel) {
    const found = original.call(this, sel);
    const out = { length: found.length, item: (i) => found[i] };
    for (let i = 0; i < found.length; i++) out[i] = found[i];
    return out;
  };
}
</script>"""


def test_a_polyfilled_dom_records_and_replays(browser: Browser, server: LocalServer,
                                              tmp_path: Path) -> None:
    html = ROWS_LIST.replace("<body>", "<body>" + POLYFILL).replace(
        "document.querySelectorAll('input:checked').length",
        "Array.prototype.filter.call(document.getElementsByTagName('input'),"
        " (i) => i.checked).length")
    recipe = tmp_path / "r.yaml"
    run(browser, server, recipe, "record", html, [("do", TICK)], TICK_REPLIES)
    # the collector in the page's world, where the polyfill is (the engine's world has none)
    assert run(browser, server, recipe, "replay", html, [("do", TICK)], [],
               engine=False).stats.replayed == 1


def test_a_script_error_is_reported_as_such_not_as_navigation(
    browser: Browser, server: LocalServer, tmp_path: Path, playwright: Playwright
) -> None:
    recipe = tmp_path / "r.yaml"
    run(browser, server, recipe, "record", ROWS_LIST, [("do", TICK)], TICK_REPLIES)
    broken = ROWS_LIST.replace("<body>", "<body><script>window.getComputedStyle = () => "
                               "{ throw new Error('styles polyfill broke'); };</script>")
    with pytest.raises(pytest.fail.Exception) as failure:
        run(browser, server, recipe, "replay", broken, [("do", TICK)], [], engine=False)
    message = str(failure.value)
    assert "the page's script failed while checking" in message
    assert "styles polyfill broke" in message and "navigating" not in message
    # through the selector engine, in Playwright's own world, the page's scripts are not
    # seen (as they are not by Playwright's own locators): the step replays, checked
    with_engine(playwright)
    assert run(browser, server, recipe, "replay", broken, [("do", TICK)], [],
               engine=True).stats.replayed == 1


STYLED = """<!doctype html><html><body><h1>Settings</h1>
<label class="switch"><input type="checkbox" name="news"
  style="opacity:0;position:absolute;width:20px;height:20px">
<img alt="" width="40" height="20" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
Newsletter</label></body></html>"""


def test_a_styled_checkbox_is_listed_and_its_state_checked(browser: Browser,
                                                           server: LocalServer,
                                                           tmp_path: Path) -> None:
    server.pages["/app"] = STYLED
    page = browser.new_page()
    try:
        page.goto(server.url + "/app")
        state = LLMBrowser(page).read().text
    finally:
        page.close()
    assert "input-0 (type=\"checkbox\" name=\"news\" label=\"Newsletter\")" in state
    recipe = tmp_path / "r.yaml"
    run(browser, server, recipe, "record", STYLED, [("do", "tick the Newsletter box")], [
        {"complete": False, "message": "tick", "actions": [act("click", "label-0")]},
        done({"expect": "state", "element": "input-0", "state": "checked"}),
        # only a tick changed: asked once whether the task sends it
        done({"expect": "state", "element": "input-0", "state": "checked"}),
    ])
    assert "state: checked" in recipe.read_text()
    run(browser, server, recipe, "replay", STYLED, [("do", "tick the Newsletter box")], [])
    dead = STYLED.replace('<input type="checkbox"', '<input type="checkbox" onclick="return false"')
    with pytest.raises(pytest.fail.Exception, match="it is unchecked"):
        run(browser, server, recipe, "replay", dead, [("do", "tick the Newsletter box")], [])
