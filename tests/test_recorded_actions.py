"""What a recipe keeps of the actions that worked (tests/pages/toggles.html, recorded through
the real record path with a scripted model, replayed in a real Chromium):

- a click whose confirm was dismissed because no answer was set, and that changed nothing,
  is not kept (the click that worked, after the dialog tool, is): a replay would only be told
  no every time; a dismissed confirm that changed the page (a bug deletes anyway) is kept;
- a click that turned a switch (``role="switch"``, aria-checked) or a checkbox on is kept as
  ``check``: a replay sets the state rather than flipping it, so on data where the switch is
  already on it leaves it on, passes, and its step log says it was already on."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from pytest_webtask import WebTask
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer


def act(tool: str, **params: object) -> dict[str, Any]:
    return {"reason": tool, "tool": tool, "parameters": params}


def step(*actions: dict[str, Any]) -> dict[str, Any]:
    return {"complete": False, "message": "acting", "actions": list(actions)}


def done(*evidence: str) -> dict[str, Any]:
    return {"complete": True, "message": "done", "evidence": list(evidence)}


def id_of(page: str, pattern: str) -> str:
    for line in page.splitlines():
        if re.search(pattern, line) and (found := re.search(r"- ([a-z0-9]+-\d+)\b", line)):
            return found[1]
    raise AssertionError(f"no line matches {pattern!r}:\n{page}")


class Flow:
    """One do step on the settings page, its replies by step number."""

    def __init__(self, browser: Browser, server: LocalServer, tmp_path: Path, task: str,
                 replies: list[Any]) -> None:
        self.browser, self.server, self.task, self.replies = browser, server, task, replies
        self.recipe = tmp_path / "flow.yaml"
        self.pages: list[str] = []

    def reply(self, context: ModelRequest) -> dict[str, Any]:
        page = context.blocks[-1].text
        self.pages.append("\n\n".join(b.text for b in context.blocks))
        return self.replies[min(context.step, len(self.replies)) - 1](page)  # type: ignore[no-any-return]

    def run(self, mode: str, query: str = "") -> WebTask:
        context = self.browser.new_context()
        try:
            with open_webtask(context.new_page(), self.recipe, mode, base_url=self.server.url,
                              llm=ScriptedLLM(self.reply), timeout=1.5) as task:
                task.goto("/toggles.html" + query)
                task.do(self.task)
                self.status = task.page.locator("#status").inner_text()
        finally:
            context.close()
        return task

    def actions(self) -> list[dict[str, Any]]:
        return yaml.safe_load(self.recipe.read_text())["steps"][0]["actions"]  # type: ignore[no-any-return]


DELETE_BETA = r'button-\d+ .*"Delete Beta"'


def test_a_click_whose_confirm_was_dismissed_and_changed_nothing_is_not_kept(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "delete the Beta list", [
        lambda page: step(act("click", element_id=id_of(page, DELETE_BETA))),
        lambda page: step(act("dialog", accept=True),
                          act("click", element_id=id_of(page, DELETE_BETA))),
        lambda page: done("1 list left")])
    task = flow.run("record")
    assert task.stats.recorded == 1
    assert "dismissed, as no answer was set beforehand" in flow.pages[1]
    # the dialog line is true to what was set: the second click's answer came from the tool
    assert "'Delete Beta?': accepted, as the dialog tool set beforehand." in flow.pages[2]
    actions = flow.actions()
    assert [a["tool"] for a in actions] == ["click"], actions
    assert actions[0]["dialogs"] == [{"type": "confirm", "message": "Delete Beta?",
                                      "accept": True}]
    replayed = flow.run("replay")
    assert replayed.stats.replayed == 1 and replayed.stats.llm_calls == 0


def test_a_dismissed_confirm_that_changed_the_page_is_kept(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "delete the Beta list", [
        lambda page: step(act("click", element_id=id_of(page, DELETE_BETA))),
        lambda page: done("1 list left")])
    flow.run("record", "?bug=dismiss_deletes")
    actions = flow.actions()
    assert [a["tool"] for a in actions] == ["click"]
    assert actions[0]["dialogs"] == [{"type": "confirm", "message": "Delete Beta?",
                                      "accept": False}]  # as the recording answered it


def test_a_click_that_turned_a_switch_on_replays_as_check(
        browser: Browser, server: LocalServer, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    flow = Flow(browser, server, tmp_path, "turn email notifications on", [
        lambda page: step(act("click", element_id=id_of(page, r'span-\d+ \(role="switch"'))),
        lambda page: done("Email notifications: on")])
    flow.run("record")
    actions = flow.actions()
    assert [a["tool"] for a in actions] == ["check"], actions
    assert actions[0]["target"]["role"] == "switch" and "params" not in actions[0]

    caplog.set_level(logging.INFO, logger="pytest_webtask")
    flow.run("replay")  # off, as recorded: turned on
    assert flow.status == "Email notifications: on"
    assert "already on" not in caplog.text
    # on data where the switch is on already: left on (a click would turn it off) and passes
    replayed = flow.run("replay", "?on=1")
    assert replayed.stats.replayed == 1 and flow.status == "Email notifications: on"
    assert re.search(r"action 1 \(check\) on switch \"Email notifications\": it was already "
                     r"on \(checked: true\): left as it is", caplog.text), caplog.text


def test_a_click_that_ticked_a_checkbox_replays_as_check(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Flow(browser, server, tmp_path, "agree to the terms", [
        lambda page: step(act("click", element_id=id_of(page, r'checkbox-\d+|input-\d+ .*'
                                                         r'type="checkbox"'))),
        lambda page: done("Terms: agreed")])
    flow.run("record")
    assert [a["tool"] for a in flow.actions()] == ["check"]
    assert flow.run("replay").stats.replayed == 1
