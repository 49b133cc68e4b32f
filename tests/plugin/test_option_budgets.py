"""--webtask-max-llm-calls, --webtask-run-max-llm-calls and friends, from the command line."""

from __future__ import annotations

from tests.plugin.conftest import TWO_TESTS, Inner
from tests.plugin.test_marker import LOOP, WANDER


def test_step_budget_fails_the_step_naming_the_setting(inner: Inner) -> None:
    inner.tests(WANDER.replace("max_steps=2", "max_steps=8"))
    inner.scripts({"find the unicorn": LOOP})
    result = inner.run("--webtask-max-llm-calls", "2")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*task not completed: The step's budget of 2 model calls is "
                                 "used up (webtask_max_llm_calls).*"])
    assert inner.llm_calls == 2


def test_run_budget_spans_tests(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    result = inner.run("--webtask-run-max-llm-calls", "3", "-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*The run's budget of 3 model calls is used up "
                                 "(webtask_run_max_llm_calls).*"])
    assert inner.llm_calls == 3


def test_bad_budget_value_is_a_clear_usage_error(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    inner.pytester.makeini("[pytest]\nwebtask_max_tokens = lots\n")
    result = inner.run()
    assert "webtask setting max_tokens should be a int; got 'lots'." in result.stderr.str()
    assert "Traceback" not in result.stderr.str()
