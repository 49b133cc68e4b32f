"""--webtask-record: re-record the selected tests even where recipes exist."""

from __future__ import annotations

from tests.plugin.conftest import TWO_TESTS, Inner


def test_record_rerecords_selected_tests(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    inner.run().assert_outcomes(passed=2)
    before = inner.recipe("test_add").read_text()
    calls = inner.llm_calls
    result = inner.run("--webtask-record", "-k", "test_add_again")
    assert result.parseoutcomes()["passed"] == 1
    result.stdout.fnmatch_lines(["*0 step(s) replayed, 1 recorded, 0 failed*"])
    assert inner.llm_calls == calls + 2
    assert inner.recipe("test_add").read_text() == before  # not selected: untouched


def test_record_and_replay_only_exclude_each_other(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    result = inner.run("--webtask-record", "--webtask-replay-only")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*--webtask-record and --webtask-replay-only exclude each other*"])
