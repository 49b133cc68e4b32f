# Frozen validation set (issue 45): written once, never tuned on; do not edit to make the agent pass.  # noqa: E501
"""The library app's plain tests, as a tester new to the site writes them (issue 45's second
app), and the regressions each must catch.

``bench/recording.py --app library`` records them with a real model and replays them with
none; ``--mutants`` replays each against the mutants ``COVERED_BY`` lists (it must fail) and
against the benign ``wrap`` variant (it must pass). Written before any recording was made and
never changed to suit one: a test the agent cannot record is a finding about the agent.
"""

from __future__ import annotations

# name -> the test's body, as a user writes it (the same shape as bench/recording.py's TESTS)
TESTS: dict[str, str] = {
    "search": '''
    webtask.goto("/")
    webtask.do("search the catalogue for The Night Orchard")
    webtask.check("the results say 1 book found")
    webtask.check("The Night Orchard is in the results")''',
    "details": '''
    webtask.goto("/catalogue")
    webtask.do("open the details of Salt and Iron")
    webtask.check("the author is Helen Okafor")''',
    "opening_hours": '''
    webtask.goto("/")
    webtask.do("open the menu and go to the opening hours")
    webtask.check("the library is closed on Sunday")''',
    "wrong_password": '''
    webtask.goto("/signin")
    webtask.do("sign in with email mara@example.org and password not-my-password")
    webtask.check("an error says the email or password is wrong")''',
    "join_empty": '''
    webtask.goto("/join")
    webtask.do("press Join without filling in the form")
    webtask.check("the form says the full name is required")''',
    "reserve": '''
    webtask.goto("/catalogue")
    webtask.do("open Paper Moons and reserve it")
    webtask.check("My reservations shows 1")''',
}

# name -> the mutants (mutants.MUTANTS) whose behaviour the test is about: it must fail on each.
COVERED_BY: dict[str, tuple[str, ...]] = {
    "search": ("search_ignored", "search_empty"),
    "details": ("details_wrong_author",),
    "opening_hours": ("menu_link_dead", "hours_sunday_open"),
    "wrong_password": ("wrong_password_accepted", "signin_error_hidden"),
    "join_empty": ("join_accepts_empty", "join_errors_hidden"),
    "reserve": ("reserve_count_stuck",),
}
