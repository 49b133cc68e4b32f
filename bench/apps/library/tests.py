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

# Frozen held-out set (issue 45, session 10, 2026-11-28): four more plain tests of the library,
# forms and a search with no result, written and committed before any run of them and before
# the changes they are to report were built; never tuned on, never edited to make the agent
# pass. Their runs' logs are read only after a change is decided. `--app library-2`.
HELDOUT_TESTS: dict[str, str] = {
    "join_no_postcode": '''
    webtask.goto("/join")
    webtask.do("fill in the form as Ann Lee with the email ann@example.org, agree to the rules, leave the postcode empty and press Join")
    webtask.check("the form says the postcode is required")''',
    "join_ok": '''
    webtask.goto("/join")
    webtask.do("join the library as Ann Lee with the email ann@example.org and the postcode AV1 2BC, agreeing to the rules")
    webtask.check("the page says Welcome to the library, Ann Lee!")''',
    "signin_right": '''
    webtask.goto("/signin")
    webtask.do("sign in with email mara@example.org and password quiet-shelves-9")
    webtask.check("the page says Welcome back, Mara")''',
    "search_none": '''
    webtask.goto("/")
    webtask.do("search the catalogue for Dragons of Mars")
    webtask.check("the results say No books found")''',
}

HELDOUT_COVERED_BY: dict[str, tuple[str, ...]] = {
    "join_no_postcode": ("join_accepts_empty", "join_errors_hidden"),
    "join_ok": (),
    "signin_right": (),
    "search_none": ("search_ignored",),
}

# Frozen held-out set (issue 45, session 11, 2026-11-28): three more failure paths of the
# library, written and committed before any run of them and before the change they are to
# report was built (a question about the page's answer to a failure path); never tuned on,
# never edited to make the agent pass. `--app library-3`.
FAILURES_TESTS: dict[str, str] = {
    "join_bad_email": '''
    webtask.goto("/join")
    webtask.do("try to join as Ann Lee with the invalid email ann.example.org and the postcode AV1 2BC, agreeing to the rules")
    webtask.check("the form says to enter an email address")''',
    "join_no_rules": '''
    webtask.goto("/join")
    webtask.do("fill in the form as Ann Lee with the email ann@example.org and the postcode AV1 2BC and press Join without agreeing to the rules")
    webtask.check("the form says you must agree to the library's rules")''',
    "signin_unknown": '''
    webtask.goto("/signin")
    webtask.do("sign in with the email nobody@example.org and the password whatever-1")
    webtask.check("the page says the email or password is incorrect")''',
}

FAILURES_COVERED_BY: dict[str, tuple[str, ...]] = {
    "join_bad_email": ("join_accepts_empty", "join_errors_hidden"),
    "join_no_rules": ("join_accepts_empty", "join_errors_hidden"),
    "signin_unknown": ("signin_error_hidden",),
}

# Frozen held-out set (issue 45, session 12, 2026-11-29): four forms of the library, written
# and committed before any run of them, to report `form-values` (a hint naming the field each
# of the task's values goes in) before and after; never tuned on, never edited to make the
# agent pass. Their runs' logs are read only after the change is decided. `--app library-4`.
FORMS_TESTS: dict[str, str] = {
    "join_bo": '''
    webtask.goto("/join")
    webtask.do("join the library as Bo Chen with the email bo.chen@example.org and the postcode AV2 3CD, agreeing to the rules")
    webtask.check("the page says Welcome to the library, Bo Chen!")''',
    "join_no_name": '''
    webtask.goto("/join")
    webtask.do("fill in the email bo.chen@example.org and the postcode AV2 3CD, tick the rules box and press Join, leaving the name empty")
    webtask.check("the form says the full name is required")''',
    "signin_mara": '''
    webtask.goto("/signin")
    webtask.do("log in with the email address mara@example.org and the password quiet-shelves-9")
    webtask.check("the page says Welcome back, Mara")''',
    "join_no_postcode_bo": '''
    webtask.goto("/join")
    webtask.do("try to join as Bo Chen with the email bo.chen@example.org and no postcode, agreeing to the rules")
    webtask.check("the form says the postcode is required")''',
}

FORMS_COVERED_BY: dict[str, tuple[str, ...]] = {
    "join_bo": (),
    "join_no_name": ("join_accepts_empty", "join_errors_hidden"),
    "signin_mara": (),
    "join_no_postcode_bo": ("join_accepts_empty", "join_errors_hidden"),
}

# Frozen held-out set (issue 45, session 13, 2026-11-29): four more plain tests of the library,
# two failure paths and two tasks of several steps, written and committed before any run of
# them, to report `named-actions` (each action shown with the element it ran on) before and
# after; never tuned on, never edited to make the agent pass. Their runs' logs are read only
# after the change is decided. `--app library-5`.
MIXED_TESTS: dict[str, str] = {
    "join_no_email_cy": '''
    webtask.goto("/join")
    webtask.do("fill in the name Cy Park and the postcode AV3 4EF, agree to the rules and press Join without giving an email")
    webtask.check("the form says to enter an email address")''',
    "signin_wrong_mara": '''
    webtask.goto("/signin")
    webtask.do("try to sign in as mara@example.org with the wrong password shelves-quiet-1")
    webtask.check("the page says the email or password is incorrect")''',
    "hours_from_home": '''
    webtask.goto("/")
    webtask.do("go to the opening hours using the site menu")
    webtask.check("the page shows the opening hours")''',
    "search_then_details": '''
    webtask.goto("/catalogue")
    webtask.do("search the catalogue for Salt and Iron and open its details")
    webtask.check("the author is Helen Okafor")''',
}

MIXED_COVERED_BY: dict[str, tuple[str, ...]] = {
    "join_no_email_cy": ("join_accepts_empty", "join_errors_hidden"),
    "signin_wrong_mara": ("wrong_password_accepted", "signin_error_hidden"),
    "hours_from_home": ("menu_link_dead",),
    "search_then_details": ("details_wrong_author", "search_empty"),
}

# Frozen held-out set (issue 45, session 13, 2026-11-29): three failure paths of the library,
# written and committed before any run of them, to report `fields-now` (page-answered's
# question says what each field holds) before and after; never tuned on, never edited to make
# the agent pass. Their runs' logs are read only after the change is decided. `--app library-6`.
REFUSALS_TESTS: dict[str, str] = {
    "join_only_email_dee": '''
    webtask.goto("/join")
    webtask.do("fill in only the email dee@example.org, tick the rules box and press Join")
    webtask.check("the form says the full name is required")''',
    "signin_empty_password": '''
    webtask.goto("/signin")
    webtask.do("sign in with the email mara@example.org and an empty password")
    webtask.check("the page says the email or password is incorrect")''',
    "join_rules_unticked_dee": '''
    webtask.goto("/join")
    webtask.do("join as Dee Ray with the email dee@example.org and the postcode AV4 5GH but do not tick the rules box")
    webtask.check("the form says you must agree to the library's rules")''',
}

REFUSALS_COVERED_BY: dict[str, tuple[str, ...]] = {
    "join_only_email_dee": ("join_accepts_empty", "join_errors_hidden"),
    "signin_empty_password": ("wrong_password_accepted", "signin_error_hidden"),
    "join_rules_unticked_dee": ("join_accepts_empty", "join_errors_hidden"),
}
