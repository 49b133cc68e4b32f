"""A suite written by ``webtask explore`` and ``webtask generate`` from the demo shop.

``webtask-plan.md`` is the plan the explorer wrote, ``test_demo_shop.py`` the module the
generator wrote from it, and ``__webtask__/`` the recipes of the tests it kept: each was
recorded (``--webtask-record``) and replayed with ``CI=true`` before it was kept. The
exploring, the planning and the recording were done by scripted models
(``pytest_webtask.testing.scripted_explorer`` and ``recorder.py``), not by a model: they show
the machinery. Run the suite with ``pytest example_suites/generated`` (``pytest
example_suites`` leaves it out, so the hand-written suites' counts stay theirs); write it
again with ``python -m example_suites.generated.regenerate``.
"""

# For the mutation bench (bench/mutants.py --suite example_suites/generated): the generated
# tests whose subject is each mutant's behaviour, chosen the way the hand-written suites'
# ``covered_by`` are (example_suites/demo_shop/mutants.py). A mutant not listed here has no
# generated test about it (uncovered).
_MODULE = "test_demo_shop.py::"
COVERED_BY: dict[str, tuple[str, ...]] = {
    "sort_reversed": (_MODULE + "test_filter_and_sort_the_list",),
    "sort_ignored": (_MODULE + "test_filter_and_sort_the_list",),
    "sort_option_mislabeled": (_MODULE + "test_filter_and_sort_the_list",),
    "sort_select_resets": (_MODULE + "test_filter_and_sort_the_list",),
    "category_filter_ignored": (_MODULE + "test_filter_and_sort_the_list",),
    "search_ignored": (_MODULE + "test_search_the_catalogue",),
    "count_page_only": (_MODULE + "test_search_the_catalogue",
                        _MODULE + "test_filter_and_sort_the_list"),
    "plural_hidden": (_MODULE + "test_filter_and_sort_the_list",),
    "page_overlap": (_MODULE + "test_browse_to_the_next_page",),
    "details_wrong_product": (_MODULE + "test_open_the_details_of_an_item",),
    "size_ignored": (_MODULE + "test_add_an_item_to_the_cart",),
    "lost_session": (_MODULE + "test_checkout_validation_with_an_empty_form",),
    "signin_not_kept": (_MODULE + "test_sign_in",),
    "wrong_password_accepted": (),
    "validation_skipped": (_MODULE + "test_checkout_validation_with_an_empty_form",),
    "errors_not_shown": (_MODULE + "test_checkout_validation_with_an_empty_form",),
}
