"""The step pipeline in a real run: a step's whole identity decides whether it replays, the
printed fix command re-records exactly the failing test, and plugins add tools and
strategies through the hooks."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from xml.etree import ElementTree

from tests.plugin.conftest import Inner

IDENTITY_TESTS = '''
import os
import pytest


def test_sign_in(webtask):
    webtask.goto("/signin")
    webtask.do("sign in as {email}", email="ada@example.com",
               secrets={"password": os.environ.get("SHOP_PASSWORD", "lovelace-1815")})
'''


def test_a_changed_secret_name_is_reported_as_such(inner: Inner) -> None:
    inner.tests(IDENTITY_TESTS)
    inner.run().assert_outcomes(passed=1)
    # the test stops passing the password as a secret: replaying would type "{password}"
    inner.tests(IDENTITY_TESTS.replace(
        'secrets={"password": os.environ.get("SHOP_PASSWORD", "lovelace-1815")}',
        'password="lovelace-1815"'))
    ci = inner.run(env={"CI": "1", "FORBID_LLM": "1"})
    ci.assert_outcomes(failed=1)
    ci.stdout.fnmatch_lines(["*was recorded for another call: the variable names changed: "
                             "+ password; the secret names changed: - password*"])
    assert "pytest --webtask-record 'test_shop.py::test_sign_in[chromium]'" in ci.stdout.str()


def test_a_changed_resource_name_is_reported_as_such(inner: Inner) -> None:
    recipe = inner.recipe("test_upload")
    recipe.parent.mkdir(parents=True)
    recipe.write_text(
        "version: 3\ntest: test_upload\nsteps:\n- kind: do\n  text: attach the receipt\n"
        "  resources: [receipt]\n  checks:\n  - expect: text\n    text: Receipt\n")
    inner.tests('''
def test_upload(webtask):
    webtask.goto("/")
    webtask.do("attach the receipt", resources={"invoice": __file__})
''')
    ci = inner.run(env={"CI": "1", "FORBID_LLM": "1"})
    ci.assert_outcomes(failed=1)
    ci.stdout.fnmatch_lines(["*the resource names changed: + invoice, - receipt*"])


def test_changed_extraction_fields_are_reported_as_such(inner: Inner) -> None:
    recipe = inner.recipe("test_list")
    recipe.parent.mkdir(parents=True)
    recipe.write_text(
        "version: 3\ntest: test_list\nsteps:\n- kind: extract\n  text: the products\n"
        "  extraction:\n    fields: [name, price]\n"
        "    bindings: {LIST_ITEM: li, DETAILS_PANEL: aside, CLICK_BEHAVIOR: navigates}\n"
        "    recipe: {commands: []}\n")
    inner.tests('''
def test_list(webtask):
    webtask.goto("/")
    webtask.extract("the products", fields=["name", "price", "stock"])
''')
    ci = inner.run(env={"CI": "1", "FORBID_LLM": "1"})
    ci.assert_outcomes(failed=1)
    ci.stdout.fnmatch_lines(["*the fields changed: + stock*"])


CLASS_TESTS = '''
import pytest


class TestCart:
    @pytest.mark.parametrize("colour", ["Blue", "Navy"])
    def test_add(self, webtask, colour):
        webtask.goto("/")
        webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''


def test_the_printed_fix_command_records_exactly_that_test(inner: Inner) -> None:
    inner.tests(CLASS_TESTS)
    ci = inner.run("-p", "no:randomly", env={"CI": "1", "FORBID_LLM": "1"})
    ci.assert_outcomes(failed=2)
    line = next(ln for ln in ci.stdout.lines
                if "pytest --webtask-record" in ln and "Blue" in ln)
    command = line.split("with:", 1)[1].split("(then commit", 1)[0].strip()
    assert command == ("pytest --webtask-record "
                       "'test_shop.py::TestCart::test_add[chromium-Blue]'")
    args = shlex.split(command)[1:]  # run as printed (pytester supplies "pytest")
    result = inner.run(*args)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*0 step(s) replayed, 1 recorded, 0 failed*"])
    folder = inner.path / "__webtask__" / "test_shop"
    assert sorted(p.name for p in folder.glob("*.yaml")) == ["TestCart.test_add[Blue].yaml"]


def _docs_tool() -> str:
    """The example tool of docs/extending.md, as the docs show it."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "extending.md").read_text()
    start = docs.index("class StampParams(ToolParams):")
    return docs[start:docs.index("\n\ndef pytest_webtask_add_tools", start)]


PLUGIN_CONFTEST = '''
from pytest_webtask import Agent, ExecutionResult, Tool, ToolParams

USED = []


''' + _docs_tool() + '''


def pytest_webtask_add_tools(flavour):
    return [StampTool] if flavour == "sync" else []


def counting_strategy(page, llm, options):
    USED.append(options.max_steps)
    (__import__("pathlib").Path(__file__).with_name("strategy.log")).open("a").write("used\\n")
    return Agent(page, llm, **options.agent_kwargs())


def pytest_webtask_add_strategies(flavour):
    return {"counting": counting_strategy}


def _log(line):
    with (__import__("pathlib").Path(__file__).with_name("steps.log")).open("a") as fh:
        fh.write(line + "\\n")


def pytest_webtask_step_done(item, outcome):
    _log(f"{item.name} {outcome.kind} {outcome.how} {len(outcome.recipe_step.actions)}")


def pytest_webtask_step_failed(item, kind, text, message):
    _log(f"FAILED {item.name} {kind} {message.splitlines()[0][:40]}")
'''


def test_a_plugin_adds_a_tool_and_a_strategy(inner: Inner) -> None:
    """The docs' example tool: its perform records and replays, its code exports."""
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + PLUGIN_CONFTEST)
    inner.tests('''
import pytest


@pytest.mark.webtask(strategy="counting")
def test_stamp(webtask):
    webtask.goto("/")
    webtask.do("stamp the heading with Hello")
''')
    inner.scripts({"stamp the heading": [
        {"complete": False, "message": "stamp", "actions": [
            {"reason": "stamp", "tool": "stamp", "parameters": {"word": "Hello"}}]},
        {"complete": True, "message": "stamped",
         "evidence": [{"expect": "text", "text": "Hello"}]}]})
    folder = inner.path / "exported"
    recorded = inner.run(f"--webtask-export={folder}")
    recorded.assert_outcomes(passed=1)
    assert "DeprecationWarning" not in recorded.stdout.str()
    assert (inner.path / "strategy.log").read_text() == "used\n"
    assert "tool: stamp" in inner.recipe("test_stamp").read_text()
    exported = next(folder.glob("test_*.py")).read_text()
    assert "page.evaluate(\"w => document.querySelector('h1').textContent = w\", " \
        "'Hello')" in exported
    shutil.rmtree(folder)  # not a test of the runs below
    # the replay runs the plugin's tool again, with no model, and its check holds
    replay = inner.run(env={"CI": "1", "FORBID_LLM": "1"})
    replay.assert_outcomes(passed=1)
    replay.stdout.fnmatch_lines(["*1 step(s) replayed, 0 recorded, 0 failed*"])
    # and a replay of a page where the tool no longer has its effect fails
    inner.tests('''
import pytest
import conftest


def test_stamp(webtask, monkeypatch):
    monkeypatch.setattr(conftest.StampTool, "perform", staticmethod(
        lambda params, scene: conftest.ExecutionResult(success=True)))
    webtask.goto("/")
    webtask.do("stamp the heading with Hello")
''')
    broken = inner.run(env={"CI": "1", "FORBID_LLM": "1"})
    broken.assert_outcomes(failed=1)
    broken.stdout.fnmatch_lines(["*Replay failed*Hello*"])
    # the observing hooks heard every step: recorded, replayed, failed
    assert (inner.path / "steps.log").read_text().splitlines() == [
        "test_stamp[chromium] do recorded 1", "test_stamp[chromium] do replayed 1",
        "FAILED test_stamp[chromium] do Replay failed. Step 1 do('stamp the head"]


OLD_TOOL_CONFTEST = '''
from pytest_webtask import ExecutionResult, Tool, ToolParams


class StampParams(ToolParams):
    word: str


class StampTool(Tool):
    """Written for the protocol before perform."""
    name = "stamp"
    description = "Write a word into the page heading"
    params_class = StampParams

    @staticmethod
    def act(page, params, locator, substitute):
        page.evaluate("w => { document.querySelector('h1').textContent = w }",
                      substitute(params["word"]))
        return ExecutionResult(success=True)


def pytest_webtask_add_tools(flavour):
    return [StampTool] if flavour == "sync" else []
'''


def test_a_tool_written_with_act_still_works_and_says_what_to_change(inner: Inner) -> None:
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + OLD_TOOL_CONFTEST)
    inner.tests('''
def test_stamp(webtask):
    webtask.goto("/")
    webtask.do("stamp the heading with {word}", word="Hello")
''')
    inner.scripts({"stamp the heading": [
        {"complete": False, "message": "stamp", "actions": [
            {"reason": "stamp", "tool": "stamp", "parameters": {"word": "{word}"}}]},
        {"complete": True, "message": "stamped",
         "evidence": [{"expect": "text", "text": "Hello"}]}]})
    warned = ["*conftest.py:*: DeprecationWarning: StampTool defines act(page, params, "
              "locator, substitute), which is deprecated*Replace its 'def act(page, params, "
              "locator, substitute):' line with 'def perform(params, scene):'*"]
    recorded = inner.run()
    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines(warned)
    replay = inner.run(env={"CI": "1", "FORBID_LLM": "1"})
    replay.assert_outcomes(passed=1)
    replay.stdout.fnmatch_lines([*warned, "*1 step(s) replayed, 0 recorded, 0 failed*"])


def test_an_unknown_strategy_in_a_marker_fails_clearly(inner: Inner) -> None:
    inner.tests('''
import pytest


@pytest.mark.webtask(strategy="guess")
def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
''')
    result = inner.run()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*unknown webtask strategy 'guess': known are plan, step*"])
    assert "Traceback" not in result.stdout.str()




def test_the_recipe_path_fixture_moves_recipes_and_junit_gets_json(inner: Inner) -> None:
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + '''

@pytest.fixture
def webtask_recipe_path(request):
    return Path(__file__).parent / "recipes" / f"{request.node.originalname}.yaml"
''')
    inner.tests('''
def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
''')
    inner.run().assert_outcomes(passed=1)
    moved = inner.path / "recipes" / "test_add.yaml"
    assert moved.exists() and not (inner.path / "__webtask__").exists()
    replay = inner.run("--junitxml=report.xml", env={"CI": "1", "FORBID_LLM": "1"})
    replay.assert_outcomes(passed=1)
    root = ElementTree.parse(inner.path / "report.xml").getroot()
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert json.loads(props["webtask"])["replayed"] == 1
    assert json.loads(props["webtask_recipe_use"])["path"] == str(moved)


def test_a_malformed_tool_from_a_hook_is_a_clear_error() -> None:
    from types import SimpleNamespace

    import pytest

    from pytest_webtask import Tool
    from pytest_webtask.errors import ConfigurationError
    from pytest_webtask.plugin.assembly import _extensions

    class NoAct:
        name, description, params_class = "x", "does x", object

    class NoPerform(Tool):
        name, description, params_class = "x", "does x", object

    hook = SimpleNamespace(pytest_webtask_add_tools=lambda flavour: [[NoAct]],
                           pytest_webtask_add_strategies=lambda flavour: [{}])
    for wrong in (NoAct, NoPerform):
        hook.pytest_webtask_add_tools = lambda flavour, wrong=wrong: [[wrong]]
        with pytest.raises(ConfigurationError, match=r"a tool is a subclass of "
                           r"pytest_webtask.Tool with a name, a description, a params_class "
                           r"and perform\(params, scene\)"):
            _extensions(hook, "sync")
    hook.pytest_webtask_add_tools = lambda flavour: [["not a class"]]
    with pytest.raises(ConfigurationError, match="returned 'not a class'"):
        _extensions(hook, "sync")
