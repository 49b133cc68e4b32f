"""Page state: what the model sees, and that every id it sees can be acted on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent._sync.agent import Agent as SyncAgent
from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.errors import UnknownElementError
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer


def test_shadow_root_and_iframe_elements_are_listed_and_usable(
    page: Page, server: LocalServer
) -> None:
    page.goto(server.url + "/shadow")
    page.frame_locator("#inner").locator("button").wait_for()
    snap = LLMBrowser(page).read()
    assert '- input-0 (type="text" placeholder="Shadow field")' in snap.text
    assert '- button-0 "Shadow button"' in snap.text
    assert '- input-1 (type="text" placeholder="Frame field")' in snap.text
    assert '- button-1 "Frame button"' in snap.text

    llm = ScriptedLLM([
        {"complete": False, "message": "go", "actions": [
            {"reason": "r", "tool": "fill", "parameters": {"element_id": "input-0", "value": "s1"}},
            {"reason": "r", "tool": "click", "parameters": {"element_id": "button-0"}},
            {"reason": "r", "tool": "fill", "parameters": {"element_id": "input-1", "value": "f1"}},
            {"reason": "r", "tool": "click", "parameters": {"element_id": "button-1"}},
        ]},
        {"complete": True, "message": "done", "actions": []},
    ])
    result = Agent(page, llm).execute("fill both")
    assert all(e.success for e in result.steps[0].executions), result.steps[0].executions
    assert page.text_content("#clicked") == "shadow clicked with s1"
    assert page.frame_locator("#inner").locator("#out").text_content() == "frame got f1"
    assert '"shadow clicked with s1"' in llm.prompts[1]
    assert '"frame got f1"' in llm.prompts[1]
    # the fingerprint of an iframe element names its frame
    assert result.steps[0].executions[2].target.frame == ["#inner"]


def test_hidden_nodes_left_out_wrappers_collapsed(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/hidden")
    text = LLMBrowser(page).read().text
    assert "Invisible button" not in text
    assert "Hidden link" not in text
    assert '- "Deep text"' in text.splitlines()  # three wrapper divs collapsed to the top
    assert '- button-0 "Visible button"' in text
    assert '- select-0 (name="size" options="S|M|L" selected="M")' in text
    assert '- ul-0\n  - li "one"\n  - li "two"' in text
    assert "div-0" in text  # a div with a click handler (pointer cursor) is addressable


def test_select_by_label(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/hidden")
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"reason": "r", "tool": "select",
             "parameters": {"element_id": "select-0", "value": "L"}},
            {"reason": "r", "tool": "select",
             "parameters": {"element_id": "select-0", "value": "XL"}},
        ]},
        {"complete": True, "message": "done"},
        {"complete": True, "message": "done"},  # asked once: only a field changed
    ])
    SyncAgent(page, llm).execute("choose L")
    assert page.eval_on_selector("select", "s => s.value") == "L"
    assert "Error: No option 'XL' in this dropdown; options: 'S', 'M', 'L'" in llm.prompts[1]


def test_size_budget_truncates_with_a_visible_note(page: Page, server: LocalServer) -> None:
    # one line of 2,000 characters, not windowable: cut with the note
    server.pages["/long"] = "<ul>" + "".join(f"<li>item {i}</li>" for i in range(500)) + "</ul>"
    page.goto(server.url + "/long")
    snap = LLMBrowser(page, page_chars=300).read()
    assert len(snap.text) < 500
    assert "[page state truncated:" in snap.text and "or use find]" in snap.text
    assert snap.truncated > 0


def long_list(server: LocalServer, rows: int = 400) -> None:
    server.pages["/rows"] = "<h1>Rows</h1><ul>" + "".join(
        f'<li>Row {i} <button>Pick</button></li>' for i in range(rows)) + "</ul>"


def test_long_page_shows_the_viewport_and_counts_the_rest(page: Page,
                                                          server: LocalServer) -> None:
    long_list(server)
    page.goto(server.url + "/rows")
    browser = LLMBrowser(page, page_chars=4000)
    text = browser.read().text
    assert text.startswith('- h1 "Rows"\n- ul-0\n  - li\n    - "Row 0"\n    - button-0 "Pick"')
    below = re.search(r"\[(\d+) more items below, holding (\d+) element ids: scroll down, or "
                      r"use find\]", text)
    assert below, text
    shown = text.count("button-")
    assert int(below.group(1)) == int(below.group(2)) == 400 - shown
    assert len(text) < 4000
    # every element has its id (400 buttons and their list), and scrolling shows the next ones
    assert len(browser.snapshot.elements) == 401  # type: ignore[union-attr]
    page.mouse.wheel(0, 3000)
    page.wait_for_function("scrollY > 2000")
    later = browser.read().text
    assert "more items above" in later and "more items below" in later
    first_shown = int(re.search(r"button-(\d+)", later).group(1))  # type: ignore[union-attr]
    assert first_shown > shown
    assert f'- "Row {first_shown}"\n    - button-{first_shown} "Pick"' in later


def test_find_reaches_any_element_by_text_or_role(page: Page, server: LocalServer) -> None:
    long_list(server)
    page.goto(server.url + "/rows")
    llm = ScriptedLLM([
        {"complete": False, "message": "find", "actions": [
            {"reason": "r", "tool": "find", "parameters": {"text": "Row 377"}},
            {"reason": "r", "tool": "find", "parameters": {"text": "nothing like it"}},
            {"reason": "r", "tool": "find", "parameters": {"role": "button"}},
            # a line copied as the page state clipped it, an element id given as a role,
            # a role the row does not have: the text before the ellipsis, no role, the text
            {"reason": "r", "tool": "find", "parameters": {"text": "Row 378 Pi…ck"}},
            {"reason": "r", "tool": "find", "parameters": {"text": "Row 379", "role": "li-3"}},
            {"reason": "r", "tool": "find", "parameters": {"text": "Row 380",
                                                            "role": "heading"}},
            {"reason": "r", "tool": "find", "parameters": {}}]},
        {"complete": False, "message": "find", "actions": [
            {"reason": "r", "tool": "find", "parameters": {"role": "li-3"}}]},
        {"complete": False, "message": "pick", "actions": [
            {"reason": "r", "tool": "click", "parameters": {"element_id": "button-377"}}]},
        {"complete": True, "message": "done"},
    ])
    page.evaluate("document.querySelectorAll('button').forEach((b, i) => b.onclick = () => "
                  "b.textContent = 'Picked ' + i)")
    Agent(page, llm, page_chars=4000).execute("pick row 377")
    history = llm.prompts[2]
    # the row's own text first (an id of its own), then the control in that row
    assert ("Output: 2 element(s) match text 'Row 377':\n- text-0 \"Row 377 Pick\"\n"
            '- button-377 "Pick" in "Row 377 Pick"') in history
    assert "Output: No element matches text 'nothing like it'." in history
    assert "Output: 400 element(s) match role 'button' (showing 20):\n- button-0 " in history
    assert "Error: find needs a text, a role, or both." in history
    assert "Output: 2 element(s) match text 'Row 378 Pi':\n- text-1 \"Row 378 Pick\"" in history
    assert "Output: 2 element(s) match text 'Row 379':\n- text-2 \"Row 379 Pick\"" in history
    # an element of a role was asked for: by the text alone, elements first, bare texts after
    assert ("Output: No element matches text 'Row 380' and role 'heading'; by the text alone: "
            "2 element(s) match text 'Row 380':\n- button-380 \"Pick\" in \"Row 380 Pick\"\n"
            "- text-3 \"Row 380 Pick\"") in history
    assert "Error: find needs a text or a role; 'li-3' is an element id, not a role." in history
    assert page.locator("li").nth(377).inner_text() == "Row 377 Picked 377"


MAIL = """<p>Find the email by <b>Audrey</b> and forward it to Orel.</p>
<div class="mail" onclick="this.textContent = 'Opened'"><span>Audrey</span> Lorem ipsum</div>
<div class="mail" onclick="this.textContent = 'Opened'"><span>Cora</span> Dolor sit</div>"""


def test_a_find_is_no_change_of_the_page_and_a_role_asked_lists_elements_first(
        page: Page) -> None:
    """A find that gives a text in a sentence an id cuts its line in the page state: the
    next request says the page did not change (it did not), and where no element has the
    role asked, the elements holding the text come before the bare texts given ids. Then
    a click that does change the page is said as one."""
    page.set_content(MAIL)
    llm = ScriptedLLM([
        {"complete": False, "message": "find", "actions": [
            {"reason": "r", "tool": "find", "parameters": {"text": "Audrey", "role": "row"}}]},
        {"complete": False, "message": "open", "actions": [
            {"reason": "r", "tool": "click", "parameters": {"element_id": "div-0"}}]},
        {"complete": True, "message": "done", "evidence": ["div-0"]},
    ])
    Agent(page, llm).execute("open the email by Audrey")
    after_find, after_click = llm.prompts[1], llm.prompts[2]
    assert ("No element matches text 'Audrey' and role 'row'; by the text alone: 2 element(s) "
            "match text 'Audrey':\n- div-0 \"Audrey Lorem ipsum\"\n- text-0 \"Audrey\"") \
        in after_find
    assert "Page: the page did not change" in after_find
    assert ("find {'text': 'Audrey', 'role': 'row'}):\nThe page did not change at all"
            in after_find)
    assert ('New on the page:\n  - div-0 "Opened"\nGone from the page:\n'
            '  - div "Audrey Lorem ipsum"') in after_click
    assert page.locator("div.mail").first.inner_text() == "Opened"


SCROLLED_MAIL = """<div id="list" style="height: 60px; overflow-y: auto">
<h2>Primary</h2>
<div class="mail" onclick="this.textContent = 'Opened'">Audrey Ridiculus eget</div>
<div class="mail" onclick="this.textContent = 'Opened'">Cora In id</div>
<div class="mail" onclick="this.textContent = 'Opened'">Bobine Cras</div>
<div class="mail" onclick="this.textContent = 'Opened'">Bevvy Tincidunt</div></div>"""


def test_find_lists_an_element_before_the_one_holding_it(page: Page) -> None:
    """At one score, the row holding a text comes before the scrolling list around it (the
    list has an id to scroll by, and its text holds every row's): a model took the first
    line of find's answer, the list, for the mail it asked for."""
    page.set_content(SCROLLED_MAIL)
    llm = ScriptedLLM([
        {"complete": False, "message": "find", "actions": [
            {"reason": "r", "tool": "find", "parameters": {"text": "Audrey Ridiculus",
                                                            "role": "row"}}]},
        {"complete": True, "message": "done"}, {"complete": True, "message": "done"}])
    Agent(page, llm).execute("open the email by Audrey", max_steps=2)
    said = llm.prompts[1].split("Output: ", 1)[1].split("\n  Page:", 1)[0]
    head, first, second = said.splitlines()
    assert head == ("No element matches text 'Audrey Ridiculus' and role 'row'; by the text "
                    "alone: 2 element(s) match text 'Audrey Ridiculus':"), said
    assert first.endswith('"Audrey Ridiculus eget"'), said
    assert "Primary Audrey Ridiculus eget Cora" in second, said


def test_text_is_merged_as_rendered(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/rendered")
    text = LLMBrowser(page).read().text
    lines = text.splitlines()
    assert '- p "2 items left"' in lines  # <strong>2</strong>, " ", "items left"
    assert '- p "$9.99"' in lines  # inline-blocks: no space, as innerText
    assert '- p "red greenish"' in lines
    assert '- "first second"' in lines  # blocks break the line
    for selector in ("#count", "#price", "#words"):
        assert f'"{" ".join(page.inner_text(selector).split())}"' in text


def test_accessible_names_on_the_element_line(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/rendered")
    page.frame_locator("#inner").locator("input").wait_for()
    text = LLMBrowser(page).read().text
    assert '- input-0 (type="text" name="user" label="Username")' in text  # wrapping label
    assert '- input-1 (type="password" name="pw" label="Password")' in text  # label for
    assert '- input-2 (type="text" name="qty" label="Quantity")' in text  # aria-labelledby
    assert '- input-3 (type="text" name="phone" title="Phone number")' in text  # title shown once
    assert '- input-4 (type="text" name="city" placeholder="City")' in text
    assert '- button-0 (type="button" aria-label="Close dialog") "×"' in text
    assert '- button-2 (type="button") "Plain"' in text  # its text is its name
    assert '- input-5 (type="text" name="coupon" label="Coupon")' in text  # inside an iframe


def test_closed_details_content_is_left_out(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/rendered")
    browser = LLMBrowser(page)
    text = browser.read().text
    assert '- summary-0 "More info"' in text
    assert "Secret detail" not in text and "Hidden action" not in text
    assert '- p "Open detail"' in text
    page.click("summary >> text=More info")
    assert "Secret detail" in browser.read().text


def test_first_page_state_waits_for_the_page_to_settle(page: Page, server: LocalServer) -> None:
    server.pages["/late"] = ("<h1>App</h1><div id=root></div><script>addEventListener('load', "
                             "() => setTimeout(() => root.innerHTML = '<p>Rendered late</p>', "
                             "120))</script>")
    page.goto(server.url + "/late")
    llm = ScriptedLLM([{"complete": True, "message": "done"}] * 2)
    Agent(page, llm).execute("look")
    assert "Rendered late" in llm.prompts[0]


def test_ids_do_not_leak_between_readings(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/rerender")
    browser = LLMBrowser(page)
    browser.read()
    page.evaluate("document.getElementById('inc').remove()")
    snap = browser.read()
    assert page.locator("[data-webtask-id]").count() == len(snap.elements) == 1


def test_screenshot_with_boxes_is_a_png(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/price")
    browser = LLMBrowser(page, screenshot=True)
    block = browser.get_page_context()
    assert block.image is not None and block.image[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.locator("#__webtask_boxes").count() == 0  # overlay removed again


def test_hover_only_controls_are_named_on_their_container(page: Page,
                                                         server: LocalServer) -> None:
    server.pages["/hover"] = (
        "<style>@media screen { .row .x { visibility: hidden } "
        ".row:hover .x, .row:focus-within .x { visibility: visible } }"
        " .menu:hover > ul { display: block } .menu > ul { display: none }</style>"
        "<ul><li class=row>First <button class=x title='Remove first'>x</button></li></ul>"
        "<nav class=menu tabindex=0>Menu<ul><li><a href='/a'>Account</a></li></ul></nav>"
        "<nav class='menu site' tabindex=0>Site<ul><li><a href='/'>Home</a></li>"
        "<li><a href='/hours'>Opening hours</a></li><li><a href='/join'>Join</a></li></ul></nav>")
    page.goto(server.url + "/hover")
    browser = LLMBrowser(page)
    text = browser.read().text
    assert '- ul-0\n  - li (hover-reveals="x") "First"' in text
    assert 'hover-reveals="Account"' in text
    # a menu of several links: each named apart, not their texts run together
    assert 'hover-reveals="Home|Opening hours|Join"' in text, text
    page.hover("li.row")
    text = browser.read().text
    assert "hover-reveals" not in text.split("nav")[0]
    assert '- button-0 (title="Remove first") "x"' in text


def test_hover_only_controls_inside_shadow_roots_are_named_on_a_host_to_hover(
        page: Page, server: LocalServer) -> None:
    # a custom element's own <style>, ":host(:hover)", and an adopted sheet
    server.pages["/shadow-hover"] = """<todo-row></todo-row><menu-card></menu-card><script>
      customElements.define('todo-row', class extends HTMLElement { constructor() { super();
        this.attachShadow({mode: 'open'}).innerHTML = `<style>.x {display: none}
          .view:hover .x {display: inline}</style><div class=view>Milk
          <button class=x aria-label="Delete Milk">x</button></div>`; } });
      customElements.define('menu-card', class extends HTMLElement { constructor() { super();
        const root = this.attachShadow({mode: 'open'});
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(':host(:hover) .more {display: inline} .more {display: none}');
        root.adoptedStyleSheets = [sheet];
        root.innerHTML = 'Card <a class=more href="/more">More</a>'; } });
    </script>"""
    page.goto(server.url + "/shadow-hover")
    browser = LLMBrowser(page)
    text = browser.read().text
    assert '- div-0 (hover-reveals="Delete Milk") "Milk"' in text, text
    assert '- menu-card-0 (hover-reveals="More") "Card"' in text, text
    assert "button-" not in text and "a-0" not in text
    browser.locator("div-0").hover()
    assert '- button-0 (aria-label="Delete Milk") "x"' in browser.read().text


def test_max_page_chars_is_the_old_name_of_page_chars(page: Page) -> None:
    from pytest_webtask import PlanAgent
    from pytest_webtask.steps.strategy import StrategyOptions
    from pytest_webtask.types import Secrets

    with pytest.warns(DeprecationWarning, match="max_page_chars is deprecated"):
        agent = Agent(page, ScriptedLLM([]), max_page_chars=1234)
    assert agent.browser.page_chars == 1234
    with pytest.warns(DeprecationWarning, match="max_page_chars is deprecated"):
        planner = PlanAgent(page, ScriptedLLM([]), max_page_chars=999)
    assert planner.browser.page_chars == 999
    assert Agent(page, ScriptedLLM([]), page_chars=777).browser.page_chars == 777
    options = StrategyOptions(allowed_origins=[], budget=None, secrets=Secrets(),  # type: ignore[arg-type]
                              max_steps=3, page_chars=555)
    assert options.agent_kwargs()["page_chars"] == 555
    with pytest.warns(DeprecationWarning, match="read page_chars"):
        assert options.max_page_chars == 555


def test_one_parser_reads_the_page_states_lines() -> None:
    """browser/page_state.py's ``state_lines`` is what the change summary (``field_value``),
    the hints and the tools' reading of a reply (``read_lines``) all parse lines with."""
    from pytest_webtask.agent.changes import field_value
    from pytest_webtask.browser.page_state import state_lines
    from pytest_webtask.tools.meant import read_lines

    text = ('- main-0\n  - form-0\n    - input-0 (type="email" value="a \\"b\\" c") "Email"\n'
            '    - button-0 "Go"\n  - li "Pens"\n  - input-1 (type="text")\n')
    lines = state_lines(text)
    assert [(line.head, line.id, line.depth) for line in lines] == [
        ("main-0", "main-0", 0), ("form-0", "form-0", 1), ("input-0", "input-0", 2),
        ("button-0", "button-0", 2), ("li", None, 1), ("input-1", "input-1", 1)]
    assert lines[2].attrs == {"type": "email", "value": 'a "b" c'} and lines[2].text == "Email"
    assert lines[4].content == 'li "Pens"'
    assert field_value(text, "input-0") == 'a "b" c'
    assert field_value(text, "input-1") is None and field_value(text, "input-9") is None
    # a checkbox's value is what it sends when ticked, not what it holds
    box = '- input-3 (type="checkbox" value="yes" label="I agree")\n'
    assert field_value(box, "input-3") is None
    assert [line.id for line in read_lines(text)] == [
        "main-0", "form-0", "input-0", "button-0", "input-1"]


def test_a_wrapper_collapsed_onto_its_element_is_that_elements_line() -> None:
    """The collector writes a bare wrapper around one element on that element's line
    (``li > div-0 (role="menuitem") "Save"``, ``td > input-1``): the line is the element's,
    for every reader (a menu item the task names, a field in a table's cell), and its
    content keeps the wrapper as the page state shows it."""
    from pytest_webtask.agent.changes import field_value
    from pytest_webtask.agent.small.hints import named_buttons
    from pytest_webtask.browser.page_state import state_lines
    from pytest_webtask.tools.meant import read_lines

    text = ('- button-0 "Menu"\n- ul-0 (role="menu")\n'
            '  - li > div-0 (role="menuitem") "Save"\n  - li > div-1 (role="menuitem") "Print"\n'
            '- table-0\n  - tr\n    - th "Year"\n    - td > input-1 (type="text" value="1998")\n'
            '- h3 > a-0 (href="/x") "More"\n- li "Pens"\n- "a > b-1 text"\n')
    lines = state_lines(text)
    assert [line.id for line in lines if line.id] == [
        "button-0", "ul-0", "div-0", "div-1", "table-0", "input-1", "a-0"]
    save = next(line for line in lines if line.id == "div-0")
    assert (save.chain, save.attrs, save.text, save.depth) == (
        "li > ", {"role": "menuitem"}, "Save", 1)
    assert save.content == 'li > div-0 (role="menuitem") "Save"'
    assert next(line for line in lines if line.head == "li").content == 'li "Pens"'
    assert field_value(text, "input-1") == "1998"
    assert read_lines(text)[2].kind == "clicked"
    # the item the task quotes, in its menu, and not clicked yet: named
    task = 'Click the "Menu" button, and then click on the item labeled "Save".'
    assert named_buttons(text, task, {"menu"}) == ['div-0 "Save"']
    assert named_buttons(text, task, {"menu", "save"}) == []


def test_evaluate_on_reaches_the_page_a_shadow_root_and_a_frame(page: Page,
                                                              server: LocalServer) -> None:
    """One round trip for the page's own elements; a shadow root's and a frame's go through
    their locator; an element that is gone fails after the timeout, an id never read at
    once."""
    page.goto(server.url + "/shadow")
    page.frame_locator("#inner").locator("button").wait_for()
    page.evaluate("() => document.body.insertAdjacentHTML('beforeend', "
                  "'<button id=\"own\">Own button</button>')")
    browser = LLMBrowser(page)
    text = browser.read().text
    ids = {name: element for element, name in re.findall(r'- (button-\d+) "([^"]+)"', text)}
    assert set(ids) == {"Own button", "Shadow button", "Frame button"}, text
    said = "el => el.tagName + ': ' + el.textContent"
    assert browser.evaluate_on(ids["Own button"], said) == "BUTTON: Own button"
    assert browser.evaluate_on(ids["Shadow button"], said) == "BUTTON: Shadow button"
    assert browser.evaluate_on(ids["Frame button"], said) == "BUTTON: Frame button"
    page.evaluate("() => document.getElementById('own').remove()")
    with pytest.raises(PlaywrightError, match="Timeout 300ms"):
        browser.evaluate_on(ids["Own button"], said, timeout_ms=300)
    with pytest.raises(UnknownElementError, match="button-99"):
        browser.evaluate_on("button-99", said)


# A mail list: each row opens its mail (a handler added in script, a pointer cursor), and
# holds text-less icons of its own (drawn by a stylesheet's url, an icon font's glyph) that
# delete, star or archive it. "?broken": the trash icon deletes nothing.
INBOX = """<!doctype html><style>
.row { cursor: pointer; padding: 4px; width: 400px }
.icon { display: inline-block; width: 12px; height: 12px; cursor: pointer; margin: 0 2px }
.trash { content: url(/img/email-inbox/delete.png) }
.star { background-image: url("/img/star_outline.svg") }
.fa-archive::before { content: "\\e900" }
</style><div id="list"></div><p id="said"></p><script>
const broken = location.search.includes('broken');
const said = (t) => { document.getElementById('said').textContent = t; };
for (const who of ['Ada', 'Bob']) {
  const row = document.createElement('div');
  row.className = 'row';
  row.innerHTML = `<span class="who">${who}</span> <span>Lunch?</span>
    <span class="icon trash"></span><span class="icon star"></span>
    <i class="icon fa fa-archive"></i>`;
  row.addEventListener('click', () => said('Opened the mail from ' + who));
  row.querySelector('.trash').addEventListener('click', (e) => {
    e.stopPropagation(); if (!broken) { row.remove(); said('Deleted the mail from ' + who); } });
  row.querySelector('.star').addEventListener('click', (e) => {
    e.stopPropagation(); said('Starred ' + who); });
  document.getElementById('list').append(row);
}
</script>"""


# a clickable row's line: its text on it, its icons under it
ROW = r'^- (div-\d+)(?: "[^"\n]*")?$'


def test_icons_in_a_clickable_row_get_ids_named_by_their_picture(
        page: Page, server: LocalServer) -> None:
    server.pages["/inbox"] = INBOX
    page.goto(server.url + "/inbox")
    text = LLMBrowser(page).read().text
    rows = re.findall(ROW, text, re.MULTILINE)
    assert len(rows) == 2, text  # the rows, where their pointer starts
    # the icons: ids of their own, named by the picture's file, or by class for a glyph
    assert len(re.findall(r'span-\d+ \(icon="delete" class="icon trash"\)', text)) == 2, text
    assert len(re.findall(r'span-\d+ \(icon="star outline" class="icon star"\)', text)) == 2
    assert len(re.findall(r'i-\d+ \(class="icon fa fa-archive"\)', text)) == 2, text
    # the row's texts inherit its pointer and stay its text, with no id of their own, on the
    # row's own line, its icons under it
    assert not re.search(r'span-\d+[^\n]*"Ada"', text) and (
        '- div-0 "Ada Lunch?"\n  - span-0 (icon="delete"' in text), text


def test_an_icon_clicked_in_a_row_records_and_its_replay_fails_when_it_does_nothing(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    from pytest_webtask.testing import open_webtask
    server.pages["/inbox"] = INBOX
    page.goto(server.url + "/inbox")
    text = LLMBrowser(page).read().text
    trash = re.findall(r'(span-\d+) \(icon="delete"', text)[1]  # Bob's row is the second
    script = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"tool": "click", "parameters": {"element_id": trash}}]},
        {"complete": True, "message": "done", "evidence": [
            {"expect": "text", "text": "Deleted the mail from Bob"}]}])
    recipe = tmp_path / "trash.yaml"
    with open_webtask(page, recipe, "record", base_url=server.url, llm=script) as task:
        task.goto("/inbox")
        task.do("delete the mail from Bob with its trash icon")
    with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
        task.goto("/inbox")
        task.do("delete the mail from Bob with its trash icon")
    with pytest.raises(pytest.fail.Exception, match="Deleted the mail from Bob"):
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
            task.goto("/inbox?broken")
            task.do("delete the mail from Bob with its trash icon")


def test_find_never_takes_a_list_of_clickable_rows_for_the_row_of_each(
        page: Page, server: LocalServer) -> None:
    # the rows are the list's items, with no tag or role that says so: Ada's row holds "Ada";
    # Bob's row is not "in a row holding Ada" because the list around both holds her name
    server.pages["/inbox"] = INBOX
    page.goto(server.url + "/inbox")
    reader = LLMBrowser(page)
    lines, total = reader.find("Ada", "")
    rows = re.findall(ROW, reader.read().text, re.MULTILINE)
    found = [line.split()[1] for line in lines]
    assert found[0] == rows[0] and rows[1] not in found, lines
    # the controls of Ada's row come with it (her row holds the name), Bob's never
    text = reader.read().text
    ada = text.split(f"- {rows[0]}")[1].split(f"- {rows[1]}")[0]
    bob = text.split(f"- {rows[1]}")[1]
    assert set(re.findall(r"(?:span|i)-\d+", ada)) <= set(found), (lines, ada)
    assert not set(re.findall(r"(?:span|i)-\d+", bob)) & set(found), (lines, bob)
    assert total == len(found) == 4, lines
    assert lines[1].endswith(' in "Ada Lunch?"'), lines  # a control says the row it is in


# A mail list as MiniWoB++ draws one: each row's icons two wrappers down, in its right part
NESTED_INBOX = """<!doctype html><style>
.thread { cursor: pointer; width: 400px } .right { float: right }
.trash, .star { display: inline-block; width: 12px; height: 12px; cursor: pointer }
.trash { content: url(/img/delete.png) } .star { content: url(/img/star.png) }
</style><div id="app"><div class="top"><h2>Inbox</h2><span class="trash search"></span></div>
<div id="list"></div></div><script>
for (const [who, subject] of [['Ada', 'Lunch?'], ['Bob', 'Re: Ada'], ['Cy', 'Minutes']]) {
  const row = document.createElement('div');
  row.className = who === 'Bob' ? 'thread unread' : 'thread';  // a state class: still a peer
  row.innerHTML = `<div class="left"><div class="sender">${who}</div><div>${subject}</div></div>
    <div class="right"><div class="time">12:00</div><div class="actions">
    <span class="trash"></span><span class="star"></span></div></div>`;
  row.addEventListener('click', () => {});
  for (const icon of row.querySelectorAll('.trash, .star')) {
    icon.onclick = (e) => e.stopPropagation();
  }
  document.getElementById('list').append(row);
}
document.querySelector('.search').onclick = () => {};
</script>"""


def test_find_gives_the_icons_of_the_rows_that_hold_the_text_and_no_others(
        page: Page, server: LocalServer) -> None:
    server.pages["/nested"] = NESTED_INBOX
    page.goto(server.url + "/nested")
    reader = LLMBrowser(page)
    text = reader.read().text
    rows = re.findall(ROW, text, re.MULTILINE)
    icons = [re.findall(r"span-\d+", part) for part in text.split("- div-")[1:]]
    assert len(rows) == 3 and [len(i) for i in icons] == [2, 2, 2], text
    # the search icon above the list: the app around it holds every row, so no row of its own
    lines, total = reader.find("Cy", "")
    found = [line.split()[1] for line in lines]
    # Cy's row (its own text), then its two icons, each saying the row it is in
    assert found == [rows[2], *icons[2]] and total == 3, lines
    assert all(line.endswith(' in "Cy Minutes 12:00"') for line in lines[1:]), lines
    # "Ada": her row, and Bob's (whose subject names her), with their icons; Cy's none
    lines, total = reader.find("Ada", "")
    found = [line.split()[1] for line in lines]
    assert set(found) == {rows[0], rows[1], *icons[0], *icons[1]} and total == 6, lines
    assert found[:2] == rows[:2], lines  # own text first


def test_find_gives_a_cards_buttons_whose_cells_hold_the_text(page: Page,
                                                               server: LocalServer) -> None:
    # a row's buttons alike each other (a toolbar) and its cells of text alike each other are
    # one row's parts, not lists: Audrey's Edit and Delete are in her card; Bob's never are
    card = ('<div class="card"><div><div>{}</div><div>{}</div></div><div class="actions">'
            '<button class="btn">Edit</button><button class="btn">Delete</button></div></div>')
    server.pages["/cards"] = ('<div id="cards">' + card.format("Audrey", "Lunch")
                              + card.format("Bob", "Tea") + "</div>")
    page.goto(server.url + "/cards")
    lines, total = LLMBrowser(page).find("Audrey", "")
    # (each card, one of two alike holding text and buttons, has a line and an id of its own)
    assert lines == ['- div-0 "Audrey Lunch EditDelete"',
                     '- button-0 "Edit" in "Audrey Lunch EditDelete"',
                     '- button-1 "Delete" in "Audrey Lunch EditDelete"'] and total == 3, lines


def test_a_text_area_shows_its_whole_text_or_its_start_and_end(page: Page) -> None:
    """Up to 200 characters, a text area's text is on its line whole; a longer one's start
    and end, the middle left out: a task about its last words ("the last word in the text
    area") read a start cut at 60 characters and could not be done."""
    words = " ".join(f"w{i}" for i in range(80))  # 309 characters
    page.set_content(f"<textarea id=a>short text</textarea><textarea id=b>{words}</textarea>")
    text = LLMBrowser(page).read().text
    assert '- textarea-0 (value="short text")' in text
    shown = re.search(r'textarea-1 \(value="([^"]*)"', text)
    assert shown is not None
    start, end = shown.group(1).split(" … ")
    assert words.startswith(start) and words.endswith(end) and end.endswith("w78 w79")
    assert 110 < len(start) <= 120 and 70 < len(end) <= 80


UNLABELLED = """<table>
<tr><th>Director</th><td><input id="director"></td></tr>
<tr><th>Year</th><td><select id="year"><option>1998</option></select></td></tr>
<tr><th>From</th><td><input id="from"> to <input id="to"></td></tr>
<tr><th>Notes</th><td><input placeholder="Anything else"></td></tr>
</table>
<div><label>Last name:</label> <input id="last"></div>
<div>Gender: <input id="gender"></div>
<div><label for="city">City</label><input id="city"></div>
<div><span>I agree</span><input type="checkbox" id="agree"></div>
<p>A paragraph far too long to be anybody's label for the field after it, by any reading.</p>
<input id="after">"""


def test_a_field_nothing_names_says_the_text_beside_it(page: Page) -> None:
    """A field with no accessible name says the text a reader takes for its label: its
    table row's other cell, or the short text right before it; never when something names
    it, for two fields in one row, a box, or a long text. Said as ``beside`` (no name: a
    replay never finds the field by it), and the agent's field readers take it as a name."""
    from pytest_webtask.browser.fields import describe
    from pytest_webtask.browser.page_state import state_lines

    page.set_content(UNLABELLED)
    text = LLMBrowser(page).read().text
    lines = {line.id: line for line in state_lines(text) if line.id}
    beside = {i: line.attrs.get("beside") for i, line in lines.items()}
    assert beside["input-0"] == "Director" and beside["select-0"] == "Year"
    assert beside["input-1"] is None and beside["input-2"] is None  # two in one row
    assert beside["input-3"] is None  # its placeholder names it
    assert beside["input-4"] == "Last name" and beside["input-5"] == "Gender"
    assert beside["input-6"] is None and lines["input-6"].attrs["label"] == "City"
    assert beside["input-7"] is None  # a checkbox
    assert beside["input-8"] is None  # a paragraph is no label
    assert describe(lines["input-4"]) == "input-4 (Last name)"
    assert page.get_by_label("Last name").count() == 0  # no accessible name was made


FEED = """<style>.controls span { display: inline-block; width: 14px; height: 14px; }</style>
<div id="feed" style="height: 60px; overflow-y: auto">
<div class="post"><b>Carmella</b> @consectetur <div class="body">Quis velit.</div>
  <div class="controls"><span class="reply" role="button" aria-label="Reply"></span>
  <span class="share" role="button" aria-label="Share"></span></div></div>
<div class="post"><b>Annis</b> @annis <div class="body">Duis est.</div>
  <div class="controls"><span class="reply" role="button" aria-label="Reply"></span>
  <span class="share" role="button" aria-label="Share"></span></div></div>
<div class="note">Last seen today <a href="#more">More</a></div>
<div class="card">Only text</div><div class="card">And more text</div>
</div>"""


def test_a_run_of_like_wrappers_holding_text_and_controls_keeps_a_line_each(page: Page) -> None:
    """A feed's posts built of divs: each post (one of two or more siblings of its tag and
    class, holding a text and a control) keeps a line with an id, its icons under it, so
    which post an icon belongs to is said; a wrapper alone of its kind, or one holding no
    control, collapses as before; the scrolling feed is named by nothing of its content."""
    page.set_content(FEED)
    assert LLMBrowser(page).read().text == """- div-2 (scrolls="down")
  - div-0
    - "Carmella @consectetur Quis velit."
    - span-0 (role="button" aria-label="Reply")
    - span-1 (role="button" aria-label="Share")
  - div-1
    - "Annis @annis Duis est."
    - span-2 (role="button" aria-label="Reply")
    - span-3 (role="button" aria-label="Share")
  - "Last seen today"
  - a-0 (href="#more") "More"
  - "Only text And more text\""""
    # the posts' class alone makes them alike: one post left is one wrapper, collapsed
    page.evaluate("document.querySelectorAll('.post')[1].className = 'pinned'")
    assert "  - div-" not in LLMBrowser(page).read().text
    # a form's groups (a label's text and a field) are no items: their lines stay as they were
    page.set_content('<form><div class="group">Email <input name="e"></div>'
                     '<div class="group">Name <input name="n"></div></form>')
    assert "div-" not in LLMBrowser(page).read().text
