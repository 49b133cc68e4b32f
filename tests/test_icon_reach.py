"""Controls that only a script makes clickable, read as a user sees them: icons drawn by a
stylesheet that get the pointer cursor only while hovered (".controls span:hover {cursor:
pointer}", a click handler added by a script), and links with no address that are buttons
by their role (a spinner's arrows). Before, neither got an id: a feed's posts ran together
into one line with no Share to click, and a spinner's arrows were lines a model could not
name. Real Chromium; the recording replays, and fails where the icon no longer works."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

ICON = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='14' height='14'%3E"
        "%3Crect width='14' height='14' fill='%23888'/%3E%3C/svg%3E")
FEED = f"""<!doctype html><title>Feed</title><style>
.share, .like {{ content: url("{ICON}"); height: 14px; margin-left: 12px; }}
.controls span {{ opacity: 0.6; }}
.controls span:hover {{ opacity: 1; cursor: pointer; }}
.post:hover .name {{ cursor: pointer; }}
.post:hover {{ background: #eee; }}
</style><main>
<div class="post"><span class="name">Merritt</span> @tellus Pulvinar varius.
  <div class="controls"><span class="like"></span><span class="share"></span></div></div>
<div class="post"><span class="name">Richardson</span> @annis Dui feugiat lacus.
  <div class="controls"><span class="like"></span><span class="share"></span></div></div>
</main><p id="said" role="status"></p>
<script>
for (const post of document.querySelectorAll('.post')) {{
  post.querySelector('.share').addEventListener('click', () => {{
    if (SHARE_WORKS) document.getElementById('said').textContent =
      'You shared the post by ' + post.querySelector('.name').textContent;
  }});
}}
</script>"""
WORKS, BROKEN = FEED.replace("SHARE_WORKS", "true"), FEED.replace("SHARE_WORKS", "false")


def _state(page: Page) -> str:
    return LLMBrowser(page).read().text


def test_icons_a_hover_rule_makes_pointed_get_ids_and_split_the_posts(
        page: Page, server: LocalServer) -> None:
    server.pages["/feed"] = WORKS
    page.goto(server.url + "/feed")
    state = _state(page)
    assert '"Merritt @tellus Pulvinar varius."' in state  # each post its own line now
    assert '"Richardson @annis Dui feugiat lacus."' in state
    assert '  - span-1 (class="share")' in state and '  - span-3 (class="share")' in state
    # a hover rule that points a descendant (".post:hover .name") or only shows (a
    # background) gives no id: the names and the posts are no controls
    assert [line.strip() for line in state.splitlines() if "span-" in line] == [
        '- span-0 (class="like")', '- span-1 (class="share")',
        '- span-2 (class="like")', '- span-3 (class="share")']
    # each post (one of a run of like wrappers holding text and controls) has a line of its
    # own, with an id, its icons under it
    assert "  - div-1\n    - \"Richardson @annis Dui feugiat lacus.\"\n    - span-2" in state


def test_a_share_icon_records_replays_and_fails_when_it_stops_sharing(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    server.pages["/feed"] = WORKS
    recipe = tmp_path / "share.yaml"
    task_text = "click Share on the post by @annis"
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"tool": "click", "parameters": {"element_id": "span-3"}}]},
        {"complete": True, "message": "shared", "evidence": [
            {"expect": "text", "text": "You shared the post by Richardson"}]}])
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm) as task:
        task.goto("/feed")
        task.do(task_text)
    with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
        task.goto("/feed")
        task.do(task_text)
    server.pages["/feed"] = BROKEN
    with pytest.raises(pytest.fail.Exception, match="You shared the post by Richardson"):
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
            task.goto("/feed")
            task.do(task_text)


SPINNER = """<!doctype html><title>Spinner</title>
<label for="v">Value</label> <input id="v" role="spinbutton" value="0">
<a role="button" aria-label="up" class="up">&#9650;</a>
<a class="plain">not a control</a>
<script>
document.querySelector('.up').addEventListener('click',
  () => { const v = document.getElementById('v'); v.value = +v.value + 1; });
</script>"""


def test_a_link_with_no_address_is_a_control_by_its_role_only(
        page: Page, server: LocalServer) -> None:
    server.pages["/spin"] = SPINNER
    page.goto(server.url + "/spin")
    state = _state(page)
    assert '- a-0 (role="button" aria-label="up") "▲"' in state
    assert '"not a control"' in state and "a-1" not in state
    llm = ScriptedLLM([
        {"complete": False, "message": "m", "actions": [
            {"tool": "click", "parameters": {"element_id": "a-0"}}]},
        {"complete": True, "message": "done"}, {"complete": True, "message": "done"}])
    result = Agent(page, llm).execute("raise the value by one", max_steps=2)
    assert result.steps[0].executions[0].success
    assert page.locator("#v").input_value() == "1"


MENU = """<!doctype html><title>Menu</title><style>
.ic { display: inline-block; width: 16px; height: 16px; background: #888; }
.row, [role=menuitem] { cursor: pointer; padding: 4px; }</style>
<ul role="menu">
  <li><div role="menuitem"><span class="ic disk"></span>Save</div></li>
  <li><div role="menuitem"><span class="ic"></span>Print <a href="#now">now</a></div></li>
</ul>
<div class="row" onclick="this.dataset.open = 1">Audrey Ridiculus eget<span class="ic trash"
  style="cursor: pointer" onclick="event.stopPropagation()"></span></div>
<div class="row" onclick="">Cora <h3>In id</h3><button>Reply</button></div>"""


def test_a_control_s_text_beside_its_icons_is_said_on_its_own_line(
        page: Page, server: LocalServer) -> None:
    """A menu item's disk icon and "Save", a mail row's text and its trash: the control's
    line says its text and the icons come under it, so the line of "Save" is the item to
    click (before, "Save" was a line of its own under the item and the icon's, and the hint
    named the icon as what its item holds). Beside text held by another element (a link in
    an item, a heading and a button in a row), the lines stay as they were."""
    server.pages["/menu"] = MENU
    page.goto(server.url + "/menu")
    lines = [line.strip() for line in _state(page).splitlines()]
    at = lines.index('- li > div-0 (role="menuitem") "Save"')
    assert lines[at + 1] == '- span-0 (class="ic disk")'
    at = lines.index('- li > div-1 (role="menuitem")')
    assert lines[at + 1:at + 4] == [
        '- span-1 (class="ic")', '- "Print"', '- a-0 (href="#now") "now"']
    row = lines.index('- div-2 "Audrey Ridiculus eget"')
    assert lines[row + 1] == '- span-2 (class="ic trash")'
    assert '- div-3' in lines and '- h3 "In id"' in lines and '- button-0 "Reply"' in lines
