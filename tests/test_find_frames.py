"""`find` and the screenshot's element boxes reach frames of other origins that are allowed.

A shop page (one loopback origin) shows a plan picker from another origin in a frame; the
picker's plans are plain spans with click handlers added in script, so the page state gives
them no id and only `find` does. Found in the frame, a plan gets an id that does not clash
with the page's own, is clicked while recording, and the recipe replays with no model; a
picker whose plan was renamed, or whose plan does nothing, fails the replay."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, Page, expect

from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

SHOP = """<!doctype html><html><head><meta charset="utf-8"><title>Plans</title></head><body>
<h1>Choose a plan</h1><p><span>Pro tips</span> are on the blog.</p>
<iframe id="plans" title="Plans" src="OTHER/plans-frame" style="width:400px;height:160px">
</iframe>
<p id="status"></p>
<script>
addEventListener('message', (e) => {
  if (e.data && e.data.type === 'plan') document.getElementById('status').textContent =
    'You chose the ' + e.data.plan + ' plan';
});
</script></body></html>"""

PICKER = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<ul><li><span class="plan">Basic</span></li><li><span class="plan">Pro</span></li></ul>
<script>
for (const span of document.querySelectorAll('.plan')) {
  span.addEventListener('click', () => parent.postMessage(
    { type: 'plan', plan: span.textContent }, '*'));
}
</script></body></html>"""

TASK = "choose the Pro plan"


def serve(shop: LocalServer, provider: LocalServer, picker: str = PICKER) -> None:
    shop.pages["/plans"] = SHOP.replace("OTHER", provider.url)
    provider.pages["/plans-frame"] = picker


def found_id(text: str, shown: str) -> str | None:
    """The text-N id of the element ``shown`` exactly on a page-state or find line."""
    hit = re.search(r"\b(text-\d+)\b[^\n]*" + re.escape(f'"{shown}"') + r"(?:\n|$)", text)
    return hit.group(1) if hit else None


def picker_reply(context: ModelRequest) -> dict[str, Any]:
    """The scripted model: finds the plan, then clicks the id find gave it."""
    sent = "\n".join(block.text for block in context.blocks)
    if "You chose the Pro plan" in context.blocks[-1].text:
        return {"complete": True, "message": "chosen", "evidence": ["You chose the Pro plan"]}
    plan = found_id(context.blocks[-1].text, "Pro")
    if plan is None and "find" not in sent.split("Current Page State")[-1]:
        return {"complete": False, "message": "look for it", "actions": [
            {"reason": "plans have no id", "tool": "find", "parameters": {"text": "Pro"}}]}
    if plan is None:
        return {"complete": False, "impossible": True, "actions": [],
                "message": "find gave the plan no id"}
    return {"complete": False, "message": "click it", "actions": [
        {"reason": "the plan", "tool": "click", "parameters": {"element_id": plan}}]}


def run(browser: Browser, server: LocalServer, other: LocalServer, recipe: Path,
        mode: str) -> ScriptedLLM:
    llm = ScriptedLLM(picker_reply)
    context = browser.new_context()
    page = context.new_page()
    try:
        with open_webtask(page, recipe, mode, base_url=server.url,
                          llm=llm if mode != "replay" else None, test_name="plans",
                          timeout=2.0, allowed_origins=(other.url,)) as task:
            task.goto("/plans")
            page.frame_locator("#plans").get_by_text("Basic").wait_for()
            task.do(TASK)
            expect(page.locator("#status")).to_have_text("You chose the Pro plan")
    finally:
        context.close()
    return llm


def opened(page: Page, server: LocalServer, other: LocalServer) -> LLMBrowser:
    serve(server, other)
    page.goto(server.url + "/plans")
    page.frame_locator("#plans").get_by_text("Basic").wait_for()
    browser = LLMBrowser(page)
    browser.allowed_origins = [server.url, other.url]
    return browser


def test_find_searches_an_allowed_frame_of_another_origin(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    browser = opened(page, server, other)
    shown = browser.read().text
    assert '- li "Pro"' in shown and not re.search(r'-\d+ "Pro"', shown)  # no id: find gives one
    lines, total = browser.find("Pro", "")
    assert total == 2, lines
    # the frame's "Pro" is the whole text: it ranks before the page's "Pro tips"
    assert re.fullmatch(r'- text-\d+ "Pro"', lines[0]), lines
    assert re.fullmatch(r'- text-\d+ "Pro tips"', lines[1]), lines
    plan, tips = (line.split()[1] for line in lines)
    assert plan != tips  # one count of text ids across the page and its frames
    assert browser.snapshot is not None
    assert browser.snapshot.elements[plan] == ["f0"] and browser.snapshot.elements[tips] == []
    assert browser.describe(plan).frame == ["#plans"]
    browser.locator(plan).click()
    expect(page.locator("#status")).to_have_text("You chose the Pro plan")
    # a later reading keeps the id, in the frame's own context
    assert f'- li > {plan} "Pro"' in browser.read().text
    again, _ = browser.find("Basic", "")
    assert len(again) == 1 and again[0].split()[1] not in (plan, tips), again
    # an exact text marked on the page (double_click, hover) takes no id a frame holds
    heading = browser.mark_text("Choose a plan")
    assert heading not in (plan, tips, again[0].split()[1]), heading


def test_find_leaves_a_frame_that_is_not_allowed_unsearched(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    browser = opened(page, server, other)
    browser.allowed_origins = [server.url]
    lines, total = browser.find("Pro", "")
    assert total == 1 and '"Pro tips"' in lines[0], lines


def test_the_screenshot_boxes_the_ids_of_an_allowed_frame(
        page: Page, server: LocalServer, other: LocalServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    browser = opened(page, server, other)
    plan = browser.find("Pro", "")[0][0].split()[1]
    boxed: list[list[str]] = []
    shoot = page.screenshot

    def screenshot(**kwargs: Any) -> bytes:  # what the picture shows, as it is taken
        boxed.append(page.frame_locator("#plans").locator(
            "#__webtask_boxes span").all_text_contents())
        return shoot(**kwargs)

    monkeypatch.setattr(page, "screenshot", screenshot)
    assert browser.screenshot_with_boxes()
    assert boxed == [["ul-0", plan]]  # the frame draws its own ids
    assert page.frame_locator("#plans").locator("#__webtask_boxes").count() == 0  # removed
    browser.allowed_origins = [server.url]  # a frame not allowed is not read, nor boxed
    browser.read()
    browser.screenshot_with_boxes()
    assert boxed[-1] == []


def test_a_plan_found_in_the_frame_records_and_replays_with_no_model(
        browser: Browser, server: LocalServer, other: LocalServer, tmp_path: Path) -> None:
    serve(server, other)
    recipe = tmp_path / "plans.yaml"
    llm = run(browser, server, other, recipe, "record")
    assert len(llm.prompts) == 3
    step = yaml.safe_load(recipe.read_text())["steps"][0]
    assert [a["tool"] for a in step["actions"]] == ["click"]  # find only reads
    assert step["actions"][0]["target"]["frame"] == ["#plans"]
    assert step["actions"][0]["target"]["text"] == "Pro"
    run(browser, server, other, recipe, "replay")


@pytest.mark.parametrize("broken", ["renamed", "does nothing"])
def test_a_changed_picker_fails_the_replay(browser: Browser, server: LocalServer,
                                           other: LocalServer, tmp_path: Path,
                                           broken: str) -> None:
    serve(server, other)
    recipe = tmp_path / "plans.yaml"
    run(browser, server, other, recipe, "record")
    picker = (PICKER.replace(">Pro<", ">Premium<") if broken == "renamed"
              else PICKER.replace("parent.postMessage(", "void ("))
    serve(server, other, picker)
    with pytest.raises(pytest.fail.Exception) as failure:
        run(browser, server, other, recipe, "replay")
    message = str(failure.value)
    if broken == "renamed":
        assert 'expected span "Pro"' in message and 'span "Premium"' in message, message
    else:
        assert "You chose the Pro plan" in message, message


def test_the_screenshot_boxes_the_ids_of_a_same_origin_frame_too(
        page: Page, server: LocalServer, monkeypatch: pytest.MonkeyPatch) -> None:
    page.goto(server.url + "/shadow")
    page.frame_locator("#inner").locator("button").wait_for()
    browser = LLMBrowser(page)
    state = browser.read()
    inside = sorted(i for i, chain in state.elements.items() if chain == ["f0"])
    assert inside, state.text
    boxed: list[tuple[list[str], list[str]]] = []
    shoot = page.screenshot

    def screenshot(**kwargs: Any) -> bytes:
        boxed.append((page.locator("#__webtask_boxes span").all_text_contents(),
                      page.frame_locator("#inner").locator(
                          "#__webtask_boxes span").all_text_contents()))
        return shoot(**kwargs)

    monkeypatch.setattr(page, "screenshot", screenshot)
    browser.screenshot_with_boxes()
    (outside, framed), = boxed
    assert sorted(framed) == inside and not set(outside) & set(inside), boxed
    assert page.locator("#__webtask_boxes").count() == 0
    assert page.frame_locator("#inner").locator("#__webtask_boxes").count() == 0
