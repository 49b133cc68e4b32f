"""The rules written for small local models: the ``small`` profile (agent/policy.py's
``SMALL``, docs/models.md). Their readings of the page and of the task's words live here:
``hints`` (lines said after the page state, the questions asked again of a reply) and
``fields`` (what a form's fields take, actions held back that the task's words forbid). The
``standard`` profile never calls them (tests/test_verify_done.py)."""
