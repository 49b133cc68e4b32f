"""Positions counted across pages: "the 7th result" on a list that shows 3 a page is the 1st
item of page 3, and the `paged-position` rule says so, with the control that goes there.

The hint's cases on page-state texts (no browser), then a paged list in Chromium: a scripted
model that follows the hint records "open the 7th result", the recipe replays with no model,
and a list whose order changed fails the replay."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, Page

from pytest_webtask.agent._sync.agent import Agent
from pytest_webtask.agent.policy import BY_NAME
from pytest_webtask.agent.small.hints import ordinal_lines, page_length, page_position_lines
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer


def results(names: str, pager: str) -> str:
    """A page state of a list of results (one link each) and its pager's lines."""
    items = "".join(f'  - li > a-{n} (href="/r/{name}") "{name}"\n'
                    for n, name in enumerate(names.split()))
    return f'- h1 "Results"\n- ul-0\n{items}- nav-0\n{pager}'


FIRST = results("Alder Birch Cedar", '  - "Page 1 of 4"\n  - a-3 (href="?page=2") "Next page"')
SECOND = results("Dogwood Elm Fir", '  - a-3 (href="?page=1") "Previous page"\n'
                 '  - "Page 2 of 4"\n  - a-4 (href="?page=3") "Next page"')


def test_a_position_beyond_the_first_page_names_its_page_and_the_control_that_goes_there(
        ) -> None:
    assert page_position_lines(FIRST, "open the 7th result") == (
        "The 7th item is not on this page: ul-0 shows 3 items, the 1st to the 3rd (page 1). "
        'At 3 a page, the 7th is the 1st item of page 3: a-3 "Next page" goes to the next '
        "page (2 times to page 3).")
    assert ordinal_lines(FIRST, "open the 7th result") == ""  # it counts one page only
    # on the first page, a position it shows is the position rule's to say
    assert page_position_lines(FIRST, "open the 2nd result") == ""
    assert ordinal_lines(FIRST, "open the 2nd result") == \
        'The 2nd item of ul-0 is li > a-1 (href="/r/Birch") "Birch".'


def test_on_a_later_page_it_counts_from_that_page_s_first_item() -> None:
    assert page_position_lines(SECOND, "open the fifth result") == (
        "Counted across pages (3 a page), the 5th item is on this page, page 2: the 2nd item "
        'of ul-0, li > a-1 (href="/r/Elm") "Elm".')
    assert page_position_lines(SECOND, "open the first result") == (
        "The 1st item is not on this page: ul-0 shows 3 items, the 4th to the 6th (page 2). "
        'At 3 a page, the 1st is the 1st item of page 1: a-3 "Previous page" goes to the '
        "previous page.")


def test_a_page_s_own_number_is_the_control_named_and_a_current_one_says_the_page() -> None:
    numbers = ('  - ul-1\n    - li > a-3 (href="?page=1" current) "1"\n'
               '    - li > a-4 (href="?page=2") "2"\n    - li > a-5 (href="?page=3") "3"\n'
               '    - li > a-6 (href="?page=2") "Next"\n')
    state = results("Alder Birch Cedar", numbers)
    # the pager is a list of its own: the results are counted, not its links
    assert page_position_lines(state, "the 8th result") == (
        "The 8th item is not on this page: ul-0 shows 3 items, the 1st to the 3rd (page 1). "
        'At 3 a page, the 8th is the 2nd item of page 3: a-5 "3" goes there.')
    later = results("Ginkgo Hazel Ilex", numbers.replace(' current) "1"', ') "1"').replace(
        '?page=3") "3"', '?page=3" current) "3"'))
    assert page_position_lines(later, "the 8th result").startswith(
        "Counted across pages (3 a page), the 8th item is on this page, page 3: the 2nd item "
        "of ul-0, li > a-1")


def test_the_page_shown_is_the_one_number_of_the_pager_that_is_no_link() -> None:
    pager = ('  - a-3 (href="?page=1") "Prev"\n  - a-4 (href="?page=1") "1"\n  - "2"\n'
             '  - a-5 (href="?page=3") "3"\n  - a-6 (href="?page=3") "Next"\n')
    state = results("Dogwood Elm Fir", pager)
    assert page_position_lines(state, "open the 7th result") == (
        "The 7th item is not on this page: ul-0 shows 3 items, the 4th to the 6th (page 2). "
        'At 3 a page, the 7th is the 1st item of page 3: a-5 "3" goes there.')
    listed = results("Dogwood Elm Fir", '  - ul-1\n    - li > a-3 "<"\n    - li > a-4 "1"\n'
                     '    - li "2"\n    - li > a-5 "3"\n    - li > a-6 ">"\n')
    assert page_position_lines(listed, "open the 5th result").startswith(
        "Counted across pages (3 a page), the 5th item is on this page, page 2: the 2nd item")
    # two plain numbers: which one is shown is not said, and a previous control is there
    unsure = results("Dogwood Elm Fir", pager.replace('a-4 (href="?page=1") "1"', '"1"'))
    assert page_position_lines(unsure, "open the 7th result") == ""


@pytest.mark.parametrize("state", [
    results("Alder Birch Cedar", '  - "Page 4 of 4"\n  - a-3 (href="?page=3") "Previous"'),
    results("Dogwood Elm Fir", '  - a-3 (href="?page=1") "Previous page"\n'
            '  - a-4 (href="?page=3") "Next page"'),
    results("Alder Birch Cedar", ""),
    results("Alder Birch Cedar", '  - a-3 (href="?page=2" disabled) "Next page"'),
], ids=["last page: it may hold fewer", "which page is not said", "no pager", "disabled"])
def test_it_says_nothing_where_the_count_is_not_known(state: str) -> None:
    assert page_position_lines(state, "open the 7th result") == ""


def test_on_the_last_page_the_length_an_earlier_page_showed_counts() -> None:
    last = results("Ginkgo Hazel", '  - a-3 (href="?page=2") "Previous page"\n'
                   '  - "Page 3 of 3"\n')
    assert page_length(FIRST, "open the 7th result") == 3
    assert page_length(last, "open the 7th result") is None  # the last page may hold fewer
    assert page_position_lines(last, "open the 7th result", per_page=3) == (
        "Counted across pages (3 a page), the 7th item is on this page, page 3: the 1st item "
        'of ul-0, li > a-0 (href="/r/Ginkgo") "Ginkgo".')
    assert page_position_lines(last, "open the 9th result", per_page=3) == ""  # not there
    assert page_position_lines(last, "open the 7th result", per_page=1) == ""  # 2 > 1


def test_no_position_no_hint() -> None:
    assert page_position_lines(FIRST, "type the first name and the last name") == ""
    assert page_position_lines(FIRST, "open the last result") == ""  # its page is not known
    assert page_position_lines(FIRST, "open the results") == ""
    assert BY_NAME["paged-position"].kind == "hint"


# -- in a browser: recorded by following the hint, replayed, failing on a reordered list -----

TREES = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel", "Ilex",
         "Juniper", "Larch", "Maple"]
LIST = """<!doctype html><html><head><meta charset="utf-8"><title>Trees</title></head><body>
<h1>Search results</h1><ul id="results"></ul><nav id="pager"></nav>
<script>
const NAMES = NAMES_HERE, per = 3, pages = Math.ceil(NAMES.length / per);
const p = +(new URLSearchParams(location.search).get('page') || 1);
document.getElementById('results').innerHTML = NAMES.slice((p - 1) * per, p * per)
  .map((n) => `<li><a href="/tree?name=${n}">${n}</a></li>`).join('');
document.getElementById('pager').innerHTML =
  (p > 1 ? `<a href="/trees?page=${p - 1}">Previous page</a> ` : '') +
  `<span>Page ${p} of ${pages}</span>` +
  (p < pages ? ` <a href="/trees?page=${p + 1}">Next page</a>` : '');
</script></body></html>"""
TREE = """<!doctype html><html><body><h1 id="t"></h1><script>
document.getElementById('t').textContent =
  'About the ' + new URLSearchParams(location.search).get('name') + ' tree';
</script></body></html>"""


def serve(server: LocalServer, names: list[str]) -> None:
    server.pages["/trees"] = LIST.replace("NAMES_HERE", repr(names))
    server.pages["/tree"] = TREE


def follower(context: ModelRequest) -> dict[str, Any]:
    """The scripted model: goes where the hint says, opens the item it names there."""
    sent = "\n".join(block.text for block in context.blocks)
    sent = sent[sent.rfind("Current Page State"):]
    about = re.search(r'"(About the \w+ tree)"', sent)
    if about:
        return {"complete": True, "message": "open", "evidence": [about.group(1)]}
    here = re.search(r"the 7th item is on this page, page \d+: the \w+ item of [\w-]+, "
                     r"li > (a-\d+)", sent)
    there = re.search(r"the 7th is the \w+ item of page \d+: ([a-z]+-\d+) ", sent)
    target = here or there
    if target is None:
        return {"complete": False, "impossible": True, "actions": [],
                "message": "no hint says where the 7th result is"}
    return {"complete": False, "message": "go", "actions": [
        {"reason": "the hint", "tool": "click", "parameters": {"element_id": target.group(1)}}]}


def run(browser: Browser, server: LocalServer, recipe: Path, mode: str) -> ScriptedLLM:
    llm = ScriptedLLM(follower)
    context = browser.new_context()
    page = context.new_page()
    try:
        with open_webtask(page, recipe, mode, base_url=server.url,
                          llm=llm if mode != "replay" else None, test_name="trees",
                          timeout=2.0) as task:
            task.goto("/trees")
            task.do("open the 7th result")
    finally:
        context.close()
    return llm


@pytest.mark.parametrize("count", [12, 9], ids=["page 3 of 4", "page 3, the last"])
def test_the_7th_result_records_by_the_hint_and_replays(
        browser: Browser, server: LocalServer, tmp_path: Path, count: int) -> None:
    serve(server, TREES[:count])
    recipe = tmp_path / "trees.yaml"
    llm = run(browser, server, recipe, "record")
    assert "the 7th is the 1st item of page 3" in llm.prompts[0]
    step = yaml.safe_load(recipe.read_text())["steps"][0]
    assert [a["target"]["name"] for a in step["actions"]] == \
        ["Next page", "Next page", "Ginkgo"]
    assert step["checks"][0]["text"] == "About the Ginkgo tree"
    run(browser, server, recipe, "replay")


def test_a_reordered_list_fails_the_replay(browser: Browser, server: LocalServer,
                                           tmp_path: Path) -> None:
    serve(server, TREES)
    recipe = tmp_path / "trees.yaml"
    run(browser, server, recipe, "record")
    serve(server, list(reversed(TREES)))  # the 7th result is now another tree
    with pytest.raises(pytest.fail.Exception) as failure:
        run(browser, server, recipe, "replay")
    assert 'expected link "Ginkgo"' in str(failure.value), str(failure.value)


def test_the_rule_fires_by_name_and_is_switched_off_by_name(
        page: Page, server: LocalServer) -> None:
    serve(server, TREES)
    page.goto(server.url + "/trees")
    helped = ScriptedLLM(follower)
    result = Agent(page, helped, settle_timeout_ms=300).execute("open the 7th result")
    assert result.completed and "paged-position" in result.steps[0].rules
    page.goto(server.url + "/trees")
    bare = ScriptedLLM(follower)
    result = Agent(page, bare, settle_timeout_ms=300,
                   rules_off="paged-position").execute("open the 7th result")
    assert "not on this page" not in bare.prompts[0] and not result.completed


FLAT = ('- input-0 (type="text" value="Renda")\n- button-0 "Search"\n'
        '- a-0 (href="#") "Juan"\n- "https://puruspurus.org Tincidunt quis."\n'
        '- a-1 (href="#") "Donovan"\n- "https://mi.jp Purus feugiat."\n'
        '- a-2 (href="#") "Alan"\n- "https://fermentum.it Semper."\n'
        '- ul-0\n  - li > a-3 (href="#") "1"\n  - li > a-4 (href="#") "2"\n'
        '  - li > a-5 (href="#") "3"\n  - li > a-6 (href="#") ">"')


def test_results_as_a_flat_run_of_links_with_their_texts_are_a_list() -> None:
    """Search results with no container of their own (a title link and its lines of text,
    each in a bare wrapper): the run of links is the page's list. A bare row of links (a
    menu, no text between them) is none."""
    assert page_position_lines(FLAT, "find and click the 7th search result") == (
        "The 7th item is not on this page: the page shows 3 items, the 1st to the 3rd "
        '(page 1). At 3 a page, the 7th is the 1st item of page 3: a-5 "3" goes there.')
    assert ordinal_lines(FLAT, "click the 2nd search result").startswith(
        'The 2nd item of the page is a-1 (href="#") "Donovan".')
    menu = re.sub(r'- "https[^\n]*\n', "", FLAT)
    assert page_position_lines(menu, "find and click the 7th search result") == ""
    # a menu's links with "|" between them are no results list
    bars = ('- a-0 "Home"\n- "|"\n- a-1 "Blog"\n- "|"\n- a-2 "Shop"\n- "|"\n'
            '- a-3 "Contact"\n- ul-0\n  - li > a-4 "Oak"\n  - li > a-5 "Elm"\n'
            '  - li > a-6 "Fir"\n- a-7 ">"')
    assert page_position_lines(bars, "open the 5th result").startswith(
        "The 5th item is not on this page: ul-0 shows 3 items")


FLAT_PAGE = """<!doctype html><html><body>
<div id="results"></div><ul id="pager"></ul><p id="out"></p>
<script>
const names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"];
function show(p) {
  document.getElementById('results').innerHTML = names.slice(p * 3, p * 3 + 3).map((n) =>
    `<div><a href="#" onclick="out('${n}'); return false">${n}</a><div>about ${n}</div></div>`)
    .join('');
  document.getElementById('pager').innerHTML = [0, 1, 2].map((i) =>
    `<li><a href="#" onclick="show(${i}); return false">${i + 1}</a></li>`).join('') +
    `<li><a href="#" onclick="show(${Math.min(p + 1, 2)}); return false">&gt;</a></li>`;
}
const out = (n) => { document.getElementById('out').textContent = 'opened ' + n; };
show(0);
</script></body></html>"""


def _click(element_id: str) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": "click", "parameters": {"element_id": element_id}}]}


def test_done_while_the_position_is_on_another_page_is_asked(page: Page) -> None:
    """"Click the 7th result" called done on the first page (a small model called the task
    done after searching): asked once, the question says which page holds it, and only
    actions are offered."""
    page.set_content(FLAT_PAGE)
    done = {"complete": True, "message": "done"}
    llm = ScriptedLLM([_click("a-1"), done, _click("a-5"), _click("a-0"), done])
    result = Agent(page, llm).execute("click the 7th result", max_steps=5)
    asked = llm.prompts[2]
    assert "The 7th item is not on this page" in asked[asked.rfind("The task:"):], asked[-1200:]
    assert "paged-position" in result.steps[1].rules
    assert page.locator("#out").inner_text() == "opened Gus"
    assert result.completed
