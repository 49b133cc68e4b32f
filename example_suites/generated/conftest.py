"""The generated suite records with ``pytest_webtask.testing.scripted_recorder`` (the shop and
its base URL come from ``example_suites/conftest.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from pytest_webtask.testing import scripted_recorder

# The demo shop's test user's password (example_suites/test_account.py uses it too); the
# generated tests read it from the environment, as the plan says.
DEMO_PASSWORD = ("WEBTASK_SECRET_PASSWORD", "lovelace-1815")


@pytest.fixture(scope="session")
def webtask_llm():  # type: ignore[no-untyped-def]
    """Recorded with a ScriptedLLM (scripted_recorder), not a model."""
    return scripted_recorder()


@pytest.fixture(scope="session", autouse=True)
def _demo_password() -> Iterator[None]:
    name, value = DEMO_PASSWORD
    old = os.environ.get(name)
    os.environ[name] = old or value
    yield
    if old is None:
        os.environ.pop(name, None)
