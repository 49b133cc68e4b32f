"""--webtask-replay-only and CI: never call a model; a missing recipe says how to record it."""

from __future__ import annotations

from tests.plugin.conftest import TWO_TESTS, Inner


def test_replay_only_missing_recipe_fails_without_building_a_model(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    result = inner.run("--webtask-replay-only", env={"FORBID_LLM": "1"})
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*Step 1 do('add the Blue Oxford Shirt in size M to the cart'): the recipe is missing: "
        "there is no recipe *test_add.yaml; --webtask-replay-only is set.*",
        "*Record it where a model is configured with:  pytest --webtask-record*",
    ])
    assert inner.llm_calls == 0
    assert not (inner.path / "__webtask__").exists()


def test_missing_recipe_in_ci_fails_with_the_command(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    result = inner.run(env={"CI": "true", "FORBID_LLM": "1"})
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*the recipe is missing*CI is set, so no model is called.*",
                                 "*pytest --webtask-record*"])
    assert inner.llm_calls == 0


def test_no_model_configured_says_how_to_configure(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    (inner.path / "conftest.py").write_text(
        (inner.path / "conftest.py").read_text().replace("def webtask_llm", "def _unused_llm"))
    result = inner.run("-k", "test_add_again", env={"OPENAI_API_KEY": ""})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*needs recording, but no model is configured: No model name "
                                 "given: set WEBTASK_MODEL*"])
    assert "Traceback" not in result.stdout.str()
