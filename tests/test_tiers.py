"""The suite's tiers (tests/conftest.py): markers follow from the fixtures a test uses, a
test in the fast tier cannot start a process, and only a test of the bench is marked
``bench`` (which ``dev.sh tests`` leaves out)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT


def test_a_fast_test_cannot_start_a_process() -> None:
    with pytest.raises(AssertionError, match="starts a process but is in the fast tier"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


PROJECT = """
import pytest

from tests.conftest import ROOT


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


SHARED = """
import os
import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def recorded_once(tmp_path_factory):
    with open(os.environ["MADE"], "a") as fh:
        fh.write(os.environ.get("PYTEST_XDIST_WORKER", "-") + "\\n")


@pytest.mark.parametrize("n", range(6))
def test_shares_the_recording(recorded_once, n):
    pass


@pytest.mark.parametrize("n", range(6))
def test_alone(n):
    pass
"""


def test_tests_sharing_a_recording_run_on_one_worker(pytester_process: pytest.Pytester,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``-n 2 --dist loadgroup`` a module-scoped recording is made once: its tests go
    to one worker (pytest-xdist's own grouping does nothing with pytest 9.2's node ids)."""
    made = pytester_process.path / "made.txt"
    monkeypatch.setenv("MADE", str(made))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester_process.makeconftest(
        "from tests.conftest import (pytest_collection_modifyitems, pytest_configure,  # noqa\n"
        "                            pytest_xdist_make_scheduler)\n")
    pytester_process.makepyfile(test_shared=SHARED)
    result = pytester_process.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2",
                                                   "--dist", "loadgroup", timeout=120)
    result.assert_outcomes(passed=12)
    assert made.read_text().count("\n") == 1, made.read_text()


def _bench_marked(path: Path) -> tuple[list[str], set[str]]:
    """The tests of a module marked ``bench`` (by decorator, by ``pytest.param``, or all of
    them by ``pytestmark``: "*"), and the top-level packages the module imports from."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {(node.module or "").split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.Import) for alias in node.names}
    marked = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)
              and any("mark.bench" in ast.unparse(d) for d in node.decorator_list)]
    marked += ["*" for node in tree.body if isinstance(node, ast.Assign)
               and any(getattr(t, "id", "") == "pytestmark" for t in node.targets)
               and "mark.bench" in ast.unparse(node.value)]
    return marked, imported


def test_only_tests_of_the_bench_are_marked_bench() -> None:
    """``dev.sh tests`` leaves the ``bench`` marker's tests out: a module may mark a test
    so only when it tests the bench (imports it), so no test of the plugin hides there."""
    marked_anywhere = 0
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        marked, imported = _bench_marked(path)
        marked_anywhere += len(marked)
        assert not marked or "bench" in imported, f"{path.name} marks {marked} bench"
    assert marked_anywhere >= 40  # the bench's apps and harness checks (CONTRIBUTING.md)
