# Frozen validation set (issue 73): written once, never tuned on; do not edit to make the agent pass.  # noqa: E501
"""The ordinary app's plain tests, as a QA engineer new to the site writes them (issue 73),
and the regressions each must catch.

``bench/recording.py --app ordinary`` records them with a real model and replays them with
none; ``--mutants`` replays each against the mutants ``COVERED_BY`` lists (it must fail) and
against the benign ``wrap`` variant (it must pass). Written before any recording was made and
never changed to suit one: a test the agent cannot record is a finding about the agent. The
bench resets the app's data before every run of a test, and no test relies on what another
one wrote (each edits or deletes a task of its own).
"""

from __future__ import annotations

# name -> the test's body, as a user writes it (the same shape as bench/recording.py's TESTS)
TESTS: dict[str, str] = {
    "category": '''
    webtask.goto("/shop/all")
    webtask.do("show only the Jackets category")
    webtask.check("the page says 7 products")
    webtask.check("every product listed is a jacket")''',
    "next_page": '''
    webtask.goto("/shop/all")
    webtask.do("go to the next page of products")
    webtask.check("the Trail Beanie is listed")''',
    "pending_orders": '''
    webtask.goto("/orders")
    webtask.do("show only the pending orders")
    webtask.check("the page says Showing 1 to 15 of 18 orders")
    webtask.check("every order in the table is Pending")''',
    "only_my_tasks": '''
    webtask.goto("/settings")
    webtask.do("tick 'Show only my tasks' and click Save")
    webtask.check("the page says the settings have been saved")
    webtask.goto("/tasks")
    webtask.check("only tasks assigned to Sam Ortiz are listed")''',
    "email_notifications": '''
    webtask.goto("/settings")
    webtask.do("turn on email notifications")
    webtask.goto("/settings")
    webtask.check("email notifications are on")''',
    "announcements": '''
    webtask.goto("/")
    webtask.do("open the announcements")
    webtask.check("there is an announcement 'Office closed on 24 December'")''',
    "team_search": '''
    webtask.goto("/team")
    webtask.do("search the team for Priya")
    webtask.check("only Priya Natarajan is listed")''',
    "new_task": '''
    webtask.goto("/tasks")
    webtask.do("add a task called Order toner due 2026-12-20")
    webtask.check("Order toner is in the task list, due 2026-12-20")''',
    "delete_task": '''
    webtask.goto("/tasks")
    webtask.do("delete the task 'Water the plants'")
    webtask.check("'Water the plants' is no longer in the list")''',
    "cancel_delete": '''
    webtask.goto("/tasks")
    webtask.do("click Delete on the task 'Renew the parking permit' but cancel when asked to confirm")
    webtask.check("'Renew the parking permit' is still in the list")''',
    "rename_task": '''
    webtask.goto("/tasks")
    webtask.do("rename the task 'Book the venue' to 'Book the venue for the summer party'")
    webtask.goto("/tasks")
    webtask.check("the task 'Book the venue for the summer party' is listed")''',
    "saved_message": '''
    webtask.goto("/tasks")
    webtask.do("change the title of the task 'Call the courier' to 'Call the courier about the late parcel'")
    webtask.check("a message says Task saved")''',
    "task_count": '''
    webtask.goto("/tasks")
    webtask.do("delete the task 'Empty the dishwasher'")
    webtask.check("the page says 7 open tasks")''',
}

# name -> the mutants (mutants.MUTANTS) whose behaviour the test is about: it must fail on each.
COVERED_BY: dict[str, tuple[str, ...]] = {
    "category": ("category_ignored",),
    "next_page": ("pager_stuck",),
    "pending_orders": ("status_filter_ignored",),
    "only_my_tasks": ("show_only_mine_ignored",),
    "email_notifications": ("switch_not_saved",),
    "announcements": ("announcements_empty",),
    "team_search": ("search_ignored",),
    "new_task": ("modal_create_lost",),
    "delete_task": ("confirm_inverted",),
    "cancel_delete": ("confirm_inverted", "delete_without_confirm"),
    "rename_task": ("edit_in_place_not_saved",),
    "saved_message": ("toast_missing",),
    "task_count": ("count_stuck", "confirm_inverted"),
}
