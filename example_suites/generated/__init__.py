"""A suite written by ``webtask explore`` and ``webtask generate`` from the demo shop.

``webtask-plan.md`` is the plan the explorer wrote, ``test_demo_shop.py`` the module the
generator wrote from it, and ``__webtask__/`` the recipes of the tests it kept: each was
recorded (``--webtask-record``) and replayed with ``CI=true`` before it was kept. The
exploring, the planning and the recording were done by scripted models
(``pytest_webtask.testing.scripted_explorer`` and ``scripted_recorder``), not by a model: they show
the machinery. Run the suite with ``pytest example_suites/generated`` (``pytest
example_suites`` leaves it out, so the hand-written suites' counts stay theirs); write it
again with ``python -m example_suites.generated.regenerate``.
"""

from example_suites.demo_shop.mutants import MUTANTS

# For the mutation bench (bench/mutants.py --suite example_suites/generated): each generated
# test and the hand-written tests that do the same thing. A generated test covers a mutant
# when one of its counterparts does (demo_shop/mutants.py's hand-written ``covered_by``), so
# both suites are scored by the same judgement of what each test is about.
_MODULE = "test_demo_shop.py::"
COUNTERPARTS: dict[str, tuple[str, ...]] = {
    "test_search_the_catalogue": ("test_browse.py::test_search",),
    "test_filter_and_sort_the_list": ("test_browse.py::test_filter_and_sort",
                                      "test_order.py::test_jackets_most_expensive_first"),
    "test_add_an_item_to_the_cart": ("test_cart.py::test_add_to_cart",),
    "test_open_the_details_of_an_item": ("test_browse.py::test_details_panel",),
    "test_browse_to_the_next_page": ("test_browse.py::test_pagination",
                                     "test_order.py::test_second_page_continues_the_first"),
    "test_sign_in": ("test_account.py::test_sign_in",),
    "test_checkout_validation_with_an_empty_form": ("test_checkout.py::test_checkout_validation",),
}
COVERED_BY: dict[str, tuple[str, ...]] = {
    name: tuple(_MODULE + test for test, twins in COUNTERPARTS.items()
                if set(twins) & set(mutant.covered_by))
    for name, mutant in MUTANTS.items()
}
