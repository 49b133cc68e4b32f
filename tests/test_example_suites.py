"""The example suites replay their committed recipes: zero LLM calls, loopback only, under
xdist (CI's main job, `scripts/dev.sh examples`, runs them serially already)."""

from __future__ import annotations

import re

from tests.example_run import ExampleRun, recipe_steps


def test_example_suites_replay_without_a_model_under_xdist(example_run: ExampleRun) -> None:
    assert example_run.returncode == 0, example_run.failure()
    out = example_run.stdout
    assert "LLM: 0 calls" in out
    summary = re.search(r"(\d+) step\(s\) replayed, (\d+) recorded, (\d+) failed", out)
    assert summary, out[-3000:]
    replayed, recorded, failed = map(int, summary.groups())
    assert (recorded, failed) == (0, 0)
    cases = example_run.cases()
    assert cases and all(c.outcome == "passed" for c in cases), \
        [c.nodeid for c in cases if c.outcome != "passed"]
    # every test that has a recipe replayed it whole: the steps its recipe holds, no fewer
    assert replayed == len(recipe_steps()) > 0
    assert sum(c.stats().get("replayed", 0) for c in cases) == replayed
    assert all(c.stats().get("recorded", 0) == 0 for c in cases)
    # and replaying wrote nothing: the committed recipes are as they were
    assert example_run.recipes_after == example_run.recipes_before
