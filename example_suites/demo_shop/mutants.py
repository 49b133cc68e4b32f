"""Realistic bugs the demo shop can be started with, one at a time, for the mutation bench.

A replay must never pass when the behaviour it recorded is broken: ``bench/mutants.py``
starts the example suites once per mutant (``WEBTASK_DEMO_MUTANT=<name>``) and counts the
mutants some test fails on. ``covered_by`` is written by hand: the example tests whose
subject is that behaviour (``file.py::test``), so a surviving mutant with covering tests is a
check too weak to see it, and one without is a gap in the suites.
"""

from __future__ import annotations

from dataclasses import dataclass

ENV = "WEBTASK_DEMO_MUTANT"


@dataclass(frozen=True)
class Mutant:
    description: str
    covered_by: tuple[str, ...] = ()
    issue17: bool = False  # text that reads right to a DOM query but wrong to a person


_BROWSE = "test_browse.py::"
_ORDER = "test_order.py::"
_COUNTS = "test_counts.py::"
_STATE = "test_state.py::"
_ABSENCE = "test_absence.py::"
_CHECKOUT = "test_checkout.py::"
_ACCOUNT = "test_account.py::"

MUTANTS: dict[str, Mutant] = {
    # -- product list ------------------------------------------------------------------------
    "sort_reversed": Mutant(
        "price sorts run the wrong way round (high to low lists the cheapest first)",
        (_BROWSE + "test_filter_and_sort", _ORDER + "test_jackets_most_expensive_first",
         _ORDER + "test_cheapest_first")),
    "sort_ignored": Mutant(
        "the sort choice is ignored: the list stays in name order",
        (_ORDER + "test_cheapest_first",)),
    "sort_option_mislabeled": Mutant(
        "the option 'Price: high to low' sends sort=price_asc",
        (_BROWSE + "test_filter_and_sort", _ORDER + "test_jackets_most_expensive_first")),
    "sort_select_resets": Mutant(
        "after applying, the sort box shows 'Name' again though the list is sorted by price",
        (_ORDER + "test_jackets_most_expensive_first",)),
    "category_filter_ignored": Mutant(
        "the category filter is ignored: every product is listed",
        (_BROWSE + "test_filter_and_sort", _ORDER + "test_jackets_most_expensive_first")),
    "search_ignored": Mutant(
        "the search box is ignored: every product is listed",
        (_BROWSE + "test_search",)),
    "count_page_only": Mutant(
        "'N products' counts the products on this page, not all that match",
        (_COUNTS + "test_product_count",)),
    "plural_hidden": Mutant(
        "the plural 's' of 'N products' is in a hidden span: the page reads '13 product'",
        (_BROWSE + "test_search", _BROWSE + "test_filter_and_sort",
         _COUNTS + "test_product_count"), issue17=True),
    "page_overlap": Mutant(
        "page 2 and later start one product early, repeating the last of the page before",
        (_ORDER + "test_second_page_continues_the_first",)),
    "details_wrong_product": Mutant(
        "Details opens the next product's details",
        (_BROWSE + "test_details_panel", _ABSENCE + "test_details_panel_closes")),
    "category_lowercase": Mutant(
        "the details panel says 'Category: accessories' (case only)",
        (_BROWSE + "test_details_panel", _ABSENCE + "test_details_panel_closes"),
        issue17=True),
    "details_close_broken": Mutant(
        "Close details leaves the panel open",
        (_ABSENCE + "test_details_panel_closes",)),
    # -- cart --------------------------------------------------------------------------------
    "cart_count_lines": Mutant(
        "the header's Cart (N) counts lines, not items (two of a shirt show Cart (1))",
        (_COUNTS + "test_same_product_twice",)),
    "cart_merge_lost": Mutant(
        "adding the same product and size again adds a second line instead of Qty 2",
        (_COUNTS + "test_same_product_twice",)),
    "size_ignored": Mutant(
        "the cart keeps the first size whatever size was chosen",
        ("test_cart.py::test_add_to_cart", _CHECKOUT + "test_checkout_with_receipt",
         _CHECKOUT + "test_checkout_validation", _COUNTS + "test_same_product_twice")),
    "total_ignores_qty": Mutant(
        "the cart total adds each line's unit price, ignoring its quantity",
        (_COUNTS + "test_same_product_twice",)),
    "remove_wrong_line": Mutant(
        "Remove deletes the line below the one chosen",
        (_ABSENCE + "test_removed_item_leaves_the_cart",)),
    "remove_does_nothing": Mutant(
        "Remove says the item was removed but the cart keeps it",
        (_ABSENCE + "test_removed_item_leaves_the_cart",)),
    "lost_session": Mutant(
        "the session cookie is scoped to /cart: checkout finds an empty cart",
        (_CHECKOUT + "test_checkout_with_receipt", _CHECKOUT + "test_checkout_validation",
         _CHECKOUT + "test_checkout_replays_with_new_data")),
    # -- sign-in -----------------------------------------------------------------------------
    "signin_button_enabled": Mutant(
        "the Sign in button is enabled while the form is empty",
        (_STATE + "test_sign_in_button_waits_for_both_fields",)),
    "signin_enabled_with_one_field": Mutant(
        "the Sign in button is enabled as soon as either field is filled",
        (_STATE + "test_sign_in_button_waits_for_both_fields",)),
    "wrong_password_accepted": Mutant(
        "any password signs in a known email",
        (_ACCOUNT + "test_wrong_password_is_refused",)),
    "signin_error_not_shown": Mutant(
        "a refused sign-in shows the form again without saying why",
        (_ACCOUNT + "test_wrong_password_is_refused",)),
    "signin_not_kept": Mutant(
        "signing in succeeds but the session forgets the user",
        (_ACCOUNT + "test_sign_in",)),
    # -- checkout ----------------------------------------------------------------------------
    "validation_skipped": Mutant(
        "checkout places an order with an empty form",
        (_CHECKOUT + "test_checkout_validation",)),
    "email_not_validated": Mutant(
        "the email is not checked: an order without one is accepted",
        (_ABSENCE + "test_fixed_error_goes_away",)),
    "errors_not_shown": Mutant(
        "a refused checkout shows the summary but not the message beside each field",
        (_CHECKOUT + "test_checkout_validation", _STATE + "test_gift_wrap_kept_after_error")),
    "stale_errors": Mutant(
        "errors of the previous attempt stay on the form after they were fixed",
        (_ABSENCE + "test_fixed_error_goes_away",)),
    "values_lost_on_error": Mutant(
        "a refused checkout empties the fields the customer had filled in",
        (_STATE + "test_gift_wrap_kept_after_error",)),
    "gift_wrap_lost_on_error": Mutant(
        "a refused checkout forgets that Gift wrap was ticked",
        (_STATE + "test_gift_wrap_kept_after_error",), issue17=True),
    "gift_wrap_ignored": Mutant(
        "the confirmation says 'Gift wrap: no' though it was ticked",
        (_STATE + "test_gift_wrap_on_confirmation",)),
    "counter_appends": Mutant(
        "the gift message's 'N characters left' counter appends instead of replacing",
        (_STATE + "test_gift_message_counter",), issue17=True),
    "cart_not_emptied": Mutant(
        "after the order the cart still holds what was ordered",
        (_STATE + "test_gift_wrap_on_confirmation",)),
    "receipt_dropped": Mutant(
        "the uploaded receipt is not kept with the order",
        (_CHECKOUT + "test_checkout_with_receipt",)),
    "confirmation_wrong_item": Mutant(
        "the confirmation lists the next product in the catalogue instead of the one ordered",
        (_CHECKOUT + "test_checkout_with_receipt",)),
    "confirmation_wrong_name": Mutant(
        "the confirmation thanks the customer by email address instead of name",
        (_CHECKOUT + "test_checkout_with_receipt",)),
}


def parse(value: str) -> set[str]:
    """Mutant names from ``WEBTASK_DEMO_MUTANT`` (comma-separated); unknown names raise."""
    names = {n.strip() for n in value.split(",") if n.strip()}
    unknown = sorted(names - MUTANTS.keys())
    if unknown:
        raise ValueError(f"unknown demo shop mutant(s) {', '.join(unknown)} in {ENV}; "
                         f"known: {', '.join(MUTANTS)}")
    return names
