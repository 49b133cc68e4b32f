"""--webtask-heal from the command line: a relabelled button is healed and the recipe rewritten
(the terminal summary shows the diff and the model calls); in CI no heal runs and the failure
prints the command that would heal it."""

from __future__ import annotations

from tests.plugin.conftest import Inner

# The inner conftest's shop comes up with the variants named in SHOP_VARIANTS.
TEST = '''
def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''

HEAL = [{"complete": False, "message": "the button reads Add to bag", "actions": [
            {"reason": "add", "tool": "click", "parameters": {"element_id": "button-4"}}]},
        {"complete": True, "message": "added", "evidence": ["Cart (1)"]}]


def test_heal_rewrites_the_recipe_and_ci_never_heals(inner: Inner) -> None:
    inner.tests(TEST)
    inner.run().assert_outcomes(passed=1)  # recorded on the shop as it was
    recipe = inner.recipe("test_add")
    recorded = recipe.read_text()
    assert "Add to cart" in recorded

    # CI: no heal, no model; the message prints the command that heals it locally
    result = inner.run(env={"SHOP_VARIANTS": "relabel_add", "CI": "true",
                            "FORBID_LLM": "1"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*action 2 (click): expected button \"Add to cart\" near \"Blue Oxford Shirt\"*",
        "*a heal might fix this locally*healing never runs here: CI is set, so no model is "
        "called*pytest --webtask-heal 'test_shop.py::test_add*"])
    assert recipe.read_text() == recorded

    # locally with the flag: healed, the summary shows what changed and what it cost
    calls = inner.llm_calls
    inner.scripts({"add the Blue Oxford Shirt": HEAL})
    result = inner.run("--webtask-heal", env={"SHOP_VARIANTS": "relabel_add"})
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([
        "*0 step(s) replayed, 0 recorded, 1 healed, 0 failed*",
        "*Heals: 1 accepted, 2 model call(s) spent healing; what changed (checks untouched):*",
        "*test_add: Step 1 do('add the Blue Oxford Shirt in size M to the cart') (2 model "
        "call(s); recipe rewritten)*",
        "*action 2: click button \"Add to cart\" near \"Blue Oxford Shirt\" -> click button "
        "\"Add to bag\" near \"Blue Oxford Shirt\"*"])
    assert inner.llm_calls == calls + 2
    assert "Add to bag" in recipe.read_text()
    saved = (inner.path / "test-results" / "test-shop-py-test-add-chromium" /
             "webtask-heal-1.txt").read_text()
    assert 'click button "Add to cart" near "Blue Oxford Shirt" -> click button "Add to bag"' \
        in saved

    # and the healed recipe replays in CI with no model
    result = inner.run(env={"SHOP_VARIANTS": "relabel_add", "CI": "true", "FORBID_LLM": "1"})
    result.assert_outcomes(passed=1)


def test_bad_heal_value_is_a_usage_error(inner: Inner) -> None:
    inner.tests(TEST)
    result = inner.run("--webtask-heal=maybe")
    assert result.ret != 0
    assert "webtask heal should be one of off, on, suggest; got 'maybe'" in \
        result.stderr.str() + result.stdout.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
