"""Evidence is matched against text as the page state shows it, when recording and when
replaying: a line merged from several elements can be cited as it was shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pytest_webtask import WebTask
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

PAGE = "<ul><li><div>Total</div><div>{amount}</div></li></ul>"


def run(browser: Browser, server: LocalServer, recipe: Path, mode: str, amount: str,
        llm: ScriptedLLM) -> WebTask:
    server.pages["/total"] = PAGE.format(amount=amount)
    context = browser.new_context()
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=server.url, llm=llm,
                          test_name="total", timeout=1) as task:
            task.goto("/total")
            task.check("the total is $5")
    finally:
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
