"""Evidence is matched against text as the page state shows it, when recording and when
replaying: a line merged from several elements can be cited as it was shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pytest_webtask import WebTask
from pytest_webtask.settings import Settings
from pytest_webtask.steps.session import RecipeSession, StepStats
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer

PAGE = "<ul><li><div>Total</div><div>{amount}</div></li></ul>"


def run(browser: Browser, server: LocalServer, recipe: Path, mode: str, amount: str,
        llm: ScriptedLLM) -> WebTask:
    server.pages["/total"] = PAGE.format(amount=amount)
    context = browser.new_context()
    session = RecipeSession(path=recipe, test_name="total", record_all=mode == "record")
    task = WebTask(context.new_page(), session=session,
                   settings=Settings(mode=mode, timeout=1),  # type: ignore[arg-type]
                   base_url=server.url, llm_provider=lambda: llm, stats=StepStats())
    try:
        task.goto("/total")
        task.check("the total is $5")
    finally:
        session.finish(test_passed=True)
        context.close()
    return task


def test_merged_line_is_citable_and_replayed(browser: Browser, server: LocalServer,
                                             tmp_path: Path) -> None:
    recipe = tmp_path / "total.yaml"
    llm = ScriptedLLM([{"complete": True, "message": "it is", "evidence": ["Total $5"]}])
    run(browser, server, recipe, "record", "$5", llm)
    assert '- ul-0\n  - li "Total $5"' in llm.prompts[0]  # shown as one line: cited as shown
    assert "text: Total $5" in recipe.read_text()
    assert run(browser, server, recipe, "replay", "$5", llm).stats.replayed == 1
    with pytest.raises(pytest.fail.Exception, match="expected the page shows text 'Total \\$5'"):
        run(browser, server, recipe, "replay", "$6", llm)
