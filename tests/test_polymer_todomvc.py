"""Polymer's TodoMVC as published (issue 47): the npm package's own files (tests/apps/
todomvc-polymer, Polymer 0.5 on its platform.js polyfills), served as they are.

Its delete button is drawn by a stylesheet ('.destroy:after { content: "✖" }') and shown only
while its row is hovered ('.view:hover .destroy'), inside td-item's shadow tree, which the
ShadowDOM polyfill renders into the document, rewriting the element's styles into the
document's sheets ('[is="td-item"] .view:hover .destroy'). The page state must name what
hovering a row reveals and the button by what it draws, so "delete the todo 'Walk the dog'"
records with a scripted model that reads element ids off what it is shown, as a model would;
the recipe then replays with no model, and fails on a copy whose delete does nothing.
The scripted "model" shows the code paths, not what a real model would do.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from pytest_webtask import WebTask
from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import LoopbackServer, ScriptedLLM, open_webtask
from tests.test_real_apps import act, done, line_id, step

APP = Path(__file__).parent / "apps" / "todomvc-polymer"

# Regressions, made as a file is served (the folder stays as published).
BUGS: dict[str, tuple[str, str, str]] = {
    # the delete button fires nothing: the todo stays
    "dead_delete": ("/elements/td-item.html", "this.fire('td-destroy-item', this.item);",
                    "/* deleted nothing */"),
    # the row's hover no longer shows the button
    "no_hover": ("/elements/td-item.css", ".view:hover .destroy {", ".view:hover .nothing {"),
}


class AppHandler(SimpleHTTPRequestHandler):
    """The app's folder, with ``bug`` applied to the one file it changes."""

    bug = "none"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        change = BUGS.get(self.bug)
        if change is None or path != change[0]:
            return super().do_GET()
        text = (APP / path.lstrip("/")).read_text(encoding="utf-8")
        assert change[1] in text, f"{self.bug}: {change[1]!r} is not in {path}"
        data = text.replace(change[1], change[2]).encode()
        self.send_response(200)
        self.send_header("Content-Type", mimetypes.guess_type(path)[0] or "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture(scope="module")
def app() -> Iterator[tuple[LoopbackServer, type[AppHandler]]]:
    handler = type("Handler", (AppHandler,), {})
    server = LoopbackServer(partial(handler, directory=str(APP)))
    yield server, handler
    server.stop()


ADD = "add the todos 'Walk the dog' and 'Buy milk'"
DELETE = "delete the todo 'Walk the dog'"
FIELD = r'\(type="text" placeholder="What needs to be done\?"\)'
# the row of a todo, as the page state shows it: what hovering it reveals, then its text
ROW = r'\(hover-reveals="✖"\)\n\s+- input-\d+ \(type="checkbox"\)\n\s+- "{}"'


def reply(context: ModelRequest) -> dict[str, Any]:
    page, n = context.blocks[-1].text, context.step
    if ADD in context.task:
        if n == 1:
            field = line_id(page, FIELD)
            return step(act("fill", element_id=field, value="Walk the dog"),
                        act("press", element_id=field, key="Enter"),
                        act("fill", element_id=field, value="Buy milk"),
                        act("press", element_id=field, key="Enter"))
        return done("Walk the dog", "Buy milk", "2 items left")
    if n == 1:  # hover the row of 'Walk the dog', which says what hovering reveals
        return step(act("hover", element_id=line_id(page, ROW.format("Walk the dog"))))
    if n == 2:  # the button hovering revealed, on that row
        row = re.search(r"- li > (div-\d+)[^\n]*\n(?:\s{8,}- [^\n]*\n)*?\s+- \"Walk the dog\"",
                        page)
        assert row, page
        button = re.search(r'(button-\d+) \(label="✖"\)', page[row.start():])
        assert button, f"no delete button shows after hovering the row:\n{page}"
        return step(act("click", element_id=button.group(1)))
    return done({"expect": "hidden", "text": "Walk the dog"}, "Buy milk", "1 item left")


def center(page: Any, text: str) -> tuple[float, float]:
    box = page.get_by_text(text, exact=True).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Run:
    def __init__(self, browser: Browser, app: tuple[LoopbackServer, type[AppHandler]],
                 recipe: Path) -> None:
        self.browser, (self.server, self.handler), self.recipe = browser, app, recipe
        self.prompts: list[str] = []

    def __call__(self, mode: str, bug: str = "none") -> WebTask:
        self.handler.bug = bug
        context = self.browser.new_context()

        def model(request: ModelRequest) -> dict[str, Any]:
            self.prompts.append(request.to_text())
            return reply(request)

        try:
            with open_webtask(context.new_page(), self.recipe, mode, base_url=self.server.url,
                              llm=ScriptedLLM(model), test_name="delete",
                              fix_command="pytest --webtask-record", timeout=3.0) as task:
                task.goto("/index.html")
                task.page.locator("#new-todo").wait_for()  # the polyfills have run
                task.do(ADD)
                task.do(DELETE)
                assert titles(task) == ["Buy milk"]
        finally:
            context.close()
        return task

    def fails(self, bug: str) -> str:
        with pytest.raises(pytest.fail.Exception) as failure:
            self("replay", bug)
        return str(failure.value)


def titles(task: WebTask) -> list[str]:
    # (Playwright's own CSS engine stumbles on the polyfill's wrappers of shadow roots)
    text = task.page.evaluate("() => document.body.innerText")
    return [t for t in ("Walk the dog", "Buy milk") if t in text]


def test_the_page_state_names_what_hovering_a_row_reveals(browser: Browser, app: Any) -> None:
    server, handler = app
    handler.bug = "none"
    page = browser.new_page()
    try:
        page.goto(server.url + "/index.html")
        field = page.locator("#new-todo")
        for title in ("Walk the dog", "Buy milk"):
            field.fill(title)
            field.press("Enter")
        page.get_by_text("2 items left").wait_for()
        state = LLMBrowser(page).read().text
        assert re.search(ROW.format("Walk the dog"), state), state
        assert re.search(ROW.format("Buy milk"), state), state
        assert "✖" not in state.replace('hover-reveals="✖"', "")  # not shown until hovered
        page.mouse.move(*center(page, "Walk the dog"))
        state = LLMBrowser(page).read().text
        assert re.search(r'- button-\d+ \(label="✖"\)', state), state  # named by what it draws
    finally:
        page.close()


def test_the_published_polymer_todomvc_deletes_a_todo_and_replays(
        browser: Browser, app: Any, tmp_path: Path) -> None:
    run = Run(browser, app, tmp_path / "delete.yaml")
    run("record")
    deleted = yaml.safe_load(run.recipe.read_text())["steps"][1]
    assert [a["tool"] for a in deleted["actions"]] == ["hover", "click"]
    row, button = (a["target"] for a in deleted["actions"])
    assert row["tag"] == "div" and "Walk the dog" in (row.get("text") or row.get("near") or "")
    assert (button["tag"], button["name"]) == ("button", "✖")
    assert {"expect": "hidden", "text": "Walk the dog"}.items() <= deleted["checks"][0].items()

    task = run("replay")
    assert task.stats.replayed == 2 and task.stats.recorded == 0 and task.stats.llm_calls == 0
    message = run.fails("dead_delete")
    assert "Step 2 do(\"delete the todo 'Walk the dog'\"), check 1: expected 'Walk the dog' " \
           "is not visible" in message, message
    message = run.fails("no_hover")
    assert "Step 2 do(\"delete the todo 'Walk the dog'\"), action 2 (click)" in message, message
