"""``webtask mcp`` driven as a coding agent drives it: the MCP SDK's stdio client starts
``python -m pytest_webtask mcp`` in a fresh project, and a scripted agent (rules, not a model)
that reads only what the tools return writes, records, replays and heals the README's quick
start test on the demo shop, in a real Chromium, with no model anywhere."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from example_suites.demo_shop import DemoShop
from tests.plugin.conftest import ROOT

# the MCP SDK (a test extra) is imported by the test that runs it, not at collection:
# each xdist worker collects every module
pytestmark = pytest.mark.skipif(importlib.util.find_spec("mcp") is None,
                                reason="the MCP SDK is not installed: pip install mcp")

README = (ROOT / "README.md").read_text(encoding="utf-8")
QUICK_START = README[README.index("## Quick start"):]
RECIPE_SHOWN = yaml.safe_load(re.search(r"```yaml\n(version:.*?)```", QUICK_START, re.S)[1])
STEPS = [{"goto": "/"}, {"do": "add the Blue Oxford Shirt in size M to the cart"},
         {"check": "the cart total is $39.00"}]
PASSWORD = "lovelace-1815"  # the demo shop's user's, in the server's environment only


class Agent:
    """A scripted coding agent: calls a tool, keeps every answer, reads ids from them."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.answers: list[str] = []

    async def __call__(self, tool: str, **arguments: Any) -> str:
        result = await self.client.call_tool(tool, arguments)
        text = "\n".join(getattr(c, "text", "") for c in result.content)
        self.answers.append(text)
        return text


def in_item(text: str, title: str, pattern: str) -> str:
    """The id on the first line matching ``pattern`` in the page-state item that holds the
    heading ``title``: what a reader of the page state sees."""
    page = text.split("=== MODEL REQUEST", 1)[-1]
    items = re.split(r"\n\s*- article-\d+", page)
    item = next(i for i in items if f'"{title}"' in i)
    return line_id(item, pattern)


def line_id(text: str, pattern: str) -> str:
    """The id on the first page-state line matching ``pattern``."""
    page = text.split("=== MODEL REQUEST", 1)[-1].split("=== YOUR ANSWERS", 1)[0]
    for line in page.splitlines():
        if re.search(pattern, line) and (found := re.search(r"- ([a-z0-9]+-\d+)\b", line)):
            return found[1]
    raise AssertionError(f"no line matches {pattern!r}:\n{page}")


def serve(project: Path, script: Callable[[Agent], Awaitable[None]],
          env: dict[str, str] | None = None) -> list[str]:
    """Run ``script`` against ``webtask mcp`` started in ``project`` over stdio, in a thread of
    its own (pytest-playwright's sync fixtures may hold this thread's event loop)."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    base = {k: v for k, v in os.environ.items() if k != "CI"
            and not k.startswith(("WEBTASK_", "OPENAI_", "PYTEST_"))}
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "pytest_webtask", "mcp"], cwd=project,
                                   env={**base, **(env or {})})
    failure: list[BaseException] = []
    answers: list[str] = []

    async def main() -> None:
        async with Client(params) as client:
            agent = Agent(client)
            agent.answers = answers
            await script(agent)

    def thread() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # noqa: B036 - handed to the test's thread
            failure.append(exc)

    worker = threading.Thread(target=thread)
    worker.start()
    worker.join(600)
    assert not worker.is_alive(), "the scripted agent did not finish in 10 minutes"
    if failure:
        raise failure[0]
    return answers


def test_the_quick_start_is_written_recorded_replayed_and_healed_through_mcp(
        pytester_process: pytest.Pytester) -> None:
    project = pytester_process.path
    recipe = project / "tests" / "__webtask__" / "test_shop" / "test_add_to_cart.yaml"

    async def script(agent: Agent) -> None:
        with DemoShop(seed=3) as shop, DemoShop(seed=3, mutants={"size_ignored"}) as broken, \
                DemoShop(seed=3, variants={"relabel_add"}) as relabelled:
            # written and recorded through the tools
            first = await agent("open_test", test_file="tests/test_shop.py",
                                test_name="test_add_to_cart", base_url=shop.url, steps=STEPS)
            assert "Wrote test_add_to_cart into tests/test_shop.py" in first
            assert "=== MODEL REQUEST 1 ===" in first and "Blue Oxford Shirt" in first
            # the standard profile (a coding agent is a strong model): done may come first
            assert "done is NOT offered" not in first
            # the tools are act's description's: the answer says so in a line, once
            assert "=== TOOLS OF THIS TASK" in first and "Tool: click" not in first
            size = in_item(first, "Blue Oxford Shirt", r"- select-")
            add = in_item(first, "Blue Oxford Shirt", r'- button-\d+ "Add to cart"')

            # an invented id: the executer refuses it, and the answer says so
            refused = await agent("act", message="Adding the shirt", actions=[
                {"tool": "click", "parameters": {"element_id": "button-99"},
                 "reason": "Add it"}])
            assert "Unknown element id 'button-99'" in refused, refused
            # said once: the history's new step, no tool list, the unchanged page in a line
            assert refused.count("Unknown element id") == 1, refused
            assert "=== TOOLS" not in refused and "unchanged since model request 1" in refused

            cart = await agent("act", message="Choosing the size, then adding the shirt",
                               actions=[
                {"tool": "select", "parameters": {"element_id": size, "value": "M"},
                 "reason": "Choose size M on the Blue Oxford Shirt card"},
                {"tool": "click", "parameters": {"element_id": add},
                 "reason": "Add the shirt to the cart"}])
            assert "Size M" in cart and "/cart" in cart
            assert "(steps 1-1 of this task: as your earlier answers showed them)" in cart
            assert "Step 2:" in cart and "Unknown element id" not in cart
            full = await agent("read_page", tools=True)  # all of it again, when asked
            assert "Unknown element id 'button-99'" in full and "- click(element_id" in full

            # a claim not on the page: refused with what the page has
            wrong = await agent("done", message="The cart holds the shirt in size XL",
                                evidence=["Size XL"])
            assert "The agent loop answered your last reply" in wrong
            assert "Your done was not recorded" in wrong
            assert "these claims do not hold on the page now" in wrong
            assert "Size XL" in wrong

            check = await agent("done", message="The cart holds the Blue Oxford Shirt in "
                                "size M", evidence=["Blue Oxford Shirt", "Size M"])
            assert "A new step starts" in check and "the cart total is $39.00" in check
            # the do step's checks, as its recipe keeps them: the plugin's URL check too
            assert "The checks a replay asserts:\n  - the page shows text 'Blue Oxford " \
                "Shirt' (held before the step: it proves nothing of it)\n  - the page shows " \
                "text 'Size M'\n  - URL path '/cart' (added by the plugin: the step changed " \
                "the URL)" in check, check
            assert '- nth: {"expect": "nth"' in check  # the check request lists each claim
            end = await agent("done", message="The cart total is $39.00",
                              evidence=["Total: $39.00"])
            assert end.startswith("Recorded: the test passed"), end
            assert str(recipe) in end
            assert "Step 2 check('the cart total is $39.00') recorded. The checks a replay " \
                "asserts:\n  - the page shows text 'Total: $39.00'" in end, end

            # the recipe replays as CI does, and fails on the broken cart
            passed = await agent("run_tests", target="tests/test_shop.py", base_url=shop.url)
            assert passed.startswith("Passed"), passed
            assert "2 step(s) replayed, 0 recorded, 0 failed" in passed
            failed = await agent("run_tests", target="tests/test_shop.py",
                                 base_url=broken.url)
            assert failed.startswith("Failed"), failed
            assert "webtask-report.html" in failed and "Size M" in failed

            # a heal whose checks do not hold is not kept
            healing = await agent("heal_test", test_file="tests/test_shop.py",
                                  test_name="test_add_to_cart", base_url=relabelled.url)
            bag = in_item(healing, "Blue Oxford Shirt", r'"Add to bag"')
            size = in_item(healing, "Blue Oxford Shirt", r"- select-")
            await agent("act", message="The button now reads Add to bag", actions=[
                {"tool": "select", "parameters": {"element_id": size, "value": "L"}},
                {"tool": "click", "parameters": {"element_id": bag}}])
            rejected = await agent("done", message="Added", evidence=["Size L"])
            assert rejected.startswith("No heal was kept"), rejected
            assert "recorded checks did not hold" in rejected
            assert not recipe.with_name("test_add_to_cart.healed.yaml").exists()
            assert "Add to bag" not in recipe.read_text()

            # one whose checks hold is shown as a diff, then kept
            healing = await agent("heal_test", test_file="tests/test_shop.py",
                                  test_name="test_add_to_cart", base_url=relabelled.url)
            bag = in_item(healing, "Blue Oxford Shirt", r'"Add to bag"')
            await agent("act", message="The button now reads Add to bag", actions=[
                {"tool": "click", "parameters": {"element_id": bag}}])
            proposed = await agent("done", message="Added", evidence=["Size M"])
            assert proposed.startswith("A heal passed the step's recorded checks"), proposed
            assert "+      name: Add to bag" in proposed
            assert "Add to bag" not in recipe.read_text()  # not before keep_heal
            kept = await agent("keep_heal", test_file="tests/test_shop.py",
                               test_name="test_add_to_cart")
            assert kept.startswith("Kept")
            again = await agent("run_tests", target="tests/test_shop.py",
                                base_url=relabelled.url)
            assert again.startswith("Passed"), again

    serve(project, script)
    test_file = (project / "tests" / "test_shop.py").read_text()
    assert test_file == ('def test_add_to_cart(webtask):\n    webtask.goto("/")\n'
                         '    webtask.do("add the Blue Oxford Shirt in size M to the cart")\n'
                         '    webtask.check("the cart total is $39.00")\n')


async def secrets_named_never_shown(agent: Agent, project: Path, shop: DemoShop) -> None:
    """A secret is named by its environment variable (SHOP_PASSWORD, set for the server) and
    typed as its placeholder: its value reaches no answer, recipe or test file."""
    sign_in = [{"goto": "/signin"}, {"kind": "do", "text": "sign in as {email}",
                                     "uses": ["password"]}]
    common = {"test_file": "tests/test_account.py", "test_name": "test_sign_in",
              "base_url": shop.url, "steps": sign_in,
              "variables": {"email": "ada@example.com"}}
    # a value where the name of its environment variable belongs: refused
    refused = await agent("open_test", **common, secrets={"password": PASSWORD})
    assert refused.startswith("Refused: secrets take the NAME of the environment "
                              "variable"), refused
    unset = await agent("open_test", **common, secrets={"password": "NOT_SET_HERE"})
    assert "NOT_SET_HERE" in unset and "never ask for its value" in unset
    assert not (project / "tests" / "test_account.py").exists()

    first = await agent("open_test", **common, secrets={"password": "SHOP_PASSWORD"})
    assert "{password} = (secret: type the placeholder {password} itself)" in first
    email = line_id(first, r'input-\d+ .*type="email"')
    password = line_id(first, r'input-\d+ .*type="password"')
    button = line_id(first, r'button-\d+.*"Sign in"')
    after = await agent("act", message="Signing in", actions=[
        {"tool": "fill", "parameters": {"element_id": email, "value": "{email}"}},
        {"tool": "fill", "parameters": {"element_id": password, "value": "{password}"}},
        {"tool": "click", "parameters": {"element_id": button}}])
    greeting = re.search(r'"(Signed in as [^"]+|Hello, Ada[^"]*|[^"]*Ada[^"]*)"',
                         after.split("=== MODEL REQUEST", 1)[1])
    assert greeting, after
    end = await agent("done", message="Signed in", evidence=[greeting[1]])
    assert end.startswith("Recorded"), end
    recipe = project / "tests" / "__webtask__" / "test_account" / "test_sign_in.yaml"
    assert PASSWORD not in recipe.read_text()
    source = (project / "tests" / "test_account.py").read_text()
    assert 'secrets={"password": os.environ.get("SHOP_PASSWORD") or pytest.fail(' in source
    assert source.startswith("import os\nimport pytest\n") and PASSWORD not in source


def test_a_generated_test_without_its_secret_says_which_variable_to_set(
        pytester_process: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """CI without the secret's variable: the test written by open_test fails naming it and
    how to set it, not with a bare KeyError."""
    from pytest_webtask.mcp_server import testfile

    steps = testfile.as_steps([{"goto": "/signin"}, {"kind": "do", "text": "sign in as {email}",
                                                     "uses": ["password"]}])
    source = testfile.function_source("test_sign_in", steps, {"email": "ada@example.com"},
                                      {"password": "APP_PASSWORD"})
    testfile.add_test(pytester_process.path / "test_account.py", source, needs_os=True)
    monkeypatch.delenv("APP_PASSWORD", raising=False)
    monkeypatch.setenv("CI", "true")
    with DemoShop(seed=3) as shop:
        result = pytester_process.runpytest_subprocess("--base-url", shop.url, "-p",
                                                       "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert ("Failed: Set the environment variable APP_PASSWORD (the test's secret "
            "'password'): export APP_PASSWORD=... where pytest runs; in CI, from the CI's "
            "secrets.") in out, out
    assert "KeyError" not in out


async def record_the_quick_start(agent: Agent, shop: DemoShop) -> None:
    """The README's quick start recipe came from ``--webtask-record`` with a scripted
    endpoint (tests/plugin/test_quickstart.py): the same replies through MCP write it
    byte for byte (``RECIPE_SHOWN``)."""
    first = await agent("open_test", test_file="tests/test_shop.py",
                        test_name="test_add_to_cart", base_url=shop.url, steps=STEPS)
    await agent("act", message="Choosing the size, then adding the shirt", actions=[
        {"tool": "select", "reason": "Choose size M on the Blue Oxford Shirt card",
         "parameters": {"element_id": in_item(first, "Blue Oxford Shirt", r"- select-"),
                        "value": "M"}},
        {"tool": "click", "reason": "Add the shirt to the cart",
         "parameters": {"element_id": in_item(first, "Blue Oxford Shirt",
                                              r'- button-\d+ "Add to cart"')}}])
    await agent("done", message="The cart holds the Blue Oxford Shirt in size M",
                evidence=["Blue Oxford Shirt", "Size M"])
    end = await agent("done", message="The cart total is $39.00",
                      evidence=["Total: $39.00"])
    assert end.startswith("Recorded"), end


def test_a_reply_that_cannot_be_read_costs_a_try_and_a_recipe_is_the_one_record_writes(
        pytester_process: pytest.Pytester) -> None:
    """The issue's two replies (a field ``n``, an index of 0) are answered by the server with
    what is wrong and the fields of an ``nth`` claim, and never reach the recording: the third
    reply records the test. Three such replies to one request stop the recording. In the
    same session (a server and its browser each cost a process), the quick start recorded
    through MCP is the recipe ``--webtask-record`` writes (``record_the_quick_start``), and
    a secret is named, never shown (``secrets_named_never_shown``)."""
    project = pytester_process.path
    recipe = project / "tests" / "__webtask__" / "test_shop" / "test_first_row.yaml"
    quick_start = project / "tests" / "__webtask__" / "test_shop" / "test_add_to_cart.yaml"
    steps = [{"goto": "/"}, {"do": "add the Blue Oxford Shirt in size M to the cart"},
             {"check": "the Blue Oxford Shirt is the first row of the cart"}]

    async def script(agent: Agent) -> None:
        with DemoShop(seed=3) as shop:
            first = await agent("open_test", test_file="tests/test_shop.py",
                                test_name="test_first_row", base_url=shop.url, steps=steps)
            cart = await agent("act", message="Choosing the size, then adding the shirt",
                               actions=[
                {"tool": "select", "parameters": {
                    "element_id": in_item(first, "Blue Oxford Shirt", r"- select-"),
                    "value": "M"}},
                {"tool": "click", "parameters": {"element_id": in_item(
                    first, "Blue Oxford Shirt", r'- button-\d+ "Add to cart"')}}])
            check = await agent("done", message="The shirt is in the cart in size M",
                                evidence=["Size M"])
            assert "unchanged since model request" in check  # the cart the act's answer showed
            remove = line_id(cart, r'"Remove Blue Oxford Shirt"')
            one = await agent("done", message="The shirt is in the first row",
                              evidence=[{"expect": "nth", "element": remove, "n": 1}])
            assert one.startswith("Your reply was not sent: it could not be read (try 1 of "
                                  "3 on model request"), one
            assert "a claim of kind 'nth' has no field 'n'" in one
            assert "index (required): the item's position, 1 for the first" in one
            two = await agent("done", message="The shirt is in the first row",
                              evidence=[{"expect": "nth", "element": remove, "index": 0}])
            assert "(try 2 of 3 on model request" in two
            assert "index: Input should be greater than or equal to 1" in two
            end = await agent("done", message="The shirt is in the first row",
                              evidence=[{"expect": "nth", "element": remove, "index": 1}])
            assert end.startswith("Recorded"), end
            assert "is in item 1 of its list" in end

            # three to one request: the recording stops, as stop does, and says so
            await agent("open_test", test_file="tests/test_shop.py",
                        test_name="test_other_row", base_url=shop.url, steps=steps)
            for n in (1, 2, 3):
                said = await agent("done", message="Added", evidence=[{"expect": "nth"}])
                assert f"(try {n} of 3 on model request 1" in said, said
            assert "Stopped the recording." in said and "taken out again" in said, said

            await record_the_quick_start(agent, shop)
            await secrets_named_never_shown(agent, project, shop)

    answers = serve(project, script, env={"SHOP_PASSWORD": PASSWORD})
    assert not [answer for answer in answers if PASSWORD in answer]  # the agent never saw it
    assert yaml.safe_load(quick_start.read_text()) == RECIPE_SHOWN
    checks = yaml.safe_load(recipe.read_text())["steps"][1]["checks"]
    assert [(c["expect"], c["index"]) for c in checks] == [("nth", 1)]
    source = (project / "tests" / "test_shop.py").read_text()
    assert "def test_first_row" in source and "test_other_row" not in source
