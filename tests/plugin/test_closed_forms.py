"""While `webtask generate` records, a form exploring did not try stays closed where requests
leave: the generator's plugin (``pytest_webtask.explore.closed_forms``) stops a write to its
path in the browser and fails the test saying which form, although the test's words never
named it. The control: without the plugin's forms, the same recording sends the form."""

from __future__ import annotations

import json

from pytest_webtask.explore.untried import CLOSED_ENV, CLOSED_PLUGIN
from tests.plugin.conftest import Inner
from tests.server import LocalServer

CONFTEST = '''
import os
import re
import pytest
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.testing import ScriptedLLM


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    return os.environ["SHOP_URL"]


def reply(context):
    page = context.blocks[-1].text
    if "Success!" in page:
        return {"complete": True, "message": "sent", "evidence": ["Success!"]}
    if context.step > 1:
        return {"complete": False, "impossible": True, "message": "nothing happened",
                "actions": []}
    return {"complete": False, "message": "join", "actions": [
        {"reason": "email", "tool": "fill",
         "parameters": {"element_id": "input-0", "value": "{email}"}},
        {"reason": "send", "tool": "click", "parameters": {"element_id": "button-0"}}]}


@pytest.fixture(scope="session")
def webtask_llm():
    return ScriptedLLM(reply)
'''

TEST = '''
def test_join(webtask):
    webtask.goto("/club")
    webtask.do("join with {email}", email="ada@example.com")
'''

PAGE = """<!doctype html><title>Club</title>
<form method="post" action="/newsletter"><label>Email <input name="email"></label>
<button>Join</button></form>"""


def test_a_write_to_a_closed_form_is_stopped_and_fails_naming_it(
        inner: Inner, server: LocalServer) -> None:
    server.pages["/club"] = PAGE
    inner.pytester.makeconftest(CONFTEST)
    inner.tests(TEST)
    closed = {CLOSED_ENV: json.dumps([["/newsletter", "form 'Newsletter', submit 'Join'"]]),
              "SHOP_URL": server.url}
    result = inner.run("--webtask-record", "-p", CLOSED_PLUGIN, env=closed)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*it sent POST /newsletter (form 'Newsletter', submit 'Join'): a form exploring did "
        "not try, stopped before it left the browser. To allow it, run webtask generate "
        "with --allow-form naming the form*"])
    assert server.posts == []
    assert not list(inner.path.rglob("*.yaml"))  # nothing recorded

    # another path stays open; and without the plugin's forms the same recording sends it
    other = {**closed, CLOSED_ENV: json.dumps([["/other/*", "form 'Other'"]])}
    inner.run("--webtask-record", "-p", CLOSED_PLUGIN, env=other).assert_outcomes(passed=1)
    assert [path for path, _, _ in server.posts] == ["/newsletter"]
