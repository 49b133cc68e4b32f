"""`webtask generate` records no flow through a form exploring did not try: the plan's site
map lists the form, a flow whose step names it or its button is left out, saying which form
and how to allow it (`--allow-form`), until the option names it. No app is contacted: the
pytest runs of the generator are stood in for where a flow is recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_webtask.explore import generator
from pytest_webtask.explore.cli import parser
from pytest_webtask.explore.generator import PytestRun, generate
from pytest_webtask.explore.plan import Flow, FlowStep, TestPlan, read_plan, write_plan
from pytest_webtask.explore.sitemap import FieldInfo, PageInfo, SiteMap, UntriedWrite
from pytest_webtask.explore.untried import (
    CLOSED_ENV,
    CLOSED_PLUGIN,
    UntriedForm,
    goes_through,
    untried_forms,
)

WHY = ("it sends POST /newsletter (form post), which may change data on the server; "
       "--allow-form or --allow-writes allows it")
SITE = SiteMap(app="http://127.0.0.1:9/", pages=[
    PageInfo(url="http://127.0.0.1:9/news", title="News", writes=[
        UntriedWrite(form="Newsletter", submit="Subscribe", action="/newsletter",
                     fields=[FieldInfo(name="Email", kind="email")], why=WHY),
        UntriedWrite(form="Ask a librarian", submit="Send",
                     fields=[FieldInfo(name="Message (textarea)")],
                     why="it sends POST /messages (fetch), which may change data")])])
SUBSCRIBE = Flow(title="Subscribe to the newsletter", steps=[
    FlowStep("goto", "/news"), FlowStep("do", "subscribe with the email {email}")],
    variables={"email": "ada@example.com"}, outcome="the page says you are subscribed")
READ = Flow(title="Read the news", steps=[FlowStep("goto", "/news"),
                                          FlowStep("do", "open the first article")],
            outcome="the article shows its date")
LOOK = Flow(title="The form is offered", steps=[
    FlowStep("goto", "/news"), FlowStep("check", "the page offers Subscribe")])


def plan_of(*flows: Flow) -> TestPlan:
    """A plan as `webtask explore` writes it, read back from its text."""
    return read_plan(write_plan(TestPlan(title="T", app=SITE.app, flows=list(flows),
                                         site_map=SITE.as_markdown())))


class Runs:
    """The generator's pytest runs, stood in for: every test it runs passes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.selected: list[list[str]] = []
        self.args: list[list[str]] = []
        self.closed: list[list[list[str]]] = []
        monkeypatch.setattr(generator, "run_pytest", self.run)

    def run(self, module: Path, selected: list[str], args: list[str], env: dict[str, str],
            cwd: Path) -> PytestRun:
        self.selected.append(list(selected))
        self.args.append(list(args))
        self.closed.append(json.loads(env.get(CLOSED_ENV, "[]")))
        return PytestRun(results={name: "passed" for name in selected})


def test_the_site_map_s_untried_forms_are_read_back_from_the_plan() -> None:
    forms = untried_forms(plan_of(READ).site_map)
    assert forms == [
        UntriedForm(form="Newsletter", submit="Subscribe", paths=("/newsletter",), why=WHY),
        UntriedForm(form="Ask a librarian", submit="Send", paths=("/messages",),
                    why="it sends POST /messages (fetch), which may change data")]


def test_a_flow_goes_through_a_form_its_do_step_names_as_whole_words() -> None:
    forms = untried_forms(SITE.as_markdown())
    assert goes_through(SUBSCRIBE, forms) == forms[0]  # "subscribe" names its button
    ask = Flow(title="Ask", steps=[FlowStep("", "ask a librarian about opening hours")])
    assert goes_through(ask, forms) == forms[1]  # a sentence not classified yet counts
    assert goes_through(READ, forms) is None
    assert goes_through(LOOK, forms) is None  # a check sends nothing
    sender = Flow(title="S", steps=[FlowStep("do", "open the Sender's page")])
    assert goes_through(sender, forms) is None  # "Send" is not a word of "Sender's"
    # --allow-form names it by its button's text or its path, as exploring's does
    assert goes_through(SUBSCRIBE, forms, ["subscribe"]) is None
    assert goes_through(SUBSCRIBE, forms, ["/news*"]) is None
    assert goes_through(SUBSCRIBE, forms, ["Send"]) == forms[0]


def test_generate_leaves_out_a_flow_through_an_untried_form_saying_which_and_how(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = Runs(monkeypatch)
    plan = tmp_path / "plan.md"
    plan.write_text(write_plan(plan_of(SUBSCRIBE, READ, LOOK)))
    result = generate(read_plan(plan.read_text()), plan, tmp_path / "test_app.py",
                      cwd=tmp_path)
    assert result.kept == ["test_read_the_news", "test_the_form_is_offered"]
    reason = result.left_out["test_subscribe_to_the_newsletter"]
    assert reason == (
        "it goes through form 'Newsletter', submit 'Subscribe', which exploring did not try "
        f"({WHY}). Recording it would send that form to the app: to allow it, run webtask "
        "generate with --allow-form Subscribe, or explore again with that option.")
    assert runs.selected[0] == ["test_read_the_news", "test_the_form_is_offered"]
    # what reaches such a form without naming it is stopped where requests leave, in both
    # the recording and the replay
    assert len(runs.args) == 2
    assert all(["-p", CLOSED_PLUGIN] == a[a.index("-p"):a.index("-p") + 2] for a in runs.args)
    assert runs.closed == [[["/newsletter", "form 'Newsletter', submit 'Subscribe'"],
                            ["/messages", "form 'Ask a librarian', submit 'Send'"]]] * 2
    module = (tmp_path / "test_app.py").read_text()
    assert "# Left out: it goes through form 'Newsletter', submit 'Subscribe'" in module
    assert "# def test_subscribe_to_the_newsletter(" in module


def test_with_every_flow_refused_nothing_runs_at_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = Runs(monkeypatch)
    plan = tmp_path / "plan.md"
    plan.write_text(write_plan(plan_of(SUBSCRIBE)))
    said: list[str] = []
    result = generate(read_plan(plan.read_text()), plan, tmp_path / "test_app.py",
                      cwd=tmp_path, say=said.append)
    assert result.kept == [] and runs.selected == []
    assert said == ["No test to record: every flow of plan.md was not tried while exploring, "
                    "or goes through a form that was not."]


@pytest.mark.parametrize("pattern", ["Subscribe", "/newsletter"])
def test_allow_form_records_the_flow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     pattern: str) -> None:
    runs = Runs(monkeypatch)
    plan = tmp_path / "plan.md"
    plan.write_text(write_plan(plan_of(SUBSCRIBE)))
    result = generate(read_plan(plan.read_text()), plan, tmp_path / "test_app.py",
                      cwd=tmp_path, allow_forms=[pattern])
    assert result.kept == ["test_subscribe_to_the_newsletter"] and result.left_out == {}
    assert runs.selected[0] == ["test_subscribe_to_the_newsletter"]
    assert runs.closed[0] == [["/messages", "form 'Ask a librarian', submit 'Send'"]]


def test_the_flow_explore_marked_not_tried_says_to_allow_its_form_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Runs(monkeypatch)
    marked = Flow(title="Newsletter: Subscribe", steps=[
        FlowStep("goto", "/news"), FlowStep("do", 'click button "Subscribe"')],
        not_tried=WHY + ".")
    plan = tmp_path / "plan.md"
    text = write_plan(plan_of(marked))
    plan.write_text(text)
    result = generate(read_plan(text), plan, tmp_path / "test_app.py", cwd=tmp_path)
    assert "then run webtask generate again with --allow-form naming its form" in \
        result.left_out["test_newsletter_subscribe"]
    # its line deleted, the form is still one exploring did not try
    unmarked = read_plan(text.replace("Not tried while exploring: it sends", "Notes: sends"))
    result = generate(unmarked, plan, tmp_path / "test_app.py", cwd=tmp_path)
    assert "--allow-form Subscribe" in result.left_out["test_newsletter_subscribe"]
    result = generate(unmarked, plan, tmp_path / "test_app.py", cwd=tmp_path,
                      allow_forms=["Subscribe"])
    assert result.kept == ["test_newsletter_subscribe"]


def test_the_command_takes_allow_form() -> None:
    args = parser().parse_args(["generate", "plan.md", "--out", "test_app.py",
                                "--allow-form", "Subscribe", "--allow-form", "/messages"])
    assert args.allow_form == ["Subscribe", "/messages"]
