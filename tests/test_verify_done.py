"""``verify_done`` (agent/verify.py, DESIGN decision 22): a ``done`` is refused only for a
mechanical fact of the page, each with the page variant where it must refuse; what reads the
task's words is advice, said once, and a step recorded over it is marked ``doubted``.

Recorded with ``ScriptedLLM`` on real pages in a real Chromium: these are the agent's
answers to scripted replies, never a model's result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_webtask.agent.policy import SMALL, Policy
from pytest_webtask.errors import ConfigurationError
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

ORDERS = [("A-101", "Pending"), ("A-102", "Shipped"), ("A-103", "Pending"),
          ("A-104", "Shipped"), ("A-105", "Delivered"), ("A-106", "Pending")]


def orders_page(status: str, *, broken: bool = False) -> str:
    """The orders page as a server renders it for ``?status=...`` (a script stands in for the
    server: the filter reads the address); ``broken`` ignores the filter."""
    rows = "".join(f'<tr><td>{n}</td><td>{s}</td></tr>' for n, s in ORDERS)
    return f"""<!doctype html><title>Orders</title><main><h1>Orders</h1>
<form action="/orders"><label>Status <select name="status">
<option value="">All</option><option value="pending">Pending</option>
<option value="shipped">Shipped</option></select></label><button>Apply</button></form>
<p id="count"></p>
<table><thead><tr><th>Order</th><th>Status</th></tr></thead><tbody>{rows}</tbody></table>
<script>
const want = new URLSearchParams(location.search).get('status') || '';
document.querySelector('select').value = want;
let shown = 0;
for (const tr of document.querySelectorAll('tbody tr')) {{
  const keep = {'true' if broken else 'false'} || !want
    || tr.cells[1].textContent.toLowerCase() === want;
  tr.hidden = !keep; shown += keep ? 1 : 0;
}}
document.getElementById('count').textContent = `Showing ${{shown}} of 6 orders`;
</script></main>"""


TASK = "show only the pending orders"
FILTER = {"complete": False, "message": "I choose Pending and apply the filter.", "actions": [
    {"tool": "select", "parameters": {"element_id": "select-0", "value": "Pending"}},
    {"tool": "click", "parameters": {"element_id": "button-0"}}]}
DROPDOWN_SAYS = {"complete": True, "message": "The dropdown shows Pending.", "evidence": [
    {"expect": "value", "element": "select-0", "value": "Pending"}]}
COUNT_TEXT = {"complete": True, "message": "Three orders are shown.", "evidence": [
    {"expect": "text", "text": "Showing 3 of 6 orders"}]}
EACH = {"complete": True, "message": "Every row is pending.", "evidence": [
    {"expect": "each", "within": "table-0", "text": "Pending", "match": "contains"}]}


def _record(page: Page, server: LocalServer, recipe: Path, replies: list[Any], *,
            broken: bool = False, task: str = TASK, **settings: Any) -> ScriptedLLM:
    server.pages["/orders"] = orders_page("", broken=broken)
    llm = ScriptedLLM(replies)
    settings.setdefault("profile", "standard")
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm, timeout=1.5,
                      **settings) as webtask:
        webtask.goto("/orders")
        webtask.do(task)
    return llm


@pytest.mark.parametrize("profile", ["standard", "small"])
def test_the_dropdown_s_own_value_never_records_a_broken_filter(
        page: Page, server: LocalServer, tmp_path: Path, profile: str) -> None:
    """``own-state``: the claim is the dropdown the actions set (same element), and the
    actions changed the page beyond it (the form was sent: a new address). Refused every
    time, with either profile: the model's persistence records nothing."""
    recipe = tmp_path / "orders.yaml"
    with pytest.raises(pytest.fail.Exception) as failed:
        _record(page, server, recipe, [FILTER] + [DROPDOWN_SAYS] * 12, broken=True,
                profile=profile, max_steps=4)
    said = str(failed.value)
    assert "your claims show only what your own actions set" in said
    assert "a control your actions set" in said
    assert not recipe.exists()


def test_the_refusal_is_the_next_request_and_an_honest_claim_records(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "orders.yaml"
    llm = _record(page, server, recipe, [FILTER, DROPDOWN_SAYS, EACH])
    assert "Your done was not recorded" in llm.prompts[2]
    assert "own actions set" in llm.prompts[2]
    text = recipe.read_text()
    assert "each" in text and "Pending" in text and "doubted" not in text
    # the broken filter: the replay fails on the row that is not pending
    server.pages["/orders"] = orders_page("", broken=True)
    with pytest.raises(pytest.fail.Exception) as failed:
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as wt:
            wt.goto("/orders")
            wt.do(TASK)
    assert "Shipped" in str(failed.value) or "Delivered" in str(failed.value)


def test_setting_a_control_and_nothing_else_is_proven_by_its_state(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """The page variant where ``own-state`` must not refuse: the actions only set the box,
    nothing else changed, so its state is the whole effect."""
    server.pages["/prefs"] = ("<!doctype html><title>Prefs</title><main><label><input "
                              "type=checkbox name=n> Email me the news</label></main>")
    recipe = tmp_path / "prefs.yaml"
    tick = {"complete": False, "message": "m", "actions": [
        {"tool": "check", "parameters": {"element_id": "input-0"}}]}
    ticked = {"complete": True, "message": "ticked", "evidence": [
        {"expect": "state", "element": "input-0", "state": "checked"}]}
    llm = ScriptedLLM([tick, ticked])
    with open_webtask(page, recipe, "record", base_url=server.url, llm=llm, timeout=1.5,
                      profile="standard") as webtask:
        webtask.goto("/prefs")
        webtask.do("tick Email me the news")
    assert "checked" in recipe.read_text() and len(llm.prompts) == 2


def test_a_claim_that_does_not_hold_is_refused_with_what_the_page_has(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "orders.yaml"
    wrong = {"complete": True, "message": "done", "evidence": [
        {"expect": "text", "text": "Showing 2 of 6 orders"}]}
    llm = _record(page, server, recipe, [FILTER, wrong, COUNT_TEXT, COUNT_TEXT])
    assert "these claims do not hold on the page now" in llm.prompts[2]
    assert "Showing 3 of 6 orders" in recipe.read_text()


def test_a_secret_s_value_is_never_a_claim(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """``secret``: the page echoes what was typed; a claim of the secret's placeholder is
    its value on the page, refused (with every other problem of the same done at once)."""
    server.pages["/echo"] = """<!doctype html><title>Echo</title><main>
<label>Code <input name=code></label><button onclick="document.getElementById('o').textContent
= 'Code: ' + document.querySelector('input').value">Show</button><p id=o></p></main>"""
    recipe = tmp_path / "echo.yaml"
    act = {"complete": False, "message": "m", "actions": [
        {"tool": "type", "parameters": {"element_id": "input-0", "value": "{code}"}},
        {"tool": "click", "parameters": {"element_id": "button-0"}}]}
    cite = {"complete": True, "message": "shown", "evidence": [
        {"expect": "text", "text": "Code: {code}"}, {"expect": "text", "text": "Nowhere"}]}
    llm = ScriptedLLM([act, cite, cite, cite, cite])
    with pytest.raises(pytest.fail.Exception) as failed:
        with open_webtask(page, recipe, "record", base_url=server.url, llm=llm, timeout=1.5,
                          profile="standard", max_steps=3) as webtask:
            webtask.goto("/echo")
            webtask.do("type the code {code} and show it", secrets={"code": "s3cr3t-77"})
    assert "a claim holds a secret's value" in llm.prompts[2]
    assert "do not hold on the page now" in llm.prompts[2]  # every problem at once
    assert "s3cr3t-77" not in str(failed.value) and not recipe.exists()
    assert all("s3cr3t-77" not in p for p in llm.prompts)


def test_advice_is_said_once_and_a_done_after_it_records_marked_doubted(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """``show-only`` reads the task's word "only": the count text proves the list changed,
    not that the rest is gone. Said once; the same done again records, the recipe and
    the step marked, and the replay still fails on a broken filter (the count text)."""
    recipe = tmp_path / "orders.yaml"
    llm = _record(page, server, recipe, [FILTER, COUNT_TEXT, COUNT_TEXT])
    assert "read this advice" in llm.prompts[2] and "show-only" in llm.prompts[2]
    assert "doubted:\n  - show-only" in recipe.read_text().replace("- - ", "  - ") or \
        "show-only" in recipe.read_text()
    assert "doubted" in recipe.read_text()
    server.pages["/orders"] = orders_page("", broken=True)
    with pytest.raises(pytest.fail.Exception) as failed:
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as wt:
            wt.goto("/orders")
            wt.do(TASK)
    assert "Showing 3 of 6 orders" in str(failed.value)


def test_the_same_proof_without_only_draws_no_advice(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "orders.yaml"
    llm = _record(page, server, recipe, [FILTER, COUNT_TEXT, COUNT_TEXT],
                  task="filter the orders by the Pending status")
    # the count text shows no "Pending" outside the dropdown: that advice, not show-only
    assert "chosen-uncited" in llm.prompts[2] and "show-only" not in llm.prompts[2]
    assert "show-only" not in recipe.read_text() and "chosen-uncited" in recipe.read_text()


def test_standard_keeps_the_model_s_messages_in_the_history_small_drops_them(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    standard = _record(page, server, tmp_path / "a.yaml", [FILTER, EACH])
    small = _record(page, server, tmp_path / "b.yaml", [FILTER, EACH], profile="small",
                    rules_off="act-first")
    said = "Message: I choose Pending and apply the filter."
    assert said in standard.prompts[1]
    assert said not in small.prompts[1]


def test_profiles_are_named_and_standard_switches_the_small_rules_off() -> None:
    assert Policy(profile="standard").off >= SMALL
    assert not Policy(profile="small").off
    assert Policy(profile="small").on("task-lines") and not Policy(
        profile="standard").on("task-lines")
    with pytest.raises(ConfigurationError, match="standard, small"):
        Policy(profile="tiny")


def test_the_standard_profile_never_calls_the_small_profile_s_rules(
        page: Page, server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every function of ``agent.small`` the step agent holds raises: a standard recording
    (a choice, a click, a refused done, then an honest one) never reaches one."""
    from pytest_webtask.agent._sync import agent as step_agent
    from pytest_webtask.agent._sync import small

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the standard profile called a small-profile rule")

    held = 0
    for module in (step_agent, small):  # the readings of agent/small the agent holds
        for name in dir(module):
            if getattr(getattr(module, name), "__module__", "").startswith(
                    "pytest_webtask.agent.small"):
                monkeypatch.setattr(module, name, never)
                held += 1
    for cls in (small.SmallExecuter, small.SmallAgent):  # and the rules themselves
        for name, value in list(vars(cls).items()):
            if callable(value) and name not in ("_ask", "_done", "_typed", "_acted"):
                monkeypatch.setattr(cls, name, never)
                held += 1
    assert held > 30
    llm = _record(page, server, tmp_path / "orders.yaml", [FILTER, DROPDOWN_SAYS, EACH])
    assert len(llm.prompts) == 3 and "each" in (tmp_path / "orders.yaml").read_text()
    with pytest.raises(AssertionError, match="small-profile rule"):
        _record(page, server, tmp_path / "small.yaml", [FILTER, EACH], profile="small")


TOAST = """<!doctype html><title>Tasks</title><main><h1>Tasks</h1>
<button onclick="TOAST_JS">Save</button><div role="status" id="s"></div></main>"""
SHOWS = ("const s = document.getElementById('s'); s.textContent = 'Task saved'; "
         "setTimeout(() => s.textContent = '', 2000)")


def _slow(replies: list[tuple[float, dict[str, Any]]]) -> ScriptedLLM:
    """A model that takes its time over some replies (seconds, reply): the toast is gone
    when it answers."""
    import time

    def reply(context: Any) -> dict[str, Any]:
        delay, said = replies.pop(0)
        time.sleep(delay)
        return said
    return ScriptedLLM(reply)


def test_a_message_that_faded_while_the_model_read_holds_as_read_and_replays_live(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """``claims-hold`` reads the page now; a page text the request's page state showed and
    the page no longer shows (a toast that faded while a slow model read) holds as read,
    and every replay checks it right after the step: it fails where the toast never
    shows."""
    recipe = tmp_path / "toast.yaml"
    save = {"complete": False, "message": "m", "actions": [
        {"tool": "click", "parameters": {"element_id": "button-0"}}]}
    saved = {"complete": True, "message": "saved", "evidence": [
        {"expect": "text", "text": "Task saved"}]}
    server.pages["/t"] = TOAST.replace("TOAST_JS", SHOWS)
    slow = _slow([(0, save), (0, saved), (2.5, saved)])  # the check's reply after 2.5 s
    with open_webtask(page, recipe, "record", base_url=server.url, llm=slow, timeout=1.5,
                      profile="standard") as webtask:
        webtask.goto("/t")
        webtask.do("click Save")
        webtask.check("a message says Task saved")
    assert "Task saved" in recipe.read_text()
    with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as webtask:
        webtask.goto("/t")
        webtask.do("click Save")
        webtask.check("a message says Task saved")
    server.pages["/t"] = TOAST.replace("TOAST_JS", "1")  # the bug: no message
    with pytest.raises(pytest.fail.Exception) as failed:
        with open_webtask(page, recipe, "replay", base_url=server.url, timeout=1.5) as wt:
            wt.goto("/t")
            wt.do("click Save")
            wt.check("a message says Task saved")
    assert "Task saved" in str(failed.value)
    # a text the page state never showed is refused, as any claim that does not hold
    never = {"complete": True, "message": "saved", "evidence": [
        {"expect": "text", "text": "Task stored"}]}
    with pytest.raises(pytest.fail.Exception, match="do not hold on the page now"):
        with open_webtask(page, tmp_path / "never.yaml", "record", base_url=server.url,
                          llm=ScriptedLLM([never, never]), timeout=1.5,
                          profile="standard") as webtask:
            webtask.goto("/t")
            webtask.check("a message says Task saved")


def test_the_small_profile_names_the_each_claim_the_page_bears_out_after_show_only(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """``only-hint`` (small): the show-only advice comes with the each claims a list of the
    page bears out now; on a filter that lists everything, none is named."""
    llm = _record(page, server, tmp_path / "a.yaml", [FILTER, COUNT_TEXT, EACH],
                  profile="small", rules_off="act-first")
    assert '{"expect": "each", "within": "table-0", "text": "Pending", "match": ' \
           '"contains"}' in llm.prompts[2]
    from pytest_webtask.agent.small.hints import each_candidates
    assert each_candidates(
        '- table-0\n  - tr\n    - td "A-101"\n    - td "Pending"\n  - tr\n    - td "A-102"'
        '\n    - td "Shipped"', "show only the pending orders") == []


def test_own_state_counts_inside_an_acted_element_only_for_a_form_control() -> None:
    """``own-state``'s element identity: the element an action set, or inside it when it is a
    form control (a dropdown's chosen option); a text inside a clicked container (a card, a
    list item) is what the click made appear, not the control's own state."""
    from types import SimpleNamespace

    from pytest_webtask.agent.verify import _same

    def fp(xpath: str, tag: str = "", frame: tuple[str, ...] = ()) -> Any:
        return SimpleNamespace(xpath=xpath, tag=tag, frame=list(frame))

    select = fp("/html/body/main/form/select", "select")
    assert _same(fp("/html/body/main/form/select"), select)
    assert _same(fp("/html/body/main/form/select/option[2]"), select)
    card = fp("/html/body/main/ul/li[2]", "li")
    assert _same(fp("/html/body/main/ul/li[2]"), card)
    assert not _same(fp("/html/body/main/ul/li[2]/p"), card)
    assert not _same(fp("/html/body/main/form/select", frame=("iframe",)), select)


def test_the_only_hint_reads_the_cards_beside_a_heading() -> None:
    """``only-hint``'s list: the children of the one kind two or more are of, a heading
    beside them aside; one card without the word names nothing."""
    from pytest_webtask.agent.small.hints import each_candidates

    section = ('- section-0\n  - h2 "Jackets"\n  - article\n    - h3 "Green Field Jacket"\n'
               '  - article\n    - h3 "Navy Rain Jacket"')
    assert each_candidates(section, "show only the jackets") == [
        '{"expect": "each", "within": "section-0", "text": "Jacket", "match": "contains"}']
    mixed = section + '\n  - article\n    - h3 "Black Denim Jeans"'
    assert each_candidates(mixed, "show only the jackets") == []
