"""Page state: what the model sees, and that every id it sees can be acted on."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent._sync.agent import Agent as SyncAgent
from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer


def test_shadow_root_and_iframe_elements_are_listed_and_usable(
    page: Page, server: LocalServer
) -> None:
    page.goto(server.url + "/shadow")
    page.frame_locator("#inner").locator("button").wait_for()
    snap = LLMBrowser(page).read()
    assert '- input-0 (placeholder="Shadow field")' in snap.text
    assert '- button-0 "Shadow button"' in snap.text
    assert '- input-1 (placeholder="Frame field")' in snap.text
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
    ])
    SyncAgent(page, llm).execute("choose L")
    assert page.eval_on_selector("select", "s => s.value") == "L"
    assert "Error: No option 'XL' in this dropdown; options: 'S', 'M', 'L'" in llm.prompts[1]


def test_size_budget_truncates_with_a_visible_note(page: Page, server: LocalServer) -> None:
    server.pages["/long"] = "<ul>" + "".join(f"<li>item {i}</li>" for i in range(500)) + "</ul>"
    page.goto(server.url + "/long")
    snap = LLMBrowser(page, max_chars=1000).read()
    assert len(snap.text) < 1200
    assert "[page state truncated:" in snap.text
    assert snap.truncated > 400


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
