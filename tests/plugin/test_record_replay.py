"""Default mode: a missing recipe is recorded (model configured, not CI), then replayed."""

from __future__ import annotations

import yaml

from tests.plugin.conftest import TWO_TESTS, Inner


def test_record_then_replay(inner: Inner, dist: list[str]) -> None:
    inner.tests(TWO_TESTS)
    first = inner.run(*dist)
    first.assert_outcomes(passed=2)
    first.stdout.fnmatch_lines(["*0 step(s) replayed, 3 recorded, 0 failed*", "*LLM: 5 call(s)*"])
    recipe = yaml.safe_load(inner.recipe("test_add").read_text())
    assert recipe["version"] == 3 and recipe["test"] == "test_add"
    assert [s["kind"] for s in recipe["steps"]] == ["do", "check"]
    click = recipe["steps"][0]["actions"][1]
    assert click["tool"] == "click" and click["target"]["name"] == "Add to cart"
    assert "element_id" not in inner.recipe("test_add").read_text()
    calls = inner.llm_calls

    second = inner.run(*dist, env={"FORBID_LLM": "1"})
    second.assert_outcomes(passed=2)
    second.stdout.fnmatch_lines(["*3 step(s) replayed, 0 recorded, 0 failed*", "*LLM: 0 calls*"])
    assert inner.llm_calls == calls


def test_verbose_prints_a_line_per_step(inner: Inner) -> None:
    inner.recorded(TWO_TESTS)
    result = inner.run("-v")
    result.stdout.fnmatch_lines([
        "*webtask Step 1 do('add the Blue Oxford Shirt in size M to the cart'): replayed "
        "(2 action(s), 3 check(s)*",
        "*webtask Step 2 check('the cart total is $39.00'): replayed*",
    ])


def test_replay_failure_shows_step_expected_and_found(inner: Inner) -> None:
    inner.recorded(TWO_TESTS)
    path = inner.recipe("test_add")
    path.write_text(path.read_text().replace("name: Add to cart", "name: Add to basket"))
    result = inner.run("-k", "test_add and not again", env={"FORBID_LLM": "1"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*Replay failed. Step 1 do('add the Blue Oxford Shirt in size M to the cart'), "
        "action 2 (click): expected button \"Add to basket\" near \"Blue Oxford Shirt\"*",
        "*If the page changed on purpose, record again: pytest --webtask-record*",
    ])
    assert "Traceback" not in result.stdout.str()
    assert "pytest_webtask/" not in result.stdout.str()  # no trace from inside the plugin
