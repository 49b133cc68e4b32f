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


DETAILS = "<main><h1>Salt and Iron</h1><dl><dt>Author</dt><dd>{author}</dd><dt>Year</dt>" \
          "<dd>2015</dd></dl></main>"


@pytest.mark.parametrize("author, apart", [("Helen Okafor", True), ("Ines Calder", False)])
def test_a_label_and_value_cited_as_one_text_are_named_apart(
        browser: Browser, server: LocalServer, tmp_path: Path, author: str, apart: bool
        ) -> None:
    """"Author: Helen Okafor" on a page whose definition list shows "Author" and "Helen
    Okafor" as texts of their own does not hold (nothing is rewritten), and the question
    that follows says so, for the model to cite each; when the value is not on the page the
    question says nothing of the kind, and no claim turns green."""
    server.pages["/book"] = DETAILS.format(author=author)
    llm = ScriptedLLM([
        {"complete": True, "message": "it is", "evidence": [
            {"expect": "text", "text": "Author: Helen Okafor"}]},
        {"complete": True, "message": "it is", "evidence": [
            {"expect": "text", "text": "Author"}, {"expect": "text", "text": "Helen Okafor"}]},
    ])
    context = browser.new_context()
    recipe = tmp_path / "book.yaml"
    try:
        with open_webtask(context.new_page(), recipe, "record", base_url=server.url, llm=llm,
                          test_name="book", timeout=1) as task:
            task.goto("/book")
            if apart:
                task.check("the author is Helen Okafor")
            else:
                with pytest.raises(pytest.fail.Exception, match="Helen Okafor"):
                    task.check("the author is Helen Okafor")
    finally:
        context.close()
    said = 'the page shows "Author" and "Helen Okafor" as texts of their own'
    assert (said in llm.prompts[1]) is apart
    if apart:
        assert "text: Helen Okafor" in recipe.read_text()
        assert "Author: Helen Okafor" not in recipe.read_text()
