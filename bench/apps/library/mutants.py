"""Realistic regressions the library app can be started with, for the validation bench.

``LIBRARY_MUTANT=<name>[,<name>]`` (or ``LibraryApp(mutants=...)``) switches them on; each
frozen test in ``tests.py`` is meant to fail on the ones ``COVERED_BY`` lists for it.
``LIBRARY_BENIGN=wrap`` is the benign change: landmarks wrapped in two more ``<div>``s, class
names and the stylesheet's path changed, the visible text the same; recorded tests must pass.
"""

from __future__ import annotations

from ..variant import parse_names

ENV = "LIBRARY_MUTANT"
BENIGN_ENV = "LIBRARY_BENIGN"
BENIGN = ("wrap",)

MUTANTS: dict[str, str] = {
    "search_ignored": "the catalogue search ignores the query: every book is listed",
    "search_empty": "the catalogue search finds nothing: 'No books found' for any query",
    "details_wrong_author": "a book's details show the author of the next book",
    "menu_link_dead": "the menu's Opening hours link goes nowhere (href='#')",
    "hours_sunday_open": "the opening hours say Sunday 12:00 to 16:00 instead of closed",
    "wrong_password_accepted": "any password signs in a known reader",
    "signin_error_hidden": "a refused sign-in shows the form again without saying why",
    "join_accepts_empty": "the join form accepts an empty form and welcomes a new member",
    "join_errors_hidden": "an empty join form is refused but no message says what is missing",
    "reserve_count_stuck": "Reserve saves the reservation but the header's count stays at 0",
}



def parse(value: str, known: tuple[str, ...] | dict[str, str] = tuple(MUTANTS),
          env: str = ENV) -> set[str]:
    """Names from an environment value (comma-separated); unknown names raise."""
    return parse_names(value, known, env, "library")
