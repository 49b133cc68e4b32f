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

DATA = Path(__file__).parent / "data"

# The suite webtask explore/generate wrote runs on its own (`pytest example_suites/generated`),
# so the hand-written suites' counts and the mutation bench's default run stay theirs.
collect_ignore = ["generated"]


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
