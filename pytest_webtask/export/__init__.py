"""``--webtask-export DIR``: each passing test's replayed steps written as a plain
pytest-playwright test (locators from fingerprints, checks as ``expect`` assertions)."""
