"""@pytest.mark.webtask and the precedence CLI > marker > ini > env."""

from __future__ import annotations

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
                                 "dynamic, guard_replay, max_iterations, max_llm_calls, "
                                 "max_steps, max_tokens, plan_horizon, strategy, strict, "
                                 "timeout; got max_stepz.*"])
    assert "Traceback" not in result.stdout.str()
