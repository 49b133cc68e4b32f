"""What the plugin keeps per run, per session and per test: ``pytest.StashKey``s, one place
(no state on ``config._x`` or in module globals)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..settings import Settings

SETTINGS = pytest.StashKey[Settings]()  # config: the run's settings
CHROMIUM = pytest.StashKey[Any]()  # config: the run's ChromiumChoice (imported lazily)
RUN_BUDGET = pytest.StashKey[Any]()  # config: the run's RunBudget (imported lazily)
FLAVOUR = pytest.StashKey[str]()  # session: "sync" or "async", whichever fixture came first
RECIPE_OWNERS = pytest.StashKey[dict[tuple[str, Any], str]]()  # session: recipe -> node id
ENGINE_REGISTERED = pytest.StashKey[bool]()  # session: the fingerprint selector engine is in
REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()  # item: its reports by phase
TEST_SECRETS = pytest.StashKey[Any]()  # item: its Secrets, filled as steps pass them
TEST_ARTIFACTS = pytest.StashKey[Path]()  # item: its output folder
TEST_EXPOSED = pytest.StashKey[bool]()  # item: a page showed a secret unmasked
EXPORT_PROPERTY = "webtask_export"  # item user property: its export file, or why none

# The webtask_sign_in fixture's object, once made: before each test its expired states are
# made again (sign_in.fresh_sign_ins).
SIGN_IN = pytest.StashKey[Any]()
