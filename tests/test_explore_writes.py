"""Exploring writes nothing it was not allowed to (DESIGN.md decision 19), and the scripted
explorer finds what a site has: both on the library site (``tests/library.py``), whose
server logs every request it receives, so the assertions are on what reached it.

The "careless" model here is a script that asks to submit every form and press every
button it is shown (and to follow every link, another origin's included): what keeps the
server safe is the explorer, not the model."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page

from pytest_webtask.explore.explorer import Explorer
from pytest_webtask.explore.options import ExploreOptions
from pytest_webtask.explore.plan import load_plan
from pytest_webtask.explore.planner import plan_flows, untried_flows
from pytest_webtask.explore.sitemap import SiteMap
from pytest_webtask.explore.writes import WriteGuard
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, read_page_state, scripted_explorer
from pytest_webtask.testing.explorer import explore_reply, page_block, plan_reply
from tests.library import PASSWORD, LibraryApp

EMAIL = {"email": "ada@example.com"}
SECRETS = {"password": PASSWORD}
SECRET_ENVS = {"password": "WEBTASK_SECRET_PASSWORD"}


@pytest.fixture
def library() -> Iterator[LibraryApp]:
    app = LibraryApp()
    yield app
    app.stop()


def careless_reply(context: ModelRequest) -> dict[str, Any]:
    """The scripted reading of the page, plus: press every button and follow every link."""
    reply = explore_reply(context)
    nodes = [n for root in read_page_state(page_block(context)) for n in root.walk()]
    for node in nodes:
        if node.id and (node.tag == "button" or node.tag == "a" and node.attrs.get("href")):
            reply["explore"].append({"why": f"what {node.label!r} does", "actions": [
                {"tool": "click", "parameters": {"element_id": node.id}}]})
    return reply


def careless() -> ScriptedLLM:
    """For ``--llm``: a careless explorer, and the scripted planner."""
    return ScriptedLLM({"explore": careless_reply, "explore:plan": plan_reply})


def explore(page: Page, app: LibraryApp, llm: ScriptedLLM,
            options: ExploreOptions | None = None) -> SiteMap:
    return Explorer(page, llm, options or ExploreOptions(max_pages=40, max_llm_calls=60),
                    variables=EMAIL, secrets=SECRETS).explore(app.url + "/")


# -- the write guard on its own -----------------------------------------------------------

WRITES_JS = """async () => {
  const go = (url, init) => fetch(url, init).then(() => 'sent', () => 'stopped');
  return [
    await go('/tokens/1', {method: 'DELETE'}),
    await go('/messages', {method: 'POST', body: JSON.stringify({m: 1})}),
    await go('/preferences', {method: 'PUT', body: 'x'}),
    await go('/tokens/2', {headers: {'X-HTTP-Method-Override': 'DELETE'}}),
    await go('/tokens/3?_method=DELETE'),
    await go('/catalogue?q=dune'),
  ];
}"""


def test_the_write_guard_stops_every_kind_of_write(page: Page, context: BrowserContext,
                                                   library: LibraryApp) -> None:
    guard = WriteGuard(context)
    guard.start()
    try:
        page.goto(library.url + "/join")
        before = list(library.log)
        assert page.evaluate(WRITES_JS) == ["stopped"] * 5 + ["sent"]
        page.click("text=Sign up")  # a form post: the page stays where it was
        page.wait_for_timeout(300)
        assert page.url == library.url + "/join" and "errors" not in page.content()
    finally:
        guard.stop()
    assert library.log[len(before):] == [("GET", "/catalogue")]  # the read went through
    assert [w.describe(library.url) for w in guard.blocked] == [
        "DELETE /tokens/1 (fetch)", "POST /messages (fetch)", "PUT /preferences (fetch)",
        "GET overridden to DELETE /tokens/2 (fetch)",
        "GET overridden to DELETE /tokens/3?_method=DELETE (fetch)",
        "POST /join (form post)"]


@pytest.mark.parametrize("how", ["all", "path", "permit", "secret"])
def test_what_opens_the_write_guard(page: Page, context: BrowserContext, library: LibraryApp,
                                    how: str) -> None:
    guard = WriteGuard(context, allow_all=how == "all",
                       patterns=["/messa*", "Send"] if how == "path" else ["Send"],
                       secrets=["s3 cret&"] if how == "secret" else ["other"])
    guard.start()
    page.goto(library.url + "/join")
    post = """body => fetch('/messages', {method: 'POST', body}).then(() => 'sent',
                                                                   () => 'stopped')"""
    try:
        if how == "permit":
            assert page.evaluate(post, "x") == "stopped"  # the text pattern alone: no
            with guard.permit():
                assert page.evaluate(post, "x") == "sent"
            assert page.evaluate(post, "x") == "stopped"
        elif how == "secret":
            assert page.evaluate(post, "name=s3+cret%26") == "sent"  # as a form encodes it
            assert page.evaluate(post, "name=nothing") == "stopped"
        else:
            assert page.evaluate(post, "x") == "sent"
    finally:
        guard.stop()
    assert ("POST", "/messages") in library.log


# -- exploring the library ----------------------------------------------------------------


def test_default_explore_writes_nothing_but_the_sign_in(page: Page,
                                                       library: LibraryApp) -> None:
    site = explore(page, library, careless())
    assert library.log and set(library.writes()) == {("POST", "/signin")}
    account = next(p for p in site.pages if p.title == "Your account")
    untried = {w.submit: w.why for w in account.writes}
    assert sorted(untried) == ["Archive", "Revoke", "Save", "Send", "Unsubscribe"]
    assert untried["Archive"].startswith("it sends POST /loans/archive (form post), which "
                                         "may change data on the server")
    assert untried["Send"].startswith("it sends POST /messages (fetch)")
    assert untried["Save"].startswith("it sends POST /preferences (form post)")
    # the model's mark and the words still speak first where they know (nothing is sent
    # either way)
    assert untried["Unsubscribe"].startswith("it submits a form marked destructive")
    assert untried["Revoke"].startswith("it looks destructive ('Revoke'")
    # the plan: one flow per form, marked, with the way there and its fields
    flows = untried_flows(site, [], variables=EMAIL, secrets=SECRET_ENVS, files={})
    by_title = {f.title: f for f in flows}
    assert {"Old loans: Archive", "Newsletter: Unsubscribe", "API tokens: Revoke",
            "Ask a librarian: Send", "Preferences: Save"} <= set(by_title)
    send = by_title["Ask a librarian: Send"]
    assert send.not_tried.startswith("it sends POST /messages (fetch)")
    assert send.secrets == SECRET_ENVS and send.variables == EMAIL
    assert [s.render() for s in send.steps][-2:] == ['do: click button "Sign in"',
                                                     'do: click button "Send"']
    text = site.as_markdown()
    assert ("- Not tried while exploring: form 'Ask a librarian', submit 'Send' (Message "
            "(textarea)): it sends POST /messages (fetch)") in text
    # a refusal every page repeats is one line, with a count
    footer = [line for line in text.splitlines() if "libraries.invalid" in line]
    assert len(footer) == 1 and f"(on {len(site.pages)} pages: " in footer[0], footer
    assert "POST /loans/archive (form post)" in site.blocked
    assert "http://libraries.invalid" not in " ".join(site.blocked)  # never even asked


def test_allow_writes_sends_all_but_what_looks_destructive(page: Page,
                                                           library: LibraryApp) -> None:
    explore(page, library, careless(), ExploreOptions(max_pages=40, max_llm_calls=60,
                                                      allow_writes=True))
    writes = set(library.writes())
    assert {("POST", "/loans/archive"), ("POST", "/messages"), ("POST", "/preferences"),
            ("POST", "/join")} <= writes
    assert ("POST", "/newsletter") not in writes and ("DELETE", "/tokens/1") not in writes


def test_the_scripted_explorer_finds_every_page_and_a_flow_per_feature(
        page: Page, library: LibraryApp) -> None:
    """Title links in a list, cards, a page only a "More" menu links to, an error summary
    (role=alert) that is not a content list, and a validated form (allowed by name)."""
    llm = scripted_explorer()
    explorer = Explorer(page, llm, ExploreOptions(allow_forms=("Sign up",)),
                        variables=EMAIL, secrets=SECRETS)
    site = explorer.explore(library.url + "/")
    paths = {p.url.removeprefix(library.url).split("?")[0] for p in site.pages}
    assert paths == {"/", "/catalogue", "/shelves", "/join", "/signin", "/account", "/hours",
                     "/book/1", "/book/2"}
    assert len([p for p in site.pages if p.url.startswith(library.url + "/book/")]) == 2
    errors = next(p for p in site.pages if "Full name is required." in p.messages)
    assert errors.lists == []  # the error summary is messages, not a list of content
    flows = plan_flows(explorer.asker, site, variables=EMAIL, secrets=SECRET_ENVS, files={})
    assert [f.title for f in flows] == [
        "Search the catalogue", "Open an item of Catalogue",
        "Join the library validation with an empty form", "Sign in",
        "Open Opening hours from the More menu"]
    menu = flows[4]
    assert [s.render() for s in menu.steps] == ["goto /", 'do: click "More"',
                                                'do: click "Opening hours"']
    assert flows[2].outcome == ('the page shows "Please fix the errors below." and "Full name '
                                'is required."')
    assert set(library.writes()) == {("POST", "/signin"), ("POST", "/join")}


def test_without_allow_form_the_scripted_explorer_plans_the_form_as_not_tried(
        page: Page, library: LibraryApp) -> None:
    explorer = Explorer(page, scripted_explorer(), variables=EMAIL, secrets=SECRETS)
    site = explorer.explore(library.url + "/")
    assert ("POST", "/join") not in library.writes()
    flows = plan_flows(explorer.asker, site, variables=EMAIL, secrets=SECRET_ENVS, files={})
    assert "Join the library validation with an empty form" not in [f.title for f in flows]
    untried = untried_flows(site, flows, variables=EMAIL, secrets=SECRET_ENVS, files={})
    join = next(f for f in untried if f.title == "Join the library: Sign up")
    assert [s.render() for s in join.steps] == ["goto /join", 'do: click button "Sign up"']
    assert join.not_tried.startswith("it sends POST /join (form post)")


# -- the command --------------------------------------------------------------------------


def test_the_command_plans_what_it_did_not_try_and_generate_leaves_it_out(
        library: LibraryApp, tmp_path: Path,
        python: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    plan = tmp_path / "plan.md"
    env = {"CI": None, "WEBTASK_SECRET_PASSWORD": PASSWORD}
    # each --allow-form opens the one form it names; "unsubscribe" is in the word list of
    # what looks destructive too: naming it is the user's word against the list
    proc = python("-m", "pytest_webtask", "explore", library.url + "/", "--plan", str(plan),
                  "--llm", "tests.test_explore_writes:careless", "--var",
                  "email=ada@example.com", "--secret", "password", "--allow-form", "Archive",
                  "--allow-form", "unsubscribe", "--max-pages", "40", "--max-llm-calls", "60",
                  env=env)
    assert proc.returncode == 0, proc.stderr
    assert "change data on the server and were not tried while exploring" in proc.stdout
    assert set(library.writes()) == {("POST", "/signin"), ("POST", "/loans/archive"),
                                     ("POST", "/newsletter")}
    loaded = load_plan(plan)
    untried = {f.title: f for f in loaded.flows if f.not_tried}
    assert {"API tokens: Revoke", "Ask a librarian: Send", "Preferences: Save"} <= set(untried)
    assert "Old loans: Archive" not in untried  # it was tried
    assert "Newsletter: Unsubscribe" not in untried
    text = plan.read_text()
    assert PASSWORD not in text and str(tmp_path) not in text
    assert "\nNot tried while exploring: it sends POST /messages (fetch)" in text
    # generate records nothing it was not allowed to: those flows are left out, commented
    before = len(library.log)
    module = tmp_path / "test_lib.py"
    plan.write_text(text.split("\n## ")[0] + "\n## " + "\n## ".join(
        s for s in text.split("\n## ")[1:] if "Not tried while exploring" in s
        or s.startswith("Site map")))
    gen = python("-m", "pytest_webtask", "generate", str(plan), "--out", str(module),
                 "--llm", "tests.test_explore_writes:careless", env=env)
    assert gen.returncode == 1, gen.stderr  # nothing kept
    assert "No test to record" in gen.stderr and library.log[before:] == []
    written = module.read_text()
    assert "# Left out: not tried while exploring: it sends POST /messages (fetch)" in written
    assert "# def test_ask_a_librarian_send(webtask: WebTask, email: str) -> None:" in written
    assert max(len(line) for line in written.splitlines()) <= 99


def test_a_form_is_destructive_by_what_it_submits_not_by_its_cancel_button(
        page: Page) -> None:
    """A create form with a Cancel button is no cancelling form (issue 74): its Create
    submits a task; a form whose own name or action cancels is one."""
    from pytest_webtask.explore.explorer import _SURROUNDINGS_JS, DESTRUCTIVE

    page.set_content("""<form aria-label="New task" action="/tasks" method="post">
      <label>Title <input name="title"></label><button>Create</button>
      <button type="button">Cancel</button></form>
      <form action="/subscription/cancel" method="post"><button>Confirm</button></form>""")

    def said(selector: str) -> str:
        info = page.locator(selector).evaluate(_SURROUNDINGS_JS)
        return f"{info['own']} | {info['form']}"

    assert DESTRUCTIVE.search(said("text=Create")) is None, said("text=Create")
    assert DESTRUCTIVE.search(said("text=Confirm")) is not None  # its action cancels
