"""The explorer on real pages: it stays inside the origin guard, keeps to each budget,
never submits a destructive form without allow_writes, and types a password only as a
named secret whose value the model never sees.

The scripted models here read the page state they are shown (``read_page_state``) to find
the element ids they name, as a model would."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_webtask import OpenAILLM
from pytest_webtask.explore.explorer import Explorer, ExploreStatus
from pytest_webtask.explore.options import ExploreOptions
from pytest_webtask.explore.planner import plan_flows
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import (
    FakeOpenAIServer,
    ScriptedLLM,
    read_page_state,
    scripted_explorer,
)
from tests.server import LocalServer
from tests.test_openai_llm import KEY

SECRET = "pw-Explore-9d1e-never-shown"


def nodes(context: ModelRequest) -> list[Any]:
    text = next(b.text for b in reversed(context.blocks) if "Current Page State" in b.text)
    return [n for root in read_page_state(text) for n in root.walk()]


def named(context: ModelRequest, text: str) -> str:
    """The id of the control the page state shows with this text or label."""
    for node in nodes(context):
        if node.id and node.label == text and node.tag in ("a", "button", "input", "select",
                                                           "textarea"):
            return str(node.id)
    raise AssertionError(f"the page state shows no {text!r}")


def click(element: str) -> dict[str, Any]:
    return {"tool": "click", "parameters": {"element_id": element}}


def reading(explore: Callable[[ModelRequest], list[dict[str, Any]]],
            forms: Callable[[ModelRequest], list[dict[str, Any]]] = lambda c: []
            ) -> Callable[..., Any]:
    def reply(context: ModelRequest) -> dict[str, Any]:
        return {"title": f"page {context.step}", "purpose": "a test page",
                "forms": forms(context), "explore": explore(context)}
    return reply


def chain_pages(server: LocalServer, count: int) -> None:
    for n in range(count):
        server.pages[f"/p{n}"] = (f"<h1>Page {n}</h1><a href='/p{n + 1}'>Next {n + 1}</a>"
                                  f"<p>Text {n}</p>")


def follow_next(context: ModelRequest) -> list[dict[str, Any]]:
    link = next(n for n in nodes(context) if n.tag == "a" and n.text.startswith("Next"))
    return [{"why": "the next page", "actions": [click(link.id)]}]


# -- the origin guard ---------------------------------------------------------------------


def test_exploring_sends_nothing_to_another_origin(page: Page, server: LocalServer,
                                                   other: LocalServer) -> None:
    server.pages["/start"] = (
        f"<h1>Start</h1><a href='{other.url}/away'>Elsewhere</a>"
        f"<a href='/next'>Next</a>"
        f"<form action='{other.url}/collect' method='post'><input name='q'>"
        "<button>Send</button></form>"
        f"<img src='{other.url}/pixel.png' alt='x'>")
    server.pages["/next"] = (f"<h1>Next</h1><button onclick=\"location='{other.url}/js'\">"
                             "Go</button>")

    def explore(context: ModelRequest) -> list[dict[str, Any]]:
        heading = next(n.text for n in nodes(context) if n.tag == "h1")
        if context.step == 1:
            return [{"why": "another site", "actions": [click(named(context, "Elsewhere"))]},
                    {"why": "the form", "actions": [
                        {"tool": "fill", "parameters": {"element_id": named(context, "q"),
                                                        "value": "hello"}},
                        click(named(context, "Send"))]},
                    {"why": "navigate away", "actions": [
                        {"tool": "navigate", "parameters": {"url": other.url + "/nav"}}]},
                    {"why": "next", "actions": [click(named(context, "Next"))]}]
        if heading == "Next":
            return [{"why": "a script that leaves", "actions": [click(named(context, "Go"))]}]
        return []

    llm = ScriptedLLM({"explore": reading(explore)})
    site = Explorer(page, llm).explore(server.url + "/start")
    assert other.requests == [] and other.posts == []
    # the blocked form post left the page where it was (with the value typed): a state
    assert [p.url for p in site.pages] == [server.url + "/start", server.url + "/start",
                                           server.url + "/next"]
    refused = " ".join(site.pages[0].not_tried)
    assert f"{other.url}/away is outside the allowed origins" in refused
    assert f"{other.url}/nav is outside the allowed origins" in refused
    assert "/start" in server.requests and "/next" in server.requests


def test_an_allowed_origin_is_explored_too(page: Page, server: LocalServer,
                                            other: LocalServer) -> None:
    server.pages["/start"] = f"<h1>Start</h1><a href='{other.url}/docs'>Docs</a>"
    other.pages["/docs"] = "<h1>Docs</h1>"

    def explore(context: ModelRequest) -> list[dict[str, Any]]:
        return [{"why": "docs", "actions": [click(named(context, "Docs"))]}] \
            if context.step == 1 else []

    options = ExploreOptions(allowed_origins=(other.url,))
    site = Explorer(page, ScriptedLLM({"explore": reading(explore)}), options).explore(
        server.url + "/start")
    assert [p.url for p in site.pages] == [server.url + "/start", other.url + "/docs"]


# -- budgets ------------------------------------------------------------------------------


def test_page_budget(page: Page, server: LocalServer) -> None:
    chain_pages(server, 8)
    llm = ScriptedLLM({"explore": reading(follow_next)})
    seen: list[ExploreStatus] = []
    site = Explorer(page, llm, ExploreOptions(max_pages=3),
                    progress=lambda s: seen.append(ExploreStatus(**vars(s)))
                    ).explore(server.url + "/p0")
    assert [p.url for p in site.pages] == [server.url + f"/p{n}" for n in range(3)]
    assert len(llm.calls) == 3
    assert site.stopped == "the budget of 3 pages (--max-pages) is used up."
    assert "/p3" not in server.requests  # it stops before it goes there
    assert seen[-1].line().startswith("[explore 3/3 pages, 3/30 model calls, ")


def test_model_call_budget_keeps_one_call_for_the_plan(page: Page, server: LocalServer) -> None:
    chain_pages(server, 8)
    llm = ScriptedLLM({"explore": reading(follow_next),
                       "explore:plan": lambda c: {"flows": [{
                           "title": "Follow", "steps": [{"kind": "goto", "text": "/p0"}],
                           "outcome": "the page shows \"Page 0\""}]}})
    explorer = Explorer(page, llm, ExploreOptions(max_llm_calls=3))
    site = explorer.explore(server.url + "/p0")
    assert len(site.pages) == 2 and len(llm.calls) == 2
    assert "3 model calls (--max-llm-calls)" in site.stopped
    flows = plan_flows(explorer.asker, site, variables={}, secrets={}, files={})
    assert [f.title for f in flows] == ["Follow"] and len(llm.calls) == 3
    with pytest.raises(Exception, match="3 model calls is used up"):  # never a fourth
        plan_flows(explorer.asker, site, variables={}, secrets={}, files={})
    assert len(llm.calls) == 3


def test_token_budget_counts_what_the_endpoint_reports(page: Page, server: LocalServer) -> None:
    chain_pages(server, 8)
    replies: list[Any] = []
    for n in range(8):
        replies.append({"title": f"Page {n}", "explore": [
            {"why": "next", "actions": [{"tool": "click",
                                         "parameters": {"element_id": "a-0"}}]}]})
    with FakeOpenAIServer(replies) as fake:  # 110+ tokens a call
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY)
        explorer = Explorer(page, llm, ExploreOptions(max_tokens=250))
        site = explorer.explore(server.url + "/p0")
    assert len(fake.requests) == 3  # no call starts once 250 tokens are used
    assert explorer.usage.total_tokens == 333
    assert site.stopped == "the budget of 250 tokens (--max-tokens) is used up (333 used)."


def test_wall_time_budget(page: Page, server: LocalServer) -> None:
    chain_pages(server, 30)

    def slow(context: ModelRequest) -> dict[str, Any]:
        time.sleep(0.6)
        return reading(follow_next)(context)

    llm = ScriptedLLM({"explore": slow})
    explorer = Explorer(page, llm, ExploreOptions(max_seconds=1.5, max_pages=30))
    site = explorer.explore(server.url + "/p0")
    assert site.stopped == "the wall time of 1.5 s (--max-seconds) is up."
    assert 1 <= len(site.pages) <= 3 and len(llm.calls) == len(site.pages)
    # it stops at the first page boundary after the time is up: one call and a page late
    # at most, however slow this machine is
    assert explorer.elapsed() < 1.5 + 0.6 + 15


def test_budgets_are_settings_with_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ExploreOptions() == ExploreOptions.from_env(environ={})
    env = {"WEBTASK_EXPLORE_MAX_PAGES": "7", "WEBTASK_EXPLORE_MAX_SECONDS": "30",
           "WEBTASK_EXPLORE_ALLOW_WRITES": "yes"}
    options = ExploreOptions.from_env({"max_pages": 5, "max_tokens": None}, environ=env)
    assert (options.max_pages, options.max_seconds, options.allow_writes,
            options.max_tokens) == (5, 30.0, True, 1_000_000)
    with pytest.raises(Exception, match="WEBTASK_EXPLORE_MAX_PAGES should be a whole number"):
        ExploreOptions.from_env(environ={"WEBTASK_EXPLORE_MAX_PAGES": "many"})
    with pytest.raises(Exception, match="at least 2: one page and the plan"):
        ExploreOptions(max_llm_calls=1)


# -- destructive forms --------------------------------------------------------------------


def submit_every_form(context: ModelRequest) -> list[dict[str, Any]]:
    if context.step > 1:
        return []
    return [{"why": f"submit {label}", "actions": [click(named(context, label))]}
            for label in ("Save profile", "Delete account", "Confirm")]


def mark_confirm_destructive(context: ModelRequest) -> list[dict[str, Any]]:
    button = next((n for n in nodes(context) if n.label == "Confirm"), None)
    if button is None:
        return []
    return [{"element": button.within("form").id, "name": "Confirm", "destructive": True,
             "fields": []}]


def test_no_form_is_submitted_by_default(page: Page, server: LocalServer) -> None:
    # the model proposes submitting every form: nothing is posted, whatever the words; each
    # form is in the site map as not tried, with its fields
    llm = ScriptedLLM({"explore": reading(submit_every_form, mark_confirm_destructive)})
    site = Explorer(page, llm).explore(server.url + "/account")
    assert server.posts == [] and len(site.pages) == 1
    writes = {w.submit: w for w in site.pages[0].writes}
    assert sorted(writes) == ["Confirm", "Delete account", "Save profile"]
    save = writes["Save profile"]
    assert (save.form, save.action, [f.name for f in save.fields]) == (
        "Profile", "/account/save", ["Display name"])
    assert save.why == ("it sends POST /account/save (form post), which may change data on "
                        "the server; --allow-form or --allow-writes allows it")
    # the words and the model's mark still speak first for the other two
    assert writes["Delete account"].why.startswith("it looks destructive ('Delete'")
    assert writes["Confirm"].why.startswith("it submits a form marked destructive")
    assert site.blocked == {"POST /account/save (form post)": 1}
    text = site.as_markdown()
    assert ("- Not tried while exploring: form 'Profile', submit 'Save profile' (Display "
            "name): it sends POST /account/save (form post)") in text
    assert text.endswith("### Blocked requests\n\nStopped before they left the browser "
                         "(nothing was sent):\n\n- POST /account/save (form post)")
    assert site.pages[0].forms[0].destructive is True  # shown so in the plan's site map


def test_allow_writes_keeps_the_words_as_a_second_guard(page: Page,
                                                        server: LocalServer) -> None:
    llm = ScriptedLLM({"explore": reading(submit_every_form, mark_confirm_destructive)})
    site = Explorer(page, llm, ExploreOptions(allow_writes=True)).explore(
        server.url + "/account")
    assert [path for path, _fields, _files in server.posts] == ["/account/save"]
    assert sorted(w.submit for w in site.pages[0].writes) == ["Confirm", "Delete account"]
    assert site.blocked == {}


def test_allow_form_names_a_form_by_its_button_or_its_path(page: Page,
                                                           server: LocalServer) -> None:
    llm = ScriptedLLM({"explore": reading(submit_every_form, mark_confirm_destructive)})
    site = Explorer(page, llm, ExploreOptions(
        allow_forms=("delete ACCOUNT", "/account/conf*"))).explore(server.url + "/account")
    assert sorted(path for path, _fields, _files in server.posts) == [
        "/account/confirm", "/account/delete"]
    assert [w.submit for w in site.pages[0].writes] == ["Save profile"]  # not named


def test_a_key_press_without_an_element_is_refused(page: Page, server: LocalServer) -> None:
    def explore(context: ModelRequest) -> list[dict[str, Any]]:
        return [{"why": "enter", "actions": [{"tool": "press", "parameters": {"key": "Enter"}}]},
                {"why": "a tab", "actions": [{"tool": "switch_tab",
                                              "parameters": {"tab": 1}}]}] \
            if context.step == 1 else []

    site = Explorer(page, ScriptedLLM({"explore": reading(explore)})).explore(
        server.url + "/account")
    assert server.posts == []
    assert site.pages[0].not_tried == [
        "enter: press on the whole page (no element) is not tried while exploring: it needs "
        "an element",
        "a tab: the 'switch_tab' tool is not used while exploring"]


# -- secrets ------------------------------------------------------------------------------


def sign_in(value: str) -> Callable[[ModelRequest], list[dict[str, Any]]]:
    def explore(context: ModelRequest) -> list[dict[str, Any]]:
        if context.step > 1:
            return []
        return [{"why": "sign in", "actions": [
            {"tool": "fill", "parameters": {"element_id": named(context, "Email"),
                                            "value": "{email}"}},
            {"tool": "fill", "parameters": {"element_id": named(context, "Password"),
                                            "value": value}},
            click(named(context, "Sign in"))]}]
    return explore


def test_a_password_is_typed_only_as_a_named_secret(page: Page, server: LocalServer) -> None:
    llm = ScriptedLLM({"explore": reading(sign_in("{password}"))})
    explorer = Explorer(page, llm, variables={"email": "ada@example.com"},
                        secrets={"password": SECRET})
    site = explorer.explore(server.url + "/account")
    assert server.posts == [("/signin", {"email": "ada@example.com", "password": SECRET}, {})]
    assert "{password} (a secret" in llm.prompts[0]
    assert all(SECRET not in prompt for prompt in llm.prompts)
    assert SECRET not in site.as_yaml() + site.as_markdown()
    assert "fill input \"Password\" with '{password}'" in site.pages[1].reached_by


@pytest.mark.parametrize("secrets", [{}, {"password": SECRET}], ids=["no secret", "secret"])
def test_a_made_up_password_is_never_typed(page: Page, server: LocalServer,
                                           secrets: dict[str, str]) -> None:
    llm = ScriptedLLM({"explore": reading(sign_in("hunter2"))})
    site = Explorer(page, llm, variables={"email": "a@b.c"}, secrets=secrets).explore(
        server.url + "/account")
    assert server.posts == []
    assert site.pages[0].not_tried[0].startswith(
        "sign in: a password field is only typed into with a named secret")
    if not secrets:
        assert "No test data was given" not in llm.prompts[0]  # the email variable was
        assert "none was given (--secret)" in site.pages[0].not_tried[0]


# -- the scripted explorer on a real page ------------------------------------------------


def test_the_scripted_explorer_reads_the_page_it_is_shown(page: Page,
                                                          server: LocalServer) -> None:
    """The double answers from the page state: another page, other forms and links."""
    server.pages["/home"] = ("<header><a href='/home'>Home</a><a href='/account'>Account</a>"
                             "</header><main><h1>Welcome</h1><p>3 items</p></main>")
    site = Explorer(page, scripted_explorer(), secrets={"password": SECRET},
                    variables={"email": "ada@example.com"}).explore(server.url + "/home")
    titles = [p.title for p in site.pages]
    assert titles[:2] == ["Welcome", "Your account"]
    account = site.pages[1]
    assert [(f.name, f.destructive) for f in account.forms] == [
        ("Save profile", False), ("Delete account", True), ("Confirm", False),
        ("Sign in", False)]
    assert "3 items" in site.pages[0].messages
    # it proposed the sign-in (with the secret's name) and never the delete
    assert ("/signin", {"email": "ada@example.com", "password": SECRET}, {}) in server.posts
    assert all(path != "/account/delete" for path, _f, _files in server.posts)


# -- the command, when the plan cannot be written ------------------------------------------


def no_flows() -> ScriptedLLM:
    """For the command below: reads pages, then answers the plan with no flows (twice)."""
    return ScriptedLLM({"explore": lambda c: {"title": "A page"},
                        "explore:plan": lambda c: {"flows": []}})


def test_the_site_map_is_kept_when_no_plan_could_be_written(
        server: LocalServer, tmp_path: Path,
        python: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    chain_pages(server, 2)
    plan = tmp_path / "plan.md"
    proc = python("-m", "pytest_webtask", "explore", server.url + "/p0", "--plan", str(plan),
                  "--llm", "tests.test_explore:no_flows", env={"CI": None})
    assert proc.returncode == 1, proc.stderr
    assert ("webtask explore: error: no flows were written: The model's plan could not be "
            "used, twice.") in proc.stderr
    assert "Traceback" not in proc.stderr
    text = plan.read_text()
    assert "No flows: the plan could not be written" in text
    assert "## Site map\n\n### A page\n\n- URL: " + server.url + "/p0" in text
    again = python("-m", "pytest_webtask", "generate", str(plan), "--out",
                   str(tmp_path / "test_app.py"))
    assert again.returncode == 2
    assert "the plan has no flows" in again.stderr
