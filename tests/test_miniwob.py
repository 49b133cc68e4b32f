"""The MiniWoB++ harness (bench/miniwob.py) end to end: real task pages in a real Chromium,
driven by the project's agents with scripted oracles (never a model's result), and the
harness's own failure paths: endpoint down, malformed replies, a page that does not load,
no model configured, Ctrl-C."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from bench.miniwob import Options, main, parse_args, run
from bench.miniwob_oracles import POLICIES, act, elements, oracle_llm
from bench.miniwob_pages import BenchError, pages_dir
from pytest_webtask.llm.openai_llm import OpenAILLM
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import FakeOpenAIServer, ScriptedLLM

PLAN_TASKS = ["choose-list", "click-checkboxes", "click-dialog-2", "click-option",
              "enter-password", "enter-text", "login-user", "click-widget"]


def _oracle(task: str, instruction: str) -> ScriptedLLM:
    return oracle_llm(task, instruction)


def _meta(**extra: Any) -> dict[str, Any]:
    return {"scripted": True, "strategy": "step", **extra}


@pytest.fixture(autouse=True)
def _session_browser(browser: Browser) -> None:
    """The harness runs on pytest-playwright's browser: a second sync Playwright cannot
    start in a process whose session fixtures already did."""
    global BROWSER
    BROWSER = browser


BROWSER: Browser | None = None


def _run(tasks: list[str], llm_for: Any, **opts: Any) -> tuple[Any, str]:
    stream = io.StringIO()
    meta = opts.pop("meta", {})
    options = Options(tasks=tasks, episodes=opts.pop("episodes", 1), **opts)
    report = run(options, llm_for, _meta(strategy=options.strategy, **meta), stream=stream,
                 browser=BROWSER)
    return report, stream.getvalue()


def _assert_all_solved(report: Any, tasks: list[str], episodes: int) -> None:
    assert report.stopped == ""
    assert [r.task for r in report.records] == [t for t in tasks for _ in range(episodes)]
    for r in report.records:
        assert (r.error, r.episode_done, r.reward, r.success) == ("", True, 1.0, True), r
        assert r.instruction and r.calls >= 1 and r.steps >= 1


def test_scripted_oracles_solve_every_oracle_task_with_the_step_agent(tmp_path: Path) -> None:
    tasks = sorted(POLICIES)
    assert len(tasks) >= 8
    report, progress = _run(tasks, _oracle, episodes=1, seed=0)
    _assert_all_solved(report, tasks, 1)
    # one model call per step; the call after the page ended the episode is never made
    assert all(r.calls == r.steps for r in report.records)
    multi_step = {"choose-date", "choose-date-easy"}  # open the calendar, (page,) pick
    assert {r.calls for r in report.records if r.task not in multi_step} == {1}
    assert f"{len(tasks)}/{len(tasks)} successes {len(tasks)}" in progress
    overall = report.to_json()["overall"]
    assert (overall["episodes"], overall["success_rate"], overall["errors"]) == (
        len(tasks), 1.0, 0)
    js, md = report.write(tmp_path)
    assert "NOT a model" in md.read_text()
    assert "| click-button | 1 | 100% | 1.0 | 1.0 | - | - |" in md.read_text()
    assert f"| **overall** | {len(tasks)} | 100% |" in md.read_text()
    assert json.loads(js.read_text())["tasks"]["login-user"]["successes"] == 1


def test_scripted_oracles_solve_tasks_with_the_plan_agent_on_other_seeds() -> None:
    report, _ = _run(PLAN_TASKS, _oracle, episodes=1, seed=7, strategy="plan")
    _assert_all_solved(report, PLAN_TASKS, 1)
    # the planner's call plus one resolving call per planned step
    assert all(r.calls == r.steps + 1 for r in report.records if r.steps <= 3)


@pytest.mark.bench
def test_fixed_seeds_give_the_same_instructions_and_two_episodes_differ() -> None:
    first, _ = _run(["enter-text"], _oracle, episodes=2, seed=3)
    again, _ = _run(["enter-text"], _oracle, episodes=2, seed=3)
    _assert_all_solved(first, ["enter-text"], 2)
    texts = [r.instruction for r in first.records]
    assert texts == [r.instruction for r in again.records]
    assert texts[0] != texts[1]
    assert [r.seed for r in first.records] == [3, 4]


@pytest.mark.bench
def test_a_natural_language_task_starts_with_its_sentence() -> None:
    """The -nl mail tasks' getUtterance gives {utterance, fields}, not a string: the episode
    starts with the sentence (it was an error, "no instruction in #query")."""
    impossible = {"complete": False, "impossible": True, "message": "stop"}
    report, _ = _run(["email-inbox-forward-nl"],
                     lambda task, text: ScriptedLLM([impossible] * 4), seed=0)
    record = report.records[0]
    assert (record.error, record.success) == ("", False)
    assert record.instruction == "Give Bobine the message you received from Cora,"


@pytest.mark.bench
def test_the_reward_is_the_pages_own_a_wrong_click_and_a_false_done_fail() -> None:
    """A wrong answer scores what MiniWoB says (-1), and an agent that claims success
    without acting is not credited: the page's episode never ended."""
    def wrong(task: str, instruction: str) -> ScriptedLLM:
        wanted = instruction.split("Select ")[1].split(" from the list")[0]

        def reply(context: ModelRequest) -> Any:
            box = next(e for e in elements(context.user_text) if e.tag == "select")
            other = next(o for o in box.attrs["options"].split("|") if o != wanted)
            submit = next(e for e in elements(context.user_text) if e.text == "Submit")
            return {"complete": False, "message": "wrong on purpose", "actions": [
                act("select", element_id=box.id, value=other),
                act("click", element_id=submit.id)]}
        return ScriptedLLM(reply)

    def claims_done(task: str, instruction: str) -> ScriptedLLM:
        return ScriptedLLM([{"complete": True, "message": "all done (not really)"}] * 2)

    report, _ = _run(["choose-list"], wrong, episodes=2, seed=0)
    for r in report.records:
        assert (r.episode_done, r.reward, r.success, r.error) == (True, -1.0, False, "")
    report, _ = _run(["enter-text"], claims_done, episodes=1)
    (r,) = report.records
    assert (r.agent_completed, r.episode_done, r.success, r.reward) == (True, False, False, 0.0)
    assert report.to_json()["overall"]["success_rate"] == 0.0


@pytest.mark.bench
def test_malformed_replies_fail_the_episode_with_the_reason_and_the_run_goes_on() -> None:
    with FakeOpenAIServer(replies=["this is not json at all"]) as server:
        llm = OpenAILLM("fake-model", base_url=server.base_url, api_key="sk-test-123",
                        max_retries=0)
        report, _ = _run(["click-button", "enter-text"], lambda t, i: llm, episodes=1,
                         meta={"scripted": False, "model": "fake-model"})
    assert report.stopped == ""
    assert len(report.records) == 2
    for r in report.records:
        assert (r.error, r.success, r.episode_done, r.agent_completed) == ("", False, False,
                                                                          False)
        assert "could not be used, twice" in r.agent_message
        # asked, then asked again once; tokens as the endpoint reported them
        assert r.calls == 2 and r.prompt_tokens > 0 and r.completion_tokens > 0
    md = report.to_markdown()
    assert "model `fake-model`" in md and "NOT a model" not in md
    mean_prompt = report.overall().figures()["mean_prompt_tokens"]
    assert f"| **overall** | 2 | 0% | 0.0 | 2.0 | {mean_prompt:g} | 20 |" in md


@pytest.mark.bench
def test_an_endpoint_that_is_down_stops_the_run_and_keeps_what_ran(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with FakeOpenAIServer() as server:
        dead = server.base_url  # nothing listens there once the server has stopped
    monkeypatch.setenv("WEBTASK_MODEL", "some-model")
    monkeypatch.setenv("OPENAI_BASE_URL", dead)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-never-written")
    monkeypatch.delenv("WEBTASK_LLM_TIMEOUT", raising=False)
    code = main(["--tasks", "click-button,enter-text", "--episodes", "2", "--out",
                 str(tmp_path)], browser=BROWSER)
    assert code == 1
    err = capsys.readouterr().err
    assert "Stopped early: the model endpoint failed" in err
    assert "Could not connect" in err and "OPENAI_BASE_URL" in err
    saved = (tmp_path / "miniwob.json").read_text()
    data = json.loads(saved)
    assert data["stopped"].startswith("the model endpoint failed")
    # unset, the bench waits 600 s for a reply (a local model's cold first request), as
    # bench/recording.py does; the plugin's own default stays 60 s
    assert data["meta"]["llm"]["timeout"] == 600
    assert len(data["episodes"]) == 1  # the first episode, then no more
    assert data["episodes"][0]["error"].startswith("LLMError: Could not connect")
    assert data["meta"]["base_url"] == dead and data["meta"]["model"] == "some-model"
    assert "sk-secret-never-written" not in saved
    assert "sk-secret-never-written" not in (tmp_path / "miniwob.md").read_text()


@pytest.mark.bench
def test_a_task_page_that_does_not_load_is_an_error_and_the_run_goes_on(
        tmp_path: Path) -> None:
    real = pages_dir()
    root = tmp_path / "html"
    shutil.copytree(real / "core", root / "core")
    shutil.copytree(real / "common", root / "common")
    (root / "miniwob").mkdir()
    shutil.copy(real / "miniwob" / "click-button.html", root / "miniwob")
    (root / "miniwob" / "no-task.html").write_text(
        "<html><body><div id='query'>not a task page</div></body></html>")
    (root / "miniwob" / "broken-script.html").write_text(
        "<html><head><script src='../core/core.js'></script><script>var genProblem = "
        "function () { throw new Error('boom'); };</script></head><body><div id='wrap'>"
        "<div id='query'></div><div id='area'></div></div></body></html>")
    tasks = ["no-task", "broken-script", "click-button"]
    report, _ = _run(tasks, _oracle, episodes=1, pages=root)
    no_task, broken, ok = report.records
    assert "did not start a MiniWoB++ episode" in no_task.error
    assert "no-task.html" in no_task.error
    assert "broken-script.html" in broken.error and "boom" in broken.error
    assert (ok.error, ok.success) == ("", True)
    overall = report.to_json()["overall"]
    assert (overall["errors"], overall["successes"], overall["success_rate"]) == (2, 1, 1.0)


@pytest.mark.bench
def test_ctrl_c_keeps_the_episodes_that_ran(tmp_path: Path) -> None:
    def interrupt_second(task: str, instruction: str) -> ScriptedLLM:
        if task == "enter-text":
            raise KeyboardInterrupt
        return oracle_llm(task, instruction)

    report, _ = _run(["click-button", "enter-text", "login-user"], interrupt_second)
    assert report.stopped == "interrupted (Ctrl-C)"
    assert [r.task for r in report.records] == ["click-button"]
    js, md = report.write(tmp_path)
    assert "Stopped early: interrupted (Ctrl-C)" in md.read_text()
    assert json.loads(js.read_text())["overall"]["successes"] == 1


@pytest.mark.bench
def test_without_a_model_it_says_how_to_point_at_one_and_exits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("WEBTASK_MODEL", raising=False)
    assert main(["--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "No model configured" in err and "OPENAI_BASE_URL" in err and "--scripted" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()

    monkeypatch.setenv("WEBTASK_MODEL", "m")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["--out", str(tmp_path / "out")]) == 2
    assert "set OPENAI_API_KEY" in capsys.readouterr().err


@pytest.mark.bench
def test_bad_task_names_are_refused_before_anything_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--scripted", "--tasks", "click-buton", "--out", str(tmp_path)]) == 2
    assert "No scripted oracle for click-buton" in capsys.readouterr().err
    assert main(["--scripted", "--tasks", "click-button", "--pages", str(tmp_path),
                 "--out", str(tmp_path / "o")]) == 2
    assert "has no miniwob/ folder" in capsys.readouterr().err
    with pytest.raises(BenchError, match="No such MiniWoB\\+\\+ task: click-buton"):
        _run(["click-buton"], _oracle)


@pytest.mark.bench
def test_an_episode_that_raises_is_an_error_and_the_run_goes_on() -> None:
    def broken_for_one(task: str, instruction: str) -> ScriptedLLM:
        if task == "click-button":
            def fail(context: ModelRequest) -> Any:
                raise LookupError("the policy has a bug")
            return ScriptedLLM(fail)
        return oracle_llm(task, instruction)

    report, _ = _run(["click-button", "enter-text"], broken_for_one)
    broken, ok = report.records
    assert broken.error == "LookupError: the policy has a bug"
    assert (ok.error, ok.success, report.stopped) == ("", True, "")


@pytest.mark.bench
def test_rules_off_is_checked_before_any_episode(capsys: pytest.CaptureFixture[str]) -> None:
    """``--rules-off`` (an A/B of the agent's rules): a known name is passed to the agent, a
    wrong one stops the run at once, naming the rules, not a traceback per episode."""
    from bench.miniwob import parse_args
    assert parse_args(["--rules-off", "do-demos", "--tasks", "click-test"]).rules_off \
        == "do-demos"
    with pytest.raises(SystemExit):
        parse_args(["--rules-off", "nonsense", "--tasks", "click-test"])
    assert "no agent rule is named 'nonsense'" in capsys.readouterr().err


@pytest.mark.bench
def test_as_recorded_needs_the_agent_s_evidence_as_well_as_the_page_s_reward(
        tmp_path: Path) -> None:
    """``--as-recorded`` runs the agent as a recording does: asked on after the page ended
    the episode, until it proves the task done or gives up. The oracles solve the pages (the
    reward stays 1) but never call the task done with evidence that holds, so no episode
    succeeds, and the report says how it was run."""
    tasks = ["click-button", "enter-text"]
    plain, _ = _run(tasks, _oracle, episodes=1, seed=0)
    _assert_all_solved(plain, tasks, 1)
    report, _ = _run(tasks, _oracle, episodes=1, seed=0, as_recorded=True,
                     meta={"as_recorded": True})
    for before, r in zip(plain.records, report.records, strict=True):
        assert (r.error, r.episode_done, r.reward) == ("", True, 1.0), r
        assert (r.agent_completed, r.success) == (False, False), r
        assert r.calls > before.calls  # asked after the page had ended the episode
        assert r.agent_message and "The page ended the episode" not in r.agent_message
    assert report.overall().figures()["success_rate"] == 0.0
    _, md = report.write(tmp_path)
    assert "As recorded: evidence required" in md.read_text()


@pytest.mark.bench
def test_as_recorded_is_a_command_line_switch() -> None:
    assert parse_args(["--as-recorded", "--tasks", "click-button"]).as_recorded is True
    assert parse_args(["--tasks", "click-button"]).as_recorded is False


@pytest.mark.bench
def test_the_bench_model_timeout_is_the_one_set_when_it_is_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.miniwob import setup

    monkeypatch.setenv("WEBTASK_MODEL", "some-model")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "none")
    monkeypatch.setenv("WEBTASK_LLM_TIMEOUT", "45")
    _, meta = setup(parse_args(["--tasks", "click-button"]))
    assert meta["llm"]["timeout"] == 45
    monkeypatch.delenv("WEBTASK_LLM_TIMEOUT")
    _, meta = setup(parse_args(["--tasks", "click-button"]))
    assert meta["llm"]["timeout"] == 600
