"""``verify_done``'s advice, one by one, on made-up readings (no browser): each reads the
task's words, is never a refusal (``hard`` is False), and says what it saw. The refusals'
page variants are in tests/test_verify_done.py, in a real Chromium."""

from __future__ import annotations

from typing import Any

from pytest_webtask.agent.guards import Dropdowns
from pytest_webtask.agent.models import Evidence, ProposalResult, Step
from pytest_webtask.agent.parsing import EvidenceSpec
from pytest_webtask.agent.verify import ADVICE, HARD, Done, verify_done
from pytest_webtask.types import Action, ExecutionResult, Fingerprint


def claim(**spec: Any) -> Evidence:
    parsed = EvidenceSpec(**spec)
    return Evidence(cited=parsed.describe(), spec=parsed, text=spec.get("text") or "")


def ran(*actions: tuple[str, dict[str, Any]]) -> list[Step]:
    acts = [Action(tool, "", params) for tool, params in actions]
    return [Step(ProposalResult(False, "m", acts),
                 [ExecutionResult(True, target=Fingerprint(tag="input", xpath=f"/x[{i}]"))
                  for i, _ in enumerate(acts)])]


def rules(done: Done, advised: set[str] | None = None) -> dict[str, bool]:
    return {p.rule: p.hard for p in verify_done(done, advised or set())}


def test_given_values_a_value_the_task_gives_never_typed() -> None:
    task = 'sign in as "mara@example.org"'
    done = Done(task, None, [claim(text="Welcome")], ran(("click", {"element_id": "b-0"})))
    assert rules(done) == {"given-values": False}
    typed = Done(task, None, [claim(text="Welcome")],
                 ran(("fill", {"element_id": "i-0", "value": "mara@example.org"})))
    assert rules(typed) == {}


def test_named_options_an_option_the_task_names_never_chosen() -> None:
    seen = Dropdowns()
    seen.see('- select-0 (name="size" options="S|M|L" selected="S")')
    task = "add it in size M"
    done = Done(task, None, [claim(text="Added")], ran(("click", {"element_id": "b-0"})),
                dropdowns=seen)
    assert rules(done)["named-options"] is False


def test_show_only_reads_only_and_not_a_quoted_label() -> None:
    shown = [claim(text="Green Jacket")]
    assert rules(Done("show only the jackets", None, shown, []))["show-only"] is False
    assert "show-only" not in rules(Done("tick 'Show only my tasks'", None, shown, []))
    each = [claim(expect="each", within="ul-0", text="Jacket", match="contains")]
    assert "show-only" not in rules(Done("show only the jackets", None, each, []))


def test_claim_words_a_check_s_claims_that_say_nothing_of_it() -> None:
    statement = "the library is closed on Sunday"
    members = [claim(text="Members can borrow e-books")]
    assert rules(Done(statement, statement, members, []))["claim-words"] is False
    assert rules(Done(statement, statement, [claim(text="Sunday: closed")], [])) == {}


def test_pinned_data_a_count_the_task_does_not_name() -> None:
    counted = [claim(expect="count", within="ul-0", count=7)]
    assert rules(Done("delete the task", None, counted, []))["pinned-data"] is False
    assert "pinned-data" not in rules(Done("keep 7 tasks", None, counted, []))
    relative = [claim(expect="count", within="ul-0", change=-1)]
    assert "pinned-data" not in rules(Done("delete the task", None, relative, []))


def test_advice_is_said_once_and_never_refuses() -> None:
    done = Done("show only the jackets", None, [claim(text="Green Jacket")], [])
    assert rules(done, {"show-only"}) == {}  # given once: not said again
    assert all(rule in ADVICE for rule in rules(done))
    assert not set(ADVICE) & set(HARD)


def test_every_problem_at_once() -> None:
    bad = claim(text="Nowhere")
    bad.found, bad.problem = False, "no such text is visible"
    done = Done("show only the jackets", None, [bad, claim(text="code 1234")], [],
                secrets={"code": "1234"})
    got = rules(done)
    assert got["claims-hold"] is True and got["secret"] is True
    assert got["show-only"] is False
