from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.server import LocalServer


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    srv = LocalServer()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def _other_server() -> Iterator[LocalServer]:
    srv = LocalServer()
    yield srv
    srv.stop()


@pytest.fixture
def other(_other_server: LocalServer) -> LocalServer:
    """A second loopback server: another origin, which must receive nothing it should not."""
    return _other_server


@pytest.fixture(autouse=True)
def _clear_server(server: LocalServer, _other_server: LocalServer) -> None:
    for srv in (server, _other_server):
        srv.posts.clear()
        srv.requests.clear()
        srv.pages.clear()
        srv.redirects.clear()


# Async tests of the async twin cannot share a process with pytest-playwright's sync
# fixtures (their event loop is already running): test_async_twin.py runs them apart.
collect_ignore = [] if os.environ.get("WEBTASK_ASYNC_TWIN") else ["async_twin"]
