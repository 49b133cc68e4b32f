"""The model adapter example (docs/examples/messages_llm.py): a step records through it in a
user's project (the real pipeline, a fake SDK client answering from a script) and then
replays with no model. That it type-checks under ``mypy --strict`` with the public API alone
is checked by CI's mypy step (.ci/run), beside the package's own."""

from __future__ import annotations

import json
import os
import textwrap

import pytest
import yaml

from tests.plugin.conftest import ADD_SHIRT, ROOT

EXAMPLE = ROOT / "docs" / "examples" / "messages_llm.py"

CONFTEST = '''
import json, os
from pathlib import Path
from types import SimpleNamespace

import pytest

from example_suites.demo_shop import DemoShop
from messages_llm import MessagesLLM
from pytest_webtask.browser.chromium import launch_args

HERE = Path(__file__).parent
REPLIES = json.loads((HERE / "replies.json").read_text())
SEEN = HERE / "seen.jsonl"


class FakeMessages:
    """Stands in for an SDK's messages endpoint: answers from a script, keeps requests."""

    def create(self, *, model, system, messages, max_tokens, temperature):
        with SEEN.open("a") as fh:
            fh.write(json.dumps({"model": model, "system": system, "messages": messages,
                                 "max_tokens": max_tokens, "temperature": temperature}) + "\\n")
        n = len(SEEN.read_text().splitlines())
        text = json.dumps(REPLIES[n - 1])
        return SimpleNamespace(content=[SimpleNamespace(type="text", text=text)],
                               usage=SimpleNamespace(input_tokens=1000, output_tokens=40),
                               stop_reason="end_turn")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    with DemoShop(seed=3) as shop:
        yield shop.url


@pytest.fixture(scope="session")
def webtask_llm():
    if os.environ.get("FORBID_LLM"):
        raise AssertionError("webtask_llm was requested although the step should replay")
    return MessagesLLM(SimpleNamespace(messages=FakeMessages()), model="fake-messages-model")
'''

TEST = '''
def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''


def test_a_step_records_through_the_adapter_and_replays_without_it(
        pytester_process: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester = pytester_process  # a user's project, in its own process
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(EXAMPLE.parent)]))
    for name in ("CI", "WEBTASK_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    pytester.makeconftest(CONFTEST)
    (pytester.path / "replies.json").write_text(json.dumps(ADD_SHIRT))
    pytester.makepyfile(test_shop=textwrap.dedent(TEST))

    recorded = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=240)
    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines(["0 step(s) replayed, 1 recorded, 0 failed",
                                   "LLM: 2 call(s), 2000 prompt + 80 completion tokens"])
    seen = [json.loads(line) for line in
            (pytester.path / "seen.jsonl").read_text().splitlines()]
    assert len(seen) == 2
    first = seen[0]
    assert first["model"] == "fake-messages-model" and first["temperature"] == 0
    # the worked examples come first, as earlier turns; then the request itself
    assert [m["role"] for m in first["messages"][:2]] == ["user", "assistant"]
    prompt = first["messages"][-1]["content"][0]["text"]
    assert "add the Blue Oxford Shirt in size M to the cart" in prompt  # the task
    assert "JSON schema" in prompt and '"actions"' in prompt  # the reply's schema
    assert "Blue Oxford Shirt" in prompt and "select-3" in prompt  # the page state
    recipe = yaml.safe_load(
        (pytester.path / "__webtask__/test_shop/test_add.yaml").read_text())
    (step,) = recipe["steps"]
    assert [a["tool"] for a in step["actions"]] == ["select", "click"]
    assert step["actions"][1]["target"]["name"] == "Add to cart"
    assert step["checks"], "the step's evidence became checks"

    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("FORBID_LLM", "1")
    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=240)
    replayed.assert_outcomes(passed=1)
    replayed.stdout.fnmatch_lines(["1 step(s) replayed, 0 recorded, 0 failed", "LLM: 0 calls"])
    assert len((pytester.path / "seen.jsonl").read_text().splitlines()) == 2
