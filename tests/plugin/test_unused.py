"""Unused recipes and steps, syrupy's way: reported only when the whole suite was collected,
selected and run; deleted only then, and only with --webtask-prune."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.plugin.conftest import TWO_TESTS, Inner

DESELECTING_CONFTEST = '''

def pytest_collection_modifyitems(config, items):
    keep = [i for i in items if "again" not in i.name]
    config.hook.pytest_deselected(items=[i for i in items if i not in keep])
    items[:] = keep
'''


def test_unused_recipe_reported(inner: Inner, dist: list[str]) -> None:
    inner.recorded(TWO_TESTS)
    inner.tests(TWO_TESTS.split("def test_add_again")[0])  # the second test is deleted
    result = inner.run(*dist)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*1 recipe(s) unused*--webtask-prune deletes them*",
                                 "*__webtask__/test_shop/test_add_again.yaml*"])
    assert inner.recipe("test_add_again").exists()  # reported, never deleted


def test_no_unused_report_on_partial_runs(inner: Inner) -> None:
    inner.recorded(TWO_TESTS)
    inner.tests(TWO_TESTS.replace("def test_add_again", "def test_add_later"))
    for args in (["-k", "test_add_later"], ["test_shop.py::test_add_later"],
                 ["--deselect", "test_shop.py::test_add"]):
        result = inner.run(*args, env={"FORBID_LLM": ""})
        assert "recipe(s) unused" not in result.stdout.str(), args


def test_a_conftest_that_deselects_is_a_partial_run(inner: Inner, dist: list[str]) -> None:
    inner.recorded(TWO_TESTS)
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + DESELECTING_CONFTEST)
    result = inner.run(*dist, "--webtask-prune")
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert "recipe(s) unused" not in out and "recipe(s) deleted" not in out
    result.stdout.fnmatch_lines(["*--webtask-prune: nothing deleted, this run is not the "
                                 "whole suite (1 of 2 collected test(s) were not selected)*"])
    assert inner.recipe("test_add_again").exists()


def test_prune_deletes_unused_recipes_and_steps_on_a_complete_run(inner: Inner) -> None:
    inner.recorded(TWO_TESTS)
    # test_add drops its check (a step at the end of its recipe), test_add_again is deleted
    inner.tests(TWO_TESTS.split("def test_add_again")[0].replace(
        '    webtask.check("the cart total is $39.00")\n', ""))
    reported = inner.run()
    reported.assert_outcomes(passed=1)
    reported.stdout.fnmatch_lines(["*1 recipe(s) have steps at their end that their passing "
                                   "test no longer runs (--webtask-prune cuts them)*",
                                   "*test_add.yaml: 1 unused step(s)*"])
    assert len(yaml.safe_load(inner.recipe("test_add").read_text())["steps"]) == 2
    # a partial run prunes nothing
    partial = inner.run("-k", "not test_add", "--webtask-prune")
    partial.stdout.fnmatch_lines(["*nothing deleted, this run is not the whole suite*"])
    assert inner.recipe("test_add_again").exists()
    pruned = inner.run("--webtask-prune")
    pruned.assert_outcomes(passed=1)
    pruned.stdout.fnmatch_lines(["*1 recipe(s) deleted:*", "*test_add_again.yaml*",
                                 "*1 recipe(s) cut:*"])
    assert not inner.recipe("test_add_again").exists()
    steps = yaml.safe_load(inner.recipe("test_add").read_text())["steps"]
    assert [s["kind"] for s in steps] == ["do"]
    again = inner.run(env={"CI": "1", "FORBID_LLM": "1"})  # still replays, nothing to report
    again.assert_outcomes(passed=1)
    assert "recipe(s) unused" not in again.stdout.str()
    assert "unused step(s)" not in again.stdout.str()


def test_a_skipped_test_keeps_its_recipe_under_prune(inner: Inner) -> None:
    inner.recorded(TWO_TESTS)
    inner.tests("import pytest\n" + TWO_TESTS.replace(
        "def test_add_again", "@pytest.mark.skip(reason='flaky today')\ndef test_add_again"))
    result = inner.run("--webtask-prune")
    result.assert_outcomes(passed=1, skipped=1)
    assert "recipe(s) unused" not in result.stdout.str()
    assert "recipe(s) deleted" not in result.stdout.str()
    assert inner.recipe("test_add_again").exists()


# -- the same bookkeeping with plain tests: no browser, in this process -------------------

PLAIN = '''
def test_a():
    pass


def test_b():
    pass
'''


def _plain_project(pytester: pytest.Pytester) -> tuple[Path, Path]:
    pytester.makepyfile(test_x=PLAIN)
    folder = pytester.path / "__webtask__" / "test_x"
    folder.mkdir(parents=True)
    for name in ("test_a", "test_b", "test_gone"):
        (folder / f"{name}.yaml").write_text(f"version: 3\ntest: {name}\nsteps: []\n")
    return folder / "test_a.yaml", folder / "test_gone.yaml"


def test_a_recipe_whose_test_is_gone_is_reported_then_pruned(pytester: pytest.Pytester) -> None:
    kept, gone = _plain_project(pytester)
    reported = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    reported.assert_outcomes(passed=2)
    reported.stdout.fnmatch_lines([
        "*1 recipe(s) unused: their tests are gone or renamed (--webtask-prune deletes them):",
        "*__webtask__/test_x/test_gone.yaml"])
    assert gone.exists()
    pruned = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--webtask-prune")
    pruned.stdout.fnmatch_lines(["*1 recipe(s) deleted:", "*__webtask__/test_x/test_gone.yaml"])
    assert not gone.exists() and kept.exists()
    again = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    assert "recipe(s)" not in again.stdout.str()


@pytest.mark.parametrize("args", [["-k", "test_a"], ["test_x.py::test_a"],
                                  ["--deselect", "test_x.py::test_b"]],
                         ids=["k", "node-id", "deselect"])
def test_a_partial_run_reports_and_prunes_nothing(pytester: pytest.Pytester,
                                                  args: list[str]) -> None:
    _kept, gone = _plain_project(pytester)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--webtask-prune", *args)
    out = result.stdout.str()
    assert "recipe(s) unused" not in out and "recipe(s) deleted" not in out
    result.stdout.fnmatch_lines(["*--webtask-prune: nothing deleted, this run is not the "
                                 "whole suite (*); prune on a run of every test."])
    assert gone.exists()


def _picture_recipe(name: str, *files: str) -> str:
    checks = "".join(f"\n  - expect: screenshot\n    element: {{tag: canvas}}\n"
                     f"    screenshot: {{file: {f}}}" for f in files)
    return f"version: 3\ntest: {name}\nsteps:\n- kind: check\n  text: x\n  checks:{checks}\n"


def test_a_baseline_picture_no_recipe_names_is_reported_then_pruned(
        pytester: pytest.Pytester) -> None:
    kept, gone = _plain_project(pytester)
    folder = kept.parent
    kept.write_text(_picture_recipe("test_a", "test_a.1-1.png"))
    gone.write_text(_picture_recipe("test_gone", "test_gone.1-1.png"))
    pictures = {name: folder / name for name in (
        "test_a.1-1.png",          # named by a kept recipe
        "test_gone.1-1.png",       # named only by an unused recipe: goes with it
        "test_a.2-1.png",          # named by nothing (the step that took it was re-recorded)
        "test_a.1-1.healed.png")}  # a heal proposed for review
    for path in pictures.values():
        path.write_bytes(b"\x89PNG\r\n\x1a\n")
    reported = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    reported.stdout.fnmatch_lines([
        "*2 baseline picture(s) unused: no recipe names them (--webtask-prune deletes them):",
        "*__webtask__/test_x/test_a.2-1.png", "*__webtask__/test_x/test_gone.1-1.png"])
    assert all(p.exists() for p in pictures.values())
    partial = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--webtask-prune", "-k",
                                           "test_a")
    assert "baseline picture(s)" not in partial.stdout.str()
    assert all(p.exists() for p in pictures.values())
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "--webtask-prune").stdout \
        .fnmatch_lines(["*2 baseline picture(s) deleted:"])
    assert sorted(p.name for p in folder.glob("*.png")) == [
        "test_a.1-1.healed.png", "test_a.1-1.png"]
