"""A ``count`` claim with a change: a step that adds or removes an item is proven relative to
its start ("one row fewer"), so the recipe pins no number the data decides. Recorded with a
scripted model on a real Chromium, replayed on the same page with other data (passes), on a
page whose delete or add does nothing (fails, saying the counts), exported as two reads and
an expect; and the claims that are no such proof refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Page

from pytest_webtask.export.trail import Trail
from pytest_webtask.export.writer import Writer
from pytest_webtask.recipes.model import Check, Recipe
from pytest_webtask.testing import ScriptedLLM, open_webtask
from pytest_webtask.types import Fingerprint
from tests.server import LocalServer

TASKS = """<!doctype html><html><body><main><h1>Tasks</h1>
<form id="add"><input id="new" aria-label="New task"><button>Add</button></form>
<ul id="tasks"></ul>
</main><script>
const BROKEN = BROKEN_FLAG;
const tasks = ROWS;
const list = document.getElementById('tasks');
function render() {
  list.innerHTML = tasks.map((t, i) =>
    `<li><span>${t}</span> <button data-i="${i}">Delete ${t}</button></li>`).join('');
}
list.addEventListener('click', (e) => {
  if (e.target.dataset.i === undefined) return;
  if (!BROKEN) tasks.splice(Number(e.target.dataset.i), 1);
  render();
});
document.getElementById('add').addEventListener('submit', (e) => {
  e.preventDefault();
  const box = document.getElementById('new');
  if (!BROKEN && box.value) tasks.push(box.value);
  box.value = '';
  render();
});
setTimeout(render, 150);  // drawn by script after the load, as apps fetching JSON do
</script></body></html>"""

THREE = ["Bread", "Milk", "Eggs"]
SIX = ["Tea", "Bread", "Rice", "Milk", "Eggs", "Jam"]


def _page(rows: list[str], broken: bool = False) -> str:
    return TASKS.replace("ROWS", json.dumps(rows)).replace(
        "BROKEN_FLAG", "true" if broken else "false")


def _act(*actions: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"complete": False, "message": "m", "actions": [
        {"tool": tool, "parameters": params} for tool, params in actions]}


def _done(*claims: dict[str, Any]) -> dict[str, Any]:
    return {"complete": True, "message": "done", "evidence": list(claims)}


def _run(page: Page, server: LocalServer, recipe: Path, mode: str, html: str, task_text: str,
         replies: list[dict[str, Any]] | None = None) -> None:
    server.pages["/tasks"] = html
    llm = ScriptedLLM(replies) if replies is not None else None
    with open_webtask(page, recipe, mode, base_url=server.url, llm=llm, timeout=1.5) as task:
        task.goto("/tasks")
        page.get_by_text("Bread").first.wait_for()
        task.do(task_text)


def _ids(page: Page, server: LocalServer, html: str) -> dict[str, str]:
    """The ids the page state gives: the list's and each button's by its text."""
    from pytest_webtask.browser._sync.llm_browser import LLMBrowser

    server.pages["/tasks"] = html
    page.goto(server.url + "/tasks")
    page.get_by_text("Bread").first.wait_for()
    state = LLMBrowser(page).read()
    out = {}
    for line in state.text.splitlines():
        words = line.strip("- ").split(" ", 1)
        if words and "-" in words[0] and words[0].split("-")[0] in ("ul", "button", "input"):
            out[words[1].strip('"') if len(words) > 1 else words[0]] = words[0]
            if words[0].startswith("ul"):
                out["list"] = words[0]
    return out


DELETE = "delete the task Milk"
ADD = "add the task Soap"


def _record_delete(page: Page, server: LocalServer, recipe: Path) -> None:
    ids = _ids(page, server, _page(THREE))
    _run(page, server, recipe, "record", _page(THREE), DELETE, [
        _act(("click", {"element_id": ids["Delete Milk"]})),
        _done({"expect": "count", "within": ids["list"], "change": -1},
              {"expect": "hidden", "text": "Milk"})])


def test_a_delete_proven_by_one_row_fewer_replays_on_other_data_and_fails_when_broken(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "r.yaml"
    _record_delete(page, server, recipe)
    step = yaml.safe_load(recipe.read_text(encoding="utf-8"))["steps"][0]
    count = next(c for c in step["checks"] if c["expect"] == "count")
    assert count["change"] == -1 and "count" not in count, count  # no number pinned
    assert not count.get("held_before")
    assert Check.model_validate(count).describe() == \
        "items within list #tasks: 1 fewer than at the step's start"

    _run(page, server, recipe, "replay", _page(SIX), DELETE)  # six rows at the start: passes
    with pytest.raises(pytest.fail.Exception) as failed:  # the delete deletes nothing
        _run(page, server, recipe, "replay", _page(SIX, broken=True), DELETE)
    message = str(failed.value)
    assert "expected 5 items within" in message, message
    assert "(6 at the step's start, -1)" in message and "there are 6" in message, message


def test_an_add_proven_by_one_item_more(page: Page, server: LocalServer,
                                        tmp_path: Path) -> None:
    recipe = tmp_path / "r.yaml"
    ids = _ids(page, server, _page(THREE))
    _run(page, server, recipe, "record", _page(THREE), ADD, [
        _act(("fill", {"element_id": "input-0", "value": "Soap"}),
             ("click", {"element_id": ids["Add"]})),
        _done({"expect": "count", "within": ids["list"], "change": 1},
              {"expect": "text", "text": "Soap"})])
    step = yaml.safe_load(recipe.read_text(encoding="utf-8"))["steps"][0]
    assert {"expect": "count", "change": 1}.items() <= step["checks"][0].items()
    _run(page, server, recipe, "replay", _page(SIX), ADD)
    with pytest.raises(pytest.fail.Exception) as failed:
        _run(page, server, recipe, "replay", _page(SIX, broken=True), ADD)
    assert "expected 7 items within" in str(failed.value)
    assert "(6 at the step's start, +1)" in str(failed.value)


def test_elements_like_one_that_was_there_count_from_the_start(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """Counted as elements like a row's button (no list cited): the one cited must have been
    there when the step began, an item the step added was not."""
    recipe = tmp_path / "r.yaml"
    ids = _ids(page, server, _page(THREE))
    _run(page, server, recipe, "record", _page(THREE), DELETE, [
        _act(("click", {"element_id": ids["Delete Milk"]})),
        _done({"expect": "count", "element": ids["Delete Bread"], "change": -1})])
    _run(page, server, recipe, "replay", _page(SIX), DELETE)
    with pytest.raises(pytest.fail.Exception, match=r"\(6 at the step's start, -1\)"):
        _run(page, server, recipe, "replay", _page(SIX, broken=True), DELETE)

    with pytest.raises(pytest.fail.Exception) as failed:  # the added item's button
        _run(page, server, tmp_path / "added.yaml", "record", _page(THREE), ADD, [
            _act(("fill", {"element_id": "input-0", "value": "Soap"}),
                 ("click", {"element_id": ids["Add"]})),
            *[_done({"expect": "count", "element": "button-4", "change": 1})] * 3])
    assert "when the step began" in str(failed.value), str(failed.value)


def _refused(page: Page, server: LocalServer, tmp_path: Path, html: str,
             claim: dict[str, Any], why: str) -> None:
    recipe = tmp_path / "r.yaml"
    ids = _ids(page, server, html)
    claim = {k: ids.get(v, v) if k in ("within", "element") else v for k, v in claim.items()}
    with pytest.raises(pytest.fail.Exception) as failed:
        _run(page, server, recipe, "record", html, DELETE, [
            _act(("click", {"element_id": ids["Delete Milk"]})), _done(claim), _done(claim),
            _done(claim)])
    assert why in str(failed.value), str(failed.value)
    assert not recipe.exists()


@pytest.mark.parametrize(("claim", "why"), [
    ({"expect": "text", "text": "Bread", "change": -1}, "an 'text' claim takes no change"),
    ({"expect": "count", "within": "list", "count": 2, "change": -1},
     "a count or a change, not both"),
    # the count at the start was 3 and is 2: not two fewer
    ({"expect": "count", "within": "list", "change": -2},
     "1 expected (3 when the step began, -2), there are 2"),
], ids=["not-a-count", "both", "wrong-change"])
def test_a_change_that_is_no_proof_is_refused(page: Page, server: LocalServer, tmp_path: Path,
                                              claim: dict[str, Any], why: str) -> None:
    _refused(page, server, tmp_path, _page(THREE), claim, why)


def test_a_delete_that_deletes_nothing_does_not_record(page: Page, server: LocalServer,
                                                       tmp_path: Path) -> None:
    _refused(page, server, tmp_path, _page(THREE, broken=True),
             {"expect": "count", "within": "list", "change": -1},
             "2 expected (3 when the step began, -1), there are 3")


LIST = Fingerprint(tag="ul", id="tasks", css="#tasks")


@pytest.mark.parametrize(("fields", "why"), [
    ({"expect": "text", "text": "Bread", "change": 1}, "takes no change"),
    ({"expect": "count", "within": LIST, "count": 2, "change": 1}, "not both"),
])
def test_a_recipe_check_with_a_wrong_change_is_refused(fields: dict[str, Any], why: str
                                                       ) -> None:
    with pytest.raises(ValueError, match=why):
        Check(**fields)


def test_the_export_reads_the_count_before_the_actions_and_expects_the_change(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "r.yaml"
    _record_delete(page, server, recipe)
    step = Recipe.model_validate(yaml.safe_load(recipe.read_text(encoding="utf-8"))).steps[0]
    trail = Trail()
    trail.goto(server.url + "/tasks")
    trail.step(step, {}, {}, {})
    source = Writer(trail, None, tmp_path).source("test_delete", "x")
    assert "count_at_start = page.locator('#tasks').locator(':scope > li')" \
           ".filter(visible=True).count()  # before the step's actions" in source, source
    assert ".to_have_count(count_at_start - 1)" in source, source
    assert source.index("count_at_start =") < source.index(".click()")
    module: dict[str, Any] = {}
    exec(compile(source, "exported.py", "exec"), module)
    for rows, broken in ((SIX, False), (SIX, True)):
        server.pages["/tasks"] = _page(rows, broken)
        page.set_default_timeout(1500)
        # the exported test reads the count at once: wait for the list as a test would
        page.goto(server.url + "/tasks")
        if broken:
            with pytest.raises(AssertionError, match="count_at_start - 1|6"):
                _exported(module, page, server)
        else:
            _exported(module, page, server)


def _exported(module: dict[str, Any], page: Page, server: LocalServer) -> None:
    """The exported test, its list drawn before its step starts (as a test's earlier
    steps would have waited for it)."""
    real_goto = page.goto

    def goto(url: str, **kw: Any) -> Any:
        out = real_goto(url, **kw)
        page.get_by_text("Bread").first.wait_for()
        return out

    page.goto = goto  # type: ignore[method-assign]
    try:
        module["test_delete"](page)
    finally:
        page.goto = real_goto  # type: ignore[method-assign]


def test_a_cancel_proven_by_as_many_rows_fails_where_it_deletes(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """A change of 0: as many items as when the step began, what a cancelled delete leaves.
    No number pinned, never held before (counted from the step's own start); the replay
    fails where the click deletes after all."""
    recipe = tmp_path / "r.yaml"
    cancel = "click Delete on Milk but cancel"
    ids = _ids(page, server, _page(THREE, broken=True))  # broken: a click deletes nothing
    _run(page, server, recipe, "record", _page(THREE, broken=True), cancel, [
        _act(("click", {"element_id": ids["Delete Milk"]})),
        _done({"expect": "count", "within": ids["list"], "change": 0})])
    step = yaml.safe_load(recipe.read_text(encoding="utf-8"))["steps"][0]
    count = next(c for c in step["checks"] if c["expect"] == "count")
    assert count["change"] == 0 and not count.get("held_before")
    assert Check.model_validate(count).describe() == \
        "items within list #tasks: as many as at the step's start"
    _run(page, server, recipe, "replay", _page(SIX, broken=True), cancel)
    with pytest.raises(pytest.fail.Exception) as failed:  # the click deletes: the bug
        _run(page, server, recipe, "replay", _page(SIX), cancel)
    assert "(6 at the step's start, +0)" in str(failed.value), str(failed.value)
