"""@pytest.mark.webtask and the precedence CLI > marker > ini > env."""

from __future__ import annotations

import re

from tests.plugin.conftest import Inner

WANDER = '''
import pytest

@pytest.mark.webtask(max_steps=2)
def test_wander(webtask):
    webtask.goto("/")
    webtask.do("find the unicorn")
'''
LOOP = [{"complete": False, "message": "still looking for the unicorn", "actions": []}]


def test_marker_sets_max_steps(inner: Inner) -> None:
    inner.tests(WANDER)
    inner.scripts({"find the unicorn": LOOP})
    result = inner.run(env={"WEBTASK_MAX_STEPS": "7"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*task not completed: Task not completed after 2 steps*",
                                 "*Step log:*", "*2. still looking for the unicorn*",
                                 "*The model's last message: still looking for the unicorn"])
    assert inner.llm_calls == 2


def test_cli_beats_marker(inner: Inner) -> None:
    inner.tests(WANDER)
    inner.scripts({"find the unicorn": LOOP})
    result = inner.run("--webtask-max-steps", "3")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*Task not completed after 3 steps*"])


def test_ini_beats_env(inner: Inner) -> None:
    inner.tests(WANDER.replace("@pytest.mark.webtask(max_steps=2)", ""))
    inner.scripts({"find the unicorn": LOOP})
    inner.pytester.makeini("[pytest]\nwebtask_max_steps = 4\n")
    result = inner.run(env={"WEBTASK_MAX_STEPS": "1"})
    result.stdout.fnmatch_lines(["*Task not completed after 4 steps*"])


def test_bad_marker_is_a_clear_error(inner: Inner) -> None:
    inner.tests(WANDER.replace("max_steps=2", "max_stepz=2"))
    result = inner.run()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*@pytest.mark.webtask takes keyword arguments among "
                                 "allowed_origins, block_subresources, check_max_steps, "
                                 "dynamic, guard_replay, heal, heal_max_llm_calls, "
                                 "max_iterations, max_llm_calls, "
                                 "max_steps, max_tokens, page_chars, plan_horizon, "
                                 "profile, rules_off, strategy, strict, timeout; got max_stepz.*"])
    assert "Traceback" not in result.stdout.str()


def test_page_chars_marker_sets_the_page_state_budget(inner: Inner) -> None:
    inner.tests('''
import pytest

@pytest.mark.webtask(page_chars=3000)
def test_small_budget(webtask):
    webtask.goto("/widgets/table")
    webtask.check("the table lists tickets")


def test_default_budget(webtask):
    webtask.goto("/widgets/table")
    webtask.check("the table lists tickets")
''')
    inner.scripts({"the table lists tickets": [
        {"complete": True, "message": "it does", "evidence": ["Ticket 1"]}]})
    inner.run().assert_outcomes(passed=2)
    small, default = (inner.path / "llm_calls.log").read_text().split("\n=====\n")[:2]
    state = small.split("Current Page State:")[-1].split("\n\n---\n\n")[0]
    assert 2000 < len(state) < 3200

    def below(prompt: str) -> int:
        return int(re.search(r"\[(\d+) more rows below", prompt).group(1))  # type: ignore[union-attr]

    assert below(small) > below(default)  # the default 40,000 shows more of the window
