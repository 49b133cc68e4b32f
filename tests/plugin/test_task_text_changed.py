"""A step whose text changed no longer matches its recipe step."""

from __future__ import annotations

from tests.plugin.conftest import TWO_TESTS, Inner


def test_changed_text_needs_recording(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    inner.run().assert_outcomes(passed=2)
    inner.tests(TWO_TESTS.replace("the cart total is $39.00", "the cart total is $39.00 exactly"))
    inner.scripts({"add the Blue Oxford Shirt": [], "the cart total is $39.00":
                   [{"complete": True, "message": "ok", "evidence": ["Total: $39.00"]}]})
    ci = inner.run(env={"CI": "1"})
    ci.assert_outcomes(passed=1, failed=1)
    ci.stdout.fnmatch_lines(["*step 2 of the recipe *test_add.yaml (check('the cart total is "
                             "$39.00')) was recorded for another call: the step's text changed: "
                             "it is check('the cart total is $39.00') in the recipe, check('the "
                             "cart total is $39.00 exactly') in the test*"])
    local = inner.run()
    local.assert_outcomes(passed=2)
    local.stdout.fnmatch_lines(["*2 step(s) replayed, 1 recorded, 0 failed*"])
    assert "the cart total is $39.00 exactly" in inner.recipe("test_add").read_text()
