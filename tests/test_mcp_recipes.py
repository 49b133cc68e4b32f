"""``webtask mcp`` over the SDK's stdio client, as a coding agent drives it (a scripted agent:
rules that read the tools' answers, not a model), on tests/pages/lists.html in a real
Chromium: what a recording keeps, and what the project is left with when a recording ends
any other way than passing.

- a variable whose value the page shows inside a button's name ("Delete Book the conference
  venue") is kept as its placeholder there too, and the replay fills it in: the test replays
  with another value;
- a check step takes variables (``webtask.check("{new} is listed", new=...)``);
- a variable named after one of do()'s own parameters (``task``) is refused by open_test;
- ``replace: true`` rewrites a test's steps;
- ``stop``, the site going down and the client going away mid-recording each leave the test
  file and the recipe exactly as they were.

All in one session of the server: each costs a process and a browser."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

from tests.server import LocalServer
from tests.test_mcp import Agent, line_id, serve

# the MCP SDK (a test extra) is imported by the test that runs it, not at collection:
# each xdist worker collects every module
pytestmark = pytest.mark.skipif(importlib.util.find_spec("mcp") is None,
                                reason="the MCP SDK is not installed: pip install mcp")

FILE = "tests/test_lists.py"
NEW = "Book the conference venue"
STEPS = [{"goto": "/lists.html"}, {"do": "add the list {new}"},
         {"check": "{new} is listed"}, {"do": "delete the list {new}"}]


async def record_lists(agent: Agent, url: str) -> str:
    first = await agent("open_test", test_file=FILE, test_name="test_lists", base_url=url,
                        steps=STEPS, variables={"new": NEW})
    assert "Wrote test_lists into tests/test_lists.py" in first, first
    added = await agent("act", message="Adding the list", actions=[
        {"tool": "fill", "parameters": {"element_id": line_id(first, r"input-\d+"),
                                        "value": "{new}"}},
        {"tool": "click", "parameters": {"element_id": line_id(first, r'"Add list"')}}])
    check = await agent("done", message="The list is added", evidence=[
        {"expect": "count", "within": line_id(added, r"- ul-\d+"), "change": 1}])
    assert "A new step starts" in check and "{new} is listed" in check, check
    assert f"- {{new}} = '{NEW}'" in check, check  # the check step is shown its variable
    # the claim cites the button whose name holds the variable's value: kept as
    # 'Delete {new}', and it must hold right after recording (the value filled in)
    button = line_id(added, rf'button-\d+ .*"Delete {NEW}"')
    delete = await agent("done", message="It is listed", evidence=[button])
    # the claim-words advice reads the statement with the variable's value: not asked
    assert "A new step starts" in delete, delete
    gone = await agent("act", message="Deleting it", actions=[
        {"tool": "click", "parameters": {"element_id": line_id(added,
                                                               rf'"Delete {NEW}"')}}])
    return str(await agent("done", message="It is gone", evidence=[
        {"expect": "count", "within": line_id(gone, r"- ul-\d+"), "change": -1}]))


TOGGLES = "tests/test_toggles.py"


async def dismissed_and_switch(agent: Agent, project: Path, url: str) -> None:
    """Through the stdio client (issue 74, item 4): a click whose confirm was dismissed (no
    answer set yet) and that changed nothing is left out of the recipe; a click that turned
    a switch on is kept as ``check``, so the test replays where the switch is already on
    (the data of another day) and leaves it on."""
    recipe = project / "tests" / "__webtask__" / "test_toggles" / "test_toggles.yaml"
    first = await agent("open_test", test_file=TOGGLES, test_name="test_toggles",
                        base_url=url, steps=[
                            {"goto": "/toggles.html"}, {"do": "delete the list Alpha"},
                            {"do": "turn on email notifications"}])
    delete = line_id(first, r'"Delete Alpha"')
    dismissed = await agent("act", message="Deleting Alpha", actions=[
        {"tool": "click", "parameters": {"element_id": delete}}])
    assert "dismissed, as no answer was set" in dismissed, dismissed
    accepted = await agent("act", message="Deleting Alpha, confirming", actions=[
        {"tool": "dialog", "parameters": {"accept": True}},
        {"tool": "click", "parameters": {"element_id": delete}}])
    switch = await agent("done", message="Alpha is gone", evidence=[
        {"expect": "hidden", "text": "Alpha"}, {"expect": "text", "text": "1 list left"}])
    assert "A new step starts" in switch, accepted + switch
    on = await agent("act", message="Turning it on", actions=[
        {"tool": "click", "parameters": {"element_id": line_id(
            switch, r'role="switch".*"Email notifications"')}}])
    end = await agent("done", message="It is on", evidence=[
        {"expect": "text", "text": "Email notifications: on"}])
    assert end.startswith("Recorded"), on + end
    steps = recipe.read_text()
    delete_step = steps.split("turn on email notifications")[0]
    assert delete_step.count("tool: click") == 1 and "accept: true" in delete_step, steps
    assert "accept: false" not in steps
    assert "tool: check" in steps.split("turn on email notifications")[1], steps
    # another day's data: the switch is already on; the replay leaves it on and passes
    test = project / TOGGLES
    test.write_text(test.read_text().replace('"/toggles.html"', '"/toggles.html?on=1"'))
    passed = await agent("run_tests", target=TOGGLES, base_url=url)
    assert "1 passed" in passed, passed


def test_variables_replace_a_dismissed_click_a_switch_and_recordings_that_end_unpassed(
        pytester_process: pytest.Pytester) -> None:
    """One server session (each costs a process and a browser): the variables and
    ``replace``, a dismissed click and a switch (``dismissed_and_switch``), then ``stop``,
    the site going down and the client going away (``end_unpassed``)."""
    project = pytester_process.path
    test_file = project / FILE
    recipe = project / "tests" / "__webtask__" / "test_lists" / "test_lists.yaml"
    server = LocalServer()
    saved: dict[str, str] = {}

    async def script(agent: Agent) -> None:
        # a variable named after do()'s own parameter: refused, nothing written
        clash = await agent("open_test", test_file=FILE, test_name="test_lists",
                            base_url=server.url, steps=STEPS, variables={"task": NEW})
        assert clash.startswith("Refused:") and "'task' cannot name a variable" in clash, clash
        assert not test_file.exists()

        end = await record_lists(agent, server.url)
        assert end.startswith("Recorded"), end
        text = recipe.read_text()
        # the button acted on and the check's text keep the placeholder, not the value
        assert "name: Delete {new}" in text and "text: Delete {new}" in text, text
        assert not [line for line in text.splitlines()
                    if NEW in line and not line.lstrip().startswith("message:")], text

        # another value: the replay finds the button that shows it
        source = test_file.read_text()
        test_file.write_text(source.replace(NEW, "Plan the team offsite"))
        passed = await agent("run_tests", target=FILE, base_url=server.url)
        assert passed.startswith("Passed"), passed

        # the same test with other steps: replace: true rewrites it
        kept = await agent("open_test", test_file=FILE, test_name="test_lists",
                           base_url=server.url, steps=STEPS[:2], variables={"new": NEW})
        assert kept.startswith("Refused:") and "replace: true" in kept
        first = await agent("open_test", test_file=FILE, test_name="test_lists",
                            base_url=server.url, steps=STEPS[:2], variables={"new": NEW},
                            replace=True)
        assert first.startswith("Rewrote test_lists in tests/test_lists.py"), first
        await agent("act", message="Adding the list", actions=[
            {"tool": "fill", "parameters": {"element_id": line_id(first, r"input-\d+"),
                                            "value": "{new}"}},
            {"tool": "press", "parameters": {"element_id": line_id(first, r"input-\d+"),
                                             "key": "Enter"}}])
        end = await agent("done", message="Added", evidence=[NEW])
        assert end.startswith("Recorded"), end

        await dismissed_and_switch(agent, project, server.url)
        saved.update(test=test_file.read_text(), recipe=recipe.read_text())
        await end_unpassed(agent, test_file, recipe, saved, server.url)
        await rewrite(agent, test_file, server.url)  # and the client goes away, waited for

    try:
        serve(project, script)
        deadline = time.monotonic() + 30  # the server undoes as it exits
        while time.monotonic() < deadline and test_file.read_text() != saved["test"]:
            time.sleep(0.2)
        as_it_was(test_file, recipe, saved)
    finally:
        server.stop()
    source = test_file.read_text()
    assert source == ('def test_lists(webtask):\n    webtask.goto("/lists.html")\n'
                      f'    webtask.do("add the list {{new}}", new="{NEW}")\n')


async def rewrite(agent: Agent, test_file: Path, url: str) -> str:
    """test_lists rewritten with other steps, its recording under way."""
    first = await agent("open_test", test_file=FILE, test_name="test_lists", base_url=url,
                        steps=STEPS[:2], variables={"new": "Other"}, replace=True)
    assert first.startswith("Rewrote"), first
    assert 'webtask.do("add the list {new}", new="Other")' in test_file.read_text()
    return str(first)


def as_it_was(test_file: Path, recipe: Path, saved: dict[str, str]) -> None:
    assert test_file.read_text() == saved["test"]
    assert recipe.read_text() == saved["recipe"]


async def end_unpassed(agent: Agent, test_file: Path, recipe: Path, saved: dict[str, str],
                       url: str) -> None:
    """``stop`` and the site going down, each mid-recording, leave the test file and the
    recipe as they were (``saved``)."""

    await rewrite(agent, test_file, url)
    stopped = await agent("stop")
    assert stopped.startswith("Stopped the recording.") and "back as it was" in stopped
    as_it_was(test_file, recipe, saved)

    down = LocalServer()
    first = await rewrite(agent, test_file, down.url)
    down.stop()
    assert "=== MODEL REQUEST" in first
    end = await agent("act", message="Opening the lists again", actions=[
        {"tool": "navigate", "parameters": {"url": "/lists.html"}}])
    assert "=== MODEL REQUEST" in end, end
    end = await agent("give_up", message="The site does not answer")
    while "=== MODEL REQUEST" in end:  # asked once more: the answer stands
        end = await agent("give_up", message="The site does not answer")
    assert end.startswith("Not recorded"), end
    assert "back as it was" in end, end
    as_it_was(test_file, recipe, saved)
