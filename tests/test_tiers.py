"""The suite's tiers (tests/conftest.py): markers follow from the fixtures a test uses, and a
test in the fast tier cannot start a process."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_a_fast_test_cannot_start_a_process() -> None:
    with pytest.raises(AssertionError, match="starts a process but is in the fast tier"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


PROJECT = """
import pytest


@pytest.fixture
def needs_a_page(page):
    return page


def test_pure():
    pass


def test_on_a_page(page):
    pass


def test_through_a_fixture(needs_a_page):
    pass


def test_starts_python(python):
    pass


def test_reads_the_examples(example_run):
    pass
"""


def test_markers_follow_the_fixtures_a_test_uses(pytester: pytest.Pytester) -> None:
    """This suite's hook on a small project: only collected, nothing runs."""
    pytester.makeconftest("from tests.conftest import pytest_collection_modifyitems, python, "
                          "example_run  # noqa: F401")
    pytester.makepyfile(test_project=PROJECT)
    pytester.makeini("[pytest]\nmarkers =\n    browser\n    subprocess\n    examples\n")

    def selected(expression: str) -> list[str]:
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--co", "-q", "-m",
                                              expression)
        return sorted(line.split("::")[1].split("[")[0] for line in result.outlines
                      if "::" in line)

    assert selected("not browser and not subprocess") == ["test_pure"]
    assert selected("browser") == ["test_on_a_page", "test_through_a_fixture"]
    assert selected("subprocess") == ["test_reads_the_examples", "test_starts_python"]
    assert selected("examples") == ["test_reads_the_examples"]
