"""Unused recipes are reported, syrupy's way: only for a full run of the module."""

from __future__ import annotations

from tests.plugin.conftest import TWO_TESTS, Inner


def test_unused_recipe_reported(inner: Inner, dist: list[str]) -> None:
    inner.tests(TWO_TESTS)
    inner.run(*dist).assert_outcomes(passed=2)
    inner.tests(TWO_TESTS.split("def test_add_again")[0])  # the second test is deleted
    result = inner.run(*dist)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*1 recipe(s) unused*",
                                 "*__webtask__/test_shop/test_add_again.yaml*"])
    assert inner.recipe("test_add_again").exists()  # reported, never deleted


def test_no_unused_report_on_partial_runs(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    inner.run().assert_outcomes(passed=2)
    for args in (["-k", "test_add_again"], ["test_shop.py::test_add_again"]):
        result = inner.run(*args)
        result.assert_outcomes(passed=1)
        assert "recipe(s) unused" not in result.stdout.str()
