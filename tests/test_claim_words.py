"""``claim-words`` (issue 45): a check called true on a sentence that says nothing of its
statement is asked about once. The library's "closed on Sunday" was recorded true on "Members
can now borrow e-books": green on a page that opens on Sundays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_webtask.agent.guards import unrelated_claims
from pytest_webtask.agent.models import Evidence
from pytest_webtask.agent.parsing import EvidenceSpec
from pytest_webtask.testing import ScriptedLLM, open_webtask
from pytest_webtask.types import Fingerprint
from tests.server import LocalServer

HOURS = """<!doctype html><title>Library</title><main><h1>Opening hours</h1>
<p>Members can now borrow e-books and audiobooks with their library card number.</p>
<dl><dt>Saturday:</dt><dd>10:00 to 16:00</dd><dt>Sunday:</dt><dd>SUNDAY</dd></dl></main>"""
CLOSED, OPEN = HOURS.replace("SUNDAY", "closed"), HOURS.replace("SUNDAY", "12:00 to 16:00")
STATEMENT = "the library is closed on Sunday"
ASKED = "claim-words: the statement's words"
MEMBERS = {"complete": True, "message": "true", "evidence": [
    {"expect": "text", "text": "Members can now borrow e-books and audiobooks with their "
                               "library card number."}]}
SUNDAY_CLOSED = {"complete": True, "message": "true", "evidence": [
    {"expect": "text", "text": "closed"}]}
FALSE = {"complete": False, "impossible": True,
         "message": "The page says Sunday: 12:00 to 16:00, so the statement is false."}


def _text(text: str, near: str = "", within: str | None = None) -> Evidence:
    return Evidence(cited=text, spec=EvidenceSpec(expect="text", text=text), text=near,
                    within=Fingerprint(tag="dl", text=within) if within else None)


def test_the_claims_that_say_little_of_the_statement() -> None:
    members = _text("Members can now borrow e-books and audiobooks with their library card.")
    assert unrelated_claims(STATEMENT, [members]) == ["closed", "sunday"]  # one word of three
    # half or more of its words, or other forms of them, or in the short element around it
    assert unrelated_claims(STATEMENT, [_text("Sunday: closed")]) == []
    assert unrelated_claims(STATEMENT, [_text("Closes all day Sundays")]) == []
    assert unrelated_claims(STATEMENT, [_text("closed", within="Sunday: closed")]) == []
    assert unrelated_claims(STATEMENT, [members, _text("closed")]) == []
    assert unrelated_claims("the table lists tickets", [_text("Ticket 1")]) == []  # one of two
    # a whole page's worth around it says nothing of the claim
    assert unrelated_claims(STATEMENT, [_text("12:00", within="Sunday closed " * 40)]) == [
        "library", "closed", "sunday"]
    # how a statement says it is no word of it; a claim of another kind is not read
    assert unrelated_claims("the page says Welcome back, Mara", [_text("Welcome back, Mara")]) \
        == []
    assert unrelated_claims("the page says Welcome back", [_text("Hello")]) == ["welcome", "back"]
    value = Evidence(cited="v", spec=EvidenceSpec(expect="value", element="input-0", value="3"))
    assert unrelated_claims("the quantity is three", [value]) == []
    assert unrelated_claims("the the", [members]) == []  # nothing to look for


def _check(page: Page, server: LocalServer, recipe: Path, html: str, replies: list[Any],
           **settings: Any) -> ScriptedLLM:
    server.pages["/hours"] = html
    llm = ScriptedLLM(replies)
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm, **settings) as task:
        task.goto("/hours")
        task.check(STATEMENT)
    return llm


def test_an_unrelated_sentence_is_asked_about_and_a_false_statement_records_false(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "hours.yaml"
    with pytest.raises(pytest.fail.Exception, match="12:00 to 16:00"):
        _check(page, server, recipe, OPEN, [MEMBERS, FALSE])
    assert not recipe.exists()


def test_asked_once_the_line_that_says_it_records_and_fails_when_sunday_opens(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "hours.yaml"
    llm = _check(page, server, recipe, CLOSED, [MEMBERS, SUNDAY_CLOSED])
    assert f"{ASKED} closed, sunday are in none of your claims" in llm.prompts[1]
    assert "Members can now borrow" not in recipe.read_text()
    server.pages["/hours"] = OPEN
    with pytest.raises(pytest.fail.Exception, match="closed"):
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
            task.goto("/hours")
            task.check(STATEMENT)


def test_the_next_answer_stands_marked_for_a_reviewer(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """Advice, said once: a paraphrase cited again stands (the advice is no refusal), and
    the recipe marks the step ``doubted: claim-words`` for a reviewer; on a page that opens
    on Sundays it replays green, the defect the advice points at."""
    recipe = tmp_path / "again.yaml"
    llm = _check(page, server, recipe, CLOSED, [MEMBERS, MEMBERS])
    assert ASKED in llm.prompts[1] and len(llm.prompts) == 2
    assert "claim-words" in recipe.read_text() and "doubted" in recipe.read_text()
