"""Typed checks: each kind is recorded through the real record path (ScriptedLLM), replays
where it holds, and fails, saying what the page has, where the behaviour is broken.

The page is a small task-list app (tests/pages/tasks.html) with one regression per ``bug``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from example_suites.scripted import task_of
from pytest_webtask import WebTask
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.recipes.model import Check
from pytest_webtask.recipes.storage import load_recipe
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import PAGES, LocalServer

TASKS = (PAGES / "tasks.html").read_text(encoding="utf-8")


def act(tool: str, element_id: str, **params: object) -> dict:
    return {"reason": tool, "tool": tool, "parameters": {"element_id": element_id, **params}}


def done(*evidence: Any) -> dict:
    return {"complete": True, "message": "done", "evidence": list(evidence)}


def scripted(replies: dict[str, list[dict]]) -> ScriptedLLM:
    def reply(context: ModelRequest) -> dict:
        steps = replies[task_of(context)]
        return steps[min(context.step - 1, len(steps) - 1)]

    return ScriptedLLM({"step": reply})


class Flow:
    """Steps on the task page, recorded once and replayed against bugs."""

    def __init__(self, browser: Browser, server: LocalServer, recipe: Path,
                 steps: list[tuple[str, str]], replies: dict[str, list[dict]],
                 **settings: Any) -> None:
        self.browser, self.server, self.recipe = browser, server, recipe
        self.steps, self.replies, self.settings = steps, replies, settings
        self.llm = scripted(replies)

    def run(self, mode: str, bug: str = "none", path: str = "/tasks") -> WebTask:
        self.server.pages["/tasks"] = TASKS.replace("__BUG__", bug)
        context = self.browser.new_context()
        try:
            with open_webtask(context.new_page(), self.recipe, mode, base_url=self.server.url,
                              llm=self.llm, timeout=2.0, **self.settings) as task:
                task.goto(path)
                for kind, text in self.steps:
                    getattr(task, kind)(text)
        finally:
            context.close()
        return task

    def record(self) -> list[dict]:
        task = self.run("record")
        assert task.stats.recorded == len(self.steps)
        return [s.get("checks", []) for s in yaml.safe_load(self.recipe.read_text())["steps"]]

    def replays(self) -> None:
        calls = len(self.llm.calls)
        task = self.run("replay")
        assert task.stats.replayed == len(self.steps) and len(self.llm.calls) == calls

    def fails(self, bug: str, *expected: str) -> str:
        with pytest.raises(pytest.fail.Exception) as failure:
            self.run("replay", bug)
        message = str(failure.value)
        assert message.startswith("Replay failed."), message
        for part in expected:
            assert part in message, message
        return message


ADD = "add a task Read book"
ADD_STEPS = [act("fill", "input-0", value="Read book"), act("click", "button-0")]


def test_text_count_and_within(browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", ADD)], {ADD: [
        {"complete": False, "message": "add it", "actions": ADD_STEPS},
        done({"expect": "text", "text": "3 items left"},
             {"expect": "count", "within": "ul-0", "count": 3},
             {"expect": "text", "text": "Read book", "within": "ul-0"}),
    ]})
    checks = flow.record()[0]
    assert [c["expect"] for c in checks] == ["text", "count", "text"]
    assert checks[0] == {"expect": "text", "text": "3 items left"}  # exact, no pattern
    assert checks[1]["count"] == 3 and checks[1]["within"]["tag"] == "ul"
    assert not any(c.get("held_before") for c in checks)
    flow.replays()
    # a counter that appends instead of replacing: the old substring match passed it
    flow.fails("append_counter", "check 1: expected the page shows text '3 items left'",
               '"2 items left3 items left"')
    # a plural suffix hidden with CSS: rendered text is what counts
    flow.fails("hidden_plural", "check 1", "3 item left Clear completed")
    flow.fails("add_twice", "check 1", '"4 items left"')
    flow.fails("wrong_scope", "check 1")


def test_within_scope(browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", ADD)], {ADD: [
        {"complete": False, "message": "add it", "actions": ADD_STEPS},
        done({"expect": "text", "text": "Read book"},
             {"expect": "text", "text": "Read book", "within": "ul-0"}),
    ]})
    flow.record()
    flow.replays()
    # the new task lands in the archived list: visible on the page (check 1 holds), but not
    # within the task list
    flow.fails("wrong_scope", "check 2: expected list #todos shows text 'Read book'",
               'the page shows: "Buy milk Delete Walk dog Delete"')


def test_visible_and_count_of_like_elements(browser: Browser, server: LocalServer,
                                            tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", ADD)], {ADD: [
        {"complete": False, "message": "add it", "actions": ADD_STEPS},
        # button-3 is the new row's "Delete Read book"; button-1 one of the Delete buttons
        done({"expect": "visible", "element": "button-3"},
             {"expect": "count", "element": "button-1", "count": 3}),
    ]})
    checks = flow.record()[0]
    assert checks[0]["element"]["name"] == "Delete Read book"
    assert checks[1]["count"] == 3
    flow.replays()
    flow.fails("add_twice", "check 2: expected 3 elements like button \"Delete Buy milk\"",
               "there are 4")
    flow.fails("wrong_scope", "check 1: expected button \"Delete Read book\"",
               "no visible element matches it")


SORT = "sort the tasks from Z to A"


def test_order_and_position(browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", SORT)], {SORT: [
        {"complete": False, "message": "sort", "actions": [act("click", "button-4")]},
        done({"expect": "order", "texts": ["Walk dog", "Buy milk"], "within": "ul-0"},
             {"expect": "nth", "element": "button-1", "index": 1}),
    ]})
    checks = flow.record()[0]
    assert checks[0]["texts"] == ["Walk dog", "Buy milk"]
    assert checks[1]["index"] == 1 and checks[1]["element"]["name"] == "Delete Walk dog"
    flow.replays()
    flow.fails("no_sort", "check 1: expected texts in this order",
               '"Buy milk" comes before "Walk dog"')
    flow.fails("wrong_sort", "check 1")


def test_order_fails_when_position_is_wrong(browser: Browser, server: LocalServer,
                                           tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", SORT)], {SORT: [
        {"complete": False, "message": "sort", "actions": [act("click", "button-4")]},
        done({"expect": "nth", "element": "button-1", "index": 1}),
    ]})
    flow.record()
    flow.fails("no_sort", "expected button \"Delete Walk dog\" is in item 1 of its list",
               "it is in item 2 of 2")


DONE_MILK = "mark Buy milk as done"


def test_state_of_checkbox_and_button(browser: Browser, server: LocalServer,
                                      tmp_path: Path) -> None:
    # "input-1" cited as a plain id: a checkbox's evidence is its state, never its text 'on'
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", DONE_MILK)], {DONE_MILK: [
        {"complete": False, "message": "tick", "actions": [act("click", "input-1")]},
        done("input-1", {"expect": "state", "element": "button-3", "state": "enabled"},
             {"expect": "text", "text": "1 item left"}),
    ]})
    checks = flow.record()[0]
    assert checks[0]["expect"] == "state" and checks[0]["state"] == "checked"
    assert "text" not in checks[0]
    flow.replays()
    flow.fails("no_check", "check 1: expected checkbox \"Done: Buy milk\" is checked",
               "it is unchecked")
    flow.fails("stays_disabled", "check 2: expected button \"Clear completed\" is enabled",
               "it is disabled")


PRIORITY = "set the priority to High"
DETAILS = "open the details"


def test_value_and_expanded(browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", PRIORITY), ("do", DETAILS)], {
        PRIORITY: [
            {"complete": False, "message": "choose", "actions": [
                act("select", "select-0", value="High")]},
            done({"expect": "value", "element": "select-0", "value": "High"}),
        ],
        DETAILS: [
            {"complete": False, "message": "open", "actions": [act("click", "button-5")]},
            done({"expect": "state", "element": "button-5", "state": "expanded"},
                 {"expect": "text", "text": "Created by the demo"}),
        ],
    })
    checks = flow.record()
    assert checks[0] == [{"expect": "value", "value": "High", "element": checks[0][0]["element"]}]
    assert checks[1][0]["state"] == "expanded"
    flow.replays()
    flow.fails("priority_ignored", "Step 1", "has value text 'High'", 'its value is "Normal"')
    flow.fails("no_expand", "Step 2", "is expanded", "it is enabled, collapsed")


EMPTY = "try to add an empty task"


def test_hidden(browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", EMPTY), ("do", ADD)], {
        EMPTY: [
            {"complete": False, "message": "add nothing", "actions": [act("click", "button-0")]},
            done({"expect": "text", "text": "Please enter a task"}),
        ],
        ADD: [
            {"complete": False, "message": "add it", "actions": ADD_STEPS},
            done({"expect": "hidden", "text": "Please enter a task"},
                 {"expect": "count", "within": "ul-0", "count": 3}),
        ],
    })
    checks = flow.record()
    assert checks[1][0] == {"expect": "hidden", "text": "Please enter a task"}
    flow.replays()
    flow.fails("error_stays", "Step 2", "expected 'Please enter a task' is not visible",
               'it is visible: "Please enter a task"')


ACTIVE = "show the active tasks"  # no task is done: nothing to be gone, no "only"


def test_url_query_is_checked(browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", ACTIVE)], {ACTIVE: [
        {"complete": False, "message": "filter", "actions": [act("click", "a-1")]},
        done({"expect": "text", "text": "Walk dog", "within": "ul-0"}),
    ]})
    checks = flow.record()[0]
    # the step changed the query; that is its outcome, kept beside the path
    assert {"expect": "url", "path": "/tasks", "query": {"filter": "active"}} in checks
    flow.replays()
    flow.fails("wrong_filter_query", "URL path '/tasks' and query filter=active",
               "the URL's query has filter='all'")


SHOWS = "the list shows Buy milk"


def test_text_is_case_sensitive(browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("check", SHOWS)], {SHOWS: [
        done({"expect": "text", "text": "Buy milk", "within": "ul-0"}),
    ]})
    flow.record()
    flow.replays()
    flow.fails("case", "expected list #todos shows text 'Buy milk'", '"Buy Milk"')


def test_a_check_that_held_before_the_step_is_marked_and_warned(
    browser: Browser, server: LocalServer, tmp_path: Path
) -> None:
    replies = {DETAILS: [
        {"complete": False, "message": "open", "actions": [act("click", "button-5")]},
        done({"expect": "text", "text": "Walk dog"}),  # on the page all along
    ]}
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", DETAILS)], replies)
    task = flow.run("record")
    checks = yaml.safe_load(flow.recipe.read_text())["steps"][0]["checks"]
    assert checks == [{"expect": "text", "text": "Walk dog", "held_before": True}]
    assert task.stats.weak == ["t: Step 1 do('open the details')"]
    # its replay passes whatever the page did: named as having verified nothing...
    replay = flow.run("replay")
    assert replay.stats.replayed == 1
    assert replay.stats.unverified == ["t: Step 1 do('open the details')"]
    # ...and failed under --webtask-strict
    strict_replay = Flow(browser, server, flow.recipe, [("do", DETAILS)], replies, strict=True)
    with pytest.raises(pytest.fail.Exception) as failure:
        strict_replay.run("replay")
    assert "the replay verified nothing" in str(failure.value)
    assert "each of its checks already held before the step ran" in str(failure.value)

    strict = Flow(browser, server, tmp_path / "s.yaml", [("do", DETAILS)], replies, strict=True)
    with pytest.raises(pytest.fail.Exception) as failure:
        strict.run("record")
    assert "none of the step's checks discriminates" in str(failure.value)
    assert "Add a check(...)" in str(failure.value)
    assert not strict.recipe.exists()


def test_a_false_claim_fails_the_recording(browser: Browser, server: LocalServer,
                                           tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", ADD)], {ADD: [
        {"complete": False, "message": "add it", "actions": ADD_STEPS},
        done({"expect": "text", "text": "4 items left"}),
    ]})
    with pytest.raises(pytest.fail.Exception) as failure:
        flow.run("record")
    message = str(failure.value)
    assert "task not completed" in message
    assert "these claims do not hold on the page now" in message
    assert '"text":"4 items left"' in message and '"3 items left"' in message
    assert len(flow.llm.calls) == 3  # two steps and one re-ask with what the page shows
    assert not flow.recipe.exists()


SHOP = """<!doctype html><html><body><h1>Shop</h1>
<button onclick="document.getElementById('out').textContent =
  'Order ORD-' + Math.floor(10000 + Math.random() * 89999) + ' placed for Samsung Galaxy S2__N__'"
>Buy</button><p id="out"></p></body></html>"""
BUY = "buy the phone"


@pytest.mark.parametrize("dynamic", [(), (r"ORD-\d+",)])
def test_only_declared_parts_vary(browser: Browser, server: LocalServer, tmp_path: Path,
                                  dynamic: tuple[str, ...]) -> None:
    def reply(context: ModelRequest) -> dict:
        if "Step 1:" not in context.blocks[1].text:
            return {"complete": False, "message": "buy", "actions": [act("click", "button-0")]}
        shown = re.search(r'"(Order ORD-\d+ placed for [^"]+)"', context.blocks[-1].text)
        assert shown
        return done({"expect": "text", "text": shown.group(1)})

    def run(mode: str, model: str) -> None:
        server.pages["/shop"] = SHOP.replace("__N__", model)
        context = browser.new_context()
        try:
            with open_webtask(context.new_page(), tmp_path / "r.yaml", mode,
                              base_url=server.url, llm=ScriptedLLM(reply), timeout=2.0,
                              dynamic=dynamic) as task:
                task.goto("/shop")
                task.do(BUY)
        finally:
            context.close()

    run("record", "4")
    check = yaml.safe_load((tmp_path / "r.yaml").read_text())["steps"][0]["checks"][0]
    assert re.fullmatch(r"Order ORD-\d+ placed for Samsung Galaxy S24", check["text"])
    if not dynamic:  # nothing guessed: the recorded number stays exact, and so does S24
        assert "pattern" not in check
        with pytest.raises(pytest.fail.Exception, match="Order ORD-"):
            run("replay", "4")  # a new order number
        return
    assert check["pattern"] == r"Order ORD-\d+ placed for Samsung Galaxy S24"
    run("replay", "4")  # another order number: declared to vary
    with pytest.raises(pytest.fail.Exception, match=r"placed for Samsung Galaxy S23"):
        run("replay", "3")  # the model is not a part that varies


def test_version_1_recipes_load_with_their_old_meaning(tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text(yaml.safe_dump({"version": 1, "test": "t", "steps": [
        {"kind": "do", "text": "x", "checks": [
            {"text": "items left"}, {"url_path": "/cart"},
            {"element": {"tag": "h1"}, "text": "Order", "pattern": "Order \\d+"}]}]}))
    recipe = load_recipe(path)
    assert recipe is not None and recipe.version == 3
    old = recipe.steps[0].checks
    assert old[0] == Check(expect="text", text="items left", match="contains")
    assert old[1] == Check(expect="url", path="/cart")
    assert old[2].match == "pattern" and old[2].pattern == "Order \\d+"
    assert old[2].element is not None


@pytest.mark.parametrize(("data", "problem"), [
    ({"expect": "state"}, "needs element, state"),
    ({"expect": "count", "count": 2}, "needs an element or a within container"),
    ({"expect": "text"}, "needs text"),
    ({"expect": "text", "text": "x", "match": "pattern"}, "needs a pattern"),
    # a pattern the check would not read (it compared the text, None: it never held)
    ({"expect": "each", "within": {"tag": "ul"}, "pattern": ".*Jacket.*"},
     "pattern is read only with match: pattern"),
    ({"expect": "text", "text": "x", "pattern": "x+"}, "read only with match: pattern"),
    ({"expect": "sorted", "text": "x"}, "expect"),
])
def test_an_incomplete_check_is_refused(data: dict, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Check.model_validate(data)


def test_contains_is_declared_and_still_fails(browser: Browser, server: LocalServer,
                                              tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path / "r.yaml", [("do", ADD)], {ADD: [
        {"complete": False, "message": "add it", "actions": ADD_STEPS},
        done({"expect": "text", "text": "items left", "match": "contains"}),
    ]})
    checks = flow.record()[0]
    assert checks[0] == {"expect": "text", "text": "items left", "match": "contains",
                         "held_before": True}  # "2 items left" was there before the step
    flow.replays()
    flow.fails("hidden_plural", "expected the page shows text containing 'items left'",
               "3 item left")


# Orders with their state; "Shipped only" filters the table. Regressions: the filter ignored
# (every order listed), one pending order left in, the table emptied (its header still shown).
# Each row's dropdown holds the word "Shipped" as an option: no text a row shows.
ORDERS = """<!doctype html><html><body><main><h1>Orders</h1>
<button id="shipped">Shipped only</button>
<table><thead><tr><th>Order</th><th>State</th></tr></thead><tbody id="rows"></tbody></table>
</main><script>
const BUG = '__BUG__';
const orders = [["A-1", "Shipped"], ["A-2", "Pending"], ["A-3", "Shipped"], ["A-4", "Pending"]];
function render(only) {
  let shown = orders.filter(([, s]) => !only || s === 'Shipped' || BUG === 'ignored');
  if (only && BUG === 'one_left') shown = orders.filter(([n, s]) => s === 'Shipped' || n === 'A-4');
  if (only && BUG === 'emptied') shown = [];
  document.getElementById('rows').innerHTML =
    shown.map(([n, s]) => `<tr><td>${n}</td><td>${s}</td><td><select aria-label="Move ${n}">` +
              '<option>-</option><option>Pending</option><option>Shipped</option></select></td></tr>').join('');
}
document.getElementById('shipped').addEventListener('click', () => render(true));
render(false);
</script></body></html>"""
SHIPPED = "filter the orders to the shipped ones"


def _orders(browser: Browser, server: LocalServer, recipe: Path, mode: str, bug: str,
            llm: ScriptedLLM | None = None) -> WebTask:
    server.pages["/orders"] = ORDERS.replace("__BUG__", bug)
    context = browser.new_context()
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=server.url, llm=llm,
                          timeout=1.5) as task:
            task.goto("/orders")
            task.do(SHIPPED)
    finally:
        context.close()
    return task


@pytest.mark.parametrize("claim", [
    {"expect": "each", "within": "table-0", "text": "Shipped", "match": "contains"},
    # one row's whole text, not every row's: a claim that does not hold, never recorded
    {"expect": "each", "within": "table-0", "text": "A-1 Shipped", "match": "exact"},
], ids=["contains", "exact"])
def test_each_item_shows_a_text_replays_and_fails_on_a_stray_or_no_item(
        browser: Browser, server: LocalServer, tmp_path: Path, claim: dict) -> None:
    """``each``: every row of the table shows the text, and there is one. Recorded through
    the real record path, replayed; fails on a filter that lists everything, on one order
    left in (the row named) and on an emptied table (its header still shown: no row is
    not every row); and its exported ``expect`` lines give the same verdicts."""
    recipe = tmp_path / "orders.yaml"
    llm = ScriptedLLM([{"complete": False, "message": "filter",
                        "actions": [act("click", "button-0")]},
                       done(claim), done(claim)])
    if claim["match"] == "exact":
        with pytest.raises(pytest.fail.Exception) as refused:
            _orders(browser, server, recipe, "record", "none", llm)
        assert 'item 2 of 2 shows "A-3 Shipped"' in str(refused.value), str(refused.value)
        assert not recipe.exists()
        return
    _orders(browser, server, recipe, "record", "none", llm)
    checks = yaml.safe_load(recipe.read_text())["steps"][0]["checks"]
    assert checks[0]["expect"] == "each" and checks[0]["text"] == "Shipped"
    assert checks[0]["within"]["tag"] == "table"
    check = Check.model_validate(checks[0])
    assert check.describe() == ("every item within table shows text containing 'Shipped' "
                                "(one at least)")
    _orders(browser, server, recipe, "replay", "none")
    for bug, instead in [("ignored", 'item 2 of 4 shows "A-2 Pending"'),
                         ("one_left", 'item 3 of 3 shows "A-4 Pending"'),
                         ("emptied", "there is no item")]:
        with pytest.raises(pytest.fail.Exception) as failed:
            _orders(browser, server, recipe, "replay", bug)
        assert "check 1: expected every item within table" in str(failed.value)
        assert instead in str(failed.value), (bug, str(failed.value))
    # the exported assertion, run on the same pages with plain Playwright
    from playwright.sync_api import expect

    from pytest_webtask.export.checks import CheckWriter
    from pytest_webtask.export.source import Strings
    from pytest_webtask.export.writer import EACH_HELPER

    lines = CheckWriter(Strings({})).lines(check)
    assert lines == ["every_item_shows(page.get_by_role('table').locator('tr:has(> td)')"
                     ".filter(visible=True), re.compile(re.escape('Shipped')))"]
    helper: dict[str, Any] = {}
    exec("import re, time\nfrom playwright.sync_api import Locator\n" + EACH_HELPER, helper)
    code = lines[0].replace("every_item_shows(", "every_item_shows(timeout=1.0, items=", 1
                            ).replace(", re.compile(", ", wanted=re.compile(", 1)
    expect.set_options(timeout=1000)
    try:
        for bug in ("none", "ignored", "one_left", "emptied"):
            server.pages["/orders"] = ORDERS.replace("__BUG__", bug)
            context = browser.new_context()
            page = context.new_page()
            page.goto(server.url + "/orders")
            page.get_by_role("button", name="Shipped only").click()
            try:
                scope = {**helper, "page": page, "expect": expect, "re": re}
                if bug == "none":
                    exec(code, scope)
                else:
                    with pytest.raises(AssertionError, match="there is no item" if bug ==
                                       "emptied" else "an item shows 'A-. Pending'"):
                        exec(code, scope)
            finally:
                context.close()
    finally:
        expect.set_options(timeout=5000)


def test_an_each_claim_needs_its_text_and_its_items() -> None:
    with pytest.raises(ValueError, match="an 'each' check needs text"):
        Check.model_validate({"expect": "each", "within": {"tag": "ul"}})
    with pytest.raises(ValueError, match="'each' check needs an element or a within"):
        Check.model_validate({"expect": "each", "text": "Shipped"})
