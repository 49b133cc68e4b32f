"""What the model's use shows, from each reply's and each failure's ``Usage`` (calls, tokens,
seconds, timeouts, refusals): the terminal summary's LLM line, the -v line of a recorded
step, the live line while it records, the HTML report. In process, no browser, no model."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from pytest_webtask import LLMError, LLMReply, Usage
from pytest_webtask.agent.task_context import TaskContext
from pytest_webtask.llm.request import Block, ModelRequest
from pytest_webtask.plugin.step_listeners import LiveLine, ReportListener, StepLines
from pytest_webtask.plugin.summary import _model_use
from pytest_webtask.recipes.model import RecipeStep
from pytest_webtask.report.collect import ReportPart
from pytest_webtask.report.html import render
from pytest_webtask.report.progress import Progress
from pytest_webtask.steps.identity import StepIdentity
from pytest_webtask.steps.listeners import Listeners
from pytest_webtask.steps.outcome import StepOutcome, StepRequest, StepRun
from pytest_webtask.steps.stats import StepStats


class Terminal:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def write_line(self, line: str) -> None:
        self.lines.append(line)


class Model:
    """A reply whose format was refused once and that took 2.5 s, then a timeout."""

    supports_images = False

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, context: ModelRequest) -> LLMReply:
        self.calls += 1
        if self.calls == 2:
            raise LLMError("The model endpoint did not answer within 3s.",
                           usage=Usage(seconds=3.0, timeouts=1))
        return LLMReply('{"complete": true}', Usage(calls=1, prompt_tokens=100,
                                                   completion_tokens=20, seconds=2.5,
                                                   refusals=1))

    async def agenerate(self, context: ModelRequest) -> LLMReply:  # pragma: no cover - sync here
        return self.generate(context)


def _record(listeners: Listeners, how: str = "recorded") -> None:
    run = StepRun(StepRequest(StepIdentity.make("do", "buy")), TaskContext.create("buy"), 0)
    listeners.recording_started(run)
    heard = listeners.heard(Model())
    context = ModelRequest(system="s", blocks=[Block("the page")])
    heard.generate(context)
    with pytest.raises(LLMError):
        heard.generate(context)
    listeners.recording_ended(run)
    listeners.step_finished(run, StepOutcome("do", "buy", how, 6.0, RecipeStep(
        kind="do", text="buy")), None)


def test_usage_adds_and_subtracts_every_count() -> None:
    used = Usage(1, 10, 2, seconds=1.5, timeouts=1)
    start = used.copy()
    used.add(Usage(1, 5, 1, seconds=2.0, refusals=1))
    assert used == Usage(2, 15, 3, seconds=3.5, timeouts=1, refusals=1)
    assert used.since(start) == Usage(1, 5, 1, seconds=2.0, timeouts=0, refusals=1)
    assert start == Usage(1, 10, 2, seconds=1.5, timeouts=1)  # a copy, not the same object


def test_the_summary_line_counts_seconds_timeouts_and_refusals() -> None:
    assert _model_use(StepStats()) == "LLM: 0 calls"
    assert _model_use(StepStats(llm_calls=2, prompt_tokens=2000, completion_tokens=80)) == \
        "LLM: 2 call(s), 2000 prompt + 80 completion tokens"  # a model that counts no time
    assert _model_use(StepStats(llm_calls=4, prompt_tokens=14000, completion_tokens=600,
                                llm_seconds=95.34, llm_timeouts=1, llm_refusals=1)) == \
        ("LLM: 4 call(s), 14000 prompt + 600 completion tokens, 95.3s waiting for the model, "
         "1 timed out, 1 refusal(s) of json_schema")
    assert _model_use(StepStats(llm_timeouts=2, llm_seconds=120)) == \
        "LLM: 0 call(s), 120.0s waiting for the model, 2 timed out"  # every request timed out


def test_the_verbose_line_of_a_recorded_step_says_what_the_model_cost() -> None:
    terminal = Terminal()
    _record(Listeners([StepLines(terminal, None)]))
    assert terminal.lines == [
        "    webtask Step 1 do('buy'): recorded (0 action(s), 0 check(s), 6.00s; model: "
        "1 call(s), 120 tokens, 5.5s, 1 timed out, 1 refused json_schema)"]


def test_the_live_line_counts_timeouts_and_refusals_as_they_happen() -> None:
    out = io.StringIO()
    progress = Progress(out, room=lambda: 200)
    listeners = Listeners([LiveLine(progress)])
    run = StepRun(StepRequest(StepIdentity.make("do", "buy")), TaskContext.create("buy"), 0)
    listeners.recording_started(run)
    heard = listeners.heard(Model())
    heard.generate(ModelRequest(system="s", blocks=[Block("x")]))
    assert progress._text() == " [recording Step 1 do('buy'): 1 model call, 1 refused, 0s]"
    with pytest.raises(LLMError):
        heard.generate(ModelRequest(system="s", blocks=[Block("x")]))
    # the step's text gives way to the counts (60 columns at most)
    assert progress._text().endswith("…: 2 model calls, 1 timed out, 1 refused, 0s]")
    listeners.recording_ended(run)


def test_the_report_shows_each_step_s_model_use_and_the_failed_call(tmp_path: Path) -> None:
    report = ReportPart("test_shop.py::test_buy[chromium]", tmp_path, str)
    _record(Listeners([ReportListener(report)]))
    report.save("passed")
    (part,) = tmp_path.glob("*.json")
    data = json.loads(part.read_text())
    answered, failed = data["steps"][0]["calls"]
    assert (answered["tokens"], answered["seconds"], answered["refusals"]) == (120, 2.5, 1)
    assert (failed["error"], failed["timeouts"], failed["seconds"]) == \
        ("The model endpoint did not answer within 3s.", 1, 3.0)
    html = render([data])
    summary = dict(re.findall(r"<td id='([\w-]+)'>([\d.]+)</td>", html))
    assert (summary["calls"], summary["tokens"], summary["model-seconds"], summary["timeouts"],
            summary["refusals"]) == ("1", "120", "5.5", "1", "1")
    assert ("<span class='model'>1 model call, 120 tokens, 5.5s, 1 timed out, 1 refused "
            "json_schema, 1 failed</span>") in html
    assert "<summary>model call 1 (120 tokens, 2.5s, 1 refused json_schema)</summary>" in html
    assert "<div class='fail'>The model endpoint did not answer within 3s.</div>" in html
