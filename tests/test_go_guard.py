"""The advice that a do task goes where it says: "open the menu and go to the opening hours"
done by hovering the menu and citing its "Opening hours" link proves a link that shows, not
the page it opens (a local 1.5B model recorded exactly that, green on a dead link). It reads
the task's words, so it is advice (agent/verify.py): said once, and a done after it records
marked for a reviewer; followed, it records unmarked, and the replay fails on the dead link."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_webtask.agent.guards import links_to_go
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer
from tests.test_reply_protocol import may_finish_context

HOME = """<!doctype html><title>Library</title><style>
nav ul { display: none } nav:hover ul { display: block }</style>
<header><nav aria-label="Site menu"><span>☰ Menu</span><ul>
<li><a href="/">Home</a></li><li><a href="HOURS_HREF">Opening hours</a></li></ul></nav></header>
<main><h1>Welcome</h1><p>Members can borrow e-books with their library card.</p></main>"""
HOURS = """<!doctype html><title>Opening hours</title><main><h1>Opening hours</h1>
<p>Monday to Saturday: 9:00-18:00</p><p>Sunday: closed</p></main>"""
LIVE, DEAD = HOME.replace("HOURS_HREF", "/hours"), HOME.replace("HOURS_HREF", "#")
TASK = "open the menu and go to the opening hours"
HOVER = {"complete": False, "message": "m", "actions": [
    {"tool": "hover", "parameters": {"element_id": "nav-0"}}]}
LINK_SHOWN = {"complete": True, "message": "done", "evidence": [
    {"expect": "text", "text": "Opening hours", "within": "nav-0"}]}
FOLLOW = {"complete": False, "message": "m", "actions": [
    {"tool": "click", "parameters": {"element_id": "a-1"}}]}
HOURS_SHOWN = {"complete": True, "message": "done", "evidence": [
    {"expect": "text", "text": "Sunday: closed"}]}


def test_links_to_go_are_the_links_a_task_says_to_go_to() -> None:
    state = '- a-0 "Home"\n- a-1 "Opening hours"\n- button-0 "Opening hours"'
    assert links_to_go(state, TASK, set()) == ['a-1 "Opening hours"']
    assert links_to_go(state, TASK, {"opening hours"}) == []  # clicked
    assert links_to_go(state, "check the opening hours", set()) == []  # no verb that goes
    assert links_to_go(state, "Go to the Opening Hours page", set()) == ['a-1 "Opening hours"']


def _record(page: Page, server: LocalServer, recipe: Path, html: str,
            replies: list[Any] | ScriptedLLM, **settings: Any) -> ScriptedLLM:
    server.pages["/"], server.pages["/hours"] = html, HOURS
    llm = replies if isinstance(replies, ScriptedLLM) else ScriptedLLM(replies)
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm, timeout=1.5,
                      **settings) as task:
        task.goto("/")
        task.do(TASK)
    return llm


ADVICE = 'links-to-go: the task says to go to a-1 "Opening hours", which no action followed'


def test_a_link_shown_but_never_followed_is_advice_and_a_done_after_it_is_marked(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """The task's words ("go to") are advice, never a refusal (DESIGN decision 22): said
    once, then the same done records, the step marked ``doubted: links-to-go`` for a
    reviewer. On the bare standard profile, nothing else asks."""
    recipe = tmp_path / "hours.yaml"
    llm = _record(page, server, recipe, LIVE, [HOVER, LINK_SHOWN, LINK_SHOWN],
                  profile="standard")
    assert ADVICE in " ".join(llm.prompts[2].split())
    assert len(llm.prompts) == 3
    text = recipe.read_text()
    assert "doubted" in text and "links-to-go" in text


def test_followed_it_records_and_the_replay_fails_on_a_dead_link(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """With the small profile's ``guard-acts``, the reply after the advice offers acting
    only; followed, the step records unmarked, and its replay fails on a dead link."""
    recipe = tmp_path / "hours.yaml"
    llm = _record(page, server, recipe, LIVE,
                  [HOVER, LINK_SHOWN, FOLLOW, HOURS_SHOWN], rules_off="named-button")
    assert ADVICE in " ".join(llm.prompts[2].split())
    assert may_finish_context(llm.calls[1]) and not may_finish_context(llm.calls[2])
    assert "Sunday: closed" in recipe.read_text() and "doubted" not in recipe.read_text()
    server.pages["/"] = LIVE
    with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
        task.goto("/")
        task.do(TASK)
    server.pages["/"] = DEAD
    with pytest.raises(pytest.fail.Exception) as failed:
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as task:
            task.goto("/")
            task.do(TASK)
    assert "Sunday: closed" in str(failed.value)


def test_a_task_that_left_the_page_another_way_is_not_asked(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """The guard holds while the page is where the task began: a task that got there by
    another way (here, the address) is judged by its claims alone."""
    recipe = tmp_path / "hours.yaml"
    go = {"complete": False, "message": "m", "actions": [
        {"tool": "navigate", "parameters": {"url": "/hours"}}]}
    llm = _record(page, server, recipe, LIVE, [go, HOURS_SHOWN])
    assert len(llm.prompts) == 2 and "links-to-go" not in "".join(llm.prompts)
    assert "Sunday: closed" in recipe.read_text()


def test_the_plan_strategy_is_advised_too(page: Page, server: LocalServer) -> None:
    from pytest_webtask.agent._sync.plan_agent import PlanAgent
    from tests.test_policy import _invoked, _plan, _Plans
    server.pages["/"], server.pages["/hours"] = LIVE, HOURS
    page.goto(server.url + "/")
    shown = _invoked("done", summary="menu open", evidence=LINK_SHOWN["evidence"])
    script = _Plans([_plan("hover", "done"), _plan("click", "done")],
                    [_invoked("hover", element_id="nav-0"), shown,
                     _invoked("click", element_id="a-1"),
                     _invoked("done", summary="there", evidence=HOURS_SHOWN["evidence"])])
    result = PlanAgent(page, script.llm, require_evidence=True).execute(TASK)
    assert 'done questioned (advice, said once: call done again to stand by it): ' \
        f"{ADVICE}" in " ".join(script.plan_prompts()[1].split())
    assert result.completed, result.message
    assert page.url.endswith("/hours")
