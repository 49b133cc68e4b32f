"""The origin guard: a request to another origin is stopped before it leaves the browser,
and the model is told. ``other`` is a second loopback server that must receive nothing."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer
from tests.test_agent_failures import DONE, act, step

SECRET = "pw-Zq81-never-elsewhere"


def test_form_post_to_another_origin_never_sends_the_secret(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    server.pages["/login"] = (f'<form action="{other.url}/collect" method="post">'
                              '<input name="pw" type="text"><button>Sign in</button></form>')
    page.goto(server.url + "/login")
    llm = ScriptedLLM([step(act("fill", element_id="input-0", value="{pw}"),
                            act("click", element_id="button-0")), DONE, DONE])
    result = Agent(page, llm).execute("sign in", secrets={"pw": SECRET})
    assert other.requests == [] and other.posts == []
    assert page.url == server.url + "/login"
    assert f"POST {other.url}/collect (form post)" in llm.prompts[1]
    assert "Nothing was sent there" in llm.prompts[1]
    assert result.completed  # the task goes on, on the allowed origin


def test_redirect_to_another_origin_is_stopped_before_it_is_followed(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    server.redirects["/out"] = other.url + "/landing"
    server.pages["/start"] = '<a href="/out">Continue</a>'
    page.goto(server.url + "/start")
    llm = ScriptedLLM([step(act("click", element_id="a-0")), DONE])
    Agent(page, llm).execute("continue")
    assert other.requests == []
    assert page.url == server.url + "/start"
    assert f"GET {other.url}/landing (redirect from {server.url}/out)" in llm.prompts[1]


def test_redirect_within_the_origin_is_followed(page: Page, server: LocalServer) -> None:
    server.redirects["/next"] = server.url + "/price"
    server.pages["/start"] = '<a href="/next">Continue</a>'
    page.goto(server.url + "/start")
    Agent(page, ScriptedLLM([step(act("click", element_id="a-0")), DONE])).execute("go")
    assert page.url == server.url + "/price"


def test_late_navigation_is_blocked_and_reported(page: Page, server: LocalServer,
                                                 other: LocalServer) -> None:
    server.pages["/late"] = (f"<button onclick=\"setTimeout(() => location = '{other.url}/x', "
                             "600)\">Later</button>")
    page.goto(server.url + "/late")

    def reply(context: ModelRequest) -> dict:
        history = next(b.text for b in context.blocks if b.text.startswith("Step History"))
        n = history.count("\nStep ")
        if n == 0:
            return step(act("click", element_id="button-0"))
        if n == 1:
            time.sleep(1.0)  # the model thinks; the page's timer fires meanwhile
            return step(message="still thinking")
        return DONE

    llm = ScriptedLLM(reply)
    Agent(page, llm).execute("press later")
    assert other.requests == []
    assert page.url == server.url + "/late"
    assert "After this step: Blocked 1 request(s)" in llm.prompts[2]
    assert f"GET {other.url}/x (navigation)" in llm.prompts[2]


def test_popups_to_another_origin_are_blocked(page: Page, server: LocalServer,
                                              other: LocalServer) -> None:
    server.pages["/pop"] = (f'<a target="_blank" href="{other.url}/tab">New tab</a>'
                            f"<button onclick=\"window.open('{other.url}/win')\">Open</button>")
    page.goto(server.url + "/pop")
    llm = ScriptedLLM([step(act("click", element_id="a-0"), act("click", element_id="button-0")),
                       DONE])
    Agent(page, llm).execute("open both")
    assert other.requests == []
    assert f"GET {other.url}/tab" in llm.prompts[1] and f"GET {other.url}/win" in llm.prompts[1]


def test_standalone_agent_stays_on_the_start_origin_and_off_files(
        page: Page, server: LocalServer, other: LocalServer, tmp_path: Path) -> None:
    local = tmp_path / "hostname"
    local.write_text("private-host-name-xyz")
    page.goto(server.url + "/price")
    llm = ScriptedLLM([step(act("navigate", url=other.url + "/evil")),
                       step(act("navigate", url=local.as_uri())), DONE])
    Agent(page, llm).execute("go where the page says")  # no allowed_origins given
    assert other.requests == []
    assert f"Navigation to {other.url}/evil refused" in llm.prompts[1]
    assert f"Navigation to {local.as_uri()} refused" in llm.prompts[2]
    assert "private-host-name-xyz" not in "\n".join(llm.prompts)
    assert page.url == server.url + "/price"


def test_subresources_from_other_origins_load_unless_blocked(
        page: Page, server: LocalServer, other: LocalServer) -> None:
    for n in (1, 2):
        server.pages[f"/img{n}"] = f'<img alt="logo" src="{other.url}/logo{n}.png"><p>Hi</p>'
    page.goto(server.url + "/price")
    Agent(page, ScriptedLLM([step(act("navigate", url="/img1")), DONE])).execute("open")
    assert other.requests == ["/logo1.png"]
    other.requests.clear()
    llm = ScriptedLLM([step(act("navigate", url="/img2")), DONE])
    Agent(page, llm, block_subresources=True).execute("open")
    assert other.requests == []
    assert f"GET {other.url}/logo2.png (image)" in llm.prompts[1]


def test_the_guard_is_removed_when_the_task_ends(page: Page, server: LocalServer,
                                                  other: LocalServer) -> None:
    page.goto(server.url + "/price")
    Agent(page, ScriptedLLM([DONE, DONE])).execute("nothing")
    page.goto(other.url + "/after")  # the test's own navigation is not the agent's
    assert "/after" in other.requests
