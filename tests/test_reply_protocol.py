"""What a small model is sent and how its replies are held to the page (issue 35): a reply
schema made for each request, what the last actions changed with the question asked first,
ids from another page refused, and a successful action repeated on a page it did not change
stopped. The model is a script or the fake OpenAI-compatible server; the page is real."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent, OpenAILLM
from pytest_webtask.llm.prompts import get_prompt
from pytest_webtask.testing import FakeOpenAIServer, ScriptedLLM
from tests.server import LocalServer

SEARCH = """<!doctype html><title>Shop</title>
<form action="/search"><input name="q" aria-label="Search"><button>Search</button></form>
<ul id="results"></ul>
<script>
const q = new URLSearchParams(location.search).get("q");
if (q) {
  document.querySelector("input").value = q;
  for (const name of ["Linen Shirt", "Linen Trousers"])
    if (name.toLowerCase().includes(q.toLowerCase()))
      document.querySelector("#results").insertAdjacentHTML("beforeend", `<li>${name}</li>`);
}
</script>"""

COUNTER = """<!doctype html><title>Counter</title>
<p>Count: <span id="n">0</span></p>
<button onclick="n.textContent = +n.textContent + 1">Add one</button>"""

SEARCH_LINEN = [{"tool": "fill", "parameters": {"element_id": "input-0", "value": "linen"}},
                {"tool": "click", "parameters": {"element_id": "button-0"}}]
DONE = {"complete": True, "message": "done", "evidence": [{"expect": "text",
                                                           "text": "Linen Shirt"}]}


def todo(actions: list[dict[str, Any]], message: str = "searching") -> dict[str, Any]:
    return {"complete": False, "message": message, "actions": actions}


def page_ids(prompt: str) -> set[str]:
    """The element ids of the page state in a prompt."""
    state = prompt.split("Current Page State:")[-1]
    return set(re.findall(r"^\s*- ([a-z][a-z0-9]*-\d+)\b", state, flags=re.M))


def enums(schema: Any, key: str) -> list[list[str]]:
    """Every enum given for property ``key`` anywhere in ``schema``."""
    found: list[list[str]] = []
    if isinstance(schema, dict):
        for name, value in schema.items():
            if name == "properties" and isinstance(value, dict) and key in value:
                found.append(value[key].get("enum") or [value[key].get("const")])
            found.extend(enums(value, key))
    elif isinstance(schema, list):
        for value in schema:
            found.extend(enums(value, key))
    return found


def clickable(schema: dict[str, Any]) -> set[str]:
    """The ids a reply schema offers the click tool."""
    todo = next(b for b in schema["anyOf"] if "actions" in b["properties"])
    tools = todo["properties"]["actions"]["items"]["anyOf"]
    click = next(t for t in tools if t["properties"]["tool"] == {"const": "click"})
    return set(click["properties"]["parameters"]["properties"]["element_id"]["enum"])


def serve(server: LocalServer) -> str:
    server.pages["/search"] = SEARCH
    server.pages["/counter"] = COUNTER
    return server.url


def test_each_request_carries_a_schema_of_the_page_ids_and_the_tools(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    with FakeOpenAIServer([todo(SEARCH_LINEN), DONE]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="none")
        result = Agent(page, llm).execute("search for linen")
    assert result.completed, result.message
    assert len(fake.requests) == 2
    for request in fake.requests:
        fmt = request["response_format"]
        assert fmt["type"] == "json_schema"
        schema = fmt["json_schema"]["schema"]
        prompt = request["messages"][-1]["content"]
        ids = page_ids(prompt)
        assert {"input-0", "button-0", "form-0"} <= ids
        # every id field (an action's target, a claim's element or container) offers exactly
        # the ids of the page state sent with it
        for field in ("element_id", "to_element_id", "element", "within"):
            for offered in enums(schema, field):
                assert set(offered) == ids, field
        # after the task, the lines that hold its words: the search box and its button
        said = prompt.split("The task: search for linen")[1]
        assert "Lines of the page state above that hold words of it:" in said
        assert 'button-0 "Search" (in form-0)' in said
        tools = {t[0] for t in enums(schema, "tool")}
        assert {"navigate", "click", "fill", "select", "press"} <= tools
        assert "upload" not in tools  # a task without resources has no upload tool
        assert "find" not in tools  # the page state is whole: `find-cut`
    # the second page has list items the first did not: its schema offers them
    second = page_ids(fake.requests[1]["messages"][-1]["content"])
    assert second - page_ids(fake.requests[0]["messages"][-1]["content"])


LONG = "<h1>Rows</h1><ul>" + "".join(
    f"<li>Row {n} <button>Pick</button></li>" for n in range(400)) + "</ul>"


def _tools_offered(llm: ScriptedLLM) -> set[str]:
    schema = llm.calls[0].context.response_schema
    return {t[0] for t in enums(schema, "tool")}


def test_find_is_offered_only_where_the_page_state_is_cut(page: Page) -> None:
    """`find-cut`: on a page state shown whole, find is not offered (every element it could
    name is on its line with its id); on one cut to the viewport's part for its size, it is;
    with the rule off, always. The request's schema is what keeps a model from calling it
    (a server that honours `json_schema`, as llama.cpp's does, holds its reply to it)."""
    page.set_content(LONG)
    cut = ScriptedLLM([{"complete": True, "message": "done"}] * 2)
    Agent(page, cut, page_chars=4000).execute("pick row 377", max_steps=1)
    assert "truncated" in cut.prompts[0] or "more " in cut.prompts[0]
    assert page.evaluate("document.querySelectorAll('li').length") == 400
    assert "find" in _tools_offered(cut)
    page.set_content("<h1>Rows</h1><ul><li>Row 1 <button>Pick</button></li></ul>")
    whole = ScriptedLLM([{"complete": True, "message": "done"}] * 2)
    result = Agent(page, whole).execute("pick row 1", max_steps=1)
    assert "find" not in _tools_offered(whole)
    assert {"click", "fill"} <= _tools_offered(whole)
    assert "find-cut" in result.steps[0].rules
    off = ScriptedLLM([{"complete": True, "message": "done"}] * 2)
    Agent(page, off, rules_off=("find-cut",)).execute("pick row 1", max_steps=1)
    assert "find" in _tools_offered(off)


def test_hover_is_not_offered_after_a_hover_that_changed_nothing(page: Page) -> None:
    """`hover-futile`: a small model hovered tabs and fields it meant to click, told each time
    that the page did not change. After a hover that changed nothing, hover is not offered
    for the rest of the task; a hover that shows something (a menu) keeps it, and so does a
    task that asks to hover; with the rule off, always offered."""
    tabs = ('<style>#menu { display: none } nav:hover #menu { display: block }</style>'
            '<nav><a href="#" id="top">Products</a><ul id="menu"><li><a href="#p">Pens</a>'
            '</li></ul></nav><button onclick="this.textContent=\'Tab 2 open\'">Tab 2</button>')

    def hover(element_id: str) -> dict[str, Any]:
        return {"complete": False, "message": "m", "actions": [
            {"tool": "hover", "parameters": {"element_id": element_id}}]}

    def offered(llm: ScriptedLLM, call: int) -> set[str]:
        return {t[0] for t in enums(llm.calls[call].context.response_schema, "tool")}

    done = {"complete": True, "message": "done"}
    page.set_content(tabs)
    llm = ScriptedLLM([hover("button-0"), done, done])
    result = Agent(page, llm).execute("open Tab 2", max_steps=2)
    assert "hover" in offered(llm, 0) and "hover" not in offered(llm, 1)
    assert {"click", "fill"} <= offered(llm, 1)
    assert "hover-futile" in result.steps[1].rules and "hover-futile" not in result.steps[0].rules
    # a hover that shows the menu changed the page: still offered
    page.set_content(tabs)
    llm = ScriptedLLM([hover("nav-0"), done, done])
    Agent(page, llm).execute("open Pens from the Products menu", max_steps=2)
    assert "Pens" in llm.prompts[1] and "hover" in offered(llm, 1)
    # a task that asks to hover, or the rule off
    for task, off in (("hover over Tab 2", ()), ("open Tab 2", ("hover-futile",))):
        page.set_content(tabs)
        llm = ScriptedLLM([hover("button-0"), done, done])
        Agent(page, llm, rules_off=off).execute(task, max_steps=2)
        assert "hover" in offered(llm, 1), task


def test_the_stable_part_comes_first_and_is_the_same_for_every_step(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    llm = ScriptedLLM([todo(SEARCH_LINEN), DONE])
    Agent(page, llm).execute("search for linen")
    first, second = (c.context for c in llm.calls)
    assert first.system == second.system
    assert "Tool: click" in first.system and "Tool: fill" in first.system
    assert "Tool: click" not in first.user_text
    # the user message opens with the task, and the page state comes after the history
    for ctx in (first, second):
        text = ctx.user_text
        assert text.startswith("Task:\nsearch for linen")
        assert text.index("Step History:") < text.index("Current Page State:")


def test_after_actions_the_request_says_what_changed_and_asks_first_if_done(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    noop = [{"tool": "scroll", "parameters": {"direction": "down"}}]
    llm = ScriptedLLM([todo(SEARCH_LINEN), todo(noop), DONE])
    result = Agent(page, llm).execute("search for linen")
    assert result.completed, result.message
    first, second, third = (c.context.user_text for c in llm.calls)
    assert "Reply with the actions that do it on the page above." in first
    assert "What your last actions did" not in first
    changed = second.split("What your last actions did")[1]
    assert re.search(r"URL: \S+/search -> \S+/search\?q=linen", changed)
    assert re.search(r'New on the page:\n(  .*\n)*  - li "Linen Shirt"\n', changed), changed
    assert 'Gone from the page:\n  - input (type="text" name="q" aria-label="Search")' in changed
    assert "Answer first: is the task done now" in changed
    # it comes last, after the page state
    assert second.index("What your last actions did") > second.index("Current Page State:")
    assert "The page did not change at all" in third.split("What your last actions did")[1]
    # the history keeps one line per step of what the page did
    assert "Page: the page changed: URL" in third
    assert "Page: the page did not change" in third


def test_an_id_from_an_earlier_page_is_refused_with_the_ids_there_are_now(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/counter")
    # button-5 never existed here; a-0 was never on this page either
    llm = ScriptedLLM([todo([{"tool": "click", "parameters": {"element_id": "button-5"}}]),
                       {"complete": True, "message": "done", "evidence": ["button-0"]}])
    result = Agent(page, llm).execute("press the add button")
    error = result.steps[0].executions[0].error
    assert not result.steps[0].executions[0].success
    assert "Unknown element id 'button-5'" in error
    assert "Ids it has of that kind: button-0." in error
    assert page.text_content("#n") == "0"  # nothing was clicked
    assert "Unknown element id 'button-5'" in llm.prompts[1]


SUBMIT = [{"tool": "click", "parameters": {"element_id": "button-0"}}]


def test_a_successful_action_repeated_on_a_page_it_did_not_change_is_stopped(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    with FakeOpenAIServer([todo(SEARCH_LINEN)] + [todo(SUBMIT)] * 5) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="none")
        searches: list[str] = []
        page.on("request", lambda r: searches.append(r.url) if "q=linen" in r.url else None)
        result = Agent(page, llm).execute("search for linen", max_steps=6)
    assert not result.completed
    # the search ran twice (the second time changed nothing); the third time was refused,
    # asked once more with that fact, and the same reply again ended the task
    assert len(searches) == 2
    assert len(fake.requests) == 4
    prompts = [r["messages"][-1]["content"] for r in fake.requests]
    assert "These already ran and succeeded, and the page did not" in prompts[3]
    assert result.message.startswith("Stopped: the model asked twice more for actions that "
                                     "had already run, succeeded and changed nothing")
    assert "click {'element_id': 'button-0'}" in result.message
    # from the request after the futile click on, the schema no longer offers it to click
    offered = [clickable(r["response_format"]["json_schema"]["schema"]) for r in fake.requests]
    assert "button-0" in offered[0] and "button-0" in offered[1]
    assert "button-0" not in offered[2] and "button-0" not in offered[3]
    assert "input-0" in offered[2]  # what was not tried still is
    assert "Tried on this page without changing it, not offered again until the page " \
        "changes: click button-0." in prompts[2]


def test_a_click_whose_confirm_was_dismissed_stays_offered_with_the_dialog_s_answer(
        page: Page, server: LocalServer) -> None:
    """The step history tells the model to answer the dialog, then click again: the click
    is not taken out of the schema as one that changed nothing (it was, and a model held to
    the schema could not do what it was told); sent alone again, it is still refused."""
    page.goto(server.url + "/toggles.html")

    def delete(prompt: str) -> str:
        button = re.search(r'- (button-\d+) .*"Delete Alpha"', prompt)
        assert button, prompt
        return button[1]

    def reply(context: Any) -> dict[str, Any]:
        n = len(llm.calls)
        if n > 3:
            return {"complete": True, "message": "Alpha is gone", "evidence": [
                {"expect": "hidden", "text": "Alpha"},
                {"expect": "text", "text": "1 list left"}]}
        click = {"tool": "click", "parameters": {"element_id": delete(context.to_text())}}
        if n <= 2:  # the click, its confirm dismissed; then the same click alone
            return todo([click])
        return todo([{"tool": "dialog", "parameters": {"accept": True}}, click])

    llm = ScriptedLLM(reply)
    result = Agent(page, llm).execute("delete the list Alpha", max_steps=6)
    assert result.completed, result.message
    assert page.locator("#lists li").count() == 1
    prompts = llm.prompts
    assert "dismissed, as no answer was set beforehand" in prompts[1], prompts[1]
    assert "not offered again" not in prompts[1]
    assert "These already ran and succeeded, and the page did not" in prompts[2]
    for call in llm.calls[:3]:
        schema = call.context.response_schema
        assert schema is not None and delete(call.prompt) in clickable(schema)

    # a cancel asked for (the dialog dismissed as set): the click is not called futile either
    page.goto(server.url + "/toggles.html")

    def answered(context: Any) -> dict[str, Any]:
        if len(cancel.calls) > 1:
            return {"complete": True, "message": "Alpha is kept", "evidence": [
                {"expect": "text", "text": "2 lists left"}]}
        return todo([{"tool": "dialog", "parameters": {"accept": False}},
                     {"tool": "click", "parameters": {"element_id": delete(context.to_text())}}])

    cancel = ScriptedLLM(answered)
    kept = Agent(page, cancel).execute("start deleting the list Alpha and cancel it")
    assert kept.completed, kept.message
    assert "dismissed, as the dialog tool set beforehand" in cancel.prompts[1]
    assert "not offered again" not in cancel.prompts[1]


def test_a_field_already_holding_the_text_is_not_typed_into_again(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search?q=linen")
    typed = [{"tool": "type", "parameters": {"element_id": "input-0", "value": "linen"}}]
    # asked once about "done": the task names the Search button, which nothing clicked
    llm = ScriptedLLM([todo(typed), DONE, DONE])
    result = Agent(page, llm).execute("search for linen")
    error = result.steps[0].executions[0].error
    assert error.startswith("input-0 already holds 'linen': type it again would not help,")
    assert page.input_value("input") == "linen"


def test_a_value_held_already_is_not_typed_again_and_the_replys_next_actions_run(
        page: Page, server: LocalServer) -> None:
    """The model types "linen" again into the box that holds it, then presses Search: the
    typing is not run (it would add "linen" twice), the press is. An earlier typing into
    the same field in the same reply runs the next one."""
    page.goto(serve(server) + "/search")
    page.fill("input", "linen")  # typed, not sent: no results yet
    again = [{"tool": "type", "parameters": {"element_id": "input-0", "value": "linen"}},
             {"tool": "click", "parameters": {"element_id": "button-0"}}]
    result = Agent(page, ScriptedLLM([todo(again), DONE])).execute("search for linen")
    held, pressed = result.steps[0].executions
    assert not held.success and str(held.error).startswith(
        "input-0 already holds 'linen': type it again would not help, so it was not run;")
    assert pressed.success and result.steps[0].note is None
    assert result.completed and page.input_value("input") == "linen"
    assert "Linen Shirt" in page.content()
    # the same field emptied first in the reply: the typing after it runs
    page.goto(server.url + "/search")
    page.fill("input", "linen")
    refill = [{"tool": "fill", "parameters": {"element_id": "input-0", "value": ""}},
              {"tool": "type", "parameters": {"element_id": "input-0", "value": "linen"}},
              {"tool": "click", "parameters": {"element_id": "button-0"}}]
    result = Agent(page, ScriptedLLM([todo(refill), DONE])).execute("search for linen")
    assert all(e.success for e in result.steps[0].executions), result.steps[0].executions
    assert page.input_value("input") == "linen"


def test_a_refused_repeat_that_reports_done_completes(page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    llm = ScriptedLLM([todo(SEARCH_LINEN), todo(SUBMIT), todo(SUBMIT), DONE])
    result = Agent(page, llm).execute("search for linen")
    assert result.completed, result.message
    assert len(llm.calls) == 4


def test_an_action_that_changes_the_page_each_time_may_repeat(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/counter")
    click = [{"tool": "click", "parameters": {"element_id": "button-0"}}]
    llm = ScriptedLLM([todo(click)] * 4 + [{"complete": True, "message": "done",
                                            "evidence": [{"expect": "text", "text": "4"}]}])
    result = Agent(page, llm).execute("add one four times")
    assert result.completed, result.message
    assert page.text_content("#n") == "4"


def test_the_page_state_fits_the_context_the_server_says_the_model_has(
        page: Page, server: LocalServer) -> None:
    rows = "".join(f"<tr><td>Ticket {i}</td><td><button>Close {i}</button></td></tr>"
                   for i in range(300))
    server.pages["/long"] = f"<!doctype html><title>Tickets</title><table>{rows}</table>"
    page.goto(server.url + "/long")
    done = {"complete": True, "message": "done", "evidence": ["button-0"]}
    sizes = {}
    for window in (None, 8192):
        props = {"default_generation_settings": {"n_ctx": window}} if window else None
        with FakeOpenAIServer([done], props=props) as fake:
            llm = OpenAILLM("m", base_url=fake.base_url, api_key="none", max_tokens=1024)
            Agent(page, llm).execute("close ticket 1")
            state = fake.requests[0]["messages"][-1]["content"].split("Current Page State:")[-1]
            sizes[window] = len(state.split("\n---\n")[0])
    # 8,192 tokens: less 1,024 for the reply and 4,000 for the rest, 3 characters a token
    assert sizes[8192] <= (8192 - 1024 - 4000) * 3 < sizes[None]


def test_a_timed_out_call_is_counted_in_the_agents_usage(
        page: Page, server: LocalServer) -> None:
    from pytest_webtask import LLMError
    from pytest_webtask.testing import Fault

    page.goto(serve(server) + "/search")
    with FakeOpenAIServer([Fault.slow(5.0)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="none", timeout=0.5)
        agent = Agent(page, llm)
        try:
            agent.execute("search for linen")
        except LLMError as exc:
            assert "did not answer within 0.5s" in str(exc)
        else:
            raise AssertionError("the timeout was not reported")
    assert len(fake.requests) == 1  # a timed-out generation is not sent again
    assert agent.usage.timeouts == 1
    assert agent.usage.seconds >= 0.5


def may_give_up(request: dict[str, Any]) -> bool:
    schema = request["response_format"]["json_schema"]["schema"]
    return any("impossible" in branch["properties"] for branch in schema["anyOf"])


def test_a_task_may_be_given_up_only_once_something_was_tried(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    with FakeOpenAIServer([todo(SEARCH_LINEN), DONE]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="none")
        assert Agent(page, llm).execute("search for linen").completed
    assert [may_give_up(r) for r in fake.requests] == [False, True]
    assert [may_finish(r) for r in fake.requests] == [False, True]
    # a check's statement may be false at first sight
    check = get_prompt("agent/proposer", "check_task").format(statement="it is empty")
    with FakeOpenAIServer([DONE]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="none")
        Agent(page, llm).execute(check)
    assert may_give_up(fake.requests[0])


def may_finish_context(call: Any) -> bool:
    """Does a ScriptedLLM call's reply schema offer calling the task done?"""
    return any("evidence" in b["properties"] for b in call.context.response_schema["anyOf"])


def may_finish(request: dict[str, Any]) -> bool:
    schema = request["response_format"]["json_schema"]["schema"]
    return any("evidence" in branch["properties"] for branch in schema["anyOf"])


def test_a_task_called_done_at_first_sight_is_asked_to_act_or_give_up(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    with FakeOpenAIServer([DONE, todo(SEARCH_LINEN), DONE]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="none")
        result = Agent(page, llm).execute("search for linen")
    assert result.completed, result.message
    prompts = [r["messages"][-1]["content"] for r in fake.requests]
    assert "You said the task is done, but nothing has been done yet" in prompts[1]
    # first: act (a do task acts first; a model that says done anyway is asked again); asked
    # again: act, or give up (saying the page already shows it); after acting: anything
    assert [(may_finish(r), may_give_up(r)) for r in fake.requests] == \
        [(False, False), (False, True), (True, True)]


def test_evidence_that_was_on_the_page_before_the_task_is_asked_about_once(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    stale = {"complete": True, "message": "searched", "evidence": [
        {"expect": "text", "text": "Search"}]}
    llm = ScriptedLLM([todo(SEARCH_LINEN), stale, DONE])
    result = Agent(page, llm, require_evidence=True).execute("search for linen")
    assert result.completed, result.message
    assert len(llm.calls) == 3
    assert "Your evidence ('Search') was on the page before you acted" in llm.prompts[2]
    # what is new since the task began, to cite instead
    assert ('Texts on the page now that were not there before the task: "Linen Shirt", '
            '"Linen Trousers".') in llm.prompts[2]
    assert result.evidence[0].spec.text == "Linen Shirt"


TABS = """<!doctype html><title>Tabs</title>
<a href="/counter" target="_blank">Open the counter</a>"""


def test_tab_tools_are_offered_only_while_another_tab_is_open(
        page: Page, server: LocalServer) -> None:
    serve(server)
    server.pages["/tabs"] = TABS
    page.goto(server.url + "/tabs")
    opened = {"complete": True, "message": "the counter is open",
              "evidence": [{"expect": "text", "text": "Count"}]}
    llm = ScriptedLLM([todo([{"tool": "click", "parameters": {"element_id": "a-0"}}]),
                       opened])
    result = Agent(page, llm).execute("open the counter")
    assert result.completed, result.message
    first, second = ({t[0] for t in enums(c.context.response_schema, "tool")}
                     for c in llm.calls)
    # one tab: "tab" in a task means a tab on the page, not switch_tab
    assert "click" in first and not {"switch_tab", "close_tab"} & first
    assert {"switch_tab", "close_tab", "click"} <= second


FILLED = {"complete": True, "message": "typed", "evidence": [
    {"expect": "value", "element": "input-0", "value": "linen"}]}
FILL = [{"tool": "fill", "parameters": {"element_id": "input-0", "value": "linen"}}]


def test_done_after_only_filling_a_field_is_asked_about_once(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    # asked, the model sends the search: the recording has the click
    llm = ScriptedLLM([todo(FILL), FILLED, todo(SUBMIT), DONE])
    result = Agent(page, llm).execute("search for linen")
    assert result.completed, result.message
    assert len(llm.calls) == 4
    # only a field changed, and the task names the Search button no action clicked
    assert ('Your last actions only changed what fields hold: the page shows no result of '
            'them yet.\nThe task names button-0 "Search": no action of yours clicked it yet. '
            'input-0 is in form-0, which button-0 "Search" sends: nothing changes on the page '
            'until it is pressed. If the task asks for something the page should show') \
        in llm.prompts[2]
    assert "q=linen" in page.url
    # the field filled and the Search the task names never pressed: acting is the only
    # answer the question offers; elsewhere, "done" is offered
    assert [may_finish_context(c) for c in llm.calls] == [False, True, False, True]
    # a task that only fills: the second "done" stands, asked no more
    page.goto(server.url + "/search")
    llm = ScriptedLLM([todo(FILL), FILLED, FILLED])
    result = Agent(page, llm).execute("type linen in the search box")
    assert result.completed, result.message
    assert len(llm.calls) == 3
    assert "q=linen" not in page.url


def test_a_task_given_up_after_acting_is_asked_about_once(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    give_up = {"complete": False, "impossible": True, "message": "no shirt"}
    llm = ScriptedLLM([todo(FILL), give_up, todo(SUBMIT), DONE])
    result = Agent(page, llm).execute("search for linen")
    assert result.completed, result.message
    # the form's button the task names ("search"), never pressed, is said first
    assert ('You said the task cannot be done. The task names button-0 "Search", which is on '
            "the page and which no action of yours clicked yet. Read the task again") \
        in llm.prompts[2]
    # the second "impossible" stands, and a third later one is not asked about again
    page.goto(server.url + "/search")
    llm = ScriptedLLM([todo(FILL), give_up, give_up])
    result = Agent(page, llm).execute("search for wool")
    assert result.impossible and not result.completed
    assert len(llm.calls) == 3


COLLAPSIBLE = """<!doctype html><title>Section</title>
<details><summary>Section #1</summary><p>Body</p></details>
<button onclick="this.textContent = 'Sent'">Submit</button>"""


def test_done_while_a_button_the_task_names_was_not_clicked_is_asked_about_once(
        page: Page, server: LocalServer) -> None:
    server.pages["/section"] = COLLAPSIBLE
    page.goto(server.url + "/section")
    opened = {"complete": True, "message": "opened", "evidence": [
        {"expect": "text", "text": "Body"}]}
    sent = {"complete": True, "message": "sent", "evidence": [
        {"expect": "text", "text": "Sent"}]}
    expand = [{"tool": "click", "parameters": {"element_id": "summary-0"}}]
    submit = [{"tool": "click", "parameters": {"element_id": "button-0"}}]
    llm = ScriptedLLM([todo(expand), opened, todo(submit), sent])
    result = Agent(page, llm).execute("expand the section and click submit")
    assert result.completed, result.message
    assert 'The task names button-0 "Submit": no action of yours clicked it' in llm.prompts[2]
    # that question offers acting only: a small model called it done again, twice
    schema = json.dumps(llm.calls[2].context.response_schema)
    assert '"complete": {"const": true}' not in schema and '"actions"' in schema
    assert '"complete": {"const": true}' in json.dumps(llm.calls[1].context.response_schema)
    assert page.locator("button").inner_text() == "Sent"
    # once clicked, a button is not asked about: clicking it is what "done" follows
    assert len(llm.calls) == 4


def test_done_on_fields_only_is_asked_before_evidence_and_may_not_be_given_up(
        page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/search")
    wrong = {"complete": True, "message": "filtered", "evidence": [
        {"expect": "text", "text": "Wool Coat"}]}
    with FakeOpenAIServer([todo(FILL), wrong, wrong, todo(SUBMIT), DONE]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key="none")
        result = Agent(page, llm, require_evidence=True).execute("search for linen")
    assert result.completed, result.message
    prompts = [r["messages"][-1]["content"] for r in fake.requests]
    # first what was left undone (only a field changed), then the claim that does not hold
    assert "Your last actions only changed what fields hold" in prompts[2]
    assert "does not hold" not in prompts[2]
    assert "these claims do not hold on the page now" in prompts[3]
    # neither question offers giving the task up: it was called done
    assert [may_give_up(r) for r in fake.requests[2:4]] == [False, False]


PAGES = """<!doctype html><title>Products</title>
<p>Page 1</p><a href="/pages?page=2">Next page</a>"""


def test_a_link_the_task_names_is_not_asked_about_the_page_may_be_reached_otherwise(
        page: Page, server: LocalServer) -> None:
    server.pages["/pages"] = PAGES
    page.goto(server.url + "/pages")
    went = {"complete": True, "message": "on page 2", "evidence": [
        {"expect": "url", "path": "/pages", "query": {"page": "2"}}]}
    llm = ScriptedLLM([todo([{"tool": "navigate", "parameters": {"url": "/pages?page=2"}}]),
                       went])
    result = Agent(page, llm).execute("go to the next page")
    assert result.completed, result.message
    assert len(llm.calls) == 2  # "Next page" was never clicked: not asked about


SIZES = """<!doctype html><title>Tote</title>
<label>Size <select name="size"><option>One size</option></select></label>
<label>Colour <select name="colour"><option>Red</option><option>Blue</option></select></label>
<label>Note <select name="note">""" + "".join(
    f"<option>A rather long note number {n}</option>" for n in range(12)) + """</select></label>
<label><input type="radio" name="wrap" value="gift"> Gift wrap</label>
<button onclick="out.textContent = 'Added ' + document.querySelector('[name=size]').value">
Add to cart</button><p id="out"></p>"""


def select_branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The parameter schemas a reply schema offers the select tool, one per branch."""
    todo = next(b for b in schema["anyOf"] if "actions" in b["properties"])
    tools = todo["properties"]["actions"]["items"]["anyOf"]
    return [t["properties"]["parameters"] for t in tools
            if t["properties"]["tool"] == {"const": "select"}]


def test_a_dropdown_is_offered_only_its_own_options(page: Page, server: LocalServer) -> None:
    server.pages["/tote"] = SIZES
    page.goto(server.url + "/tote")
    added = {"complete": True, "message": "added", "evidence": [
        {"expect": "text", "text": "Added One size"}]}
    llm = ScriptedLLM([todo([
        {"tool": "select", "parameters": {"element_id": "select-0", "value": "One size"}},
        {"tool": "click", "parameters": {"element_id": "button-0"}}]), added])
    result = Agent(page, llm).execute("add the tote in size S to the cart")
    assert result.completed, result.message
    branches = select_branches(llm.calls[0].context.response_schema)
    values = {tuple(b["properties"]["element_id"]["enum"]): b["properties"]["value"]
              for b in branches}
    # "S" cannot be written where the one size is "One size"; each dropdown its own options
    assert values[("select-0",)] == {"enum": ["One size"]}
    assert values[("select-1",)] == {"enum": ["Red", "Blue"]}
    # a dropdown whose options the page state clipped, and any other target (a select on a
    # radio button means checking it), take any text
    rest = next(ids for ids in values if len(ids) > 1)
    assert "select-2" in rest and "input-0" in rest
    assert not {"select-0", "select-1"} & set(rest)
    assert values[rest] == {"type": "string"}


PANEL = """<!doctype html><title>Tote</title>
<button onclick="panel.hidden = false">Details</button>
<aside id="panel" hidden><p>Category: Accessories</p>
<button onclick="panel.hidden = true">Close details</button></aside>"""


def test_an_action_that_undid_the_step_before_is_said_and_not_offered_there_again(
        page: Page, server: LocalServer) -> None:
    server.pages["/panel"] = PANEL
    page.goto(server.url + "/panel")
    click = [{"tool": "click", "parameters": {"element_id": "button-0"}}]
    close = [{"tool": "click", "parameters": {"element_id": "button-1"}}]
    shown = {"complete": True, "message": "open", "evidence": [
        {"expect": "text", "text": "Category: Accessories"}]}
    llm = ScriptedLLM([todo(click), todo(close), todo(click), shown])
    result = Agent(page, llm).execute("open the details")
    assert result.completed, result.message
    assert "This undid step 1 (click" not in llm.prompts[1]
    assert "This undid step 1 (click" in llm.prompts[2]
    offered = [clickable(c.context.response_schema) for c in llm.calls]
    # the panel open: its close button is offered, until it has undone the step before it
    assert "button-1" in offered[1]
    assert offered[2] == {"button-0"}
    assert "button-1" not in offered[3] and "button-0" in offered[3]
    assert "This undid" not in llm.prompts[3]


def test_a_step_that_changes_the_page_on_is_no_undo(page: Page, server: LocalServer) -> None:
    page.goto(serve(server) + "/counter")
    add = [{"tool": "click", "parameters": {"element_id": "button-0"}}]
    two = {"complete": True, "message": "two", "evidence": [{"expect": "text", "text": "2"}]}
    llm = ScriptedLLM([todo(add), todo(add), two])
    result = Agent(page, llm).execute("add one twice")
    assert result.completed, result.message
    assert not any("This undid" in p for p in llm.prompts)
    assert "button-0" in clickable(llm.calls[2].context.response_schema)


LISTING = """<!doctype html><title>Shop</title>
<article><h2>Canvas Tote Bag</h2><button onclick="panel.hidden = false">Details</button>
</article>
<aside id="panel" hidden><h2>Canvas Tote Bag</h2><p>Category: Accessories</p></aside>"""


def test_a_text_shown_before_but_now_in_what_the_actions_opened_is_evidence(
        page: Page, server: LocalServer) -> None:
    server.pages["/listing"] = LISTING
    page.goto(server.url + "/listing")
    click = [{"tool": "click", "parameters": {"element_id": "button-0"}}]
    # "Canvas Tote Bag" was on the page before the click, but not in the panel it opened
    opened = {"complete": True, "message": "open", "evidence": [
        {"expect": "text", "within": "aside-0", "text": "Canvas Tote Bag"}]}
    llm = ScriptedLLM([todo(click), opened])
    result = Agent(page, llm, require_evidence=True).execute("open the details of the bag")
    assert result.completed, result.message
    assert len(llm.calls) == 2
    # the same text cited on the page at large proves nothing the click did: asked once
    page.goto(server.url + "/listing")
    anywhere = {"complete": True, "message": "open", "evidence": [
        {"expect": "text", "text": "Canvas Tote Bag"}]}
    llm = ScriptedLLM([todo(click), anywhere, opened])
    result = Agent(page, llm, require_evidence=True).execute("open the details of the bag")
    assert result.completed, result.message
    assert "was on the page before you acted" in llm.prompts[2]
