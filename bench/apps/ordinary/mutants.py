"""Realistic regressions the ordinary app can be started with, for the recording bench.

``ORDINARY_MUTANT=<name>[,<name>]`` (or ``OrdinaryApp(mutants=...)``) switches them on; each
frozen test in ``tests.py`` is meant to fail on the ones ``COVERED_BY`` lists for it.
``ORDINARY_BENIGN=wrap`` is the benign change: containers wrapped in two more ``<div>``s,
class names and the stylesheet's path changed, the visible text the same; recorded tests must
pass on it.
"""

from __future__ import annotations

from ..variant import parse_names

ENV = "ORDINARY_MUTANT"
BENIGN_ENV = "ORDINARY_BENIGN"
BENIGN = ("wrap",)

MUTANTS: dict[str, str] = {
    "category_ignored":
        "every category path (/shop/jackets, ...) lists all 30 products and says "
        "'30 products'; the heading and the sidebar still name the category",
    "pager_stuck":
        "page 2 of a product list shows the first page's products again, while the pager "
        "says 'Page 2 of 2'",
    "status_filter_ignored":
        "the orders' status filter is ignored: the dropdown keeps the chosen status but the "
        "table lists orders of every status ('Showing 1 to 15 of 40 orders')",
    "show_only_mine_ignored":
        "'Show only my tasks' is saved (the confirmation shows, the box stays ticked) but the "
        "tasks page still lists everyone's tasks",
    "switch_not_saved":
        "the Email notifications switch flips on the page but nothing is sent to the "
        "server: after a reload it is off again",
    "announcements_empty":
        "/api/announcements answers an empty list: the announcements page, built from it by "
        "script, says 'No announcements yet.'",
    "search_ignored":
        "typing in the team search filters nothing: every member stays listed and the count "
        "stays '12 people'",
    "modal_create_lost":
        "the New task dialog's Create closes the dialog but the task is never sent: no task "
        "appears, the count stays",
    "confirm_inverted":
        "the delete confirmation is read backwards: OK keeps the task, Cancel deletes it",
    "delete_without_confirm":
        "Delete removes the task at once, with no 'Delete this task?' confirmation",
    "edit_in_place_not_saved":
        "renaming a task in place shows the new title (and 'Task saved') but the server is "
        "never told: after a reload the old title is back",
    "toast_missing":
        "a task renamed in place is saved, but no 'Task saved' message appears",
    "count_stuck":
        "the 'N open tasks' count does not change when a task is added or deleted (it is "
        "right again after a reload)",
}



def parse(value: str, known: tuple[str, ...] | dict[str, str] = tuple(MUTANTS),
          env: str = ENV) -> set[str]:
    """Names from an environment value (comma-separated); unknown names raise."""
    return parse_names(value, known, env, "ordinary app")
