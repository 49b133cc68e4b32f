"""Compiling a recorded task into a recipe step, in process: actions by fingerprint with
placeholders (never element ids or secret values), typed checks from the model's evidence,
and nothing loosened unless declared. (tests/test_checks.py records the same in a browser.)"""

from __future__ import annotations

from pytest_webtask.agent.models import Evidence, ProposalResult, Step, TaskResult
from pytest_webtask.agent.parsing import EvidenceSpec
from pytest_webtask.agent.task_context import TaskContext
from pytest_webtask.recipes.model import Check
from pytest_webtask.steps.compile import compile_step
from pytest_webtask.types import Action, Dialog, ExecutionResult, Fingerprint

BASE = "http://shop.test"
EMAIL = Fingerprint(tag="input", role="textbox", label="Email", css="#email")
SIGN_IN = Fingerprint(tag="button", role="button", name="Sign in", css="form button")


def context() -> TaskContext:
    return TaskContext.create("sign in as {email}", variables={"email": "ada@example.com"},
                              secrets={"password": "lovelace-1815"})


def action(tool: str, **parameters: object) -> Action:
    return Action(tool=tool, reason=f"{tool} it", parameters=dict(parameters))


def result(actions: list[Action], executions: list[ExecutionResult], evidence: list[Evidence],
           url: str = BASE + "/signin") -> TaskResult:
    steps = [Step(ProposalResult(False, "acting", actions), executions, url=url),
             Step(ProposalResult(True, "signed in as ada@example.com"), [], evidence=evidence,
                  url=url)]
    return TaskResult(completed=True, steps=steps, message="signed in as ada@example.com")


def test_actions_keep_fingerprints_and_placeholders_never_ids_or_secret_values() -> None:
    done = result(
        [action("fill", element_id="input-0", value="ada@example.com"),
         action("fill", element_id="input-1", value="lovelace-1815"),
         action("click", element_id="button-0"),
         action("click", element_id="button-9"),  # failed: not replayed
         action("find", text="Sign in")],  # only reads the page
        [ExecutionResult(True, target=EMAIL), ExecutionResult(True, target=EMAIL),
         ExecutionResult(True, target=SIGN_IN), ExecutionResult(False, error="no such id"),
         ExecutionResult(True)],
        [])
    step = compile_step("do", "sign in as {email}", done, context(), BASE, BASE + "/signin")
    assert [(a.tool, a.params) for a in step.actions] == [
        ("fill", {"value": "{email}"}), ("fill", {"value": "{password}"}), ("click", {})]
    assert step.actions[2].target == SIGN_IN and step.actions[2].reason == "click it"
    assert step.url == "/signin"
    assert step.message == "signed in as ada@example.com"  # a variable may show; a secret not
    dumped = step.model_dump_json()
    assert "lovelace-1815" not in dumped and "element_id" not in dumped


def test_a_dialog_is_stored_with_the_action_that_opened_it_and_navigation_is_relative(
        ) -> None:
    confirm = Dialog(type="confirm", message="Sign out lovelace-1815?", accept=True)
    done = result([action("dialog", accept=True), action("click", element_id="button-0"),
                   action("navigate", url=BASE + "/cart")],
                  [ExecutionResult(True), ExecutionResult(True, target=SIGN_IN,
                                                          dialogs=[confirm]),
                   ExecutionResult(True)], [])
    step = compile_step("do", "x", done, context(), BASE, BASE + "/signin")
    assert [a.tool for a in step.actions] == ["click", "navigate"]
    assert step.actions[0].dialogs[0].message == "Sign out {password}?"
    assert step.actions[1].params == {"url": "/cart"}


def test_evidence_becomes_typed_checks_with_placeholders() -> None:
    heading = Fingerprint(tag="h1", role="heading", name="Signed in as ada@example.com",
                          text="Signed in as ada@example.com")
    evidence = [
        Evidence("h1-0", EvidenceSpec(expect="text", element="h1-0"), fingerprint=heading,
                 text="Signed in as ada@example.com"),
        Evidence("count", EvidenceSpec(expect="count", element="li-0", count=3),
                 fingerprint=Fingerprint(tag="li", css="ul.items > li")),
        Evidence("gone", EvidenceSpec(expect="text", text="Not found on the page"),
                 found=False, problem="not on the page"),  # a claim that did not hold
    ]
    step = compile_step("check", "signed in", result([], [], evidence), context(), BASE,
                        BASE + "/signin")
    text, count = step.checks
    assert (text.expect, text.text, text.match) == ("text", "Signed in as {email}", "exact")
    # the element's own text is the outcome under test: it lives in the check, not in how
    # the element is found
    assert text.element is not None and text.element.text is None and text.element.name is None
    assert (count.expect, count.count) == ("count", 3)


def test_a_part_declared_to_vary_becomes_a_pattern_and_nothing_else_does() -> None:
    order = "Order ORD-48213 placed for Samsung Galaxy S24"
    evidence = [Evidence("t", EvidenceSpec(expect="text", text=order, varies=["ORD-48213"]),
                         text=order),
                Evidence("t2", EvidenceSpec(expect="text", text="Total: $12345.00"),
                         text="Total: $12345.00")]
    step = compile_step("do", "buy", result([], [], evidence), context(), BASE,
                        BASE + "/signin")
    varying, fixed = step.checks
    assert varying.match == "pattern"
    assert varying.pattern == r"Order [A-Z]+-\d+ placed for Samsung Galaxy S24"
    assert fixed == Check(expect="text", text="Total: $12345.00")  # no guessing


def test_a_changed_url_is_checked_unless_a_url_check_was_cited() -> None:
    done = result([], [], [], url=BASE + "/search?q=shirt&page=1")
    step = compile_step("do", "search", done, context(), BASE, BASE + "/search?page=1")
    assert step.checks == [Check(expect="url", path="/search", query={"q": "shirt"})]
    cited = [Evidence("u", EvidenceSpec(expect="url", path="/cart"))]
    step = compile_step("do", "go", result([], [], cited, url=BASE + "/cart"), context(), BASE,
                        BASE + "/")
    assert step.checks == [Check(expect="url", path="/cart")]
    same = compile_step("do", "stay", result([], [], []), context(), BASE, BASE + "/signin")
    assert same.checks == []
