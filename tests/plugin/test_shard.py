"""--webtask-shard i/n: disjoint slices that together are the whole suite, each replaying on
its own; a shard reports no unused recipes and prunes nothing."""

from __future__ import annotations

import re

import pytest

from pytest_webtask.plugin.shard import Shard
from tests.plugin.conftest import TWO_TESTS, Inner

PLAIN = "\n".join(f"def test_{i:02}():\n    pass\n" for i in range(10)) + '''

def test_slow_one():
    pass
'''


@pytest.mark.parametrize("count", range(1, 7))
def test_slices_partition_every_length(count: int) -> None:
    for total in range(0, 25):
        slices = [range(*Shard(i, count).bounds(total)) for i in range(1, count + 1)]
        flat = [n for s in slices for n in s]
        assert flat == list(range(total))  # disjoint, in order, nothing left out
        assert max(map(len, slices)) - min(map(len, slices)) <= 1


@pytest.mark.parametrize("text", ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", ""])
def test_a_bad_spec_says_what_is_expected(text: str) -> None:
    with pytest.raises(pytest.UsageError, match=re.escape(
            f"--webtask-shard should be i/n, this job's slice i of n with 1 <= i <= n "
            f"(e.g. --webtask-shard 2/4); got {text!r}.")):
        Shard.parse(text)


def _pytest(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest on the project: in this process, or a new one under xdist (``-n``)."""
    if "-n" in args:
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=240)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", *args)


def test_a_bad_spec_is_a_usage_error_on_the_command_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(PLAIN)
    result = _pytest(pytester, "--webtask-shard", "3/2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--webtask-shard should be i/n*got '3/2'*"])


def _ran(result: pytest.RunResult) -> list[str]:
    return sorted(name for line in result.outlines if "PASSED" in line
                  for name in re.findall(r"::(test_\w+)", line))


def test_shards_are_disjoint_and_cover_the_suite(pytester: pytest.Pytester,
                                                 dist: list[str]) -> None:
    pytester.makepyfile(PLAIN)
    every = _ran(_pytest(pytester, "-v"))  # the whole suite, as a run without xdist sees it
    assert len(every) == 11
    shards = []
    for i in (1, 2, 3):
        result = _pytest(pytester, "-v", "--webtask-shard", f"{i}/3", *dist)
        result.stdout.fnmatch_lines([f"webtask: shard {i} of 3"])
        shards.append(_ran(result))
        outcomes = result.parseoutcomes()
        assert outcomes["passed"] == len(shards[-1])
        if not dist:  # the controller of an xdist run does not count deselections
            assert outcomes["deselected"] == 11 - len(shards[-1])
    assert sorted(sum(shards, [])) == every
    assert [len(s) for s in shards] == [3, 4, 4]


def test_a_shard_slices_what_k_selected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(PLAIN)
    first = _ran(_pytest(pytester, "-v", "-k", "not slow", "--webtask-shard", "1/2"))
    second = _ran(_pytest(pytester, "-v", "-k", "not slow", "--webtask-shard", "2/2"))
    assert first == [f"test_{i:02}" for i in range(5)]
    assert second == [f"test_{i:02}" for i in range(5, 10)]


def test_each_shard_replays_alone_and_reports_no_unused_recipes(inner: Inner) -> None:
    inner.recorded(TWO_TESTS)
    stale = inner.recipe("test_removed_long_ago")
    stale.write_text(inner.recipe("test_add_again").read_text())
    whole = inner.run(env={"FORBID_LLM": "1"})
    whole.stdout.fnmatch_lines(["*1 recipe(s) unused*", "*test_removed_long_ago.yaml*"])

    for i, steps in ((1, 2), (2, 1)):
        shard = inner.run("--webtask-shard", f"{i}/2", "--webtask-prune",
                          env={"FORBID_LLM": "1"})
        shard.assert_outcomes(passed=1, deselected=1)
        shard.stdout.fnmatch_lines([
            f"*{steps} step(s) replayed, 0 recorded, 0 failed*",
            "*--webtask-prune: nothing deleted, this run is not the whole suite "
            "(1 of 2 collected test(s) were not selected)*"])
        summary = shard.stdout.str().split("= webtask =", 1)[1]
        assert "unused" not in summary and "test_removed_long_ago" not in summary
        assert stale.exists()


def test_the_documented_workflow_runs_a_shard(pytester_process: pytest.Pytester) -> None:
    """docs/github-actions-shards.yml: its pytest command, with the matrix filled in, works."""
    import shlex
    from pathlib import Path

    import yaml

    doc = Path(__file__).resolve().parents[2] / "docs" / "github-actions-shards.yml"
    steps = yaml.safe_load(doc.read_text())["jobs"]["replay"]["steps"]
    (command,) = [s["run"] for s in steps if "pytest" in s.get("run", "")
                  and "--webtask-shard" in s["run"]]
    assert "KEY" not in doc.read_text()  # recipes replay: no model, no key
    args = shlex.split(command.replace("${{ matrix.shard }}", "2")
                       .replace("${{ strategy.job-total }}", "4"))
    assert args[:3] == ["python", "-m", "pytest"] and "-n" in args
    pytester = pytester_process
    pytester.makepyfile(PLAIN)
    result = _pytest(pytester, "-v", *args[3:])
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["webtask: shard 2 of 4"])
    assert len(_ran(result)) == 3  # 11 tests in 4 slices: 2, 3, 3, 3
