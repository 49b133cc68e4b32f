"""A replayed step that checks nothing it changed (a hand-edited recipe with no checks, or
only checks that held before the step) passes whatever the page did: the terminal summary
names it, the report marks it, and --webtask-strict fails it."""

from __future__ import annotations

import re

import yaml

from tests.plugin.conftest import Inner

TESTS = '''
def test_no_checks(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    webtask.check("the cart total is $39.00")


def test_only_held_before(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")


def test_checked(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''
ADD = "do('add the Blue Oxford Shirt in size M to the cart')"
TOTAL = "check('the cart total is $39.00')"


def _edit(inner: Inner, test: str, change: str) -> None:
    path = inner.recipe(test)
    recipe = yaml.safe_load(path.read_text())
    for step in recipe["steps"]:
        assert step["checks"], step  # recorded with checks: the edit is what removes them
        if change == "none":
            step["checks"] = []
        else:
            for check in step["checks"]:
                check["held_before"] = True
    path.write_text(yaml.safe_dump(recipe, sort_keys=False))


def test_unverified_replays_are_named_marked_and_failed_when_strict(inner: Inner) -> None:
    inner.recorded(TESTS)
    _edit(inner, "test_no_checks", "none")
    _edit(inner, "test_only_held_before", "held_before")
    replay_env = {"CI": "1", "FORBID_LLM": "1"}

    result = inner.run("--webtask-report=report.html", env=replay_env)
    result.assert_outcomes(passed=3)  # a replay that verifies nothing still passes...
    out = result.stdout.str()
    result.stdout.fnmatch_lines([  # ...but the summary says which steps verified nothing
        "*3 replayed step(s) verified nothing (the recipe step has no check, or only checks "
        "that held before it*--webtask-strict to fail them:",
        f"  test_no_checks: Step 1 {ADD}",
        f"  test_no_checks: Step 2 {TOTAL}",
        f"  test_only_held_before: Step 1 {ADD}",
    ])
    assert "test_checked: Step" not in out
    html = (inner.path / "report.html").read_text()
    assert "<td id='unverified'>3</td>" in html
    sections = {m.group(1): m.group(2) for m in re.finditer(
        r"test_shop\.py::(test_\w+)[^<]*</h2>(.*?)</section>", html, re.S)}
    assert sections["test_no_checks"].count("class='how unverified'") == 2
    assert sections["test_only_held_before"].count("class='how unverified'") == 1
    assert "unverified" not in sections["test_checked"]

    strict = inner.run("--webtask-strict", env=replay_env)
    strict.assert_outcomes(passed=1, failed=2)
    strict.stdout.fnmatch_lines([
        f"*Step 1 {ADD}: the replay verified nothing: the recipe step (*test_no_checks.yaml) "
        "checks nothing the step changes (it has no check), so it would pass whatever the "
        "page did. Record it again (pytest --webtask-record *test_no_checks*) or add a "
        "check(...) after it (--webtask-strict is set).",
    ])
    strict.stdout.fnmatch_lines([
        f"*Step 1 {ADD}: the replay verified nothing: *checks nothing the step changes (each "
        "of its checks already held before the step ran: *",
    ])
