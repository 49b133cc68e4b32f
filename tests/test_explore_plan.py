"""The test plan as Markdown: written, read back, edited by hand, refused with a clear error
when malformed; and the test source the generator writes from it. No browser (fast tier)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from pytest_webtask.explore.cli import main
from pytest_webtask.explore.generator import (
    GenerateError,
    classify,
    generate,
    portable,
    render_module,
    render_test,
)
from pytest_webtask.explore.plan import Flow, FlowStep, PlanError, TestPlan, read_plan, write_plan
from pytest_webtask.explore.planner import PlanReply
from pytest_webtask.explore.sitemap import FormInfo, ListInfo, PageInfo, SiteMap
from pytest_webtask.llm.request import Block, ModelRequest
from pytest_webtask.testing import ScriptedLLM, scripted_explorer
from pytest_webtask.testing.explorer import plan_reply
from pytest_webtask.types import Usage

PLAN = TestPlan(
    title="Test plan: a shop",
    app="http://shop.test/",
    intro="Written by hand.",
    flows=[
        Flow(title="Search the catalogue",
             steps=[FlowStep("goto", "/"), FlowStep("do", "search for {query}")],
             outcome='the page shows "1 product"', variables={"query": "oxford"}),
        Flow(title="Sign in",
             steps=[FlowStep("goto", "/signin"),
                    FlowStep("do", "sign in as {email} with {password}"),
                    FlowStep("check", "the header says Signed in")],
             outcome="the page shows \"Signed in as Ada\"",
             variables={"email": "ada@example.com", "note": "  spaced: \"quoted\"  "},
             secrets={"password": "SHOP_PASSWORD"}, files={"receipt": "data/receipt.txt"},
             notes="Uses the demo user.\n\nSecond paragraph."),
    ],
    site_map="### Products\n\n- URL: http://shop.test/",
)


def test_a_plan_reads_back_as_written() -> None:
    text = write_plan(PLAN)
    assert read_plan(text) == PLAN
    assert write_plan(read_plan(text)) == text
    assert "- secret password: $SHOP_PASSWORD" in text
    assert '- variable note: "  spaced: \\"quoted\\"  "' in text


HAND_EDITED = """\
# Test plan: a shop

App: http://shop.test/

Notes at the top, kept as the intro.

## Search the catalogue

Steps:
1. goto /
2. do: search for {query}

Outcome: the page shows "2 products"
  and "Linen Trousers"

Data:
- variable query: linen

## Check out as a guest

Steps:
1) go to /cart
2. Proceed to checkout and fill in the form as {name},
   then place the order
3. Verify that the page says the order was placed
4. extract: every line of the order

Outcome: the page shows "Thank you"

Data:
- variable name: Ada Lovelace
- file receipt: data/receipt.txt

Notes:
Added by a person: the receipt is optional.

## Site map

anything at all: ## not a flow
- variable broken
"""


def test_a_hand_edited_plan_is_read() -> None:
    plan = read_plan(HAND_EDITED)
    assert plan.app == "http://shop.test/" and plan.intro == "Notes at the top, kept as the intro."
    search, guest = plan.flows
    assert search.variables == {"query": "linen"}
    assert search.outcome == 'the page shows "2 products" and "Linen Trousers"'
    assert [(s.kind, s.text) for s in guest.steps] == [
        ("goto", "/cart"),
        ("", "Proceed to checkout and fill in the form as {name}, then place the order"),
        ("", "Verify that the page says the order was placed"),
        ("extract", "every line of the order")]
    assert guest.files == {"receipt": "data/receipt.txt"}
    assert guest.notes == "Added by a person: the receipt is optional."
    assert guest.test_name == "test_check_out_as_a_guest"
    assert guest.anchor == "check-out-as-a-guest"
    assert plan.site_map.startswith("anything at all")
    assert read_plan(write_plan(plan)) == plan


@pytest.mark.parametrize(("change", "message"), [
    (("2. do: search for {query}", "2. chek: search for {query}"),
     "line 11: unknown step kind 'chek': a step starts with do:, check:, extract: or `goto`"),
    (("- variable query: linen", "- variabel query: linen"),
     "line 17: expected a data item (`- variable query: linen`"),
    (("- variable query: linen", "- variable other: linen"),
     "flow 'Search the catalogue' (line 7): step 2 uses {query}, which its Data does not "
     "declare: add `- variable query: <value>`"),
    (("- variable query: linen", "- secret query: hunter2"),
     "line 17: a secret names the environment variable it is read from "
     "(`- secret query: $WEBTASK_SECRET_QUERY`), never its value"),
    (("1. goto /\n2. do: search for {query}\n", ""),
     "flow 'Search the catalogue' (line 7) has no steps"),
    (("## Check out as a guest", "## Search the catalogue"),
     "the flows on lines 7 and 19 ('Search the catalogue', 'Search the catalogue') would "
     "both be test_search_the_catalogue: give one another title"),
    (("1. goto /\n", "1. goto the home page\n"),
     "line 10: `goto` takes a path or a URL (`goto /cart`); got 'goto the home page'"),
    (("Outcome: the page shows", "The outcome: the page shows"),
     "line 13: expected a numbered step (`1. do: add a shirt to the cart`); got 'The "
     "outcome: the page shows \"2 products\"'"),
    (("Notes:\n", "Notes:\n\n"), None),
    (("Data:\n- variable name", "Remarks: none\nData:\n- variable name"),
     "line 30: unexpected text in flow 'Check out as a guest': 'Remarks: none'"),
    (("- variable query: linen", "- variable query: linen\n- secret pw: $PW"),
     None),  # declared and unused: fine
    (("2. do: search for {query}", "2. check: search for {pw}\n3. do: x"),
     "step 2 (check) names a secret; only a `do` step may type one"),
])
def test_a_malformed_plan_says_where_and_what_to_write(change: tuple[str, str],
                                                       message: str | None) -> None:
    text = HAND_EDITED.replace(*change, 1)
    if "{pw}" in text and "secret pw" not in text:
        text = text.replace("- variable query: linen", "- variable query: linen\n"
                            "- secret pw: $PW", 1)
    if message is None:
        read_plan(text, "tests/webtask-plan.md")
        return
    with pytest.raises(PlanError) as info:
        read_plan(text, "tests/webtask-plan.md")
    assert str(info.value).startswith("tests/webtask-plan.md")
    assert message in str(info.value)


def test_a_plan_without_flows_is_refused() -> None:
    with pytest.raises(PlanError, match="the plan has no flows: each flow is a `## Title`"):
        read_plan("# Test plan\n\nNothing yet.\n")


# -- plain sentences: the "explore:generate" request ---------------------------------------


def test_plain_sentences_are_classified_by_the_model() -> None:
    guest = read_plan(HAND_EDITED).flows[1]
    llm = scripted_explorer()
    usage = Usage()
    flow = classify(guest, llm, usage)
    assert [(s.kind, s.text) for s in flow.steps] == [
        ("goto", "/cart"),
        ("do", "Proceed to checkout and fill in the form as {name}, then place the order"),
        ("check", "the page says the order was placed"),
        ("extract", "every line of the order")]
    assert usage.calls == 1
    call = llm.calls[0]
    assert call.context.purpose == "explore:generate" and call.context.task == guest.title
    assert "2. Proceed to checkout and fill in the form as {name}" in call.prompt
    assert classify(flow, llm, usage) is flow and usage.calls == 1  # nothing to ask


def test_a_reply_that_drops_a_placeholder_is_asked_again_then_refused() -> None:
    guest = read_plan(HAND_EDITED).flows[1]
    bad = {"steps": [{"kind": "goto", "text": "/cart"}, {"kind": "do", "text": "check out"},
                     {"kind": "check", "text": "placed"}, {"kind": "extract", "text": "lines"}]}
    llm = ScriptedLLM([bad, bad])
    with pytest.raises(Exception, match="step 2 must keep its placeholders \\(name\\)"):
        classify(guest, llm, Usage())
    assert len(llm.calls) == 2


def test_plain_sentences_without_a_model_are_refused(tmp_path: Path) -> None:
    plan = read_plan(HAND_EDITED)
    with pytest.raises(GenerateError, match="'Check out as a guest': the step 'Proceed to "
                       "checkout .*' is a plain sentence and no model is configured"):
        generate(plan, tmp_path / "plan.md", tmp_path / "test_app.py")
    assert not (tmp_path / "test_app.py").exists()


# -- the module -----------------------------------------------------------------------------


class Recorder:
    """Stands in for the webtask fixture: what a generated test asks of it, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args[0] if args else None, kwargs))
            return [{"item": 1}] if name == "extract" else None
        return call


def run_module(source: str, test: str, tmp_path: Path, **params: Any) -> list[Any]:
    path = tmp_path / "test_generated.py"
    path.write_text(source)
    namespace: dict[str, Any] = {"__file__": str(path), "__name__": "generated"}
    exec(compile(source, str(path), "exec"), namespace)
    webtask = Recorder()
    namespace[test](webtask, **params)
    return webtask.calls


def test_the_module_runs_the_flow_as_the_plan_says(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    flow = Flow(
        title='Odd "quotes" {and} braces',
        steps=[FlowStep("goto", "/search?q={query}"),
               FlowStep("do", 'type "it\'s {query}" and upload the receipt, then sign in with '
                        "{password} " + "and wait " * 12),
               FlowStep("check", 'the list shows "{query}" {literally}'),
               FlowStep("extract", "every product")],
        outcome="the total is {query}\\n",
        variables={"query": 'a"b{c}', "literally": "x"},
        secrets={"password": "SHOP_PASSWORD"}, files={"receipt": "data/r.txt"})
    test = render_test(flow, "webtask-plan.md", {"receipt": "../data/r.txt"})
    source = render_module("webtask-plan.md", [test], {})
    assert all(len(line) <= 99 for line in source.splitlines())
    assert test.name == "test_odd_quotes_and_braces"
    assert "Plan: webtask-plan.md#odd-quotes-and-braces" in source
    monkeypatch.setenv("SHOP_PASSWORD", "s3cret-value")
    calls = run_module(source, test.name, tmp_path, query='a"b{c}', literally="x")
    assert "s3cret-value" not in source
    assert calls == [
        ("goto", '/search?q=a"b{c}', {}),
        ("do", flow.steps[1].text, {
            "resources": {"receipt": tmp_path / "../data/r.txt"},
            "secrets": {"password": "s3cret-value"}, "query": 'a"b{c}'}),
        ("check", 'the list shows "a"b{c}" x', {}),
        ("extract", "every product", {}),
        ("check", 'the total is a"b{c}\\n', {}),
    ]


def test_a_secret_missing_from_the_environment_fails_the_test_saying_which(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flow = PLAN.flows[1]
    source = render_module("plan.md", [render_test(flow, "plan.md", {})], {})
    monkeypatch.delenv("SHOP_PASSWORD", raising=False)
    with pytest.raises(pytest.fail.Exception,
                       match="set the environment variable SHOP_PASSWORD to run this test"):
        run_module(source, "test_sign_in", tmp_path, email="ada@example.com")


def test_a_left_out_test_is_commented_out_with_its_reason(tmp_path: Path) -> None:
    tests = [render_test(f, "plan.md", {}) for f in PLAN.flows]
    source = render_module("plan.md", tests, {"test_sign_in": "its recording failed: no\n"
                                              "such button"})
    assert "# Left out: its recording failed: no\n#   such button\n# @pytest.mark" in source
    namespace: dict[str, Any] = {}
    exec(compile(source, "m.py", "exec"), namespace)
    assert "test_search_the_catalogue" in namespace and "test_sign_in" not in namespace
    assert "Left out (commented out below, with the reason): test_sign_in." in source


def test_a_left_out_reason_is_whole_wrapped_and_without_this_machines_paths(
        tmp_path: Path) -> None:
    project = tmp_path / "project"
    log = project / "test-results" / "tests-test-app-py-test-sign-in" / "webtask-failure.txt"
    message = ("its recording failed: the agent could not find the button 'Place order' "
               "after 12 steps; the page shows 'Your cart is empty' and the model said it "
               f"was done, which it was not (step log in {log.parent})")
    reason = portable(message, project)
    assert str(tmp_path) not in reason
    assert "(step log in test-results/tests-test-app-py-test-sign-in)" in reason
    assert portable(f"see {Path(tempfile.gettempdir()).resolve()}/x.json and "
                    f"{Path.home()}/y", project) == "see <tmp>/x.json and ~/y"
    tests = [render_test(f, "plan.md", {}) for f in PLAN.flows]
    source = render_module("plan.md", tests, {"test_sign_in": reason})
    comment = [line for line in source.splitlines() if line.startswith(("# Left out", "#   "))
               and not line.startswith("#    ")]
    assert all(len(line) <= 99 for line in source.splitlines())
    assert len(comment) == 3  # wrapped, nothing cut
    words = " ".join(line.removeprefix("# Left out: ").removeprefix("#   ") for line in comment)
    assert words == reason


def test_a_flow_not_tried_while_exploring_is_planned_and_never_recorded(
        tmp_path: Path) -> None:
    untried = Flow(title="Old loans: Archive",
                   steps=[FlowStep("goto", "/account"), FlowStep("do", 'click "Archive"')],
                   not_tried="it sends POST /loans/archive (form post), which may change data "
                   "on the server; --allow-form or --allow-writes allows it.")
    plan = TestPlan(title="T", app="http://127.0.0.1:9/", flows=[untried])
    text = write_plan(plan)
    assert ("\nNot tried while exploring: it sends POST /loans/archive (form post), which may "
            "change data on the\nserver; --allow-form or --allow-writes allows it.\n") in text
    assert read_plan(text) == plan
    (tmp_path / "plan.md").write_text(text)
    said: list[str] = []
    result = generate(read_plan(text), tmp_path / "plan.md", tmp_path / "test_app.py",
                      cwd=tmp_path, say=said.append)  # no pytest run, no app contacted
    assert result.kept == [] and list(result.left_out) == ["test_old_loans_archive"]
    assert said == ["No test to record: every flow of plan.md was not tried while exploring."]
    module = (tmp_path / "test_app.py").read_text()
    assert "# Left out: not tried while exploring: it sends POST /loans/archive" in module
    assert "delete the flow's `Not tried while exploring:` line in the plan" in module
    assert "\n# def test_old_loans_archive(webtask: WebTask) -> None:\n" in module
    assert not (tmp_path / "__webtask__").exists()
    # a person deletes the line: the flow is a flow like any other
    assert read_plan(text.replace("Not tried while exploring:", "Notes:")).flows[0].not_tried \
        == ""


def test_generate_never_overwrites_a_module_it_did_not_write(tmp_path: Path) -> None:
    out = tmp_path / "test_app.py"
    out.write_text("def test_mine(): pass\n")
    with pytest.raises(GenerateError, match="exists and was not written by `webtask "
                       "generate`: choose another --out, or pass --force"):
        generate(PLAN, tmp_path / "plan.md", out)
    assert out.read_text() == "def test_mine(): pass\n"
    with pytest.raises(GenerateError, match="--out must name a test module"):
        generate(PLAN, tmp_path / "plan.md", tmp_path / "app.py")


# -- the command line ---------------------------------------------------------------------


def test_command_line_errors_are_sentences_not_tracebacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["generate", str(tmp_path / "nope.md"), "--out", str(tmp_path / "t.py")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("webtask generate: error: No plan at ") and "Traceback" not in err
    bad = tmp_path / "plan.md"
    bad.write_text("## Flow\n\nSteps:\n1. chek: it\n")
    assert main(["generate", str(bad), "--out", str(tmp_path / "test_t.py")]) == 2
    assert "line 4: unknown step kind 'chek'" in capsys.readouterr().err
    monkeypatch.delenv("WEBTASK_SECRET_PASSWORD", raising=False)
    assert main(["explore", "http://127.0.0.1:9/", "--secret", "password"]) == 2
    assert ("the secret 'password' is read from the environment variable "
            "WEBTASK_SECRET_PASSWORD, which is not set.") in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["explore", "http://x/", "--secret", "password=hunter 2"])
    assert "never from the command line" in capsys.readouterr().err
    assert main(["explore", "http://127.0.0.1:9/", "--allow-form", " "]) == 2
    assert ("--allow-form takes a button's text (--allow-form Archive) or an action path "
            "(--allow-form /loans/archive); got an empty one.") in capsys.readouterr().err
    monkeypatch.delenv("WEBTASK_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["explore", "http://127.0.0.1:9/"]) == 2
    assert "Or pass --llm MODULE:CALLABLE." in capsys.readouterr().err


# -- the scripted planner reads the site map -----------------------------------------------


def test_the_scripted_planner_writes_flows_from_the_site_map() -> None:
    site = SiteMap(app="http://shop.test/", pages=[
        PageInfo(url="http://shop.test/", title="Products", messages=["13 products"],
                 forms=[FormInfo(name="Apply")],
                 lists=[ListInfo(name="products", items=["Alpha", "Beta"])]),
        PageInfo(url="http://shop.test/?q=beta", title="Products", messages=["1 product"],
                 reached_by=["fill searchbox \"Search\" with 'beta'", 'click button "Go"'],
                 lists=[ListInfo(name="products", items=["Beta"])]),
        PageInfo(url="http://shop.test/signin", title="Sign in",
                 reached_by=['click link "Sign in" (/signin)']),
    ])
    context = ModelRequest(system="", purpose="explore:plan", task=site.app)
    context.append(Block("Test data you were given:\n(none)"))
    context.append(Block("Site map (YAML):\n\n" + site.as_yaml()))
    reply = PlanReply.model_validate(plan_reply(context))
    assert [(f.title, [s.text for s in f.steps], f.outcome, f.variables)
            for f in reply.flows] == [
        ("Search the catalogue", ["/", "search for {query}"],
         'the page shows "1 product" and "Beta"', {"query": "beta"})]


class Terminal:
    def __init__(self, tty: bool) -> None:
        self.tty = tty
        self.written = ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.written += text

    def flush(self) -> None:
        pass


def test_the_progress_line_is_drawn_on_a_terminal_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_webtask.explore.cli import ProgressLine
    from pytest_webtask.explore.explorer import ExploreStatus

    monkeypatch.delenv("CI", raising=False)
    status = ExploreStatus(pages=5, max_pages=20, usage=Usage(6, 9000, 3000), max_calls=30,
                           seconds=41.6, url="http://shop.test/cart")
    assert status.line() == ("[explore 5/20 pages, 6/30 model calls, 12.0k tokens, 42s] "
                             "http://shop.test/cart")
    term = Terminal(tty=True)
    line = ProgressLine(term)  # type: ignore[arg-type]
    line.show(status.line())
    line.clear()
    assert term.written == "\r\x1b[K" + status.line() + "\r\x1b[K"
    piped = Terminal(tty=False)
    ProgressLine(piped).show("x")  # type: ignore[arg-type]
    assert piped.written == ""
    monkeypatch.setenv("CI", "true")
    in_ci = Terminal(tty=True)
    ProgressLine(in_ci).show("x")  # type: ignore[arg-type]
    assert in_ci.written == ""
