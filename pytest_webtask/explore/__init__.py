"""Exploring an app and writing its regression suite: ``webtask explore`` (the explorer and
the planner write a test plan in Markdown) and ``webtask generate`` (one test per flow of
the plan, each recorded and replayed before it is kept).

Nothing here is loaded by the pytest plugin: the ``webtask`` command loads it.
"""
