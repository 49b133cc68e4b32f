"""The example suites: the demo shop on a free loopback port, and what they were recorded with.

Replays (the default) never request ``webtask_llm``; it is built only when a step records.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from example_suites.demo_shop import DemoShop, mutants
from example_suites.scripted import scripted_llm
from pytest_webtask.naming import recipe_test_name
from pytest_webtask.recipes.storage import recipe_path
from pytest_webtask.settings import Settings

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def shop() -> Iterator[DemoShop]:
    """The demo shop; ``WEBTASK_DEMO_MUTANT=name[,name]`` starts it with those bugs (see
    ``demo_shop/mutants.py``; the mutation bench sets it)."""
    try:
        bugs = mutants.parse(os.environ.get(mutants.ENV, ""))
    except ValueError as exc:
        pytest.exit(str(exc), returncode=4)
    with DemoShop(seed=7, mutants=bugs) as running:
        yield running


@pytest.fixture(scope="session")
def base_url(shop: DemoShop) -> str:
    return shop.url


@pytest.fixture(scope="session")
def webtask_llm():  # type: ignore[no-untyped-def]
    """These suites were recorded with a ScriptedLLM (see scripted.py), not a model."""
    return scripted_llm()


@pytest.fixture
def receipt() -> Path:
    return DATA / "receipt.txt"


@pytest.fixture(autouse=True)
def _loopback_only(context):  # type: ignore[no-untyped-def]
    """Fail a test whose page sends any request off this machine."""
    outside: list[str] = []

    def guard(route):  # type: ignore[no-untyped-def]
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    yield
    assert not outside, f"requests left loopback: {outside}"


def _typed_checks() -> bool:
    """Does the installed pytest-webtask record typed checks (EVIDENCE_FORMAT, issue 9)?"""
    from pytest_webtask.recipes.model import Check

    return "expect" in Check.model_fields


@pytest.fixture(autouse=True)
def _typed_recipe(request: pytest.FixtureRequest) -> None:
    """Tests marked ``typed_checks`` are scripted with typed evidence (order, count, state,
    absence, scope). Until their recipes are recorded they are skipped where they cannot be
    recorded: in CI or with --webtask-replay-only (no recording), and with a pytest-webtask
    that has no typed checks yet (its recorder would reject the scripted evidence)."""
    if request.node.get_closest_marker("typed_checks") is None:
        return
    tail = request.node.nodeid.split("::", 1)[1]
    recipe = recipe_path(request.path, recipe_test_name(tail))
    if recipe.exists():
        return
    replay_only = bool(request.config.getoption("webtask_replay_only"))
    if replay_only or Settings().in_ci or not _typed_checks():
        pytest.skip(f"needs recipes recorded with typed checks ({recipe.name} is missing)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "typed_checks: scripted with typed evidence; skipped until recorded")
