"""Recipes find elements again inside open shadow roots and same-origin iframes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Browser

from pytest_webtask import WebTask
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

TASK = "fill both fields and press both buttons"
SCRIPT = [
    {"complete": False, "message": "go", "actions": [
        {"reason": "r", "tool": "fill", "parameters": {"element_id": "input-0", "value": "s1"}},
        {"reason": "r", "tool": "click", "parameters": {"element_id": "button-0"}},
        {"reason": "r", "tool": "fill", "parameters": {"element_id": "input-1", "value": "f1"}},
        {"reason": "r", "tool": "click", "parameters": {"element_id": "button-1"}}]},
    {"complete": True, "message": "done", "evidence": ["shadow clicked with s1"]},
]


def run(browser: Browser, server: LocalServer, recipe: Path, mode: str) -> WebTask:
    context = browser.new_context()
    page = context.new_page()
    try:
        with open_webtask(page, recipe, mode, base_url=server.url, llm=ScriptedLLM(SCRIPT),
                          test_name="frames", timeout=1.5) as task:
            task.goto("/shadow")
            page.frame_locator("#inner").locator("button").wait_for()
            task.do(TASK)
            assert page.frame_locator("#inner").locator("#out").text_content() == \
                "frame got f1"
    finally:
        context.close()
    return task


def test_shadow_and_iframe_targets_replay(browser: Browser, server: LocalServer,
                                          tmp_path: Path) -> None:
    recipe = tmp_path / "frames.yaml"
    assert run(browser, server, recipe, "record").stats.recorded == 1
    actions = yaml.safe_load(recipe.read_text())["steps"][0]["actions"]
    assert actions[2]["target"]["frame"] == ["#inner"]
    assert "frame" not in actions[0]["target"]
    assert run(browser, server, recipe, "replay").stats.replayed == 1


def test_iframe_target_changed_fails(browser: Browser, server: LocalServer,
                                     tmp_path: Path) -> None:
    recipe = tmp_path / "frames.yaml"
    run(browser, server, recipe, "record")
    recipe.write_text(recipe.read_text().replace("name: Frame button", "name: Frame knob"))
    with pytest.raises(pytest.fail.Exception, match='expected button "Frame knob"'):
        run(browser, server, recipe, "replay")
