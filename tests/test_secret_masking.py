"""Secrets are masked in the page itself, before anything is cut to size, and stay masked."""

from __future__ import annotations

import json

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.testing import ScriptedLLM
from pytest_webtask.types import Secrets
from tests.server import LocalServer
from tests.test_agent_failures import DONE, act, step

LONG = "sk-" + "".join(chr(97 + (i * 5) % 26) for i in range(78))  # 81 characters


def test_long_secret_in_its_own_step_leaks_no_part(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/upload")
    # only the field changed: "done" is asked about once
    llm = ScriptedLLM([step(act("fill", element_id="input-0", value="{token}")), DONE, DONE])
    Agent(page, llm).execute("save the token", secrets={"token": LONG})
    assert page.input_value("input[name=who]") == LONG  # typed for real
    assert 'value="••••"' in llm.prompts[1]
    for prompt in llm.prompts:
        assert LONG[:12] not in prompt


def test_secret_echoed_inside_page_text_is_masked(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/upload")
    llm = ScriptedLLM([step(act("fill", element_id="input-0", value="{token}"),
                            act("click", element_id="button-0")), DONE])
    Agent(page, llm).execute("send the token", secrets={"token": LONG})
    assert LONG in page.content()  # the server echoes it back in its page
    assert "{token}" in llm.prompts[1]
    assert LONG[:12] not in llm.prompts[1]


def test_a_secret_stays_masked_in_the_agents_later_tasks(page: Page, server: LocalServer) -> None:
    page.goto(server.url + "/upload")
    agent = Agent(page, ScriptedLLM([step(act("fill", element_id="input-0", value="{t}")),
                                     DONE, DONE]))
    agent.execute("save", secrets={"t": "plain-secret-42"})
    later = ScriptedLLM([DONE, DONE])
    agent.llm = later
    agent.execute("check the page")  # no secrets passed this time
    assert "plain-secret-42" not in later.prompts[0]


def test_mask_covers_encoded_forms() -> None:
    s = Secrets({"pw": 'a b&"c'})
    assert s.mask('a b&"c | a+b%26%22c | a%20b%26%22c | a b&\\"c') == \
        "{pw} | {pw} | {pw} | {pw}"
    # JSON as Python writes it by default (ensure_ascii: a trace, a report's data) escapes
    # what is not ASCII; JSON written with ensure_ascii=False keeps it, escaping the quote
    accents = Secrets({"pw": 'pässwörd"1'})
    assert accents.mask('p\\u00e4ssw\\u00f6rd\\"1 | pässwörd\\"1 | pässwörd"1') == \
        "{pw} | {pw} | {pw}"
    assert accents.mask_bytes(json.dumps({"v": 'pässwörd"1'}).encode()) == b'{"v": "{pw}"}'
