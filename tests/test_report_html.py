"""The HTML report, in process: what one test's steps leave (a JSON fragment, secrets masked
once more), and the one file rendered from the fragments: the summary's counts, each step's
actions, checks, model calls and failure, escaped, with no script. (tests/test_report.py
opens real reports in Chromium.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pytest_webtask.llm.request import Block, ModelRequest
from pytest_webtask.plugin.step_listeners import ReportListener
from pytest_webtask.recipes.model import Check, RecipeAction, RecipeStep
from pytest_webtask.report.collect import ReportPart
from pytest_webtask.report.html import render
from pytest_webtask.steps.listeners import Listeners
from pytest_webtask.steps.outcome import StepOutcome
from pytest_webtask.testing import ScriptedLLM
from pytest_webtask.types import Fingerprint, Secrets

SECRET = "lovelace-1815"
PNG = b"\x89PNG fake bytes"


def sign_in_step() -> RecipeStep:
    return RecipeStep(kind="do", text="sign in as {email}", actions=[
        RecipeAction(tool="fill", params={"value": "{password}", "element_id": "input-1"},
                     target=Fingerprint(tag="input", role="textbox", label="Password")),
        RecipeAction(tool="click", target=Fingerprint(tag="button", role="button",
                                                      name="Sign in"))],
        checks=[Check(expect="text", text="Signed in as Ada"),
                Check(expect="visible", held_before=True,
                      element=Fingerprint(tag="nav", role="navigation"))],
        message=f"typed {SECRET} and signed in")


def test_a_test_s_fragment_masks_secrets_in_prompts_messages_and_failures(
        tmp_path: Path) -> None:
    secrets = Secrets({"password": SECRET})
    report = ReportPart("test_shop.py::test_sign_in[chromium]", tmp_path, secrets.mask)
    llm = Listeners([ReportListener(report)]).heard(
        ScriptedLLM([{"complete": True, "message": f"ok {SECRET}"}]))
    llm.generate(ModelRequest(system="s", blocks=[Block(f"the field shows {SECRET}")]))
    report.action(None, PNG)
    report.action(None, None)
    report.step_finished(StepOutcome("do", "sign in as {email}", "recorded", 1.23456,
                                     sign_in_step()), PNG)
    # a secret the test itself put into a step's text (an f-string) is masked on saving
    report.step_finished(StepOutcome("check", f"the page greets {SECRET}", "replayed", 0.1,
                                     RecipeStep(kind="check", text="x", checks=[
                                         Check(expect="text", text=f"Hi {SECRET}")])), None)
    report.step_failed("check", "the cart total is $39.00",
                       f"Replay failed. expected 'Total: $39.00', found {SECRET}", 0.5, None)
    report.save("failed")
    (part,) = tmp_path.glob("*.json")
    assert not list(tmp_path.glob("*.tmp"))
    raw = part.read_text()
    assert SECRET not in raw
    data = json.loads(raw)
    assert (data["test"], data["outcome"]) == ("test_shop.py::test_sign_in[chromium]", "failed")
    recorded, greeted, failed = data["steps"]
    assert greeted["text"] == "the page greets {password}"
    assert greeted["checks"][0]["says"].endswith("'Hi {password}'")
    assert recorded["how"] == "recorded" and recorded["seconds"] == 1.235
    assert [a["tool"] for a in recorded["actions"]] == ["fill", "click"]
    assert recorded["actions"][0]["params"] == '{"value": "{password}"}'  # no element id
    assert recorded["actions"][0]["before"] and recorded["actions"][1]["before"] is None
    assert recorded["calls"][0]["prompt"].endswith("the field shows {password}")
    assert recorded["message"] == "typed {password} and signed in"
    assert failed["how"] == "failed" and failed["calls"] == [] and failed["shot"] is None
    assert failed["message"].endswith("found {password}")


def test_a_test_with_no_step_leaves_no_fragment_and_no_listener_wraps_nothing(
        tmp_path: Path) -> None:
    ReportPart("t.py::t", tmp_path / "parts", str).save("passed")
    assert not (tmp_path / "parts").exists()
    llm = ScriptedLLM(["x"])
    assert Listeners([]).heard(llm) is llm  # the model is not wrapped when nobody listens


def test_the_report_counts_steps_and_calls_and_shows_each_step(tmp_path: Path) -> None:
    report = ReportPart("test_shop.py::test_sign_in[chromium]", tmp_path, str)
    llm = Listeners([ReportListener(report)]).heard(
        ScriptedLLM([{"complete": True, "message": "ok"}]))
    llm.generate(ModelRequest(system="s", blocks=[Block("page: <b>Sign in</b>")]))
    from pytest_webtask.agent.models import ProposalResult, Step, TaskResult

    agent_steps = [Step(ProposalResult(False, "m"), rules=["act-first", "task-lines"]),
                   Step(ProposalResult(True, "done"), rules=["task-lines", "stale-evidence"])]
    report.step_finished(StepOutcome("do", "sign in as {email}", "recorded", 1.0,
                                     sign_in_step(), TaskResult(True, agent_steps, "done")),
                         PNG)
    report.step_finished(StepOutcome("check", "signed in", "replayed", 0.2,
                                     RecipeStep(kind="check", text="signed in")), None)
    report.save("passed")
    other = ReportPart("test_cart.py::test_total[chromium]", tmp_path, str)
    other.step_failed("check", "the total is <$39>", "expected 'Total: $39.00'", 0.1, PNG)
    other.save("failed")
    tests = sorted((json.loads(p.read_text()) for p in tmp_path.glob("*.json")),
                   key=lambda t: t["test"])
    html = render(tests)
    summary = dict(re.findall(r"<td id='(\w+)'>(\d+)</td>", html))
    assert summary == {"tests": "2", "replayed": "1", "recorded": "1", "failed": "1",
                       "calls": "1", "tokens": "0", "unverified": "1", "doubted": "0",
                       "timeouts": "0", "refusals": "0"}
    assert "<script" not in html and "http" not in html
    assert "&lt;b&gt;Sign in&lt;/b&gt;" in html and "the total is &lt;$39&gt;" in html
    assert html.count("<section class='test passed'>") == 1
    assert html.count("<section class='test failed'>") == 1
    assert html.count("<div class='step recorded'>") == 1
    assert html.count("<div class='step replayed'>") == 1
    assert "<div class='fail'>expected &#x27;Total: $39.00&#x27;</div>" in html
    assert "fill textbox &quot;Password&quot; <code>{&quot;value&quot;: &quot;{password}" in html
    assert "<li class='held'>✓" in html and "(held before the step)" in html
    assert html.count("<details class='call'>") == 1
    # the policy's rules that fired while the step recorded, each once (issue 45)
    assert "agent rules that fired: act-first, task-lines, stale-evidence" in html
    assert html.count("src='data:image/jpeg;base64,") == 2  # the recorded step, the failure
