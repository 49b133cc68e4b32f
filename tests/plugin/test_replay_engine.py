"""A replayed action through the ``webtask`` fixture finds, verifies and acts on its target in
the action's own Playwright call (the fingerprint selector engine the fixture registers), a
step's checks are tried in one call through it too, and both fail as a separate lookup
would: an ambiguous or missing element is an element failure with the cascade's own account,
a wrong outcome still fails its check.

Without the plugin (a ``WebTask`` built on a plain page, as the other replay tests do) the
target is found by an ``evaluate`` first and tagged with a ``data-webtask-target`` token; the
engine leaves no token, which is how the tests below see which way the replay went."""

from __future__ import annotations

import time

from tests.plugin.conftest import Inner

# The inner conftest's shop comes up with the variants named in SHOP_VARIANTS.
TEST = '''
import os
import time

def test_add(webtask, page):
    if os.environ.get("STRICT_CSP"):  # the shop served with a policy that forbids eval
        def strict(route):
            response = route.fetch(max_redirects=0)
            route.fulfill(response=response, headers={
                **response.headers, "content-security-policy": "script-src 'self' 'unsafe-inline'"})
        page.route("**/*", strict)
        page.add_init_script(
            "addEventListener('DOMContentLoaded', () => { try { eval('1') } catch (e) {"
            " document.documentElement.dataset.evalBlocked = 'yes' } })")
    webtask.goto("/")
    if os.environ.get("STRICT_CSP"):  # the policy is in force on the page
        assert page.locator("html[data-eval-blocked=yes]").count() == 1
    started = time.monotonic()
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    assert webtask.stats.replayed + webtask.stats.recorded == 1
    if "slow_cart" in os.environ.get("SHOP_VARIANTS", ""):
        # the step's checks are on the cart, whose body comes 1 s after the click: the
        # first try of them failed, and the replay waited
        assert time.monotonic() - started >= 1.0
    if webtask.stats.replayed:  # no resolve evaluate ran: no target token was left behind
        assert page.locator("[data-webtask-target]").count() == 0
        # the checks held, tried through the engine (waited for there while the page
        # loads): no script in the page's world
        assert not page.evaluate(
            "Object.getOwnPropertyNames(window).some((n) => n.startsWith('__webtask'))")
'''

CI = {"CI": "true", "FORBID_LLM": "1"}


def test_the_engine_replays_and_fails_as_a_lookup_would(inner: Inner) -> None:
    inner.tests(TEST)
    inner.run().assert_outcomes(passed=1)  # recorded
    inner.run(env=CI).assert_outcomes(passed=1)  # replayed through the engine
    # a page whose policy forbids eval: the engine (evaluated where Playwright evaluates its
    # own engines) still finds, verifies and checks
    inner.run(env={**CI, "STRICT_CSP": "1"}).assert_outcomes(passed=1)

    # two look-alike buttons in the card: ambiguous, said as the cascade says it
    result = inner.run(env={**CI, "SHOP_VARIANTS": "duplicate_button"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*action 2 (click): expected button \"Add to cart\" near \"Blue Oxford Shirt\"; 2 "
        "elements now match it (found by role and name)*",
        "*a heal might fix this locally*"])

    # the button is gone: the closest candidates, and the heal command (an element failure)
    result = inner.run(env={**CI, "SHOP_VARIANTS": "relabel_add"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*action 2 (click): expected button \"Add to cart\" near \"Blue Oxford Shirt\"; no "
        "visible element matches it*",
        "*a heal might fix this locally*"])

    # the element is there and acted on, the outcome is wrong: the check fails, no heal
    result = inner.run(env={**CI, "SHOP_VARIANTS": "dead_button"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*check 2: expected the page shows text 'Size M'*"])
    assert "a heal might fix this" not in result.stdout.str()


def test_checks_that_hold_late_are_waited_for_through_the_engine(inner: Inner) -> None:
    """The cart comes late (its body 1 s after the click navigated to it), so the step's
    checks do not hold at their first try: they are waited for through the selector engine,
    at Playwright's intervals, and the page's own world is still never entered on a pass
    (the inner test asserts it). A failing check is still said with what the page has."""
    inner.tests(TEST)
    inner.run().assert_outcomes(passed=1)  # recorded
    inner.run(env={**CI, "SHOP_VARIANTS": "slow_cart"}).assert_outcomes(passed=1)
    result = inner.run(env={**CI, "SHOP_VARIANTS": "slow_cart,wrong_product"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*check 1: expected the page shows text 'Blue Oxford Shirt'*",
                                 "*instead:*"])


# With DROP_SIZE (DISABLE_SIZE), a script of the page's own takes that size off the
# dropdowns (disables it).
DROPDOWN = '''
import os

def test_add(webtask, page):
    for var, change in (("DROP_SIZE", "o.remove()"), ("DISABLE_SIZE", "o.disabled = true")):
        if os.environ.get(var):
            page.add_init_script(
                "addEventListener('DOMContentLoaded', () => document.querySelectorAll('option')"
                f".forEach((o) => {{ if (o.textContent === {os.environ[var]!r}) {change}; }}))")
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    assert webtask.stats.replayed + webtask.stats.recorded == 1
'''


def test_a_replayed_dropdown_without_its_option_says_which_it_has(inner: Inner) -> None:
    """A replayed select goes straight to Playwright's ``select_option`` (one call, as
    exported code does); when the option never comes, the failure names the options the
    dropdown has, as recording tells the model; another option that is gone changes
    nothing."""
    inner.tests(DROPDOWN)
    inner.run().assert_outcomes(passed=1)  # recorded
    inner.run(env={**CI, "DROP_SIZE": "L"}).assert_outcomes(passed=1)
    result = inner.run(env={**CI, "DROP_SIZE": "M"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*action 1 (select)*No option 'M' in this dropdown; options: 'S', 'L'*"])
    # the option is there but disabled: not said as missing; failed once, not waited twice
    started = time.monotonic()
    result = inner.run(env={**CI, "DISABLE_SIZE": "M"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*action 1 (select)*combobox \"Size\"*it is disabled*"])
    assert "No option" not in result.stdout.str()
    assert time.monotonic() - started < 2 * 3  # the inner runs' timeout is 3 s
