"""An ``each`` claim as proof of a "show only" task, where it proves nothing: each case below
held on the page whose filter lists everything (an independent review of the check, with
its pages), and held on the page before the step too. No rule reads the task's "only" to
refuse it (agent/verify.py: that is advice); the fact that decides is mechanical: every
check held before the step, so the step is recorded as verifying nothing, warned, and
``--webtask-strict`` fails it with no recipe. And the exported ``each`` reads what a replay
reads: an item's shown text, not its dropdown's options or line breaks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_webtask.export.checks import CannotWrite, CheckWriter
from pytest_webtask.export.source import Strings
from pytest_webtask.export.writer import EACH_HELPER
from pytest_webtask.recipes.model import Check
from pytest_webtask.testing import ScriptedLLM, open_webtask
from pytest_webtask.types import Fingerprint
from tests.server import LocalServer
from tests.test_policy import CARDS, CHOOSE, SHOP

CLICK = {"complete": False, "message": "m", "actions": [
    {"tool": "click", "parameters": {"element_id": "button-0"}}]}
WEAK = "none of the step's checks discriminates"


def _done(*claims: dict[str, Any]) -> dict[str, Any]:
    return {"complete": True, "message": "done", "evidence": list(claims)}


def _weak(page: Page, server: LocalServer, tmp_path: Path, path: str, working: str,
          claim: dict[str, Any], task_text: str, actions: dict[str, Any] = CLICK,
          **settings: Any) -> None:
    """Recording ``claim`` on ``working`` under ``--webtask-strict`` fails, saying the
    step's checks all held before it, no recipe written."""
    recipe = tmp_path / "r.yaml"
    server.pages[path] = working
    with pytest.raises(pytest.fail.Exception) as failed:
        with open_webtask(page, recipe, "record", base_url=server.url, strict=True, **settings,
                          llm=ScriptedLLM([actions, _done(claim), _done(claim)])) as task:
            task.goto(path)
            task.do(task_text)
    assert WEAK in str(failed.value), str(failed.value)
    assert not recipe.exists()


ORDERS = """<!doctype html><html><body><main><h1>Orders</h1>
<button id="shipped">Shipped only</button>
<table><thead><tr><th>Order</th><th>State</th></tr></thead><tbody id="rows"></tbody></table>
</main><script>
const BUG = BUG_FLAG;
const orders = [["A-1", "Shipped"], ["A-2", "Pending"], ["A-3", "Shipped"], ["A-4", "Pending"]];
function render(only) {
  let shown = orders.filter(([, s]) => !only || s === 'Shipped' || BUG);
  document.getElementById('rows').innerHTML =
    shown.map(([n, s]) => `<tr><td>${n}</td><td>${s}</td></tr>`).join('');
}
document.getElementById('shipped').addEventListener('click', () => render(true));
render(false);
</script></body></html>"""
BLURB = "soft and warm, " * 16  # past the characters the page state shows of a text
LONG = SHOP.replace("`<li>${n}</li>`", "`<li>${n}: " + BLURB + "Free returns</li>`")
# the shirts' "Add" buttons one wrapper deeper than the jackets'
WRAPPED = CARDS.replace(
    "`<article><h3>${n}</h3><button>Add</button></article>`",
    "(cat === 'Jackets' ? `<article><h3>${n}</h3><button>Add ${n}</button></article>` : "
    "`<article><h3>${n}</h3><div class=\"row\"><button>Add ${n}</button></div></article>`)"
).replace("shown.map(([n]) =>", "shown.map(([n, cat]) =>")


@pytest.mark.parametrize(("path", "shop", "claim", "actions", "holds"), [
    # every row shows "A-": the table's header row is no item of it, as in the replay
    ("/orders", ORDERS, {"expect": "each", "within": "table-0", "text": "A-",
                         "match": "contains"}, CLICK, "tbody tr"),
    # a text declared to vary becomes a pattern every item matches
    ("/shop", SHOP, {"expect": "each", "within": "ul-0", "text": "Jacket", "match": "contains",
                     "varies": ["Jacket"]}, CHOOSE, None),
    # a text past what the page state shows of each item, in every item
    ("/shop", LONG, {"expect": "each", "within": "ul-0", "text": "Free returns",
                     "match": "contains"}, CHOOSE, "#list li"),
    # elements like one card's part: those on its tag path, the shirts' off it
    ("/shop", WRAPPED, {"expect": "each", "element": "button-1", "text": "Jacket",
                        "match": "contains"}, CHOOSE, "article > button"),
], ids=["header-row", "varies", "clipped", "part"])
def test_an_each_claim_that_holds_on_a_broken_filter_verifies_nothing(
        page: Page, server: LocalServer, tmp_path: Path, path: str, shop: str,
        claim: dict[str, Any], actions: dict[str, Any], holds: str | None) -> None:
    broken = shop.replace("BUG_FLAG", "true").replace("BROKEN_FLAG", "true")
    if holds is not None:  # the claim's items, on the page that ignores the filter
        server.pages[path] = broken
        page.goto(server.url + path + ("?c=Jackets" if path == "/shop" else ""))
        if path == "/orders":
            page.get_by_role("button", name="Shipped only").click()
        texts = page.locator(holds).all_inner_texts()
        assert len(texts) >= 2 and all(claim["text"] in t for t in texts), texts
    _weak(page, server, tmp_path, path,
          shop.replace("BUG_FLAG", "false").replace("BROKEN_FLAG", "false"), claim,
          "show only the Jackets" if path == "/shop" else "show only shipped orders", actions)


def test_an_each_check_that_held_before_a_show_only_step_is_warned_and_fails_strict(
        page: Page, server: LocalServer, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A pattern of the user's (``dynamic``) makes "Jacket" any of the products' words,
    which every item showed before the filter: recorded, the step is warned as verifying
    nothing (its replay would pass on a filter that lists everything); strict, it fails
    with no recipe."""
    claim = {"expect": "each", "within": "ul-0", "text": "Jacket", "match": "contains"}
    server.pages["/shop"] = SHOP.replace("BROKEN_FLAG", "false")
    recipe = tmp_path / "w.yaml"
    with open_webtask(page, recipe, "record", base_url=server.url, dynamic=[r"Jacket|Shirt"],
                      llm=ScriptedLLM([CHOOSE, _done(claim), _done(claim)])) as task:
        task.goto("/shop")
        task.do("show only the Jackets")
    assert "no check discriminates (all held before the step)" in caplog.text
    assert "held_before: true" in recipe.read_text()
    _weak(page, server, tmp_path, "/shop", SHOP.replace("BROKEN_FLAG", "false"), claim,
          "show only the Jackets", CHOOSE, dynamic=[r"Jacket|Shirt"])


def _each_holds(page: Page, check: Check) -> bool:
    helper: dict[str, Any] = {}
    exec("import re, time\nfrom playwright.sync_api import Locator\n" + EACH_HELPER, helper)
    line = CheckWriter(Strings({})).lines(check)[0]
    assert line.startswith("every_item_shows(")
    try:
        exec(line.replace("every_item_shows(", "every_item_shows(timeout=0.5, items=", 1)
             .replace(", re.compile(", ", wanted=re.compile(", 1),
             {**helper, "page": page, "re": re})
    except AssertionError:
        return False
    return True


LIST = Fingerprint(tag="ul", id="list", css="#list", xpath="/html[1]/body[1]/ul[1]")


def test_the_exported_each_reads_an_item_as_it_shows(page: Page) -> None:
    """Its text as shown: line breaks of the source and inline tags are spaces, a
    dropdown's options and hidden parts are none of it."""
    page.set_content("<ul id='list'>\n<li>\n  <b>Green Field</b> Jacket\n</li>\n"
                     "<li>\n  <b>Rain</b> Jacket <span hidden>Shirt</span>\n</li></ul>")
    every = Check(expect="each", text="Jacket", match="pattern", pattern=".*Jacket",
                  within=LIST)
    assert _each_holds(page, every)
    assert _each_holds(page, every.model_copy(update={"match": "contains"}))
    assert not _each_holds(page, every.model_copy(update={"match": "contains",
                                                          "text": "Shirt"}))
    page.set_content("<ul id='list'><li><b>Rain</b> <i>Jack</i>et</li></ul>")  # inline pieces
    assert _each_holds(page, every.model_copy(update={"match": "contains"}))
    page.set_content("<ul id='list'><li>Rain Jacket</li><li>White Shirt <select><option>"
                     "Jacket</option></select></li></ul>")
    assert not _each_holds(page, every.model_copy(update={"match": "contains"}))
    page.set_content("<ul id='list' style='padding: 1em'></ul>")
    assert not _each_holds(page, every.model_copy(update={"match": "contains"}))


def test_an_each_within_a_container_that_is_no_list_is_not_exported() -> None:
    check = Check(expect="each", text="Jacket", match="contains",
                  within=Fingerprint(tag="section", name="Products"))
    with pytest.raises(CannotWrite, match="container that is no list"):
        CheckWriter(Strings({})).lines(check)
