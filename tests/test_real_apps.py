"""Real apps, second pass (issue 27): pages built like applications no one here wrote.

Each flow is recorded through the real record path with a scripted model that reads element
ids off what it is shown (the page state, and ``find``'s output in its history), exactly as a
model would, never a hard-coded id; then replayed with no model, and replayed again on a
regression of the page, where it must fail. The pages are in tests/pages/ (``__BUG__`` picks
the regression). The scripted "model" shows the code paths, not what a real model would do.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from pytest_webtask import WebTask
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import PAGES, LocalServer

# A reply from (the page state, the step history, the step number within the task).
Reply = Callable[[str, str, int], dict[str, Any]]
FIX = "pytest --webtask-record 'tests/x.py::flow'"


def act(tool: str, **params: object) -> dict[str, Any]:
    return {"reason": tool, "tool": tool, "parameters": params}


def step(*actions: dict[str, Any]) -> dict[str, Any]:
    return {"complete": False, "message": "working", "actions": list(actions)}


def done(*evidence: Any) -> dict[str, Any]:
    return {"complete": True, "message": "done", "evidence": list(evidence)}


def line_id(text: str, pattern: str) -> str:
    """The element id on the first line (of a page state or find's output) matching
    ``pattern``, as a model reads it."""
    found = re.search(r"^\s*- (?:\w+ > )*([a-z0-9-]+-\d+)\b[^\n]*" + pattern, text, re.MULTILINE)
    assert found, f"no line matches {pattern!r} in:\n{text}"
    return found.group(1)


class Flow:
    """Steps on one test page (``path``, served with ``__BUG__`` replaced), recorded or
    replayed in a fresh browser context. ``scripts`` maps a task to its replies."""

    def __init__(self, browser: Browser, server: LocalServer, tmp_path: Path, path: str,
                 steps: list[tuple[str, str]], scripts: dict[str, list[Reply]]) -> None:
        self.browser, self.server, self.path = browser, server, path
        self.steps, self.scripts = steps, scripts
        self.recipe = tmp_path / "flow.yaml"
        self.prompts: list[str] = []
        # a page the test put on the server itself wins over a file of tests/pages
        self.own_page = path.split("?")[0] in server.pages

    def reply(self, context: ModelRequest) -> dict[str, Any]:
        page = context.blocks[-1].text
        history = next((b.text for b in context.blocks if b.text.startswith("Step History:")),
                       "")
        self.prompts.append(context.to_text())
        task = context.task
        script = next(s for name, s in self.scripts.items() if name in task)
        return script[min(context.step, len(script)) - 1](page, history, context.step)

    def serve(self, bug: str) -> None:
        name = self.path.strip("/").split("?")[0]
        file = PAGES / f"{name}.html"
        if file.is_file() and not self.own_page:
            self.server.pages["/" + name] = file.read_text(encoding="utf-8").replace(
                "__BUG__", bug)

    def run(self, mode: str, bug: str = "none", after: Callable[[WebTask], None] | None = None,
            **settings: Any) -> WebTask:
        self.serve(bug)
        context = self.browser.new_context()
        self.llm = ScriptedLLM(self.reply)
        try:
            with open_webtask(context.new_page(), self.recipe, mode, base_url=self.server.url,
                              llm=self.llm, test_name="flow", fix_command=FIX, timeout=3.0,
                              **settings) as task:
                task.goto(self.path)
                for kind, text in self.steps:
                    getattr(task, kind)(text)
                if after is not None:
                    after(task)
        finally:
            context.close()
        return task

    def fails(self, bug: str, **settings: Any) -> str:
        with pytest.raises(pytest.fail.Exception) as failure:
            self.run(settings.pop("mode", "replay"), bug, **settings)
        return str(failure.value)

    def recorded(self) -> list[dict[str, Any]]:
        return yaml.safe_load(self.recipe.read_text())["steps"]


# -- edit in place on a list whose handlers are delegated (TodoMVC) -------------------------

RENAME = "rename the todo 'Buy milk' to 'Buy oat milk'"


def find_title(page: str, history: str, n: int) -> dict[str, Any]:
    return step(act("find", text="Buy milk"))


def edit_found(page: str, history: str, n: int) -> dict[str, Any]:
    # the label has no id in the page state; find gave it one: the first line of its output
    found = history.split("match text 'Buy milk':\n", 1)[1]
    return step(act("double_click", element_id=line_id(found, '"Buy milk"')))


def type_title(page: str, history: str, n: int) -> dict[str, Any]:
    field = line_id(page, r'\(type="text" value="Buy milk"\)')
    return step(act("fill", element_id=field, value="Buy oat milk"),
                act("press", element_id=field, key="Enter"))


RENAME_SCRIPT: list[Reply] = [find_title, edit_found, type_title,
                              lambda page, history, n: done("Buy oat milk")]


def titles(task: WebTask) -> list[str]:
    return task.page.locator(".todo-list label").all_inner_texts()


def test_rename_a_todo_whose_label_handler_is_delegated(browser: Browser, server: LocalServer,
                                                        tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "/todomvc", [("do", RENAME)],
                {RENAME: RENAME_SCRIPT})

    def renamed(task: WebTask) -> None:
        assert titles(task) == ["Buy oat milk", "Walk the dog", "Pay rent"]

    flow.run("record", after=renamed)
    first, after_find, editing, _ = flow.prompts
    # the page state shows the title as text only: no id of its own, no listener
    assert re.search(r'- input-\d+ \(type="checkbox"\)\n\s+- "Buy milk"', first), first
    # find returns the label itself first, then the row's control, never the new-todo field
    assert ("Output: 2 element(s) match text 'Buy milk':\n- text-0 \"Buy milk\"\n"
            "- input-1 (type=\"checkbox\") in \"Buy milk\"") in after_find
    found = after_find.split("Output:")[1].split("Current Page State")[0]
    assert "What needs to be done" not in found
    assert "- text-0 \"Buy milk\"" in after_find.split("Current Page State:")[-1]
    assert 'value="Buy milk"' in editing.split("Current Page State:")[-1]
    actions = flow.recorded()[0]["actions"]
    assert [a["tool"] for a in actions] == ["double_click", "fill", "press"]  # find: not kept
    label = actions[0]["target"]
    assert (label["tag"], label["text"]) == ("label", "Buy milk") and "id" not in label
    assert "element_id" not in str(actions)  # ids never reach a recipe

    replayed = flow.run("replay", after=renamed)
    assert replayed.stats.replayed == 1 and replayed.stats.llm_calls == 0 and not flow.llm.calls
    # the app ignores the new title: the replay fails on the outcome, not before
    message = flow.fails("rename_ignored")
    assert "check 1: expected the page shows text 'Buy oat milk'" in message, message


def test_find_ranks_an_elements_own_text_first(browser: Browser, server: LocalServer,
                                               tmp_path: Path) -> None:
    from pytest_webtask.browser._sync.llm_browser import LLMBrowser

    Flow(browser, server, tmp_path, "/todomvc", [], {}).serve("none")
    page = browser.new_page()
    try:
        page.goto(server.url + "/todomvc")
        reader = LLMBrowser(page)
        lines, total = reader.find("walk", "")
        # part of a word of its own text first; the control whose row holds it last
        assert lines == ['- text-0 "Walk the dog"',
                         '- input-2 (type="checkbox") in "Walk the dog"'] and total == 2
        lines, total = reader.find("items left", "")
        assert lines == ['- text-1 "2 items left"'] and total == 1  # <strong>2</strong> items left
        assert reader.find("Buy milk", "checkbox") == (
            ['- input-1 (type="checkbox") in "Buy milk"'], 1)
        # the ids stay while the element is visible, and act like any other
        reader.locator("text-0").dblclick()
        state = reader.read().text
        assert "text-0" not in state and 'value="Walk the dog"' in state  # hidden while edited
        page.keyboard.press("Escape")
        assert '- text-0 "Walk the dog"' in reader.read().text
        assert reader.describe("text-1").text == "2 items left"
    finally:
        page.close()


def test_find_never_returns_a_field_only_because_its_wrapper_holds_the_text(
        browser: Browser, server: LocalServer) -> None:
    from pytest_webtask.browser._sync.llm_browser import LLMBrowser

    # no header around the field: its parent is the app, which holds the whole list
    server.pages["/flat"] = (
        "<div class=app><input placeholder='What needs to be done?'><ul>"
        "<li><input type=checkbox><label>Buy milk</label></li>"
        "<li><input type=checkbox><label>Walk the dog</label></li></ul>"
        "<p><button type=button>Clear</button> Buy milk is due</p></div>")
    page = browser.new_page()
    try:
        page.goto(server.url + "/flat")
        lines, total = LLMBrowser(page).find("Buy milk", "")
        assert lines == ['- text-0 "Buy milk"', '- text-1 "Clear Buy milk is due"',
                         '- input-1 (type="checkbox") in "Buy milk"',
                         '- button-0 (type="button") "Clear" in "Clear Buy milk is due"'
                         ] and total == 4, lines
    finally:
        page.close()


def test_handlers_written_in_the_markup_make_elements_addressable(browser: Browser,
                                                                  server: LocalServer) -> None:
    from pytest_webtask.browser._sync.llm_browser import LLMBrowser

    server.pages["/bindings"] = (
        "<ul><li><label data-bind=\"text: title, event: { dblclick: edit }\">Knockout</label></li>"
        "<li><label on-dblclick=\"editAction\">Polymer</label></li>"
        "<li><span ng-click=\"open()\">AngularJS</span></li>"
        "<li><span x-on:click=\"open = true\">Alpine</span></li>"
        "<li><span ondblclick=\"this.textContent = 'edited'\">Inline</span></li>"
        "<li><span data-bind=\"text: title\">Plain text</span></li></ul>")
    page = browser.new_page()
    try:
        page.goto(server.url + "/bindings")
        state = LLMBrowser(page).read().text
        for name in ("Knockout", "Polymer"):
            assert re.search(rf'> label-\d+ "{name}"', state), state
        for name in ("AngularJS", "Alpine", "Inline"):
            assert re.search(rf'> span-\d+ "{name}"', state), state
        assert '- li "Plain text"' in state  # a binding that handles no pointer event
    finally:
        page.close()


# -- one visibility rule: a link moved into a closed <details> menu --------------------------

REPORTS = "open the reports"


def click_reports(page: str, history: str, n: int) -> dict[str, Any]:
    return step(act("click", element_id=line_id(page, '"Reports"')))


REPORTS_SCRIPT: list[Reply] = [
    click_reports,
    lambda page, history, n: done("Quarterly reports",
                                  {"expect": "url", "path": "/menu", "query": {"page": "reports"}}),
]


def open_menu_then_reports(page: str, history: str, n: int) -> dict[str, Any]:
    """The heal: the link is not in the page state until the menu is opened."""
    if n == 1:
        assert '"Reports"' not in page, page  # inside the closed menu: not shown
        return step(act("click", element_id=line_id(page, r'"Menu"')))
    if n == 2:
        return click_reports(page, history, n)
    return done("Quarterly reports")


def test_a_link_moved_into_a_closed_menu_is_an_element_failure_and_heals(
        browser: Browser, server: LocalServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    flow = Flow(browser, server, tmp_path, "/menu", [("do", REPORTS)],
                {REPORTS: REPORTS_SCRIPT})
    flow.run("record")
    recorded = flow.recorded()[0]
    assert [a["target"]["name"] for a in recorded["actions"]] == ["Reports"]

    # Chromium gives the hidden link a box; Playwright's rule (checkVisibility) says hidden:
    # the element is missing, not a timeout, and the heal command is printed
    message = flow.fails("in_menu")
    assert 'action 1 (click): expected link "Reports"; no visible element matches it' \
        in message, message
    assert "Timeout" not in message
    assert "a heal might fix this" in message and "pytest --webtask-heal 'tests/x.py::flow'" \
        in message

    flow.scripts = {REPORTS: [open_menu_then_reports] * 3}
    healed = flow.run("auto", "in_menu", heal="on")
    assert healed.stats.healed == 1 and len(flow.llm.calls) == 3
    assert healed.page.url.endswith("/menu?page=reports")
    now = flow.recorded()[0]
    assert [(a["tool"], a["target"]["name"]) for a in now["actions"]] == [
        ("click", "Menu"), ("click", "Reports")]
    assert now["checks"] == recorded["checks"]  # the recorded checks held, unchanged
    again = flow.run("replay", "in_menu")
    assert again.stats.replayed == 1 and again.stats.healed == 0


def test_a_covered_link_is_an_element_failure(browser: Browser, server: LocalServer,
                                              tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "/menu", [("do", REPORTS)],
                {REPORTS: REPORTS_SCRIPT})
    flow.run("record")
    message = flow.fails("covered")
    assert ('action 1 (click): click could not act on link "Reports": it is covered by '
            'another element (<div class="cookie-banner">') in message, message
    assert "pytest --webtask-heal 'tests/x.py::flow'" in message


# -- dialogs during replay: a confirm a timer opens after the action -------------------------

SAVE = "save the draft, replacing the old one, then close the editor"


def save_draft(page: str, history: str, n: int) -> dict[str, Any]:
    return step(act("dialog", accept=True), act("click", element_id=line_id(page, '"Save"')))


def close_later(page: str, history: str, n: int) -> dict[str, Any]:
    # a model takes its time: the confirm opens while it thinks (the sync twin receives the
    # event only with the next call to the browser, after the next action's turn began)
    time.sleep(1.5)
    return step(act("click", element_id=line_id(page, '"Close editor"')))


SAVE_SCRIPT: list[Reply] = [save_draft, close_later,
                            lambda page, history, n: done("Old draft replaced", "Open editor")]


@pytest.fixture(scope="module")
def recorded_drafts(browser: Browser, server: LocalServer,
                    tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The save-and-close flow, recorded and replayed once for the tests below."""
    flow = Flow(browser, server, tmp_path_factory.mktemp("drafts"), "/drafts", [("do", SAVE)],
                {SAVE: SAVE_SCRIPT})

    def replaced(task: WebTask) -> None:
        assert task.page.inner_text("#status") == "Old draft replaced"

    flow.run("record", after=replaced)
    # the model is told, in the first page state read after the confirm came
    assert any("A dialog asked: 'Replace the old draft?' (confirm); it was accepted." in p
               for p in flow.prompts[1:])
    flow.run("replay", after=replaced)
    return flow.recipe


@pytest.fixture
def drafts(browser: Browser, server: LocalServer, recorded_drafts: Path,
           tmp_path: Path) -> Flow:
    flow = Flow(browser, server, tmp_path, "/drafts", [("do", SAVE)], {SAVE: SAVE_SCRIPT})
    shutil.copy(recorded_drafts, flow.recipe)
    return flow


def test_a_dialog_between_actions_belongs_to_the_action_before(drafts: Flow) -> None:
    save, close = drafts.recorded()[0]["actions"]
    assert save["dialogs"] == [{"type": "confirm", "message": "Replace the old draft?",
                                "accept": True}]
    assert "dialogs" not in close


@pytest.mark.parametrize(("bug", "expected"), [
    ("no_confirm", "action 1 (click) on button \"Save\": expected a confirm dialog 'Replace the "
                   "old draft?', but no dialog appeared within 3s"),
    ("other_confirm", "action 1 (click) on button \"Save\": expected a confirm dialog 'Replace "
                      "the old draft?'; instead the page opened a confirm dialog 'Overwrite the "
                      "server copy?' (dismissed)"),
    ("extra_alert", "action 1 (click) on button \"Save\": expected a confirm dialog 'Replace the "
                    "old draft?'; instead the page opened a alert dialog 'Synced with the "
                    "server' (accepted)"),
    ("save_disabled", "action 1 (click): click could not act on button \"Save\": it is "
                      "disabled"),
])
def test_dialogs_after_an_action_fail_the_replay_when_they_changed(drafts: Flow, bug: str,
                                                                   expected: str) -> None:
    message = drafts.fails(bug)
    assert expected in message, message


def test_a_dialog_the_recording_did_not_see_fails_even_late(drafts: Flow) -> None:
    text = drafts.recipe.read_text()
    drafts.recipe.write_text(re.sub(r"\n\s+dialogs:\n(\s+- |\s+)[^\n]*(\n\s+[a-z]+: [^\n]*)*",
                                    "", text))
    assert "dialogs" not in drafts.recipe.read_text()
    message = drafts.fails("none")
    # whenever the timer fires (during the next action or the checks), the confirm is
    # dismissed as no one answered it, and named
    assert "the page opened a confirm dialog 'Replace the old draft?' (dismissed), which the " \
           "recording did not see" in message or \
           "expected the page shows text 'Old draft replaced'" in message, message


# -- a popup is credited to the action that opened it ----------------------------------------

REPORT = "open the Q3 report"


def test_a_tab_is_credited_to_the_click_that_opened_it(browser: Browser, server: LocalServer,
                                                       tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "/popup", [("do", REPORT)], {REPORT: [
        lambda page, history, n: step(act("click", element_id=line_id(page, '"Open report"')),
                                      act("click", element_id=line_id(page, '"Mark as read"'))),
        lambda page, history, n: done("Revenue: $2,100"),
    ]})

    def on_report(task: WebTask) -> None:
        assert task.page.url.endswith("/popup-report")
        assert task.page.context.pages[0].inner_text("#state") == "Unread"

    flow.run("record", after=on_report)
    # Playwright reports the tab after the click returned; the browser said at once that the
    # click opened a window, so the next action did not run on the old tab
    assert ("Action 1 changed the current tab; the remaining 1 action(s) were not run"
            in flow.prompts[1])
    actions = flow.recorded()[0]["actions"]
    assert [(a["target"]["name"], a.get("opens_tab")) for a in actions] == [
        ("Open report", True)]
    flow.run("replay", after=on_report)
    message = flow.fails("same_tab")
    assert ("action 1 (click) on button \"Open report\": expected a new tab to open, but none "
            "opened within 3s") in message, message


# -- a Polymer-style app: native inputs inside nested shadow roots ---------------------------

ADD_TODO = "add a todo Buy milk"
COMPLETE = "complete Buy milk"
POLYMER_SCRIPTS: dict[str, list[Reply]] = {
    ADD_TODO: [
        lambda page, history, n: step(
            act("fill", element_id=line_id(page, 'label="What needs to be done\\?"'),
                value="Buy milk"),
            act("press", element_id=line_id(page, 'label="What needs to be done\\?"'),
                key="Enter")),
        lambda page, history, n: done("Buy milk", "2 items left"),
    ],
    COMPLETE: [
        lambda page, history, n: step(act("click", element_id=line_id(page, 'label="Buy milk"'))),
        lambda page, history, n: done(
            {"expect": "state", "element": line_id(page, 'label="Buy milk"'),
             "state": "checked"}, "1 item left"),
    ],
}


def test_a_polymer_style_app_records_and_replays(browser: Browser, server: LocalServer,
                                                 tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "/polymer", [("do", ADD_TODO), ("do", COMPLETE)],
                POLYMER_SCRIPTS)
    flow.run("record")
    add, complete = flow.recorded()
    field = add["actions"][0]["target"]
    assert (field["tag"], field["role"], field["name"]) == (
        "input", "textbox", "What needs to be done?")
    box = complete["actions"][0]["target"]
    assert (box["tag"], box["role"], box["name"]) == ("paper-checkbox", "checkbox", "Buy milk")
    assert complete["checks"][0]["expect"] == "state"
    task = flow.run("replay")
    assert task.stats.replayed == 2
    assert "check 1: expected the page shows text 'Buy milk'" in flow.fails("no_add")
    message = flow.fails("dead_checkbox")
    assert "Step 2 do('complete Buy milk'), check 1: expected checkbox \"Buy milk\" is " \
           "checked" in message, message


# -- the Polymer delete: a hover-only control inside a shadow root ---------------------------

DELETE_TODO = "delete the todo Buy milk"
POLYMER_DELETE: dict[str, list[Reply]] = {
    ADD_TODO: POLYMER_SCRIPTS[ADD_TODO],
    DELETE_TODO: [
        # its row says what hovering reveals, from todo-item's own stylesheet
        lambda page, history, n: step(act("hover", element_id=line_id(
            page, r'hover-reveals="Delete"\)\n\s+- paper-checkbox-\d+ [^\n]*"Buy milk"'))),
        lambda page, history, n: step(act("click", element_id=line_id(
            page, 'aria-label="Delete"'))),
        lambda page, history, n: done({"expect": "hidden", "text": "Buy milk"}, "Walk the dog",
                                      "1 item left"),
    ],
}


def test_the_polymer_delete_hovers_its_row_inside_a_shadow_root(browser: Browser,
                                                                server: LocalServer,
                                                                tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "/polymer", [("do", ADD_TODO), ("do", DELETE_TODO)],
                POLYMER_DELETE)

    def left(task: WebTask) -> None:
        assert task.page.locator("todo-item label").all_inner_texts() == ["Walk the dog"]

    flow.run("record", after=left)
    first_page = next(p for p in flow.prompts if DELETE_TODO in p)
    assert re.search(r'- li > div-\d+ \(hover-reveals="Delete"\)\n\s+- paper-checkbox-\d+ '
                     r'\(role="checkbox" label="Buy milk"\)', first_page), first_page
    delete = flow.recorded()[1]
    assert [a["tool"] for a in delete["actions"]] == ["hover", "click"]
    row, button = (a["target"] for a in delete["actions"])
    assert row["tag"] == "div" and "Buy milk" in (row.get("near") or row.get("text") or ""), row
    assert (button["tag"], button["name"]) == ("button", "Delete")
    task = flow.run("replay", after=left)
    assert task.stats.replayed == 2 and task.stats.llm_calls == 0
    message = flow.fails("no_hover")
    assert "Step 2 do('delete the todo Buy milk'), action 2 (click)" in message, message
    message = flow.fails("dead_delete")
    assert "check 1: expected 'Buy milk' is not visible" in message, message
    message = flow.fails("delete_first")  # "Walk the dog" went instead
    assert "Step 2 do('delete the todo Buy milk'), check 1: expected 'Buy milk' is not " \
           "visible" in message, message
